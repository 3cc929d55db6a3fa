"""`bnproof fuzz`: search a claim's instance space for an exactly confirmed violation."""

from __future__ import annotations

import contextlib
import json
import signal
import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import BadInput, BnproofError, ExitCode
from . import distributed_options as options
from .application import EPILOG, app
from .outputs import OUT_DIR as DEFAULT_OUT_DIR  # never the committed certificates/ unless --record



@app.command(epilog=EPILOG)
def fuzz(
    claim: str = typer.Argument(..., help="A claim id or alias (see `bnproof list`), or a claim file FILE.py."),
    seed: int = typer.Option(0, "--seed", min=0, help="Random seed: the same seed gives the same search."),
    max_examples: int = typer.Option(200, "--max-examples", min=1, help="Hypothesis examples per claim."),
    batch: int = typer.Option(2048, "--batch", min=1, help="JAX instances per size in the batched search."),
    time_budget: float = typer.Option(
        20.0, "--time-budget", min=0.1,
        help="Seconds per claim, at most, for everything: search, JAX compilation, shrinking, "
             "certification and the symbolic proofs (the search takes half of it when an identity is to "
             "be proved at fixed sizes; the proof for every m gets what is left). The search process is "
             "killed a moment after; what it found is kept."),
    size: List[str] = typer.Option([], "--size", help="Fix a size, e.g. --size m=3 (repeatable), one of those "
                                   "the claim declares: a size outside its range is bad input (exit 3)."),
    no_jax: bool = typer.Option(False, "--no-jax", help="Hypothesis only; skip the JAX search."),
    as_json: bool = typer.Option(
        False, "--json", help='Print a JSON list, one object per claim (also for one): '
        '{"claim", "verdict", "reason", "instances", ..., "proof"}, each what bnproof.fuzz(...).to_json() '
        'returns; "proof" is the proof for every m attempted for a claim that survived, as `bnproof prove '
        '--json` gives it ({"status", "text", "fixed", "covered", "certificates", "blocked_by", "normal_form", '
        '"normal_form_text", "hint"}: docs/cli.md, "The proof object"), or {"status": "not-attempted", '
        '"text": "not attempted: WHY", ...}.'),
    timings: bool = typer.Option(True, "--timings/--no-timings",
                                 help="Report wall time (--no-timings makes output byte-identical per seed)."),
    out_dir: Path = typer.Option(
        Path(DEFAULT_OUT_DIR), "--out-dir", metavar="DIR",
        help="Where certificates are written, as DIR/<claim id>.json. The committed certificates/ "
             "and proofs/verdicts.json change only with --record."),
    record: bool = typer.Option(False, "--record",
                                help="Update the committed results: store each verdict in proofs/verdicts.json "
                                     "and its certificate in certificates/ as soon as it is reached."),
    overwrite: bool = typer.Option(False, "--overwrite",
                                   help="With --record: replace verdicts recorded with another seed "
                                        "(refused otherwise, before any search)."),
    resume: bool = typer.Option(False, "--resume",
                                help="With --record: skip claims already recorded with this seed "
                                     "(continue an interrupted run)."),
    prove: bool = typer.Option(True, "--prove/--no-prove",
                               help="For identities that survive, prove them with symbols at the claim's fixed sizes; "
                                    "prove every claim that survives for every m (bnproof prove), within "
                                    "--time-budget."),
    distributed: bool = options.DISTRIBUTED,
    coordinator: Optional[str] = options.COORDINATOR,
    num_processes: Optional[int] = options.NUM_PROCESSES,
    process_id: Optional[int] = options.PROCESS_ID,
) -> None:
    """Search a claim's instance space for a counterexample, confirmed exactly.

    A refutation is printed only after the violation is confirmed in exact
    arithmetic and its certificate is accepted by the independent checker; it
    is then shrunk, and the certificate is written as soon as it is found.
    Otherwise the verdict is "no counterexample in N instances, M met the
    hypotheses" (never a proof), "verified exactly" when an identity is proved
    at every size the claim declares (proved at part of them, the verdict is the
    search's, with a note naming the sizes proved), "vacuous" when no instance
    met the hypotheses, or "undecided" with the reason.  Ctrl-C stops at once and keeps
    what was found (exit code 130).  With --distributed, each process searches
    a block of the claims and process 0 reports them all, in order, and alone
    writes the certificates."""
    try:
        _fuzz(claim, seed, max_examples, batch, time_budget, size, no_jax, as_json, timings, record,
              resume, prove, out_dir, overwrite, (distributed, coordinator, num_processes, process_id))
    except KeyboardInterrupt:  # wherever it lands; main() says "interrupted" for every command
        _ignore_further_interrupts()
        raise typer.Exit(ExitCode.INTERRUPTED) from None


def _write_early(render_fuzz, claim, refutation, directory: Path) -> None:
    """Each certified counterexample's certificate as soon as it arrives; a
    failure to write it is reported once the claim ends (finish)."""
    with contextlib.suppress(OSError):
        render_fuzz.write_certificate(claim, refutation, directory)


def _ignore_further_interrupts() -> None:
    """Once stopping, stop: a second Ctrl-C would cut the saving of what was
    found short, or kill the process by the signal instead of exit code 130."""
    with contextlib.suppress(ValueError):  # not the main thread: nothing to do
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _claims(name: str, time_budget: float = 20.0, as_json: bool = False) -> tuple[list, dict]:
    """The claims to search, each id unique and usable as a certificate's
    path, and each claim file's fingerprint as it was loaded (within the time budget)."""
    from ..search.fuzz import check_apart, check_id
    from ..search.worker import digest
    from .load_budget import resolve_within

    with contextlib.redirect_stdout(sys.stderr):  # a claim file's prints are not the report
        found = resolve_within(name, time_budget, as_json)
    digests = {c.path: digest(c.path) for c in found if c.path}
    claims, seen = [], {}
    for c in found:
        if c.id in seen:
            if seen[c.id] == c:  # one claim bound to two names: searched once
                continue
            raise BadInput(f"two claims have the id {c.id!r}"
                           f"{' in ' + c.path if c.path else ''}: each id names one certificate and one record")
        check_id(c)
        seen[c.id] = c
        claims.append(c)
    check_apart(claims)
    return claims, digests


def _fuzz(claim, seed, max_examples, batch, time_budget, size, no_jax, as_json, timings, record,
          resume, prove, out_dir, overwrite, cluster_options=(False, None, None, None),
          only=None) -> None:
    from ..render import fuzz as render_fuzz
    from ..search import fuzz as search
    from ..search import record as store
    from ..search.space import size_grid
    from ..search.worker import Supervisor

    claims, digests = _claims(claim, time_budget, as_json)
    sizes = _parse_sizes(size)
    if resume and not record:
        raise BadInput("--resume continues a --record run: give both")
    if overwrite and not record:
        raise BadInput("--overwrite replaces recorded verdicts: give it with --record")
    if record:
        _check_recordable(claims)
    # committed results (certificates/ beside proofs/verdicts.json) only when asked to record
    directory = Path("certificates") if record else out_dir
    # --size fixes a size in every claim that has it (a paper's claims differ in their
    # sizes); a name no claim has is bad input, as are bad sizes, before anything runs
    unknown = sorted(set(sizes) - {name for c in claims for name in c.sizes})
    if unknown and len(claims) > 1:
        raise BadInput(f"no claim has the size {unknown[0]!r} (--size)")
    for c in claims:
        size_grid(c, _sizes_of(c, sizes, len(claims)))
    search_options = {"seed": seed, "max_examples": max_examples, "batch": batch,
                      "time_budget": time_budget, "sizes": sizes, "use_jax": not no_jax, "prove": prove}
    entries = store.load(strict=True) if record else {}
    if record and not overwrite:
        _check_seeds(claims, entries, seed)
    if cluster_options[0] and record:
        raise BadInput("--record with --distributed: record from a single process (the verdicts file "
                       "is updated claim by claim, by one writer)")
    cluster = options.cluster(*cluster_options)
    if cluster.distributed:  # each process runs this single-host path on its block of the claims
        from .fuzz_distributed import fuzz_shared

        def run_block(ids, scratch):
            _fuzz(claim, seed, max_examples, batch, time_budget, size, no_jax, as_json, timings, record,
                  resume, prove, scratch, overwrite, only=ids)

        fuzz_shared(cluster, claims, run_block, directory, as_json)
    searched = claims if only is None else [c for c in claims if c.id in only]
    verdicts, results = [], []

    def finish(c, outcome, line) -> None:
        path = None
        if outcome.refutation:
            try:
                path = render_fuzz.write_certificate(c, outcome.refutation, directory)
            except OSError as err:  # refuted means a certificate on disk: without one, undecided
                outcome.verdict, outcome.reason = search.UNDECIDED, (
                    "a counterexample was found and certified, but its certificate could not be "
                    f"written: {err.filename or directory}: {err.strerror or err}")
        witness_path = None
        if outcome.witnesses:  # an existential claim's witnesses, for the checker
            from ..search.exists import save_witnesses

            witness_path = save_witnesses(c, outcome, directory)
        proof = None
        if prove:  # a claim that survives gets a proof for every m (its line comes first among the notes)
            import time

            from ..symbolic_m.survivor import prove_survivor, record_field

            # the worker made the attempts under the claim's budget; none is made here, unbounded
            proof = prove_survivor(c, outcome, directory, deadline=time.monotonic())
        else:
            from ..symbolic_m.survivor import unasked

            unasked(outcome)
        result = render_fuzz.to_json(outcome, path, timings, None if witness_path is None else str(witness_path))
        if record:  # at once, so an interrupted run loses nothing it finished
            entries[c.id] = render_fuzz.record_entry(outcome)
            if proof is not None and record_field(proof):
                entries[c.id]["proof"] = record_field(proof)
            try:
                store.update(c.id, entries[c.id])  # one entry: other runs' records stay
            except OSError as err:
                raise BadInput(f"cannot record the verdict in {store.path()}: "
                               f"{err.strerror or err}") from None
        line.clear()
        if not as_json:
            for text in render_fuzz.to_text(outcome, result, timings):
                typer.echo(text)
        verdicts.append(outcome.verdict)
        results.append(result)

    with Supervisor(warm_jax=not no_jax) as supervisor, render_fuzz.ProgressLine(not as_json) as line:
        try:
            for c in searched:
                done = entries.get(c.id)
                if resume and done and done.get("seed") == seed:
                    verdicts.append(done["verdict"])
                    results.append({"claim": c.id, "resumed": True, **done})
                    if not as_json:
                        typer.echo(f"{c.id}: already recorded with seed {seed} ({done['verdict']}); skipped")
                    continue
                outcome = supervisor.run(
                    c, {**search_options, "sizes": _sizes_of(c, sizes, len(claims))},
                    on_refutation=lambda found, c=c: _write_early(render_fuzz, c, found, directory),
                    on_progress=lambda coverage, left, c=c: line.show(c.id, coverage, left, time_budget),
                    digest=digests.get(c.path))
                finish(c, outcome, line)
        except BnproofError as err:  # a run stopped by an error still reports the claims it finished
            supervisor.close()
            line.clear()
            err.finished = results  # under --json, part of the one error object (cli/guard.py)
            raise
        except KeyboardInterrupt as stop:
            _ignore_further_interrupts()
            supervisor.close()
            line.clear()
            # a claim refuted before the interrupt keeps its verdict; its certificate is on disk
            outcome = getattr(stop, "outcome", None)
            if outcome is not None and outcome.verdict == search.REFUTED:
                finish(outcome.claim, outcome, line)
            if as_json and results:
                _print_json(results)
            raise
    if as_json:
        _print_json(results)
    raise typer.Exit(render_fuzz.exit_code(verdicts))


def _print_json(results: list) -> None:
    """A list with one object per claim, also for one claim: a script reads every
    run the same way (as `check --json` lists one object per file)."""
    typer.echo(json.dumps(results, indent=2, ensure_ascii=False))


def _check_recordable(claims: list) -> None:
    """--record keeps proofs/verdicts.json, the record `bnproof list` shows,
    beside the certificates it names: only claims of proofs/, only from the
    folder that holds both (certificates/ is written in the working folder)."""
    from ..claims.api import proofs_root

    root = proofs_root().resolve()
    if Path.cwd().resolve() != root.parent:
        raise BadInput(f"--record writes {root / 'verdicts.json'} and the certificates it names: "
                       f"run it from {root.parent}, where certificates/ is")
    for c in claims:
        if not c.path or not Path(c.path).resolve().is_relative_to(root):
            raise BadInput(f"--record keeps the verdicts of the claims in {root} (bnproof list); "
                           f"{c.path or c.id} is not one of them: search it without --record")


def _check_seeds(claims: list, entries: dict, seed: int) -> None:
    """A verdict recorded with another seed is kept unless --overwrite says to
    replace it: `--record --seed 7` once silently replaced the seed-0 record."""
    for c in claims:
        done = entries.get(c.id)
        if isinstance(done, dict) and done.get("seed", seed) != seed:
            raise BadInput(f"{c.id} is recorded with seed {done.get('seed')} in {_record_path()}; "
                           f"--record --seed {seed} would replace it: add --overwrite to replace it, "
                           "or search without --record")


def _record_path():
    from ..search import record as store

    return store.path()


def _sizes_of(claim, sizes: dict, count: int) -> dict:
    """The --size values that apply to this claim (all of them for a single claim,
    so that a wrong name is reported against it)."""
    return sizes if count == 1 else {k: v for k, v in sizes.items() if k in claim.sizes}


def _parse_sizes(items: list[str]) -> dict:
    sizes = {}
    for item in items:
        name, _, value = item.partition("=")
        if not name or not value.isdigit():
            raise BadInput(f"--size expects NAME=INTEGER, got {item!r}")
        sizes[name.strip()] = int(value)
    return sizes
