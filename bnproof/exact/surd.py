"""Exact numbers, vectors and matrices in the quadratic field Q(√r).

Every BN quantity at a rational weight vector lives in Q(σ) with σ = √(σ²) and
σ² rational: the normalized outputs are rational multiples of 1/σ, the BN
gradient and Hessian are polynomials in 1/σ.  So an exact value is a pair of
rational parts (a, b) meaning a + b·√r.  The parts are python-flint ``fmpq``
scalars or ``fmpq_mat`` matrices; matrix parts multiply as matrices, which is
all the engine needs (dot products are 1×m times m×1).

The radicand is normalized: a perfect-square r folds into the rational part,
so ``b != 0`` implies √r is irrational and a + b√r = 0 only when a = b = 0.
That is what makes equality and sign decisions exact.
"""

from __future__ import annotations

from fractions import Fraction

import flint

fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat


def _rational_sqrt(r: fmpq) -> fmpq | None:
    """√r when r is the square of a rational, else None."""
    if r < 0:
        return None
    p, q = r.p, r.q
    if p.is_square() and q.is_square():
        return fmpq(p.isqrt(), q.isqrt())
    return None


def _is_zero(part) -> bool:
    if isinstance(part, fmpq_mat):
        return all(x == 0 for x in part.entries())
    return part == 0


def _zero_like(part):
    if isinstance(part, fmpq_mat):
        return fmpq_mat(part.nrows(), part.ncols())
    return fmpq(0)


def _sign(x: fmpq) -> int:
    return (x > 0) - (x < 0)


class Surd:
    """a + b·√r with rational (or rational-matrix) parts a and b."""

    __slots__ = ("a", "b", "r")

    def __init__(self, a, b, r):
        r = fmpq(r)
        if r <= 0:
            raise ValueError(f"radicand must be positive, got {r}")
        root = _rational_sqrt(r)
        if root is not None and not _is_zero(b):
            a, b = a + b * root, _zero_like(b)
        self.a, self.b, self.r = a, b, r

    @classmethod
    def _same_field(cls, a, b, r) -> Surd:
        """A result of arithmetic on Surds over the one radicand r: already
        normalized, since b ≠ 0 only where √r is irrational (if r is a square,
        every operand's b, hence the result's, is 0)."""
        out = object.__new__(cls)
        out.a, out.b, out.r = a, b, r
        return out

    @classmethod
    def rational(cls, a, r) -> Surd:
        if isinstance(a, (int, Fraction)):
            a = fmpq(a) if isinstance(a, int) else fmpq(a.numerator, a.denominator)
        return cls(a, _zero_like(a), r)

    # -- arithmetic -------------------------------------------------------
    def _with_radicand(self, r) -> Surd:
        """The same number written over √r; only possible within one field."""
        if r == self.r:
            return self
        if _is_zero(self.b):
            return Surd(self.a, self.b, r)
        k = _rational_sqrt(self.r / r)  # √self.r = k·√r
        if k is None:
            raise ValueError(f"mixing Q(√{self.r}) and Q(√{r})")
        return Surd(self.a, self.b * k, r)

    def _unify(self, other) -> tuple[Surd, Surd]:
        if not isinstance(other, Surd):
            if isinstance(other, int):
                other = fmpq(other)
            return self, Surd._same_field(other, _zero_like(other), self.r)
        r = other.r if _is_zero(self.b) else self.r
        return self._with_radicand(r), other._with_radicand(r)

    def __add__(self, other):
        x, y = self._unify(other)
        return Surd._same_field(x.a + y.a, x.b + y.b, x.r)

    __radd__ = __add__

    def __sub__(self, other):
        x, y = self._unify(other)
        return Surd._same_field(x.a - y.a, x.b - y.b, x.r)

    def __rsub__(self, other):
        x, y = self._unify(other)
        return Surd._same_field(y.a - x.a, y.b - x.b, x.r)

    def __neg__(self):
        return Surd._same_field(-self.a, -self.b, self.r)

    def __mul__(self, other):
        if not isinstance(other, Surd):  # a rational factor: two products, not four
            other = fmpq(other) if isinstance(other, int) else other
            return Surd._same_field(self.a * other, self.b * other, self.r)
        x, y = self._unify(other)
        return Surd._same_field(x.a * y.a + x.b * y.b * x.r, x.a * y.b + x.b * y.a, x.r)

    def __rmul__(self, other):
        if not isinstance(other, Surd):
            other = fmpq(other) if isinstance(other, int) else other
            return Surd._same_field(other * self.a, other * self.b, self.r)
        x, y = self._unify(other)
        return Surd._same_field(y.a * x.a + y.b * x.b * x.r, y.a * x.b + y.b * x.a, x.r)

    def inverse(self) -> Surd:
        """1/(a + b√r) = (a − b√r)/(a² − r b²), for scalars."""
        norm = self.a * self.a - self.r * self.b * self.b
        if norm == 0:
            raise ZeroDivisionError("inverse of zero in Q(√r)")
        return Surd._same_field(self.a / norm, -self.b / norm, self.r)

    def __truediv__(self, other):
        x, y = self._unify(other)
        return x * y.inverse()

    @property
    def T(self) -> Surd:
        return Surd._same_field(self.a.transpose(), self.b.transpose(), self.r)

    def __getitem__(self, index) -> Surd:
        return Surd._same_field(self.a[index], self.b[index], self.r)

    def scalar(self) -> Surd:
        """The single entry of a 1×1 matrix, as a scalar."""
        return self[0, 0]

    # -- decisions ----------------------------------------------------------
    def is_zero(self) -> bool:
        return _is_zero(self.a) and _is_zero(self.b)

    def sign(self) -> int:
        """The exact sign of a scalar a + b√r: compare a² with r·b², never round."""
        sa, sb = _sign(self.a), _sign(self.b)
        if sb == 0 or sa == sb:
            return sa
        if sa == 0:
            return sb
        return sa if self.a * self.a > self.r * self.b * self.b else sb

    def __eq__(self, other) -> bool:
        try:
            return (self - other).is_zero()
        except (ValueError, TypeError):
            return NotImplemented

    __hash__ = None

    # -- views ---------------------------------------------------------------
    def shape(self) -> tuple[int, int] | None:
        return (self.a.nrows(), self.a.ncols()) if isinstance(self.a, fmpq_mat) else None

    def entries(self) -> list[Surd]:
        """Entries of a matrix part in row-major order, as scalars."""
        return [Surd._same_field(x, y, self.r) for x, y in zip(self.a.entries(), self.b.entries())]

    def to_sympy(self):
        import sympy

        def scalar(a, b):
            value = sympy.Rational(int(a.p), int(a.q))
            if b != 0:
                value += sympy.Rational(int(b.p), int(b.q)) * sympy.sqrt(
                    sympy.Rational(int(self.r.p), int(self.r.q))
                )
            return value

        if isinstance(self.a, fmpq_mat):
            rows, cols = self.shape()
            return sympy.Matrix(
                rows, cols, [scalar(x, y) for x, y in zip(self.a.entries(), self.b.entries())]
            )
        return scalar(self.a, self.b)

    def __float__(self) -> float:
        # a + b·√r can cancel badly in doubles; 60 digits make the rounding final.
        import mpmath

        with mpmath.workdps(60):
            def mp(x):
                return mpmath.mpf(int(x.p)) / int(x.q)

            return float(mp(self.a) + mp(self.b) * mpmath.sqrt(mp(self.r)))

    def to_floats(self) -> list[float]:
        return [float(e) for e in self.entries()]

    def __repr__(self) -> str:
        return f"Surd({self.a!r}, {self.b!r}, {self.r})"
