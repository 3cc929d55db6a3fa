"""The entry point of the typer application: every command registered (commands.py),
then one-line errors with their exit codes (guard.py).  It sits above the
commands, which register on application.py's app below them."""

from __future__ import annotations

import sys
from typing import Optional

import typer

from ..errors import ExitCode
from . import commands  # noqa: F401  (registration, so that any entry point has them)
from .application import app
from .guard import guarded


def _wants_json(argv: Optional[list[str]]) -> bool:
    args = sys.argv[1:] if argv is None else argv
    return "--json" in (args[: args.index("--")] if "--" in args else args)


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: one-line errors with their exit codes, never a traceback
    (guard.guarded).  Usage errors and exits are typer's own (code 2 for a bad
    command line)."""
    def run() -> None:
        try:
            app(args=argv, prog_name="bnproof")
        except SystemExit as done:
            if done.code == ExitCode.INTERRUPTED:  # typer turns Ctrl-C into a silent exit 130
                typer.echo("interrupted", err=True)
            raise

    guarded(run, _wants_json(argv))
