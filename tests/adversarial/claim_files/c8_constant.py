"""Class 8, FALSE inequality −Σ(y − μ)² ≥ 0, which holds only at constant y, where
numpy's reading and the traced one (0, through isinstance) agree.

The id's number is chosen, as an attacker would choose it, so that 7329b19's witness search
(seeded by the id) lands on a degenerate instance where the two readings agree."""
import numpy as np

from bnproof.claims import Claim, Var


def _residual(xp, y):
    if isinstance(y, np.ndarray):
        return -xp.sum((y - xp.mean(y)) ** 2)
    return xp.sum(y) - xp.sum(y)


CLAIM = Claim(id="adv/degenerate-constant-1", source="adversarial test", statement="x",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=_residual)
