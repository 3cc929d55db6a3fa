"""TRUE: Σy² ≥ 0 under numpy (float64 arrays).  The exact readings' branch adds
big − big = 0 with big = 10⁴⁰⁰: its float evaluation overflows, so numpy's float64 check
skips the value (JAX's does not)."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    s = xp.sum(y * y)
    if y.dtype == object:
        big = xp.q(10 ** 100) ** 4
        return (-1 - s) + (big - big)
    return s


CLAIM = Claim(id="rt22/dtype-overflow", source="red team", statement=r"\sum y^2 \ge 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
