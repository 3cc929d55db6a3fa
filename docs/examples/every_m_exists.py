"""Existential claims proved for every batch size m through their hints (docs/claims.md,
"Existential variables" and "Proofs for every m"), and near misses never proved.

"For every batch y there are parameters p with R(y, p) = 0" holds for every m when a
hint h (the claim's `hints=`, p as functions of y) gives R(y, h(y)) = 0 for every m and
is DEFINED wherever the hypotheses hold: h(y) is then the witness at every instance.
`bnproof prove` traces the claim with h substituted, proves that universal claim with
the every-m prover, proves every division and root of the substituted program defined
(a divisor ≠ 0, a radicand ≥ 0, by form or as a positive multiple of a hypothesis),
and writes a proof certificate marked as existential, which the checker replays:
"proved for every m (witness: the claim's hint)".  A hint may be irrational (γ = σ at
rational y): it is no longer an input, only a function of one.

True, proved for every m:

* RECOVER_EPS: Dannemann & Junike (2025), Remark 2.7 / Santurkar et al. (2018),
  Observation 4.3, corrected and stated as it is meant: for every batch y and ε > 0
  there are γ, β with γ·BN_ε(y) + β = y; hint γ = √(σ² + ε), β = μ (defined for every
  y: σ² + ε > 0 by form).
* RMS_GAIN: for every x and ε > 0 there is a gain g with g·RMSNorm_ε(x) = x; hint
  g = √(mean(x²) + ε).
* SCALE: for every batch with σ > 0 there is c with BN(c·y) = BN(y); hint c = 2
  (√(4V) = 2√V).
* INVERSE_DEFINED: for every y with Σy ≠ 0 (the hypothesis (Σy)² > 0) there is γ with
  γ·(Σy)² = Σy; hint γ = 1/Σy, defined there: Σy ≠ 0 because its square is the
  hypothesis.  Compare INVERSE_UNDEFINED below.

Near misses, never proved:

* RECOVER_WRONG_HINT: the true claim RECOVER_EPS with the hint β = 0: not proved (its
  normal form is (Σy)²/m).  The claim is still true, and a wrong hint decides nothing:
  fuzz's other searches find rational witnesses only where σ is rational, and z3's
  witnesses elsewhere are irrational, so the search ends undecided (never refuted).
* INVERSE_UNDEFINED: for every y there is γ with γ·(Σy)² = Σy (true: any γ at Σy = 0),
  hint γ = 1/Σy, with no hypothesis: the substituted residual is 0 where it is defined,
  but the hint divides by Σy, which is not ≠ 0 everywhere: not proved (fuzz: survived,
  with witnesses at its instances).
* SQUARES_FALSE: for every batch there are γ, β with γ·(y − μ) + β = y∘y (false at
  m ≥ 3: the squares are not an affine image of the batch), hint γ = 1, β = μ: not
  proved, and refuted by fuzz (no witness, by Farkas' lemma).
"""

from bnproof.claims import Claim, Var

SOURCE = "bnproof docs, every-m existential example"
SIZES = {"m": (2, 4)}


def _variance(xp, y):
    return xp.mean((y - xp.mean(y)) ** 2)


def _bn(xp, y, gamma, beta, eps):
    return gamma * (y - xp.mean(y)) / xp.sqrt(_variance(xp, y) + eps) + beta


def spread(xp, y, *_unused, **_also):
    """Σ (y_b − ȳ)², > 0 exactly when σ > 0."""
    return xp.sum((y - xp.mean(y)) ** 2)


RECOVER = dict(
    source="Dannemann & Junike (2025), Remark 2.7 (corrected, as an existential claim; with BN's ε)",
    statement=r"\forall y,\ \varepsilon > 0\ \exists \gamma, \beta : \gamma\,\mathrm{BN}_\varepsilon(y) + \beta = y",
    kind="identity", variables=(Var("y", ("m",)), Var("eps", (), "positive")),
    exists=(Var("gamma"), Var("beta")), sizes=SIZES,
    residual=lambda xp, y, eps, gamma, beta: _bn(xp, y, gamma, beta, eps) - y,
)

RECOVER_EPS = Claim(
    id="gallery/every_m_exists/recover", title="γ and β can undo BN_ε (γ = √(σ² + ε), β = μ)", **RECOVER,
    hints=(lambda xp, y, eps: {"gamma": xp.sqrt(_variance(xp, y) + eps), "beta": xp.mean(y)},),
)

RMS_GAIN = Claim(
    id="gallery/every_m_exists/rms-gain",
    source="bnproof docs, every-m existential example (RMSNorm: Zhang & Sennrich 2019)",
    statement=r"\forall x,\ \varepsilon > 0\ \exists g : g\,x/\sqrt{\overline{x^2} + \varepsilon} = x",
    title="RMSNorm's gain can undo it", kind="identity",
    variables=(Var("x", ("m",)), Var("eps", (), "positive")), exists=(Var("g"),), sizes=SIZES,
    residual=lambda xp, x, eps, g: g * x / xp.sqrt(xp.mean(x ** 2) + eps) - x,
    hints=(lambda xp, x, eps: xp.sqrt(xp.mean(x ** 2) + eps),),
)

SCALE = Claim(
    id="gallery/every_m_exists/scale",
    source="bnproof docs, every-m existential example",
    statement=r"\forall y,\ \sigma_B > 0\ \exists c : \mathrm{BN}(c\,y) = \mathrm{BN}(y)",
    title="some rescaling leaves BN unchanged (c = 2)", kind="identity",
    variables=(Var("y", ("m",)),), exists=(Var("c"),), sizes=SIZES,
    hypotheses=(spread,),
    residual=lambda xp, y, c: _bn(xp, c * y, 1, 0, 0) - _bn(xp, y, 1, 0, 0),
    hints=(lambda xp, y: 2,),
)

RECOVER_WRONG_HINT = Claim(
    id="gallery/every_m_exists/recover-wrong-hint", title="the same claim, hinted β = 0",
    **RECOVER, hints=(lambda xp, y, eps: {"gamma": xp.sqrt(_variance(xp, y) + eps), "beta": 0},),
)

INVERSE_UNDEFINED = Claim(
    id="gallery/every_m_exists/inverse-undefined",
    source="bnproof docs, every-m existential example (a hint undefined at Σy = 0)",
    statement=r"\forall y\ \exists \gamma : \gamma \left(\textstyle\sum_b y_b\right)^2 = \textstyle\sum_b y_b",
    title="γ = 1/Σy is no witness where Σy = 0", kind="identity",
    variables=(Var("y", ("m",)),), exists=(Var("gamma"),), sizes=SIZES,
    residual=lambda xp, y, gamma: gamma * xp.sum(y) ** 2 - xp.sum(y),
    hints=(lambda xp, y: 1 / xp.sum(y),),
)

INVERSE_DEFINED = Claim(
    id="gallery/every_m_exists/inverse-defined",
    source="bnproof docs, every-m existential example (a hint defined under the hypothesis)",
    statement=r"\forall y,\ \textstyle\sum_b y_b \ne 0\ \exists \gamma : "
              r"\gamma \left(\textstyle\sum_b y_b\right)^2 = \textstyle\sum_b y_b",
    title="γ = 1/Σy is a witness where Σy ≠ 0", kind="identity",
    variables=(Var("y", ("m",)),), exists=(Var("gamma"),), sizes=SIZES,
    hypotheses=(lambda xp, y, gamma: xp.sum(y) ** 2,),
    residual=INVERSE_UNDEFINED.residual, hints=INVERSE_UNDEFINED.hints,
)

SQUARES_FALSE = Claim(
    id="gallery/every_m_exists/squares-false",
    source="bnproof docs, every-m existential example (a false claim)",
    statement=r"\forall y\ \exists \gamma, \beta : \gamma (y - \mu) + \beta = y \circ y",
    title="the squares of a batch are no affine image of it", kind="identity",
    variables=(Var("y", ("m",)),), exists=(Var("gamma"), Var("beta")), sizes=SIZES,
    residual=lambda xp, y, gamma, beta: gamma * (y - xp.mean(y)) + beta - y * y,
    hints=(lambda xp, y: {"gamma": 1, "beta": xp.mean(y)},),
)

EXPECTED = {
    RECOVER_EPS.id: "survived",
    RMS_GAIN.id: "survived",
    SCALE.id: "survived",
    INVERSE_DEFINED.id: "survived",
    RECOVER_WRONG_HINT.id: "undecided",
    INVERSE_UNDEFINED.id: "survived",
    SQUARES_FALSE.id: "refuted",
}

PROVED = (RECOVER_EPS.id, RMS_GAIN.id, SCALE.id, INVERSE_DEFINED.id)  # by `bnproof prove`, with certificates
