"""Exact arithmetic: linear algebra over Fractions, and the field Q(sqrt r), where
equality and sign are decided by algebra alone (no interval, no rounding)."""

from fractions import Fraction
from math import isqrt


def dot(u, v):
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def matvec(A, v) -> list:
    return [dot(row, v) for row in A]


def transpose(A) -> list:
    return [list(col) for col in zip(*A)]


def gram(A) -> list:
    """A^T A, for A given by its rows."""
    cols = transpose(A)
    return [[dot(u, v) for v in cols] for u in cols]


def rref(rows) -> tuple[list, list]:
    """Gauss-Jordan elimination: (the reduced rows, the pivot columns)."""
    rows, pivots = [list(r) for r in rows], []
    for col in range(len(rows[0]) if rows else 0):
        k = len(pivots)
        p = next((i for i in range(k, len(rows)) if rows[i][col] != 0), None)
        if p is not None:
            rows[p], rows[k] = rows[k], [x / rows[p][col] for x in rows[p]]
            for i in range(len(rows)):
                if i != k and rows[i][col] != 0:
                    rows[i] = [a - rows[i][col] * b for a, b in zip(rows[i], rows[k])]
            pivots.append(col)
    return rows, pivots


def rank(rows) -> int:
    return len(rref(rows)[1])


def solve(A, b) -> list:
    """x with A x = b, for A of full rank (the caller checks the rank)."""
    return [row[-1] for row in rref([list(r) + [x] for r, x in zip(A, b)])[0]]


def rational_sqrt(q: Fraction) -> Fraction | None:
    """sqrt(q) if q >= 0 is the square of a rational, else None (q is in lowest
    terms, so it is a square exactly when numerator and denominator are)."""
    a, b = isqrt(q.numerator), isqrt(q.denominator)
    return Fraction(a, b) if a * a == q.numerator and b * b == q.denominator else None


class Surd:
    """a + b sqrt(r), rationals a, b, and r > 0 not a rational square, so that the
    value is 0 only if a = b = 0: every nonzero value has the inverse
    (a - b sqrt r)/(a^2 - b^2 r), and sign() below is exact."""

    __slots__ = ("a", "b", "r")

    def __init__(self, a, b, r):
        self.a, self.b, self.r = Fraction(a), Fraction(b), r

    def _lift(self, x):
        if type(x) is Surd and x.r != self.r:  # one radicand per computation, by design
            raise ValueError("two different radicands")
        return x if type(x) is Surd else Surd(x, 0, self.r)

    def __add__(self, o):
        o = self._lift(o)
        return Surd(self.a + o.a, self.b + o.b, self.r)

    def __mul__(self, o):
        o = self._lift(o)
        return Surd(self.a * o.a + self.b * o.b * self.r, self.a * o.b + self.b * o.a, self.r)

    def __truediv__(self, o):
        o = self._lift(o)
        n = o.a * o.a - o.b * o.b * self.r  # 0 only for o = 0: ZeroDivisionError
        return self * Surd(o.a / n, -o.b / n, self.r)

    def __neg__(self):
        return Surd(-self.a, -self.b, self.r)

    def __sub__(self, o):
        return self + -self._lift(o)

    def __rsub__(self, o):
        return self._lift(o) - self

    def __rtruediv__(self, o):
        return self._lift(o) / self

    __radd__, __rmul__ = __add__, __mul__


def root(r: Fraction):
    """sqrt(r) for r > 0: a Fraction when r is a rational square, else a Surd."""
    q = rational_sqrt(r)
    return q if q is not None else Surd(0, 1, r)


def sign(x) -> int:
    """The exact sign of a Fraction or a Surd: when a and b sqrt r have opposite
    signs, the larger of a^2 and b^2 r wins (they differ, r being no square)."""
    if type(x) is not Surd:
        return (x > 0) - (x < 0)
    sa, sb = sign(x.a), sign(x.b)
    return (sa or sb) if sa * sb >= 0 else sa if x.a * x.a > x.b * x.b * x.r else sb


def surd_equal(a, b, r, c, e, s) -> bool:
    """a + b sqrt(r) == c + e sqrt(s) exactly, for rationals and r, s >= 0 (two
    radicands, so not a Surd comparison).  With rational roots folded into the
    rational parts, x = b sqrt(r) and z = e sqrt(s) are each 0 or irrational; if
    a - c = z - x = q with x, z nonzero, then 2qx = z^2 - x^2 - q^2 is rational,
    so q = 0.  Hence equality iff a == c, the same sign and b^2 r == e^2 s."""
    if (q := rational_sqrt(r)) is not None:
        a, b = a + b * q, 0
    if (q := rational_sqrt(s)) is not None:
        c, e = c + e * q, 0
    return a == c and sign(b) == sign(e) and b * b * r == e * e * s
