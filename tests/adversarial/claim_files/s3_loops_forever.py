"""Section 3: a residual that never returns.  `prove --time-budget` must stop.  It says
when it starts looping (looping.pid, in the working folder), for the test's clock."""
import os

from bnproof.claims import Claim, Var


def _residual(xp, y):
    with open(f"looping.{os.getpid()}", "w"):
        pass
    while True:
        pass


CLAIM = Claim(id="adv/loops-forever", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
