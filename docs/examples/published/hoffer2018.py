"""Hoffer, Banner, Golan & Soudry (2018), Norm matters: efficient and accurate
normalization schemes in deep networks, NeurIPS 2018 (arXiv:1803.01814).

True statements of Section 2 (the weight norm does not change the function but sets
the effective step size), written as a reader would: a held-out proxy of issue 23's
measurement (bench/heldout.py).

A unit with weights w followed by BN over a mini-batch X (m × d) and an arbitrary
upstream gradient g: L(w) = Σ_b g_b BN(Xw)_b (so ∂L/∂BN = g, any vector).
"""

from bnproof.claims import Claim, Var

PAPER = "Hoffer, Banner, Golan & Soudry 2018, Norm matters: efficient and accurate normalization schemes in deep networks"
X = Var("X", ("m", "d"))
W = Var("w", ("d",))
G = Var("g", ("m",))
SIZES = {"m": (2, 5), "d": (1, 3)}


def bn(xp, z):
    mu = xp.mean(z)
    return (z - mu) / xp.sqrt(xp.mean((z - mu) ** 2))


def loss(xp, X, g):
    return lambda w: xp.sum(g * bn(xp, X @ w))


def spread(xp, X, w, **_):
    z = X @ w
    return xp.mean((z - xp.mean(z)) ** 2)


def norm(xp, w):
    return xp.sqrt(xp.sum(w * w))


def _gradient_of_direction(xp, X, g, w):
    w_hat = w / norm(xp, w)
    return xp.sum((xp.grad(loss(xp, X, g), w) - xp.grad(loss(xp, X, g), w_hat) / norm(xp, w)) ** 2)


GRADIENT_OF_DIRECTION = Claim(
    id="published/hoffer2018/gradient-of-direction",
    source=PAPER + ", Section 2 (the gradient is that of the direction, scaled by 1/‖w‖)",
    statement=r"\frac{\partial L}{\partial w} = \frac{1}{\|w\|} \frac{\partial L}{\partial \hat w}, \quad \hat w = \frac{w}{\|w\|}",
    reading="∂L/∂ŵ is ∇L evaluated at the unit vector ŵ; L(w) = Σ g_b BN(Xw)_b; read as Σ_k (lhs_k − rhs_k)² = 0.",
    kind="identity", variables=(X, G, W), sizes=SIZES, hypotheses=(spread,),
    residual=_gradient_of_direction,
)


def _norm_never_shrinks(xp, X, g, w, eta):
    nxt = w - eta * xp.grad(loss(xp, X, g), w)
    return xp.sum(nxt * nxt) - xp.sum(w * w)


NORM_NEVER_SHRINKS = Claim(
    id="published/hoffer2018/norm-never-shrinks",
    source=PAPER + ", Section 2 (without weight decay the norm of w only grows under SGD)",
    statement=r"\|w_{t+1}\|^2 \ge \|w_t\|^2",
    reading="w_{t+1} = w_t − η ∇L(w_t), any η; L(w) = Σ g_b BN(Xw)_b.",
    kind="inequality", variables=(X, G, W, Var("eta")), sizes=SIZES, hypotheses=(spread,),
    residual=_norm_never_shrinks,
)
