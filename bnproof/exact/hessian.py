"""∇²Ĉ(w) of one neuron in factored form, and what the engine needs from it
without forming it: its products with vectors, and its restriction QᵀHQ to
the span of a kernel basis Q.

bn.contracted_hessian, multiplied out: with Gc = XᵀΠX, u = Xᵀŷ,
g = XᵀΠ(∂ℓ/∂ẑ), t = ⟨g, ŷ⟩, h = ∂²ℓ/∂ẑ², σ², γ and m,

    H = c1·Gc + c2·u uᵀ + c3·(g uᵀ + u gᵀ),
    k = γ²h/σ²,  c3 = −γ/(mσ²),  c1 = k + c3·t,  c2 = −k/m − 3c3·t/m.

At d = 64 the entries of H at the BN optimum have thousands of bits, and
forming H costs dozens of d×d passes that reduce every entry by a gcd.  The
factored form needs none: H·v is one product by Gc plus O(d), and for the
basis Q = E_F − E_P R that linalg.kernel reads off a reduced echelon form
(identity on the free coordinates F, −R on the pivot coordinates P),

    QᵀGcQ = Gc_FF − Gc_FP R − Rᵀ Gc_PF + Rᵀ Gc_PP R,   Qᵀv = v_F − Rᵀ v_P,

products of rank |P| (one, or one plus dim ker Xc).  Both Q(√r) parts of
QᵀHQ are then assembled as one integer matrix over one positive
denominator (a handful of integer products, no gcd): the signs of its
pivots are those of the integer matrix's, and the rational matrix, hence
the exact pivots, is formed only if they are read.  The numbers are those
of Qᵀ·contracted_hessian(...)·Q exactly; the tests hold the two equal.
"""

from __future__ import annotations

from math import lcm

import flint

from . import bn
from .linalg import Echelon
from .pivots import ldl_pivots, scaled_surd_pivots
from .surd import Surd

fmpq = flint.fmpq
fmpz_mat = flint.fmpz_mat
fmpq_mat = flint.fmpq_mat


class HessianForm:
    """∇²Ĉ at one point, from the contractions bn.contracted_hessian takes."""

    def __init__(self, gram_c: fmpq_mat, xy: Surd, xg: Surd, gy: Surd, h: fmpq, var: fmpq,
                 gamma: fmpq, m: int):
        self._args = (gram_c, xy, xg, gy, h, var, gamma, m)
        self.gram_c, self.u, self.g = gram_c, xy, xg
        gamma = fmpq(gamma)
        k = gamma * gamma * h / var
        self.c3 = -gamma / (var * m)
        self.c1 = gy * self.c3 + k
        self.c2 = gy * (-3 * self.c3 / m) - k / m

    def matrix(self) -> Surd:
        """H itself, d×d (what the reports and tests read)."""
        return bn.contracted_hessian(*self._args)

    def apply(self, v: fmpq_mat) -> Surd:
        """H·V for a d×k rational matrix V."""
        u, g = self.u, self.g
        uv, gv = u.T * v, g.T * v
        return (Surd.rational(self.gram_c * v, u.r) * self.c1 + u * uv * self.c2
                + (g * uv + u * gv) * self.c3)

    def restricted_pivots(self, across: Echelon):
        """The LDLᵀ pivots (pivots.ldl_pivots) of QᵀHQ, Q = across.basis()."""
        if not self.u.r == self.g.r == self.c1.r == self.c2.r:
            # parts over different radicands (never from layer.Neuron): the dense way
            q = across.basis()
            h = self.matrix()
            return ldl_pivots(Surd(q.transpose() * h.a * q, q.transpose() * h.b * q, h.r))
        a, b = self.restricted(across)
        return scaled_surd_pivots(a, b, self.u.r)

    def restricted(self, across: Echelon) -> tuple[tuple[fmpz_mat, int], tuple[fmpz_mat, int]]:
        """QᵀHQ = (Na/Da) + (Nb/Db)·√r, as ((Na, Da), (Nb, Db)): integer
        matrices over positive integer denominators."""
        size = len(across.free)
        gram = _restricted_matrix(self.gram_c, across)
        pa, pb = (_restricted_vector(x, across) for x in (self.u.a, self.u.b))
        qa, qb = (_restricted_vector(x, across) for x in (self.g.a, self.g.b))
        r, c1, c2, c3 = self.u.r, self.c1, self.c2, self.c3
        # (c + c'√r)·(P + R√r) = (cP + c'rR) + (cR + c'P)√r, each P, R a sum of outer products
        square = [(fmpq(1), pa, pa), (r, pb, pb)]  # u uᵀ, rational part
        cross = [(fmpq(1), pa, pb), (fmpq(1), pb, pa)]  # u uᵀ, part in √r
        a_terms = ([(c2.a * w, x, y) for w, x, y in square] + [(c2.b * r * w, x, y) for w, x, y in cross]
                   + [(c3, qa, pa), (c3, pa, qa), (c3 * r, qb, pb), (c3 * r, pb, qb)])
        b_terms = ([(c2.b * w, x, y) for w, x, y in square] + [(c2.a * w, x, y) for w, x, y in cross]
                   + [(c3, qa, pb), (c3, pb, qa), (c3, qb, pa), (c3, pa, qb)])
        return (_combine(c1.a, gram, a_terms, size), _combine(c1.b, gram, b_terms, size))


def _restricted_matrix(a: fmpq_mat, across: Echelon) -> tuple[fmpz_mat, int]:
    """QᵀAQ for a symmetric rational A, as (integer matrix, denominator)."""
    num, den = a.numer_denom()
    rows = num.tolist()
    free, piv = across.free, across.pivots
    rn, rd = across.free_part_integers()  # R = rn/rd, |P|×|F|

    def sub(rs, cs):
        return fmpz_mat([[rows[i][j] for j in cs] for i in rs]) if rs and cs else None

    out = sub(free, free) * (rd * rd)
    if piv:
        fp, pp = sub(free, piv), sub(piv, piv)
        side = fp * rn  # A_FP R; its transpose is Rᵀ A_PF (A symmetric)
        out = out - (side + side.transpose()) * rd + rn.transpose() * pp * rn
    return out, int(den) * rd * rd


def _restricted_vector(v: fmpq_mat, across: Echelon) -> tuple[list[int], int]:
    """Qᵀv as (integers, denominator)."""
    num, den = v.numer_denom()
    values = [int(x) for x in num.entries()]
    rn, rd = across.free_part_integers()
    r_rows = [[int(x) for x in row] for row in rn.tolist()]
    out = []
    for k, f in enumerate(across.free):
        out.append(rd * values[f] - sum(row[k] * values[p] for row, p in zip(r_rows, across.pivots)))
    return out, int(den) * rd


def _combine(coef: fmpq, matrix: tuple[fmpz_mat, int], outers: list, size: int) -> tuple[fmpz_mat, int]:
    """coef·M + Σ c·x yᵀ over one positive denominator, with one integer product
    for all the outer products (columns x·c, times the rows yᵀ)."""
    terms = []  # (exact multiplier of the integer matrix or outer product, payload)
    if coef != 0:
        terms.append((coef / matrix[1], None))
    for c, (x, xd), (y, yd) in outers:
        if c != 0 and any(x) and any(y):
            terms.append((c / (xd * yd), (x, y)))
    den = lcm(*(int(e.q) for e, _ in terms)) if terms else 1
    out = fmpz_mat(size, size)
    lefts, rights = [], []
    for e, payload in terms:
        z = int(e.p) * (den // int(e.q))
        if payload is None:
            out = out + matrix[0] * z
        else:
            x, y = payload
            lefts.append([xi * z for xi in x])
            rights.append(y)
    if lefts:
        left = fmpz_mat([list(col) for col in zip(*lefts)])  # size × terms
        right = fmpz_mat(rights)  # terms × size
        out = out + left * right
    return out, den
