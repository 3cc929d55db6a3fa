"""Class 7, FALSE: an identity for d in (1, 6) that holds at d ≤ 3 only (the residual
is −1 at d ≥ 4).  Proofs at d = 1, 2, 3 do not cover the claim."""
from bnproof.claims import Claim, Var


def _residual(xp, y, w):
    extra = 1 if w.shape[0] >= 4 else 0
    return xp.sum(y) - xp.sum(y) - extra


CLAIM = Claim(id="adv/overclaim-identity", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)), Var("w", ("d",))), sizes={"m": (2, 4), "d": (1, 6)},
              residual=_residual)
