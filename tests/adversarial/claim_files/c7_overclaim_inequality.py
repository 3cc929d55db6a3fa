"""Class 7, FALSE: an inequality for d in (1, 6) that holds at d ≤ 3 only: the
residual is Σy² ≥ 0 there and −1 at d ≥ 4."""
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import stats


def _residual(xp, y, w):
    extra = 1 if w.shape[0] >= 4 else 0
    return xp.sum(y * y) - extra * (xp.sum(y * y) + 1)


CLAIM = Claim(id="adv/overclaim-inequality", source="adversarial test", statement="x",
              variables=(Var("y", ("m",)), Var("w", ("d",))), sizes={"m": (2, 4), "d": (1, 6)},
              hypotheses=(lambda xp, y, w: stats(xp, y)[1] ** 2,), residual=_residual)
