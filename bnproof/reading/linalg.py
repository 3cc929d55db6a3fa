"""xp.solve in the reference reading: exact Gaussian elimination with a pivot search.

The claim language documents xp.solve as defined where every leading
principal minor of A is nonzero (the tracer eliminates without row exchanges,
so a zero leading minor is a zero pivot there, and undefined).  The reference
checks that domain on its own, each leading minor as a determinant by
elimination with row exchanges, then solves with row exchanges too: a
different algorithm from the tracer's, with the same unique exact answer.
"""

from __future__ import annotations

import numpy as np

from .errors import Inconclusive
from .session import current
from .values import INCONCLUSIVE, UNDEFINED, Value, lift, poison


def _values(x) -> np.ndarray:
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    for k in np.ndindex(arr.shape):
        v = lift(arr[k])
        if v is None:
            raise TypeError(f"xp.solve takes numbers, got {type(arr[k]).__name__}")
        out[k] = v
    return out


class _Stop(Exception):
    def __init__(self, value: Value):
        self.value = value


def _zero(v: Value) -> bool:
    if v.bad is not None:
        raise _Stop(v)
    try:
        return current().sign(v.e, v.w) == 0
    except Inconclusive as err:
        raise _Stop(poison(INCONCLUSIVE, f"whether a pivot is 0: {err.reason}")) from None


def _eliminate(rows: list, columns: int) -> list | None:
    """Rows reduced to upper-triangular form over the first `columns` columns, with row
    exchanges; None when a column has no nonzero pivot (A singular)."""
    rows = [list(r) for r in rows]
    n = len(rows)
    for c in range(columns):
        pivot = next((r for r in range(c, n) if not _zero(rows[r][c])), None)
        if pivot is None:
            return None
        rows[c], rows[pivot] = rows[pivot], rows[c]
        for r in range(c + 1, n):
            if _zero(rows[r][c]):
                continue
            factor = rows[r][c] / rows[c][c]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[c])]
    return rows


def solve(A, b):
    A, b = _values(A), _values(b)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or b.ndim not in (1, 2) or b.shape[0] != A.shape[0]:
        raise ValueError(f"xp.solve needs a square A and a matching b, got {A.shape} and {b.shape}")
    n = A.shape[0]
    right = b.reshape(n, -1)
    try:
        for k in range(1, n + 1):  # the documented domain: every leading principal minor ≠ 0
            if _eliminate([list(A[i, :k]) for i in range(k)], k) is None:
                return _everywhere(b.shape, poison(UNDEFINED, f"xp.solve: the leading principal minor of "
                                                              f"order {k} of A is 0"))
        rows = _eliminate([list(A[i]) + list(right[i]) for i in range(n)], n)
        if rows is None:  # pragma: no cover - a nonzero determinant has pivots
            return _everywhere(b.shape, poison(UNDEFINED, "xp.solve: A is singular"))
        x = [[None] * right.shape[1] for _ in range(n)]
        for j in range(right.shape[1]):
            for i in reversed(range(n)):
                total = rows[i][n + j]
                for c in range(i + 1, n):
                    total = total - rows[i][c] * x[c][j]
                x[i][j] = total / rows[i][i]
    except _Stop as stop:
        return _everywhere(b.shape, stop.value)
    out = np.empty(right.shape, dtype=object)
    for i in range(n):
        for j in range(right.shape[1]):
            out[i, j] = x[i][j]
    return out.reshape(b.shape)


def _everywhere(shape, value: Value) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    for k in np.ndindex(shape):
        out[k] = value
    return out
