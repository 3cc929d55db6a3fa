"""Sets defined implicitly, and exact distances to them.

A set is a union of polyhedra, each a list of rows (a, b) meaning ⟨a, x⟩ ≤ b (an
equation ⟨w, x⟩ = c is the two rows (w, c) and (−w, −c)).  The distance from p to
a polyhedron P is a small quadratic program, solved here in closed form, so that
it traces to a straight-line program the exact engine decides and the checker
re-checks:

  the projection x* of p onto P is the projection onto the affine subspace
  {⟨a, x⟩ = b, (a, b) ∈ S} of a linearly independent set S of P's constraints
  (at most d of them: a maximal independent subset of those active at x*), and
  every such projection that lies in P is at least as far from p; so
  dist(p, P)² = min over the S whose projection x_S lies in P of ‖p − x_S‖².

With G = A_S A_Sᵀ (Gram), r = A_S p − b_S: ‖p − x_S‖² = rᵀ adj(G) r / det G and
det(G)·x_S = det(G)·p − A_Sᵀ adj(G) r, so "x_S ∈ P" is a sign condition on
polynomials.  Each candidate is ["guard", value, condition] (value where the
condition ≥ 0, else absent); the min ignores absent candidates, and a set with
no qualifying candidate (an empty set) has an undefined distance, never a value.
"S independent" is det G > 0, which a guard (≥ 0) cannot say directly; it is
min(guard(−1, −det G), 1) ≥ 0: det G ≥ 0 always, and −det G ≥ 0 only where it is 0.
The divisor det G is replaced by det G + [det G = 0] (the same indicator), so no
candidate is ever undefined: a dependent S is simply not a candidate.

Works in every xp backend (exact, symbolic, JAX, numpy: absent is +∞ in floats).
"""

from __future__ import annotations

import itertools
from functools import reduce

MAX_DIMENSION = 4  # the Gram determinants are expanded by cofactors


def _entries(xp, v) -> list:
    return [v[i] for i in range(len(v))]


def _dot(a, b):
    return reduce(lambda s, t: s + t, (x * y for x, y in zip(a, b)))


def _det(M: list):
    if not M:
        return 1
    if len(M) == 1:
        return M[0][0]
    total = None
    for j in range(len(M)):
        minor = [row[:j] + row[j + 1:] for row in M[1:]]
        term = M[0][j] * _det(minor)
        total = term if total is None else (total + term if j % 2 == 0 else total - term)
    return total


def _adjugate(M: list) -> list:
    n = len(M)
    if n == 1:
        return [[1]]
    return [[(1 if (i + j) % 2 == 0 else -1) * _det([row[:i] + row[i + 1:]
                                                     for k, row in enumerate(M) if k != j])
             for j in range(n)] for i in range(n)]


def hyperplane(xp, w, c) -> list:
    """{x : ⟨w, x⟩ = c} as a one-polyhedron set."""
    w = _entries(xp, w)
    return [[(w, c), ([-x for x in w], -c)]]


def hyperplane_distance(xp, w, c, x):
    """|⟨w, x⟩ − c| / ‖w‖ (undefined where w = 0)."""
    w, x = _entries(xp, w), _entries(xp, x)
    return xp.abs(_dot(w, x) - c) / xp.sqrt(_dot(w, w))


def union(*sets) -> list:
    """The union of sets (lists of polyhedra): its distance is the min over them."""
    return [poly for s in sets for poly in s]


def _candidates(xp, rows: list, p: list) -> list:
    """The guarded ‖p − x_S‖² of every S of at most d rows of one polyhedron."""
    d = len(p)
    if d > MAX_DIMENSION:
        raise ValueError(f"distances to polyhedra are expanded for dimension ≤ {MAX_DIMENSION}, got {d}")
    out = []
    for k in range(min(d, len(rows)) + 1):
        for S in itertools.combinations(range(len(rows)), k):
            A = [rows[i][0] for i in S]
            r = [_dot(a, p) - rows[i][1] for a, i in zip(A, S)]
            G = [[_dot(a, b) for b in A] for a in A]
            det = _det(G)
            independent = xp.minimum(xp.guard(xp.q(-1), -det), xp.q(1))  # 1 iff det G > 0, else −1
            dependent = (xp.q(1) - independent) * xp.q(1, 2)  # [det G = 0]
            adj = _adjugate(G) if k else []
            adj_r = [_dot(row, r) for row in adj]  # adj(G) r
            value = (_dot(r, adj_r) if k else xp.q(0)) / (det + dependent)
            # det·x_S = det·p − A_Sᵀ adj(G) r
            scaled = [det * p[t] - (_dot([a[t] for a in A], adj_r) if k else 0) for t in range(d)]
            condition = independent
            for i, (a, b) in enumerate(rows):
                if i not in S:
                    condition = xp.minimum(condition, det * b - _dot(a, scaled))
            out.append(xp.guard(value, condition))
    return out


def squared_distance(xp, x, pieces: list):
    """dist(x, ⋃ pieces)²: the min over every qualifying candidate (undefined if none)."""
    p = _entries(xp, x)
    candidates = [c for rows in pieces for c in _candidates(xp, rows, p)]
    return reduce(xp.minimum, candidates)


def distance(xp, x, pieces: list):
    """dist(x, ⋃ pieces), exactly: the square root of squared_distance."""
    return xp.sqrt(squared_distance(xp, x, pieces))
