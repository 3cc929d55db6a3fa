"""Neither true nor false: numpy raises ValueError for np.ones(-1), and JAX too.  The
tracers' ones(n) was a list repeated n times, empty for n = −1, so Σ ones(−1) = 0 and
`prove` said "proved for every m, with equality"."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="rt22/ones-negative", source="red team", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
              residual=lambda xp, y: xp.sum(xp.ones(-1)) + 0 * xp.sum(y))
