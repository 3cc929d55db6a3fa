"""Class 3, FALSE: getattr(v, "size", 1) in a helper.

Under numpy the residual is (m − 1)·Σy; a traced batch vector has no `size`, so the
tracer reads 1·Σy − Σy ≡ 0.

The id's number is chosen, as an attacker would choose it, so that 7329b19's witness search
(seeded by the id) lands on a degenerate instance where the two readings agree."""
from bnproof.claims import Claim, Var

from adv_c3_shapes import count

CLAIM = Claim(id="adv/introspect-size-1", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 5)},
              residual=lambda xp, y: count(y) * xp.sum(y) - xp.sum(y))
