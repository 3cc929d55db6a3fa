"""Observation 4.3 of Santurkar et al. (2018), p. 7: BN does more than rescaling.

First sentence: for any data and weights there is a BN configuration with
γ = σ_j giving the same activations; the construction is β = μ_j (see also
Remark 2.7 of Dannemann & Junike), encoded as an identity.

Second sentence: "Consequently, all of the minima of the normal landscape are
preserved in the BN landscape."  In the paper's setting (Section 4.1: γ and β
are constants, the layer is linear) this says: the least-squares optimum W*
of C is a critical point of Ĉ.  Encoded as the identity ∇Ĉ(W*) = 0 for one
neuron with a squared loss; Example 3.2 of Dannemann & Junike refutes it.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import backprop, batch_norm, normalize, stats

SOURCE = "Santurkar et al. (2018), How does batch normalization help optimization?, Observation 4.3, p. 7"


def _same_activations(xp, X, w):
    z = X @ w
    mu, sigma = stats(xp, z)
    return xp.sum((batch_norm(xp, z, sigma, mu) - z) ** 2)


@hypothesis(r"the batch variance $\sigma_j^2$ of $Xw$")
def _variance(xp, X, w):
    return stats(xp, X @ w)[1] ** 2


def _least_squares(xp, X, y):
    return xp.solve(X.T @ X, X.T @ y)


@hypothesis(r"leading principal minors of $X^\top X$")
def _gram_minors(xp, X, y, gamma, beta):
    """XᵀX positive definite: its leading minors, for d ≤ 3."""
    G = X.T @ X
    d = G.shape[0]
    minors = [G[0, 0]]
    if d >= 2:
        minors.append(G[0, 0] * G[1, 1] - G[0, 1] * G[1, 0])
    if d >= 3:
        minors.append(G[0, 0] * (G[1, 1] * G[2, 2] - G[1, 2] * G[2, 1])
                      - G[0, 1] * (G[1, 0] * G[2, 2] - G[1, 2] * G[2, 0])
                      + G[0, 2] * (G[1, 0] * G[2, 1] - G[1, 1] * G[2, 0]))
    return xp.asarray(minors)


@hypothesis(r"the batch variance $\sigma(W^*)^2$")
def _variance_at_w_star(xp, X, y, gamma, beta):
    return stats(xp, X @ _least_squares(xp, X, y))[1] ** 2


def _bn_gradient(xp, X, y, gamma, beta):
    w = _least_squares(xp, X, y)
    z = X @ w
    yhat, sigma = normalize(xp, z)
    g = (gamma * yhat + beta - y) * 2
    return X.T @ backprop(xp, g, yhat, sigma, gamma)


def _bn_gradient_at_w_star(xp, X, y, gamma, beta):
    return xp.sum(_bn_gradient(xp, X, y, gamma, beta) ** 2)


SAME_ACTIVATIONS = Claim(
    id="santurkar2018/observation-4.3", aliases=("observation-4.3",),
    title="BatchNorm does more than rescaling: the same activations with γ = σ", source=SOURCE,
    statement=r"\forall X, W\ \exists (W,\gamma,\beta),\ \gamma=\sigma_j:\ \hat{y}=y",
    reading=("The observation's first sentence: for any data and weights there is a BN configuration with "
             "γ = σ_j giving the same activations; the construction is β = μ_j (see also Remark 2.7 of "
             "Dannemann & Junike), encoded as an identity."),
    kind="identity",
    variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 5), "d": (1, 3)},
    hypotheses=(_variance,), residual=_same_activations, exact_sizes={"m": (2, 4), "d": (1, 2)},
)
MINIMA_PRESERVED = Claim(
    id="santurkar2018/observation-4.3/minima-preserved",
    aliases=("observation-4.3/minima-preserved",),
    title="All minima of the normal landscape are preserved in the BN landscape", source=SOURCE,
    statement=r"\nabla_W\widehat{\mathcal{C}}(W^*) = 0 \text{ for every minimum } W^* \text{ of } \mathcal{C}",
    reading=("The observation's second sentence: \"Consequently, all of the minima of the normal landscape "
             "are preserved in the BN landscape.\"  In the paper's setting (Section 4.1: γ and β are "
             "constants, the layer is linear) this says: the least-squares optimum W* of C is a critical "
             "point of Ĉ.  Encoded as the identity ∇Ĉ(W*) = 0 for one neuron with a squared loss."),
    kind="identity",
    variables=(Var("X", ("m", "d")), Var("y", ("m",)), Var("gamma", (), "nonzero"), Var("beta", ())),
    sizes={"m": (3, 5), "d": (1, 3)},
    hypotheses=(_gram_minors, _variance_at_w_star), residual=_bn_gradient_at_w_star,
    quantities={"W^*": lambda xp, X, y, gamma, beta: _least_squares(xp, X, y),
                r"\nabla_W\widehat{\mathcal{C}}(W^*)": lambda xp, X, y, gamma, beta: _bn_gradient(xp, X, y, gamma, beta)},
)
