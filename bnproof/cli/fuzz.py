"""`bnproof fuzz`: search a claim's instance space for an exactly confirmed violation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

import typer

from ..errors import BadInput, ExitCode
from .app import EPILOG, app


@app.command(epilog=EPILOG)
def fuzz(
    claim: str = typer.Argument(..., help="A claim id or alias (see `bnproof list`), or a claim file FILE.py."),
    seed: int = typer.Option(0, "--seed", help="Random seed: the same seed gives the same search."),
    max_examples: int = typer.Option(200, "--max-examples", min=1, help="Hypothesis examples per claim."),
    batch: int = typer.Option(2048, "--batch", min=1, help="JAX instances per size in the batched search."),
    time_budget: float = typer.Option(20.0, "--time-budget", min=0.1, help="Seconds per claim, at most."),
    size: List[str] = typer.Option([], "--size", help="Fix a size, e.g. --size m=3 (repeatable)."),
    no_jax: bool = typer.Option(False, "--no-jax", help="Hypothesis only; skip the JAX search."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per claim (a list if several)."),
    timings: bool = typer.Option(True, "--timings/--no-timings",
                                 help="Report wall time (--no-timings makes output byte-identical per seed)."),
    record: bool = typer.Option(False, "--record",
                                help="Store each verdict in proofs/verdicts.json as soon as it is reached."),
    resume: bool = typer.Option(False, "--resume",
                                help="With --record: skip claims already recorded with this seed "
                                     "(continue an interrupted run)."),
    prove: bool = typer.Option(True, "--prove/--no-prove",
                               help="For identities that survive, prove them with symbols at the claim's fixed sizes."),
) -> None:
    """Search a claim's instance space for a counterexample, confirmed exactly.

    A refutation is printed only after the violation is confirmed in exact
    arithmetic; it is then shrunk and written as a certificate.  Otherwise the
    answer is "no counterexample in N instances", which is never a proof."""
    from ..claims.api import resolve
    from ..render import fuzz as render_fuzz
    from ..search import fuzz as search

    claims = resolve(claim)
    sizes = _parse_sizes(size)
    if resume and not record:
        raise BadInput("--resume continues a --record run: give both")
    from ..search import record as store

    entries = store.load() if record else {}
    verdicts, results = [], []
    with render_fuzz.progress(enabled=not as_json) as tick:
        for c in claims:
            done = entries.get(c.id)
            if resume and done and done.get("seed") == seed:
                verdicts.append(done["verdict"])
                results.append({"claim": c.id, "resumed": True, **done})
                if not as_json:
                    typer.echo(f"{c.id}: already recorded with seed {seed} ({done['verdict']}); skipped")
                continue
            outcome = search.fuzz(c, seed=seed, max_examples=max_examples, batch=batch,
                                  time_budget=time_budget, sizes=sizes, use_jax=not no_jax,
                                  database=Path(".bnproof") / "examples", prove=prove,
                                  progress=tick)
            cert_line = None
            path = None
            if outcome.verdict == search.REFUTED:
                path, cert_line = render_fuzz.write_certificate(outcome)
            result = render_fuzz.to_json(outcome, path, cert_line, timings)
            if record:  # at once, so an interrupted run loses nothing it finished
                entries[c.id] = render_fuzz.record_entry(outcome)
                store.save(entries)
            if not as_json:
                for line in render_fuzz.to_text(outcome, result, timings):
                    typer.echo(line)
            verdicts.append(outcome.verdict)
            results.append(result)
    if as_json:
        typer.echo(json.dumps(results[0] if len(results) == 1 else results, indent=2, ensure_ascii=False))
    refuted = search.REFUTED in verdicts
    raise typer.Exit(ExitCode.REFUTED if refuted else ExitCode.OK)


def _parse_sizes(items: list[str]) -> dict:
    sizes = {}
    for item in items:
        name, _, value = item.partition("=")
        if not name or not value.isdigit():
            raise BadInput(f"--size expects NAME=INTEGER, got {item!r}")
        sizes[name.strip()] = int(value)
    return sizes


