"""Time budgets tested at any machine speed: a clock that jumps when a claim blocks.

A test of a time budget gives a claim that blocks for good (an hour's sleep, a
loop) where the test wants the budget to run out.  Waiting a short budget out is
a race: on a busy machine the worker may not even have reached the block (or
evaluated the instances the test counts) before a 1 s budget is spent, and a
long budget makes the suite wait.  So the claim says when it blocks, by writing
a marker file, and the process that enforces the budget (bnproof/search/worker.py,
the Supervisor, run in this process by tests/cli_runner.run_cli or the API) reads
a clock that runs as the real one until a new marker appears, then jumps past
the budget and its grace.  The budget given is GENEROUS: the worker's own
deadline (real time) never ends the work before the block, at any speed, and the
run ends the moment the claim blocks.  What happens before the block happens in
full; what the test checks is what the budget kills.

A product that failed to enforce its budget would still be caught: the worker
is killed only by the budget's code reading this clock, and a run that no
budget ends is ended by the hang guard (the process is stopped with every
thread's traceback, a failure)."""

from __future__ import annotations

import faulthandler
import sys
import time
from contextlib import contextmanager
from pathlib import Path

GENEROUS = 300  # seconds: a budget no run here reaches before its claim blocks or ends by itself
HANG_GUARD = 900  # seconds: only so that a budget that is not enforced fails the run instead of hanging it


class JumpingClock:
    """time, with a monotonic() that jumps by `jump` seconds once for each new file
    matching one of `markers` under `folder`."""

    def __init__(self, folder: Path, markers: tuple, jump: float):
        self.folder, self.markers, self.jump = Path(folder), markers, jump
        self.seen: set = set()
        self.offset = 0.0

    def monotonic(self) -> float:
        for pattern in self.markers:
            for path in self.folder.glob(pattern):
                if path not in self.seen:
                    self.seen.add(path)
                    self.offset += self.jump
        return time.monotonic() + self.offset

    @property
    def jumps(self) -> int:
        return len(self.seen)

    def __getattr__(self, name):
        return getattr(time, name)


@contextmanager
def budget_ends_when_blocked(folder: Path, *markers: str, budget: float = GENEROUS):
    """Within it, a budget of `budget` seconds enforced in this process runs out the
    moment a claim writes a new file matching one of `markers` (globs) in `folder`."""
    from bnproof.search import worker

    clock = JumpingClock(folder, markers or ("blocked*",), budget + worker.grace(budget) + 1.0)
    saved = worker.time
    worker.time = clock
    faulthandler.dump_traceback_later(HANG_GUARD, exit=True, file=sys.__stderr__)
    try:
        yield clock
    finally:
        faulthandler.cancel_dump_traceback_later()
        worker.time = saved
