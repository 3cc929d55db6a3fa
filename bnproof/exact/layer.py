"""One neuron of a linear layer (zero bias, identity activation) with and
without BN: the losses C and Ĉ, their gradients and Hessians, exactly.

Neurons of a layer decouple under a squared loss, so a layer is a list of
these (Remark 3.1 of Dannemann & Junike reads the Lemma column-wise too).

Every loss, gradient and Hessian is contracted with X before anything is
evaluated at w: XᵀX, Xᵀ1, Xᵀy, Σy and ‖y‖² are formed once (from integers),
and then each quantity at w costs O(d²), whatever m is.  The contractions
are the definitions of ŷ, Fact C.1 and its derivative multiplied out
(Xᵀŷ = (XᵀX w − μ Xᵀ1)/σ, ...), not the closed form of Ĉ in optima.py, so
the optimum derived there is still checked against an independent
computation.  bn.py keeps the m-dimensional forms; the tests hold the two
equal.

A neuron of an instance takes those sums from the instance's integer
moments (batch.py), shared by all its neurons; X and y themselves, as
rational matrices, are built only when something reads them (the reports
and figures of small instances).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import flint

from . import bn
from ..errors import DegenerateInstance
from .batch import integer_rows
from .hessian import HessianForm
from .linalg import dot, ones, to_fmpq
from .surd import Surd

fmpq = flint.fmpq
fmpz_mat = flint.fmpz_mat
fmpq_mat = flint.fmpq_mat


def exact_matrix(rows) -> fmpq_mat:
    """Rows of ints or Fractions as an fmpq_mat, through one integer matrix over
    their common denominator: no fmpq is made one entry at a time."""
    integers, common = integer_rows(rows)
    integer = fmpz_mat(integers) if rows else fmpz_mat(0, 0)
    return fmpq_mat(integer) if common == 1 else fmpq_mat(integer) / common


@dataclass(frozen=True)
class _AtW:
    """The BN quantities at one w, contracted with X (see the module docstring)."""

    var: fmpq  # σ²
    inv_sigma: Surd  # 1/σ
    x_yhat: Surd  # Xᵀŷ (d×1)
    yhat_yhat: Surd  # ‖ŷ‖²
    ones_yhat: Surd  # ⟨1, ŷ⟩
    y_yhat: Surd  # ⟨y, ŷ⟩


class Neuron:
    """One neuron: batch X (m×d), targets y (m×1), γ, β and the loss scale s
    (1 for sums of squares, the paper's; 1/m for means).

    Every contraction below is computed from X and y when first read, unless
    ``of`` has already set it from the instance's integer moments; X and y
    are then themselves built from the instance only if read."""

    def __init__(self, X: fmpq_mat, y: fmpq_mat, gamma: fmpq, beta: fmpq, scale: fmpq):
        self.X, self.y = X, y
        self.gamma, self.beta, self.scale = gamma, beta, scale
        self.m, self.d = X.nrows(), X.ncols()

    @classmethod
    def of(cls, instance, j: int) -> "Neuron":
        moments = instance.moments
        neuron = cls.__new__(cls)
        neuron._instance, neuron._j = instance, j
        neuron.gamma, neuron.beta = to_fmpq(instance.gamma[j]), to_fmpq(instance.beta[j])
        neuron.scale = fmpq(1) if instance.loss == "sum" else fmpq(1, instance.m)
        neuron.m, neuron.d = moments.m, moments.xx.nrows()
        # the cached properties below, already known: set, not computed
        vars(neuron).update(
            gram=moments.gram, gram_c=moments.gram_c, sums=moments.sums,
            x_targets=moments.x_targets(j), target_sum=moments.target_sum(j),
            target_norm2=moments.target_norm2(j))
        return neuron

    # X and y of a neuron made by ``of`` (the constructor sets them instead)
    @cached_property
    def X(self) -> fmpq_mat:
        return exact_matrix(self._instance.X)

    @cached_property
    def y(self) -> fmpq_mat:
        return exact_matrix([[v] for v in self._instance.targets(self._j)])

    @cached_property
    def x_mean(self) -> fmpq_mat:  # d×1 column means
        return self.sums * fmpq(1, self.m)

    @cached_property
    def Xc(self) -> fmpq_mat:  # centred batch
        return self.X - ones(self.m) * self.x_mean.transpose()

    @cached_property
    def yc(self) -> fmpq_mat:  # centred targets
        return self.y - ones(self.m) * (self.target_sum / self.m)

    @cached_property
    def sums(self) -> fmpq_mat:  # Xᵀ1
        return self.X.transpose() * ones(self.m)

    @cached_property
    def x_targets(self) -> fmpq_mat:  # Xᵀy
        return self.X.transpose() * self.y

    @cached_property
    def target_sum(self) -> fmpq:
        return sum(self.y.entries(), fmpq(0))

    @cached_property
    def target_norm2(self) -> fmpq:  # ‖y‖²
        return dot(self.y, self.y)

    @cached_property
    def gram(self) -> fmpq_mat:
        return self.X.transpose() * self.X

    @cached_property
    def gram_c(self) -> fmpq_mat:  # Xcᵀ Xc = XᵀX − (Xᵀ1)(Xᵀ1)ᵀ/m
        return self.gram - self.sums * self.sums.transpose() * fmpq(1, self.m)

    @cached_property
    def centred_cross(self) -> fmpq_mat:  # Xcᵀ yc = Xᵀy − (Xᵀ1)·Σy/m
        return self.x_targets - self.sums * (self.target_sum / self.m)

    # -- standard network ---------------------------------------------------
    def loss(self, w: fmpq_mat) -> fmpq:  # s‖Xw − y‖²
        return (dot(w, self.gram * w) - 2 * dot(w, self.x_targets) + self.target_norm2) * self.scale

    def grad(self, w: fmpq_mat) -> fmpq_mat:
        return (self.gram * w - self.x_targets) * (2 * self.scale)

    def hessian(self) -> fmpq_mat:
        return self.gram * (2 * self.scale)

    # -- BN network -----------------------------------------------------------
    def normalize(self, w: fmpq_mat) -> bn.Normalized:
        """The m-dimensional ŷ (for display and cross-checks; the engine uses _at)."""
        return bn.normalize(self.X * w)

    def bn_residual(self, norm: bn.Normalized) -> Surd:
        return bn.transform(norm, self.gamma, self.beta) - self.y

    def _at(self, w: fmpq_mat) -> _AtW:
        # the engine asks for Ĉ, ∇Ĉ and ∇²Ĉ at the same point in turn: keep the last one
        last = vars(self).get("_last_at")
        if last is not None and last[0] == w:
            return last[1]
        at = self._at_new(w)
        self._last_at = (fmpq_mat(w), at)  # a copy: w may be changed in place later
        return at

    def _at_new(self, w: fmpq_mat) -> _AtW:
        m = self.m
        mu = dot(self.sums, w) / m
        var = dot(w, self.gram_c * w) / m  # ‖Xw − μ1‖²/m
        if var == 0:
            raise DegenerateInstance(
                "σ = 0: every sample gives this unit the same pre-activation, so BN divides by zero"
            )
        inv_sigma = Surd(fmpq(0), 1 / var, var)
        return _AtW(
            var=var,
            inv_sigma=inv_sigma,
            x_yhat=inv_sigma * (self.gram * w - self.sums * mu),
            yhat_yhat=inv_sigma * inv_sigma * (var * m),
            ones_yhat=inv_sigma * (dot(self.sums, w) - mu * m),
            y_yhat=inv_sigma * (dot(w, self.x_targets) - mu * self.target_sum),
        )

    def _loss_parts(self, at: _AtW) -> tuple[Surd, Surd, Surd]:
        """Xᵀg, ⟨1, g⟩ and ⟨ŷ, g⟩ for g = ∂ℓ/∂ẑ = 2s(γŷ + β1 − y)."""
        two_s, gamma, beta = 2 * self.scale, self.gamma, self.beta
        x_g = (at.x_yhat * gamma + (self.sums * beta - self.x_targets)) * two_s
        ones_g = (at.ones_yhat * gamma + (beta * self.m - self.target_sum)) * two_s
        yhat_g = (at.yhat_yhat * gamma + at.ones_yhat * beta - at.y_yhat) * two_s
        return x_g, ones_g, yhat_g

    def bn_loss(self, w: fmpq_mat) -> Surd:
        """s‖γŷ + β1 − y‖², multiplied out."""
        at, gamma, beta = self._at(w), self.gamma, self.beta
        constant = beta * beta * self.m - 2 * beta * self.target_sum + self.target_norm2
        total = (at.yhat_yhat * (gamma * gamma) + at.ones_yhat * (2 * gamma * beta)
                 - at.y_yhat * (2 * gamma) + constant)
        return total * self.scale

    def bn_grad(self, w: fmpq_mat) -> Surd:
        """Xᵀ of Fact C.1: γ/(mσ)·(m Xᵀg − Xᵀ1⟨1, g⟩ − Xᵀŷ⟨ŷ, g⟩)."""
        at = self._at(w)
        x_g, ones_g, yhat_g = self._loss_parts(at)
        inner = x_g * self.m - Surd.rational(self.sums, at.inv_sigma.r) * ones_g - at.x_yhat * yhat_g
        return inner * (at.inv_sigma * self.gamma / self.m)

    def bn_hessian(self, w: fmpq_mat) -> Surd:
        return self.bn_hessian_form(w).matrix()

    def bn_hessian_form(self, w: fmpq_mat) -> HessianForm:
        """∇²Ĉ(w) factored (hessian.py): its products with vectors and its
        restrictions to subspaces without forming the d×d matrix."""
        at = self._at(w)
        x_g, ones_g, yhat_g = self._loss_parts(at)
        centred_x_g = x_g - Surd.rational(self.sums, at.inv_sigma.r) * (ones_g / self.m)  # XᵀΠg
        return HessianForm(self.gram_c, at.x_yhat, centred_x_g, yhat_g,
                           2 * self.scale, at.var, self.gamma, self.m)
