"""Exact linear algebra over Q (python-flint) and Q(√r) (Surd entries)."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import flint

from .pivots import Pivots, ldl_pivots  # noqa: F401  (ldl_pivots: re-exported)
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


def is_positive_definite(pivots) -> bool:
    """All pivots > 0; for ``Pivots``, from their certified signs, so that
    deciding never waits for the exact values."""
    if isinstance(pivots, Pivots):
        return all(s > 0 for s in pivots.signs)
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
