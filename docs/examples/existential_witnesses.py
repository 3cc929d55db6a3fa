"""Existential claims whose witnesses enter through a square root, abs or max.

"β and γ can undo the normalization", "BN can map the batch onto any interval":
the parameters that make such a claim true are functions of the batch's σ, so at
most batches they are irrational, and z3 either finds only irrational witnesses
(which the exact engine cannot take as values) or answers unknown.  bnproof finds
witnesses three more ways: the claim's own hints (functions of the universal
variables; where the hint is irrational at an instance, its program is
composed with the claim's and decided exactly), a numeric search whose points
are rounded to simple fractions, and the linear pieces of piecewise-linear
claims.  Every witness is confirmed exactly, read a second time in the claim's
own code, and confirmed by the independent checker: `bnproof.fuzz(..., out_dir=D)`
writes them to D/<id>.witnesses.json, which `bnproof check` accepts.

* gallery/existential_witnesses/bn-represents-identity (true, σ): for every batch
  with σ > 0 there are γ, β with γ ŷ + β = y (Ioffe & Szegedy 2015, §3: γ = σ,
  β = μ).  At m = 3, 4 σ is irrational: witnesses by the hint, which the checker
  confirms as the hint's program composed with the claim's.  Through the same hint
  `bnproof prove` proves it for every m (witness: the claim's hint; every division
  and root defined where σ > 0): see also every_m_exists.py.
* gallery/existential_witnesses/mean-abs-target (true, abs): for every batch with
  σ > 0 and every t > 0 there are γ, β with the mean of |γ ŷ_b + β| equal to t.
  No hint: the numeric search's points, rounded to simple fractions (or with one
  coordinate pinned to 0 and the other solved), give rational witnesses.
* gallery/existential_witnesses/bn-onto-interval (true, max and min): for every
  batch with σ > 0, every lo and every w > 0 there are γ, β with min_b BN_b = lo
  and max_b BN_b = lo + w; the hint γ = w / (max ŷ − min ŷ), β = lo − γ min ŷ.
* gallery/existential_witnesses/bn-onto-any-interval (false): the same for every
  w, w ≤ 0 included; at w < 0 no γ, β exist (the maximum is never below the
  minimum), which z3 and cvc5 both confirm.
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, normalize

SOURCE = "bnproof docs, existential witnesses example"
SIZES = {"m": (2, 4)}


def spread(xp, y, *_unused):
    """Σ (y_b − ȳ)², > 0 exactly when σ > 0."""
    return xp.sum((y - xp.mean(y)) ** 2)


def bn_range(xp, y, lo, w, gamma, beta):
    z = batch_norm(xp, y, gamma, beta)
    return xp.asarray([xp.min(z) - lo, xp.max(z) - (lo + w)])


def onto_interval_hint(xp, y, lo, w):
    yhat = normalize(xp, y)[0]
    gamma = w / (xp.max(yhat) - xp.min(yhat))
    return {"gamma": gamma, "beta": lo - gamma * xp.min(yhat)}


BN_REPRESENTS_IDENTITY = Claim(
    id="gallery/existential_witnesses/bn-represents-identity",
    source=SOURCE,
    statement=r"\forall y,\ \sigma_B > 0\ \exists \gamma, \beta : \gamma \hat y + \beta = y",
    variables=(Var("y", ("m",)),),
    exists=(Var("gamma", ()), Var("beta", ())),
    sizes=SIZES,
    kind="identity",
    hypotheses=(lambda xp, y, gamma, beta: spread(xp, y),),
    residual=lambda xp, y, gamma, beta: batch_norm(xp, y, gamma, beta) - y,
    hints=(lambda xp, y: {"gamma": normalize(xp, y)[1], "beta": xp.mean(y)},),
)

MEAN_ABS_TARGET = Claim(
    id="gallery/existential_witnesses/mean-abs-target",
    source=SOURCE,
    statement=r"\forall y,\ \sigma_B > 0,\ t > 0\ \exists \gamma, \beta : "
              r"\frac{1}{m}\sum_b |\gamma \hat y_b + \beta| = t",
    variables=(Var("y", ("m",)), Var("t", (), "positive")),
    exists=(Var("gamma", ()), Var("beta", ())),
    sizes=SIZES,
    kind="identity",
    hypotheses=(lambda xp, y, t, gamma, beta: spread(xp, y),),
    residual=lambda xp, y, t, gamma, beta: xp.mean(xp.abs(batch_norm(xp, y, gamma, beta))) - t,
)

BN_ONTO_INTERVAL = Claim(
    id="gallery/existential_witnesses/bn-onto-interval",
    source=SOURCE,
    statement=r"\forall y,\ \sigma_B > 0,\ \ell,\ w > 0\ \exists \gamma, \beta : "
              r"\min_b \mathrm{BN}_b = \ell,\ \max_b \mathrm{BN}_b = \ell + w",
    variables=(Var("y", ("m",)), Var("lo", ()), Var("w", (), "positive")),
    exists=(Var("gamma", ()), Var("beta", ())),
    sizes=SIZES,
    kind="identity",
    hypotheses=(lambda xp, y, lo, w, gamma, beta: spread(xp, y),),
    residual=bn_range,
    hints=(onto_interval_hint,),
)

BN_ONTO_ANY_INTERVAL = Claim(
    id="gallery/existential_witnesses/bn-onto-any-interval",
    source=SOURCE,
    statement=r"\forall y,\ \sigma_B > 0,\ \ell,\ w\ \exists \gamma, \beta : "
              r"\min_b \mathrm{BN}_b = \ell,\ \max_b \mathrm{BN}_b = \ell + w",
    variables=(Var("y", ("m",)), Var("lo", ()), Var("w", ())),
    exists=(Var("gamma", ()), Var("beta", ())),
    sizes=SIZES,
    kind="identity",
    hypotheses=(lambda xp, y, lo, w, gamma, beta: spread(xp, y),),
    residual=bn_range,
)

EXPECTED = {
    BN_REPRESENTS_IDENTITY.id: "survived",
    MEAN_ABS_TARGET.id: "survived",
    BN_ONTO_INTERVAL.id: "survived",
    BN_ONTO_ANY_INTERVAL.id: "refuted",
}
