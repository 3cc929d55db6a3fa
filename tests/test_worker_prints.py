"""What a claim prints in `bnproof fuzz`'s worker process reaches the command's
stderr, line by line, also when the worker is then killed for its budget and
PYTHONUNBUFFERED is not set (a user's machine, unlike this project's).

The worker ends with os._exit, or SIGKILL when its budget runs out.  Its stdout
is a file or a pipe (the command's stderr), so without PYTHONUNBUFFERED it was
block-buffered, and a claim's prints, the very lines that show where it stuck,
were lost.  The claim says when it blocks by writing a file, and the budget
ends then (tests/budget_clock.py): no test here waits on a time."""

from __future__ import annotations

import pytest

from budget_clock import budget_ends_when_blocked
from cli_runner import env_for, run_cli

PRINTS_THEN_BLOCKS = '''
import os
import sys
import time

from bnproof.claims import Claim, Var


def residual(xp, x):
    {write}
    with open("blocked.tmp", "w"):
        pass
    os.replace("blocked.tmp", "blocked")
    time.sleep(3600)


CLAIM = Claim(id="blocks/after-printing", source="a test", statement="x", variables=(Var("x", ()),),
              residual=residual)
'''


@pytest.mark.parametrize("write", ['print("stuck at", x)', 'sys.__stdout__.write(f"stuck at {x}\\n")'],
                         ids=["print", "the interpreter's own stdout"])
def test_what_a_claim_prints_before_its_worker_is_killed_reaches_stderr(tmp_path, monkeypatch, write):
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    (tmp_path / "claim.py").write_text(PRINTS_THEN_BLOCKS.format(write=write))
    with budget_ends_when_blocked(tmp_path, "blocked"):
        done = run_cli("fuzz", tmp_path / "claim.py", "--no-jax", "--json", "--time-budget", "300",
                       cwd=tmp_path, env=env_for(tmp_path, PYTHONUNBUFFERED=None))
    assert done.returncode == 10, done.stderr  # undecided: the budget ran out while it blocked
    assert (tmp_path / "blocked").exists()
    assert "stuck at" in done.stderr and "stuck at" not in done.stdout
