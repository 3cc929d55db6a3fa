"""FALSE: Σy = 0.  np.isfinite(y) never raises on numpy's float arrays, so numpy's reading
is the residual Σy; on object arrays (every exact reading: the tracer, the symbolic-length
tracer and the second reading) numpy raises TypeError, the claim swallows it, and all
three read the fallback 0: "proved for every m", "verified exactly", "holds" at y = (1, 2)."""
import numpy as np

from bnproof.claims import Claim, Var


def _residual(xp, y):
    s = xp.sum(y)
    try:
        np.isfinite(y)
        return s
    except TypeError:
        return s - s


CLAIM = Claim(id="rt22/isfinite-identity", source="red team", statement=r"\sum y = 0", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, exact_sizes={"m": (2, 3)},
              residual=_residual)
