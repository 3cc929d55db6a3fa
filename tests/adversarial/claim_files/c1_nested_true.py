"""Class 1, TRUE: γ·∂/∂γ(∂f/∂y₀) = ∂f/∂y₀ for f = Σ g·BN(y; γ, 0).

True because Fact C.1's gradient ∂f/∂y is linear in γ.  The inner function reads
the outer gradient's variable γ: without a tag per gradient call, forward mode adds
the two perturbations together (perturbation confusion)."""
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats


def _inner(xp, y, g, gam):
    return xp.grad(lambda a: xp.sum(g * batch_norm(xp, a, gam, 0)), y)[0]


def _residual(xp, y, g, gamma):
    lhs = gamma * xp.grad(lambda G: _inner(xp, y, g, G), gamma)
    return lhs - _inner(xp, y, g, gamma)


CLAIM = Claim(id="adv/nested-grad", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)), Var("g", ("m",)), Var("gamma", ())),
              sizes={"m": (2, 3)}, hypotheses=(lambda xp, y, g, gamma: stats(xp, y)[1] ** 2,),
              residual=_residual)
