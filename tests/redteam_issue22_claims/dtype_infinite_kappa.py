"""TRUE: Σy² ≥ 0 under numpy (and JAX): their arrays are float64, so the residual is Σy².
Every exact reading holds y as an object array and takes the other branch, −1 − Σy²,
plus tiny/tiny − 1 = 0 with tiny = 10⁻⁴⁰⁰: a quotient of a value that rounds to 0 in
floats, so its rounding magnitude κ is infinite and both float checks (numpy's and
JAX's) compare nothing.  Refuted, with JAX on, and the certificate is accepted."""
from bnproof.claims import Claim, Var


def _residual(xp, y):
    s = xp.sum(y * y)
    if y.dtype == object:
        tiny = xp.q(1, 10 ** 100) ** 4
        return -1 - s + (tiny / tiny - 1)
    return s


CLAIM = Claim(id="rt22/dtype-infinite-kappa", source="red team", statement=r"\sum y^2 \ge 0",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_residual)
