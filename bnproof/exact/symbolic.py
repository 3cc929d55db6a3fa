"""Closed forms in the weights, as SymPy expressions with exact coefficients.

These are for people (the report, LaTeX); the numbers come from the
structured engine, never from differentiating these expressions.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from .layer import Neuron
from .linalg import rows_of, to_fraction

# Writing out Ĉ as a sum has one term per sample; past this it is not worth reading.
MAX_TERMS_SHOWN = 12


def _q(x) -> sympy.Rational:
    f = to_fraction(x)
    return sympy.Rational(f.numerator, f.denominator)


def weight_symbols(d: int) -> list[sympy.Symbol]:
    return list(sympy.symbols(f"w1:{d + 1}", real=True))


@dataclass(frozen=True)
class ClosedForms:
    w: list[sympy.Symbol]
    mu: sympy.Expr
    sigma: sympy.Expr
    loss: sympy.Expr  # C(w), as a sum over samples when short, else expanded
    bn_loss: sympy.Expr | None  # Ĉ(w) as a sum over samples, when short
    bn_loss_reduced: sympy.Expr  # Ĉ(w) = s·(K − 2γ⟨c, w⟩/σ(w))


def closed_forms(neuron: Neuron) -> ClosedForms:
    w = weight_symbols(neuron.d)
    X = [[_q(x) for x in row] for row in rows_of(neuron.X)]
    y = [_q(v) for v in neuron.y.entries()]
    m, s = neuron.m, _q(neuron.scale)
    gamma, beta = _q(neuron.gamma), _q(neuron.beta)
    z = [sum((xi * wi for xi, wi in zip(row, w)), sympy.Integer(0)) for row in X]
    mu = sympy.expand(sum(z) / m)
    var = sympy.Poly(sympy.expand(sum((zi - mu) ** 2 for zi in z) / m), *w)
    content, primitive = var.primitive()
    # σ = k·√R with k rational and R an integer quadratic form, as the papers write it
    k, radical = sympy.sqrt(content).as_coeff_Mul()
    root = sympy.sqrt(sympy.expand(radical**2 * primitive.as_expr()))
    sigma = k * root
    if m <= MAX_TERMS_SHOWN:
        loss = s * sympy.Add(*[(zi - yi) ** 2 for zi, yi in zip(z, y)], evaluate=False)
        bn_terms = [
            (gamma * sympy.factor(sympy.expand((zi - mu) / k)) / root + beta - yi) ** 2
            for zi, yi in zip(z, y)
        ]
        bn_loss = s * sympy.Add(*bn_terms, evaluate=False)
    else:
        loss = sympy.expand(s * sum((zi - yi) ** 2 for zi, yi in zip(z, y)))
        bn_loss = None
    y_mean = sum(y) / m
    c = [sum((z_col - mu_col) * (yi - y_mean) for z_col, mu_col, yi in zip(col, [sum(col) / m] * m, y))
         for col in zip(*X)]
    K = gamma**2 * m + sum((yi - beta) ** 2 for yi in y)
    inner = sympy.expand(sum(ci * wi for ci, wi in zip(c, w)) * 2 * gamma / k)
    bn_loss_reduced = s * K - s * inner / root
    return ClosedForms(w, mu, sigma, loss, bn_loss, bn_loss_reduced)
