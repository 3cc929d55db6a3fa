"""Exact evaluation of straight-line programs and rigorous sign decisions.

Values stay exact Fractions while they are rational (a square root of a
rational square is rational).  The first irrational square root switches
the affected values to intervals with Fraction endpoints, rounded outward to
a dyadic grid of 2^-bits, and the precision is raised until the sign of the
output is decided.  If intervals cannot separate the output from 0 (it may be
exactly 0), SymPy's minimal polynomial decides.  Nothing is ever rounded to
a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor, isqrt

PRECISIONS = (64, 256, 1024, 4096)


class DomainError(ArithmeticError):
    """The program divides by zero or takes the root of a negative number here."""


@dataclass(frozen=True)
class Interval:
    lo: Fraction
    hi: Fraction

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


def _down(x: Fraction, bits: int) -> Fraction:
    return Fraction(floor(x * (1 << bits)), 1 << bits)


def _up(x: Fraction, bits: int) -> Fraction:
    return -_down(-x, bits)


def _sqrt_bounds(x: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    """Rational lower and upper bounds for √x, x ≥ 0, within about 2^-bits."""
    scale = 1 << (2 * bits)
    n = x.numerator * scale // x.denominator
    root = isqrt(n)
    lo = Fraction(root, 1 << bits)
    hi = Fraction(root + 1, 1 << bits)
    return lo, hi


def _exact_sqrt(x: Fraction) -> Fraction | None:
    if x < 0:
        raise DomainError("square root of a negative number")
    p, q = isqrt(x.numerator), isqrt(x.denominator)
    if p * p == x.numerator and q * q == x.denominator:
        return Fraction(p, q)
    return None


def _mul(a: Interval, b: Interval) -> tuple[Fraction, Fraction]:
    products = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return min(products), max(products)


def run(steps: list, inputs, bits: int) -> list[Interval]:
    """Every value of the program as an interval (degenerate where exact)."""
    values: list[Interval] = []
    for step in steps:
        op = step[0]
        if op == "input":
            x = Fraction(inputs(step[1], step[2:]))
            values.append(Interval(x, x))
            continue
        if op == "const":
            x = Fraction(step[1])
            values.append(Interval(x, x))
            continue
        a = values[step[1]]
        b = values[step[2]] if op in ("add", "sub", "mul", "div", "max", "min") else None
        if op == "add":
            lo, hi = a.lo + b.lo, a.hi + b.hi
        elif op == "sub":
            lo, hi = a.lo - b.hi, a.hi - b.lo
        elif op == "mul":
            lo, hi = _mul(a, b)
        elif op == "div":
            if b.lo <= 0 <= b.hi:
                if b.exact:
                    raise DomainError("division by zero")
                raise _Undecided
            lo, hi = _mul(a, Interval(1 / b.hi, 1 / b.lo))
        elif op == "neg":
            lo, hi = -a.hi, -a.lo
        elif op == "abs":
            if a.lo >= 0:
                lo, hi = a.lo, a.hi
            elif a.hi <= 0:
                lo, hi = -a.hi, -a.lo
            else:
                lo, hi = Fraction(0), max(-a.lo, a.hi)
        elif op == "max":
            lo, hi = max(a.lo, b.lo), max(a.hi, b.hi)
        elif op == "min":
            lo, hi = min(a.lo, b.lo), min(a.hi, b.hi)
        elif op == "pow":
            lo = hi = None
            k = step[2]
            if a.exact:
                lo = hi = a.lo**k
            else:
                ends = [a.lo**k, a.hi**k]
                lo, hi = min(ends), max(ends)
                if k % 2 == 0 and a.lo < 0 < a.hi:
                    lo = Fraction(0)
        elif op == "sqrt":
            if a.exact:
                root = _exact_sqrt(a.lo)
                if root is not None:
                    values.append(Interval(root, root))
                    continue
                lo, _ = _sqrt_bounds(a.lo, bits)
                _, hi = _sqrt_bounds(a.hi, bits)
            else:
                if a.hi < 0:
                    raise DomainError("square root of a negative number")
                lo = _sqrt_bounds(max(a.lo, Fraction(0)), bits)[0]
                hi = _sqrt_bounds(a.hi, bits)[1]
        else:
            raise ValueError(f"unknown step {op!r}")
        if lo != hi:  # inexact: keep the numbers small on a 2^-bits grid
            lo, hi = _down(lo, bits), _up(hi, bits)
        values.append(Interval(lo, hi))
    return values


class _Undecided(Exception):
    pass


@dataclass(frozen=True)
class Sign:
    """The sign of a program's output: -1, 0, 1, or None when undecided."""

    sign: int | None
    how: str  # "exact rational", "interval at N bits", "minimal polynomial", or why undecided
    value: Interval | None


def decide_sign(steps: list, inputs, output: int = -1) -> Sign:
    last = None
    for bits in PRECISIONS:
        try:
            value = run(steps, inputs, bits)[output]
        except _Undecided:
            continue
        last = value
        if value.exact:
            x = value.lo
            return Sign((x > 0) - (x < 0), "exact rational", value)
        if value.lo > 0:
            return Sign(1, f"interval at {bits} bits", value)
        if value.hi < 0:
            return Sign(-1, f"interval at {bits} bits", value)
    if is_zero_symbolically(steps, inputs, output):
        return Sign(0, "minimal polynomial", last)
    return Sign(None, f"undecided at {PRECISIONS[-1]} bits", last)


def to_sympy(steps: list, inputs, output: int = -1):
    import sympy

    values = []
    for step in steps:
        op = step[0]
        if op == "input":
            x = Fraction(inputs(step[1], step[2:]))
            values.append(sympy.Rational(x.numerator, x.denominator))
        elif op == "const":
            x = Fraction(step[1])
            values.append(sympy.Rational(x.numerator, x.denominator))
        else:
            a = values[step[1]]
            b = values[step[2]] if len(step) > 2 and op != "pow" else None
            values.append({
                "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
                "div": lambda: a / b, "neg": lambda: -a, "sqrt": lambda: sympy.sqrt(a),
                "abs": lambda: sympy.Abs(a), "max": lambda: sympy.Max(a, b),
                "min": lambda: sympy.Min(a, b), "pow": lambda: a ** step[2],
            }[op]())
    return values[output]


def is_zero_symbolically(steps: list, inputs, output: int = -1) -> bool:
    import sympy

    expr = to_sympy(steps, inputs, output)
    if expr.is_Rational:
        return expr == 0
    x = sympy.Symbol("x")
    try:
        return sympy.minimal_polynomial(expr, x) == x
    except (NotImplementedError, ValueError):
        return False
