"""Ctrl-C at each phase of a `bnproof prove` / `bnproof fuzz` run, on a real
process: exit 130 with the one line "interrupted", what was finished kept, and
every worker process killed and reaped, wherever the signal lands.

The phase is reached by an event, never a time: the command runs with a prelude
(`python -c PRELUDE; bnproof.cli.main()`) that wraps one of bnproof's own steps
so that the process sends itself SIGINT exactly there (before the worker is
started, as its Popen returns, while it imports, while the stop kills it), or the
test presses Ctrl-C on the process group once the claim says it spins (a pid
file).  The prelude also writes the pid of every worker started, so that the test
can tell a worker killed and reaped (gone) from one left running.

A second Ctrl-C while the command stops (an impatient user) must not cut the stop
short: before the SIGINT handler of cli/interrupts.py, it landed in the kill of
the worker, which was then left running and the claim's outcome lost (its
refutation not reported), and a Ctrl-C as Popen returned left the new worker
unrecorded, so that nothing killed it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import ctrl_c
import test_fuzz_budget


SPINS = '''
import os

from bnproof.claims import Claim, Var


def _spin(xp, y):
    with open("spinning.pid", "w") as fh:  # the process that spins says who it is
        fh.write(str(os.getpid()))
    while True:
        pass


LOOP = Claim(id="me/loop", source="a test", statement="y = y", kind="identity",
             variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_spin)
'''

PROVED = '''
from bnproof.claims import Claim, Var

CENTRED = Claim(id="me/centred", source="a test", statement="\\\\sum (y - \\\\bar y) = 0", kind="identity",
                variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
                residual=lambda xp, y: xp.sum(y - xp.mean(y)))
'''

# refuted, its certificate written, then its shrinking blocks in the worker: test_fuzz_budget's
# claim, which writes its worker's pid to spinning.pid here
STALLS = test_fuzz_budget.STALLS.replace('"stalled.pid"', '"spinning.pid"')

# ctrl_c() is Ctrl-C delivered to this process at once.  Every worker started is kept here, and
# when the command exits, those it did not reap (wait for) are named in unreaped.pids (and then
# killed): a worker bnproof lost track of, whether it is still running at that moment or not
PRELUDE = '''
import atexit
import os
import signal
import subprocess

from bnproof.search import worker as W

_STARTED = []


def ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)


class _Recorded(subprocess.Popen):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _STARTED.append(self)
        if os.environ.get("CTRL_C_AS_POPEN_RETURNS"):
            ctrl_c()


def _unreaped():
    left = [p for p in _STARTED if p.returncode is None]
    with open("unreaped.pids", "w") as fh:
        fh.write(" ".join(str(p.pid) for p in left))
    for p in left:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()


atexit.register(_unreaped)


class _Subprocess:
    Popen = _Recorded

    def __getattr__(self, name):
        return getattr(subprocess, name)


W.subprocess = _Subprocess()


def before(owner, name, once_pressed=False):
    """owner.name, with Ctrl-C pressed first (once_pressed: only once the test has pressed it)."""
    original = getattr(owner, name)

    def wrapped(*args, **kwargs):
        if not once_pressed or os.path.exists("pressed"):
            ctrl_c()
        return original(*args, **kwargs)

    setattr(owner, name, wrapped)
'''

PHASES = {  # where the process sends itself SIGINT (None: only the test's Ctrl-C once the claim spins)
    "before-the-worker-starts": "before(W.Supervisor, '_start')",
    "as-the-worker-is-started": "os.environ['CTRL_C_AS_POPEN_RETURNS'] = '1'",
    "while-the-worker-imports": "before(W._Worker, 'wait_ready')",
    "while-the-claim-spins": None,
    "again-while-the-stop-kills-the-worker": "before(W._Worker, 'kill', once_pressed=True)",
}


def _run(folder: Path, files: dict, args: list, extra: str | None, press_when: str | None):
    for name, text in files.items():
        (folder / name).write_text(text)
    code = PRELUDE + (extra or "") + "\nfrom bnproof.cli import main\nmain()\n"
    env = dict(os.environ, BNPROOF_CACHE_DIR=str(folder / ".cache"), BNPROOF_PROOFS=str(folder / "proofs"))
    proc = ctrl_c.start([sys.executable, "-c", code, *args], cwd=folder, env=env, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    try:
        if press_when is not None:
            markers = [folder / name for name in press_when]
            while not all(m.exists() and m.read_text() for m in markers) and proc.poll() is None:
                time.sleep(0.02)  # an event (the files), polled; no time is asserted
            assert proc.poll() is None, proc.communicate()
            (folder / "pressed").touch()
            os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C: the whole foreground group
        out, err = proc.communicate(timeout=ctrl_c.GUARD)
    finally:
        ctrl_c.finish(proc)
    unreaped = folder / "unreaped.pids"
    return proc.returncode, out, err, unreaped.read_text().split() if unreaped.exists() else None


def _stopped_cleanly(code, out, err, unreaped):
    assert code == 130, (code, out, err)
    assert err == "interrupted\n", err  # one line: no traceback, the worker's included
    # every worker killed and reaped by the command, none left to find out alone that it is gone
    assert unreaped == [], unreaped


@pytest.mark.parametrize("phase", list(PHASES))
def test_ctrl_c_at_each_phase_of_prove_exits_130_and_kills_every_worker(tmp_path, phase):
    extra = PHASES[phase]
    press = ("spinning.pid",) if extra is None or "kill" in extra else None
    code, out, err, unreaped = _run(tmp_path, {"loop.py": SPINS}, ["prove", "loop.py", "--time-budget", "300"],
                                    extra, press)
    _stopped_cleanly(code, out, err, unreaped)
    assert out == ""


def test_ctrl_c_while_the_certificate_is_written_exits_130_and_kills_the_worker(tmp_path):
    extra = "from bnproof.symbolic_m import survivor\nbefore(survivor, 'write')"
    code, out, err, unreaped = _run(tmp_path, {"centred.py": PROVED},
                                    ["prove", "centred.py", "--time-budget", "300", "--out-dir", "out"], extra, None)
    _stopped_cleanly(code, out, err, unreaped)
    assert not (tmp_path / "out").exists()  # stopped before the write: nothing half written


def test_ctrl_c_again_while_fuzz_stops_keeps_the_refutation_and_kills_the_worker(tmp_path):
    code, out, err, unreaped = _run(tmp_path, {"stall.py": STALLS},
                                    ["fuzz", "stall.py", "--no-jax", "--time-budget", "300"],
                                    PHASES["again-while-the-stop-kills-the-worker"],
                                    ("spinning.pid", "bnproof-out/stall/bounded-bn-output.json"))
    _stopped_cleanly(code, out, err, unreaped)
    # the refutation found before the interrupt is reported, with its certificate
    assert "REFUTED" in out and "shrinking cut short by the interrupt" in out, out
    assert (tmp_path / "bnproof-out" / "stall" / "bounded-bn-output.json").exists()


def test_a_test_process_that_inherited_sigint_ignored_still_gives_bnproof_a_terminals_ctrl_c():
    # the suite started as a background job of a script has SIGINT ignored; its Ctrl-C tests must not be
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        proc = ctrl_c.start([sys.executable, "-c", "import signal; print(signal.getsignal(signal.SIGINT).__name__)"],
                            stdout=subprocess.PIPE, text=True)
        out, _ = proc.communicate(timeout=ctrl_c.GUARD)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # this process's own is left as it was
    finally:
        signal.signal(signal.SIGINT, previous)
    assert out.strip() == "default_int_handler"


def test_a_command_started_with_sigint_ignored_keeps_it_ignored():
    # a background job of a script is immune to the terminal's Ctrl-C by design: bnproof keeps that
    code = textwrap.dedent('''
        import signal
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        from bnproof.cli import interrupts
        interrupts.install()
        print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)
    ''')
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=ctrl_c.GUARD)
    assert proc.stdout.strip() == "True", proc.stderr
