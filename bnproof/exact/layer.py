"""One neuron of a linear layer (zero bias, identity activation) with and
without BN: the losses C and Ĉ, their gradients and Hessians, exactly.

Neurons of a layer decouple under a squared loss, so a layer is a list of
these (Remark 3.1 of Dannemann & Junike reads the Lemma column-wise too).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import flint

from . import bn
from .linalg import column, dot, matrix, ones, to_fmpq
from .surd import Surd

fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat


@dataclass(frozen=True)
class Neuron:
    X: fmpq_mat  # m×d batch
    y: fmpq_mat  # m×1 targets
    gamma: fmpq
    beta: fmpq
    scale: fmpq  # 1 for sums of squares (the paper), 1/m for means

    @classmethod
    def of(cls, instance, j: int) -> "Neuron":
        return cls(
            X=matrix(instance.X),
            y=column(instance.targets(j)),
            gamma=to_fmpq(instance.gamma[j]),
            beta=to_fmpq(instance.beta[j]),
            scale=fmpq(1) if instance.loss == "sum" else fmpq(1, instance.m),
        )

    @property
    def m(self) -> int:
        return self.X.nrows()

    @property
    def d(self) -> int:
        return self.X.ncols()

    @cached_property
    def x_mean(self) -> fmpq_mat:  # d×1 column means
        return self.X.transpose() * ones(self.m) * fmpq(1, self.m)

    @cached_property
    def Xc(self) -> fmpq_mat:  # centred batch
        return self.X - ones(self.m) * self.x_mean.transpose()

    @cached_property
    def yc(self) -> fmpq_mat:  # centred targets
        mean = sum(self.y.entries(), fmpq(0)) / self.m
        return self.y - ones(self.m) * mean

    @cached_property
    def gram(self) -> fmpq_mat:
        return self.X.transpose() * self.X

    @cached_property
    def gram_c(self) -> fmpq_mat:
        return self.Xc.transpose() * self.Xc

    # -- standard network ---------------------------------------------------
    def loss(self, w: fmpq_mat) -> fmpq:
        r = self.X * w - self.y
        return dot(r, r) * self.scale

    def grad(self, w: fmpq_mat) -> fmpq_mat:
        return self.X.transpose() * (self.X * w - self.y) * (2 * self.scale)

    def hessian(self) -> fmpq_mat:
        return self.gram * (2 * self.scale)

    # -- BN network -----------------------------------------------------------
    def normalize(self, w: fmpq_mat) -> bn.Normalized:
        return bn.normalize(self.X * w)

    def bn_residual(self, norm: bn.Normalized) -> Surd:
        return bn.transform(norm, self.gamma, self.beta) - self.y

    def bn_loss(self, w: fmpq_mat) -> Surd:
        r = self.bn_residual(self.normalize(w))
        return (r.T * r).scalar() * self.scale

    def bn_grad(self, w: fmpq_mat) -> Surd:
        norm = self.normalize(w)
        g = self.bn_residual(norm) * (2 * self.scale)  # ∂ℓ/∂ẑ
        dz = bn.backprop(g, norm, self.gamma)
        return Surd(self.X.transpose() * dz.a, self.X.transpose() * dz.b, dz.r)

    def bn_hessian(self, w: fmpq_mat) -> Surd:
        norm = self.normalize(w)
        g = self.bn_residual(norm) * (2 * self.scale)
        return bn.pullback_hessian(self.X, self.Xc, g, 2 * self.scale, norm, self.gamma)
