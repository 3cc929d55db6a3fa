"""The float screen: which instances meet the hypotheses, and which look like
violations worth an exact decision.  Floats only nominate; the exact engine
and the checker judge.

A nomination must stand out of the residual's rounding noise, measured by
moving every entry a few ulps (space.jittered): at large magnitudes a true
identity evaluates to ±1e-4 in floats, and sending every such instance to the
exact engine (minimal polynomials) would spend the budget on nothing.

What floats cannot place is not theirs to judge either: a residual within
rounding of the boundary (`near_tie`: 0.0 itself, as tanh(x² + 20) − 1 rounds
to, or within a slack scaled to the instance's magnitude) may be a violation
of 10⁻¹⁸; the search sends a bounded number of them to the exact engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..claims.api import Claim
from ..errors import DegenerateInstance
from .space import jittered

HYPOTHESIS_FLOOR = 1e-12  # a hypothesis must exceed this in floats to count as met
INEQUALITY_SLACK = 1e-9  # an inequality holding with equality sits at r ≈ ±1e-15: not a candidate
IDENTITY_SLACK = 1e-7
NOISE_FACTOR = 16
# a residual within this of 0, relative to 1 + the instance's largest entry squared, is a near-tie:
# floats cannot say on which side of the boundary it is (tanh(20) rounds to 1.0, 8.5e-18 away)
TIE_SLACK = 1e-9
# an equality hypothesis (Claim.equalities) counts as met in floats where its largest entry is
# within this of 0, relative to 1 + the instance's largest entry squared: floats only nominate,
# the exact engine requires it to be exactly 0 (search/equalities.py puts instances there)
EQUALITY_SLACK = 1e-8


def equality_gap(xnp, claim: Claim, xp, values: dict):
    """max |e| over every entry of every equality, relative to 1 + max |x|² (numpy or
    jax.numpy as xnp); 0 without equalities."""
    if not claim.equalities:
        return xnp.zeros(())
    # a zero appended to each: an empty array of equalities asks nothing, as in the exact engine
    es = xnp.concatenate([xnp.ravel(xnp.asarray(e(xp, **values), dtype=float)) for e in claim.equalities]
                         + [xnp.zeros(1)])
    xs = xnp.concatenate([xnp.ravel(xnp.asarray(v, dtype=float)) for v in values.values()] + [xnp.zeros(1)])
    return xnp.max(xnp.abs(es)) / (1 + xnp.max(xnp.abs(xs)) ** 2)


def badness(claim: Claim, r):
    """Higher is more violating (what Hypothesis's target() maximizes)."""
    return -r if claim.kind == "inequality" else np.abs(r)


def plausible(claim: Claim, r, noise):
    """Vectorized: does a float residual r with rounding noise `noise` nominate a violation?"""
    noise = NOISE_FACTOR * np.asarray(noise)
    if claim.kind == "identity":
        return (np.abs(r) > IDENTITY_SLACK) & (np.abs(r) > noise)
    if claim.strict:  # r ≤ 0 refutes: r within the noise of 0 may be an exact zero
        return r < INEQUALITY_SLACK + noise
    return (r < -INEQUALITY_SLACK) & (-r > noise)


@dataclass(frozen=True)
class Screen:
    met: bool  # every hypothesis > 0 in floats
    hmin: float | None  # the smallest hypothesis value (None: undefined; +inf: no hypotheses)
    r: float | None  # the residual where the hypotheses are met and it is finite
    # floats could not represent a value (an integer beyond 1e308, an infinite
    # result): only the exact engine can say whether the instance is inside
    unrepresentable: bool = False
    # the smallest hypothesis is within HYPOTHESIS_FLOOR of 0: floats cannot say
    # which side it is on (σ² of a constant batch, or a hypothesis like 10**-15)
    borderline: bool = False


def _floats(instance: dict) -> dict:
    return {k: np.asarray(v, dtype=float) if isinstance(v, list) else float(v) for k, v in instance.items()}


class _Unrepresentable(Exception):
    pass


def _residual(claim: Claim, values: dict, xp, strict: bool = False) -> float | None:
    """The float residual, None where undefined; with `strict`, raises
    _Unrepresentable where floats overflow (an OverflowError or ±inf)."""
    try:
        r = float(np.reshape(claim.residual(xp, **values), ()))
    except OverflowError:
        if strict:
            raise _Unrepresentable from None
        return None
    except (ZeroDivisionError, np.linalg.LinAlgError, FloatingPointError, ValueError, DegenerateInstance):
        return None
    if np.isinf(r) and strict:
        raise _Unrepresentable
    return r if np.isfinite(r) else None


def screen(claim: Claim, instance: dict, xp) -> Screen:
    """One exact instance, in numpy floats."""
    try:
        values = _floats(instance)
    except OverflowError:  # an entry beyond the float range
        return Screen(False, None, None, unrepresentable=True)
    with np.errstate(all="ignore"):
        hmin = np.inf
        try:
            for h in claim.hypotheses:
                value = np.asarray(h(xp, **values))
                if value.size == 0:  # an empty array asks nothing, as in the exact engine
                    continue
                value = float(np.min(value))
                if np.isinf(value):
                    return Screen(False, None, None, unrepresentable=True)
                hmin = min(hmin, value)
        except OverflowError:
            return Screen(False, None, None, unrepresentable=True)
        except (ZeroDivisionError, np.linalg.LinAlgError, FloatingPointError, ValueError, DegenerateInstance):
            return Screen(False, None, None)
        if np.isnan(hmin):
            return Screen(False, None, None)
        if not hmin > HYPOTHESIS_FLOOR:
            return Screen(False, hmin, None, borderline=abs(hmin) <= HYPOTHESIS_FLOOR)
        try:  # off the equality set (the exact solve failed): not inside the claim
            if not equality_gap(np, claim, xp, values) <= EQUALITY_SLACK:
                return Screen(False, hmin, None)
        except OverflowError:
            return Screen(False, None, None, unrepresentable=True)
        except (ZeroDivisionError, np.linalg.LinAlgError, FloatingPointError, ValueError, DegenerateInstance):
            return Screen(False, None, None)
        try:
            return Screen(True, hmin, _residual(claim, values, xp, strict=True))
        except _Unrepresentable:
            return Screen(True, hmin, None, unrepresentable=True)


def _noise(claim: Claim, instance: dict, r: float, xp) -> float | None:
    """How far the residual moves when every entry moves a few ulps (None: unknown)."""
    values = _floats(instance)
    with np.errstate(all="ignore"):
        moved = [_residual(claim, jittered(values, s, batched=False), xp) for s in (1, -1)]
    if any(m is None for m in moved):
        return None
    return max(abs(m - r) for m in moved)


def nominated(claim: Claim, instance: dict, r: float, xp) -> bool:
    """Does the screened residual r of this instance stand out of its rounding noise?"""
    if not plausible(claim, r, 0.0):
        return False
    noise = _noise(claim, instance, r, xp)
    if noise is None:
        return True  # noise unknown: let the exact engine judge
    return bool(plausible(claim, r, noise))


def magnitude(values: dict) -> float:
    """1 + the largest |entry| squared, in floats: what a residual's rounding scales with."""
    largest = 0.0
    for v in values.values():
        a = np.abs(np.asarray(v, dtype=float))
        if a.size:
            largest = max(largest, float(np.max(a)))
    return 1.0 + largest * largest


def near_tie(claim: Claim, instance: dict, r: float, xp=None) -> bool:
    """Is the float residual within rounding of the claim's boundary r = 0 (0.0 itself
    included), where only the exact engine can say which side the instance is on?
    Within TIE_SLACK of the entries' magnitude, and, given the namespace xp, 0.0 or
    within its measured rounding noise too: a residual of 1 at entries of 10⁶ is inside
    the slack but moves by nothing when the entries move by ulps, so floats place it."""
    if claim.kind == "inequality" and claim.strict:
        return False  # r ≤ 0 refutes: plausible() nominates r within the noise of 0 already
    with np.errstate(all="ignore"):
        try:
            scale = magnitude(_floats(instance))
        except OverflowError:
            return False  # unrepresentable: the screen sends it to the exact engine itself
    if not abs(r) <= TIE_SLACK * scale:
        return False
    if xp is None or r == 0.0:
        return True
    noise = _noise(claim, instance, r, xp)
    return noise is None or bool(abs(r) <= NOISE_FACTOR * noise)


def faint(claim: Claim, instance: dict, r: float, xp) -> bool:
    """A violation too small to be nominated (inside the slack that keeps the
    rounding noise of exact equalities from the exact engine) that still
    stands out of its measured noise: a residual of -10**-12 everywhere, an
    identity off by 10**-9.  Worth an exact decision now and then."""
    if claim.kind == "identity":
        if not 0 < abs(r) <= IDENTITY_SLACK:
            return False
    elif claim.strict or not -INEQUALITY_SLACK <= r < 0:
        return False  # (a strict inequality is nominated within the slack already)
    noise = _noise(claim, instance, r, xp)
    return noise is None or abs(r) > NOISE_FACTOR * noise
