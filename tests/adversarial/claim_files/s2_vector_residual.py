"""Section 2: a universal claim whose residual is a vector.  A mistake in the claim
file: bad input (exit 3) naming the file and line, never "undecided"."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/vector-residual", source="adversarial test", statement="x",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
              residual=lambda xp, y: y * y)
