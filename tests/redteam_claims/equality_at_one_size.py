"""(d − 1)·Σ_j w_j² >= 0: identically 0 at d = 1, a sum of squares (> 0 somewhere) at
d = 2, 3.  prove said "proved for every m at d = 1, 2, 3, with equality (the residual is
identically 0)": the first size's equality said of all three, (d − 1)·Σw² = 0 for every
d, which was not proved (and is false)."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="redteam/equality-at-one-size", source="red team", kind="inequality",
              statement=r"(d - 1) \sum_j w_j^2 \ge 0",
              variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 3)},
              residual=lambda xp, X, w: (X.shape[1] - 1) * xp.sum(w * w))
