"""van Laarhoven (2017), L2 Regularization versus Batch and Weight Normalization
(arXiv:1706.05350).

True statements of Sections 2–3 (the effective learning rate of a scale-invariant
weight), written as a reader would: a held-out proxy of issue 23's measurement
(bench/heldout.py).

L(w) = ½ Σ_b (BN(Xw)_b − t_b)²: one unit, weights w, a mini-batch X (m × d), BN
without ε, a squared loss.  L_λ(w) = L(w) + λ‖w‖² adds L2 regularization.
"""

from bnproof.claims import Claim, Var

PAPER = "van Laarhoven 2017, L2 Regularization versus Batch and Weight Normalization"
X = Var("X", ("m", "d"))
W = Var("w", ("d",))
T = Var("t", ("m",))
SIZES = {"m": (2, 5), "d": (1, 3)}


def bn(xp, z):
    mu = xp.mean(z)
    return (z - mu) / xp.sqrt(xp.mean((z - mu) ** 2))


def loss(xp, X, t):
    return lambda w: xp.sum((bn(xp, X @ w) - t) ** 2) / 2


def spread(xp, X, w, **_):
    z = X @ w
    return xp.mean((z - xp.mean(z)) ** 2)


def _effective_step(xp, X, t, w, eta):
    norm = xp.sqrt(xp.sum(w * w))
    w_hat = w / norm
    step_on_w = (w - eta * xp.grad(loss(xp, X, t), w)) / norm
    step_on_direction = w_hat - eta / norm ** 2 * xp.grad(loss(xp, X, t), w_hat)
    return xp.sum((step_on_w - step_on_direction) ** 2)


EFFECTIVE_LEARNING_RATE = Claim(
    id="published/vanlaarhoven2017/effective-learning-rate",
    source=PAPER + ", Section 3 (the effective learning rate is η/‖w‖²)",
    statement=(r"\frac{w_t - \eta \nabla L(w_t)}{\|w_t\|} = \hat w_t - \frac{\eta}{\|w_t\|^2} \nabla L(\hat w_t),"
               r" \quad \hat w_t = \frac{w_t}{\|w_t\|}"),
    reading="A step of size η on w, seen on the direction ŵ = w/‖w‖, is a step of size η/‖w‖² on ŵ; "
            "L(w) = ½ Σ (BN(Xw) − t)²; read as Σ_k (lhs_k − rhs_k)² = 0.",
    kind="identity", variables=(X, T, W, Var("eta")), sizes=SIZES, hypotheses=(spread,),
    residual=_effective_step,
)


def _l2_along_w(xp, X, t, w, lam):
    regularized = lambda v: loss(xp, X, t)(v) + lam * xp.sum(v * v)
    return xp.dot(xp.grad(regularized, w), w) - 2 * lam * xp.sum(w * w)


L2_ONLY_SHRINKS = Claim(
    id="published/vanlaarhoven2017/l2-along-w",
    source=PAPER + ", Section 2 (with BN, L2 regularization only acts on the scale of w)",
    statement=r"\langle \nabla_w (L(w) + \lambda \|w\|^2), w \rangle = 2\lambda \|w\|^2",
    reading="L(w) = ½ Σ (BN(Xw) − t)², scale invariant, so ⟨∇L, w⟩ = 0 and only the regularizer "
            "moves w along itself.",
    kind="identity", variables=(X, T, W, Var("lam")), sizes=SIZES, hypotheses=(spread,),
    residual=_l2_along_w,
)
