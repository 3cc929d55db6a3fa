"""Class 2, FALSE: the refusal is swallowed in a helper module beside the claim.

Σ|y − μ| = Σ(y − μ)² is false (y = (0, 1, 5): 6 against 14); the fallback branch
of the helper makes the traced program Σ(y − μ)² − Σ(y − μ)² ≡ 0.

The id's number is chosen, as an attacker would choose it, so that 7329b19's witness search
(seeded by the id) lands on a degenerate instance where the two readings agree."""
from bnproof.claims import Claim, Var

from adv_c2_spread import spread

CLAIM = Claim(id="adv/swallowed-in-helper-1", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 5)},
              residual=lambda xp, y: spread(xp, y) - xp.sum((y - xp.mean(y)) ** 2))
