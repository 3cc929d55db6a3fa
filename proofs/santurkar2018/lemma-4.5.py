"""Lemma 4.5 of Santurkar et al. (2018), p. 8, as a claim over one neuron.

`bnproof verify lemma-4.5` decides it on a given instance with the full
derivation; this file lets `bnproof fuzz` search for instances.  Reading as
in bnproof/claims/lemma45.py: one neuron, zero bias, identity activation, γ
and β constant, sums of squares; W* the least-squares optimum; the BN optima
form the open ray {t·sign(γ)·b : t > 0}, b the centred least-squares
direction, so ‖W0 − Ŵ*‖² = ‖W0‖² − max(⟨W0, sign(γ) b⟩, 0)²/‖b‖².
Hypotheses: ⟨W0, W*⟩ > 0 (the Lemma's), XᵀX and XcᵀXc positive definite
(leading minors, d ≤ 2), so both optima are unique as described.
"""

from bnproof.claims import Claim, Var, hypothesis

SOURCE = "Santurkar et al. (2018), How does batch normalization help optimization?, Lemma 4.5, p. 8"


def _minors(xp, G):
    if G.shape[0] == 1:
        return [G[0, 0]]
    return [G[0, 0], G[0, 0] * G[1, 1] - G[0, 1] * G[1, 0]]


def _parts(xp, X, y, W0, gamma):
    m = X.shape[0]
    w_star = xp.solve(X.T @ X, X.T @ y)
    Xc = X - xp.mean(X, axis=0)
    yc = y - xp.mean(y)
    b = xp.solve(Xc.T @ Xc, Xc.T @ yc) * (gamma / xp.abs(gamma))
    return w_star, b, Xc


@hypothesis(r"the Lemma's $\langle W_0, W^*\rangle$")
def _inner(xp, X, y, W0, gamma):
    return xp.dot(W0, xp.solve(X.T @ X, X.T @ y))


@hypothesis(r"leading principal minors of $X^\top X$")
def _gram_minors(xp, X, y, W0, gamma):
    return xp.asarray(_minors(xp, X.T @ X))


@hypothesis(r"leading principal minors of $X_c^\top X_c$")
def _centred_gram_minors(xp, X, y, W0, gamma):
    Xc = X - xp.mean(X, axis=0)
    return xp.asarray(_minors(xp, Xc.T @ Xc))


def _sides(xp, X, y, W0, gamma):
    """(‖W0 − Ŵ*‖², the printed bound)."""
    w_star, b, _ = _parts(xp, X, y, W0, gamma)
    n2 = xp.dot(w_star, w_star)
    rhs = xp.sum((W0 - w_star) ** 2) - (n2 - xp.dot(w_star, W0)) ** 2 / n2
    along = xp.maximum(xp.dot(W0, b), xp.q(0))
    lhs = xp.dot(W0, W0) - along**2 / xp.dot(b, b)
    return lhs, rhs


def _residual(xp, X, y, W0, gamma):
    lhs, rhs = _sides(xp, X, y, W0, gamma)
    return rhs - lhs


LEMMA_4_5 = Claim(
    id="santurkar2018/lemma-4.5", aliases=("lemma-4.5",),
    title="BatchNorm leads to a favourable initialization", source=SOURCE,
    statement=r"\left\|W_0-\widehat{W}^*\right\|^2 \leq \left\|W_0-W^*\right\|^2"
              r"-\frac{1}{\left\|W^*\right\|^2}\left(\left\|W^*\right\|^2-\left\langle W^*,W_0"
              r"\right\rangle\right)^2, \quad \text{if } \left\langle W_0,W^*\right\rangle>0",
    reading=__doc__,
    variables=(Var("X", ("m", "d")), Var("y", ("m",)), Var("W0", ("d",)), Var("gamma", (), "nonzero")),
    sizes={"m": (3, 5), "d": (1, 2)}, hypotheses=(_inner, _gram_minors, _centred_gram_minors),
    residual=_residual, symbols={"W0": "W_0"},
    quantities={"W^*": lambda xp, X, y, W0, gamma: _parts(xp, X, y, W0, gamma)[0],
                "b": lambda xp, X, y, W0, gamma: _parts(xp, X, y, W0, gamma)[1],
                "LHS": lambda xp, X, y, W0, gamma: _sides(xp, X, y, W0, gamma)[0],
                "RHS": lambda xp, X, y, W0, gamma: _sides(xp, X, y, W0, gamma)[1]},
)
