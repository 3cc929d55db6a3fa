"""`bnproof prove` keeps a time budget whatever the claim's code does, as `fuzz`
does (the same worker process, search/worker.py), and so does the proof for
every m that `fuzz` attempts for a claim that survives; Ctrl-C stops `prove` at
once with exit code 130.

The claims here never return (`while True: pass`) where the proof traces them,
and say so first (a pid file).  The budget, generous in real time, runs out at
that moment on the clock the command enforces it with (tests/budget_clock.py):
what comes before the loop (the search, the proofs at the other sizes) happens
in full and nothing depends on the machine's speed.  Every assertion is on exit
codes, verdicts and texts, never on wall time; Ctrl-C goes to a real process
once its claim spins, and a safety timeout only turns a hang into a failure."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bnproof
from bnproof.errors import ExitCode
import ctrl_c
from budget_clock import GENEROUS, budget_ends_when_blocked
from cli_runner import run_cli

HANG_GUARD = 300  # seconds

HEAD = '''
import os

from bnproof.claims import Claim, Var


def _spin(where):
    with open(where, "w") as fh:  # the process that spins says who it is
        fh.write(str(os.getpid()))
    while True:
        pass
'''

# never returns, wherever it is traced
LOOP = HEAD + '''
LOOP = Claim(id="me/loop", source="a test", statement="y = y", kind="identity",
             variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
             residual=lambda xp, y: _spin("looping.pid"))
'''

# true, and quick to search; only the proof for every m (the symbolic-length tracer) spins
SYMBOLIC_LOOP = HEAD + '''
def _residual(xp, y):
    if "symbolic_m" in type(y).__module__:
        _spin("proving.pid")
    return xp.sum(y - xp.mean(y))


SYMLOOP = Claim(id="me/symloop", source="a test", statement="\\\\sum (y - \\\\bar y) = 0", kind="identity",
                variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
'''

# proved at d = 1 and 2; the proof at d = 3 spins
LAST_SIZE_LOOPS = HEAD + '''
def _residual(xp, X, y):
    if X.shape[1] == 3:
        _spin("d3.pid")
    return xp.sum(y - xp.mean(y))


BY_D = Claim(id="me/by-d", source="a test", statement="\\\\sum (y - \\\\bar y) = 0", kind="identity",
             variables=(Var("X", ("m", "d")), Var("y", ("m",))), sizes={"m": (2, 3), "d": (1, 3)},
             residual=_residual)
'''


def scratch(folder: Path) -> dict:
    return {"BNPROOF_CACHE_DIR": str(folder / ".cache")}


def spun(folder: Path, files: dict, marker: str, *args):
    """`bnproof ARGS --time-budget GENEROUS` in `folder` (holding `files`), its budget spent
    the moment the claim spins (writes `marker`)."""
    for file, text in files.items():
        (folder / file).write_text(text)
    with budget_ends_when_blocked(folder, marker) as clock:
        proc = run_cli(*args, "--time-budget", str(GENEROUS), cwd=folder, env=scratch(folder))
    assert clock.jumps == 1, proc.stdout + proc.stderr  # it did spin
    return proc


def test_ctrl_c_stops_prove_at_once_and_kills_its_worker(tmp_path):
    (tmp_path / "loop.py").write_text(LOOP)
    # its own session, so that SIGINT goes to the whole group as a terminal's Ctrl-C does
    proc = ctrl_c.start([sys.executable, "-m", "bnproof", "prove", "loop.py", "--time-budget", str(HANG_GUARD)],
                        cwd=tmp_path, env=dict(os.environ, **scratch(tmp_path)), stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    try:
        pid_file = tmp_path / "looping.pid"
        for _ in range(HANG_GUARD * 20):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.05)
        else:
            pytest.fail("the claim never started spinning")
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        ctrl_c.finish(proc)
    assert proc.returncode == ExitCode.INTERRUPTED == 130, (out, err)
    assert err.strip() == "interrupted" and out == ""
    spinner = int((tmp_path / "looping.pid").read_text())
    assert spinner != proc.pid  # the claim's code ran in a worker process, not in prove's own
    with pytest.raises(ProcessLookupError):  # the worker ignored SIGINT; prove killed it
        for _ in range(100):  # it may take a moment to be reaped
            os.kill(spinner, 0)
            time.sleep(0.05)


def test_a_claim_that_never_returns_is_not_proved_within_the_budget(tmp_path):
    folder = tmp_path
    proc = spun(folder, {"loop.py": LOOP}, "looping.pid", "prove", "loop.py")
    assert proc.returncode == ExitCode.UNDECIDED, proc.stdout + proc.stderr
    assert proc.stdout == "me/loop: not proved: time budget exhausted\n"
    assert "Traceback" not in proc.stderr
    spinner = int((folder / "looping.pid").read_text())
    with pytest.raises(ProcessLookupError):  # killed with its budget
        os.kill(spinner, 0)


def test_the_json_of_a_proof_cut_by_the_budget(tmp_path):
    proc = spun(tmp_path, {"loop.py": LOOP}, "looping.pid", "prove", "loop.py", "--json")
    assert proc.returncode == ExitCode.UNDECIDED
    (obj,) = json.loads(proc.stdout)
    assert obj["status"] == "budget" and obj["text"] == "not proved: time budget exhausted"
    assert obj["covered"] == [] and obj["certificates"] == []


def test_the_sizes_proved_before_the_budget_ran_out_are_kept_and_named(tmp_path):
    folder = tmp_path
    proc = spun(folder, {"by_d.py": LAST_SIZE_LOOPS}, "d3.pid", "prove", "by_d.py", "--json", "--out-dir", "out")
    assert proc.returncode == ExitCode.UNDECIDED, proc.stdout + proc.stderr
    (obj,) = json.loads(proc.stdout)
    assert obj["status"] == "proved-partly", obj
    assert obj["text"] == ("proved for part of the range: for every m at d = 1, 2; "
                           "d = 3 not proved: time budget exhausted")
    assert obj["covered"] == [{"d": 1}, {"d": 2}]
    assert sorted(p.name for p in (folder / "out" / "me").iterdir()) == ["by-d.d1.proof.json", "by-d.d2.proof.json"]


def test_fuzz_keeps_its_proof_for_every_m_within_the_budget(tmp_path):
    folder = tmp_path  # the search survives; the proof spins
    proc = spun(folder, {"symloop.py": SYMBOLIC_LOOP}, "proving.pid", "fuzz", "symloop.py", "--no-jax",
                "--max-examples", "20", "--json")
    assert proc.returncode == ExitCode.OK, proc.stdout + proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == "survived" and result["instances"] == 20
    assert {k: result["proof"][k] for k in ("status", "text", "covered", "certificates", "blocked_by")} == {
        "status": "budget", "text": "not proved: time budget exhausted", "covered": [], "certificates": [],
        "blocked_by": "time budget exhausted"}
    assert not any(note.startswith("proved") for note in result["notes"])
    spinner = int((folder / "proving.pid").read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(spinner, 0)


def test_the_api_prove_isolated_keeps_its_budget(tmp_path):
    (tmp_path / "loop.py").write_text(LOOP)
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the claim writes its pid file where it runs
    try:
        with budget_ends_when_blocked(tmp_path, "looping.pid"):
            result = bnproof.prove(tmp_path / "loop.py", time_budget=GENEROUS, isolate=True)
    finally:
        os.chdir(cwd)
    assert result.status == "budget" and result.text == "not proved: time budget exhausted"
    assert result.exit_code == ExitCode.UNDECIDED and result.covered == []
