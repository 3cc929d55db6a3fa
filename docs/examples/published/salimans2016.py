"""Salimans & Kingma (2016), Weight Normalization: A Simple Reparameterization to
Accelerate Training of Deep Neural Networks, NeurIPS 2016 (arXiv:1602.07868).

True statements of Section 2 and 2.1, written as a reader would: a held-out proxy of
issue 23's measurement (bench/heldout.py).

w = (g/‖v‖) v (Eq. 2), v ∈ R^d, g a scalar.  The loss L is any differentiable
function of w; a claim needs one, so L(w) = ½ ‖Xw − t‖² (least squares on a batch X of
m inputs of dimension d, targets t), a loss with a non-trivial Hessian, where the
paper's formulas hold for every L.
"""

from bnproof.claims import Claim, Var

PAPER = "Salimans & Kingma 2016, Weight Normalization: A Simple Reparameterization to Accelerate Training of Deep Neural Networks"
X = Var("X", ("m", "d"))
T = Var("t", ("m",))
V = Var("v", ("d",))
GAIN = Var("g")
SIZES = {"m": (2, 5), "d": (1, 3)}


def norm(xp, v):
    return xp.sqrt(xp.sum(v * v))


def weight(xp, v, g):
    return g / norm(xp, v) * v


def loss(xp, X, t):
    return lambda w: xp.sum((X @ w - t) ** 2) / 2


def v_nonzero(xp, v, **_):
    return xp.sum(v * v)


def grad_w(xp, X, t, v, g):
    return xp.grad(loss(xp, X, t), weight(xp, v, g))


def grad_g(xp, X, t, v, g):
    return xp.grad(lambda s: loss(xp, X, t)(weight(xp, v, s)), g)


def grad_v(xp, X, t, v, g):
    return xp.grad(lambda u: loss(xp, X, t)(weight(xp, u, g)), v)


NORM_IS_G = Claim(
    id="published/salimans2016/norm-is-g",
    source=PAPER + ", Section 2, below Eq. 2",
    statement=r"\|\mathbf{w}\| = g",
    reading="w = g v/‖v‖ with g > 0 (for g < 0, ‖w‖ = −g); v ≠ 0 of any length d.",
    kind="identity", variables=(Var("v", ("d",)), Var("g", (), "positive")), sizes={"d": (1, 5)},
    hypotheses=(v_nonzero,),
    residual=lambda xp, v, g: norm(xp, weight(xp, v, g)) - g,
)

GRAD_G = Claim(
    id="published/salimans2016/grad-g",
    source=PAPER + ", Section 2.1, Eq. 3 (first formula)",
    statement=r"\nabla_g L = \frac{\nabla_{\mathbf{w}} L \cdot \mathbf{v}}{\|\mathbf{v}\|}",
    reading="L(w) = ½ ‖Xw − t‖², ∇_w L taken at w = g v/‖v‖.",
    kind="identity", variables=(X, T, V, GAIN), sizes=SIZES, hypotheses=(v_nonzero,),
    residual=lambda xp, X, t, v, g: grad_g(xp, X, t, v, g) - xp.dot(grad_w(xp, X, t, v, g), v) / norm(xp, v),
)


def _grad_v_eq3(xp, X, t, v, g):
    rhs = g / norm(xp, v) * grad_w(xp, X, t, v, g) - g * grad_g(xp, X, t, v, g) / xp.sum(v * v) * v
    return xp.sum((grad_v(xp, X, t, v, g) - rhs) ** 2)


GRAD_V = Claim(
    id="published/salimans2016/grad-v",
    source=PAPER + ", Section 2.1, Eq. 3 (second formula)",
    statement=(r"\nabla_{\mathbf{v}} L = \frac{g}{\|\mathbf{v}\|} \nabla_{\mathbf{w}} L - "
               r"\frac{g \nabla_g L}{\|\mathbf{v}\|^2} \mathbf{v}"),
    reading="L(w) = ½ ‖Xw − t‖²; read as Σ_k (lhs_k − rhs_k)² = 0.",
    kind="identity", variables=(X, T, V, GAIN), sizes=SIZES, hypotheses=(v_nonzero,),
    residual=_grad_v_eq3,
)


def _grad_v_projected(xp, X, t, v, g):
    w = weight(xp, v, g)
    d = v.shape[0]
    M = xp.eye(d) - xp.outer(w, w) / xp.sum(w * w)
    rhs = g / norm(xp, v) * (M @ grad_w(xp, X, t, v, g))
    return xp.sum((grad_v(xp, X, t, v, g) - rhs) ** 2)


GRAD_V_PROJECTED = Claim(
    id="published/salimans2016/grad-v-projection",
    source=PAPER + ", Section 2.1, Eq. 4",
    statement=(r"\nabla_{\mathbf{v}} L = \frac{g}{\|\mathbf{v}\|} M_{\mathbf{w}} \nabla_{\mathbf{w}} L, "
               r"\quad M_{\mathbf{w}} = I - \frac{\mathbf{w}\mathbf{w}'}{\|\mathbf{w}\|^2}"),
    reading="L(w) = ½ ‖Xw − t‖²; g ≠ 0 so that w ≠ 0 and M_w is defined.",
    kind="identity", variables=(X, T, V, Var("g", (), "nonzero")), sizes=SIZES, hypotheses=(v_nonzero,),
    residual=_grad_v_projected,
)

GRAD_V_ORTHOGONAL = Claim(
    id="published/salimans2016/grad-v-orthogonal",
    source=PAPER + ", Section 2.1 (the gradient in v is orthogonal to the weight vector)",
    statement=r"\nabla_{\mathbf{v}} L \cdot \mathbf{v} = 0",
    reading="L(w) = ½ ‖Xw − t‖², w = g v/‖v‖: M_w projects away from w, which is parallel to v.",
    kind="identity", variables=(X, T, V, GAIN), sizes=SIZES, hypotheses=(v_nonzero,),
    residual=lambda xp, X, t, v, g: xp.dot(grad_v(xp, X, t, v, g), v),
)


def _norm_grows(xp, X, t, v, g, eta):
    step = v - eta * grad_v(xp, X, t, v, g)
    c = eta * norm(xp, grad_v(xp, X, t, v, g)) / norm(xp, v)
    return norm(xp, step) - xp.sqrt(1 + c ** 2) * norm(xp, v)


NORM_GROWS = Claim(
    id="published/salimans2016/norm-grows",
    source=PAPER + ", Section 2.1 (v' = v + Δv, ‖v'‖ = √(1 + C²) ‖v‖)",
    statement=r"\|\mathbf{v}'\| = \sqrt{1 + C^2}\, \|\mathbf{v}\|, \quad C = \|\Delta\mathbf{v}\| / \|\mathbf{v}\|",
    reading="One gradient step Δv = −η ∇_v L with L(w) = ½ ‖Xw − t‖²; C = η ‖∇_v L‖/‖v‖.",
    kind="identity", variables=(X, T, V, GAIN, Var("eta")), sizes=SIZES, hypotheses=(v_nonzero,),
    residual=_norm_grows,
)

SCALE_OF_V = Claim(
    id="published/salimans2016/scale-of-v",
    source=PAPER + ", Section 2.1 (w does not depend on the norm of v); Ba et al. 2016, Table 1",
    statement=r"\frac{g}{\|c\mathbf{v}\|} c\mathbf{v} = \frac{g}{\|\mathbf{v}\|} \mathbf{v} \quad (c > 0)",
    reading="v of any length d, c > 0; read as Σ_k (lhs_k − rhs_k)² = 0.",
    kind="identity", variables=(Var("v", ("d",)), GAIN, Var("c", (), "positive")), sizes={"d": (1, 5)},
    hypotheses=(v_nonzero,),
    residual=lambda xp, v, g, c: xp.sum((weight(xp, c * v, g) - weight(xp, v, g)) ** 2),
)
