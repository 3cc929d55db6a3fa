"""Square roots of rationals in one normal form, so that symengine's own expansion
cancels what is equal: √(p/q) = (s/q)·√p₁·…·√pₖ·√n with p·q = s²·p₁⋯pₖ·n, the pᵢ
distinct primes below 1000 and n free of them.  Then √6·√2 = 2√3 and
√75 = 5√3 hold by construction, and a residual that is exactly 0 usually
expands to 0 without the slower exact zero test (signs.py, which builds on this
module), which remains the judge of everything expansion leaves."""

from __future__ import annotations

from fractions import Fraction
from math import isqrt

import symengine as se

from .expressions import is_rational, nodes

SMALL_PRIMES = tuple(p for p in range(2, 1000) if all(p % d for d in range(2, isqrt(p) + 1)))
MAX_SPLIT_BITS = 4096  # larger radicands are left as they are (splitting is an optimisation)


def root(q: Fraction):
    """√q for a rational q ≥ 0, in normal form."""
    num = q.numerator * q.denominator
    outside, factors = 1, []
    if num.bit_length() <= MAX_SPLIT_BITS:
        for p in SMALL_PRIMES:
            if num < p:
                break
            count = 0
            while num % p == 0:
                num //= p
                count += 1
            outside *= p ** (count // 2)
            if count % 2:
                factors.append(p)
    r = isqrt(num)
    if r * r == num:
        outside, num = outside * r, 1
    value = se.Rational(outside, q.denominator) if q.denominator != 1 else se.Integer(outside)
    for p in factors:
        value = value * se.sqrt(se.Integer(p))
    return value * se.sqrt(se.Integer(num)) if num != 1 else value


def _fraction(x) -> Fraction:
    if type(x).__name__ in ("Rational", "Half"):
        num, den = x.get_num_den()
        return Fraction(int(num), int(den))
    return Fraction(int(x))


def normalize(e):
    """e with every power of a rational to a half-integer exponent in normal form."""
    mapping = {}
    for x in nodes(e):
        if type(x).__name__ != "Pow":
            continue
        base, exponent = x.args
        if not is_rational(base) or type(exponent).__name__ not in ("Rational", "Half"):
            continue
        p, den = (int(v) for v in exponent.get_num_den())
        q = _fraction(base)
        if den != 2 or q < 0:
            continue
        normal = root(q) ** p
        if normal != x:
            mapping[x] = normal
    return e.xreplace(mapping) if mapping else e
