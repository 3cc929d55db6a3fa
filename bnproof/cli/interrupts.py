"""Ctrl-C stops a command once.

The first Ctrl-C raises KeyboardInterrupt, as Python's own handler does, and from
that moment SIGINT is ignored: the stop that follows (killing and reaping the
worker processes, writing what was finished, the line "interrupted" and exit code
130) is never cut short by the next press of an impatient user.  A command used
to ignore further presses only once the KeyboardInterrupt had reached its own
handler (cli/fuzz.py), after Supervisor.close had run: a second Ctrl-C there, the
likelier the busier the machine, left a worker running unreaped and lost the
outcome of the claim it stopped.

Only over Python's own handler: a command started with SIGINT ignored (a
background job of a shell without job control) is immune to the terminal's Ctrl-C
by design and stays so, and an embedding program's handler is its own."""

from __future__ import annotations

import signal


def install() -> None:
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _stop)
    except ValueError:  # not the main thread: signals are not ours to handle
        pass


def _stop(signum, frame):
    # first, before anything else runs: a second SIGINT arriving now is discarded by the kernel
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt
