"""The BN transform and exact derivatives through it, at a rational point.

Gradients use the closed form of Fact C.1 of Santurkar et al. (2018) and
Hessians its derivative; both stay in Q(σ), so nothing is differentiated
symbolically and m = 1000 costs a few matrix products.
"""

from __future__ import annotations

from dataclasses import dataclass

import flint

from ..errors import DegenerateInstance
from .linalg import dot, ones
from .surd import Surd

fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat


@dataclass(frozen=True)
class Normalized:
    """Batch statistics of one unit's pre-activations z, and ŷ = (z − μ)/σ."""

    mu: fmpq
    var: fmpq  # σ², biased (divide by m), no ε
    yhat: Surd  # m×1, a rational vector times 1/σ
    inv_sigma: Surd  # 1/σ = √(σ²)/σ²


def normalize(z: fmpq_mat) -> Normalized:
    m = z.nrows()
    mu = sum(z.entries(), fmpq(0)) / m
    centred = z - ones(m) * mu
    var = dot(centred, centred) / m
    if var == 0:
        raise DegenerateInstance(
            "σ = 0: every sample gives this unit the same pre-activation, so BN divides by zero"
        )
    inv_sigma = Surd(fmpq(0), 1 / var, var)
    return Normalized(mu=mu, var=var, yhat=inv_sigma * centred, inv_sigma=inv_sigma)


def transform(norm: Normalized, gamma: fmpq, beta: fmpq) -> Surd:
    """ẑ = γ ŷ + β, the BN output."""
    m = norm.yhat.shape()[0]
    return norm.yhat * gamma + ones(m) * beta


def backprop(g: Surd, norm: Normalized, gamma: fmpq) -> Surd:
    """Fact C.1: ∂f/∂z = γ/(mσ) · (m g − 1⟨1, g⟩ − ŷ⟨ŷ, g⟩), for g = ∂f/∂ẑ."""
    m = g.shape()[0]
    total = (ones(m).transpose() * g.a, ones(m).transpose() * g.b)
    sum_g = Surd(total[0][0, 0], total[1][0, 0], g.r)
    along = (norm.yhat.T * g).scalar()
    inner = g * m - Surd.rational(ones(m), g.r) * sum_g - norm.yhat * along
    return inner * (norm.inv_sigma * fmpq(gamma) / m)


def pullback_hessian(
    X: fmpq_mat, Xc: fmpq_mat, g: Surd, h: fmpq, norm: Normalized, gamma: fmpq
) -> Surd:
    """Xᵀ (∂²f/∂z²) X for f with ∂f/∂ẑ = g and ∂²f/∂ẑ² = h·I.

    ∂²f/∂z² = γ² J (hI) J + γ Σ_b g_b ∂²ŷ_b/∂z², with J = ∂ŷ/∂z from Fact C.2
    (J² = P/σ², P = I − 11ᵀ/m − ŷŷᵀ/m a projection) and
    Σ_b g_b ∂²ŷ_b/∂z² = −(Πg ŷᵀ + ŷ (Πg)ᵀ + ⟨g, ŷ⟩ Π − (3/m)⟨g, ŷ⟩ ŷŷᵀ)/(mσ²),
    Π = I − 11ᵀ/m.  Everything is contracted with X first, so no m×m matrix
    is formed."""
    m = X.nrows()
    return contracted_hessian(
        gram_c=Xc.transpose() * Xc,  # Xᵀ Π X
        xy=X.transpose() * norm.yhat,  # Xᵀ ŷ   (d×1)
        xg=Xc.transpose() * g,  # Xᵀ Π g  (d×1)
        gy=(g.T * norm.yhat).scalar(),  # ⟨g, ŷ⟩
        h=h, var=norm.var, gamma=gamma, m=m,
    )


def contracted_hessian(gram_c: fmpq_mat, xy: Surd, xg: Surd, gy: Surd, h: fmpq, var: fmpq,
                       gamma: fmpq, m: int) -> Surd:
    """pullback_hessian from the contractions XᵀΠX, Xᵀŷ, XᵀΠg and ⟨g, ŷ⟩ alone
    (layer.Neuron gets them from d-dimensional sums, never forming ŷ)."""
    inv_var = 1 / var
    outer_yy = xy * xy.T
    curvature = (gram_c - outer_yy * fmpq(1, m)) * (fmpq(gamma) ** 2 * h * inv_var)
    bend = (
        xg * xy.T + xy * xg.T + Surd.rational(gram_c, xy.r) * gy - outer_yy * gy * fmpq(3, m)
    ) * (-fmpq(gamma) * inv_var / m)
    return curvature + bend
