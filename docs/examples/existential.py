"""Existential variables: "for every network there exist parameters such that ...".

Papers about batch normalization often state that something *can be chosen*:
"γ can be absorbed into the next layer's weights", "β can undo the shift".  Such a
claim says: for every instance x meeting the hypotheses there exist parameters p
with every entry of the residual R(x, p) ≥ 0 (here == 0, identities).  A Claim
lists the existential variables in `exists`; the residual takes them as keyword
arguments beside the universal ones, and may be a vector (a system of conditions
on p).

bnproof refutes such a claim only by proving, at one instance, that NO p exists:
where R is affine in p (as in all three claims below), with a Farkas certificate
the stdlib checker verifies itself.  Where a witness exists it is found (z3) and
confirmed exactly; surviving is "witnesses found for N instances", never a proof.

* gallery/existential/gamma-absorbed (true): for W and a nonzero γ, a W' with
  W'·ŷ = W·(γ ŷ) on every normalized sample ŷ of the batch (W' = γ W).
* gallery/existential/beta-cancels (true, its residual is exactly 0 at the witness):
  for every batch with σ > 0 and every γ, some β' makes the first sample's BN
  output γ ŷ_1 + β' equal to 0.
* gallery/existential/inverse-exists (false): "for every x there is p with p x = 1"
  fails at x = 0, where the Farkas multiplier y = -1 shows 0·p - 1 = 0 impossible.
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import normalize

SOURCE = "bnproof docs, existential-variable example"

GAMMA_ABSORBED = Claim(
    id="gallery/existential/gamma-absorbed",
    source=SOURCE,
    statement=r"\forall W, \gamma \ne 0\ \exists W' : W' \hat y_b = W (\gamma \hat y_b)",
    variables=(Var("y", ("m",)), Var("W", ()), Var("gamma", (), "nonzero")),
    exists=(Var("Wp", ()),),
    sizes={"m": (2, 3)},
    kind="identity",
    hypotheses=(lambda xp, y, W, gamma, Wp: xp.sum((y - xp.mean(y)) ** 2),),
    residual=lambda xp, y, W, gamma, Wp: Wp * normalize(xp, y)[0] - W * (gamma * normalize(xp, y)[0]),
)

BETA_CANCELS = Claim(
    id="gallery/existential/beta-cancels",
    source=SOURCE,
    statement=r"\forall y, \gamma\ \exists \beta' : \gamma \hat y_1 + \beta' = 0",
    variables=(Var("y", ("m",)), Var("gamma", ())),
    exists=(Var("beta_p", ()),),
    sizes={"m": (2, 2)},  # two samples: y-hat = (1, -1) or (-1, 1), so the witness is rational
    kind="identity",
    hypotheses=(lambda xp, y, gamma, beta_p: xp.sum((y - xp.mean(y)) ** 2),),
    residual=lambda xp, y, gamma, beta_p: gamma * normalize(xp, y)[0][0] + beta_p,
)

INVERSE_EXISTS = Claim(
    id="gallery/existential/inverse-exists",
    source=SOURCE,
    statement=r"\forall x\ \exists p : p x = 1",
    variables=(Var("x", ()),),
    exists=(Var("p", ()),),
    kind="identity",
    residual=lambda xp, x, p: p * x - 1,
)

EXPECTED = {
    GAMMA_ABSORBED.id: "survived",
    BETA_CANCELS.id: "survived",
    INVERSE_EXISTS.id: "refuted",
}
