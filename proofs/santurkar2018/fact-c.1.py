"""Fact C.1 of Santurkar et al. (2018), Appendix C.1: the gradient through BN.

Reading: f(C) is an arbitrary function of the BN output C = γB + β; only its
gradient ∂f/∂C at the point matters, so f is modelled as the linear function
⟨g, C⟩ with g arbitrary.  The residual compares the printed closed form with
the gradient computed independently by forward-mode differentiation of the
definition (dual numbers exactly; autodiff in JAX).
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import backprop, batch_norm, normalize, stats


@hypothesis(r"the batch variance $\sigma^2$")
def _variance(xp, A, g, gamma, beta):
    return stats(xp, A)[1] ** 2


def _residual(xp, A, g, gamma, beta):
    yhat, sigma = normalize(xp, A)
    printed = backprop(xp, g, yhat, sigma, gamma)
    true = xp.grad(lambda a: xp.sum(g * batch_norm(xp, a, gamma, beta)), A)
    return xp.sum((printed - true) ** 2)


FACT_C_1 = Claim(
    id="santurkar2018/fact-c.1",
    aliases=("fact-c.1",),
    title="Gradient through BatchNorm",
    source="Santurkar et al. (2018), How does batch normalization help optimization?, Fact C.1, Appendix C.1, p. 18",
    statement=r"\frac{\partial f}{\partial A^{(b)}} = \frac{\gamma}{m\sigma}\left(m\frac{\partial f}"
              r"{\partial C^{(b)}}-\sum_{k=1}^m\frac{\partial f}{\partial C^{(k)}}-B^{(b)}\sum_{k=1}^m"
              r"\frac{\partial f}{\partial C^{(k)}}B^{(k)}\right)",
    reading=__doc__,
    kind="identity",
    variables=(Var("A", ("m",)), Var("g", ("m",)), Var("gamma", ()), Var("beta", ())),
    sizes={"m": (2, 6)},
    hypotheses=(_variance,),
    residual=_residual,
    symbols={"A": "A", "g": r"\frac{\partial f}{\partial C}"},
    exact_sizes={"m": (2, 6)},
)
