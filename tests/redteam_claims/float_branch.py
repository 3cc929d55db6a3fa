"""A residual that takes one branch for numpy's float64 and another for every exact
reading (the tracers' nodes and the reference's values are no float subclass, and
type() cannot be made to lie): under numpy it is −1 at every instance, so the
identity is false; the exact readings agree with each other on 0."""
from bnproof.claims import Claim, Var


def residual(xp, y):
    s = xp.sum(y * y)
    return s - s if not issubclass(type(xp.sum(y)), float) else s - s - 1


CLAIM = Claim(id="redteam/float-branch", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=residual)
