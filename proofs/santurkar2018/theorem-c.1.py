"""Theorem C.1 of Santurkar et al. (2018), Appendix C.3, p. 21: minimax smoothness bound.

Reading, from the proof (equations (52)-(58)): with ∂L/∂W_{·j} = Xᵀg and
∂²L/∂W² = XᵀHX, the maxima over ‖X‖ ≤ λ are attained at X = λI, giving
λ⁴ gᵀHg for the standard network and λ⁴ v̂ᵀ Ĥ_y v̂ with v̂ = (I − ŷŷᵀ/m)g for
the BN network (equation (58)); κ, "the separation given in the previous
theorem", is read as (γ/(mσ²))⟨ĝ, ŷ⟩‖∂L̂/∂y‖², Theorem 4.2's subtracted term.
The loss is modelled by g and a symmetric H.  The inequality is strict, as
printed.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import backprop, hessian_y, norm2, normalize, stats


@hypothesis(r"the batch variance $\sigma_j^2$")
def _variance(xp, y, g, H, gamma, lam):
    return stats(xp, y)[1] ** 2


def _sides(xp, y, g, H, gamma, lam):
    """(LHS, RHS, κ) of the bound."""
    yhat, sigma = normalize(xp, y)
    m = y.shape[0]
    Hy = hessian_y(xp, g, H, yhat, sigma, gamma)
    v_hat = g - yhat * xp.sum(g * yhat) * xp.q(1, m)
    lhs = lam**4 * xp.dot(v_hat, Hy @ v_hat)
    kappa = gamma / (sigma**2 * m) * xp.sum(g * yhat) * norm2(xp, backprop(xp, g, yhat, sigma, gamma))
    rhs = gamma**2 / sigma**2 * (lam**4 * xp.dot(g, H @ g) - lam**4 * kappa)
    return lhs, rhs, kappa


def _residual(xp, y, g, H, gamma, lam):
    lhs, rhs, _ = _sides(xp, y, g, H, gamma, lam)
    return rhs - lhs


THEOREM_C_1 = Claim(
    id="santurkar2018/theorem-c.1", aliases=("theorem-c.1",),
    title="Minimax smoothness bound",
    source="Santurkar et al. (2018), How does batch normalization help optimization?, Theorem C.1, Appendix C.3, p. 21",
    statement=r"\max_{\|X\|\leq\lambda}\left(\frac{\partial\widehat{\mathcal{L}}}{\partial W_{\cdot j}}"
              r"\right)^{\top}\frac{\partial\widehat{\mathcal{L}}}{\partial W_{\cdot j}\partial W_{\cdot j}}"
              r"\left(\frac{\partial\widehat{\mathcal{L}}}{\partial W_{\cdot j}}\right)<\frac{\gamma^2}"
              r"{\sigma^2}\left[\max_{\|X\|\leq\lambda}\left(\frac{\partial\mathcal{L}}{\partial W_{\cdot j}}"
              r"\right)^{\top}\frac{\partial\mathcal{L}}{\partial W_{\cdot j}\partial W_{\cdot j}}\left("
              r"\frac{\partial\mathcal{L}}{\partial W_{\cdot j}}\right)-\lambda^4\kappa\right]",
    reading=__doc__, strict=True,
    variables=(Var("y", ("m",)), Var("g", ("m",)), Var("H", ("m", "m"), "symmetric"),
               Var("gamma", (), "nonzero"), Var("lam", (), "positive")),
    sizes={"m": (2, 4)}, hypotheses=(_variance,), residual=_residual,
    symbols={"y": "y_j", "g": r"\nabla_{y_j}\mathcal{L}", "H": "H_{jj}", "lam": r"\lambda"},
    quantities={r"\sigma_j": lambda xp, y, g, H, gamma, lam: stats(xp, y)[1],
                r"\hat{y}_j": lambda xp, y, g, H, gamma, lam: normalize(xp, y)[0],
                r"\kappa": lambda xp, y, g, H, gamma, lam: _sides(xp, y, g, H, gamma, lam)[2],
                "LHS": lambda xp, y, g, H, gamma, lam: _sides(xp, y, g, H, gamma, lam)[0],
                "RHS": lambda xp, y, g, H, gamma, lam: _sides(xp, y, g, H, gamma, lam)[1]},
)
