"""Sparse monomials: a sorted tuple of (variable, exponent) pairs, () for 1.  The
product of two, on the exact floor, for the producer that keeps polynomials as
dicts monomial -> coefficient (claims/moments.py) and for symbolic_m/poly.py's
callers, which read flint polynomials term by term."""

from __future__ import annotations


def mono_mul(a: tuple, b: tuple) -> tuple:
    """a·b: the exponents of a variable in both add up."""
    if not a:
        return b
    if not b:
        return a
    out = dict(a)
    for v, e in b:
        out[v] = out.get(v, 0) + e
    return tuple(sorted(out.items()))
