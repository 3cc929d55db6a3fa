"""The mirror of float_branch.py: 0 under numpy's float64 at every instance (a TRUE
identity there), −1 in every exact reading and in JAX (whose scalars are no float
subclass either): a refutation of it is a refutation of a true claim."""
from bnproof.claims import Claim, Var


def residual(xp, y):
    s = xp.sum(y * y)
    return s - s if issubclass(type(xp.sum(y)), float) else s - s - 1


CLAIM = Claim(id="redteam/float-branch-true", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=residual)
