"""The optimum sets of C and Ĉ for one neuron, derived and then checked exactly.

Standard network: C is a convex quadratic; its optimum solves the normal
equations XᵀX w = Xᵀy, unique when XᵀX is positive definite.

BN network: ŷ = Xc w/σ(w) has mean 0 and ‖ŷ‖² = m, so
    Ĉ(w) = s·(γ²m + ‖y − β1‖² − 2γ⟨c, w⟩/σ(w)),   c = Xcᵀ yc,
with Xc, yc the centred batch and targets and s = 1 (sums) or 1/m (means).
Ĉ is scale invariant; in the coordinates v = (Xcᵀ Xc)^{1/2} w it is an affine
function of ⟨a, v/‖v‖⟩, and a linear function on the sphere has exactly two
critical points.  Hence, for γ > 0 and c ≠ 0, the local minima of Ĉ are the
open ray {t·b + v : t > 0, v ∈ ker Xc}, b the least-squares direction of the
centred problem (Xcᵀ Xc b = c, b ⊥ ker Xc); the opposite ray holds the local
maxima and there are no other critical points.  For γ < 0 the rays swap:
the minima lie on {t·(−b)}.  For γ = 0 or c = 0, Ĉ is constant.
The code below computes b and then checks the first- and second-order
conditions exactly, so the derivation is confirmed, not assumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import flint

from ..errors import DegenerateInstance
from .hessian import HessianForm
from .layer import Neuron
from .linalg import dot, echelon, is_positive_definite, kernel, ldl_pivots, rows_of
from .surd import Surd

fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat


def _show(v: fmpq_mat) -> str:
    return "(" + ", ".join(str(x) for x in v.entries()) + ")"


@dataclass(frozen=True)
class StandardOptimum:
    w: fmpq_mat  # W*
    grad: fmpq_mat  # ∇C(W*), exactly zero
    hessian: fmpq_mat  # ∇²C, constant
    pivots: list  # LDLᵀ pivots of the Hessian; all > 0 means positive definite
    loss: fmpq  # C(W*)

    @property
    def is_unique_minimum(self) -> bool:
        return self.grad == fmpq_mat(self.grad.nrows(), 1) and is_positive_definite(self.pivots)


def standard_optimum(neuron: Neuron) -> StandardOptimum:
    gram, d = neuron.gram, neuron.d
    rank = gram.rank()
    if rank < d:
        raise DegenerateInstance(
            f"singular least squares: X has rank {rank} < d = {d}, so the optima of C form "
            f"an affine set of dimension {d - rank}, not a point; drop dependent columns of X "
            "or add samples"
        )
    w = gram.solve(neuron.x_targets)
    hessian = neuron.hessian()
    return StandardOptimum(
        w=w,
        grad=neuron.grad(w),
        hessian=hessian,
        pivots=ldl_pivots(hessian),
        loss=neuron.loss(w),
    )


@dataclass(frozen=True)
class BNOptima:
    """The local minima of Ĉ: {t·direction + v : t > 0, v ∈ span(kernel)},
    or every w with σ(w) ≠ 0 when ``constant``."""

    constant: bool
    direction: fmpq_mat | None  # b (sign of γ included)
    kernel: fmpq_mat | None  # basis of ker Xc: directions that change neither σ nor Ĉ
    complement: fmpq_mat | None  # basis of the directions across the optimum set
    grad: Surd | None  # ∇Ĉ(b), exactly zero
    hessian_form: HessianForm | None  # ∇²Ĉ(b), factored
    flat_directions_ok: bool  # ∇²Ĉ(b)·b = 0 and ∇²Ĉ(b)·kernel = 0 (scale invariance)
    pivots: list  # pivots of the Hessian restricted to the complement
    minimum: Surd | fmpq  # min Ĉ

    @cached_property
    def hessian(self) -> Surd | None:
        """∇²Ĉ(b) as a d×d matrix, formed when first read (the checks use the form)."""
        return None if self.hessian_form is None else self.hessian_form.matrix()

    @property
    def first_order_ok(self) -> bool:
        return self.constant or self.grad.is_zero()

    @property
    def second_order_ok(self) -> bool:
        return self.constant or (self.flat_directions_ok and is_positive_definite(self.pivots))


def _stack_rows(*blocks: fmpq_mat) -> fmpq_mat:
    rows = []
    for block in blocks:
        rows.extend(rows_of(block.transpose()))
    return fmpq_mat(rows)


def bn_optima(neuron: Neuron) -> BNOptima:
    d = neuron.d
    # Xc = 0 exactly when its Gram matrix is 0, and both have the same kernel,
    # hence the same reduced row echelon form and the same basis: kernel()
    # works on d×d, not m×d.
    if neuron.gram_c == fmpq_mat(d, d):
        raise DegenerateInstance(
            "σ = 0 for every weight: all rows of X are equal, so BN divides by zero; "
            "use a batch with at least two distinct samples"
        )
    null = kernel(neuron.gram_c)
    c = neuron.centred_cross  # Xcᵀ yc
    if neuron.gamma == 0 or all(x == 0 for x in c.entries()):
        beta, m = neuron.beta, neuron.m
        residual2 = neuron.target_norm2 - 2 * beta * neuron.target_sum + beta * beta * m  # ‖y − β1‖²
        constant = (neuron.gamma**2 * m + residual2) * neuron.scale
        return BNOptima(True, None, null, None, None, None, True, [], constant)
    # Xcᵀ Xc + N Nᵀ is positive definite and its solution lies in N^⊥ (N = ker Xc).
    system = neuron.gram_c + (null * null.transpose() if null is not None else fmpq_mat(d, d))
    b = system.solve(c)
    if neuron.gamma < 0:
        b = -b
    reduced = echelon(_stack_rows(b, null) if null is not None else b.transpose())
    across = reduced.basis()
    grad = neuron.bn_grad(b)
    hessian = neuron.bn_hessian_form(b)
    flat = [b] + ([null] if null is not None else [])
    flat_ok = all(hessian.apply(v).is_zero() for v in flat)
    # pivots of Qᵀ∇²Ĉ(b)Q, Q = across, without forming ∇²Ĉ(b) (hessian.py)
    pivots = hessian.restricted_pivots(reduced) if across is not None else []
    return BNOptima(False, b, null, across, grad, hessian, flat_ok, pivots, neuron.bn_loss(b))


@dataclass(frozen=True)
class Closest:
    """The point of an optimum set nearest to W0, and the squared distance.

    The BN set is open (t > 0); when ⟨W0, b⟩ ≤ 0 the infimum is approached as
    t → 0 but not attained, and ``point`` is None."""

    point: fmpq_mat | None
    distance2: fmpq
    scale: fmpq | None  # t with point = t·b + (kernel part)
    # where the infimum is not attained: the point t·b + (kernel part) tends to as t → 0,
    # whose distance to W0 is the infimum (None otherwise)
    approached: fmpq_mat | None = None


def _in_span(basis: fmpq_mat, v: fmpq_mat) -> bool:
    stacked = fmpq_mat([row + [x] for row, x in zip(rows_of(basis), v.entries())])
    return stacked.rank() == basis.rank()


def closest_bn_optimum(opt: BNOptima, w0: fmpq_mat) -> Closest:
    if opt.constant:
        inside = opt.kernel is None or opt.kernel.ncols() == 0 or not _in_span(opt.kernel, w0)
        return Closest(w0 if inside else None, fmpq(0), None)
    kernel_part = fmpq_mat(w0.nrows(), 1)
    if opt.kernel is not None:
        n = opt.kernel
        kernel_part = n * (n.transpose() * n).solve(n.transpose() * w0)
    rest = w0 - kernel_part
    b = opt.direction
    t = dot(w0, b) / dot(b, b)
    if t > 0:
        point = b * t + kernel_part
        diff = w0 - point
        return Closest(point, dot(diff, diff), t)
    return Closest(None, dot(rest, rest), None, kernel_part)


def describe_ray(opt: BNOptima, names: list[str]) -> str:
    """'3*w1 = 5*w2, w1 > 0' for a ray in the plane; a parametric form otherwise."""
    if opt.constant:
        return "every w with σ(w) ≠ 0"
    b = [fmpq(x) for x in opt.direction.entries()]
    if len(b) == 2 and opt.kernel is None:
        (b1, b2), (n1, n2) = b, names
        lead = 0 if b1 != 0 else 1
        sign = ">" if b[lead] > 0 else "<"
        if b1 == 0:
            return f"{n1} = 0, {n2} {sign} 0"
        if b2 == 0:
            return f"{n2} = 0, {n1} {sign} 0"
        # b2·w1 = b1·w2, scaled to coprime integers with a positive left coefficient
        from math import gcd, lcm

        den = lcm(int(b1.q), int(b2.q))
        p, q = int(b2 * den), int(b1 * den)
        g = gcd(p, q) or 1
        p, q = p // g, q // g
        if p < 0:
            p, q = -p, -q
        left = f"{p}*{n1}" if p != 1 else n1
        right = f"{q}*{n2}" if q not in (1, -1) else (n2 if q == 1 else f"-{n2}")
        return f"{left} = {right}, {names[lead]} {sign} 0"
    text = f"t*{_show(opt.direction)}, t > 0"
    if opt.kernel is not None:
        text += f", plus any vector of ker Xc (dimension {opt.kernel.ncols()})"
    return text
