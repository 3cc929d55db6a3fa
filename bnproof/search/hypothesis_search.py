"""Property-based search with Hypothesis.

Instances are drawn as exact rationals, screened in floats, and a failure is
raised only after the exact decision says "refuted" and the checker accepts
the certificate.  The search stops at the first such failure: Hypothesis's
shrinker is not run (its phase is off).  bnproof's own exact shrink
(exactify.shrink) does that job in far fewer evaluations: it drops samples
in halves and steps through exact decisions alone, certifying only where it
ends, where Hypothesis's shrinker replays the whole test (draw, float screen,
exact decision) for each of its thousands of attempts and cannot drop
samples at a fixed size (Theorem 4.1 at m = 64: the first refutation in
0.1 s, then 6.6 s of Hypothesis shrinking).  ``target()`` steers toward the
hypotheses while they fail and toward violations once they hold; a
power-of-ten scale per variable reaches instances at large and small
magnitudes.  No example database: Hypothesis ignores one under @seed, and a
seed must give the same search on every run (certificates are the record of
what was found).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings, target
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from ..claims.api import Claim
from ..claims.decide import HOLDS, REFUTED, UNDECIDED, sizes_of
from ..claims.xp import floating
from ..errors import Disagreement
from .certify import Judge, Refutation
from .coverage import Coverage
from .equalities import on_constraints
from .screen import badness, faint, near_tie, nominated, screen


class Found(BaseException):
    """Not an Exception, as OutOfTime: Hypothesis lets it through at once, without
    replaying and pretty-printing the example (bnproof shrinks it itself)."""

    def __init__(self, refutation: Refutation):
        super().__init__("counterexample")
        self.refutation = refutation


class OutOfTime(BaseException):
    """Not an Exception: Hypothesis lets it through at once instead of shrinking it."""


class Disagreed(BaseException):
    """errors.Disagreement on its way out of Hypothesis: as an Exception, Hypothesis would
    replay the test to report it, and a replay past the judge's bounded second looks would
    pass and read as a flaky test instead of exit 7."""

    def __init__(self, error: Disagreement):
        super().__init__(str(error))
        self.error = error


# Entries are integers over one denominator per variable: a draw is one choice
# per entry (st.fractions takes several), which makes generation and shrinking
# about six times cheaper, and shrinking still heads for denominator 1 and 0.
DENOMINATORS = (1, 2, 3, 4, 6)
NUMERATORS = st.integers(-12, 12)
# A power of ten per variable, 10^0 three times in four (and where shrinking heads).
SCALE_EXPONENTS = st.one_of(st.just(0), st.just(0), st.just(0), st.integers(-4, 6))
# Instances floats cannot place go to the exact engine directly, at most this
# many per search: values floats cannot hold (a constant like 2**5000), and
# hypotheses within rounding of 0 (10**-15 > 0 holds; a float screen alone
# would call every such instance outside, and the claim vacuous).  The exact
# engine decides them whatever their size, but at its own pace.
MAX_EXACT = 64
# Faint violations (screen.faint) go to the exact engine too, at most this many
# (a count, not a share of the time, so that a seed gives one search): most are
# the rounding noise of exact equalities, but a claim false by 10**-12
# everywhere must not survive.
MAX_FAINT = 16
# Near-ties (screen.near_tie: a residual floats round to the boundary, such as tanh(x² + 20) − 1
# = 0.0, false by 8.5e-18) go to the exact engine too, at most this many per search: a claim whose
# residual is ≡ 0 ties everywhere.  As many as the SAMPLES survival decides exactly anyway, and
# the first near-ties of such a claim are its first samples (decided once: the judge remembers),
# so it costs no exact decision more than before.
MAX_TIES = 8


def _integers(domain: str):
    if domain == "positive":
        return st.integers(1, 12)
    if domain == "nonzero":
        return NUMERATORS.filter(bool)
    return NUMERATORS


def _nested(domain: str, shape):
    if not shape:
        return _integers(domain)
    return st.lists(_nested(domain, shape[1:]), min_size=shape[0], max_size=shape[0])


def _scaled(value, factor: Fraction):
    if isinstance(value, list):
        return [_scaled(v, factor) for v in value]
    return value * factor


def _array(var, shape):
    if var.domain == "symmetric":
        n = shape[0]
        cells = st.lists(NUMERATORS, min_size=n * (n + 1) // 2, max_size=n * (n + 1) // 2)

        def build(values):
            it = iter(values)
            upper = {(i, j): next(it) for i in range(n) for j in range(i, n)}
            return [[upper[min(i, j), max(i, j)] for j in range(n)] for i in range(n)]

        entries = cells.map(build)
    else:
        entries = _nested(var.domain, tuple(shape))
    return st.tuples(st.sampled_from(DENOMINATORS), SCALE_EXPONENTS, entries).map(
        lambda t: _scaled(t[2], Fraction(10) ** t[1] / t[0]))


def instances(claim: Claim, grid: list[dict]):
    def for_sizes(sizes):
        drawn = st.fixed_dictionaries({v.name: _array(v, claim.shape_of(v, sizes))
                                       for v in claim.variables})
        # equality hypotheses: moved onto their set (verified exactly; see search/equalities.py)
        return drawn.map(lambda instance: on_constraints(claim, instance)) if claim.equalities else drawn

    # one strategy per size, built once: flatmap would build (and validate) a new one per draw
    per_size = [for_sizes(sizes) for sizes in grid]
    if len(per_size) == 1:
        return per_size[0]
    return st.integers(0, len(grid) - 1).flatmap(per_size.__getitem__)


# Floats can call an instance inside the claim where it is not (a divisor that is
# exactly 0 but irrational rounds to 1e-16): survival needs one decided exactly.
SAMPLES = 8


def search(claim: Claim, grid: list[dict], seed_value: int, max_examples: int,
           deadline: float, judge: Judge, coverage: Coverage,
           on_found=None, progress=None):
    """The first certified counterexample (unshrunk: see the module's docstring) or
    None, the number of instances evaluated, and the monotonic time it was
    certified or None.  Every evaluated instance is tallied in `coverage`;
    `on_found` hears of the certified refutation as it is found."""
    xp = floating()
    state = {"count": 0, "first": None, "best": None, "exact": 0, "faint": 0, "ties": 0}

    def found_one(instance, found):
        state["first"], state["best"] = time.monotonic(), found
        if on_found:
            on_found(found)
        raise Found(found)

    def test(instance):
        if time.monotonic() > deadline:
            raise OutOfTime
        s = screen(claim, instance, xp)
        found = None
        if (s.unrepresentable or s.borderline) and state["exact"] < MAX_EXACT:
            # floats cannot tell whether it is inside (an overflow, or a hypothesis within
            # rounding of 0): the exact engine decides, and it is counted as decided
            state["exact"] += 1
            found = judge.confirm(instance)
            inside = found is not None or judge.verdict(instance) in (HOLDS, REFUTED, UNDECIDED)
            coverage.add(sizes_of(claim, instance), 1, int(inside), int(inside))
        else:
            coverage.add(sizes_of(claim, instance), 1, int(s.met), int(s.r is not None))
            if s.met and s.r is not None and len(judge.samples) < SAMPLES:
                judge.samples.append(instance)
        state["count"] += 1
        if progress:
            progress()
        if found:
            found_one(instance, found)
        if claim.hypotheses and s.hmin is not None and np.isfinite(s.hmin):
            # while a hypothesis fails, climb toward it; every instance inside scores alike
            target(1.0 if s.met else float(s.hmin), label="hypotheses")
        if s.r is None:
            return
        target(float(badness(claim, s.r)), label="violation")
        if nominated(claim, instance, s.r, xp):  # floats nominate; the exact engine and checker judge
            found = judge.confirm_nominated(instance)  # holds: read a second time (the first few)
            if found:
                found_one(instance, found)
        elif state["faint"] < MAX_FAINT and faint(claim, instance, s.r, xp):
            state["faint"] += 1
            found = judge.confirm_nominated(instance)
            if found:
                found_one(instance, found)
        elif state["ties"] < MAX_TIES and near_tie(claim, instance, s.r, xp):
            # floats cannot place it: the exact engine judges.  Floats did not nominate it,
            # so one the engine cannot decide (an identity through exp, exactly 0) is no
            # undecided candidate: only a refutation counts
            state["ties"] += 1
            counted, hear = judge.undecided, judge.on_undecided
            judge.on_undecided = None
            try:
                found = judge.confirm(instance)
            finally:
                judge.undecided, judge.on_undecided = counted, hear
            if found:
                found_one(instance, found)

    def guarded(instance):
        try:
            test(instance)
        except Disagreement as err:
            raise Disagreed(err) from None

    guarded._hypothesis_internal_add_digest = claim.id.encode()
    run = seed(seed_value)(settings(
        max_examples=max_examples, database=None, deadline=None, verbosity=Verbosity.quiet,
        report_multiple_bugs=False, derandomize=False, print_blob=False,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target],  # no Phase.shrink
        suppress_health_check=list(HealthCheck),
    )(given(instances(claim, grid))(guarded)))
    # the example database's key: there is no database, and without a key Hypothesis
    # hashes the test's source (tokenizing it) on every search
    run._hypothesis_internal_database_key = None
    try:
        with _storage_outside_the_working_folder():
            run()
    except (Found, OutOfTime):  # OutOfTime: keep what was found before the deadline
        pass
    except Unsatisfiable:  # Hypothesis could not draw enough valid instances; JAX still searches
        pass
    except Disagreed as stop:  # exit 7, as it was raised
        raise stop.error from None
    return state["best"], state["count"], state["first"]


@contextlib.contextmanager
def _storage_outside_the_working_folder():
    """Even without an example database Hypothesis writes files under
    ./.hypothesis (a cache of the constants it reads from local modules); a
    search writes nothing into the working folder, so for its duration they go
    to bnproof's cache folder (BNPROOF_CACHE_DIR, else ~/.cache/bnproof), or,
    where that cannot be written, to a temporary folder removed afterwards.
    A kept cache matters: without it Hypothesis parses every local module's
    source (bnproof's own included) in each new process, 0.5 to 1.4 s before
    the first instance.  The caller's own setting (a notebook's, a test
    suite's) is restored."""
    from hypothesis import configuration

    before = getattr(configuration, "__hypothesis_home_directory", None)
    with contextlib.ExitStack() as stack:
        home = _cache_folder() or stack.enter_context(tempfile.TemporaryDirectory(prefix="bnproof-hypothesis-"))
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(before)


def _cache_folder() -> str | None:
    root = os.environ.get("BNPROOF_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "bnproof")
    path = Path(root) / "hypothesis"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(path) if os.access(path, os.W_OK) else None
