"""`bnproof check`: re-verify certificates with the independent checker."""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer

from ..errors import ExitCode
from .app import EPILOG, app


@app.command(epilog=EPILOG)
def check(
    files: List[Path] = typer.Argument(..., help="Certificate files to verify."),
) -> None:
    """Re-verify certificates with the independent checker.

    The checker uses the standard library only and trusts nothing else in bnproof.
    It prints ACCEPTED, or REJECTED with the reason, one line per file."""
    from ..checker import check_file

    all_ok = True
    for path in files:
        accepted, line = check_file(path)
        all_ok &= accepted
        typer.echo(line)
    raise typer.Exit(ExitCode.OK if all_ok else ExitCode.REJECTED)


