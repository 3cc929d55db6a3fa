"""Class 5, TRUE: for every t there is p ∈ R² with σ(p) = t².

At t = 0, p = (0, 0) is a witness: σ = 0.  normalize(p) also computes ŷ = (p − μ)/σ,
a step that nothing reads; a query that demands every divisor ≠ 0 finds no witness."""
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import normalize

CLAIM = Claim(id="adv/exists-sigma-square", source="adversarial test", statement="x", kind="identity",
              variables=(Var("t"),), exists=(Var("p", (2,)),),
              residual=lambda xp, t, p: normalize(xp, p)[1] - t ** 2)
