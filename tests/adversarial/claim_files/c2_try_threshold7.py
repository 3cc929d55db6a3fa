"""Class 2, FALSE at m ≥ 7 only: the refusal is swallowed and the branch depends on m.

A search restricted to small m survives (correctly: no counterexample there), but
nothing may then say "proved for every m": the residual is −1 at m = 7, 8, 9."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    try:
        if y.shape[0] >= 7:
            return xp.q(-1)
    except Exception:
        pass
    return xp.sum(y) - xp.sum(y)


CLAIM = Claim(id="adv/swallowed-threshold-7", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 9)}, residual=_residual)
