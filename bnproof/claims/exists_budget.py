"""Time for the solvers of an existential search: no single answer may spend it.

z3 can think about a nonlinear question until its time limit and then say
`unknown`.  When one call could take what was left of the search, four such
instances ended a search that a fifth instance would have settled.  So the time
is handed out in shares:

  * an instance gets the budget left divided as if FAIR_INSTANCES instances were
    still to come (at most SOLVER_SECONDS, never past the search's deadline);
  * each solver call of an instance gets a fraction of what the instance has left
    (z3's first look at most QUICK_SECONDS: the numeric search and the exact
    candidates near its points come next, and z3 is asked again, longer, only if
    they find nothing);
  * a proof that no witness exists (z3 already answered unsat, z3 and cvc5 must
    both say so in their own processes, which take a while to start) may use more,
    PROOF_FLOOR seconds, but never more than half of what the search has left.

Every call goes through `z3_check` or `external`, and is recorded as an Event on the
instance's Allowance: the search counts them, and tests replace these two
functions (and time.monotonic, which `clock` reads) to see what each call was
granted without any solver."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


def clock() -> float:
    """time.monotonic(), looked up at each call (a test's fake clock is seen here too)."""
    return time.monotonic()


SOLVER_SECONDS = 20.0  # the most one instance may spend
FAIR_INSTANCES = 8  # the budget left is shared as if this many instances were still to come
MIN_INSTANCE = 0.5  # seconds below which an instance could not ask a solver anything useful
MIN_CALL = 0.05
PROOF_FLOOR = 3.0  # two solver processes must start and answer unsat
QUICK_SECONDS = 0.25  # z3's first look at an instance (and at a piece or a pinned question)


@dataclass(frozen=True)
class Event:
    what: str  # "z3" (in this process) or the external solver's name
    purpose: str  # "witness", "linear", "dual", "piece", "completion", "proof"
    seconds: float  # the time granted
    answer: str


@dataclass
class Allowance:
    """The seconds one instance may spend, and every solver call it made."""

    deadline: float
    search_deadline: float
    events: list = field(default_factory=list)

    @classmethod
    def of(cls, seconds: float, search_deadline: float | None = None) -> "Allowance":
        now = clock()
        end = now + seconds
        return cls(end, end if search_deadline is None else max(search_deadline, end))

    def left(self) -> float:
        return max(0.0, self.deadline - clock())

    def share(self, fraction: float) -> float:
        """Seconds for one call: a fraction of what the instance has left (0: none left)."""
        left = self.left()
        return 0.0 if left <= 0 else min(left, max(MIN_CALL, fraction * left))

    def proof_share(self) -> float:
        search_left = max(0.0, self.search_deadline - clock())
        return min(search_left / 2, max(self.left() / 2, PROOF_FLOOR))

    def unknowns(self) -> int:
        return sum(e.answer not in ("sat", "unsat") for e in self.events)


def for_instance(search_deadline: float) -> Allowance:
    """The fair share of the search's time left for the next instance."""
    left = search_deadline - clock()
    seconds = min(SOLVER_SECONDS, max(MIN_INSTANCE, left / FAIR_INSTANCES), max(0.0, left))
    return Allowance.of(seconds, search_deadline)


def z3_check(solver, seconds: float, allowance: Allowance, purpose: str) -> str:
    """solver.check() within `seconds`: "sat", "unsat" or "unknown"."""
    solver.set("timeout", max(1, int(seconds * 1000)))
    answer = str(solver.check())
    allowance.events.append(Event("z3", purpose, seconds, answer))
    return answer


def external(text: str, name: str, seconds: float, allowance: Allowance) -> str:
    """The solver `name` on the SMT-LIB text in its own process (certificate/solvers.py)."""
    from ..certificate.solvers import solve

    answer = solve(text, name, seconds) if seconds > 0 else "timeout"
    allowance.events.append(Event(name, "proof", seconds, answer))
    return answer
