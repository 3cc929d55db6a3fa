"""Two claims with one id: the first TRUE (Σ(y − ȳ) = 0), the second FALSE (Σy = 0).  `prove`
ran each in its worker, which loads the claim by its id, so the second got the first's
proof: "rt22/same-id: proved for every m" twice, exit 0.  fuzz refuses such a file."""
from bnproof.claims import Claim, Var

CENTRED = Claim(id="rt22/same-id", source="red team", statement="x", kind="identity",
                variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
                residual=lambda xp, y: xp.sum(y - xp.mean(y)))
PLAIN = Claim(id="rt22/same-id", source="red team", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
              residual=lambda xp, y: xp.sum(y))
