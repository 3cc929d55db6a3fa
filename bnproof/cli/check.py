"""`bnproof check`: re-verify certificates with the independent checker, and with
--claim, bind a program certificate to a claim file: its claim (source, statement,
kind, declared variables) and its program must be the ones the file gives."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .application import EPILOG, app
# The judgement lives in _api/judgement.py, which imports no typer (bnproof check runs without
# typer, see fast.py); tests import it from here too.
from .run_check import bind, difference, judged, run, unreadable  # noqa: F401


@app.command(epilog=EPILOG)
def check(
    files: List[Path] = typer.Argument(..., help="Certificate files to verify."),
    claim: Optional[Path] = typer.Option(
        None, "--claim", metavar="FILE.py",
        help="A claim file: require each certificate's claim (text, kind, variables) and program "
             "to be the ones it gives."),
    show_program: bool = typer.Option(
        False, "--show-program", help="After each accepted program certificate, print its program."),
    as_json: bool = typer.Option(
        False, "--json", help='Print a JSON list, one object per file (also for one): '
        '{"path", "accepted", "established", "reason", "line"}.'),
) -> None:
    """Re-verify certificates with the independent checker.

    The checker uses the standard library only and trusts nothing else in bnproof.
    It prints ACCEPTED, or REJECTED with the reason, one line per file.  For a
    claim of the papers it recomputes the residual with its own formula; for any
    other claim it trusts the program, names its hash, and --claim FILE.py checks
    that the claim (source, statement, kind, variables) and the program are the ones
    the claim file defines, naming the first difference."""

    raise typer.Exit(run(files, claim, show_program, as_json))
