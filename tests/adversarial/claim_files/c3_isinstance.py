"""Class 3, FALSE: isinstance(v, np.ndarray) in a helper.

Under numpy the residual is Σy (false whenever Σy ≠ 0); a traced batch vector is not
an ndarray, so the tracer reads Σ(y − μ) ≡ 0.

The id's number is chosen, as an attacker would choose it, so that 7329b19's witness search
(seeded by the id) lands on a degenerate instance where the two readings agree."""
from bnproof.claims import Claim, Var

from adv_c3_shapes import centred

CLAIM = Claim(id="adv/introspect-isinstance-0", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 5)},
              residual=lambda xp, y: xp.sum(centred(xp, y)))
