"""∀y ∃p (a scalar): y_b = p for every b, false wherever y is not constant.  The hint
returns the vector y for the scalar p; numpy broadcasts y − p entrywise to 0, so prove
said "proved for every m (witness: the claim's hint)", exit 0, and `check --claim`
accepted the certificate.  fuzz leaves such a hint out (a value of another shape)."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="redteam/hint-of-another-shape", source="red team", kind="identity",
              statement=r"\forall y\ \exists p \in \mathbb{R}: y_b = p\ \forall b",
              variables=(Var("y", ("m",)),), exists=(Var("p"),), sizes={"m": (2, 4)},
              residual=lambda xp, y, p: y - p, hints=(lambda xp, y: y,))

SQUARED = Claim(id="redteam/hint-of-another-shape-squared", source="red team", kind="identity",
                statement=r"\forall y\ \exists p \in \mathbb{R}: \sum_b (y_b - p)^2 = 0",
                variables=(Var("y", ("m",)),), exists=(Var("p"),), sizes={"m": (2, 4)},
                residual=lambda xp, y, p: xp.sum((y - p) ** 2), hints=(lambda xp, y: y,))
