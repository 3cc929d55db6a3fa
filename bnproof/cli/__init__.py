"""The `bnproof` command line: one module per command, registered on one typer app.

Importing a command module registers it; the order here is the order of `--help`."""

from . import verify, fuzz, listing, check, latex, plot, export, scan, study  # noqa: F401  (registration)
from .app import app, main

__all__ = ["app", "main"]
