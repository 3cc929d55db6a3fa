"""The `bnproof` command line."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from .errors import EXIT_CODE_HELP, BadInput, BnproofError, ExitCode

EPILOG = "Exit codes:\n\n" + "\n\n".join(EXIT_CODE_HELP.splitlines())

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Check mathematical claims about batch normalization exactly, independently and at scale.",
    epilog=EPILOG,
)

KNOWN_CLAIMS = {"lemma-4.5": "Santurkar et al. (2018), Lemma 4.5: BN leads to a favourable initialization"}


def _version(value: bool) -> None:
    if value:
        from . import __version__

        typer.echo(f"bnproof {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Check mathematical claims about batch normalization exactly, independently and at scale."""


def _default_certificate_path(claim: str, data: Optional[Path]) -> Path:
    name = claim if data is None else f"{claim}-{data.stem}"
    return Path("certificates") / f"{name}.json"


@app.command(epilog=EPILOG)
def verify(
    claim: str = typer.Argument(..., help="The claim to verify: lemma-4.5."),
    data: Optional[Path] = typer.Option(
        None, "--data", help='Instance as JSON: {"X": [[...]], "y": [...] or "Y": [[...]], '
        '"W0": [...], "gamma", "beta"}. Numbers: integers, "p/q" or decimals, read exactly. '
        "Default: Example 3.2 of Dannemann & Junike (2025)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the report."),
    out: Optional[Path] = typer.Option(
        None, "--out", help="Where to write the certificate "
        "(default: certificates/<claim>.json, or certificates/<claim>-<data stem>.json)."),
    crosscheck: bool = typer.Option(True, "--crosscheck/--no-crosscheck",
                                    help="Cross-check every exact derivative with JAX autodiff."),
) -> None:
    """Decide a claim on an instance exactly, cross-check it and write a certificate.

    Every number is derived by the exact engine (rationals and square roots, never
    floats), every derivative is compared with JAX autodiff, and the certificate is
    re-verified by the independent checker before the verdict is printed."""
    if claim not in KNOWN_CLAIMS:
        known = ", ".join(KNOWN_CLAIMS)
        raise BadInput(f"unknown claim {claim!r}; known claims: {known}")
    from .instance import example_3_2, load_instance

    instance = example_3_2() if data is None else load_instance(data)
    worker = None
    if crosscheck:
        from .numeric import crosscheck as cc

        # JAX starts in its own process now and works on the second core while
        # the exact engine derives and SymPy renders.
        worker = cc.Worker()
    try:
        from .claims import lemma45

        report = lemma45.analyse(instance)
        if worker is not None:
            worker.submit([n.neuron for n in report.neurons], cc.points_for(report))
        from .render import report as render

        forms = render.forms_for(report)
        numeric = None
        if worker is not None:
            numeric = cc.ensure(worker.result())
            worker = None
    finally:
        if worker is not None:
            worker.cancel()

    from .certificate import lemma45 as certificate
    from .certificate.io import write_atomic
    from .checker import check_file

    path = write_atomic(out or _default_certificate_path(claim, data), certificate.build(report))
    accepted, line = check_file(path)
    if not accepted:
        raise BnproofError(f"the checker rejected the certificate just written: {line}")
    extras = render.Extras(numeric, str(path), "checked: " + line.split(" ", 1)[0])

    if as_json:
        typer.echo(json.dumps(render.to_json(report, forms, extras), indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        console = Console(highlight=False, soft_wrap=True)
        for text in render.to_text(report, forms, extras):
            console.print(text)
    for n in report.neurons:
        if n.verdict == lemma45.HYPOTHESIS_NOT_MET:
            where = f" for neuron {n.index + 1}" if instance.n > 1 else ""
            typer.echo(f"note: hypothesis not met{where}: ⟨W0, W*⟩ = {n.inner} ≤ 0, so Lemma 4.5 "
                       "says nothing about this instance", err=True)
    raise typer.Exit(_exit_for(report.verdict))


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
    record: bool = typer.Option(False, "--record", help="Store the verdict in proofs/verdicts.json."),
    prove: bool = typer.Option(True, "--prove/--no-prove",
                               help="For identities that survive, prove them with symbols at the claim's fixed sizes."),
) -> None:
    """Search a claim's instance space for a counterexample, confirmed exactly.

    A refutation is printed only after the violation is confirmed in exact
    arithmetic; it is then shrunk and written as a certificate.  Otherwise the
    answer is "no counterexample in N instances", which is never a proof."""
    from .claims.api import resolve
    from .render import fuzz as render_fuzz
    from .search import fuzz as search

    claims = resolve(claim)
    sizes = _parse_sizes(size)
    outcomes, results = [], []
    with render_fuzz.progress(enabled=not as_json) as tick:
        for c in claims:
            outcome = search.fuzz(c, seed=seed, max_examples=max_examples, batch=batch,
                                  time_budget=time_budget, sizes=sizes, use_jax=not no_jax,
                                  database=Path(".bnproof") / "examples", prove=prove,
                                  progress=tick)
            cert_line = None
            path = None
            if outcome.verdict == search.REFUTED:
                path, cert_line = render_fuzz.write_certificate(outcome)
            outcomes.append(outcome)
            results.append(render_fuzz.to_json(outcome, path, cert_line, timings))
    if record:
        from .search import record as store

        entries = store.load()
        for outcome in outcomes:
            entries[outcome.claim.id] = render_fuzz.record_entry(outcome)
        store.save(entries)
    if as_json:
        typer.echo(json.dumps(results[0] if len(results) == 1 else results, indent=2, ensure_ascii=False))
    else:
        for outcome, result in zip(outcomes, results):
            for line in render_fuzz.to_text(outcome, result, timings):
                typer.echo(line)
    refuted = any(o.verdict == search.REFUTED for o in outcomes)
    raise typer.Exit(ExitCode.REFUTED if refuted else ExitCode.OK)


def _parse_sizes(items: list[str]) -> dict:
    sizes = {}
    for item in items:
        name, _, value = item.partition("=")
        if not name or not value.isdigit():
            raise BadInput(f"--size expects NAME=INTEGER, got {item!r}")
        sizes[name.strip()] = int(value)
    return sizes


@app.command(name="list", epilog=EPILOG)
def list_claims(
    as_json: bool = typer.Option(False, "--json", help="Print a JSON list instead of a table."),
) -> None:
    """Every known claim with its source and current verdict."""
    from .claims.api import all_claims
    from .render import fuzz as render_fuzz

    rows = render_fuzz.listing(all_claims())
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(show_lines=False)
    for column in ("claim", "source", "verdict"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(row["id"], row["source_short"], row["verdict_text"])
    Console(soft_wrap=False).print(table)


def _exit_for(verdict: str) -> int:
    from .claims import lemma45

    return {
        lemma45.REFUTED: ExitCode.REFUTED,
        lemma45.HOLDS: ExitCode.OK,
        lemma45.HYPOTHESIS_NOT_MET: ExitCode.HYPOTHESIS_NOT_MET,
    }[verdict]


@app.command(epilog=EPILOG)
def check(
    files: List[Path] = typer.Argument(..., help="Certificate files to verify."),
) -> None:
    """Re-verify certificates with the independent checker.

    The checker uses the standard library only and trusts nothing else in bnproof.
    It prints ACCEPTED, or REJECTED with the reason, one line per file."""
    from .checker import check_file

    all_ok = True
    for path in files:
        accepted, line = check_file(path)
        all_ok &= accepted
        typer.echo(line)
    raise typer.Exit(ExitCode.OK if all_ok else ExitCode.REJECTED)


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: one-line errors with their exit codes, never a traceback.
    Usage errors and exits are typer's own (code 2 for a bad command line)."""
    try:
        app(args=argv, prog_name="bnproof")
    except BnproofError as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as err:  # noqa: BLE001 - the last line of defence
        if os.environ.get("BNPROOF_DEBUG"):
            raise
        typer.echo(f"internal error: {type(err).__name__}: {err} (set BNPROOF_DEBUG=1 for a traceback)",
                   err=True)
        sys.exit(ExitCode.INTERNAL)
