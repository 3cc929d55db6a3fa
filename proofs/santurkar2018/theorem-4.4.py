"""Theorem 4.4 of Santurkar et al. (2018), p. 7: minimax bound on weight-space Lipschitzness.

Reading, from the proof (Appendix C.2, equations (10)-(18)): the maxima over
‖X‖ ≤ λ are attained at X = λI, so ĝ_j = λ²‖∇_{y_j}L̂‖² and
g_j = λ²‖∇_{y_j}L‖²; μ_{g_j} is the mean of ∇_{y_j}L; the loss is arbitrary,
modelled by its gradient g = ∇_{y_j}L = ∂L̂/∂z (as in Theorem 4.1).  The
printed bound has g_j² (the square of a squared norm).  The proof's equation
(17) is encoded as a second claim: it carries Theorem 4.1's 1/√m.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import backprop, norm2, normalize, stats

SOURCE = "Santurkar et al. (2018), How does batch normalization help optimization?, Theorem 4.4, p. 7 (proof: Appendix C.2)"
VARIABLES = (Var("y", ("m",)), Var("g", ("m",)), Var("gamma", (), "nonzero"), Var("lam", (), "positive"))


@hypothesis(r"the batch variance $\sigma_j^2$")
def _variance(xp, y, g, gamma, lam):
    return stats(xp, y)[1] ** 2


def _printed_sides(xp, y, g, gamma, lam):
    """(ĝ_j, the printed bound)."""
    yhat, sigma = normalize(xp, y)
    m = y.shape[0]
    g_hat = lam**2 * norm2(xp, backprop(xp, g, yhat, sigma, gamma))
    g_j = lam**2 * norm2(xp, g)
    mu_g = xp.mean(g)
    return g_hat, gamma**2 / sigma**2 * (g_j**2 - mu_g**2 * m - lam**2 * xp.sum(g * yhat) ** 2)


def _printed(xp, y, g, gamma, lam):
    g_hat, bound = _printed_sides(xp, y, g, gamma, lam)
    return bound - g_hat


def _equation_17_sides(xp, y, g, gamma, lam):
    """(ĝ_j, the bound of equation (17))."""
    yhat, sigma = normalize(xp, y)
    m = y.shape[0]
    g_hat = lam**2 * norm2(xp, backprop(xp, g, yhat, sigma, gamma))
    bound = lam**2 * gamma**2 / sigma**2 * (norm2(xp, g) - xp.sum(g) ** 2 * xp.q(1, m)
                                           - xp.sum(g * yhat) ** 2 / xp.sqrt(xp.q(m)))
    return g_hat, bound


def _equation_17(xp, y, g, gamma, lam):
    g_hat, bound = _equation_17_sides(xp, y, g, gamma, lam)
    return bound - g_hat


SYMBOLS = {"y": "y_j", "g": r"\nabla_{y_j}\mathcal{L}", "lam": r"\lambda"}

# Each claim's reading stands alone: a report or a document shows one claim.
READING = ("From the proof (Appendix C.2, equations (10)-(18)): the maxima over ‖X‖ ≤ λ are attained at "
           "X = λI, so ĝ_j = λ²‖∇_{y_j}L̂‖² and g_j = λ²‖∇_{y_j}L‖²; μ_{g_j} is the mean of ∇_{y_j}L; the "
           "loss is arbitrary, modelled by its gradient g = ∇_{y_j}L = ∂L̂/∂z (as in Theorem 4.1).")


def _quantities(sides):
    """The batch statistics, ŷ, g_j and ĝ_j, and the two sides, on a counterexample."""
    return {r"\mu_j": lambda xp, y, g, gamma, lam: stats(xp, y)[0],
            r"\sigma_j": lambda xp, y, g, gamma, lam: stats(xp, y)[1],
            r"\hat{y}_j": lambda xp, y, g, gamma, lam: normalize(xp, y)[0],
            "g_j": lambda xp, y, g, gamma, lam: lam**2 * norm2(xp, g),
            r"\mu_{g_j}": lambda xp, y, g, gamma, lam: xp.mean(g),
            "LHS": lambda xp, y, g, gamma, lam: sides(xp, y, g, gamma, lam)[0],
            "RHS": lambda xp, y, g, gamma, lam: sides(xp, y, g, gamma, lam)[1]}


PRINTED = Claim(
    id="santurkar2018/theorem-4.4", aliases=("theorem-4.4",),
    title="Minimax bound on weight-space Lipschitzness", source=SOURCE,
    statement=r"g_j=\max_{\|X\|\leq\lambda}\left\|\nabla_W\mathcal{L}\right\|^2,\ \hat{g}_j=\max_{\|X\|"
              r"\leq\lambda}\left\|\nabla_W\widehat{\mathcal{L}}\right\|^2 \implies \hat{g}_j\leq"
              r"\frac{\gamma^2}{\sigma_j^2}\left(g_j^2-m\mu_{g_j}^2-\lambda^2\left\langle\nabla_{y_j}"
              r"\mathcal{L},\hat{y}_j\right\rangle^2\right)",
    reading=READING + "  The bound is read as printed, with g_j² (the square of a squared norm).",
    variables=VARIABLES, sizes={"m": (2, 5)}, hypotheses=(_variance,),
    residual=_printed, symbols=SYMBOLS, quantities=_quantities(_printed_sides),
)
AS_DERIVED = Claim(
    id="santurkar2018/theorem-4.4/as-derived", aliases=("theorem-4.4/as-derived",),
    title="Theorem 4.4 as its proof derives it, equation (17)", source=SOURCE + ", equation (17)",
    statement=r"\hat{g}_j\leq\frac{\lambda^2\gamma^2}{\sigma^2}\left(\left\|\frac{\partial\mathcal{L}}"
              r"{\partial y_j}\right\|^2-\frac{1}{m}\left\langle 1,\frac{\partial\mathcal{L}}{\partial"
              r" y_j}\right\rangle^2-\frac{1}{\sqrt{m}}\left\langle\frac{\partial\mathcal{L}}{\partial"
              r" y_j},\hat{y}_j\right\rangle^2\right)",
    reading=READING + "  This is the bound of the proof's equation (17), as derived there: it carries "
                      "Theorem 4.1's 1/√m.",
    variables=VARIABLES, sizes={"m": (2, 5)}, hypotheses=(_variance,),
    residual=_equation_17, symbols=SYMBOLS, quantities=_quantities(_equation_17_sides),
)


def _intended_sides(xp, y, g, gamma, lam):
    """(ĝ_j, the intended right-hand side: g_j where g_j² is printed, 1/m where the proof has 1/√m)."""
    yhat, sigma = normalize(xp, y)
    m = y.shape[0]
    g_hat = lam**2 * norm2(xp, backprop(xp, g, yhat, sigma, gamma))
    g_j = lam**2 * norm2(xp, g)
    mu_g = xp.mean(g)
    return g_hat, gamma**2 / sigma**2 * (g_j - lam**2 * mu_g**2 * m
                                         - lam**2 * xp.sum(g * yhat) ** 2 * xp.q(1, m))


def _intended(xp, y, g, gamma, lam):
    g_hat, rhs = _intended_sides(xp, y, g, gamma, lam)
    return rhs - g_hat


INTENDED = Claim(
    id="santurkar2018/theorem-4.4/intended", aliases=("theorem-4.4/intended",),
    title="Theorem 4.4 in its intended form (an identity)", source=SOURCE + ", equations (10)-(18)",
    statement=r"\hat{g}_j=\frac{\gamma^2}{\sigma_j^2}\left(g_j-m\lambda^2\mu_{g_j}^2-\frac{\lambda^2}{m}"
              r"\left\langle\nabla_{y_j}\mathcal{L},\hat{y}_j\right\rangle^2\right)",
    reading=READING + "  Intended form: the printed g_j² is g_j (a squared norm, not its square), "
                      "and the last term carries 1/m (‖ŷ‖² = m, the step (8) → (9) of Theorem 4.1), "
                      "with the λ² of X = λI on every term; then the bound holds with equality.",
    kind="identity", variables=VARIABLES, sizes={"m": (2, 5)}, hypotheses=(_variance,),
    residual=_intended, symbols=SYMBOLS, quantities=_quantities(_intended_sides),
)
