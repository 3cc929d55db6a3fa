"""Class 4: a gradient's function stores its argument in a module global, and the
residual reads it afterwards.  What it stores is a backend's internal value (a dual
number, the symbolic tracer's `grad-probe` input); whatever the verdict, no command
may crash on it (exit 8)."""
from bnproof.claims import Claim, Var

_KEPT = []


def _square_norm(xp):
    def f(t):
        _KEPT.append(t)
        return xp.sum(t * t)
    return f


def _residual(xp, y):
    _KEPT.clear()
    gradient = xp.grad(_square_norm(xp), y)
    return xp.sum(gradient * y) - 2 * xp.sum(_KEPT[0] * y)


CLAIM = Claim(id="adv/grad-keeps-argument", source="adversarial test", statement="x",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
