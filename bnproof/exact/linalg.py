"""Exact linear algebra over Q (python-flint) and Q(√r) (Surd entries)."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import flint

from .surd import Surd

fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat


def to_fmpq(x: Fraction | int) -> fmpq:
    x = Fraction(x)
    return fmpq(x.numerator, x.denominator)


def to_fraction(x: fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def matrix(rows: Sequence[Sequence[Fraction]]) -> fmpq_mat:
    return fmpq_mat([[to_fmpq(x) for x in row] for row in rows])


def column(values: Sequence[Fraction]) -> fmpq_mat:
    return fmpq_mat([[to_fmpq(x)] for x in values])


def ones(m: int) -> fmpq_mat:
    return fmpq_mat(m, 1, [1] * m)


def entries(v: fmpq_mat) -> list[Fraction]:
    return [to_fraction(x) for x in v.entries()]


def dot(u: fmpq_mat, v: fmpq_mat) -> fmpq:
    return (u.transpose() * v)[0, 0]


def kernel(a: fmpq_mat) -> fmpq_mat | None:
    """A basis of {x : a x = 0} as the columns of a matrix, or None if trivial."""
    reduced, rank = a.rref()
    cols = a.ncols()
    pivots, row = [], 0
    for col in range(cols):
        if row < rank and reduced[row, col] != 0:
            pivots.append(col)
            row += 1
    free = [c for c in range(cols) if c not in pivots]
    if not free:
        return None
    basis = fmpq_mat(cols, len(free))
    for k, f in enumerate(free):
        basis[f, k] = 1
        for i, p in enumerate(pivots):
            basis[p, k] = -reduced[i, f]
    return basis


def _sign(x) -> int:
    if isinstance(x, Surd):
        return x.sign()
    return (x > 0) - (x < 0)


def ldl_pivots(a: list[list]) -> list:
    """Pivots of symmetric Gaussian elimination without exchanges, stopping at the
    first pivot that is not positive.  A symmetric matrix is positive definite
    exactly when every pivot is positive (Sylvester's criterion).  Entries may be
    fmpq or Surd scalars; signs are decided exactly.

    A matrix b·√r (no rational part, as the BN Hessian at a rational point is:
    it has odd powers of 1/σ only) has the pivots of b times √r, so the
    elimination runs on rationals, about 80 times faster than on Surds."""
    cells = [x for row in a for x in row]
    if cells and all(isinstance(x, Surd) for x in cells):
        r = cells[0].r
        if all(x.r == r and x.a == 0 for x in cells):
            return [Surd(fmpq(0), p, r) for p in _ldl([[x.b for x in row] for row in a])]
        if all(x.b == 0 for x in cells):
            return [Surd(p, fmpq(0), r) for p in _ldl([[x.a for x in row] for row in a])]
    return _ldl(a)


def _ldl(a: list[list]) -> list:
    a = [list(row) for row in a]
    n = len(a)
    pivots = []
    for k in range(n):
        p = a[k][k]
        pivots.append(p)
        if _sign(p) <= 0:
            break
        inv = p.inverse() if isinstance(p, Surd) else 1 / p
        for i in range(k + 1, n):
            factor = a[i][k] * inv
            for j in range(k + 1, n):
                a[i][j] = a[i][j] - factor * a[k][j]
    return pivots


def is_positive_definite(pivots: list) -> bool:
    return all(_sign(p) > 0 for p in pivots)


def rows_of(a) -> list[list]:
    """A matrix (fmpq_mat or matrix-valued Surd) as a list of rows of scalars."""
    if isinstance(a, Surd):
        rows, cols = a.shape()
        flat = a.entries()
    else:
        rows, cols = a.nrows(), a.ncols()
        flat = a.entries()
    return [flat[i * cols : (i + 1) * cols] for i in range(rows)]
