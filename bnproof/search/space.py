"""The instance space of a claim: sizes, and random or drawn values per variable."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from ..claims.api import Claim
from ..errors import BadInput

# Per instance.  Fuzzing looks for small counterexamples; Hypothesis cannot draw much more.
MAX_ENTRIES = 256


def size_grid(claim: Claim, sizes: dict | None = None) -> list[dict]:
    """Every size assignment in the claim's ranges, smallest first."""
    ranges = dict(claim.sizes)
    for name, value in (sizes or {}).items():
        if name not in ranges:
            raise BadInput(f"claim {claim.id} has no size {name!r} (sizes: {', '.join(ranges) or 'none'})")
        lo, hi = value if isinstance(value, tuple) else (value, value)
        if lo < 1 or hi < lo:
            raise BadInput(f"impossible size {name} = {value}")
        ranges[name] = (lo, hi)
    names = sorted(ranges)
    grid = [dict(zip(names, combo)) for combo in
            itertools.product(*(range(ranges[n][0], ranges[n][1] + 1) for n in names))]
    grid.sort(key=lambda s: (sum(s.values()), tuple(s[n] for n in names)))
    for s in grid:
        entries = sum(int(np.prod(claim.shape_of(v, s))) for v in claim.variables)
        if entries > MAX_ENTRIES:
            raise BadInput(f"sizes {s} give {entries} entries per instance; at most {MAX_ENTRIES}")
    return grid


def random_batch(claim: Claim, sizes: dict, n: int, rng: np.random.Generator) -> dict:
    """n instances: a mix of small integers and Gaussians at several scales,
    with the domains enforced."""
    out = {}
    for v in claim.variables:
        shape = (n,) + claim.shape_of(v, sizes)
        ints = rng.integers(-3, 4, size=shape).astype(np.float64)
        scale = np.exp(rng.uniform(-1.5, 1.5, size=(n,) + (1,) * (len(shape) - 1)))
        gauss = rng.normal(size=shape) * scale
        pick = rng.random(size=(n,) + (1,) * (len(shape) - 1)) < 0.5
        x = np.where(pick, ints, gauss)
        out[v.name] = enforce(v, x)
    return out


def enforce(var, x):
    if var.domain == "positive":
        return np.abs(x) + 0.25
    if var.domain == "nonzero":
        return np.where(np.abs(x) < 0.25, np.where(x < 0, -0.25, 0.25) + x, x)
    if var.domain == "symmetric":
        return (x + np.swapaxes(x, -1, -2)) / 2
    return x


def valid_exact(var, value) -> bool:
    """Does an exact value respect the variable's domain?"""
    flat = list(_flatten(value))
    if var.domain == "positive":
        return all(x > 0 for x in flat)
    if var.domain == "nonzero":
        return all(x != 0 for x in flat)
    if var.domain == "symmetric":
        n = len(value)
        return all(value[i][j] == value[j][i] for i in range(n) for j in range(n))
    return True


def _flatten(value):
    if isinstance(value, list):
        for v in value:
            yield from _flatten(v)
    else:
        yield value


def to_exact(x, denominator: int):
    """A float array as nested lists of Fractions with denominators ≤ the bound."""
    if np.ndim(x) == 0:
        return Fraction(float(x)).limit_denominator(denominator)
    return [to_exact(e, denominator) for e in x]
