"""TRUE: Σy² ≥ 0.  `latex CERT --claim` of a certificate made for another program with
the same id and statement must not write this claim up as refuted."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="rt22/square", source="red team", statement=r"\sum y^2 \ge 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)},
              residual=lambda xp, y: xp.sum(y * y))
