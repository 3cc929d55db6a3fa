"""Sparse polynomials over Q in numbered variables: dicts monomial → Fraction,
a monomial a sorted tuple of (variable, exponent).  Zero is {}."""

from __future__ import annotations

import math
from fractions import Fraction

from ..exact.monomials import mono_mul

ONE: dict = {(): Fraction(1)}


def const(c) -> dict:
    c = Fraction(c)
    return {(): c} if c else {}


def var(v: int) -> dict:
    return {((v, 1),): Fraction(1)}


def add(p: dict, q: dict, sign: int = 1) -> dict:
    out = dict(p)
    for mono, c in q.items():
        s = out.get(mono, 0) + sign * c
        if s:
            out[mono] = s
        else:
            out.pop(mono, None)
    return out


def scale(p: dict, c) -> dict:
    c = Fraction(c)
    return {m: x * c for m, x in p.items()} if c else {}


def mul(p: dict, q: dict) -> dict:
    if len(p) > len(q):
        p, q = q, p
    if len(p) * len(q) < 16:
        out: dict = {}
        for ma, ca in p.items():
            for mb, cb in q.items():
                mono = mono_mul(ma, mb)
                s = out.get(mono, 0) + ca * cb
                if s:
                    out[mono] = s
                else:
                    out.pop(mono, None)
        return out
    # over integers: each factor times the lcm of its denominators, one division per term
    # of the product at the end (a Fraction's arithmetic reduces by a gcd at every step)
    dp, ip = _integral(p)
    dq, iq = _integral(q)
    acc: dict = {}
    get = acc.get
    for ma, ca in ip:
        for mb, cb in iq:
            mono = mono_mul(ma, mb)
            acc[mono] = get(mono, 0) + ca * cb
    d = dp * dq
    return {mono: Fraction(s, d) for mono, s in acc.items() if s}


def _integral(p: dict) -> tuple:
    """(D, [(monomial, D·c)]) with D the lcm of p's denominators: every D·c an integer."""
    d = 1
    for c in p.values():
        den = c.denominator
        if den != 1 and d % den:
            d = d * den // math.gcd(d, den)
    return d, [(mono, c.numerator * (d // c.denominator)) for mono, c in p.items()]


def power(p: dict, k: int) -> dict:
    out = ONE
    for _ in range(k):
        out = mul(out, p)
    return out


def is_monomial(p: dict) -> bool:
    return len(p) == 1


def mono_gcd(monos) -> tuple:
    """The common monomial factor (least exponents of variables in every monomial)."""
    monos = list(monos)
    if not monos:
        return ()
    common = dict(monos[0])
    for mono in monos[1:]:
        here = dict(mono)
        common = {v: min(e, here[v]) for v, e in common.items() if v in here}
    return tuple(sorted((v, e) for v, e in common.items() if e > 0))


def mono_div(a: tuple, b: tuple) -> tuple:
    out = dict(a)
    for v, e in b:
        out[v] -= e
    return tuple(sorted((v, e) for v, e in out.items() if e))


def divide_monomial(p: dict, mono: tuple, c=1) -> dict:
    c = Fraction(c)
    if not mono:  # most normal forms have no common monomial factor: the terms stay as they are
        return dict(p) if c == 1 else {m: x / c for m, x in p.items()}
    return {mono_div(m, mono): x / c for m, x in p.items()}


def mono_lcm(a: tuple, b: tuple) -> tuple:
    out = dict(a)
    for v, e in b:
        out[v] = max(out.get(v, 0), e)
    return tuple(sorted(out.items()))


def derivative(p: dict, v: int) -> dict:
    out: dict = {}
    for mono, c in p.items():
        here = dict(mono)
        e = here.get(v, 0)
        if not e:
            continue
        if e == 1:
            del here[v]
        else:
            here[v] = e - 1
        key = tuple(sorted(here.items()))
        out[key] = out.get(key, 0) + c * e
    return {m: c for m, c in out.items() if c}


def variables(p: dict) -> set:
    return {v for mono in p for v, _ in mono}


def frozen(p: dict) -> tuple:
    return tuple(sorted(p.items()))
