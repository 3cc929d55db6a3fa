"""Section 2, TRUE: leaky_relu(x, 1/10) ≥ x/10, with the slope written as
docs/claims.md documents it, xp.q(1, 10)."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/leaky-slope-true", source="adversarial test", statement="x",
              variables=(Var("x"),),
              residual=lambda xp, x: xp.leaky_relu(x, xp.q(1, 10)) - x * xp.q(1, 10))
