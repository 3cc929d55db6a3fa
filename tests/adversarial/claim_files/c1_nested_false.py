"""Class 1, FALSE: ∂/∂γ(∂f/∂y₀) = 0 for f = Σ g·BN(y; γ, 0).

False: the derivative is ∂f/∂y₀ / γ, nonzero at generic instances.  A confused
forward mode loses the outer derivative and reads 0."""
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats


def _inner(xp, y, g, gam):
    return xp.grad(lambda a: xp.sum(g * batch_norm(xp, a, gam, 0)), y)[0]


CLAIM = Claim(id="adv/nested-grad-false", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)), Var("g", ("m",)), Var("gamma", ())),
              sizes={"m": (2, 3)}, exact_sizes={"m": (2, 3)},
              hypotheses=(lambda xp, y, g, gamma: stats(xp, y)[1] ** 2,),
              residual=lambda xp, y, g, gamma: xp.grad(lambda G: _inner(xp, y, g, G), gamma))
