"""A residual that recognises the tracers by the module of their values' class and
gives them 0, while numpy and the reference compute −1 at every batch with y₀ = y₁
(a Python comparison): false on a set of measure zero that generic instances avoid."""
from bnproof.claims import Claim, Var


def traced(v):
    return type(v).__module__.startswith(("bnproof.program", "bnproof.symbolic_m"))


def residual(xp, y):
    s = xp.sum(y * y)
    if traced(s):
        return s - s
    return s - s - (1 if y[0] == y[1] else 0)


CLAIM = Claim(id="redteam/tracer-tie", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=residual)
