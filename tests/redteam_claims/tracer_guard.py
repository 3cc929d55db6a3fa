"""As tracer_tie.py, without a Python branch on a value: −1 exactly where y₀ = y₁ by a
guard whose condition −(y₀ − y₁)² ≥ 0 holds only there, under a min with 0.  The
traced program (every m) has no piecewise step; the claim's own code takes one."""
from bnproof.claims import Claim, Var


def traced(v):
    return type(v).__module__.startswith(("bnproof.program", "bnproof.symbolic_m"))


def residual(xp, y):
    s = xp.sum(y * y)
    if traced(s):
        return s - s
    return s - s + xp.minimum(xp.guard(xp.q(-1), -(y[0] - y[1]) ** 2), xp.q(0))


CLAIM = Claim(id="redteam/tracer-guard", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=residual)
