"""Gradients with respect to scalars and fixed-length parameter vectors, proved for
every batch size m (docs/claims.md, "Proofs for every m"), and their near misses,
refuted.

``xp.grad(f, c)`` for a scalar input c (γ, β, a scale c, a variance s2) and
``xp.grad(f, w)`` for a parameter vector w of a fixed length d are in the every-m
fragment: the prover differentiates the normal form by the chain rule over its atoms
(c itself, and each root r through its radicand: ∂r = ∂(radicand)/(2r); a batch sum
does not depend on a scalar), and the independent checker differentiates its own
normal form again, by its own code.  A vector w of length d is d scalar inputs
w:0, …, w:d−1: its gradient is their d partial derivatives.  At a computed point
(``xp.grad(L, c * w)``: ∇L at c·w), or for a function that reads its variable from
outside, the tracer differentiates the function's recorded steps in forward mode and
writes the derivative as ordinary steps, which the checker replays and the second
reading compares with the claim's own code; at a computed batch vector (``xp.grad(ℓ,
X @ w)``), in reverse mode.

True, proved for every m (fuzz: survived, with the note "proved for every m" and the
proof's certificate):

* GAMMA: ∂L/∂γ = Σ_b g_b ŷ_b for L = Σ_b g_b (γ ŷ_b + β), ŷ = BN(y) (Ioffe & Szegedy
  2015, §3, backpropagation through BN: ∂ℓ/∂γ = Σ ∂ℓ/∂y_i · x̂_i).
* BETA: ∂L/∂β = Σ_b g_b (the same, ∂ℓ/∂β = Σ ∂ℓ/∂y_i).
* GAMMA_SQUARED_LOSS: ∂ℓ/∂γ = Σ (∂ℓ/∂z_b) ŷ_b for the squared loss
  ℓ = ½ Σ (γ ŷ_b + β − t_b)², where ∂ℓ/∂z_b = z_b − t_b.
* GAMMA_CURVATURE: ∂²ℓ/∂γ² = Σ ŷ_b² = m for the same loss (a nested xp.grad).
* VARIANCE: ∂ℓ/∂σ² = Σ ∂ℓ/∂x̂_b · (x_b − μ) · (−½)(σ² + ε)^(−3/2) for
  ℓ = Σ g_b (x_b − μ)/√(σ² + ε), with μ and σ² free scalars (Ioffe & Szegedy 2015,
  Algorithm's backward pass: ∂ℓ/∂σ²_B).
* MEAN: ∂ℓ/∂μ = Σ ∂ℓ/∂x̂_b · (−1/√(σ² + ε)) + ∂ℓ/∂σ² · (−2/m) Σ (x_b − μ), where
  ℓ(μ) = Σ g_b (x_b − μ)/√(σ²(μ) + ε) and σ²(μ) = (1/m) Σ (x_b − μ)² (their ∂ℓ/∂μ_B,
  the variance's dependence on μ included).
* SCALE_INVARIANCE: ∂L/∂c = 0 for L(c) = Σ_b g_b BN(c·y)_b, c > 0 (BN ignores the scale
  of its input, so the loss is flat along it).
* EULER: ⟨∇_w L(w), w⟩ = 0 for L(w) = Σ_b g_b BN(Xw)_b, X of shape (m, d) (Arora, Li
  & Lyu 2019; van Laarhoven 2017: the gradient of a scale-invariant loss is orthogonal
  to the weights), for d = 1, 2, 3.
* NORM_GROWTH: ‖w − η∇L(w)‖² = ‖w‖² + η²‖∇L(w)‖² for the same L (Arora, Li & Lyu
  2019, Lemma 2.4: a gradient step on a scale-invariant loss never shrinks w).
* EFFECTIVE_LR: ∇L(c·w) = ∇L(w)/c for c > 0 and the same L (van Laarhoven 2017;
  Hoffer et al. 2018: the effective learning rate of a scale-invariant weight is
  η/‖w‖²).
* WEIGHT_NORM_GAIN: ∇_g L = ∇_w L · v/‖v‖ for w = g·v/‖v‖ (Salimans & Kingma 2016,
  Eq. 3), L(w) = ‖Xw − t‖².
* WEIGHT_NORM_DIRECTION: ∇_v L = (g/‖v‖) M_w ∇_w L, M_w = I − w wᵀ/‖w‖² (their Eq. 4).
* BACKPROP_LINEAR: ∇_w ℓ(Xw) = Xᵀ ∇_z ℓ(z) at z = Xw, ℓ(z) = Σ g·BN(z) (the chain
  rule through a linear layer).
* BN_INPUT_GRADIENT: ∇_z Σ g·BN(z) = (g − ḡ − ŷ·mean(g∘ŷ))/σ at the batch z = Xw
  (Ioffe & Szegedy 2015, ∂ℓ/∂x_i).

Near misses, refuted with a certificate:

* GAMMA_UNNORMALIZED: ∂L/∂γ = Σ g_b y_b (the raw batch for the normalized one).
* BETA_WRONG_SIGN: ∂L/∂β = −Σ g_b.
* SCALE_ONE: ∂L/∂c = 1 for the scale-invariant loss.
* EFFECTIVE_LR_SQUARED: ∇L(c·w) = ∇L(w)/c² (true at d = 1 only, where L is flat).
* BN_INPUT_GRADIENT_NO_PROJECTION: the same without the ŷ term (a missing projection).
* WEIGHT_NORM_DIRECTION_UNPROJECTED: the same with M_w = I.
* EULER_PLUS: ⟨∇_w L(w), w⟩ = 0 for L(w) = Σ g_b (BN(Xw)_b + (Xw)_b): the loss is no
  longer scale invariant.

``bnproof prove docs/examples/every_m_grads.py`` proves the true ones for every m;
``bnproof fuzz docs/examples/every_m_grads.py`` refutes the near misses.
"""

from bnproof.claims import Claim, Var

SOURCE = "bnproof docs, every-m gradients example"
IOFFE = "Ioffe & Szegedy 2015, Section 3 (backpropagation through BN)"
Y = Var("y", ("m",))
G = Var("g", ("m",))
GAMMA_VAR, BETA_VAR = Var("gamma"), Var("beta")
SIZES = {"m": (2, 5)}


def _spread(xp, y, **_):
    """V > 0: BN without ε is undefined on a constant batch."""
    return xp.mean((y - xp.mean(y)) ** 2)


def _bn(xp, y):
    mu = xp.mean(y)
    return (y - mu) / xp.sqrt(xp.mean((y - mu) ** 2))


def _affine_loss(xp, y, g, beta):
    """γ ↦ L(γ) = Σ g (γ ŷ + β)."""
    return lambda t: xp.sum(g * (t * _bn(xp, y) + beta))


GAMMA = Claim(
    id="gallery/every_m_grads/gamma",
    source=IOFFE + ": dl/dgamma = sum_i dl/dy_i xhat_i",
    statement=r"\frac{\partial}{\partial\gamma} \sum_b g_b (\gamma\,\hat y_b + \beta) = \sum_b g_b\,\hat y_b",
    title="the gradient of BN's scale γ",
    kind="identity", variables=(Y, G, GAMMA_VAR, BETA_VAR), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, g, gamma, beta: xp.grad(_affine_loss(xp, y, g, beta), gamma)
    - xp.sum(g * _bn(xp, y)),
)


def _shift_loss(xp, y, g, gamma):
    """β ↦ Σ g (γ ŷ + β)."""
    return lambda t: xp.sum(g * (gamma * _bn(xp, y) + t))


BETA = Claim(
    id="gallery/every_m_grads/beta",
    source=IOFFE + ": dl/dbeta = sum_i dl/dy_i",
    statement=r"\frac{\partial}{\partial\beta} \sum_b g_b (\gamma\,\hat y_b + \beta) = \sum_b g_b",
    title="the gradient of BN's shift β",
    kind="identity", variables=(Y, G, GAMMA_VAR, BETA_VAR), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, g, gamma, beta: xp.grad(_shift_loss(xp, y, g, gamma), beta) - xp.sum(g),
)


def _squared(xp, y, t, gamma, beta):
    z = gamma * _bn(xp, y) + beta
    return xp.sum((z - t) ** 2) / 2


GAMMA_SQUARED_LOSS = Claim(
    id="gallery/every_m_grads/gamma-squared-loss",
    source=IOFFE + ", with the squared loss",
    statement=(r"\frac{\partial \ell}{\partial\gamma} = \sum_b (z_b - t_b)\,\hat y_b, \quad "
               r"\ell = \tfrac12 \sum_b (\gamma\,\hat y_b + \beta - t_b)^2"),
    title="∂ℓ/∂γ through a squared loss",
    kind="identity", variables=(Y, Var("t", ("m",)), GAMMA_VAR, BETA_VAR), sizes=SIZES,
    hypotheses=(_spread,),
    residual=lambda xp, y, t, gamma, beta: xp.grad(lambda c: _squared(xp, y, t, c, beta), gamma)
    - xp.sum((gamma * _bn(xp, y) + beta - t) * _bn(xp, y)),
)

GAMMA_CURVATURE = Claim(
    id="gallery/every_m_grads/gamma-curvature",
    source=SOURCE + " (a second derivative: nested xp.grad)",
    statement=(r"\frac{\partial^2 \ell}{\partial\gamma^2} = \sum_b \hat y_b^2 = m, \quad "
               r"\ell = \tfrac12 \sum_b (\gamma\,\hat y_b + \beta - t_b)^2"),
    title="the squared loss's curvature in γ is m",
    kind="identity", variables=(Y, Var("t", ("m",)), GAMMA_VAR, BETA_VAR), sizes=SIZES,
    hypotheses=(_spread,),
    residual=lambda xp, y, t, gamma, beta: xp.grad(
        lambda c: xp.grad(lambda u: _squared(xp, y, t, u, beta), c), gamma) - y.shape[0],
)

X_VAR = Var("x", ("m",))
MU, S2, EPS = Var("mu"), Var("s2", (), "positive"), Var("eps", (), "positive")


def _centred_loss(xp, x, g, mu, s2, eps):
    return xp.sum(g * (x - mu)) / xp.sqrt(s2 + eps)


def _dl_ds2(xp, x, g, mu, s2, eps):
    """Ioffe & Szegedy's ∂ℓ/∂σ²: Σ ∂ℓ/∂x̂ (x − μ) (−½)(σ² + ε)^(−3/2)."""
    return xp.sum(g * (x - mu)) * (-xp.q(1, 2)) / xp.sqrt(s2 + eps) ** 3


VARIANCE = Claim(
    id="gallery/every_m_grads/variance",
    source=IOFFE + ": dl/dsigma2_B",
    statement=(r"\frac{\partial \ell}{\partial \sigma^2} = \sum_b g_b (x_b - \mu)\,"
               r"\bigl(-\tfrac12\bigr)(\sigma^2 + \varepsilon)^{-3/2}, \quad "
               r"\ell = \sum_b g_b \frac{x_b - \mu}{\sqrt{\sigma^2 + \varepsilon}}"),
    title="∂ℓ/∂σ²_B of the backward pass",
    kind="identity", variables=(X_VAR, G, MU, S2, EPS), sizes=SIZES,
    residual=lambda xp, x, g, mu, s2, eps: xp.grad(lambda v: _centred_loss(xp, x, g, mu, v, eps), s2)
    - _dl_ds2(xp, x, g, mu, s2, eps),
)


def _loss_of_mu(xp, x, g, mu, eps):
    return _centred_loss(xp, x, g, mu, xp.mean((x - mu) ** 2), eps)


MEAN = Claim(
    id="gallery/every_m_grads/mean",
    source=IOFFE + ": dl/dmu_B",
    statement=(r"\frac{d\ell}{d\mu} = \sum_b \frac{\partial\ell}{\partial\hat x_b}"
               r"\frac{-1}{\sqrt{\sigma^2+\varepsilon}} + \frac{\partial\ell}{\partial\sigma^2}"
               r"\,\frac{-2}{m}\sum_b (x_b - \mu), \quad \sigma^2 = \tfrac1m \sum_b (x_b-\mu)^2"),
    title="∂ℓ/∂μ_B, the variance's dependence on μ included",
    kind="identity", variables=(X_VAR, G, MU, EPS), sizes=SIZES,
    residual=lambda xp, x, g, mu, eps: xp.grad(lambda u: _loss_of_mu(xp, x, g, u, eps), mu)
    - (xp.sum(g) * -1 / xp.sqrt(xp.mean((x - mu) ** 2) + eps)
       + _dl_ds2(xp, x, g, mu, xp.mean((x - mu) ** 2), eps) * (-2) * xp.mean(x - mu)),
)


def _scaled_loss(xp, y, g):
    return lambda c: xp.sum(g * _bn(xp, c * y))


SCALE_INVARIANCE = Claim(
    id="gallery/every_m_grads/scale-invariance",
    source="Ioffe & Szegedy 2015, Section 3.3 (BN(aWu) = BN(Wu)), differentiated in a > 0",
    statement=r"\frac{\partial}{\partial c} \sum_b g_b\,\mathrm{BN}(c\,y)_b = 0 \quad (c > 0)",
    title="a scale-invariant loss is flat along the scale",
    kind="identity", variables=(Y, G, Var("c", (), "positive")), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, g, c: xp.grad(_scaled_loss(xp, y, g), c),
)

X = Var("X", ("m", "d"))
W = Var("w", ("d",))
D_SIZES = {"m": (2, 5), "d": (1, 3)}


def _projection_spread(xp, X, w, **_):
    return _spread(xp, X @ w)


def _euler(loss):
    def residual(xp, X, g, w):
        return xp.dot(xp.grad(lambda v: loss(xp, X, g, v), w), w)
    return residual


EULER = Claim(
    id="gallery/every_m_grads/euler",
    source="Arora, Li & Lyu 2019, Lemma 2.4; van Laarhoven 2017 (the gradient of a scale-invariant "
           "loss is orthogonal to w)",
    statement=r"\langle \nabla_w L(w), w \rangle = 0, \quad L(w) = \sum_b g_b\,\mathrm{BN}(Xw)_b",
    title="the gradient of BN's weights is orthogonal to them",
    kind="identity", variables=(X, G, W), sizes=D_SIZES, hypotheses=(_projection_spread,),
    residual=_euler(lambda xp, X, g, w: xp.sum(g * _bn(xp, X @ w))),
)

def _norm_growth(xp, X, g, w, eta):
    grad = xp.grad(lambda v: xp.sum(g * _bn(xp, X @ v)), w)
    step = w - eta * grad
    return xp.dot(step, step) - (xp.dot(w, w) + eta**2 * xp.dot(grad, grad))


NORM_GROWTH = Claim(
    id="gallery/every_m_grads/norm-growth",
    source="Arora, Li & Lyu 2019, Lemma 2.4 (one gradient-descent step on a scale-invariant loss)",
    statement=(r"\lVert w - \eta \nabla L(w) \rVert^2 = \lVert w \rVert^2 + \eta^2 \lVert \nabla L(w)"
               r"\rVert^2, \quad L(w) = \sum_b g_b\,\mathrm{BN}(Xw)_b"),
    title="a gradient step on a scale-invariant loss only grows the weights",
    kind="identity", variables=(X, G, W, Var("eta")), sizes=D_SIZES, hypotheses=(_projection_spread,),
    residual=_norm_growth,
)

def _bn_loss(xp, X, g):
    return lambda v: xp.sum(g * _bn(xp, X @ v))


def _scaled_gradient(power):
    """Σ_k (∇L(c·w)_k − ∇L(w)_k / c^power)²."""
    def residual(xp, X, g, w, c):
        at_cw = xp.grad(_bn_loss(xp, X, g), c * w)
        at_w = xp.grad(_bn_loss(xp, X, g), w)
        return xp.sum((at_cw - at_w / c**power) ** 2)
    return residual


def _scaled_spread(xp, X, w, **_):
    return _spread(xp, X @ w)


EFFECTIVE_LR = Claim(
    id="gallery/every_m_grads/effective-learning-rate",
    source="van Laarhoven 2017, Eq. 9; Hoffer et al. 2018 (the gradient of a scale-invariant loss "
           "scales as 1/c, so the effective learning rate is eta/||w||^2)",
    statement=r"\nabla L(c\,w) = \tfrac1c\,\nabla L(w) \quad (c > 0), \quad L(w) = \sum_b g_b\,\mathrm{BN}(Xw)_b",
    title="the gradient at a rescaled point",
    kind="identity", variables=(X, G, W, Var("c", (), "positive")), sizes=D_SIZES,
    hypotheses=(_scaled_spread,), residual=_scaled_gradient(1),
)


def _squared_error(xp, X, t):
    return lambda u: xp.sum((X @ u - t) ** 2)


def _weight_norm_g(xp, X, t, v, gain):
    norm = xp.sqrt(xp.dot(v, v))
    left = xp.grad(lambda s: _squared_error(xp, X, t)(s * v / norm), gain)
    right = xp.dot(xp.grad(_squared_error(xp, X, t), gain * v / norm), v) / norm
    return left - right


WEIGHT_NORM_GAIN = Claim(
    id="gallery/every_m_grads/weight-norm-gain",
    source="Salimans & Kingma 2016, Eq. 3 (grad_g L = grad_w L . v/||v||)",
    statement=(r"\nabla_g L = \frac{\nabla_w L \cdot v}{\lVert v \rVert}, \quad w = g\,\frac{v}{\lVert v \rVert},"
               r"\quad L(w) = \lVert Xw - t \rVert^2"),
    title="weight normalization's gradient in the gain",
    kind="identity", variables=(X, Var("t", ("m",)), Var("v", ("d",)), Var("gain")), sizes=D_SIZES,
    hypotheses=(lambda xp, v, **_: xp.dot(v, v),), residual=_weight_norm_g,
)

def _weight_norm_v(projection):
    """Σ_k (∇_v L − (g/‖v‖) M_w ∇_w L)_k², M_w = I − w wᵀ/‖w‖², w = g v/‖v‖ (M_w = I
    without the projection)."""
    def residual(xp, X, t, v, gain):
        norm = xp.sqrt(xp.dot(v, v))
        w = gain * v / norm
        through = xp.grad(lambda u: _squared_error(xp, X, t)(gain * u / xp.sqrt(xp.dot(u, u))), v)
        at_w = xp.grad(_squared_error(xp, X, t), w)
        projected = at_w - w * xp.dot(w, at_w) / xp.dot(w, w) if projection else at_w
        return xp.sum((through - gain / norm * projected) ** 2)
    return residual


WEIGHT_NORM_DIRECTION = Claim(
    id="gallery/every_m_grads/weight-norm-direction",
    source="Salimans & Kingma 2016, Eq. 4 (grad_v L = g/||v|| M_w grad_w L)",
    statement=(r"\nabla_v L = \frac{g}{\lVert v \rVert}\Bigl(I - \frac{w w^\top}{\lVert w \rVert^2}\Bigr)"
               r"\nabla_w L, \quad w = g\,\frac{v}{\lVert v \rVert}, \quad L(w) = \lVert Xw - t \rVert^2"),
    title="weight normalization's gradient in the direction",
    kind="identity", variables=(X, Var("t", ("m",)), Var("v", ("d",)), Var("gain")),
    sizes=D_SIZES, hypotheses=(lambda xp, v, **_: xp.dot(v, v),), residual=_weight_norm_v(True),
)


def _backprop_linear(xp, X, g, w):
    """Σ_k (∇_w L(w) − Xᵀ ∇ℓ(z)|_{z = Xw})_k², L(w) = ℓ(Xw), ℓ(z) = Σ g·BN(z)."""
    through = xp.grad(lambda v: xp.sum(g * _bn(xp, X @ v)), w)
    chained = X.T @ xp.grad(lambda z: xp.sum(g * _bn(xp, z)), X @ w)
    return xp.sum((through - chained) ** 2)


BACKPROP_LINEAR = Claim(
    id="gallery/every_m_grads/backprop-linear",
    source="the chain rule through a linear layer (backpropagation), into BN",
    statement=(r"\nabla_w\, \ell(Xw) = X^\top\, \nabla_z \ell(z)\big|_{z = Xw}, \quad "
               r"\ell(z) = \sum_b g_b\,\mathrm{BN}(z)_b"),
    title="backpropagation through a linear layer into BN",
    kind="identity", variables=(X, G, W), sizes=D_SIZES, hypotheses=(_projection_spread,),
    residual=_backprop_linear,
)


def _input_gradient(projection):
    """Σ_b (∇_z ℓ(z)|_{z = Xw} − (g − ḡ − ŷ·mean(g∘ŷ))/σ)², ŷ = BN(Xw); without the ŷ term
    when projection is False."""
    def residual(xp, X, g, w):
        z = X @ w
        yhat, sigma = _bn(xp, z), xp.sqrt(_spread(xp, z))
        at = xp.grad(lambda u: xp.sum(g * _bn(xp, u)), z)
        formula = g - xp.mean(g) - (yhat * xp.mean(g * yhat) if projection else 0)
        return xp.sum((at - formula / sigma) ** 2)
    return residual


BN_INPUT_GRADIENT = Claim(
    id="gallery/every_m_grads/bn-input-gradient",
    source=IOFFE + ": dl/dx_i, at the batch z = Xw",
    statement=(r"\nabla_z \sum_b g_b\,\mathrm{BN}(z)_b = \frac{1}{\sigma}\Bigl(g - \bar g - \hat z\,"
               r"\tfrac1m \textstyle\sum_b g_b \hat z_b\Bigr), \quad z = Xw"),
    title="BN's input gradient at a computed batch",
    kind="identity", variables=(X, G, W), sizes=D_SIZES, hypotheses=(_projection_spread,),
    residual=_input_gradient(True),
)

GAMMA_UNNORMALIZED = Claim(
    id="gallery/every_m_grads/gamma-unnormalized",
    source=IOFFE + " (a false claim: the raw batch for the normalized one)",
    statement=r"\frac{\partial}{\partial\gamma} \sum_b g_b (\gamma\,\hat y_b + \beta) = \sum_b g_b\,y_b",
    title="∂L/∂γ with y for ŷ (false)",
    kind="identity", variables=(Y, G, GAMMA_VAR, BETA_VAR), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, g, gamma, beta: xp.grad(_affine_loss(xp, y, g, beta), gamma) - xp.sum(g * y),
)

BETA_WRONG_SIGN = Claim(
    id="gallery/every_m_grads/beta-wrong-sign",
    source=IOFFE + " (a false claim: a wrong sign)",
    statement=r"\frac{\partial}{\partial\beta} \sum_b g_b (\gamma\,\hat y_b + \beta) = -\sum_b g_b",
    title="∂L/∂β with the wrong sign (false)",
    kind="identity", variables=(Y, G, GAMMA_VAR, BETA_VAR), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, g, gamma, beta: xp.grad(_shift_loss(xp, y, g, gamma), beta) + xp.sum(g),
)

SCALE_ONE = Claim(
    id="gallery/every_m_grads/scale-one",
    source=SOURCE + " (a false claim)",
    statement=r"\frac{\partial}{\partial c} \sum_b g_b\,\mathrm{BN}(c\,y)_b = 1 \quad (c > 0)",
    title="a slope of 1 along the scale (false)",
    kind="identity", variables=(Y, G, Var("c", (), "positive")), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, g, c: xp.grad(_scaled_loss(xp, y, g), c) - 1,
)

EULER_PLUS = Claim(
    id="gallery/every_m_grads/euler-plus",
    source=SOURCE + " (a false claim: the loss also sees Xw itself)",
    statement=r"\langle \nabla_w L(w), w \rangle = 0, \quad L(w) = \sum_b g_b\,(\mathrm{BN}(Xw)_b + (Xw)_b)",
    title="orthogonality without scale invariance (false)",
    kind="identity", variables=(X, G, W), sizes=D_SIZES, hypotheses=(_projection_spread,),
    residual=_euler(lambda xp, X, g, w: xp.sum(g * (_bn(xp, X @ w) + X @ w))),
)

EFFECTIVE_LR_SQUARED = Claim(
    id="gallery/every_m_grads/effective-learning-rate-squared",
    source=SOURCE + " (a false claim: 1/c² for 1/c)",
    statement=r"\nabla L(c\,w) = \tfrac{1}{c^2}\,\nabla L(w) \quad (c > 0)",
    title="the gradient at a rescaled point, with the wrong power (false)",
    kind="identity", variables=(X, G, W, Var("c", (), "positive")), sizes=D_SIZES,
    hypotheses=(_scaled_spread,), residual=_scaled_gradient(2),
)

BN_INPUT_GRADIENT_NO_PROJECTION = Claim(
    id="gallery/every_m_grads/bn-input-gradient-no-projection",
    source=IOFFE + " (a false claim: the projection onto ŷ missing)",
    statement=r"\nabla_z \sum_b g_b\,\mathrm{BN}(z)_b = \frac{1}{\sigma}(g - \bar g), \quad z = Xw",
    title="BN's input gradient without the projection (false)",
    kind="identity", variables=(X, G, W), sizes=D_SIZES, hypotheses=(_projection_spread,),
    residual=_input_gradient(False),
)

WEIGHT_NORM_DIRECTION_UNPROJECTED = Claim(
    id="gallery/every_m_grads/weight-norm-direction-unprojected",
    source="Salimans & Kingma 2016, Eq. 4 (a false claim: the projection M_w missing)",
    statement=r"\nabla_v L = \frac{g}{\lVert v \rVert}\,\nabla_w L",
    title="weight normalization's gradient in the direction without M_w (false)",
    kind="identity", variables=(X, Var("t", ("m",)), Var("v", ("d",)), Var("gain")),
    sizes=D_SIZES, hypotheses=(lambda xp, v, **_: xp.dot(v, v),), residual=_weight_norm_v(False),
)

EXPECTED = {
    "gallery/every_m_grads/gamma": "survived",
    "gallery/every_m_grads/beta": "survived",
    "gallery/every_m_grads/gamma-squared-loss": "survived",
    "gallery/every_m_grads/gamma-curvature": "survived",
    "gallery/every_m_grads/variance": "survived",
    "gallery/every_m_grads/mean": "survived",
    "gallery/every_m_grads/scale-invariance": "survived",
    "gallery/every_m_grads/euler": "survived",
    "gallery/every_m_grads/norm-growth": "survived",
    "gallery/every_m_grads/effective-learning-rate": "survived",
    "gallery/every_m_grads/weight-norm-gain": "survived",
    "gallery/every_m_grads/weight-norm-direction": "survived",
    "gallery/every_m_grads/backprop-linear": "survived",
    "gallery/every_m_grads/bn-input-gradient": "survived",
    "gallery/every_m_grads/gamma-unnormalized": "refuted",
    "gallery/every_m_grads/beta-wrong-sign": "refuted",
    "gallery/every_m_grads/scale-one": "refuted",
    "gallery/every_m_grads/euler-plus": "refuted",
    "gallery/every_m_grads/effective-learning-rate-squared": "refuted",
    "gallery/every_m_grads/bn-input-gradient-no-projection": "refuted",
    "gallery/every_m_grads/weight-norm-direction-unprojected": "refuted",
}
