"""Santurkar, Tsipras, Ilyas & Madry (2018), How Does Batch Normalization Help
Optimization?, NeurIPS 2018 (arXiv:1805.11604).

True statements of Section 4.1 and Appendix C, written as a reader would: a held-out
proxy of issue 23's measurement (bench/heldout.py), independent of proofs/santurkar2018/.
The ids avoid the authors' names: the checker reserves every name that cites them
(santurkar…, madry…) for the papers' own claims in proofs/, and rejects a proof
certificate of any other claim under such a name.

One unit: pre-BN activations y ∈ R^m over a batch, ŷ = (y − μ)/σ (biased σ, no ε),
z = γŷ + β; L̂ the loss of the BN network, and g = ∂L̂/∂z the gradient at its output,
an arbitrary vector (L̂ = ⟨g, z⟩ as a function of y has exactly that gradient).
"""

from bnproof.claims import Claim, Var

PAPER = "Santurkar, Tsipras, Ilyas & Madry 2018, How Does Batch Normalization Help Optimization?"
Y = Var("y", ("m",))
G = Var("g", ("m",))
GAMMA, BETA = Var("gamma"), Var("beta")
SIZES = {"m": (2, 5)}


def stats(xp, y):
    mu = xp.mean(y)
    return mu, xp.sqrt(xp.mean((y - mu) ** 2))


def yhat(xp, y):
    mu, sigma = stats(xp, y)
    return (y - mu) / sigma


def grad_y(xp, y, g, gamma, beta):
    """∇_y L̂ through BN, for ∂L̂/∂z = g."""
    return xp.grad(lambda u: xp.sum(g * (gamma * yhat(xp, u) + beta)), y)


def spread(xp, y, **_):
    return stats(xp, y)[1] ** 2


def _fact_c1(xp, y, g, gamma, beta):
    m = y.shape[0]
    _, sigma = stats(xp, y)
    yh = yhat(xp, y)
    formula = gamma / (m * sigma) * (m * g - xp.sum(g) - yh * xp.dot(g, yh))
    return xp.sum((grad_y(xp, y, g, gamma, beta) - formula) ** 2)


FACT_C1 = Claim(
    id="published/bn-helps-optimization/gradient-through-bn",
    source=PAPER + ", Appendix C, Fact C.1",
    statement=(r"\frac{\partial \hat{L}}{\partial y_j} = \frac{\gamma}{m\sigma_j}\left(m \frac{\partial \hat{L}}{\partial z_j}"
               r" - \mathbf{1}\left\langle \mathbf{1}, \frac{\partial \hat{L}}{\partial z_j} \right\rangle"
               r" - \hat{y}_j \left\langle \frac{\partial \hat{L}}{\partial z_j}, \hat{y}_j \right\rangle\right)"),
    reading="g = ∂L̂/∂z arbitrary; read as Σ_b (lhs_b − rhs_b)² = 0.",
    kind="identity", variables=(Y, G, GAMMA, BETA), sizes=SIZES, hypotheses=(spread,),
    residual=_fact_c1,
)


def _theorem_41(xp, y, g, gamma, beta):
    m = y.shape[0]
    _, sigma = stats(xp, y)
    yh = yhat(xp, y)
    lhs = xp.sum(grad_y(xp, y, g, gamma, beta) ** 2)
    rhs = gamma ** 2 / sigma ** 2 * (xp.sum(g ** 2) - xp.sum(g) ** 2 / m - xp.dot(g, yh) ** 2 / m)
    return rhs - lhs


THEOREM_41 = Claim(
    id="published/bn-helps-optimization/theorem-4.1-derived",
    source=PAPER + ", Theorem 4.1 (with 1/m on the last term, as its proof in Appendix C derives)",
    statement=(r"\left\| \nabla_{y_j} \hat{L} \right\|^2 \le \frac{\gamma^2}{\sigma_j^2}\left( \left\|"
               r" \nabla_{y_j} L \right\|^2 - \frac{1}{m}\left\langle \mathbf{1}, \nabla_{y_j} L \right\rangle^2"
               r" - \frac{1}{m}\left\langle \nabla_{y_j} L, \hat{y}_j \right\rangle^2 \right)"),
    reading="∇_{y_j} L is the gradient at the BN output z (g here); the theorem prints 1/√m on the last "
            "term, its proof derives 1/m (with equality), which is the statement encoded.",
    kind="inequality", variables=(Y, G, GAMMA, BETA), sizes=SIZES, hypotheses=(spread,),
    residual=_theorem_41,
)

GRADIENT_SHRINKS = Claim(
    id="published/bn-helps-optimization/gradient-norm-reduced",
    source=PAPER + ", Section 4.1, discussion of Theorem 4.1 (BN never increases the gradient norm up to γ/σ)",
    statement=r"\left\| \nabla_{y_j} \hat{L} \right\|^2 \le \frac{\gamma^2}{\sigma_j^2} \left\| \nabla_{y_j} L \right\|^2",
    reading="The two subtracted terms of Theorem 4.1 are squares, so dropping them gives an upper bound.",
    kind="inequality", variables=(Y, G, GAMMA, BETA), sizes=SIZES, hypotheses=(spread,),
    residual=lambda xp, y, g, gamma, beta: gamma ** 2 / spread(xp, y) * xp.sum(g ** 2)
    - xp.sum(grad_y(xp, y, g, gamma, beta) ** 2),
)

ORTHOGONAL_TO_ONES = Claim(
    id="published/bn-helps-optimization/gradient-orthogonal-to-ones",
    source=PAPER + ", Section 4.1 (the BN gradient is g projected away from 1 and ŷ)",
    statement=r"\left\langle \mathbf{1}, \nabla_{y_j} \hat{L} \right\rangle = 0",
    reading="From Fact C.1: the gradient has no component along 1.",
    kind="identity", variables=(Y, G, GAMMA, BETA), sizes=SIZES, hypotheses=(spread,),
    residual=lambda xp, y, g, gamma, beta: xp.sum(grad_y(xp, y, g, gamma, beta)),
)

ORTHOGONAL_TO_YHAT = Claim(
    id="published/bn-helps-optimization/gradient-orthogonal-to-yhat",
    source=PAPER + ", Section 4.1 (the BN gradient is g projected away from 1 and ŷ)",
    statement=r"\left\langle \hat{y}_j, \nabla_{y_j} \hat{L} \right\rangle = 0",
    reading="From Fact C.1: the gradient has no component along ŷ.",
    kind="identity", variables=(Y, G, GAMMA, BETA), sizes=SIZES, hypotheses=(spread,),
    residual=lambda xp, y, g, gamma, beta: xp.dot(yhat(xp, y), grad_y(xp, y, g, gamma, beta)),
)

X = Var("X", ("m", "d"))
W = Var("w", ("d",))


def _unit_spread(xp, X, w):
    return spread(xp, X @ w)


def _same_activations(xp, X, w):
    z = X @ w
    mu, sigma = stats(xp, z)
    return xp.sum((sigma * yhat(xp, z) + mu - z) ** 2)


OBSERVATION_43 = Claim(
    id="published/bn-helps-optimization/observation-4.3-same-activations",
    source=PAPER + ", Observation 4.3, p. 7 (first sentence: γ = σ_j, β = μ_j gives the same activations)",
    statement=r"\gamma = \sigma_j,\ \beta = \mu_j \implies \gamma \hat{y}_j + \beta = y_j",
    reading="y_j = Xw the unit's pre-activations over a batch X (m × d); γ and β set to the batch's own σ "
            "and μ (computed, not variables); read as Σ_b (lhs_b − rhs_b)² = 0.",
    kind="identity", variables=(X, W), sizes={"m": (2, 5), "d": (1, 3)}, hypotheses=(_unit_spread,),
    residual=_same_activations,
)
