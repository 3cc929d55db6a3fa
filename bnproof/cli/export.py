"""`bnproof export --smtlib`: a certificate as SMT-LIB 2, for z3 or cvc5 to confirm."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import BadInput, BnproofError, ExitCode
from .application import EPILOG, app


class NotConfirmed(BnproofError):
    exit_code = ExitCode.REJECTED


@app.command(epilog=EPILOG)
def export(
    certificate: Path = typer.Argument(..., help="The certificate to export."),
    # --smtlib stays accepted (scripts name it) though it is the only format and the default
    smtlib: bool = typer.Option(True, "--smtlib", show_default=False, help="Write SMT-LIB 2 (QF_NRA): the only format, "
                                "and the default."),
    out: Optional[Path] = typer.Option(None, "-o", "--out", help="Where to write (default: stdout; "
                                       "with --solve, the solver's answer then goes to stderr)."),
    solve: Optional[str] = typer.Option(
        None, "--solve", metavar="z3|cvc5",
        help="Also run this solver (its pip package) on the file; exit 6 unless it answers unsat."),
    timeout: float = typer.Option(60.0, "--timeout", min=0.1, help="Seconds the solver may take."),
    m: Optional[int] = typer.Option(
        None, "--m", metavar="N",
        help="For a proof certificate (proved for every m): state the claim at this batch size "
        "(1 to 64); a proof certificate needs it, any other certificate refuses it."),
    d: Optional[int] = typer.Option(
        None, "--d", metavar="N",
        help="For a proof for every d as well (method every-d): state it at this feature count "
        "(1 to 64) with --m; such a certificate needs it, any other refuses it."),
) -> None:
    """Write a certificate as SMT-LIB 2 for an SMT solver to confirm.

    Every value is defined by its exact term (a square root as s*s = a, s >= 0;
    a quotient as SMT-LIB division, with its divisor's nonzero-ness a fact) and
    the negation of the certificate's facts is asserted, so `unsat` from z3 or
    cvc5 confirms the certificate.  A proof certificate is stated at the batch
    size --m: its domains, hypotheses and every step's side condition asserted
    with the claim's negation, so `unsat` confirms the claim at that m; a
    proof for every d as well (method every-d) needs --d too, and its tensor
    program is written out at (m, d) entry by entry.  An
    existential certificate (no witness p at an instance) is checked by the
    checker first, and the file is the query "is there a witness?" that the
    checker regenerates, so `unsat` confirms that none exists.  The file is read
    strictly and never evaluated; a malformed file exits with 3, a broken digest
    or claim binding (or a rejected existential certificate) with 6."""
    if solve is not None and solve not in ("z3", "cvc5"):
        raise BadInput(f"--solve: unknown solver {solve!r}; use z3 or cvc5")
    text, confirmed = _smt(certificate, m, d)
    # the solver answers first: nothing is printed as if confirmed before it has said so
    answer = None if solve is None else _solved(text, solve, timeout)
    if out is not None:
        from ..atomic import write_text_atomic

        try:
            write_text_atomic(out, text)
        except OSError as exc:
            raise BadInput(f"cannot write {out}: {exc.strerror or type(exc).__name__}") from None
    if answer not in (None, "unsat"):
        where = f" (the SMT-LIB is written to {out})" if out is not None else ""
        raise NotConfirmed(f"{solve} answered {answer}: {certificate} is not confirmed{where}")
    if out is None:
        # the SMT-LIB on stdout, as the help says, whatever else is asked; the solver's
        # answer then goes to stderr, so that stdout stays the file
        typer.echo(text, nl=False)
    else:
        typer.echo(f"wrote {out}: unsat from z3 or cvc5 confirms {certificate}")
    if answer is not None:
        typer.echo(f"{solve}: unsat: {confirmed}", err=out is None)


def _solved(text: str, solve: str, timeout: float) -> str:
    from ..certificate import solvers

    if not solvers.available(solve):
        raise BadInput(f"--solve {solve}: the solver is not installed; install it with "
                       f"pip install \"bnproof[smt]\" (z3 and cvc5) or pip install {solvers.PACKAGES[solve]} "
                       "(that one alone)")
    return solvers.solve(text, solve, timeout)


def _smt(certificate: Path, m: Optional[int], d: Optional[int] = None) -> tuple[str, str]:
    """The SMT-LIB text, and what `unsat` confirms: a proof certificate at m (bound to its
    claim where bnproof knows it, as `bnproof check` binds it), any other certificate as
    it is."""
    from ..certificate.smtlib import CertificateRejected, document_smt, stage
    from ..checker.parse import read

    doc = stage(read, BadInput, certificate, what=f"{certificate}:")  # the file named: which one failed
    if type(doc) is not dict or doc.get("kind") != "proof":
        if m is not None or d is not None:
            raise BadInput(f"{'--m' if m is not None else '--d'} applies to a proof certificate "
                           "(proved for every m) only")
        text = document_smt(doc)
        if type(doc) is dict and "nonexistence" in doc:
            return text, (f"no witness exists at the instance of {certificate} (its instance and "
                          "hypotheses were checked exactly by the checker)")
        return text, f"every fact of {certificate} is confirmed"
    if type(doc.get("proof")) is dict and doc["proof"].get("method") == "moments-n":
        raise BadInput(f"{certificate} is a proof about expectations over i.i.d. draws (method "
                       "moments-n), which has no SMT-LIB export: check it with bnproof check")
    every_d = type(doc.get("proof")) is dict and doc["proof"].get("method") == "every-d"
    if m is None:
        raise BadInput(f"{certificate} is a proof for every m: give the batch size to state it "
                       f"at, e.g. --m 3{' --d 2 (and the feature count: it is an every-d proof)' if every_d else ''}")
    from ..certificate.smtlib_proof import proof_smt
    from .._api.judgement import bind_proof

    text = proof_smt(doc, m, d)  # reads the document strictly first (and refuses a stray --d)
    bound, why = bind_proof(None, None, doc)
    if not bound:
        raise CertificateRejected(f"{certificate}: {why}")
    at = f"m = {m}, d = {d}" if every_d else f"m = {m}"
    return text, f"the claim {certificate} proves holds at {at}"
