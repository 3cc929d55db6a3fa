"""Claims with an (m, d) batch matrix and d-vectors, proved for every batch size m and
every feature count d at once (docs/claims.md, "Proofs for every m", "Every d"), and
their near misses, refuted.

X has shape (m, d): m rows x_i (the batch), d columns (the features); μ = (1/m) Σ_i x_i is
the vector of column means, S = (1/m) Σ_i (x_i − μ)(x_i − μ)ᵀ the biased covariance
matrix of the columns.

True, proved for every m and every d (certificates of method "every-d"):

* SAME_ACTIVATIONS: Observation 4.3's first sentence (Santurkar et al. 2018): with
  γ = σ and β = μ, the batch norm of the activations z = Xw is z itself.
* KOHLER_VARIANCE: Kohler et al. 2019: the batch variance of Xw is wᵀSw.
* MEAN_SQUARED_DISTANCE: (1/m²) Σ_i Σ_k ‖x_i − x_k‖² = (2/m) Σ_i ‖x_i − μ‖² (the mean
  squared distance between two rows is twice the mean squared distance to the centroid),
  written with all pairs of rows, X[:, None, :] − X[None, :, :].
* CENTROID: Σ_i ‖x_i − c‖² = Σ_i ‖x_i − μ‖² + m ‖μ − c‖² for every c in R^d.
* KOHLER_NONNEGATIVE: Kohler et al. 2019: wᵀSw >= 0, an inequality: wᵀSw is (1/m) times
  the full sum of the square of X_c w (X_c the centred X), found by the squares search.
* NORM_GROWS: Hoffer et al. 2018: for L(w) = Σ_b g_b BN(Xw)_b (scale-invariant in w),
  ‖w − η∇L(w)‖² >= ‖w‖², since ⟨w, ∇L⟩ = 0 leaves η² ‖∇L‖².

Near misses, refuted with a certificate (never proved):

* BETA_ZERO: Observation 4.3 with β = 0 instead of β = μ.
* KOHLER_UNBIASED: the biased batch variance of Xw against the unbiased covariance
  (÷ (m − 1)): biased and unbiased swapped on one side.
* DISTANCE_ONCE: the mean squared distance with 1/m for 2/m.
* CENTROID_NO_M: the centroid identity without the factor m.
* KOHLER_ABOVE_NORM: wᵀSw >= ‖w‖² (S is no bigger than the identity in general).
* NORM_SHRINKS: ‖w − η∇L(w)‖² <= ‖w‖², the inequality reversed (false wherever η∇L ≠ 0).

``bnproof prove docs/examples/every_d.py`` proves the true ones for every m and every d;
``bnproof fuzz docs/examples/every_d.py`` refutes the near misses.
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats

SOURCE = "bnproof docs, every-d example"
X = Var("X", ("m", "d"))
W = Var("w", ("d",))
C = Var("c", ("d",))
G = Var("g", ("m",))
ETA = Var("eta")
SIZES = {"m": (2, 5), "d": (1, 3)}


def _variance(xp, X, w):
    """σ² of Xw > 0: BN of the activations is defined."""
    return stats(xp, X @ w)[1] ** 2


def _same_activations(xp, X, w, beta_is_mu=True):
    z = X @ w
    mu, sigma = stats(xp, z)
    return xp.sum((batch_norm(xp, z, sigma, mu if beta_is_mu else 0) - z) ** 2)


def _covariance(xp, X, bessel=False):
    m = X.shape[0]
    centred = X - xp.mean(X, axis=0)
    return centred.T @ centred / (m - 1 if bessel else m)


def _kohler(xp, X, w, bessel=False):
    z = X @ w
    variance = xp.mean((z - xp.mean(z)) ** 2)
    return variance - w @ _covariance(xp, X, bessel) @ w


def _distances(xp, X, two=2):
    m = X.shape[0]
    pairs = X[:, None, :] - X[None, :, :]  # (m, m, d): x_i − x_k for every pair
    return xp.sum(pairs ** 2) / m ** 2 - xp.q(two, 1) / m * xp.sum((X - xp.mean(X, axis=0)) ** 2)


def _centroid(xp, X, c, times_m=True):
    m = X.shape[0]
    mu = xp.mean(X, axis=0)
    spread = xp.sum((X - mu) ** 2) + (m if times_m else 1) * xp.sum((mu - c) ** 2)
    return xp.sum((X - c) ** 2) - spread


def _quadratic_form(xp, X, w, above_norm=False):
    return w @ _covariance(xp, X) @ w - (xp.sum(w * w) if above_norm else 0)


def _spread(xp, X, w, **_):
    """σ² of Xw > 0: BN of the activations, and its gradient, defined."""
    z = X @ w
    return xp.mean((z - xp.mean(z)) ** 2)


def _step(xp, X, g, w, eta, grows=True):
    def loss(v):
        z = X @ v
        mu = xp.mean(z)
        return xp.sum(g * (z - mu) / xp.sqrt(xp.mean((z - mu) ** 2)))

    nxt = w - eta * xp.grad(loss, w)
    change = xp.sum(nxt * nxt) - xp.sum(w * w)
    return change if grows else -change


SAME_ACTIVATIONS = Claim(
    id="gallery/every_d/same-activations",
    source="Santurkar et al. (2018), Observation 4.3, first sentence",
    statement=r"\gamma = \sigma,\ \beta = \mu:\ \mathrm{BN}(Xw) = Xw",
    title="BN with γ = σ and β = μ gives the same activations, for every d",
    kind="identity", variables=(X, W), sizes=SIZES, hypotheses=(_variance,),
    residual=_same_activations,
)

KOHLER_VARIANCE = Claim(
    id="gallery/every_d/kohler-variance",
    source="Kohler et al. (2019), Section 3: the variance of Xw is wᵀSw",
    statement=r"\tfrac{1}{m}\sum_i \big((Xw)_i - \overline{Xw}\big)^2 = w^\top S w",
    title="the batch variance of Xw is wᵀSw",
    kind="identity", variables=(X, W), sizes=SIZES,
    residual=_kohler,
)

MEAN_SQUARED_DISTANCE = Claim(
    id="gallery/every_d/mean-squared-distance",
    source=SOURCE,
    statement=r"\tfrac{1}{m^2}\sum_{i,k}\|x_i - x_k\|^2 = \tfrac{2}{m}\sum_i \|x_i - \mu\|^2",
    title="the mean squared distance between rows is twice that to the centroid",
    kind="identity", variables=(X,), sizes=SIZES,
    residual=_distances,
)

CENTROID = Claim(
    id="gallery/every_d/centroid",
    source=SOURCE,
    statement=r"\sum_i \|x_i - c\|^2 = \sum_i \|x_i - \mu\|^2 + m\,\|\mu - c\|^2",
    title="the centroid identity",
    kind="identity", variables=(X, C), sizes=SIZES,
    residual=_centroid,
)

BETA_ZERO = Claim(
    id="gallery/every_d/beta-zero",
    source=SOURCE,
    statement=r"\gamma = \sigma,\ \beta = 0:\ \mathrm{BN}(Xw) = Xw",
    title="near miss: β = 0 for β = μ",
    kind="identity", variables=(X, W), sizes=SIZES, hypotheses=(_variance,),
    residual=lambda xp, X, w: _same_activations(xp, X, w, beta_is_mu=False),
)

KOHLER_UNBIASED = Claim(
    id="gallery/every_d/kohler-unbiased",
    source=SOURCE,
    statement=r"\tfrac{1}{m}\sum_i \big((Xw)_i - \overline{Xw}\big)^2 = w^\top S_{m-1} w",
    title="near miss: the unbiased covariance against the biased variance",
    kind="identity", variables=(X, W), sizes=SIZES,
    residual=lambda xp, X, w: _kohler(xp, X, w, bessel=True),
)

DISTANCE_ONCE = Claim(
    id="gallery/every_d/distance-once",
    source=SOURCE,
    statement=r"\tfrac{1}{m^2}\sum_{i,k}\|x_i - x_k\|^2 = \tfrac{1}{m}\sum_i \|x_i - \mu\|^2",
    title="near miss: 1/m for 2/m",
    kind="identity", variables=(X,), sizes=SIZES,
    residual=lambda xp, X: _distances(xp, X, two=1),
)

CENTROID_NO_M = Claim(
    id="gallery/every_d/centroid-no-m",
    source=SOURCE,
    statement=r"\sum_i \|x_i - c\|^2 = \sum_i \|x_i - \mu\|^2 + \|\mu - c\|^2",
    title="near miss: the factor m missing",
    kind="identity", variables=(X, C), sizes=SIZES,
    residual=lambda xp, X, c: _centroid(xp, X, c, times_m=False),
)

KOHLER_NONNEGATIVE = Claim(
    id="gallery/every_d/kohler-nonnegative",
    source="Kohler et al. (2019), Section 2: ‖w‖_S² = wᵀSw >= 0",
    statement=r"w^\top S w \ge 0",
    title="wᵀSw >= 0 (S the covariance of X's columns), for every d",
    kind="inequality", variables=(X, W), sizes=SIZES,
    residual=_quadratic_form,
)

NORM_GROWS = Claim(
    id="gallery/every_d/norm-grows",
    source="Hoffer et al. (2018), Section 2: without weight decay SGD never shrinks ‖w‖",
    statement=r"\|w - \eta \nabla L(w)\|^2 \ge \|w\|^2,\quad L(w) = \sum_b g_b\, \mathrm{BN}(Xw)_b",
    title="a gradient step on a scale-invariant loss never shrinks ‖w‖, for every d",
    kind="inequality", variables=(X, G, W, ETA), sizes=SIZES, hypotheses=(_spread,),
    residual=_step,
)

KOHLER_ABOVE_NORM = Claim(
    id="gallery/every_d/kohler-above-norm",
    source=SOURCE,
    statement=r"w^\top S w \ge \|w\|^2",
    title="near miss: wᵀSw against ‖w‖² for 0",
    kind="inequality", variables=(X, W), sizes=SIZES,
    residual=lambda xp, X, w: _quadratic_form(xp, X, w, above_norm=True),
)

NORM_SHRINKS = Claim(
    id="gallery/every_d/norm-shrinks",
    source=SOURCE,
    statement=r"\|w - \eta \nabla L(w)\|^2 \le \|w\|^2",
    title="near miss: the inequality reversed",
    kind="inequality", variables=(X, G, W, ETA), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, X, g, w, eta: _step(xp, X, g, w, eta, grows=False),
)

EXPECTED = {
    "gallery/every_d/same-activations": "survived",
    "gallery/every_d/kohler-variance": "survived",
    "gallery/every_d/mean-squared-distance": "survived",
    "gallery/every_d/centroid": "survived",
    "gallery/every_d/beta-zero": "refuted",
    "gallery/every_d/kohler-unbiased": "refuted",
    "gallery/every_d/distance-once": "refuted",
    "gallery/every_d/centroid-no-m": "refuted",
    "gallery/every_d/kohler-nonnegative": "survived",
    "gallery/every_d/norm-grows": "survived",
    "gallery/every_d/kohler-above-norm": "refuted",
    "gallery/every_d/norm-shrinks": "refuted",
}
