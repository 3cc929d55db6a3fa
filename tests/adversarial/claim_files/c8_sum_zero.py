"""Class 8, FALSE identity Σy = 0 whose difference from the traced program vanishes
exactly where the claim holds: at Σy = 0.

The symbolic-length tracer refuses xp.relu; the claim catches that and traces 0.
A safeguard that compares the two readings only at witnesses of the claim sees
Σy = 0 there, where both agree.

The id's number is chosen, as an attacker would choose it, so that 7329b19's witness search
(seeded by the id) lands on a degenerate instance where the two readings agree."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    try:
        return xp.sum(y) * xp.relu(xp.q(1))
    except Exception:
        return xp.sum(y) - xp.sum(y)


CLAIM = Claim(id="adv/degenerate-sum-1", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=_residual)
