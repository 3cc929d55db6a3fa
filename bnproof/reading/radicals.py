"""Square roots of rationals in one normal form, so that symengine's own expansion
cancels what is equal: √(p/q) = (s/q)·√p₁·…·√pₖ·√n with p·q = s²·p₁⋯pₖ·n, the pᵢ
distinct primes below 1000 and n free of them (normalize splits n further over a
coprime basis of the radicands met in one value).  Then √6·√2 = 2√3 and
√75 = 5√3 hold by construction, and a residual that is exactly 0 usually
expands to 0 without the slower exact zero test (signs.py, which builds on this
module), which remains the judge of everything expansion leaves."""

from __future__ import annotations

from fractions import Fraction
from math import gcd, isqrt

import symengine as se

from .expressions import is_rational, nodes

SMALL_PRIMES = tuple(p for p in range(2, 1000) if all(p % d for d in range(2, isqrt(p) + 1)))
MAX_SPLIT_BITS = 4096  # larger radicands are left as they are (splitting is an optimisation)


def _small_split(q: Fraction) -> tuple:
    """(outside, small primes left once, n) with q·den² = outside²·Πp·n, n free of the
    small primes (or too large to split)."""
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
    return outside, factors, num


def root(q: Fraction, basis: tuple = ()):
    """√q for a rational q ≥ 0, in normal form; `basis`: pairwise coprime integers that
    the part free of small primes is split over where they divide it (coprime_basis)."""
    outside, factors, num = _small_split(q)
    for b in basis:
        if num == 1:
            break
        count = 0
        while num % b == 0:
            num //= b
            count += 1
        outside *= b ** (count // 2)
        if count % 2:
            factors.append(b)
    r = isqrt(num)
    if r * r == num:
        outside, num = outside * r, 1
    value = se.Rational(outside, q.denominator) if q.denominator != 1 else se.Integer(outside)
    for p in factors:
        value = value * se.sqrt(se.Integer(p))
    return value * se.sqrt(se.Integer(num)) if num != 1 else value


MAX_BASIS = 64  # radicands past this many are split over small primes only


def coprime_basis(numbers) -> tuple:
    """Pairwise coprime integers > 1, none a square, of which every number is a product
    of powers: √(2161·15013) and √2161 then share the factor √2161, which the small
    primes alone leave apart (both primes are above 1000)."""
    basis = sorted({n for n in numbers if n > 1})
    if len(basis) > MAX_BASIS:
        return ()
    changed = True
    while changed:
        changed = False
        for i in range(len(basis)):
            for j in range(i + 1, len(basis)):
                g = gcd(basis[i], basis[j])
                if g > 1:
                    a, b = basis[i] // g, basis[j] // g
                    basis = sorted({x for k, x in enumerate(basis) if k not in (i, j)} | {g, a, b} - {1})
                    changed = True
                    break
            if changed:
                break
    return tuple(b for b in basis if isqrt(b) ** 2 != b)


def _fraction(x) -> Fraction:
    if type(x).__name__ in ("Rational", "Half"):
        num, den = x.get_num_den()
        return Fraction(int(num), int(den))
    return Fraction(int(x))


def normalize(e):
    """e with every power of a rational to a half-integer exponent in normal form."""
    mapping, radicals = {}, []
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
        radicals.append((x, q, p))
    basis = coprime_basis(_small_split(q)[2] for _, q, _ in radicals) if len(radicals) > 1 else ()
    for x, q, p in radicals:
        normal = root(q, basis) ** p
        if normal != x:
            mapping[x] = normal
    return e.xreplace(mapping) if mapping else e
