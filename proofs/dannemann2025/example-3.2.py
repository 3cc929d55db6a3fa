"""Example 3.2 of Dannemann & Junike (2025), p. 4: its assertions, one claim each.

The instance is fixed: x = (1,1), (1,2), (2,3); y = 2, 5, 13; one neuron,
identity activation, zero bias, γ = 1, β = 0, sums of squares.  The local
minima assertion is quantified over the ray w = t·(5, 3), t > 0.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import backprop, normalize

SOURCE = "Dannemann & Junike (2025), Batch normalization does not improve initialization, Example 3.2, p. 4"
W_STAR = (1, 3)


def _data(xp):
    X = xp.asarray([[xp.q(1), xp.q(1)], [xp.q(1), xp.q(2)], [xp.q(2), xp.q(3)]])
    y = xp.asarray([xp.q(2), xp.q(5), xp.q(13)])
    return X, y


def _grad_C(xp, w):
    X, y = _data(xp)
    return X.T @ (X @ w - y) * 2


def _grad_C_hat(xp, w):
    X, y = _data(xp)
    yhat, sigma = normalize(xp, X @ w)
    return X.T @ backprop(xp, (yhat - y) * 2, yhat, sigma, xp.q(1))


def _w_star(xp):
    return xp.asarray([xp.q(W_STAR[0]), xp.q(W_STAR[1])])


GLOBAL_MINIMUM = Claim(
    id="dannemann2025/example-3.2/global-minimum", aliases=("example-3.2/global-minimum",),
    title="C attains its global minimum at W* = (1, 3)", source=SOURCE,
    statement=r"\mathcal{C} \text{ achieves its global minimum at } W^*=(1,3)",
    reading=__doc__ + " Encoded as ∇C(W*) = 0 (C is a convex quadratic with XᵀX positive definite,"
                      " checked as the hypotheses: leading minors 6 and 6·14 − 9² = 3 > 0).",
    kind="identity", variables=(),
    hypotheses=(hypothesis(r"leading principal minors of $X^\top X$",
                           lambda xp: xp.asarray([xp.q(6), xp.q(6 * 14 - 9 * 9)])),),
    residual=lambda xp: xp.sum(_grad_C(xp, _w_star(xp)) ** 2),
)
GRADIENT = Claim(
    id="dannemann2025/example-3.2/gradient", aliases=("example-3.2/gradient",),
    title="∇Ĉ(W*) = (−0.34, 0.11), to two decimals", source=SOURCE,
    statement=r"\nabla\widehat{\mathcal{C}}(W^*) = (-0.34, 0.11)",
    reading=__doc__ + " Read as: each entry rounds to the printed two decimals (|error| ≤ 0.005).",
    variables=(),
    residual=lambda xp: xp.minimum(
        xp.q(1, 200) - xp.abs(_grad_C_hat(xp, _w_star(xp))[0] + xp.q(34, 100)),
        xp.q(1, 200) - xp.abs(_grad_C_hat(xp, _w_star(xp))[1] - xp.q(11, 100))),
)
NOT_A_BN_OPTIMUM = Claim(
    id="dannemann2025/example-3.2/not-a-bn-optimum", aliases=("example-3.2/not-a-bn-optimum",),
    title="∇Ĉ(W*) ≠ 0: W* is not a local optimum of the BN network", source=SOURCE,
    statement=r"\nabla\widehat{\mathcal{C}}(W^*) \neq 0",
    reading=__doc__, variables=(), strict=True,
    residual=lambda xp: xp.sum(_grad_C_hat(xp, _w_star(xp)) ** 2),
)
RAY_OF_MINIMA = Claim(
    id="dannemann2025/example-3.2/ray", aliases=("example-3.2/ray",),
    title="Ĉ is stationary on the ray 3 w1 = 5 w2, w1 > 0", source=SOURCE,
    statement=r"\nabla\widehat{\mathcal{C}}(w)=0 \text{ for } w_1>0,\ 3w_1=5w_2",
    reading=__doc__ + " The first-order condition of the asserted local minima; `bnproof verify"
                      " lemma-4.5` also checks the second-order condition exactly.",
    kind="identity", variables=(Var("t", (), "positive"),), sizes={},
    residual=lambda xp, t: xp.sum(_grad_C_hat(xp, xp.asarray([t * 5, t * 3])) ** 2),
)
