"""FALSE: at m = 9 the residual is −1 at y = (7/13, …, 7/13) (and within 10⁻⁶ of it), 0 at every
other instance and every m < 9.  Its identity is proved at m = 2, 3 only (exact_sizes) of the
declared 2..9: `fuzz` must not give it the verdict verified-exactly."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    if y.shape[0] < 9:
        return xp.sum(y) - xp.sum(y)
    return -xp.relu(1 - 10 ** 12 * xp.sum((y - xp.q(7, 13)) ** 2))


CLAIM = Claim(id="rt22/partial-exact-sizes", source="red team", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 9)}, exact_sizes={"m": (2, 3)},
              residual=_residual)
