"""FALSE: Σy = 0.  numpy's reading is Σy (np.isfinite never raises on float arrays); every
exact reading swallows numpy's TypeError on object arrays and reads Σy − Σy plus
tiny/tiny − 1 = 0 (tiny = 10⁻⁴⁰⁰, infinite rounding magnitude: the float checks compare
nothing): "proved for every m", "verified exactly", "holds" at y = (1, 2)."""
import numpy as np

from bnproof.claims import Claim, Var


def _residual(xp, y):
    s = xp.sum(y)
    try:
        np.isfinite(y)
        return s
    except TypeError:
        tiny = xp.q(1, 10 ** 100) ** 4
        return s - s + (tiny / tiny - 1)


CLAIM = Claim(id="rt22/isfinite-infinite-kappa", source="red team", statement=r"\sum y = 0", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, exact_sizes={"m": (2, 3)},
              residual=_residual)
