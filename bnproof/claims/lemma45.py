"""Lemma 4.5 of Santurkar et al. (2018), decided exactly on an instance.

As printed (p. 8), for the sets W* and Ŵ* of local optima of the standard and
BN networks and the closest optima W* and Ŵ* to W0:

    ‖W0 − Ŵ*‖² ≤ ‖W0 − W*‖² − (‖W*‖² − ⟨W*, W0⟩)² / ‖W*‖²,   if ⟨W0, W*⟩ > 0.

Reading: one linear layer, zero bias, identity activation, γ and β constant
(Section 4.1); norms and inner products are taken per neuron (Remark 3.1 of
Dannemann & Junike, "column-wise" in their W ∈ R^{n×k}; Santurkar et al.'s
W_{·j}).  ‖W0 − Ŵ*‖² is the squared distance from W0 to the BN optimum set,
which is an infimum when the open ray does not attain it.  The residual is
RHS − LHS; the Lemma fails on a neuron exactly when its residual is < 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import flint

from ..errors import DegenerateInstance
from ..exact.layer import Neuron
from ..exact.linalg import column, dot
from ..exact.optima import (
    BNOptima,
    Closest,
    StandardOptimum,
    bn_optima,
    closest_bn_optimum,
    standard_optimum,
)
from ..exact.surd import Surd
from ..instance import Instance

fmpq = flint.fmpq
fmpq_mat = flint.fmpq_mat

ID = "lemma-4.5"
TITLE = "BatchNorm leads to a favourable initialization"
SOURCE = (
    "S. Santurkar, D. Tsipras, A. Ilyas, A. Madry, How does batch normalization help "
    "optimization?, NeurIPS 2018 (arXiv:1805.11604), Lemma 4.5, p. 8"
)
STATEMENT = (
    r"\left\|W_0-\widehat{W}^*\right\|^2 \leq \left\|W_0-W^*\right\|^2"
    r"-\frac{1}{\left\|W^*\right\|^2}\left(\left\|W^*\right\|^2-\left\langle W^*,W_0"
    r"\right\rangle\right)^2, \quad \text{if } \left\langle W_0,W^*\right\rangle>0"
)
REFUTED_BY = (
    "J. Dannemann, G. Junike, Batch normalization does not improve initialization "
    "(2025, arXiv:2502.17913), Example 3.2"
)

REFUTED, HOLDS, HYPOTHESIS_NOT_MET = "refuted", "holds", "hypothesis-not-met"


@dataclass(frozen=True)
class NeuronReport:
    index: int
    neuron: Neuron
    w0: fmpq_mat
    standard: StandardOptimum
    grad_bn_at_w_star: Surd  # ∇Ĉ(W*)
    loss_bn_at_w_star: Surd  # Ĉ(W*)
    bn: BNOptima
    closest: Closest
    inner: fmpq  # ⟨W0, W*⟩, the hypothesis
    lhs: fmpq
    rhs: fmpq | None  # None when W* = 0: the printed fraction is undefined

    @property
    def residual(self) -> fmpq | None:
        return None if self.rhs is None else self.rhs - self.lhs

    @property
    def verdict(self) -> str:
        if self.inner <= 0:
            return HYPOTHESIS_NOT_MET
        return REFUTED if self.residual < 0 else HOLDS


@dataclass(frozen=True)
class Report:
    instance: Instance
    neurons: list[NeuronReport]

    @property
    def verdict(self) -> str:
        verdicts = [n.verdict for n in self.neurons]
        for v in (REFUTED, HYPOTHESIS_NOT_MET):
            if v in verdicts:
                return v
        return HOLDS


def analyse_neuron(instance: Instance, j: int) -> NeuronReport:
    neuron = Neuron.of(instance, j)
    w0 = column(instance.W0[j])
    bn = bn_optima(neuron)  # first: σ ≡ 0 is the more basic failure
    std = standard_optimum(neuron)
    w_star = std.w
    try:
        grad, loss = neuron.bn_grad(w_star), neuron.bn_loss(w_star)
    except DegenerateInstance:
        raise DegenerateInstance(
            f"σ(W*) = 0 for neuron {j + 1}: the BN network is undefined at the standard "
            f"optimum W* = ({', '.join(str(x) for x in w_star.entries())})"
        ) from None
    closest = closest_bn_optimum(bn, w0)
    norm2 = dot(w_star, w_star)
    inner = dot(w0, w_star)
    diff = w0 - w_star
    rhs = dot(diff, diff) - (norm2 - inner) ** 2 / norm2 if norm2 != 0 else None
    return NeuronReport(j, neuron, w0, std, grad, loss, bn, closest, inner, closest.distance2, rhs)


def analyse(instance: Instance) -> Report:
    return Report(instance, [analyse_neuron(instance, j) for j in range(instance.n)])
