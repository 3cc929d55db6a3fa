"""A range from m = 0: Σy > 0 for a positive batch y is true at every m >= 1, false at
m = 0 (an empty sum).  fuzz refuses the claim as bad input (sizes start at 1); prove said
"proved for every m", exit 0, and `check --claim` accepted its certificate."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="redteam/size-from-zero", source="red team", kind="inequality", strict=True,
              statement=r"\sum_b y_b > 0", variables=(Var("y", ("m",), "positive"),), sizes={"m": (0, 3)},
              residual=lambda xp, y: xp.sum(y))
