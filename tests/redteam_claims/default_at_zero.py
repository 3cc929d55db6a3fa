"""A helper that special-cases a float zero (isinstance): numpy takes that branch at
Σy = 0, every exact reading never does, so the identity, true wherever the exact
readings define it, is false under numpy at every batch with Σy = 0 (residual 1)."""
from bnproof.claims import Claim, Var


def ratio(a, b):
    if isinstance(b, float) and b == 0.0:  # numpy's float64 is a float: 1 by convention
        return 1.0
    return a / b


def residual(xp, y):
    s = xp.sum(y)
    return ratio(s * s, s) - s


CLAIM = Claim(id="redteam/default-at-zero", source="red team", kind="identity",
              statement=r"\frac{(\sum y)^2}{\sum y} = \sum y",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, exact_sizes={"m": (2, 3)},
              residual=residual)
