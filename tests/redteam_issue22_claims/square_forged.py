"""FALSE, and not the claim of square_true.py: the same id and statement, another program."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="rt22/square", source="red team", statement=r"\sum y^2 \ge 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)},
              residual=lambda xp, y: -1 - xp.sum(y * y))
