"""Prove an identity claim exactly at fixed sizes, with symbols for every entry.

Each square root of a non-constant expression P becomes a new symbol s with
s² = P (s ≥ 0); the residual's numerator must then reduce to 0 modulo those
relations.  A zero remainder is a proof for all values where the claim is
defined; a nonzero one proves nothing either way (reported as not verified).
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy

from . import xp as namespaces
from .api import Claim


def _symbols(claim: Claim, sizes: dict) -> dict:
    values = {}
    for v in claim.variables:
        shape = claim.shape_of(v, sizes)
        out = np.empty(shape, dtype=object)
        for index in itertools.product(*(range(n) for n in shape)):
            key = tuple(sorted(index)) if v.domain == "symmetric" else index
            name = v.name + "_" + "_".join(map(str, key)) if key else v.name
            out[index] = sympy.Symbol(name, real=True, nonzero=v.domain in ("nonzero", "positive"),
                                      positive=v.domain == "positive" or None)
        values[v.name] = out if shape else out[()]
    return values


def identity_holds(claim: Claim, sizes: dict) -> bool:
    roots: dict = {}

    def sqrt(x):
        x = sympy.sympify(x)
        if x.is_number:
            return sympy.sqrt(x)
        key = sympy.expand(x)
        if key not in roots:
            roots[key] = sympy.Symbol(f"root{len(roots)}", positive=True)
        return roots[key]

    xp = namespaces.symbolic(sqrt=sqrt)
    values = _symbols(claim, sizes)
    residual = claim.residual(xp, **values)
    residual = residual.reshape(()).item() if isinstance(residual, np.ndarray) else residual
    numerator, _ = sympy.fraction(sympy.together(sympy.expand(residual)))
    numerator = sympy.expand(numerator)
    if numerator == 0:
        return True
    relations = [s**2 - p for p, s in roots.items()]
    gens = list(roots.values()) + sorted(numerator.free_symbols - set(roots.values()), key=str)
    _, remainder = sympy.reduced(numerator, relations, *gens, order="lex")
    return sympy.expand(remainder) == 0


def verified_sizes(claim: Claim) -> list[dict]:
    """The sizes in claim.exact_sizes at which the identity is proved."""
    ranges = claim.exact_sizes or {}
    names = sorted(ranges)
    grid = [dict(zip(names, combo)) for combo in
            itertools.product(*(range(ranges[n][0], ranges[n][1] + 1) for n in names))]
    return [sizes for sizes in grid if identity_holds(claim, sizes)]
