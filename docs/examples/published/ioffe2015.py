"""Ioffe & Szegedy (2015), Batch Normalization: Accelerating Deep Network Training by
Reducing Internal Covariate Shift, ICML 2015 (arXiv:1502.03167).

True statements of the paper, written as a reader of the paper would write them: a
held-out proxy of issue 23's measurement (bench/heldout.py), not a gallery file.
Pages are those of the arXiv version (v3); the section is the reliable locator.

Notation of Algorithm 1 (p. 3): a mini-batch B = {x_1 … x_m} of one activation,
μ_B = (1/m) Σ x_i, σ²_B = (1/m) Σ (x_i − μ_B)², x̂_i = (x_i − μ_B)/√(σ²_B + ε),
y_i = γ x̂_i + β.  The backward pass (Section 3, p. 4) is stated for any loss ℓ; a
claim needs a concrete one, so ℓ is either the linear loss ℓ = Σ g_i y_i (whose
∂ℓ/∂y_i = g_i is an arbitrary vector, so nothing is lost) or the squared loss
ℓ = ½ Σ (y_i − t_i)², whose ∂ℓ/∂y_i = y_i − t_i.
"""

from bnproof.claims import Claim, Law, Var

PAPER = "Ioffe & Szegedy 2015, Batch Normalization: Accelerating Deep Network Training by Reducing Internal Covariate Shift"
X = Var("x", ("m",))
G = Var("g", ("m",))
T = Var("t", ("m",))
GAMMA, BETA = Var("gamma"), Var("beta")
EPS = Var("eps", (), "positive")
SIZES = {"m": (2, 5)}


def bn_stats(xp, x):
    mu = xp.mean(x)
    return mu, xp.mean((x - mu) ** 2)


def xhat(xp, x, eps):
    mu, var = bn_stats(xp, x)
    return (x - mu) / xp.sqrt(var + eps)


def bn(xp, x, gamma, beta, eps):
    return gamma * xhat(xp, x, eps) + beta


def squared_loss(xp, y, t):
    return xp.sum((y - t) ** 2) / 2


def spread(xp, x, **_):
    mu = xp.mean(x)
    return xp.mean((x - mu) ** 2)


# ∂ℓ/∂x̂_i = ∂ℓ/∂y_i · γ
def _dl_dxhat(xp, x, t, gamma, beta, eps):
    xh = xhat(xp, x, eps)
    lhs = xp.grad(lambda u: squared_loss(xp, gamma * u + beta, t), xh)
    dl_dy = gamma * xh + beta - t
    return xp.sum((lhs - dl_dy * gamma) ** 2)


DL_DXHAT = Claim(
    id="published/ioffe2015/dl-dxhat",
    source=PAPER + ", Section 3, backpropagation formulas, p. 4",
    statement=r"\frac{\partial \ell}{\partial \hat{x}_i} = \frac{\partial \ell}{\partial y_i} \cdot \gamma",
    reading="ℓ = ½ Σ (y_i − t_i)², y_i = γ x̂_i + β; the gradient is taken in x̂ as an independent "
            "vector, at the x̂ of the batch; the identity is read on the whole batch as Σ_i (lhs_i − rhs_i)² = 0.",
    kind="identity", variables=(X, T, GAMMA, BETA, EPS), sizes=SIZES,
    residual=_dl_dxhat,
)


# ∂ℓ/∂σ²_B = Σ ∂ℓ/∂x̂_i · (x_i − μ_B) · (−1/2)(σ²_B + ε)^(−3/2)
def _loss_of_var(xp, x, g, gamma, beta, eps):
    mu = xp.mean(x)
    return lambda v: xp.sum(g * (gamma * (x - mu) / xp.sqrt(v + eps) + beta))


def _dl_dvar(xp, x, g, gamma, beta, eps):
    mu, var = bn_stats(xp, x)
    dxhat = g * gamma
    return xp.sum(dxhat * (x - mu)) * (-xp.q(1, 2)) / xp.sqrt(var + eps) ** 3


DL_DVAR = Claim(
    id="published/ioffe2015/dl-dvar",
    source=PAPER + ", Section 3, backpropagation formulas, p. 4",
    statement=(r"\frac{\partial \ell}{\partial \sigma_B^2} = \sum_{i=1}^{m} \frac{\partial \ell}{\partial \hat{x}_i}"
               r" \cdot (x_i - \mu_B) \cdot \frac{-1}{2} (\sigma_B^2 + \epsilon)^{-3/2}"),
    reading="ℓ = Σ g_i y_i (g = ∂ℓ/∂y arbitrary), so ∂ℓ/∂x̂_i = γ g_i; σ²_B is a node of the graph: ℓ is "
            "differentiated in it with μ_B held fixed, at the batch's σ²_B.",
    kind="identity", variables=(X, G, GAMMA, BETA, EPS), sizes=SIZES,
    residual=lambda xp, x, g, gamma, beta, eps: xp.grad(_loss_of_var(xp, x, g, gamma, beta, eps),
                                                        bn_stats(xp, x)[1])
    - _dl_dvar(xp, x, g, gamma, beta, eps),
)


# ∂ℓ/∂μ_B = (Σ ∂ℓ/∂x̂_i · −1/√(σ²_B + ε)) + ∂ℓ/∂σ²_B · Σ −2(x_i − μ_B) / m
def _loss_of_mean(xp, x, g, gamma, beta, eps):
    def loss(u):
        var = xp.mean((x - u) ** 2)
        return xp.sum(g * (gamma * (x - u) / xp.sqrt(var + eps) + beta))
    return loss


def _dl_dmean(xp, x, g, gamma, beta, eps):
    mu, var = bn_stats(xp, x)
    m = x.shape[0]
    dxhat = g * gamma
    return (xp.sum(dxhat * -1 / xp.sqrt(var + eps))
            + _dl_dvar(xp, x, g, gamma, beta, eps) * xp.sum(-2 * (x - mu)) / m)


DL_DMEAN = Claim(
    id="published/ioffe2015/dl-dmean",
    source=PAPER + ", Section 3, backpropagation formulas, p. 4",
    statement=(r"\frac{\partial \ell}{\partial \mu_B} = \left( \sum_{i=1}^{m} \frac{\partial \ell}{\partial \hat{x}_i}"
               r" \cdot \frac{-1}{\sqrt{\sigma_B^2 + \epsilon}} \right) + \frac{\partial \ell}{\partial \sigma_B^2}"
               r" \cdot \frac{\sum_{i=1}^{m} -2(x_i - \mu_B)}{m}"),
    reading="ℓ = Σ g_i y_i; μ_B is a node of the graph and σ²_B = (1/m) Σ (x_i − μ_B)² depends on it, so "
            "ℓ(u) uses σ²(u) = (1/m) Σ (x_i − u)², differentiated at u = μ_B.",
    kind="identity", variables=(X, G, GAMMA, BETA, EPS), sizes=SIZES,
    residual=lambda xp, x, g, gamma, beta, eps: xp.grad(_loss_of_mean(xp, x, g, gamma, beta, eps), xp.mean(x))
    - _dl_dmean(xp, x, g, gamma, beta, eps),
)


# ∂ℓ/∂x_i = ∂ℓ/∂x̂_i · 1/√(σ² + ε) + ∂ℓ/∂σ² · 2(x_i − μ)/m + ∂ℓ/∂μ · 1/m
def _dl_dx(xp, x, g, gamma, beta, eps):
    mu, var = bn_stats(xp, x)
    m = x.shape[0]
    lhs = xp.grad(lambda u: xp.sum(g * bn(xp, u, gamma, beta, eps)), x)
    rhs = (g * gamma / xp.sqrt(var + eps) + _dl_dvar(xp, x, g, gamma, beta, eps) * 2 * (x - mu) / m
           + _dl_dmean(xp, x, g, gamma, beta, eps) / m)
    return xp.sum((lhs - rhs) ** 2)


DL_DX = Claim(
    id="published/ioffe2015/dl-dx",
    source=PAPER + ", Section 3, backpropagation formulas, p. 4",
    statement=(r"\frac{\partial \ell}{\partial x_i} = \frac{\partial \ell}{\partial \hat{x}_i} \cdot "
               r"\frac{1}{\sqrt{\sigma_B^2 + \epsilon}} + \frac{\partial \ell}{\partial \sigma_B^2} \cdot "
               r"\frac{2(x_i - \mu_B)}{m} + \frac{\partial \ell}{\partial \mu_B} \cdot \frac{1}{m}"),
    reading="ℓ = Σ g_i BN_{γ,β}(x)_i, differentiated in the whole batch x (μ_B and σ²_B moving with it); "
            "∂ℓ/∂σ²_B and ∂ℓ/∂μ_B are the paper's formulas above; read as Σ_i (lhs_i − rhs_i)² = 0.",
    kind="identity", variables=(X, G, GAMMA, BETA, EPS), sizes=SIZES,
    residual=_dl_dx,
)


def _dl_dgamma(xp, x, t, gamma, beta, eps):
    xh = xhat(xp, x, eps)
    lhs = xp.grad(lambda c: squared_loss(xp, c * xh + beta, t), gamma)
    return lhs - xp.sum((gamma * xh + beta - t) * xh)


DL_DGAMMA = Claim(
    id="published/ioffe2015/dl-dgamma",
    source=PAPER + ", Section 3, backpropagation formulas, p. 4",
    statement=r"\frac{\partial \ell}{\partial \gamma} = \sum_{i=1}^{m} \frac{\partial \ell}{\partial y_i} \cdot \hat{x}_i",
    reading="ℓ = ½ Σ (y_i − t_i)², so ∂ℓ/∂y_i = y_i − t_i.",
    kind="identity", variables=(X, T, GAMMA, BETA, EPS), sizes=SIZES,
    residual=_dl_dgamma,
)

DL_DBETA = Claim(
    id="published/ioffe2015/dl-dbeta",
    source=PAPER + ", Section 3, backpropagation formulas, p. 4",
    statement=r"\frac{\partial \ell}{\partial \beta} = \sum_{i=1}^{m} \frac{\partial \ell}{\partial y_i}",
    reading="ℓ = ½ Σ (y_i − t_i)², so ∂ℓ/∂y_i = y_i − t_i.",
    kind="identity", variables=(X, T, GAMMA, BETA, EPS), sizes=SIZES,
    residual=lambda xp, x, t, gamma, beta, eps: xp.grad(
        lambda b: squared_loss(xp, gamma * xhat(xp, x, eps) + b, t), beta)
    - xp.sum(bn(xp, x, gamma, beta, eps) - t),
)


# Inference: y = γ/√(Var[x] + ε) · x + (β − γ E[x]/√(Var[x] + ε)), a linear transform
def _inference_affine(xp, x, Ex, Varx, gamma, beta, eps):
    test_mode = gamma * (x - Ex) / xp.sqrt(Varx + eps) + beta
    scale = gamma / xp.sqrt(Varx + eps)
    shift = beta - gamma * Ex / xp.sqrt(Varx + eps)
    return xp.sum((test_mode - (scale * x + shift)) ** 2)


INFERENCE_AFFINE = Claim(
    id="published/ioffe2015/inference-affine",
    source=PAPER + ", Section 3.1, p. 4 (BN at inference is a linear transform)",
    statement=(r"y = \frac{\gamma}{\sqrt{\mathrm{Var}[x] + \epsilon}} \cdot x + \left(\beta - "
               r"\frac{\gamma\, \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] + \epsilon}}\right)"),
    reading="At inference x̂ = (x − E[x])/√(Var[x] + ε) with the population statistics E[x], Var[x] ≥ 0 "
            "(fixed numbers); x is a vector of m test inputs, each mapped on its own.",
    kind="identity",
    variables=(X, Var("Ex"), Var("Varx", (), "positive"), GAMMA, BETA, EPS), sizes=SIZES,
    residual=_inference_affine,
)

XHAT_SUMS_TO_ZERO = Claim(
    id="published/ioffe2015/xhat-zero-mean",
    source=PAPER + ", Section 3, p. 3 (the normalized values have zero mean)",
    statement=r"\sum_{i=1}^{m} \hat{x}_i = 0",
    reading="x̂_i = (x_i − μ_B)/√(σ²_B + ε) with ε > 0, as in Algorithm 1.",
    kind="identity", variables=(X, EPS), sizes=SIZES,
    residual=lambda xp, x, eps: xp.sum(xhat(xp, x, eps)),
)

XHAT_UNIT_VARIANCE = Claim(
    id="published/ioffe2015/xhat-unit-variance",
    source=PAPER + ", Section 3, p. 3 (x̂ has mean 0 and variance 1 when ε is neglected)",
    statement=r"\frac{1}{m} \sum_{i=1}^{m} \hat{x}_i^2 = 1 \quad (\epsilon = 0)",
    reading="ε ignored (ε = 0), on a batch with σ²_B > 0.",
    kind="identity", variables=(X,), sizes=SIZES, hypotheses=(spread,),
    residual=lambda xp, x: xp.mean(xhat(xp, x, 0) ** 2) - 1,
)

XHAT_VARIANCE_WITH_EPS = Claim(
    id="published/ioffe2015/xhat-variance-eps",
    source=PAPER + ", Section 3, p. 3 (unit variance up to ε)",
    statement=r"\frac{1}{m} \sum_{i=1}^{m} \hat{x}_i^2 = \frac{\sigma_B^2}{\sigma_B^2 + \epsilon}",
    reading="The exact variance of x̂ when ε is kept.",
    kind="identity", variables=(X, EPS), sizes=SIZES,
    residual=lambda xp, x, eps: xp.mean(xhat(xp, x, eps) ** 2) - spread(xp, x) / (spread(xp, x) + eps),
)

XHAT_VARIANCE_AT_MOST_ONE = Claim(
    id="published/ioffe2015/xhat-variance-at-most-one",
    source=PAPER + ", Section 3, p. 3 (unit variance up to ε: ε only shrinks it)",
    statement=r"\frac{1}{m} \sum_{i=1}^{m} \hat{x}_i^2 \le 1",
    reading="With ε > 0 the variance of x̂ is σ²/(σ² + ε) ≤ 1.",
    kind="inequality", variables=(X, EPS), sizes=SIZES,
    residual=lambda xp, x, eps: 1 - xp.mean(xhat(xp, x, eps) ** 2),
)

U = Var("U", ("m", "d"))
W = Var("w", ("d",))
D_SIZES = {"m": (2, 5), "d": (1, 3)}


def _unit_spread(xp, U, w, **_):
    return spread(xp, U @ w)


BIAS_CANCELLED = Claim(
    id="published/ioffe2015/bias-cancelled",
    source=PAPER + ", Section 3.2, p. 5 (the bias b can be ignored: BN(Wu + b) = BN(Wu))",
    statement=r"\mathrm{BN}(Wu + b) = \mathrm{BN}(Wu)",
    reading="One unit: its weights w (length d), a batch U of m inputs u (rows), bias b; BN with ε.",
    kind="identity", variables=(U, W, Var("b"), EPS), sizes=D_SIZES,
    residual=lambda xp, U, w, b, eps: xp.sum((xhat(xp, U @ w + b, eps) - xhat(xp, U @ w, eps)) ** 2),
)

SCALE_INVARIANT = Claim(
    id="published/ioffe2015/scale-invariant",
    source=PAPER + ", Section 3.3, p. 5",
    statement=r"\mathrm{BN}(Wu) = \mathrm{BN}((aW)u)",
    reading="One unit with weights w and a scalar a > 0 (for a < 0 the sign flips); BN without ε (the "
            "paper's statement ignores it), on a batch with σ² > 0.",
    kind="identity", variables=(U, W, Var("a", (), "positive")), sizes=D_SIZES, hypotheses=(_unit_spread,),
    residual=lambda xp, U, w, a: xp.sum((xhat(xp, U @ (a * w), 0) - xhat(xp, U @ w, 0)) ** 2),
)


def _bn_loss(xp, U, g):
    return lambda v: xp.sum(g * xhat(xp, U @ v, 0))


SCALE_WEIGHT_GRADIENT = Claim(
    id="published/ioffe2015/scale-weight-gradient",
    source=PAPER + ", Section 3.3, p. 5 (\"larger weights lead to smaller gradients\")",
    statement=r"\frac{\partial \mathrm{BN}((aW)u)}{\partial (aW)} = \frac{1}{a} \cdot \frac{\partial \mathrm{BN}(Wu)}{\partial W}",
    reading="Contracted with an arbitrary upstream gradient g: ∇ of Σ g_i BN(Uv)_i at v = a·w equals 1/a "
            "times it at v = w; a > 0; read as Σ_k (lhs_k − rhs_k)² = 0.",
    kind="identity", variables=(U, G, W, Var("a", (), "positive")), sizes=D_SIZES, hypotheses=(_unit_spread,),
    residual=lambda xp, U, g, w, a: xp.sum((xp.grad(_bn_loss(xp, U, g), a * w)
                                            - xp.grad(_bn_loss(xp, U, g), w) / a) ** 2),
)


def _input_gradient(xp, U, g, w, a):
    at_aw = xp.grad(lambda V: xp.sum(g * xhat(xp, V @ (a * w), 0)), U)
    at_w = xp.grad(lambda V: xp.sum(g * xhat(xp, V @ w, 0)), U)
    return xp.sum((at_aw - at_w) ** 2)


SCALE_INPUT_GRADIENT = Claim(
    id="published/ioffe2015/scale-input-gradient",
    source=PAPER + ", Section 3.3, p. 5 (\"the scale does not affect the layer Jacobian\")",
    statement=r"\frac{\partial \mathrm{BN}((aW)u)}{\partial u} = \frac{\partial \mathrm{BN}(Wu)}{\partial u}",
    reading="Contracted with an arbitrary upstream gradient g; the gradient is in the whole input batch U "
            "(m × d); a > 0.",
    kind="identity", variables=(U, G, W, Var("a", (), "positive")), sizes=D_SIZES, hypotheses=(_unit_spread,),
    residual=_input_gradient,
)

XLAW = Law("X", (), "k")
BATCH = Var("batch", ("m",))  # only its length is read: the mini-batch size m
MOMENT_SIZES = {"k": (1, 3), "m": (2, 5)}


def _batch_var(xp, B):
    return xp.mean((B - xp.mean(B)) ** 2)


def _population_var(xp, X):
    return xp.var(lambda xp, B: B[0], X, 1)


UNBIASED_VARIANCE = Claim(
    id="published/ioffe2015/unbiased-variance",
    source=PAPER + ", Section 3.1, p. 4 (Algorithm 2, step 10)",
    statement=r"\mathrm{Var}[x] = \frac{m}{m-1} \cdot \mathrm{E}_{\mathcal{B}}[\sigma_{\mathcal{B}}^2]",
    reading="x a random variable (any finite law X); B a mini-batch of m i.i.d. draws; σ²_B the biased batch "
            "variance of Algorithm 1.",
    kind="identity", variables=(XLAW, BATCH), sizes=MOMENT_SIZES,
    residual=lambda xp, X, batch: _population_var(xp, X)
    - batch.shape[0] * xp.expect(_batch_var, X, batch.shape[0]) / (batch.shape[0] - 1),
)

POPULATION_MEAN = Claim(
    id="published/ioffe2015/population-mean",
    source=PAPER + ", Section 3.1, p. 4 (Algorithm 2, step 10: E[x] ← E_B[μ_B])",
    statement=r"\mathrm{E}[x] = \mathrm{E}_{\mathcal{B}}[\mu_{\mathcal{B}}]",
    reading="x a random variable; B a mini-batch of m i.i.d. draws.",
    kind="identity", variables=(XLAW, BATCH), sizes=MOMENT_SIZES,
    residual=lambda xp, X, batch: xp.expect(lambda xp, B: B[0], X, 1)
    - xp.expect(lambda xp, B: xp.mean(B), X, batch.shape[0]),
)
