"""`bnproof prove`: prove claims for every batch size m, with a proof certificate."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from .._api.prove import DEFAULT_BUDGET
from ..errors import BadInput, BnproofError, ExitCode
from .application import EPILOG, app
from .outputs import OUT_DIR as DEFAULT_OUT_DIR  # never the committed certificates/ unless --record



@app.command(epilog=EPILOG)
def prove(
    claim: str = typer.Argument(..., help="A claim id or alias (see `bnproof list`), a prefix such as "
                                          "santurkar2018, or a claim file FILE.py."),
    as_json: bool = typer.Option(
        False, "--json", help='Print a JSON list, one object per claim (also for one): {"claim", "status", '
        '"text", "fixed", "covered", "certificates", "blocked_by", "normal_form", "normal_form_text", "hint"} '
        '(docs/cli.md, "The proof object"); status is "proved", "proved-partly", "not-proved", '
        '"outside-fragment", "undecided" or "budget", covered lists the fixed sizes proved (each an object, {} '
        'when m is the only size), normal_form is the LaTeX of the residual normal form ("0" when it is 0) '
        'and normal_form_text its Unicode, each what bnproof.prove(...).to_json() returns.'),
    out_dir: Path = typer.Option(
        Path(DEFAULT_OUT_DIR), "--out-dir", metavar="DIR",
        help="Where proof certificates are written, as DIR/<claim id>.proof.json (DIR/<claim id>.d2.proof.json "
             "at a fixed size d = 2). The committed "
             "certificates/ change only with --record."),
    record: bool = typer.Option(False, "--record",
                                help="Write each proof certificate into the committed certificates/ "
                                     "(claims of proofs/ only)."),
    time_budget: float = typer.Option(
        DEFAULT_BUDGET, "--time-budget", min=0.1,
        help="Seconds per claim, at most, for its proof at every fixed size. The proof runs in a worker "
             "process that is killed a moment after; the sizes proved by then are kept (\"proved for part "
             "of the range\"), else \"not proved: time budget exhausted\"."),
) -> None:
    """Prove claims for every batch size m: the residual's normal form in an algebra of
    batch sums and roots is 0 (an identity), or a manifestly nonnegative combination
    (an inequality).  Each proof is replayed by the independent checker before its
    certificate is written.  "proved" (exit 0) only when every fixed size the claim
    declares (each size but m) is proved; otherwise "proved for part of the range:
    …" naming the sizes proved and those not, "not proved: normal form …" or "not in
    the provable fragment: uses …" (exit 10); never more than is established.  Below
    a claim not proved: what blocked it, its normal form in Unicode where the line does
    not show it, and a hint (a domain to declare, a missing hypothesis) where the
    claim with that change is proved.  Ctrl-C stops at once (exit code 130)."""
    try:
        _prove(claim, as_json, out_dir, record, time_budget)
    except KeyboardInterrupt:  # wherever it lands; main() says "interrupted" for every command
        from .fuzz import _ignore_further_interrupts

        _ignore_further_interrupts()
        raise typer.Exit(ExitCode.INTERRUPTED) from None


def _prove(claim: str, as_json: bool, out_dir: Path, record: bool, time_budget: float) -> None:
    from ..claims.api import proofs_root
    from ..search.worker import Supervisor, digest
    from .._api.prove import concluded
    from .load_budget import resolve_within

    claims = _unique(resolve_within(claim, time_budget, as_json))
    if record:
        root = proofs_root()
        for c in claims:
            if not c.path or Path(c.path).resolve().parent.parent != root.resolve():
                raise BadInput(f"--record writes the committed certificates/ of the claims in {root}; "
                               f"{c.path or c.id} is not one of them: prove it without --record")
    directory = proofs_root().parent / "certificates" if record else out_dir
    digests = {c.path: digest(c.path) for c in claims if c.path}
    results = []
    with Supervisor() as supervisor:  # the claim's code runs there, killed when its budget is spent
        try:
            for c in claims:
                attempts, stopped = supervisor.prove(c, time_budget, digests.get(c.path))
                result = concluded(c, attempts, stopped, directory)
                results.append(result)
                if not as_json:
                    for text in result.lines():
                        typer.echo(text)
        except BnproofError as err:  # a run stopped by an error still reports the claims it finished
            err.finished = [r.to_json() for r in results]
            raise
        except KeyboardInterrupt:
            if as_json and results:
                typer.echo(json.dumps([r.to_json() for r in results], indent=2, ensure_ascii=False))
            raise
    if as_json:
        typer.echo(json.dumps([r.to_json() for r in results], indent=2, ensure_ascii=False))
    raise typer.Exit(ExitCode.OK if all(r.proved for r in results) else ExitCode.UNDECIDED)


def _unique(claims: list) -> list:
    """Each claim once (one claim bound to two names is one), and each id of one claim only:
    the worker loads a claim by its id, and a proof certificate is named by it."""
    seen, out = {}, []
    for c in claims:
        if c.id in seen:
            if seen[c.id] == c:
                continue
            raise BadInput(f"two claims have the id {c.id!r}{' in ' + c.path if c.path else ''}: "
                           "each id names one claim and one proof certificate")
        seen[c.id] = c
        out.append(c)
    from ..search.fuzz import check_apart
    from ..search.space import _check_claim_sizes

    for c in out:  # as fuzz: bad input (exit 3) before any proof, never "not proved" per claim
        _check_claim_sizes(c)
    check_apart(out)
    return out
