"""The `bnproof` command line: one module per command, registered on one typer app.

Importing a command module registers it; the order in commands.py is the order of
`--help`.  The commands are imported inside main(), so that Ctrl-C while Python is
still importing them is the same one-line "interrupted" (exit 130) as later."""

import sys


def main(argv=None) -> None:
    try:
        from .application import main as run
        from . import commands  # noqa: F401  (registration, while Ctrl-C is still ours)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    run(argv)


def __getattr__(name):  # `from bnproof.cli import app` for tests and embedding
    if name == "app":
        from . import commands  # noqa: F401
        from .application import app

        return app
    raise AttributeError(name)


__all__ = ["app", "main"]
