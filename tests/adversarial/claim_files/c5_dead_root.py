"""Class 5, TRUE: for every x there is p with p² = x².

A dead √(p − 1), read by nothing: at x = 1/2 the witnesses are p = ±1/2, where the
radicand is negative."""
from bnproof.claims import Claim, Var


def _residual(xp, x, p):
    _unused = xp.sqrt(p - 1)
    return p * p - x * x


CLAIM = Claim(id="adv/exists-dead-root", source="adversarial test", statement="x", kind="identity",
              variables=(Var("x"),), exists=(Var("p"),), residual=_residual)
