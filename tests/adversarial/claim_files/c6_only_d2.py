"""Class 6: a claim stated for d = 2 only, true there and false at d = 3:
(d − 2)·Σw² = 0."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/only-d2", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)), Var("w", ("d",))), sizes={"m": (2, 3), "d": (2, 2)},
              residual=lambda xp, y, w: (w.shape[0] - 2) * xp.sum(w * w))
