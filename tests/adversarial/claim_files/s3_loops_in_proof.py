"""Section 3, TRUE (Σy − Σy = 0), but the residual loops forever when its batch vector
is the symbolic one of the proof for every m: the search (numpy) and the tracing at
fixed sizes are quick, while the proof attempt that `fuzz` makes for a survivor never
returns unless the budget bounds it.  (It looped on any vector that was neither numpy's
nor JAX's, and so, since fuzz traces the claim before searching, before any instance.)
It says when it starts looping (looping.PID, in the working folder), for the test's clock."""
import os

from bnproof.claims import Claim, Var


def _residual(xp, y):
    looping = "symbolic_m" in type(y).__module__
    if looping:
        with open(f"looping.{os.getpid()}", "w"):
            pass
    while looping:
        pass
    return xp.sum(y) - xp.sum(y)


CLAIM = Claim(id="adv/loops-in-proof", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
