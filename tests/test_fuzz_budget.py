"""`bnproof fuzz` keeps its time budget whatever the claim does, and Ctrl-C
stops it at once, keeping what was found.  Claims here block for good (an
hour's sleep) in the numeric path, so only a process that is killed ends;
the assertions are on verdicts and counts, never on wall time, and no outcome
depends on the machine's speed: a claim says when it blocks (a marker file),
and the budget, generous in real time, runs out at that moment on the clock the
command enforces it with (tests/budget_clock.py).  Every run happens in a
scratch folder.  Ctrl-C is sent to a real process group once the claim has
blocked; a subprocess timeout only turns a hang into a failure.  Other
commands run in this process (tests/cli_runner.py)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bnproof.errors import ExitCode
import ctrl_c
from budget_clock import GENEROUS, budget_ends_when_blocked
from cli_runner import run_cli

HERE = Path(__file__).parent
HANG_GUARD = 300  # seconds

# Each blocked worker writes blocked-<its pid> first: the budget runs out then
HELPERS = '''
import os
import time

from bnproof.claims import Claim, Var


def _block():
    with open(f"blocked-{os.getpid()}", "w"):
        pass
    time.sleep(3600)


def _blocks_in_floats(xp, y):
    if xp.kind == "floating":  # Hypothesis's screen: every instance blocks
        _block()
    return xp.sum(y * y)


def _blocks_in_jax(xp, y):
    if xp.kind == "numeric":  # tracing for JAX blocks: Hypothesis finishes first
        _block()
    return xp.sum(y * y)
'''

SLEEPERS = HELPERS + '''
A = Claim(id="sleep/a-floats", source="a test", statement="|y|^2 >= 0",
          variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_blocks_in_floats)
B = Claim(id="sleep/b-floats-again", source="a test", statement="|y|^2 >= 0",
          variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_blocks_in_floats)
'''

IN_JAX = HELPERS + '''
C = Claim(id="sleep/c-jax", source="a test", statement="|y|^2 >= 0",
          variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_blocks_in_jax)
'''

# The false toy claim, whose exact shrinking stalls for good.  Floats nominate
# violations only at m = 5, so the first certified counterexample has five
# samples; shrinking then drops samples, and the first program traced at a size
# other than 5 or the smallest (traced before the search) blocks: m = 4 or 3.
# Its hypothesis, σ² + 1, is never within rounding of 0, so no instance goes to
# the exact engine (and no program is traced) unless floats nominate it.
# It writes its process id (the worker's) when it blocks.
STALLS = '''
import os
import time

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats


def _residual(xp, y, gamma, beta):
    m = y.shape[0]
    if xp.kind == "trace" and m not in (2, 5):
        with open("stalled.pid", "w") as fh:
            fh.write(str(os.getpid()))
        time.sleep(3600)
    r = beta + xp.abs(gamma) - batch_norm(xp, y, gamma, beta)[0]
    if xp.kind == "floating" and m != 5:
        return 1 + 0 * r  # floats nominate nothing below five samples
    return r


STALL = Claim(id="stall/bounded-bn-output", source="a test", statement=r"z_b \\le \\beta + |\\gamma|",
              variables=(Var("y", ("m",)), Var("gamma", (), "nonzero"), Var("beta", ())),
              sizes={"m": (2, 5)}, hypotheses=(lambda xp, y, gamma, beta: stats(xp, y)[1] ** 2 + 1,),
              residual=_residual)
'''

SQUARE = '''
from bnproof.claims import Claim, Var

SQUARE = Claim(id="quick/square", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
               residual=lambda xp, x: x * x)
'''


def scratch(folder: Path) -> dict:
    return {"BNPROOF_CACHE_DIR": str(folder / ".cache"), "BNPROOF_PROOFS": str(folder / "proofs")}


def env_for(folder: Path) -> dict:
    return dict(os.environ, **scratch(folder))


def run(*args, cwd: Path):
    return run_cli(*args, cwd=cwd, env=scratch(cwd))


def blocked_run(folder: Path, files: dict, *args, markers=("blocked-*",)):
    """`bnproof ARGS` in `folder` (holding `files`), its budget GENEROUS on the real
    clock and spent the moment a claim blocks (writes a file matching `markers`);
    the run and the number of claims that blocked."""
    for file, text in files.items():
        (folder / file).write_text(text)
    with budget_ends_when_blocked(folder, *markers) as clock:
        proc = run("fuzz", *args, "--time-budget", str(GENEROUS), cwd=folder)
    return proc, clock.jumps


def check(path: Path, cwd: Path) -> str:
    proc = run("check", str(path), cwd=cwd)
    assert proc.returncode == 0, proc.stdout
    return proc.stdout


def _wait_for(*paths: Path) -> None:
    for _ in range(HANG_GUARD * 20):
        if all(p.exists() for p in paths):
            return
        time.sleep(0.05)
    pytest.fail(f"never appeared: {paths}")


def test_ctrl_c_stops_at_once_keeping_the_certificate_and_the_record(tmp_path):
    (tmp_path / "proofs" / "stall").mkdir(parents=True)
    (tmp_path / "proofs" / "stall" / "claims.py").write_text(STALLS)
    certificate = tmp_path / "certificates" / "stall" / "bounded-bn-output.json"
    # its own session, so that SIGINT goes to the whole group as a terminal's Ctrl-C does
    proc = ctrl_c.start([sys.executable, "-m", "bnproof", "fuzz", "stall/bounded-bn-output", "--no-jax", "--record",
                         "--time-budget", str(HANG_GUARD)], cwd=tmp_path, env=env_for(tmp_path),
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(certificate, tmp_path / "stalled.pid")
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        ctrl_c.finish(proc)
    assert proc.returncode == ExitCode.INTERRUPTED == 130
    assert err.strip() == "interrupted"  # one line; no progress display when stderr is not a terminal
    assert "REFUTED" in out and "shrinking cut short by the interrupt" in out
    assert check(certificate, tmp_path).startswith("ACCEPTED")
    recorded = json.loads((tmp_path / "proofs" / "verdicts.json").read_text())
    assert recorded["stall/bounded-bn-output"]["verdict"] == "refuted"
    worker = int((tmp_path / "stalled.pid").read_text())
    with pytest.raises(ProcessLookupError):  # the worker ignored SIGINT; the parent killed it
        os.kill(worker, 0)


def test_claims_that_block_end_with_a_verdict_each_under_its_own_budget(tmp_path):
    toy = (HERE / "claims" / "false_toy.py").read_text().split('"""', 2)[2]
    proc, blocked = blocked_run(tmp_path, {"sleepers.py": SLEEPERS + toy}, "sleepers.py", "--no-jax", "--json")
    assert "Traceback" not in proc.stderr, proc.stderr
    results = {r["claim"]: r for r in json.loads(proc.stdout)}
    for claim in ("sleep/a-floats", "sleep/b-floats-again"):
        assert results[claim]["verdict"] == "undecided"
        assert results[claim]["reason"] == "the time budget ran out before any instance was evaluated"
        assert results[claim]["stopped"] == "time budget" and results[claim]["instances"] == 0
    # each blocked in a worker of its own: the one killed for the first was replaced
    assert blocked == 2 and len(list(tmp_path.glob("blocked-*"))) == 2
    # and so was the second's, for the last claim, searched in full and refuted
    toy = results["toy/bounded-bn-output"]
    assert toy["instances"] > 0 and toy["verdict"] == "refuted" and toy["stopped"] is None, toy
    # refuted outranks the sleepers' undecided
    assert proc.returncode == ExitCode.REFUTED


def test_a_jax_phase_that_blocks_keeps_the_hypothesis_evidence(tmp_path):
    proc, blocked = blocked_run(tmp_path, {"sleepers.py": IN_JAX}, "sleepers.py", "--max-examples", "30",
                                "--json")
    (result,) = json.loads(proc.stdout)
    assert blocked == 1 and result["claim"] == "sleep/c-jax"
    assert result["verdict"] == "survived" and result["stopped"] == "time budget"
    assert result["instances"] >= 30 and result["met_hypotheses"] == result["instances"]


def test_shrinking_cut_short_by_the_budget_keeps_the_certified_refutation(tmp_path):
    proc, blocked = blocked_run(tmp_path, {"stall.py": STALLS}, "stall.py", "--no-jax", "--json",
                                markers=("stalled.pid",))
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == "refuted" and result["stopped"] == "time budget"
    assert blocked == 1  # it did stall after the first find
    assert check(tmp_path / result["certificate"], tmp_path).startswith("ACCEPTED")


def test_the_progress_line_leaves_nothing_behind(monkeypatch):
    import io

    from bnproof.render.fuzz import ProgressLine
    from bnproof.search.coverage import Coverage

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    coverage = Coverage()
    coverage.add({"m": 2}, 10, 7, 7)
    with ProgressLine(enabled=True) as line:
        line.show("toy/claim", coverage, 3.2, 5)
        assert "3 s of 5 s left; toy/claim: 10 instances, 7 met the hypotheses" in screen.getvalue()
    # what a terminal shows last: the text after the last carriage return, with ESC[K erasing it
    assert screen.getvalue().endswith("\r\x1b[K")
    quiet = Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    with ProgressLine(enabled=False) as line:
        line.show("toy/claim", coverage, 3.2, 5)
    assert quiet.getvalue() == ""


def test_a_worker_slow_to_start_is_waited_for_while_the_budget_allows(tmp_path, monkeypatch):
    # a busy machine: the worker's imports take longer than the fixed start-up wait (here 0 s,
    # which no interpreter meets).  That wait ended the run with exit 8 ("the fuzz worker
    # process did not start") though the claim's budget had all its time left
    from bnproof.search import worker

    monkeypatch.setattr(worker, "START_TIMEOUT", 0.0)
    (tmp_path / "square.py").write_text(SQUARE)
    proc = run("fuzz", "square.py", "--no-jax", "--json", "--max-examples", "5", "--time-budget",
               str(GENEROUS), cwd=tmp_path)
    assert proc.returncode == ExitCode.OK, proc.stdout + proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == "survived" and result["instances"] == 5
