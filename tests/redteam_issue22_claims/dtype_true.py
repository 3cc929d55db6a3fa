"""TRUE: Σy² ≥ 0, for numpy's float arrays (y.dtype is float64, never object).  Every exact
reading holds y as an object array, so both take the false branch; only JAX float64 sees
the difference (exit 7), and `fuzz --no-jax` and `check --claim` do not ask it."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    if y.dtype == object:
        return -1 - xp.sum(y * y)
    return xp.sum(y * y)


CLAIM = Claim(id="rt22/dtype-true", source="red team", statement=r"\sum y^2 \ge 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
