"""Section 3, TRUE (Σy − Σy = 0), but the residual loops forever when its batch vector
is neither a numpy array nor a JAX array: the search (numpy, JAX) is quick, while the
proof attempt that `fuzz` makes for a survivor (a traced batch vector) never returns
unless the budget bounds it."""
import numpy as np

from bnproof.claims import Claim, Var


def _residual(xp, y):
    kind = type(y)
    while kind is not np.ndarray and "jax" not in kind.__module__:
        pass
    return xp.sum(y) - xp.sum(y)


CLAIM = Claim(id="adv/loops-in-proof", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
