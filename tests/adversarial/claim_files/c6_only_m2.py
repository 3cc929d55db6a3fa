"""Class 6: Σŷ³ = 0, stated for m = 2 only (true there: ŷ = ±1).

At m = 3 it is false, but m = 3 is not the claim's: data or a certificate at m = 3
says nothing about it."""
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import normalize, stats

CLAIM = Claim(id="adv/only-m2", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 2)},
              hypotheses=(lambda xp, y: stats(xp, y)[1] ** 2,),
              residual=lambda xp, y: xp.sum(normalize(xp, y)[0] ** 3))
