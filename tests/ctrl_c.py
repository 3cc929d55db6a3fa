"""Ctrl-C at a terminal, for the tests that press it on a real `bnproof` process.

A terminal's Ctrl-C is SIGINT to the foreground process group, sent to a process
whose SIGINT is at its default.  A test process may not have it so: a shell
without job control (a script, CI, `pytest … &` from another program) starts its
background commands with SIGINT ignored, every process below inherits that, and
Python keeps an inherited SIG_IGN (it installs its KeyboardInterrupt handler only
over SIG_DFL), as it should: such a command is immune to the terminal by design.
A Ctrl-C test started from there would wait out its hang guard, whatever the
code under test does (session 29's loaded suite: three tests, 300 s each).  So
`start` gives the child SIGINT at its default, whatever this process inherited,
and `finish` leaves nothing behind when a test fails: the process group killed,
the pipes read to their end and closed, the process reaped (else the next test in
this process fails on the ResourceWarning of this one's Popen)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess

GUARD = 300  # seconds; only so that a hang fails instead of blocking the suite


def start(argv: list, **popen) -> subprocess.Popen:
    """Popen(argv, **popen) in a session of its own (SIGINT to its group is a
    terminal's Ctrl-C), with SIGINT at its default in the child."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:  # a caught signal is back at SIG_DFL after exec; an ignored one stays ignored
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(argv, start_new_session=True, **popen)
    finally:
        if previous is signal.SIG_IGN:
            signal.signal(signal.SIGINT, previous)


def finish(proc: subprocess.Popen) -> None:
    """For a `finally`: whatever is left of the process group killed, the pipes read
    to their end and closed, the process reaped."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
    try:
        proc.communicate(timeout=GUARD)  # a no-op once a communicate has read them to the end
    except subprocess.TimeoutExpired:  # a process outside the group holds a pipe open
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        proc.wait()


def state(pid: int) -> str:
    """The process's state letter ("R", "S", "Z", ...), "" once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return ""
