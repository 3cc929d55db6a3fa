"""One reading's state: its limits, the gradients in progress, what was refused.

Every value operation charges the current session (one per thread): an
operation count and a work count (the size of every value made), each with a
cap, so that a hostile claim ends inconclusive instead of hanging the reading.
The gradients in progress (``active``) say which symbols a value may carry;
``at_point`` substitutes all of them by 0, which is where every sign is
decided.  ``stops`` records every stop raised while a claim's function runs:
what the claim's code catches still ends the reading.

While a claim's function runs (``running``), the session also notes what a
program could not hold: ``observed``, every question the claim's own Python
code asked of a value (a comparison or truth value, a hash, its text, its
class), each of which may steer the claim's code by the value; and
``piecewise``, the decisions of abs, max, min and guard.  Neither changes the
reading; they say how far agreement at a few instances reaches (confirm.py).
"""

from __future__ import annotations

import itertools
import threading
from contextlib import contextmanager

import symengine as se

from . import signs
from .errors import Inconclusive, Refused, ReadingStop

MAX_OPS = 2_000_000  # value operations per session
MAX_WORK = 50_000_000  # nodes walked by symengine (diff, subs, expand) and words of rational arithmetic
MAX_SIGNS = 20_000  # cached sign decisions per session
MAX_BALLS = 200_000  # cached balls of subexpressions per session
MAX_OBSERVED = 8  # observations kept per run (the first says why)
ZERO = se.Integer(0)
ESCAPED = ("a value escaped xp.grad: it carries the perturbation of a gradient that has "
           "returned (a seeded argument kept by the function and used later)")

_tags = itertools.count(1)
_local = threading.local()


class Session:
    def __init__(self, max_ops: int | None = None, max_work: int | None = None, track: bool = False):
        self.max_ops = MAX_OPS if max_ops is None else max_ops
        self.max_work = MAX_WORK if max_work is None else max_work
        self.track = track
        self.ops = self.work = 0
        self.signs: dict = {}
        self.balls: dict = {}  # balls at signs.PRECISIONS[0] bits, by subexpression
        self.points: dict = {}  # expressions at the point, while the active gradients stay the same
        self.halted: ReadingStop | None = None  # the cap that ended the session
        self.active: dict = {}  # gradient tag -> its symbols, outermost gradient first
        self.zero: dict = {}  # every active symbol -> 0
        self.branch_kinks: set = set()  # symbols a Python branch was decided on at a tie
        self.stops: list[ReadingStop] = []
        self.running = False  # a claim's function is running (run() in read.py)
        self.observed: list[str] = []  # questions the claim's code asked of values (see observe)
        self.piecewise = 0  # decisions of abs, max, min and guard in this run
        self.fragile: list[str] = []  # track: decisions floats may take the other way
        self.scale = 0.0  # track: the largest rounding magnitude of a value made in this run

    # ------------------------------------------------------------ limits and stops

    def stop(self, err: ReadingStop):
        self.stops.append(err)
        raise err

    def halt(self, err: ReadingStop):
        """A cap is reached: this session does no more work, whatever the claim catches."""
        self.halted = err
        self.stop(err)

    def charge(self, work: int = 0) -> None:
        """One value operation and `work` more units of work."""
        self.ops += 1
        self.spend(work)

    def spend(self, work: int) -> None:
        self.work += work
        if self.ops > self.max_ops or self.work > self.max_work:
            if self.halted is not None:  # a fresh exception: re-raising one object grows its traceback
                raise type(self.halted)(self.halted.reason)
            what = (f"{self.max_ops} value operations" if self.ops > self.max_ops
                    else f"{self.max_work} units of work")
            self.halt(Inconclusive(f"the reading exceeds its cap of {what}"))

    def observe(self, what: str) -> None:
        """The claim's own code asked `what` of a value: its control flow may depend on the
        value in a way no traced program records (the tracers refuse or cannot see it)."""
        if self.running and len(self.observed) < MAX_OBSERVED and what not in self.observed:
            self.observed.append(what)

    # ------------------------------------------------------------ gradients

    def new_tag(self) -> int:
        return next(_tags)

    def push(self, tag: int, symbols: tuple) -> None:
        self.points.clear()
        self.active[tag] = symbols
        for t in symbols:
            self.zero[t] = ZERO

    def pop(self, tag: int) -> None:
        self.points.clear()
        for t in self.active.pop(tag, ()):
            self.zero.pop(t, None)
            self.branch_kinks.discard(t)

    def check_tags(self, tags) -> None:
        if tags and not tags <= self.active.keys():
            self.stop(Refused(ESCAPED))

    # ------------------------------------------------------------ signs at the point

    def at_point(self, e):
        """e with every active gradient's symbols at 0 (the point every sign is read at)."""
        if self.zero and not signs.is_rational(e):
            point = self.points.get(e)
            if point is None:
                if len(self.points) > MAX_SIGNS:
                    self.points.clear()
                point = self.points[e] = e.subs(self.zero)
            return point
        return e

    def sign(self, e, size: int = 1) -> int:
        """The sign of e at the point, proved (cached); raises Inconclusive.  `size` bounds
        e's size as a tree: the substitution at the point walks it."""
        if self.zero:
            self.spend(size)
        e = self.at_point(e)
        if signs.is_rational(e):
            return signs.rational_sign(e)
        cached = self.signs.get(e)
        if cached is None:
            if e.free_symbols:
                self.stop(Refused(ESCAPED))
            if len(self.balls) > MAX_BALLS:
                self.balls.clear()
            try:
                cached = signs.sign(e, self.balls)
            except Inconclusive as err:
                cached = err.reason
            if len(self.signs) >= MAX_SIGNS:
                self.signs.clear()
            self.signs[e] = cached
        if isinstance(cached, str):
            raise Inconclusive(cached)
        return cached


def current() -> Session:
    session = getattr(_local, "session", None)
    if session is None:  # values used outside any reading (a test, an interactive session)
        session = _local.session = Session()
    return session


@contextmanager
def scope(session: Session):
    previous = getattr(_local, "session", None)
    _local.session = session
    try:
        yield session
    finally:
        _local.session = previous
