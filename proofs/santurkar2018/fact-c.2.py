"""Fact C.2 of Santurkar et al. (2018), Appendix C.1: gradients of normalized outputs.

Equation (1): ∂ŷ^(b)/∂y^(k) = (1/σ)(1[b=k] − 1/m − ŷ^(b)ŷ^(k)/m); equation (2)
is the same times γ for z = γŷ + β.  Read as an equality of Jacobians, checked
in an arbitrary direction u: the residual is the squared norm of uᵀJ − ∇_y⟨u, ŷ(y)⟩,
the printed Jacobian J applied to u against the gradient computed independently
(forward-mode dual numbers exactly, autodiff in JAX, the chain rule over batch
sums for every m).  It is 0 for every u exactly when the two Jacobians are equal,
and it has no loop over the batch, so the claim is also proved for every m.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import batch_norm, jacobian, normalize, stats

SOURCE = "Santurkar et al. (2018), How does batch normalization help optimization?, Fact C.2, Appendix C.1, p. 18"


@hypothesis(r"the batch variance $\sigma^2$")
def _variance(xp, y, gamma, beta, u):
    return stats(xp, y)[1] ** 2


def _mismatch(xp, y, u, printed, output):
    true = xp.grad(lambda v: xp.sum(u * output(v)), y)
    return xp.sum((u @ printed - true) ** 2)


def _equation_1(xp, y, gamma, beta, u):
    yhat, sigma = normalize(xp, y)
    return _mismatch(xp, y, u, jacobian(xp, yhat, sigma), lambda v: normalize(xp, v)[0])


def _equation_2(xp, y, gamma, beta, u):
    yhat, sigma = normalize(xp, y)
    return _mismatch(xp, y, u, jacobian(xp, yhat, sigma) * gamma,
                     lambda v: batch_norm(xp, v, gamma, beta))


VARIABLES = (Var("y", ("m",)), Var("gamma", ()), Var("beta", ()), Var("u", ("m",)))
STATEMENT = (r"\frac{\partial \hat{y}^{(b)}}{\partial y^{(k)}} = \frac{1}{\sigma}\left(\mathbf{I}[b=k]"
             r"-\frac{1}{m}-\frac{1}{m}\hat{y}^{(b)}\hat{y}^{(k)}\right)")

# Each claim's reading stands alone: a report or a document shows one claim.
READING = ("Read as an equality of Jacobians, checked in an arbitrary direction u: the residual is the "
           "squared norm of uᵀJ − ∇_y⟨u, {output}⟩, the printed Jacobian J applied to u against the "
           "gradient computed independently (forward-mode dual numbers exactly, autodiff in JAX, the "
           "chain rule over batch sums for every m).  It is 0 for every u exactly when the two Jacobians "
           "are equal, and it has no loop over the batch, so the claim is also proved for every m.")


EQUATION_1 = Claim(
    id="santurkar2018/fact-c.2", aliases=("fact-c.2",), title="Gradients of normalized outputs",
    source=SOURCE + ", equation (1)", statement=STATEMENT,
    reading="Equation (1): ∂ŷ^(b)/∂y^(k) = (1/σ)(1[b=k] − 1/m − ŷ^(b)ŷ^(k)/m).  "
            + READING.format(output="ŷ(y)"),
    kind="identity",
    variables=VARIABLES, sizes={"m": (2, 5)}, hypotheses=(_variance,), residual=_equation_1,
    exact_sizes={"m": (2, 6)},
)
EQUATION_2 = Claim(
    id="santurkar2018/fact-c.2/eq-2", aliases=("fact-c.2/eq-2",),
    title="Gradients of normalized outputs, scaled by γ",
    source=SOURCE + ", equation (2)",
    statement=STATEMENT.replace(r"\hat{y}^{(b)}}{\partial", r"z_j^{(b)}}{\partial").replace(
        r"\frac{1}{\sigma}", r"\frac{\gamma}{\sigma}"),
    reading="Equation (2): ∂z^(b)/∂y^(k) = (γ/σ)(1[b=k] − 1/m − ŷ^(b)ŷ^(k)/m) for z = γŷ + β.  "
            + READING.format(output="z(y)"),
    kind="identity", variables=VARIABLES, sizes={"m": (2, 5)},
    hypotheses=(_variance,), residual=_equation_2, exact_sizes={"m": (2, 6)},
)
