"""Exact linear algebra over Q (python-flint) and Q(√r) (Surd entries)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import flint

from .pivots import Pivots, ldl_pivots  # noqa: F401  (ldl_pivots: re-exported)
from .surd import Surd

fmpq = flint.fmpq
fmpz_mat = flint.fmpz_mat
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


@dataclass(frozen=True)
class Echelon:
    """The reduced row echelon form of a matrix, read as its kernel: the pivot
    and free columns, and the reduced rows' entries in the free columns (R,
    rank × free).  The kernel basis is Q = E_F − E_P R: a 1 in one free
    coordinate, 0 in the other free ones, −R on the pivot coordinates."""

    pivots: list[int]
    free: list[int]
    free_part: fmpq_mat  # R

    def basis(self) -> fmpq_mat | None:
        """Q as the columns of a matrix, or None if the kernel is trivial."""
        if not self.free:
            return None
        cols = len(self.pivots) + len(self.free)
        basis = fmpq_mat(cols, len(self.free))
        for k, f in enumerate(self.free):
            basis[f, k] = 1
            for i, p in enumerate(self.pivots):
                basis[p, k] = -self.free_part[i, k]
        return basis

    def free_part_integers(self) -> tuple[fmpz_mat, int]:
        """R as (integer matrix, positive denominator)."""
        if not self.pivots:
            return fmpz_mat(0, len(self.free)), 1
        num, den = self.free_part.numer_denom()
        return num, int(den)


def echelon(a: fmpq_mat) -> Echelon:
    reduced, rank = a.rref()
    cols = a.ncols()
    pivots, row = [], 0
    for col in range(cols):
        if row < rank and reduced[row, col] != 0:
            pivots.append(col)
            row += 1
    free = [c for c in range(cols) if c not in pivots]
    part = fmpq_mat(len(pivots), len(free), [reduced[i, f] for i in range(len(pivots)) for f in free])
    return Echelon(pivots, free, part)


def kernel(a: fmpq_mat) -> fmpq_mat | None:
    """A basis of {x : a x = 0} as the columns of a matrix, or None if trivial."""
    return echelon(a).basis()


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
