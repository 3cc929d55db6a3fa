"""An instance's batch X and targets Y as integer matrices over common
denominators, and the moments the engine needs from them: XᵀX, Xᵀ1, XᵀY,
1ᵀY and each ‖Y_j‖², formed once per instance and shared by its neurons.

With L the least common denominator of X's entries and L_Y that of Y's,
Xi = L·X and Yi = L_Y·Y are integer matrices, and one Gram matrix of the
m×(d+n+1) integer matrix A = [Xi Yi 1] holds every moment:

    AᵀA = [[XiᵀXi, XiᵀYi, Xiᵀ1], [·, YiᵀYi, Yiᵀ1], [·, ·, m]].

Instance entries are ints wherever they are integers (instance.py), so for
integer data (L = 1) no entry is touched in Python.  The sums of products
run in C, in blocks of rows so that no m×d copy of the batch is made:
python-flint integer matrices, or, for a large batch of small integers,
numpy's float64 product.  That one is exact, not approximate: every entry
of A is an integer of magnitude at most B, so every product and every
partial sum, in whatever order the BLAS adds them, is an integer of
magnitude at most m·B², and doubles hold every integer up to 2⁵³ exactly.
The bound is checked on each block before its product is used; past it
the flint route takes over.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import chain
from math import lcm

import flint

fmpq = flint.fmpq
fmpz_mat = flint.fmpz_mat
fmpq_mat = flint.fmpq_mat

_ROWS_PER_BLOCK = 4096
_FLINT_BLOCK_ENTRIES = 1 << 15
_EXACT_IN_DOUBLES = 2**53
# numpy's import (0.13-0.15 s, and ~20 MB) pays off from about this many entries of
# A: its conversion and product cost ~60 ns an entry, flint's ~240 ns (measured)
_NUMPY_ENTRIES = 1 << 20


def integer_rows(rows, known_integer: bool = False) -> tuple[list, int]:
    """(L·rows, L) with L the least common denominator of the entries (ints or
    Fractions); the rows themselves when they are all ints (``known_integer``:
    the reader has just checked that, on immutable rows)."""
    if known_integer or set(map(type, chain.from_iterable(rows))) <= {int}:
        return rows, 1
    values = [[Fraction(x) for x in row] for row in rows]
    common = lcm(*{x.denominator for row in values for x in row})
    return [[x.numerator * (common // x.denominator) for x in row] for row in values], common


@dataclass(frozen=True)
class Moments:
    """The moments of (X, Y) over integers: Xi = x_den·X, Yi = y_den·Y."""

    m: int
    x_den: int
    y_den: int
    xx: fmpz_mat  # XiᵀXi
    x1: fmpz_mat  # Xiᵀ1 (d×1)
    xy: fmpz_mat  # XiᵀYi (d×n)
    y1: tuple[int, ...]  # 1ᵀYi_j
    yy: tuple[int, ...]  # ‖Yi_j‖²

    @cached_property
    def gram(self) -> fmpq_mat:  # XᵀX
        return fmpq_mat(self.xx) / (self.x_den * self.x_den)

    @cached_property
    def sums(self) -> fmpq_mat:  # Xᵀ1
        return fmpq_mat(self.x1) / self.x_den

    @cached_property
    def gram_c(self) -> fmpq_mat:  # XcᵀXc = (m·XiᵀXi − (Xiᵀ1)(Xiᵀ1)ᵀ)/(m·L²), reduced once
        centred = self.xx * self.m - self.x1 * self.x1.transpose()
        return fmpq_mat(centred) / (self.m * self.x_den * self.x_den)

    def x_targets(self, j: int) -> fmpq_mat:  # Xᵀy_j
        column = fmpz_mat(self.xy.nrows(), 1, [self.xy[i, j] for i in range(self.xy.nrows())])
        return fmpq_mat(column) / (self.x_den * self.y_den)

    def target_sum(self, j: int) -> fmpq:
        return fmpq(self.y1[j], self.y_den)

    def target_norm2(self, j: int) -> fmpq:
        return fmpq(self.yy[j], self.y_den * self.y_den)


def moments(X, Y, known_integer: tuple[bool, bool] = (False, False)) -> Moments:
    """The moments of the batch X (m rows of d) and targets Y (m rows of n)."""
    Xi, x_den = integer_rows(X, known_integer[0])
    Yi, y_den = integer_rows(Y, known_integer[1])
    m, d, n = len(Xi), len(Xi[0]), len(Yi[0])
    gram = None
    if "numpy" in sys.modules or m * (d + n) >= _NUMPY_ENTRIES:
        gram = _gram_in_doubles(Xi, Yi)
    if gram is None:
        gram = _gram_in_flint(Xi, Yi)
    # gram: AᵀA for A = [Xi Yi 1], as rows of Python ints
    one = d + n
    return Moments(
        m=m, x_den=x_den, y_den=y_den,
        xx=fmpz_mat([row[:d] for row in gram[:d]]),
        x1=fmpz_mat([[row[one]] for row in gram[:d]]),
        xy=fmpz_mat([row[d:one] for row in gram[:d]]),
        y1=tuple(row[one] for row in gram[d:one]),
        yy=tuple(gram[d + j][d + j] for j in range(n)),
    )


def _blocks(m: int, rows: int = _ROWS_PER_BLOCK):
    return ((i, min(i + rows, m)) for i in range(0, m, rows))


def _gram_in_doubles(Xi, Yi) -> list[list[int]] | None:
    """AᵀA through float64 sums of products that are exact (module docstring),
    or None when an entry is beyond the bound."""
    import numpy as np

    m, d, n = len(Xi), len(Xi[0]), len(Yi[0])
    limit = _EXACT_IN_DOUBLES // m  # B² ≤ limit ⇔ m·B² ≤ 2⁵³
    total = np.zeros((d + n + 1, d + n + 1))
    for start, stop in _blocks(m):
        a = np.empty((stop - start, d + n + 1))
        for cols, rows, width in ((slice(0, d), Xi, d), (slice(d, d + n), Yi, n)):
            try:  # Python ints only (integer_rows): each read exactly, or an OverflowError
                block = np.fromiter(chain.from_iterable(rows[start:stop]), dtype=np.int64,
                                    count=(stop - start) * width)
            except OverflowError:
                return None
            bound = max(-int(block.min()), int(block.max()))  # as Python ints: no overflow at −2⁶³
            if bound * bound > limit:
                return None
            a[:, cols] = block.reshape(stop - start, width)  # |entries| < 2²⁷: exact as doubles
        a[:, d + n] = 1
        # einsum's own loop, not BLAS: a threaded BLAS spins on a busy machine (measured
        # 30× slower than one thread on two shared cores), and the sums are the same exact ones
        total += np.einsum("ij,ik->jk", a, a)
    return [[int(v) for v in row] for row in total.tolist()]


def _gram_in_flint(Xi, Yi) -> list[list[int]]:
    m, d, n = len(Xi), len(Xi[0]), len(Yi[0])
    xx, xy, yy = fmpz_mat(d, d), fmpz_mat(d, n), fmpz_mat(n, n)
    x1, y1 = fmpz_mat(d, 1), fmpz_mat(n, 1)
    # short blocks cost no time (measured: 256 to 10⁴ rows alike at d = 16 and 64) and
    # keep the copy, its transpose and flint's temporaries to a few MB
    for start, stop in _blocks(m, max(64, _FLINT_BLOCK_ENTRIES // (d + n + 1))):
        # X, Y and 1 apart: joining the rows in Python costs more than the extra products
        x = fmpz_mat(Xi[start:stop])
        y = fmpz_mat(stop - start, n, list(chain.from_iterable(Yi[start:stop])))
        ones = fmpz_mat(stop - start, 1, [1] * (stop - start))
        xt, yt = x.transpose(), y.transpose()
        xx += xt * x
        xy += xt * y
        yy += yt * y
        x1 += xt * ones
        y1 += yt * ones
    top = [r + s + t for r, s, t in zip(xx.tolist(), xy.tolist(), x1.tolist())]
    middle = [s + r + t for s, r, t in zip(xy.transpose().tolist(), yy.tolist(), y1.tolist())]
    last = [t[0] for t in x1.tolist()] + [t[0] for t in y1.tolist()] + [m]
    return [[int(v) for v in row] for row in top + middle + [last]]
