"""A FIFO (or any file that is not a regular file) is refused by every command
that reads a file, at once, as bad input (exit code 3) on one line: opening a
FIFO for reading waits for a writer, so `bnproof check FIFO` and `verify --data
FIFO` used to block for ever, though docs/certificates.md promises a refusal.

Every run is a real `python -m bnproof` process (or a real interpreter for the
API), started together in one fixture so that, on code that blocks, their
safety timeouts overlap; a timeout only turns a hang into a failure, and every
assertion is on exit codes and messages, never on wall time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bnproof.errors import ExitCode
from cli_runner import Started

ROOT = Path(__file__).resolve().parents[1]
CLAIM = '''
from bnproof.claims import Claim, Var

C = Claim(id="me/two", source="a test", statement="y_1 + y_2 = \\\\sum y", kind="identity",
          variables=(Var("y", ("m",)),), sizes={"m": (2, 2)},
          residual=lambda xp, y: y[0] + y[1] - xp.sum(y))
'''
API = '''
import sys
import bnproof
from bnproof.errors import BadInput
try:
    {call}
except BadInput as err:
    print(err)
    sys.exit(3)
print("no refusal")
'''


GUARD = 300  # seconds from the start of all runs (17 processes on a busy machine): only so that a run
# blocked on a FIFO fails, not hangs


class Guarded(Started):
    """A run whose safety timeout counts from its start, so that blocked runs fail together."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.deadline = time.monotonic() + GUARD

    def wait(self):
        self.HANG_GUARD = max(1.0, self.deadline - time.monotonic())
        return super().wait()


RUNS = {
    "check": ("check", "fifo.json"),
    "check-json": ("check", "fifo.json", "--json"),
    "check-claim": ("check", "--claim", "claim.py", "fifo.json"),
    "verify-lemma": ("verify", "lemma-4.5", "--data", "fifo.json"),
    "verify-claim": ("verify", "claim.py", "--data", "fifo.json"),
    "verify-claim-json": ("verify", "claim.py", "--data", "fifo.json", "--json"),
    "latex-certificate": ("latex", "fifo.json"),
    "latex-lemma": ("latex", "lemma-4.5", "--data", "fifo.json"),
    "plot": ("plot", "lemma-4.5", "--data", "fifo.json", "-o", "out.png"),
    "export": ("export", "fifo.json"),
    "prove-claim-file": ("prove", "fifo.py"),
    "fuzz-claim-file": ("fuzz", "fifo.py", "--no-jax"),
    "check-claim-file": ("check", "--claim", "fifo.py", str(ROOT / "certificates" / "lemma-4.5.json")),
}
API_CALLS = {
    "api-check": "bnproof.check('fifo.json')",
    "api-verify": "bnproof.verify('claim.py', 'fifo.json')",
    "api-verify-lemma": "bnproof.verify('lemma-4.5', 'fifo.json')",
    "api-latex": "bnproof.latex('fifo.json')",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fifo")
    os.mkfifo(folder / "fifo.json")
    os.mkfifo(folder / "fifo.py")
    (folder / "claim.py").write_text(CLAIM)
    env = {"BNPROOF_CACHE_DIR": str(folder / ".cache")}
    started = {name: Guarded(*args, cwd=folder, env=env) for name, args in RUNS.items()}
    processes = {name: subprocess.Popen([sys.executable, "-c", API.format(call=call)], cwd=folder,
                                        env=dict(os.environ, **env), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        start_new_session=True)
                 for name, call in API_CALLS.items()}
    for process in processes.values():
        process.deadline = time.monotonic() + GUARD
    yield folder, started, processes
    for run in started.values():
        run.kill()
    for process in processes.values():
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_command_refuses_a_fifo_at_once_as_bad_input(runs, name):
    folder, started, _ = runs
    proc = started[name].wait()
    assert proc.returncode == ExitCode.BAD_INPUT, (name, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    (line,) = proc.stderr.strip().splitlines()  # one line
    assert line.startswith("error: ") and "cannot read" in line and "not a regular file" in line, line
    assert not (folder / "out.png").exists()


def test_check_json_lists_the_fifo_as_a_file_it_cannot_read(runs):
    _, started, _ = runs
    (entry,) = json.loads(started["check-json"].wait().stdout)
    assert entry["accepted"] is False and entry["established"] is None
    assert entry["reason"] == "cannot read fifo.json: not a regular file"


def test_verify_json_under_a_fifo_is_the_error_object(runs):
    _, started, _ = runs
    proc = started["verify-claim-json"].wait()
    assert json.loads(proc.stdout) == {"error": "cannot read fifo.json: not a regular file", "exit_code": 3}


@pytest.mark.parametrize("name", sorted(API_CALLS))
def test_the_api_refuses_a_fifo_with_bad_input(runs, name):
    _, _, processes = runs
    try:
        out, err = processes[name].communicate(timeout=max(1.0, processes[name].deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        processes[name].kill()
        pytest.fail(f"{API_CALLS[name]} blocked on the FIFO")
    assert processes[name].returncode == 3, (out, err)
    assert "not a regular file" in out
