"""Fact C.2 of Santurkar et al. (2018), Appendix C.1: gradients of normalized outputs.

Equation (1): ∂ŷ^(b)/∂y^(k) = (1/σ)(1[b=k] − 1/m − ŷ^(b)ŷ^(k)/m); equation (2)
is the same times γ for z = γŷ + β.  The residual is the squared distance
between the printed Jacobian and the Jacobian computed independently by
forward-mode differentiation of the definition.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import batch_norm, jacobian, normalize, stats

SOURCE = "Santurkar et al. (2018), How does batch normalization help optimization?, Fact C.2, Appendix C.1, p. 18"


@hypothesis(r"the batch variance $\sigma^2$")
def _variance(xp, y, gamma, beta):
    return stats(xp, y)[1] ** 2


def _mismatch(xp, y, printed, output):
    total = xp.q(0)
    for b in range(y.shape[0]):
        true = xp.grad(lambda v: output(v)[b], y)
        total = total + xp.sum((printed[b] - true) ** 2)
    return total


def _equation_1(xp, y, gamma, beta):
    yhat, sigma = normalize(xp, y)
    return _mismatch(xp, y, jacobian(xp, yhat, sigma), lambda v: normalize(xp, v)[0])


def _equation_2(xp, y, gamma, beta):
    yhat, sigma = normalize(xp, y)
    return _mismatch(xp, y, jacobian(xp, yhat, sigma) * gamma,
                     lambda v: batch_norm(xp, v, gamma, beta))


VARIABLES = (Var("y", ("m",)), Var("gamma", ()), Var("beta", ()))
STATEMENT = (r"\frac{\partial \hat{y}^{(b)}}{\partial y^{(k)}} = \frac{1}{\sigma}\left(\mathbf{I}[b=k]"
             r"-\frac{1}{m}-\frac{1}{m}\hat{y}^{(b)}\hat{y}^{(k)}\right)")

EQUATION_1 = Claim(
    id="santurkar2018/fact-c.2", aliases=("fact-c.2",), title="Gradients of normalized outputs",
    source=SOURCE + ", equation (1)", statement=STATEMENT, reading=__doc__, kind="identity",
    variables=VARIABLES, sizes={"m": (2, 5)}, hypotheses=(_variance,), residual=_equation_1,
    exact_sizes={"m": (2, 6)},
)
EQUATION_2 = Claim(
    id="santurkar2018/fact-c.2/eq-2", aliases=("fact-c.2/eq-2",),
    title="Gradients of normalized outputs, scaled by γ",
    source=SOURCE + ", equation (2)",
    statement=STATEMENT.replace(r"\hat{y}^{(b)}}{\partial", r"z_j^{(b)}}{\partial").replace(
        r"\frac{1}{\sigma}", r"\frac{\gamma}{\sigma}"),
    reading=__doc__, kind="identity", variables=VARIABLES, sizes={"m": (2, 5)},
    hypotheses=(_variance,), residual=_equation_2, exact_sizes={"m": (2, 6)},
)
