"""`bnproof check`: re-verify certificates with the independent checker, and with
--claim, bind a program certificate to a claim file by re-deriving its program."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import ExitCode
from .app import EPILOG, app


def derived_program(claims: list, claim_file: Path, doc: dict) -> tuple[dict | None, str]:
    """The program the claim file gives at the certificate's sizes, or None and why."""
    from ..claims.decide import exact_instance, sizes_of, trace

    claim_id = doc["claim"]["id"]
    claim = next((c for c in claims if c.id == claim_id), None)
    if claim is None:
        return None, f"{claim_file} defines no claim {claim_id}"
    if {v.name for v in claim.variables} != set(doc["instance"]):
        return None, f"the instance's variables are not those of {claim_id} in {claim_file}"
    try:
        traced = trace(claim, sizes_of(claim, exact_instance(doc["instance"])))
    except Exception as err:  # noqa: BLE001 - the claim file is the user's code
        return None, f"{claim_id} in {claim_file} cannot be traced on this instance: {err}"
    # the same JSON round trip as the certificate builder (bnproof/certificate/program.py)
    return json.loads(json.dumps({"steps": traced.steps, "residual": traced.residual,
                                  "hypotheses": list(traced.hypotheses)})), ""


def bind(claims: list, claim_file: Path, path: Path) -> tuple[bool, str]:
    """Compare an accepted program certificate's program with the claim file's."""
    from ..checker import program_digest
    from ..checker.parse import read

    doc = read(path)
    if "program" not in doc:
        return False, "not a program certificate, so there is no program to compare"
    want, why = derived_program(claims, claim_file, doc)
    if want is None:
        return False, why
    have = doc["program"]
    if program_digest(have) == program_digest(want):
        return True, f"the program is the one {claim_file} gives"
    if have["steps"] != want["steps"]:
        k = next((k for k, (a, b) in enumerate(zip(have["steps"], want["steps"])) if a != b),
                 min(len(have["steps"]), len(want["steps"])))
        return False, (f"the program differs from the one {claim_file} gives, from step {k} "
                       f"({len(have['steps'])} steps, the claim file's {len(want['steps'])})")
    return False, f"the program's residual or hypotheses differ from those {claim_file} gives"


@app.command(epilog=EPILOG)
def check(
    files: List[Path] = typer.Argument(..., help="Certificate files to verify."),
    claim: Optional[Path] = typer.Option(
        None, "--claim", metavar="FILE.py",
        help="A claim file: re-derive each certificate's program from it and require the same program."),
    show_program: bool = typer.Option(
        False, "--show-program", help="After each accepted program certificate, print its program."),
) -> None:
    """Re-verify certificates with the independent checker.

    The checker uses the standard library only and trusts nothing else in bnproof.
    It prints ACCEPTED, or REJECTED with the reason, one line per file.  For a
    claim of the papers it recomputes the residual with its own formula; for any
    other claim it trusts the program, names its hash, and --claim FILE.py checks
    that the program is the one the claim file defines."""
    from ..checker import check_file

    claims = None
    if claim is not None:
        from ..claims.api import load_file

        claims = load_file(claim)  # a broken claim file is bad input (exit 3)
    all_ok = True
    for path in files:
        accepted, line = check_file(path, show_program)
        if accepted and claims is not None:
            accepted, why = bind(claims, claim, path)
            head, sep, tail = line.partition("\n")
            line = f"{head}; {why}{sep}{tail}" if accepted else f"REJECTED {path}: {why}"
        all_ok &= accepted
        typer.echo(line)
    raise typer.Exit(ExitCode.OK if all_ok else ExitCode.REJECTED)
