"""Well-known facts about batch statistics that normalization papers use without
proof, with a standard reference each, written as a reader would: a held-out proxy
of issue 23's measurement (bench/heldout.py).

A batch y ∈ R^m of one unit, μ = (1/m) Σ y_b, σ² = (1/m) Σ (y_b − μ)² (biased, as BN
uses), ŷ = (y − μ)/σ.  Random batches: m i.i.d. draws of a random variable X.
"""

from bnproof.claims import Claim, Law, Var

Y = Var("y", ("m",))
SIZES = {"m": (2, 6)}


def mean_var(xp, y):
    mu = xp.mean(y)
    return mu, xp.mean((y - mu) ** 2)


def yhat(xp, y):
    mu, var = mean_var(xp, y)
    return (y - mu) / xp.sqrt(var)


def spread(xp, y, **_):
    return mean_var(xp, y)[1]


NORM_OF_YHAT = Claim(
    id="published/folklore/norm-of-yhat",
    source="Santurkar et al. 2018, Section 4.1 (used in the proof of Theorem 4.1); a standard fact",
    statement=r"\|\hat{y}\|^2 = m",
    kind="identity", variables=(Y,), sizes=SIZES, hypotheses=(spread,),
    reading="σ > 0, BN without ε.",
    residual=lambda xp, y: xp.sum(yhat(xp, y) ** 2) - y.shape[0],
)

BN_OUTPUT_MEAN = Claim(
    id="published/folklore/bn-output-mean",
    source="Ioffe & Szegedy 2015, Section 3 (γ and β set the output's mean and scale); a standard fact",
    statement=r"\frac{1}{m}\sum_{b=1}^m (\gamma \hat{y}_b + \beta) = \beta",
    kind="identity", variables=(Y, Var("gamma"), Var("beta")), sizes=SIZES, hypotheses=(spread,),
    reading="σ > 0, BN without ε.",
    residual=lambda xp, y, gamma, beta: xp.mean(gamma * yhat(xp, y) + beta) - beta,
)

BN_OUTPUT_VARIANCE = Claim(
    id="published/folklore/bn-output-variance",
    source="Ioffe & Szegedy 2015, Section 3 (γ and β set the output's mean and scale); a standard fact",
    statement=r"\frac{1}{m}\sum_{b=1}^m (z_b - \bar{z})^2 = \gamma^2, \quad z = \gamma \hat{y} + \beta",
    kind="identity", variables=(Y, Var("gamma"), Var("beta")), sizes=SIZES, hypotheses=(spread,),
    reading="σ > 0, BN without ε; the biased variance of the output.",
    residual=lambda xp, y, gamma, beta: mean_var(xp, gamma * yhat(xp, y) + beta)[1] - gamma ** 2,
)

AFFINE_INVARIANCE = Claim(
    id="published/folklore/affine-invariance",
    source="Ioffe & Szegedy 2015, Sections 3.2–3.3 (bias and scale of the input cancel); a standard fact",
    statement=r"\mathrm{BN}(c\,y + b) = \mathrm{BN}(y) \quad (c > 0)",
    kind="identity", variables=(Y, Var("c", (), "positive"), Var("b")), sizes=SIZES, hypotheses=(spread,),
    reading="BN without ε and without γ, β; read as Σ_b (lhs_b − rhs_b)² = 0.",
    residual=lambda xp, y, c, b: xp.sum((yhat(xp, c * y + b) - yhat(xp, y)) ** 2),
)

def bn_eps(xp, y, eps):
    mu, var = mean_var(xp, y)
    return (y - mu) / xp.sqrt(var + eps)


EPSILON_RESCALED = Claim(
    id="published/folklore/epsilon-rescaled",
    source="BN with ε (Ioffe & Szegedy 2015, Algorithm 1) of a rescaled batch: a standard consequence "
           "(one of the failures issue 23 reports)",
    statement=r"\mathrm{BN}_{\epsilon}(c\,y) = \mathrm{BN}_{\epsilon/c^2}(y) \quad (c > 0)",
    kind="identity", variables=(Y, Var("c", (), "positive"), Var("eps", (), "positive")), sizes=SIZES,
    reading="x̂ = (y − μ)/√(σ² + ε), biased σ²; read as Σ_b (lhs_b − rhs_b)² = 0.",
    residual=lambda xp, y, c, eps: xp.sum((bn_eps(xp, c * y, eps) - bn_eps(xp, y, eps / c ** 2)) ** 2),
)

VARIANCE_SHORTCUT = Claim(
    id="published/folklore/variance-shortcut",
    source="the König–Huygens formula σ² = mean(y²) − μ² (any statistics text)",
    statement=r"\frac{1}{m}\sum_b (y_b - \mu)^2 = \frac{1}{m}\sum_b y_b^2 - \mu^2",
    reading="Any batch, constant ones included; both sides biased (÷ m).",
    kind="identity", variables=(Y,), sizes=SIZES,
    residual=lambda xp, y: mean_var(xp, y)[1] - (xp.mean(y ** 2) - xp.mean(y) ** 2),
)

MEAN_SQUARE_AT_LEAST_SQUARE_MEAN = Claim(
    id="published/folklore/mean-square-bound",
    source="Jensen's inequality for the square (the batch variance is nonnegative)",
    statement=r"\Big(\frac{1}{m}\sum_b y_b\Big)^2 \le \frac{1}{m}\sum_b y_b^2",
    reading="Any batch; read as mean(y²) − mean(y)² ≥ 0.",
    kind="inequality", variables=(Y,), sizes=SIZES,
    residual=lambda xp, y: xp.mean(y ** 2) - xp.mean(y) ** 2,
)

CAUCHY_SCHWARZ = Claim(
    id="published/folklore/cauchy-schwarz",
    source="the Cauchy–Schwarz inequality for two batches (used throughout Santurkar et al. 2018, Appendix C)",
    statement=r"\Big(\sum_b a_b c_b\Big)^2 \le \sum_b a_b^2 \sum_b c_b^2",
    reading="Two batch vectors a and c of the same length m; read as Σa²·Σc² − (Σac)² ≥ 0.",
    kind="inequality", variables=(Var("a", ("m",)), Var("c", ("m",))), sizes=SIZES,
    residual=lambda xp, a, c: xp.sum(a * a) * xp.sum(c * c) - xp.sum(a * c) ** 2,
)

CAUCHY_SCHWARZ_YHAT = Claim(
    id="published/folklore/cauchy-schwarz-yhat",
    source="Cauchy–Schwarz with ‖ŷ‖² = m (Santurkar et al. 2018, Section 4.1)",
    statement=r"\langle g, \hat{y} \rangle^2 \le m \|g\|^2",
    kind="inequality", variables=(Y, Var("g", ("m",))), sizes=SIZES, hypotheses=(spread,),
    reading="σ > 0; g any batch vector (a gradient).",
    residual=lambda xp, y, g: y.shape[0] * xp.sum(g * g) - xp.sum(g * yhat(xp, y)) ** 2,
)

SAMUELSON = Claim(
    id="published/folklore/samuelson",
    source="Samuelson 1968, How Deviant Can You Be?, J. Amer. Statist. Assoc. 63 (Laguerre's bound)",
    statement=r"|\hat{y}_b| \le \sqrt{m - 1} \quad \text{for every } b",
    kind="inequality", variables=(Y,), sizes=SIZES, hypotheses=(spread,),
    reading="σ biased (÷ m); read as m − 1 − max_b ŷ_b² ≥ 0.",
    residual=lambda xp, y: (y.shape[0] - 1) - xp.max(yhat(xp, y) ** 2),
)

X = Var("X", ("m", "d"))
D_SIZES = {"m": (2, 5), "d": (1, 3)}


def _centroid(xp, X, c):
    xbar = xp.mean(X, axis=0)
    around_c = xp.sum((X - c) ** 2)
    around_mean = xp.sum((X - xbar) ** 2)
    return around_c - (around_mean + X.shape[0] * xp.sum((xbar - c) ** 2))


CENTROID = Claim(
    id="published/folklore/centroid-identity",
    source="the parallel-axis (Huygens–Steiner) identity for a point cloud; e.g. the k-means literature",
    statement=r"\sum_{b=1}^m \|x_b - c\|^2 = \sum_{b=1}^m \|x_b - \bar{x}\|^2 + m \|\bar{x} - c\|^2",
    kind="identity", variables=(X, Var("c", ("d",))), sizes=D_SIZES,
    reading="x_b the rows of X (m points of R^d), x̄ their mean, c any point.",
    residual=_centroid,
)


def _pairwise(xp, X):
    sq = xp.sum(X * X, axis=1)
    D = sq[:, None] + sq[None, :] - 2 * (X @ X.T)  # ‖x_a − x_b‖², the usual numpy idiom
    m = X.shape[0]
    return xp.sum(D) / (2 * m * m) - xp.sum((X - xp.mean(X, axis=0)) ** 2) / m


MEAN_SQUARED_DISTANCE = Claim(
    id="published/folklore/mean-squared-distance",
    source="the pairwise form of the variance: the mean squared distance between points is twice their "
           "mean squared distance to the centroid (a standard identity of the k-means literature)",
    statement=(r"\frac{1}{2m^2}\sum_{a=1}^m\sum_{b=1}^m \|x_a - x_b\|^2 = \frac{1}{m}\sum_{b=1}^m \|x_b - \bar{x}\|^2"),
    kind="identity", variables=(X,), sizes=D_SIZES,
    reading="x_b the rows of X; ‖x_a − x_b‖² written with the distance-matrix idiom "
            "‖x_a‖² + ‖x_b‖² − 2⟨x_a, x_b⟩.",
    residual=_pairwise,
)

XLAW = Law("X", (), "k")
BATCH = Var("batch", ("m",))  # only its length is read: the batch size m
MOMENT_SIZES = {"k": (1, 3), "m": (2, 5)}


def _population_var(xp, X):
    return xp.var(lambda xp, B: B[0], X, 1)


def _bessel(xp, B):
    return xp.sum((B - xp.mean(B)) ** 2) / (B.shape[0] - 1)


UNBIASED_SAMPLE_VARIANCE = Claim(
    id="published/folklore/bessel",
    source="Bessel's correction (any statistics text); the reason for m/(m − 1) in Ioffe & Szegedy 2015, Algorithm 2",
    statement=r"\mathrm{E}\Big[\frac{1}{m-1}\sum_b (x_b - \mu_B)^2\Big] = \mathrm{Var}\,X",
    kind="identity", variables=(XLAW, BATCH), sizes=MOMENT_SIZES,
    reading="A batch of m i.i.d. draws of X (any finite law).",
    residual=lambda xp, X, batch: xp.expect(_bessel, X, batch.shape[0]) - _population_var(xp, X),
)

VARIANCE_OF_MEAN = Claim(
    id="published/folklore/variance-of-batch-mean",
    source="the variance of a sample mean (any statistics text); Var(μ_B) in the BN noise analyses",
    statement=r"\mathrm{Var}(\mu_B) = \frac{\mathrm{Var}\,X}{m}",
    kind="identity", variables=(XLAW, BATCH), sizes=MOMENT_SIZES,
    reading="μ_B the mean of m i.i.d. draws of X.",
    residual=lambda xp, X, batch: xp.var(lambda xp, B: xp.mean(B), X, batch.shape[0])
    - _population_var(xp, X) / batch.shape[0],
)
