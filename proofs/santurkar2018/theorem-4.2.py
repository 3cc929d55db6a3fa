"""Theorem 4.2 of Santurkar et al. (2018), p. 6: the effect of BN on smoothness.

Reading: the loss is arbitrary, modelled by its gradient ĝ = g and a symmetric
Hessian H with respect to the BN output (the proof's "H_jj = ∂²L̂/∂z² =
∂²L/∂y²" and "ĝ = ∂L̂/∂z = ∂L/∂y").  ∂L̂/∂y is Fact C.1 applied to g, and the
Hessian of L̂ with respect to y is γ²JHJ plus the curvature of the BN map
(J from Fact C.2; the second derivative of ŷ is derived in bnproof and
checked against SymPy and JAX).

Part 2's hypothesis, "H_jj preserves the relative norms of ĝ_j and ∇_{y_j}L̂",
is read as: the H-norms are in the same ratio as the Euclidean norms,
vᵀHv·‖g‖² = gᵀHg·‖v‖² for v = ∇_y L̂.  Under that reading it is a constraint
between free variables, so the search fixes it by construction: H = h·I
(h > 0) satisfies it for every g.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import backprop, hessian_y, norm2, normalize, stats

SOURCE = "Santurkar et al. (2018), How does batch normalization help optimization?, Theorem 4.2, p. 6 (proof: Appendix C.3)"


# Each claim's reading stands alone: a report or a document shows one claim.
READING = ("The loss is arbitrary, modelled by its gradient ĝ = g and a symmetric Hessian H with respect "
           "to the BN output (the proof's \"H_jj = ∂²L̂/∂z² = ∂²L/∂y²\" and \"ĝ = ∂L̂/∂z = ∂L/∂y\").  "
           "∂L̂/∂y is Fact C.1 applied to g, and the Hessian of L̂ with respect to y is γ²JHJ plus the "
           "curvature of the BN map (J from Fact C.2; the second derivative of ŷ is derived in bnproof "
           "and checked against SymPy and JAX).")
PART_2_HYPOTHESIS = ("  The second bound's hypothesis, \"H_jj preserves the relative norms of ĝ_j and "
                     "∇_{y_j}L̂\", is read as: the H-norms are in the same ratio as the Euclidean norms, "
                     "vᵀHv·‖g‖² = gᵀHg·‖v‖² for v = ∇_y L̂.  Under that reading it is a constraint between "
                     "free variables, so the search fixes it by construction: H = h·I (h > 0) satisfies it "
                     "for every g.")
PART_2_PROOF = ("  The proof of the second bound (Appendix C.3) bounds a term using γ ≤ σ, but what it needs "
                "is γ² ≤ σ²: with H = h·I the residual is h·γ²/σ⁴ · ((σ² − γ²)‖p‖² + σ²·m(a² + b²)), "
                "where g = a·1 + b·ŷ + p with p ⊥ 1, ŷ.  For negative γ, γ ≤ σ does not give it "
                "(γ = −10σ makes the first term negative whenever p ≠ 0).")


@hypothesis(r"the batch variance $\sigma_j^2$")
def _variance(xp, y, **_):
    return stats(xp, y)[1] ** 2


def _quantities(xp, y, g, H, gamma):
    yhat, sigma = normalize(xp, y)
    v = backprop(xp, g, yhat, sigma, gamma)
    return yhat, sigma, v, hessian_y(xp, g, H, yhat, sigma, gamma)


def _part_1(xp, y, g, H, gamma):
    yhat, sigma, v, Hy = _quantities(xp, y, g, H, gamma)
    m = y.shape[0]
    lhs = xp.dot(v, Hy @ v)
    rhs = gamma**2 / sigma**2 * xp.dot(v, H @ v) - gamma / (sigma**2 * m) * xp.sum(g * yhat) * norm2(xp, v)
    return rhs - lhs


def _part_2(xp, y, g, h, gamma):
    m = y.shape[0]
    H = xp.eye(m) * h
    yhat, sigma, v, Hy = _quantities(xp, y, g, H, gamma)
    lhs = xp.dot(v, Hy @ v)
    rhs = gamma**2 / sigma**2 * (xp.dot(g, H @ g)
                                 - xp.sum(g * yhat) * norm2(xp, v) / (gamma * m))
    return rhs - lhs


PART_1 = Claim(
    id="santurkar2018/theorem-4.2", aliases=("theorem-4.2",),
    title="The effect of BN on smoothness (first bound)", source=SOURCE,
    statement=r"\left(\nabla_{y_j}\widehat{\mathcal{L}}\right)^{\top}\frac{\partial\widehat{\mathcal{L}}}"
              r"{\partial y_j\partial y_j}\left(\nabla_{y_j}\widehat{\mathcal{L}}\right)\leq\frac{\gamma^2}"
              r"{\sigma^2}\left(\frac{\partial\widehat{\mathcal{L}}}{\partial y_j}\right)^{\top}H_{jj}"
              r"\left(\frac{\partial\widehat{\mathcal{L}}}{\partial y_j}\right)-\frac{\gamma}{m\sigma^2}"
              r"\left\langle\hat{g}_j,\hat{y}_j\right\rangle\left\|\frac{\partial\widehat{\mathcal{L}}}"
              r"{\partial y_j}\right\|^2",
    reading=READING,
    variables=(Var("y", ("m",)), Var("g", ("m",)), Var("H", ("m", "m"), "symmetric"),
               Var("gamma", (), "nonzero")),
    sizes={"m": (2, 5)}, hypotheses=(_variance,), residual=_part_1,
    symbols={"y": "y_j", "g": r"\hat{g}_j", "H": "H_{jj}"},
    quantities={r"\sigma_j": lambda xp, y, g, H, gamma: stats(xp, y)[1],
                r"\hat{y}_j": lambda xp, y, g, H, gamma: normalize(xp, y)[0],
                r"\nabla_{y_j}\widehat{\mathcal{L}}":
                    lambda xp, y, g, H, gamma: _quantities(xp, y, g, H, gamma)[2]},
)
PART_2 = Claim(
    id="santurkar2018/theorem-4.2/part-2", aliases=("theorem-4.2/part-2",),
    title="The effect of BN on smoothness (second bound, H preserving relative norms)",
    source=SOURCE,
    statement=r"\left(\nabla_{y_j}\widehat{\mathcal{L}}\right)^{\top}\frac{\partial\widehat{\mathcal{L}}}"
              r"{\partial y_j\partial y_j}\left(\nabla_{y_j}\widehat{\mathcal{L}}\right)\leq\frac{\gamma^2}"
              r"{\sigma^2}\left(\hat{g}_j^{\top}H_{jj}\hat{g}_j-\frac{1}{m\gamma}\left\langle\hat{g}_j,"
              r"\hat{y}_j\right\rangle\left\|\frac{\partial\widehat{\mathcal{L}}}{\partial y_j}\right\|^2\right)",
    reading=READING + PART_2_HYPOTHESIS,
    variables=(Var("y", ("m",)), Var("g", ("m",)), Var("h", (), "positive"),
               Var("gamma", (), "nonzero")),
    sizes={"m": (2, 5)}, hypotheses=(_variance,), residual=_part_2,
    symbols={"y": "y_j", "g": r"\hat{g}_j", "h": "h"},
)


@hypothesis(r"$\sigma_j^2 - \gamma^2$, i.e. $|\gamma| < \sigma_j$")
def _gamma_within_sigma(xp, y, g, h, gamma):
    return stats(xp, y)[1] ** 2 - gamma**2


@hypothesis(r"$\sigma_j - \gamma$, i.e. $\gamma < \sigma_j$")
def _gamma_below_sigma(xp, y, g, h, gamma):
    return stats(xp, y)[1] - gamma


PART_2_CORRECTED = Claim(
    id="santurkar2018/theorem-4.2/part-2/corrected", aliases=("theorem-4.2/part-2/corrected",),
    title="The effect of BN on smoothness (second bound) under |γ| < σ",
    source=SOURCE + " (corrected hypothesis: |γ| < σ_j)",
    statement=PART_2.statement + r",\quad |\gamma| < \sigma_j",
    reading=READING + PART_2_HYPOTHESIS + PART_2_PROOF + "  This claim assumes |γ| < σ (the strict "
            "σ² − γ² > 0, since hypotheses are strict; at |γ| = σ the residual is still ≥ 0, but that "
            "boundary is not part of this claim).",
    variables=PART_2.variables, sizes={"m": (2, 5)},
    hypotheses=(_variance, _gamma_within_sigma), residual=_part_2,
    symbols={"y": "y_j", "g": r"\hat{g}_j", "h": "h"},
)
PART_2_PRINTED_CONDITION = Claim(
    id="santurkar2018/theorem-4.2/part-2/gamma-below-sigma",
    aliases=("theorem-4.2/part-2/gamma-below-sigma",),
    title="The effect of BN on smoothness (second bound) under γ < σ only",
    source=SOURCE + " (the proof's condition γ ≤ σ, strict)",
    statement=PART_2.statement + r",\quad \gamma < \sigma_j",
    reading=READING + PART_2_HYPOTHESIS + PART_2_PROOF + "  This claim assumes only γ < σ, the proof's "
            "condition (made strict, as hypotheses are).",
    variables=PART_2.variables, sizes={"m": (2, 5)},
    hypotheses=(_variance, _gamma_below_sigma), residual=_part_2,
    symbols={"y": "y_j", "g": r"\hat{g}_j", "h": "h"},
)
