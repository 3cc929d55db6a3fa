"""Arora, Li & Lyu (2019), Theoretical Analysis of Auto Rate-Tuning by Batch
Normalization, ICLR 2019 (arXiv:1812.03981).

True statements of Section 2 (scale invariance, Lemma 2.4) and of the norm growth the
analysis rests on, written as a reader would: a held-out proxy of issue 23's
measurement (bench/heldout.py).

The scale-invariant loss: one unit with weights w over a mini-batch X (m × d),
followed by BN with its affine parameters and a squared loss,
L(w) = ½ Σ_b (γ BN(Xw)_b + β − t_b)².
"""

from bnproof.claims import Claim, Var

PAPER = "Arora, Li & Lyu 2019, Theoretical Analysis of Auto Rate-Tuning by Batch Normalization"
X = Var("X", ("m", "d"))
W = Var("w", ("d",))
T = Var("t", ("m",))
GAMMA, BETA = Var("gamma"), Var("beta")
C = Var("c", (), "positive")
SIZES = {"m": (2, 5), "d": (1, 3)}


def bn(xp, z):
    mu = xp.mean(z)
    return (z - mu) / xp.sqrt(xp.mean((z - mu) ** 2))


def loss(xp, X, t, gamma, beta):
    return lambda w: xp.sum((gamma * bn(xp, X @ w) + beta - t) ** 2) / 2


def spread(xp, X, w, **_):
    z = X @ w
    return xp.mean((z - xp.mean(z)) ** 2)


SCALE_INVARIANT = Claim(
    id="published/arora2019/scale-invariant-loss",
    source=PAPER + ", Section 2 (BN makes the loss scale invariant: L(cw) = L(w) for c > 0)",
    statement=r"L(c\mathbf{w}) = L(\mathbf{w}) \quad (c > 0)",
    reading="L(w) = ½ Σ (γ BN(Xw) + β − t)², BN without ε.",
    kind="identity", variables=(X, W, T, GAMMA, BETA, C), sizes=SIZES, hypotheses=(spread,),
    residual=lambda xp, X, w, t, gamma, beta, c: loss(xp, X, t, gamma, beta)(c * w)
    - loss(xp, X, t, gamma, beta)(w),
)

GRADIENT_ORTHOGONAL = Claim(
    id="published/arora2019/gradient-orthogonal",
    source=PAPER + ", Lemma 2.4 (1)",
    statement=r"\langle \nabla L(\mathbf{w}), \mathbf{w} \rangle = 0",
    reading="L(w) = ½ Σ (γ BN(Xw) + β − t)².",
    kind="identity", variables=(X, W, T, GAMMA, BETA), sizes=SIZES, hypotheses=(spread,),
    residual=lambda xp, X, w, t, gamma, beta: xp.dot(xp.grad(loss(xp, X, t, gamma, beta), w), w),
)


def _rescaled_gradient(xp, X, w, t, gamma, beta, c):
    at_cw = xp.grad(loss(xp, X, t, gamma, beta), c * w)
    at_w = xp.grad(loss(xp, X, t, gamma, beta), w)
    return xp.sum((at_cw - at_w / c) ** 2)


GRADIENT_RESCALED = Claim(
    id="published/arora2019/gradient-rescaled",
    source=PAPER + ", Lemma 2.4 (2)",
    statement=r"\nabla L(c\mathbf{w}) = \frac{1}{c} \nabla L(\mathbf{w}) \quad (c > 0)",
    reading="L(w) = ½ Σ (γ BN(Xw) + β − t)²; read as Σ_k (lhs_k − rhs_k)² = 0.",
    kind="identity", variables=(X, W, T, GAMMA, BETA, C), sizes=SIZES, hypotheses=(spread,),
    residual=_rescaled_gradient,
)


def _norm_growth(xp, X, w, t, gamma, beta, eta):
    grad = xp.grad(loss(xp, X, t, gamma, beta), w)
    nxt = w - eta * grad
    return xp.sum(nxt ** 2) - (xp.sum(w ** 2) + eta ** 2 * xp.sum(grad ** 2))


NORM_GROWTH = Claim(
    id="published/arora2019/norm-growth",
    source=PAPER + ", Sections 2–3 (one GD step on a scale-invariant loss: the norm growth the analysis rests on)",
    statement=r"\|\mathbf{w}_{t+1}\|^2 = \|\mathbf{w}_t\|^2 + \eta^2 \|\nabla L(\mathbf{w}_t)\|^2",
    reading="w_{t+1} = w_t − η ∇L(w_t), L(w) = ½ Σ (γ BN(Xw) + β − t)².",
    kind="identity", variables=(X, W, T, GAMMA, BETA, Var("eta")), sizes=SIZES, hypotheses=(spread,),
    residual=_norm_growth,
)
