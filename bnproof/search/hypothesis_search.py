"""Property-based search with Hypothesis.

Instances are drawn as exact rationals, screened in floats, and a failure is
raised only after the exact decision says "refuted", so Hypothesis's own
shrinker shrinks through exact confirmations.  ``target()`` steers toward
violations, and the example database keeps found counterexamples across runs
(it is a cache: committed certificates are the record).
"""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings, target
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import Unsatisfiable

from ..claims.api import Claim
from ..claims.decide import Decision
from ..claims.xp import floating
from .exactify import confirm


class Found(Exception):
    def __init__(self, instance: dict, decision: Decision):
        super().__init__("counterexample")
        self.instance, self.decision = instance, decision


# Entries are integers over one denominator per variable: a draw is one choice
# per entry (st.fractions takes several), which makes generation and shrinking
# about six times cheaper, and shrinking still heads for denominator 1 and 0.
DENOMINATORS = (1, 2, 3, 4, 6)
NUMERATORS = st.integers(-12, 12)


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


def _scaled(value, d: int):
    if isinstance(value, list):
        return [_scaled(v, d) for v in value]
    return Fraction(value, d)


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
    return st.tuples(st.sampled_from(DENOMINATORS), entries).map(lambda t: _scaled(t[1], t[0]))


def instances(claim: Claim, grid: list[dict]):
    def for_sizes(sizes):
        return st.fixed_dictionaries({v.name: _array(v, claim.shape_of(v, sizes))
                                      for v in claim.variables})

    return st.sampled_from(grid).flatmap(for_sizes)


def _screen(claim: Claim, instance: dict, xp) -> float | None:
    """The float residual where the hypotheses hold in floats, else None."""
    values = {k: np.asarray(v, dtype=float) if isinstance(v, list) else float(v)
              for k, v in instance.items()}
    with np.errstate(all="ignore"):
        try:
            for h in claim.hypotheses:
                if not np.min(h(xp, **values)) > 1e-12:
                    return None
            r = float(np.reshape(claim.residual(xp, **values), ()))
        except (ZeroDivisionError, np.linalg.LinAlgError, FloatingPointError, ValueError):
            return None
    return r if np.isfinite(r) else None


def search(claim: Claim, grid: list[dict], seed_value: int, max_examples: int,
           database: Path | None, deadline: float, progress=None):
    """(instance, decision) of a shrunk counterexample or None, the count, and the
    monotonic time of the first exact confirmation (before any shrinking) or None."""
    xp = floating()
    count = [0]
    first = [None]

    def test(instance):
        count[0] += 1
        if progress:
            progress()
        if time.monotonic() > deadline:
            return
        r = _screen(claim, instance, xp)
        if r is None:
            return
        badness = -r if claim.kind == "inequality" else abs(r)
        target(float(badness))
        # floats only nominate; the exact decision is the judge
        # (an inequality that holds with equality sits at r ≈ ±1e-15: not a candidate)
        limit = 1e-9 if claim.strict else -1e-9
        if (r < limit) if claim.kind == "inequality" else (abs(r) > 1e-7):
            found = confirm(claim, instance)
            if found:
                first[0] = first[0] or time.monotonic()
                raise Found(instance, found)

    test._hypothesis_internal_add_digest = claim.id.encode()
    db = DirectoryBasedExampleDatabase(str(database)) if database else None
    run = seed(seed_value)(settings(
        max_examples=max_examples, database=db, deadline=None, verbosity=Verbosity.quiet,
        report_multiple_bugs=False, derandomize=False, print_blob=False,
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )(given(instances(claim, grid))(test)))
    try:
        run()
    except Found as hit:
        return (hit.instance, hit.decision), count[0], first[0]
    except Unsatisfiable:  # Hypothesis could not draw enough valid instances; JAX still searches
        pass
    return None, count[0], None
