"""Section 2, FALSE: leaky_relu(x, 1/10) ≤ x/10, false for every x > 0
(max(x, x/10) = x there)."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/leaky-slope-false", source="adversarial test", statement="x",
              variables=(Var("x"),),
              residual=lambda xp, x: x * xp.q(1, 10) - xp.leaky_relu(x, xp.q(1, 10)))
