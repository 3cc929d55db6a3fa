"""LDLᵀ pivots (symmetric Gaussian elimination without exchanges), computed in C.

A symmetric matrix is positive definite exactly when every pivot is positive
(Sylvester's criterion), so the elimination stops at the first pivot that is
not.  Pivots are exact: the same numbers a scalar elimination would give.

Over Q the k-th pivot is D_k / D_{k−1}, D_k the k-th leading principal minor.
flint's fraction-free LU (Bareiss) of the integer numerator keeps the row
order as long as its diagonal stays nonzero, and then U[k, k] = D_{k+1}; so
one C call gives every minor the criterion needs.  The first time flint has
to exchange rows, the leading minor at that step is recomputed directly as a
determinant, whatever flint did there.

Over Q(√r) (both parts nonzero) each step is a rank-one update of the whole
matrix by fmpq_mat products: O(d) steps in Python, O(d²) work each in C.

Deciding definiteness does not need the exact values.  The BN Hessian at the
optimum has entries of thousands of bits whose Schur complements cancel
down, so exact pivots cost seconds at d = 64 (fraction-free minors are far
worse: the minors really are huge).  So the signs come first, from the same
elimination in arb balls: each ball encloses the exact pivot, so a ball
> 0 or < 0 decides the sign.  A ball that contains 0 is retried at higher
precision and then decided exactly; an exactly zero pivot always ends
there.  The exact values are computed when first read (``Pivots``), and
their signs are checked against the balls'.  A matrix with short
numerators (at most _FFLU_BITS over the common denominator, such as the
standard network's 2s·XᵀX) gets its exact pivots from fflu at once: that
is cheaper than the balls (2.5× at d = 64, 6× at d = 16).
"""

from __future__ import annotations

import flint

from collections.abc import Sequence

from .surd import Surd

arb_mat = flint.arb_mat
fmpz_mat = flint.fmpz_mat
fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat


def ldl_pivots(a) -> list:
    """Pivots up to and including the first one that is not positive.

    ``a`` is an fmpq_mat, a matrix-valued Surd, or a list of rows of scalars
    (fmpq, int, or Surd).  Rational input gives fmpq pivots, Q(√r) input Surd
    pivots; a part that is exactly zero is never carried through the
    elimination (the BN Hessian at a rational point is b·√r, whose pivots
    are those of b times √r)."""
    if isinstance(a, fmpq_mat):
        return _lazy(a, lambda values: values)
    if isinstance(a, Surd):
        return _surd_pivots(a.a, a.b, a.r)
    cells = [x for row in a for x in row]
    if not any(isinstance(x, Surd) for x in cells):
        return ldl_pivots(fmpq_mat([[_scalar(x) for x in row] for row in a]) if cells
                          else fmpq_mat(0, 0))
    r = next(x.r for x in cells if isinstance(x, Surd))
    # one radicand for every cell (raises for cells of two different fields)
    rows = [[(Surd.rational(fmpq(0), r) + x) for x in row] for row in a]
    return _surd_pivots(fmpq_mat([[x.a for x in row] for row in rows]),
                        fmpq_mat([[x.b for x in row] for row in rows]), rows[0][0].r)


def _surd_pivots(a: fmpq_mat, b: fmpq_mat, r) -> list:
    if _is_zero(b):
        return _lazy(a, lambda values: [Surd(p, fmpq(0), r) for p in values])
    if _is_zero(a):  # √r > 0: the signs are those of b's pivots
        return _lazy(b, lambda values: [Surd(fmpq(0), p, r) for p in values])
    return Pivots(None, lambda: _field_pivots(a, b, fmpq(r)))


def scaled_surd_pivots(a: tuple[fmpz_mat, int], b: tuple[fmpz_mat, int], r) -> "Pivots":
    """ldl_pivots of (Na/Da) + (Nb/Db)·√r, given as integer matrices over positive
    denominators: the signs are decided on the integer matrix (dividing by a
    positive number divides every pivot by it), and the rational matrix is
    formed only when the exact values are read."""
    (na, da), (nb, db) = a, b
    if nb.is_zero():
        return _lazy_scaled(na, da, lambda values: [Surd(p, fmpq(0), r) for p in values])
    if na.is_zero():
        return _lazy_scaled(nb, db, lambda values: [Surd(fmpq(0), p, r) for p in values])
    return _surd_pivots(fmpq_mat(na) / da, fmpq_mat(nb) / db, r)


def _lazy_scaled(num: fmpz_mat, den: int, wrap) -> "Pivots":
    return Pivots(certified_signs(num), lambda: wrap(exact_rational_pivots(fmpq_mat(num) / den)))


def _is_zero(m: fmpq_mat) -> bool:
    return m == fmpq_mat(m.nrows(), m.ncols())


def _scalar(x) -> fmpq:
    """An fmpq from an fmpq, int or Fraction (fmpq() does not read Fractions)."""
    return x if isinstance(x, fmpq) else fmpq(x.numerator, x.denominator)


def rational_pivots(a: fmpq_mat) -> list:
    n = a.nrows()
    if n == 0:
        return []
    num, den = a.numer_denom()  # a = num / den, num an integer matrix
    perm, _, _, upper = num.fflu()
    pivots, previous = [], 1
    for k in range(n):
        if perm[k, k] == 1 and upper[k, k] != 0:
            minor = upper[k, k]
        else:  # flint exchanged rows or skipped a column at this step
            minor = fmpz_mat([row[: k + 1] for row in num.tolist()[: k + 1]]).det()
        pivot = fmpq(minor) / (previous * den)
        pivots.append(pivot)
        if pivot <= 0:
            break
        previous = minor
    return pivots


def _column(m: fmpq_mat, k: int) -> fmpq_mat:
    return fmpq_mat(m.nrows(), 1, [m[i, k] for i in range(m.nrows())])


def _row(m: fmpq_mat, k: int) -> fmpq_mat:
    return fmpq_mat(1, m.ncols(), [m[k, j] for j in range(m.ncols())])


def _field_pivots(a: fmpq_mat, b: fmpq_mat, r: fmpq) -> list:
    """Elimination on S = a + b√r: S ← S − u vᵀ / p, u = column k, v = row k, p = S[k, k].
    The update zeroes row and column k exactly, and leaves rows and columns
    already eliminated untouched, so each step works on the whole matrix."""
    pivots = []
    for k in range(a.nrows()):
        p = Surd(a[k, k], b[k, k], r)
        pivots.append(p)
        if p.sign() <= 0:
            break
        inv = p.inverse()
        alpha, beta = inv.a, inv.b
        ua, ub, va, vb = _column(a, k), _column(b, k), _row(a, k), _row(b, k)
        outer_a = ua * va + ub * vb * r  # (u vᵀ) = outer_a + outer_b·√r
        outer_b = ua * vb + ub * va
        a = a - (outer_a * alpha + outer_b * (beta * r))
        b = b - (outer_a * beta + outer_b * alpha)
    return pivots


class Pivots(Sequence):
    """The pivots of one elimination: their number and signs known at once
    (``signs``, certified), their exact values computed when first read."""

    def __init__(self, signs: list[int] | None, exact):
        self._exact, self._values = exact, None
        self.signs = signs if signs is not None else [_sign(p) for p in self._read()]

    def _read(self) -> list:
        if self._values is None:
            values = self._exact()
            if hasattr(self, "signs") and [_sign(p) for p in values] != self.signs:
                raise ArithmeticError("exact pivots disagree with their enclosing balls")
            self._values = values
        return self._values

    def __len__(self) -> int:
        return len(self.signs)

    def __getitem__(self, index):
        return self._read()[index]

    def __iter__(self):
        return iter(self._read())

    def __eq__(self, other) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Pivots({self._values!r})" if self._values is not None else (
            f"Pivots(signs={self.signs})")


def _sign(x) -> int:
    return x.sign() if isinstance(x, Surd) else (x > 0) - (x < 0)


def _lazy(a: fmpq_mat, wrap) -> Pivots:
    exact = lambda: wrap(exact_rational_pivots(a))  # noqa: E731
    if _short(a):  # fflu's exact minors are cheaper than the balls (2.5-6× at d = 16-64)
        return Pivots(None, exact)
    return Pivots(certified_signs(a), exact)


# Ball precisions tried before the exact fallback; one step of elimination
# loses a few bits, so 128 bits decide almost every matrix at once.
_PRECISIONS = (128, 512, 2048)


def certified_signs(a) -> list[int] | None:
    """Signs of the pivots up to the first one that is not positive, each
    decided by a ball that excludes 0; None when some ball never does.
    ``a``: an fmpq_mat or fmpz_mat."""
    if a.nrows() == 0:
        return []
    for prec in _PRECISIONS:
        with flint.ctx.workprec(prec):
            signs = _ball_signs(arb_mat(a))
        if signs is not None:
            return signs
    return None


def _ball_signs(s) -> list[int] | None:
    signs = []
    while True:
        p = s[0, 0]
        if p > 0:
            signs.append(1)
        elif p < 0:
            return signs + [-1]
        else:
            return None
        if s.nrows() == 1:
            return signs
        rows = s.tolist()
        u = arb_mat([[row[0]] for row in rows[1:]])
        v = arb_mat([rows[0][1:]])
        s = arb_mat([row[1:] for row in rows[1:]]) - u * (v / p)


# Fraction-free minors pay off while the numerators are short; past that the
# minors grow much faster than the reduced Schur complements (see above).
_FFLU_BITS = 256


def _short(a: fmpq_mat) -> bool:
    """Numerators over the common denominator within _FFLU_BITS."""
    if not a.nrows():
        return True
    num, _ = a.numer_denom()
    return max(abs(int(x)) for x in num.entries()).bit_length() <= _FFLU_BITS


def exact_rational_pivots(a: fmpq_mat) -> list:
    if _short(a):
        return rational_pivots(a)
    return scalar_pivots([list(row) for row in a.tolist()])


def scalar_pivots(a: list[list]) -> list:
    """Elimination one fmpq at a time: each entry is reduced as it is formed,
    which keeps cancelling Schur complements short."""
    n, pivots = len(a), []
    for k in range(n):
        p = a[k][k]
        pivots.append(p)
        if p <= 0:
            break
        inv = 1 / p
        pivot_row = a[k]
        for i in range(k + 1, n):
            factor = a[i][k] * inv
            if factor == 0:
                continue
            row = a[i]
            for j in range(k + 1, n):
                row[j] = row[j] - factor * pivot_row[j]
    return pivots
