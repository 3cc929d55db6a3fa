"""The `bnproof` command line: one module per command, registered on one typer app
(check and verify also run without typer, see fast.py).

Importing a command module registers it; the order in commands.py is the order of
`--help`.  The commands are imported inside main(), so that Ctrl-C while Python is
still importing them is the same one-line "interrupted" (exit 130) as later."""

import sys


def _closed_streams_to_devnull() -> None:
    """A command started with stdout or stderr closed (`bnproof verify ... >&-`, a daemon)
    has None there: its output goes nowhere, as to /dev/null, and its work, certificate and
    exit code are still the verdict's, instead of an AttributeError at the first print."""
    import os

    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            # closefd=False, as Python's own streams: a forked worker that replaces this object
            # must not close the fd it has put its pipe on
            fd = os.open(os.devnull, os.O_WRONLY)
            setattr(sys, name, open(fd, "w", encoding="utf-8", closefd=False))


def main(argv=None) -> None:
    _closed_streams_to_devnull()
    try:
        from .interrupts import install

        install()  # from the first Ctrl-C on, the stop it starts is not cut short by the next
        # check and verify on a plain command line run without typer (fast.py): its
        # import takes longer than their work
        from .fast import fast_command

        command = fast_command(sys.argv[1:] if argv is None else list(argv))
        if command is None:
            from .entry import main as run  # the commands register, while Ctrl-C is still ours
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    from ..search.unraisable import claims_finalizers_quiet

    with claims_finalizers_quiet():  # a claim's __del__ error is no traceback of bnproof's
        if command is not None:
            command()  # exits
        run(argv)


def __getattr__(name):  # `from bnproof.cli import app` for tests and embedding
    if name == "app":
        from . import commands  # noqa: F401
        from .application import app

        return app
    raise AttributeError(name)


__all__ = ["app", "main"]
