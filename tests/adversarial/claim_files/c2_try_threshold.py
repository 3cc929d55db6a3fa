"""Class 2, FALSE: a refusal swallowed by try/except in the claim.

Under numpy the residual is −1 at every m ≥ 4 (the comparison of ints works); the
symbolic-length tracer refuses to compare its symbolic m, the claim catches the
refusal, and the proof is made for the fallback branch (residual 0)."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    try:
        if y.shape[0] >= 4:
            return xp.q(-1)
    except Exception:
        pass
    return xp.sum(y) - xp.sum(y)


CLAIM = Claim(id="adv/swallowed-threshold", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 6)}, residual=_residual)
