"""∀a ∃p: p·a = 1 (false at a = 0), with a hypothesis that reads the existential p:
a⁴p² > 0.  fuzz refuses such a claim (hypotheses may read only the universal
variables); `prove` substituted the hint p = 1/a into the hypothesis too, read it as
a² > 0, which made the hint defined, and said "proved for every m (witness: the claim's
hint)", exit 0, with a certificate `check --claim` accepted."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="redteam/hint-hypothesis-reads-witness", source="red team", kind="identity",
              statement=r"\forall a\ \exists p: p a = 1",
              variables=(Var("y", ("m",)), Var("a")), exists=(Var("p"),), sizes={"m": (2, 4)},
              residual=lambda xp, y, a, p: p * a - 1,
              hypotheses=(lambda xp, y, a, p: a ** 4 * p ** 2,),
              hints=(lambda xp, y, a: 1 / a,))
