"""Theorem 4.1 of Santurkar et al. (2018), p. 6: BN and the Lipschitzness of the loss.

Reading: y ∈ R^m is unit j's pre-BN activations over the batch; the loss is
arbitrary, so it is modelled by its gradient g at the point.  The proof's last
step sets ∂L̂/∂z = ∂L/∂y ("identical loss"), so one vector g plays both roles;
∇_y L̂ is then Fact C.1 applied to g.  The printed bound has 1/√m before
⟨∇_y L, ŷ⟩²; the proof's step (8) → (9) gives 1/m (‖ŷ‖² = m), and with 1/m the
statement holds with equality — the second claim below.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import backprop, norm2, normalize, stats

SOURCE = "Santurkar et al. (2018), How does batch normalization help optimization?, Theorem 4.1, p. 6 (proof: Appendix C.2)"
VARIABLES = (Var("y", ("m",)), Var("g", ("m",)), Var("gamma", (), "nonzero"))


@hypothesis(r"the batch variance $\sigma_j^2$")
def variance(xp, y, g, gamma):
    return stats(xp, y)[1] ** 2


def sides(xp, y, g, gamma, last):
    """(LHS, RHS) of the bound; `last` is the printed 1/√m or the derived 1/m."""
    yhat, sigma = normalize(xp, y)
    m = y.shape[0]
    lhs = norm2(xp, backprop(xp, g, yhat, sigma, gamma))
    rhs = gamma**2 / sigma**2 * (norm2(xp, g) - xp.sum(g) ** 2 * xp.q(1, m)
                                 - last(xp, m) * xp.sum(g * yhat) ** 2)
    return lhs, rhs


def bound(xp, y, g, gamma, last):
    lhs, rhs = sides(xp, y, g, gamma, last)
    return rhs - lhs


def _root_m(xp, m):
    return 1 / xp.sqrt(xp.q(m))


def _one_over_m(xp, m):
    return xp.q(1, m)


SYMBOLS = {"y": "y_j", "g": r"\nabla_{y_j}\mathcal{L}"}

# Each claim's reading stands alone: a report or a document shows one claim.
READING = ("y ∈ R^m is unit j's pre-BN activations over the batch; the loss is arbitrary, so it is "
           "modelled by its gradient g at the point.  The proof's last step sets ∂L̂/∂z = ∂L/∂y "
           "(\"identical loss\"), so one vector g plays both roles; ∇_y L̂ is then Fact C.1 applied to g.")


def quantities(last):
    """What a referee checks on a counterexample: the batch statistics, ŷ, ∇L̂, both sides."""
    return {r"\mu_j": lambda xp, y, g, gamma: stats(xp, y)[0],
            r"\sigma_j": lambda xp, y, g, gamma: stats(xp, y)[1],
            r"\hat{y}_j": lambda xp, y, g, gamma: normalize(xp, y)[0],
            r"\nabla_{y_j}\widehat{\mathcal{L}}":
                lambda xp, y, g, gamma: backprop(xp, g, *normalize(xp, y), gamma),
            "LHS": lambda xp, y, g, gamma: sides(xp, y, g, gamma, last)[0],
            "RHS": lambda xp, y, g, gamma: sides(xp, y, g, gamma, last)[1]}


PRINTED = Claim(
    id="santurkar2018/theorem-4.1",
    aliases=("theorem-4.1",),
    title="The effect of BatchNorm on the Lipschitzness of the loss",
    source=SOURCE,
    statement=r"\left\|\nabla_{y_j}\widehat{\mathcal{L}}\right\|^2 \leq \frac{\gamma^2}{\sigma_j^2}"
              r"\left(\left\|\nabla_{y_j}\mathcal{L}\right\|^2-\frac{1}{m}\left\langle 1,"
              r"\nabla_{y_j}\mathcal{L}\right\rangle^2-\frac{1}{\sqrt{m}}\left\langle"
              r"\nabla_{y_j}\mathcal{L},\hat{y}_j\right\rangle^2\right)",
    reading=READING + "  The bound is read as printed, with 1/√m before ⟨∇_y L, ŷ⟩² (the proof's step "
                      "(8) → (9) gives 1/m there, since ‖ŷ‖² = m).",
    variables=VARIABLES,
    sizes={"m": (2, 6)},
    hypotheses=(variance,),
    residual=lambda xp, y, g, gamma: bound(xp, y, g, gamma, _root_m),
    symbols=SYMBOLS,
    quantities=quantities(_root_m),
)

AS_DERIVED = Claim(
    id="santurkar2018/theorem-4.1/as-derived",
    aliases=("theorem-4.1/as-derived",),
    title="Theorem 4.1 with the 1/m its proof derives (an identity)",
    source=SOURCE + ", equations (4)-(9)",
    statement=r"\left\|\nabla_{y_j}\widehat{\mathcal{L}}\right\|^2 = \frac{\gamma^2}{\sigma_j^2}"
              r"\left(\left\|\nabla_{y_j}\mathcal{L}\right\|^2-\frac{1}{m}\left\langle 1,"
              r"\nabla_{y_j}\mathcal{L}\right\rangle^2-\frac{1}{m}\left\langle"
              r"\nabla_{y_j}\mathcal{L},\hat{y}_j\right\rangle^2\right)",
    reading=READING + "  The printed bound has 1/√m before ⟨∇_y L, ŷ⟩²; the proof's step (8) → (9) "
                      "gives 1/m (‖ŷ‖² = m), and with 1/m the bound holds with equality: it is read "
                      "as this identity.",
    kind="identity",
    variables=VARIABLES,
    sizes={"m": (2, 6)},
    hypotheses=(variance,),
    residual=lambda xp, y, g, gamma: bound(xp, y, g, gamma, _one_over_m),
    symbols=SYMBOLS,
    quantities=quantities(_one_over_m),
    exact_sizes={"m": (2, 6)},
)
