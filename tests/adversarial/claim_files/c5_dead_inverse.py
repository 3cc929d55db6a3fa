"""Class 5, TRUE: for every x there is p with p² = x² (p = x).

A dead 1/p, read by nothing: at x = 0 the only witness is p = 0."""
from bnproof.claims import Claim, Var


def _residual(xp, x, p):
    _unused = 1 / p
    return p * p - x * x


CLAIM = Claim(id="adv/exists-dead-inverse", source="adversarial test", statement="x", kind="identity",
              variables=(Var("x"),), exists=(Var("p"),), residual=_residual)
