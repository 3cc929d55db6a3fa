"""A residual that reads the text of a value: the tracers print every node alike
("<traced value 3>"), numpy and the reference print the number.  At every batch with
Σy = 0 numpy (text "0.0") and the reference (text "0") both give −1, so the identity
is false there; everywhere else it is 0, which is all the traced program says."""
from bnproof.claims import Claim, Var


def residual(xp, y):
    s = xp.sum(y * y)
    zero = str(xp.sum(y)) in ("0", "0.0", "-0.0")
    return s - s - (1 if zero else 0)


CLAIM = Claim(id="redteam/text-of-zero", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=residual)
