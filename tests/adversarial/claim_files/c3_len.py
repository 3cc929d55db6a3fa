"""Class 3, FALSE: len(v) in a helper, on an (m, d) batch.

Under numpy len(X) = m and the residual is (m − 1)·Σ Xw; the traced batch matrix has
no len(), the helper falls back to 1, and the tracer reads 0.

The id's number is chosen, as an attacker would choose it, so that 7329b19's witness search
(seeded by the id) lands on a degenerate instance where the two readings agree."""
from bnproof.claims import Claim, Var

from adv_c3_shapes import rows

CLAIM = Claim(id="adv/introspect-len-7", source="adversarial test", statement="x", kind="identity",
              variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 5), "d": (1, 2)},
              residual=lambda xp, X, w: rows(X) * xp.sum(X @ w) - xp.sum(X @ w))
