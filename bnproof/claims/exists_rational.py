"""From a floating-point witness to exact candidates: small integers and simple
fractions first.

A float p from the numeric search (or an algebraic number from z3's model) is
never a witness: it only says where to look.  Two kinds of exact candidates:

  * `rounded`: every coordinate replaced by the best fraction with a denominator
    at most D, for D = 1, 2, 3, 4, 6, ... (an isolated rational witness, or a point
    inside an inequality's region, is met at the first D that is fine enough);
  * `pinned`: where the residuals tie the coordinates together (σ(p) = t leaves
    one coordinate of p ∈ R² to be solved from the other), rounding every
    coordinate misses the set of witnesses; so all coordinates but a few are
    pinned to simple fractions and the free ones are solved exactly
    (claims/exists.py asks z3, within its share of the time).

Each candidate must then be confirmed by the exact engine and by the second
reading: a candidate that fails is nothing."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

DENOMINATORS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 100, 128, 1000, 1024, 10**4, 10**6)
PIN_DENOMINATORS = (1, 4, 100)  # the pinned coordinates' fractions, simplest first
MAX_FREE_SETS = 3
RANK_TOLERANCE = 1e-8


def _fraction(x: float, bound: int) -> Fraction:
    return Fraction(x).limit_denominator(bound)


def finite(p) -> bool:
    return bool(np.all(np.isfinite(np.asarray(p, dtype=float))))


def rounded(p) -> list[list[Fraction]]:
    """Exact candidates near the float vector p, simplest first, without repeats."""
    if not finite(p):
        return []
    out, seen = [], set()
    for bound in DENOMINATORS:
        q = [_fraction(float(x), bound) for x in p]
        key = tuple(q)
        if key not in seen:
            seen.add(key)
            out.append(q)
    return out


def free_sets(jacobian, active) -> list[tuple[int, ...]]:
    """Which coordinates to leave free: as many as the active residuals' Jacobian has
    rank, chosen by pivoted Gram-Schmidt on its columns (those the residuals move most
    independently), then the last ones; [] where nothing ties the coordinates."""
    J = np.asarray(jacobian, dtype=float)
    if J.ndim != 2 or not J.size or not np.all(np.isfinite(J)):
        return []
    J = J[np.asarray(active, dtype=bool)] if len(active) == J.shape[0] else J
    n = J.shape[1]
    if not J.size:
        return []
    scale = max(1.0, float(np.max(np.abs(J))))
    columns, basis, chosen = J.T.copy(), [], []
    for _ in range(min(J.shape)):
        residual = columns.copy()
        for b in basis:
            residual -= np.outer(residual @ b, b)
        norms = np.linalg.norm(residual, axis=1)
        norms[chosen] = -1
        j = int(np.argmax(norms))
        if norms[j] <= RANK_TOLERANCE * scale:
            break
        chosen.append(j)
        basis.append(residual[j] / norms[j])
    if not chosen or len(chosen) >= n:
        return []
    sets = [tuple(sorted(chosen)), tuple(range(n - len(chosen), n)), tuple(range(len(chosen)))]
    out = []
    for s in sets:
        if s not in out:
            out.append(s)
    return out[:MAX_FREE_SETS]


def pins(p, free: tuple[int, ...]) -> list[dict[int, Fraction]]:
    """Values for the coordinates outside `free`, simplest first: {coordinate: value}.
    Zero first, wherever the point is (a parameter that can be switched off often
    leaves the rest rational: γ = 0, β = t), then fractions near the point."""
    out, seen = [], set()
    for bound in (0,) + PIN_DENOMINATORS:
        pinned = {j: Fraction(0) if bound == 0 else _fraction(float(x), bound)
                  for j, x in enumerate(p) if j not in free}
        key = tuple(sorted(pinned.items()))
        if key not in seen and all(math.isfinite(float(x)) for x in p):
            seen.add(key)
            out.append(pinned)
    return out
