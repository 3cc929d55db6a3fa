"""Closed forms in the weights, as SymPy expressions with exact coefficients.

These are for people (the report, LaTeX); the numbers come from the
structured engine, never from differentiating these expressions.  The
coefficients are taken from exact Gram matrices, so m = 1000 costs no more
than m = 3; the per-sample sums are written out only for short batches.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from .layer import Neuron
from .linalg import dot, rows_of, to_fraction

# Writing out a loss as a sum has one term per sample; past this it is not worth reading.
MAX_TERMS_SHOWN = 12


def _q(x) -> sympy.Rational:
    f = to_fraction(x)
    return sympy.Rational(f.numerator, f.denominator)


def weight_symbols(d: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(f"w1:{d + 1}", real=True))


def _linear(coeffs, w) -> sympy.Expr:
    return sympy.Add(*[_q(c) * wi for c, wi in zip(coeffs, w)])


def _quadratic(mat, w) -> sympy.Expr:
    rows = rows_of(mat)
    return sympy.Add(*[_q(rows[i][k]) * w[i] * w[k] for i in range(len(w)) for k in range(len(w))])


@dataclass(frozen=True)
class ClosedForms:
    w: list[sympy.Symbol]
    mu: sympy.Expr
    sigma: sympy.Expr  # k·√R, R an integer quadratic form
    loss: sympy.Expr  # C(w), expanded
    loss_terms: list[sympy.Expr] | None  # C(w) = s·Σ terms, one per sample, when short
    bn_loss_terms: list[sympy.Expr] | None  # Ĉ(w) = s·Σ terms, when short
    bn_loss_reduced: sympy.Expr  # Ĉ(w) = s·K − s·2γ⟨c, w⟩/σ(w)


def closed_forms(neuron: Neuron) -> ClosedForms:
    w = weight_symbols(neuron.d)
    m, s = neuron.m, _q(neuron.scale)
    gamma, beta = _q(neuron.gamma), _q(neuron.beta)
    mu = _linear(neuron.x_mean.entries(), w)
    var = sympy.Poly(_quadratic(neuron.gram_c, w) / m, *w)
    content, primitive = var.primitive()
    k, radical = sympy.sqrt(content).as_coeff_Mul()
    root = sympy.sqrt(sympy.expand(radical**2 * primitive.as_expr()))
    sigma = k * root
    y = [_q(v) for v in neuron.y.entries()]
    loss_terms = bn_terms = None
    if m <= MAX_TERMS_SHOWN:
        z = [_linear(row, w) for row in rows_of(neuron.X)]
        loss_terms = [(zi - yi) ** 2 for zi, yi in zip(z, y)]
        bn_terms = [(gamma * sympy.factor(sympy.expand((zi - mu) / k)) / root + beta - yi) ** 2
                    for zi, yi in zip(z, y)]
    Xty = neuron.X.transpose() * neuron.y
    loss = sympy.expand(s * (_quadratic(neuron.gram, w) - 2 * _linear(Xty.entries(), w)
                             + _q(dot(neuron.y, neuron.y))))
    c = neuron.Xc.transpose() * neuron.yc
    K = gamma**2 * m + sum((yi - beta) ** 2 for yi in y)
    inner = sympy.expand(_linear(c.entries(), w) * 2 * gamma / k)
    return ClosedForms(w, mu, sigma, loss, loss_terms, bn_terms, s * K - s * inner / root)
