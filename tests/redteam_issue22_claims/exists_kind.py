"""An existential claim whose code reads its backend: the tracer's program has the
witness p = x at every x, the claim's own code (p·p + 1 = 0) has none.  A witness of
the traced program alone is no witness: `fuzz` must not report them "confirmed
exactly" (before the fix it did, exit 0); exit 7 or undecided."""
from bnproof.claims import Claim, Var


def _residual(xp, x, p):
    return p - x if xp.kind == "trace" else p * p + 1


CLAIM = Claim(id="rt22/exists-kind", source="red team", statement="x", kind="identity",
              variables=(Var("x", ()),), exists=(Var("p", ()),), residual=_residual)
