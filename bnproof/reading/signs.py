"""Rigorous signs of exact values: symengine expressions without free symbols.

A rational is read exactly.  Anything else is enclosed in a python-flint arb
ball by walking the expression (Add, Mul, Pow with integer or rational
exponents, exp, log, acos, tanh, π), at 64, 256, 1024, then 4096 bits; a sign
is read only from a ball that excludes 0.  A ball that keeps containing 0:
  * for an algebraic value (no exp, log, acos, tanh, π), symengine's expansion
    first (a sum that cancels to 0 is 0), then an exact zero test: SymPy's
    minimal polynomial of the value (converted object by object, never
    through text), within a size cap; 0 is a root of it only if it is x itself.
    A nonzero value's minimal polynomial also bounds it away from 0 (Cauchy's
    bound for its nonzero roots), which says what precision decides its sign;
  * for a transcendental value, or over the caps: Inconclusive, with why.
Nothing is ever rounded to a float.  Every walk is iterative (no recursion:
the caps on depth live in values.py, and symengine itself is only handed
expressions within them).
"""

from __future__ import annotations

import symengine as se
from flint import arb, ctx, fmpq

from .errors import Inconclusive
from .expressions import RATIONAL, RATIONAL_TYPES, is_rational, nodes  # noqa: F401 - signs.RATIONAL_TYPES
from .radicals import normalize

PRECISIONS = (64, 256, 1024, 4096)
MAX_BITS = 16384  # a nonzero algebraic value whose root bound needs more: inconclusive
MAX_EXP_ARG = 4096  # exp(x) needs |x| <= this proved (e^4096 ~ 2^5909): bounded work
ZERO_TEST_MAX_SIZE = 2000  # SymPy's exact zero test only on values this small (as a tree)
MAX_EXPAND_SIZE = 100_000  # symengine expands values of at most this many nodes (as a tree)
MAX_EXPAND_TERMS = 100_000  # into at most about this many terms
ZERO_TEST_MAX_RADICALS = 6  # and with at most this many distinct radicals (degree <= 2^6)
TRANSCENDENTAL = frozenset({"Exp1", "Pi", "log", "acos", "tanh"})


def rational_sign(e) -> int:
    num = int(e.get_num_den()[0]) if type(e).__name__ in ("Rational", "Half") else int(e)
    return (num > 0) - (num < 0)


def words(x) -> int:
    """1 + the 64-bit words of a rational's numerator and denominator."""
    if type(x).__name__ in ("Rational", "Half"):
        num, den = (int(v) for v in x.get_num_den())
        return 1 + (abs(num).bit_length() + den.bit_length()) // 64
    return 1 + abs(int(x)).bit_length() // 64


def measure(e) -> tuple[int, int]:
    """(size, depth) of e as a tree: every occurrence of a shared subexpression counted
    (symengine's diff, subs, expansion and printing walk the tree, not the shared
    graph), a rational as its words; depth the longest path (what they recurse on)."""
    size, depth = {}, {}
    for x in nodes(e):
        if type(x).__name__ in RATIONAL:
            size[x], depth[x] = words(x), 1
        else:
            args = x.args
            size[x] = 1 + sum(size[a] for a in args)
            depth[x] = 1 + max((depth[a] for a in args), default=0)
    return size[e], depth[e]


def is_algebraic(e) -> bool:
    return not any(type(x).__name__ in TRANSCENDENTAL or
                   (type(x).__name__ == "Pow" and type(x.args[0]).__name__ == "Exp1") for x in nodes(e))


def _rational_ball(x) -> arb:
    name = type(x).__name__
    if name in ("Rational", "Half"):
        num, den = x.get_num_den()
        return arb(fmpq(int(num), int(den)))
    return arb(int(x))


def ball(e, bits: int, cache: dict | None = None) -> arb:
    """A rigorous ball around e's value at `bits` of precision (NaN or infinite balls where
    an intermediate enclosure is too wide: the caller raises the precision).  `cache` holds
    balls of subexpressions at these bits from earlier calls (a value grown step by step
    is then enclosed in time linear in its growth, not quadratic)."""
    old = ctx.prec
    ctx.prec = bits
    try:
        value = cache if cache is not None else {}
        if e in value:
            return value[e]
        for x in nodes(e, value):
            name = type(x).__name__
            args = x.args
            if name in RATIONAL:
                value[x] = _rational_ball(x)
            elif name == "Add":
                total = arb(0)
                for a in args:
                    total += value[a]
                value[x] = total
            elif name == "Mul":
                total = arb(1)
                for a in args:
                    total *= value[a]
                value[x] = total
            elif name == "Pow":
                value[x] = _power(args[0], args[1], value)
            elif name == "log":
                value[x] = value[args[0]].log()
            elif name == "acos":
                value[x] = value[args[0]].acos()
            elif name == "tanh":
                value[x] = value[args[0]].tanh()
            elif name == "Pi":
                value[x] = arb.pi()
            elif name == "Exp1":
                value[x] = arb(1).exp()
            else:
                raise Inconclusive(f"the reference cannot enclose {name} rigorously")
        return value[e]
    finally:
        ctx.prec = old


def _power(base, exponent, value) -> arb:
    kind = type(exponent).__name__
    if type(base).__name__ == "Exp1":
        x = value[exponent]
        if not x.is_finite():
            return arb.nan()
        if not abs(x) <= MAX_EXP_ARG:
            raise Inconclusive(f"exp of an argument beyond ±{MAX_EXP_ARG} (bounded work)")
        return x.exp()
    b = value[base]
    if kind in ("Integer", "One", "NegativeOne", "Zero"):
        k = int(exponent)
        return b**k if k >= 0 else 1 / b**(-k)
    if kind in ("Rational", "Half"):
        p, q = (int(v) for v in exponent.get_num_den())
        root = b.sqrt() if q == 2 else b.root(q)
        return root**p if p >= 0 else 1 / root**(-p)
    raise Inconclusive(f"the reference cannot enclose a power with exponent {kind}")


def _ball_sign(b: arb) -> int | None:
    if b > 0:
        return 1
    if b < 0:
        return -1
    return None


def canonical(e):
    """e rebuilt bottom-up with symengine's own operators.  symengine 0.15's expand can
    return non-canonical terms such as (1/2)*0 (seen on a sum of squares of radicals);
    rebuilt, they collapse as the constructors collapse them."""
    if is_rational(e):
        return e
    value: dict = {}
    for x in nodes(e):
        name = type(x).__name__
        args = x.args
        if name == "Add":
            total = value[args[0]]
            for a in args[1:]:
                total = total + value[a]
            value[x] = total
        elif name == "Mul":
            total = value[args[0]]
            for a in args[1:]:
                total = total * value[a]
            value[x] = total
        elif name == "Pow":
            value[x] = value[args[0]] ** value[args[1]]
        else:
            value[x] = x if not args else x.func(*(value[a] for a in args))
    return value[e]


def _radical_base(x):
    """The rational base of a square root of a rational (√b, b^(k/2) with k odd), else None."""
    if type(x).__name__ != "Pow":
        return None
    base, exponent = x.args
    if is_rational(base) and type(exponent).__name__ in ("Rational", "Half") \
            and int(exponent.get_num_den()[1]) == 2 and rational_sign(base) >= 0:
        return base
    return None


def expansion_terms(order: list) -> int:
    """A bound on the terms symengine's expand makes of the expression whose nodes are
    `order` (children first), capped just above MAX_EXPAND_TERMS: a sum adds its terms', a
    product multiplies them, an integer power k of n terms has at most C(n + k − 1, k).
    Below a node whose only leaves are rationals and k square roots of nonnegative
    rationals, every value is a rational combination of products of distinct roots, so
    at most 2^k terms survive collection; a sum or product (expanded a pair at a time,
    collecting as it goes) passes at most that on, while a power's multinomial expansion
    makes all of its terms before collecting them.  The bound is the largest number of
    terms any node makes, so a power under a collecting product still counts whole."""
    cap = MAX_EXPAND_TERMS + 1
    terms: dict = {}  # terms a node passes on, after collection
    roots: dict = {}  # the square-root bases below a node, None where another leaf is
    made = 1
    for x in order:
        name = type(x).__name__
        args = x.args
        base = _radical_base(x)
        if base is not None:
            n, below = 1, frozenset((base,))
        elif name == "Add":
            n = min(sum(terms[a] for a in args), cap)
            below = _union(roots, args)
        elif name == "Mul":
            below = _union(roots, args)
            field = 2 ** len(below) if below is not None and len(below) < 64 else cap
            n = 1
            for a in args:
                n = min(n * terms[a], cap)
                made = max(made, n)
                n = min(n, field)
        elif name == "Pow" and type(args[1]).__name__ in ("Integer", "NegativeOne") and \
                type(args[0]).__name__ != "Exp1":
            k, n = abs(int(args[1])), 1
            for i in range(1, k + 1):  # C(b + k − 1, k), stopping at the cap
                n = n * (terms[args[0]] + i - 1) // i
                if n > cap:
                    break
            below = roots[args[0]]
        else:
            n, below = 1, (frozenset() if name in RATIONAL else None)
        n = min(n, cap)
        made = max(made, n)
        if below is not None and len(below) < 64:
            n = min(n, 2 ** len(below))
        terms[x], roots[x] = n, below
    return made


def _union(roots: dict, args) -> frozenset | None:
    out = frozenset()
    for a in args:
        if roots[a] is None:
            return None
        out |= roots[a]
    return out


def sign(e, cache: dict | None = None) -> int:
    """-1, 0 or 1, proved; raises Inconclusive with the reason otherwise.  `cache`: balls
    at PRECISIONS[0] bits from earlier calls (ball's)."""
    if is_rational(e):
        return rational_sign(e)
    s = _ball_sign(ball(e, PRECISIONS[0], cache))
    if s is not None:
        return s
    order = nodes(e)
    size = measure(e)[0]
    if size <= MAX_EXPAND_SIZE and expansion_terms(order) <= MAX_EXPAND_TERMS:
        expanded = canonical(normalize(e).expand())  # a sum that cancels exactly is 0 here already
        if is_rational(expanded) and ball(e, PRECISIONS[1]).overlaps(ball(expanded, PRECISIONS[1])):
            return rational_sign(expanded)
    for bits in PRECISIONS[1:]:
        s = _ball_sign(ball(e, bits))
        if s is not None:
            return s
    if not is_algebraic(e):
        raise Inconclusive("a transcendental value whose ball contains 0 up to "
                           f"{PRECISIONS[-1]} bits: no exact zero test")
    return _zero_test(e, order, size)


def _zero_test(e, order: list, size: int) -> int:
    radicals = {x for x in order if type(x).__name__ == "Pow" and type(x.args[1]).__name__ in ("Rational", "Half")}
    if size > ZERO_TEST_MAX_SIZE or len(radicals) > ZERO_TEST_MAX_RADICALS:
        raise Inconclusive(f"an algebraic value of {size} nodes and {len(radicals)} radicals whose "
                           "ball contains 0: over the exact zero test's cap")
    import sympy

    try:
        t = sympy.Dummy("t")
        poly = sympy.minimal_polynomial(e._sympy_(), t, polys=True)
    except RecursionError:
        raise Inconclusive("the exact zero test exceeded Python's recursion limit") from None
    coefficients = [int(c) for c in reversed(poly.all_coeffs())]  # a_0, a_1, ...
    if len(coefficients) == 2 and coefficients[0] == 0:
        return 0
    # x ≠ 0 is a root of an irreducible polynomial with a_0 ≠ 0: |x| ≥ |a_0| / (|a_0| + max|a_i|)
    a0 = abs(coefficients[0])
    bound_bits = (a0 + max(abs(c) for c in coefficients[1:])).bit_length() - a0.bit_length() + 2
    bits = PRECISIONS[-1]
    while bits <= MAX_BITS:
        s = _ball_sign(ball(e, bits + bound_bits))
        if s is not None:
            return s
        bits *= 2
    raise Inconclusive(f"a nonzero algebraic value whose sign needs more than {MAX_BITS} bits")
