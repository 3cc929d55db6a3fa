"""Kohler, Daneshmand, Lucchi, Zhou, Neymeyr & Hofmann (2019), Exponential convergence
rates for Batch Normalization: The power of length-direction decoupling in non-convex
optimization, AISTATS 2019 (arXiv:1805.10694).

True statements of Section 2 (BN as a reparameterization of the weights), written as
a reader would: a held-out proxy of issue 23's measurement (bench/heldout.py).

The paper works with the population covariance S = E[xxᵀ] of centred inputs; on a
mini-batch X (m × d) the same algebra holds with the batch covariance
S = (1/m) X̃ᵀX̃, X̃ = X − 1x̄ᵀ (columns centred), so ‖w‖_S = √(wᵀSw).
"""

from bnproof.claims import Claim, Var

PAPER = ("Kohler et al. 2019, Exponential convergence rates for Batch Normalization: The power of "
         "length-direction decoupling in non-convex optimization")
X = Var("X", ("m", "d"))
W = Var("w", ("d",))
SIZES = {"m": (2, 5), "d": (1, 3)}


def centred(xp, X):
    return X - xp.mean(X, axis=0)


def covariance(xp, X):
    Xc = centred(xp, X)
    return Xc.T @ Xc / X.shape[0]


def spread(xp, X, w, **_):
    z = X @ w
    return xp.mean((z - xp.mean(z)) ** 2)


VARIANCE_IS_QUADRATIC_FORM = Claim(
    id="published/kohler2019/variance-quadratic-form",
    source=PAPER + ", Section 2 (BN written with Var[x^T w] = w^T S w)",
    statement=r"\mathrm{Var}[\mathbf{x}^\top \mathbf{w}] = \mathbf{w}^\top \mathbf{S} \mathbf{w}",
    reading="The batch variance of the unit's pre-activations Xw (biased, ÷ m) against S the batch "
            "covariance (÷ m).",
    kind="identity", variables=(X, W), sizes=SIZES,
    residual=lambda xp, X, w: xp.mean((X @ w - xp.mean(X @ w)) ** 2) - w @ covariance(xp, X) @ w,
)


def _decoupled(xp, X, w, g):
    z = X @ w
    bn_out = g * (z - xp.mean(z)) / xp.sqrt(xp.mean((z - xp.mean(z)) ** 2))
    w_tilde = g * w / xp.sqrt(w @ covariance(xp, X) @ w)
    return xp.sum((bn_out - centred(xp, X) @ w_tilde) ** 2)


LENGTH_DIRECTION = Claim(
    id="published/kohler2019/length-direction-decoupling",
    source=PAPER + ", Section 2 (BN reparameterizes w as g w/‖w‖_S)",
    statement=(r"g\, \frac{\mathbf{x}^\top \mathbf{w} - \mathrm{E}[\mathbf{x}^\top \mathbf{w}]}"
               r"{\sqrt{\mathbf{w}^\top \mathbf{S} \mathbf{w}}} = (\mathbf{x} - \mathrm{E}[\mathbf{x}])^\top"
               r" \tilde{\mathbf{w}}, \quad \tilde{\mathbf{w}} = g \frac{\mathbf{w}}{\|\mathbf{w}\|_{\mathbf{S}}}"),
    reading="On the batch: g·BN(Xw) = X̃ w̃ with w̃ = g w/√(wᵀSw); read as Σ_b (lhs_b − rhs_b)² = 0.",
    kind="identity", variables=(X, W, Var("g")), sizes=SIZES, hypotheses=(spread,),
    residual=_decoupled,
)

S_NORM_NONNEGATIVE = Claim(
    id="published/kohler2019/s-norm-nonnegative",
    source=PAPER + ", Section 2 (S is a covariance matrix: ‖w‖_S² = wᵀSw ≥ 0)",
    statement=r"\|\mathbf{w}\|_{\mathbf{S}}^2 = \mathbf{w}^\top \mathbf{S} \mathbf{w} \ge 0",
    reading="S the batch covariance of X.",
    kind="inequality", variables=(X, W), sizes=SIZES,
    residual=lambda xp, X, w: w @ covariance(xp, X) @ w,
)
