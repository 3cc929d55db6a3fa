"""Section 3: a residual that never returns.  `prove --time-budget` must stop."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    while True:
        pass


CLAIM = Claim(id="adv/loops-forever", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
