"""TRUE: Σy² ≥ 0 (np.isnan of a number is never True, and never raises in numpy's floats).
On an exact scalar numpy's object loop has no isnan: TypeError, swallowed, and the exact
readings judge the fallback −Σy² − 1: refuted with an accepted certificate."""
import numpy as np

from bnproof.claims import Claim, Var


def _residual(xp, y):
    s = xp.sum(y * y)
    try:
        if np.isnan(s):
            return xp.q(-1)
        return s
    except Exception:
        return -s - 1


CLAIM = Claim(id="rt22/isnan-true", source="red team", statement=r"\sum y^2 \ge 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
