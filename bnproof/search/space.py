"""The instance space of a claim: sizes, and random or drawn values per variable."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np

from ..claims.api import Claim
from ..errors import BadInput

# Per instance.  Fuzzing looks for small counterexamples; Hypothesis cannot draw much more.
MAX_ENTRIES = 256
# Size combinations a search may range over (checked before any is built).
MAX_SIZE_COMBINATIONS = 10_000
# Size combinations an identity's exact_sizes may ask the prover for.
MAX_PROOF_SIZES = 1000


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _check_claim_sizes(claim: Claim) -> None:
    """The claim's own ranges and fixed dimensions, as bad input before anything runs."""
    for name, value in claim.sizes.items():
        if (not isinstance(value, (tuple, list)) or len(value) != 2 or not all(map(_is_int, value))
                or not 1 <= value[0] <= value[1]):
            raise BadInput(f"claim {claim.id}: size {name!r} needs a range (smallest, largest) of integers "
                           f"with 1 <= smallest <= largest, got {value!r}")
    for v in claim.variables:
        for s in v.shape:
            if not isinstance(s, str) and (not _is_int(s) or s < 1):
                raise BadInput(f"claim {claim.id}: variable {v.name} has dimension {s!r}; "
                               "a dimension is a size name or an integer >= 1")
    exact = claim.exact_sizes or {}
    if not isinstance(exact, dict):
        raise BadInput(f"claim {claim.id}: exact_sizes must map size names to ranges, got {exact!r}")
    combinations = 1
    for name, value in exact.items():
        if name not in claim.sizes:
            raise BadInput(f"claim {claim.id}: exact_sizes names {name!r}, which is not one of its sizes")
        if (not isinstance(value, (tuple, list)) or len(value) != 2 or not all(map(_is_int, value))
                or not 1 <= value[0] <= value[1]):
            raise BadInput(f"claim {claim.id}: exact size {name!r} needs a range (smallest, largest) of "
                           f"integers with 1 <= smallest <= largest, got {value!r}")
        smallest = claim.sizes[name][0]
        if value[0] < smallest:  # a proof there is about instances the claim does not cover
            raise BadInput(f"claim {claim.id}: exact size {name!r} starts at {value[0]}, below the "
                           f"claim's smallest {name} = {smallest}")
        combinations *= value[1] - value[0] + 1
    if combinations > MAX_PROOF_SIZES:
        raise BadInput(f"claim {claim.id}: exact_sizes give {combinations} sizes to prove; at most "
                       f"{MAX_PROOF_SIZES}")


def size_grid(claim: Claim, sizes: dict | None = None) -> list[dict]:
    """Every size assignment in the claim's ranges, smallest first."""
    _check_claim_sizes(claim)
    ranges = {name: tuple(int(x) for x in value) for name, value in claim.sizes.items()}
    for name, value in (sizes or {}).items():
        if name not in ranges:
            raise BadInput(f"claim {claim.id} has no size {name!r} (sizes: {', '.join(ranges) or 'none'})")
        lo, hi = value if isinstance(value, tuple) else (value, value)
        if lo < 1 or hi < lo:
            raise BadInput(f"impossible size {name} = {value}")
        low, high = ranges[name]
        if not low <= lo <= hi <= high:  # the sizes are part of the statement: outside, no instance of it
            asked = f"{name} = {lo}" if lo == hi else f"{name} from {lo} to {hi}"
            declared = f"{name} = {low} only" if low == high else f"{name} from {low} to {high}"
            raise BadInput(f"{asked} is outside the sizes claim {claim.id} declares ({declared}): an "
                           "instance there refutes nothing the claim says")
        ranges[name] = (lo, hi)
    names = sorted(ranges)
    # bounded before anything is enumerated (sizes (2, 10**9) built a billion dicts): the
    # entries grow with every size, so the largest sizes give the most; then the count
    largest = {n: ranges[n][1] for n in names}
    entries = sum(math.prod(int(n) for n in claim.shape_of(v, largest)) for v in claim.variables)
    if entries > MAX_ENTRIES:
        raise BadInput(f"sizes {largest} give {entries} entries per instance; at most {MAX_ENTRIES}")
    combinations = math.prod(hi - lo + 1 for lo, hi in ranges.values())
    if combinations > MAX_SIZE_COMBINATIONS:
        raise BadInput(f"claim {claim.id}: its sizes give {combinations} combinations to search; "
                       f"at most {MAX_SIZE_COMBINATIONS}")
    grid = [dict(zip(names, combo)) for combo in
            itertools.product(*(range(ranges[n][0], ranges[n][1] + 1) for n in names))]
    grid.sort(key=lambda s: (sum(s.values()), tuple(s[n] for n in names)))
    for s in grid:
        # math.prod of Python ints: np.prod wraps around in int64 (4294967296² is 0)
        entries = sum(math.prod(int(n) for n in claim.shape_of(v, s)) for v in claim.variables)
        if entries > MAX_ENTRIES:
            raise BadInput(f"sizes {s} give {entries} entries per instance; at most {MAX_ENTRIES}")
    return grid


# Scale mixing: a quarter of the draws of each variable are multiplied by a
# power of ten, so that claims whose hypotheses hold only at large magnitudes
# (σ > 100) or only near zero are searched there too.
SCALE_EXPONENTS = (-4, 6)
SCALED_SHARE = 0.25


def random_batch(claim: Claim, sizes: dict, n: int, rng: np.random.Generator) -> dict:
    """n instances: a mix of small integers and Gaussians at several scales,
    some multiplied by powers of ten, with the domains enforced."""
    out = {}
    for v in claim.variables:
        shape = (n,) + claim.shape_of(v, sizes)
        lead = (n,) + (1,) * (len(shape) - 1)
        ints = rng.integers(-3, 4, size=shape).astype(np.float64)
        scale = np.exp(rng.uniform(-1.5, 1.5, size=lead))
        gauss = rng.normal(size=shape) * scale
        pick = rng.random(size=lead) < 0.5
        x = enforce(v, np.where(pick, ints, gauss))
        lo, hi = SCALE_EXPONENTS
        tens = np.where(rng.random(size=lead) < SCALED_SHARE,
                        10.0 ** rng.integers(lo, hi + 1, size=lead), 1.0)
        out[v.name] = x * tens  # a positive factor keeps every domain
    return out


def jittered(values: dict, sign: int, batched: bool) -> dict:
    """Every entry moved by 16 ulps, up or down in a checkerboard pattern
    (symmetric, so symmetric matrices stay symmetric): the residual's change
    measures its rounding noise, so that float round-off at large magnitudes
    is not mistaken for a violation."""
    out = {}
    for name, x in values.items():
        x = np.asarray(x, dtype=np.float64)
        axes = x.shape[1:] if batched else x.shape
        pattern = np.indices(axes).sum(axis=0) % 2 * 2 - 1 if axes else np.float64(1)
        out[name] = x * (1 + sign * 2.0 ** -48 * pattern)
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
