"""Equality hypotheses proved for every batch size m (docs/claims.md, "Proofs for
every m"), and their near misses, refuted.

A claim's `equalities` are functions that are exactly 0 on its instances.  The
prover uses one that fixes a scalar input or a batch sum: when its normal form's
numerator is c·m^k·x + c₀ with c a nonzero number and c₀ free of x and of square
roots (β − μ, γ² − σ² − ε read for ε, Σy), x is substituted out (x = −c₀/(c·m^k))
and the program is replayed; the claim is proved when the residual's replay is 0.  The certificate
names each equality and the input it fixes; the independent checker solves the
equality itself, replays the program in its own algebra and requires a witness on
the set (every equality exactly 0 there).  The second reading compares the program
with the claim's own code at generic instances moved onto the set.

True, proved for every m (fuzz: survived, with the proof's certificate):

* RECOVERY: Dannemann & Junike (2025), Remark 2.7, corrected and with BN's ε: with
  γ = √(σ² + ε) (stated as γ² = σ² + ε, γ > 0) and β = μ, BN_ε(y) = y.  The
  equality for γ is written with its square because a root cannot be substituted:
  γ = σ as it stands fixes γ only as an irrational value of the batch.
* MEAN: with β = μ, the mean of BN's output is the batch mean μ.
* VARIANCE: with γ² = σ² + ε, the (biased) variance of BN_ε's output is σ².
* CENTERED: on a centered batch (Σy = 0), BN_ε is RMSNorm_ε: (y − μ)/√(σ² + ε) =
  y/√(mean(y²) + ε).  The equality fixes a batch sum, replaced wherever the replay
  forms it, so the two roots become one.

* STANDARDIZED: on a standardized batch (Σy = 0 and Σy² = m), BN(y) = y (no ε).  The
  second equality is quadratic: no rational instance lies on the set beside Σy = 0 along
  one entry, so the second reading draws its generic instances in closed form (two
  entries solved over Q(√…), every equality then proved exactly 0; symbolic_m/crosscheck.py).
  fuzz reads it vacuous: its search samples rational instances only.

Remark 2.7 as printed, γ = σ (no ε) and β = μ ⟹ γ·BN(y) + β = y, is not in this file:
the second reading now draws its instances (γ = √(σ²), an algebraic entry), but the
prover substitutes no root, so it stays "not proved"; RECOVERY writes it γ² = σ² + ε.

Near misses, refuted:

* RECOVERY_PRINTED: Remark 2.7 as printed, β = μ/σ (σ = √(σ² + ε) here): false
  unless μ = 0 or σ = 1.
* RECOVERY_WRONG_SIGN: β = −μ for β = μ (a wrong substitution).
* CENTERED_AT_ONE: BN_ε = RMSNorm_ε on a batch with Σy = 1 (not centered).

``bnproof prove docs/examples/every_m_equalities.py`` proves the true ones for every
m; ``bnproof fuzz docs/examples/every_m_equalities.py`` refutes the near misses.
"""

from bnproof.claims import Claim, Var

SOURCE = "Dannemann & Junike (2025), Batch normalization does not improve initialization, Remark 2.7, p. 3"
Y = Var("y", ("m",))
GAMMA = Var("gamma", (), "positive")
BETA = Var("beta")
EPS = Var("eps")  # any real ε with σ² + ε = γ² > 0: BN_ε is defined on the set
VARIABLES = (Y, GAMMA, BETA, EPS)
SIZES = {"m": (2, 6)}


def _variance(xp, y):
    return xp.mean((y - xp.mean(y)) ** 2)


def _bn(xp, y, gamma, beta, eps):
    return gamma * (y - xp.mean(y)) / xp.sqrt(_variance(xp, y) + eps) + beta


def _beta_is(shift):
    """β = shift(μ, σ): the equality β − shift(μ, σ) = 0 (listed first: the search for
    instances on the set solves it along an entry of y, then γ's along ε)."""
    return lambda xp, y, gamma, beta, eps: beta - shift(xp.mean(y), xp.sqrt(_variance(xp, y) + eps))


def _gamma_squared(xp, y, gamma, beta, eps):
    """γ² = σ² + ε, so γ = √(σ² + ε) for γ > 0."""
    return gamma ** 2 - _variance(xp, y) - eps


def _recovery_error(xp, y, gamma, beta, eps):
    return xp.sum((_bn(xp, y, gamma, beta, eps) - y) ** 2)


RECOVERY = Claim(
    id="gallery/every_m_equalities/recovery",
    source=SOURCE + " (corrected: β_j = μ_j; with BN's ε)",
    statement=r"\gamma = \sqrt{\sigma^2 + \varepsilon},\ \beta = \mu \implies \mathrm{BN}_\varepsilon(y) = y",
    title="BN recovers its input with γ = σ and β = μ",
    kind="identity", variables=VARIABLES, sizes=SIZES,
    equalities=(_beta_is(lambda mu, sigma: mu), _gamma_squared),
    residual=_recovery_error,
)

MEAN = Claim(
    id="gallery/every_m_equalities/mean",
    source="bnproof docs, every-m equalities example",
    statement=r"\beta = \mu \implies \overline{\mathrm{BN}_\varepsilon(y)} = \mu",
    title="with β = μ, BN keeps the batch mean",
    kind="identity", variables=(Y, Var("gamma"), BETA, Var("eps", (), "positive")), sizes=SIZES,
    equalities=(_beta_is(lambda mu, sigma: mu),),
    residual=lambda xp, y, gamma, beta, eps: xp.mean(_bn(xp, y, gamma, beta, eps)) - xp.mean(y),
)

VARIANCE = Claim(
    id="gallery/every_m_equalities/variance",
    source="bnproof docs, every-m equalities example",
    statement=r"\gamma^2 = \sigma^2 + \varepsilon \implies \sigma^2(\mathrm{BN}_\varepsilon(y)) = \sigma^2(y)",
    title="with γ² = σ² + ε, BN keeps the batch variance",
    kind="identity", variables=VARIABLES, sizes=SIZES,
    equalities=(_gamma_squared,),
    residual=lambda xp, y, gamma, beta, eps: _variance(xp, _bn(xp, y, gamma, beta, eps)) - _variance(xp, y),
)

RECOVERY_PRINTED = Claim(
    id="gallery/every_m_equalities/recovery-printed",
    source=SOURCE + " (as printed, β_j = μ_j/σ_j; with BN's ε)",
    statement=r"\gamma = \sqrt{\sigma^2 + \varepsilon},\ \beta = \mu/\sqrt{\sigma^2 + \varepsilon} "
              r"\implies \mathrm{BN}_\varepsilon(y) = y",
    title="Remark 2.7 as printed: β = μ/σ",
    kind="identity", variables=VARIABLES, sizes=SIZES,
    equalities=(_gamma_squared, _beta_is(lambda mu, sigma: mu / sigma)),
    residual=_recovery_error,
)

RECOVERY_WRONG_SIGN = Claim(
    id="gallery/every_m_equalities/recovery-wrong-sign",
    source=SOURCE + " (a wrong substitution: β = −μ)",
    statement=r"\gamma = \sqrt{\sigma^2 + \varepsilon},\ \beta = -\mu \implies \mathrm{BN}_\varepsilon(y) = y",
    title="β = −μ does not recover the input",
    kind="identity", variables=VARIABLES, sizes=SIZES,
    equalities=(_beta_is(lambda mu, sigma: -mu), _gamma_squared),
    residual=_recovery_error,
)

def _bn_minus_rms(xp, y, eps):
    bn = (y - xp.mean(y)) / xp.sqrt(_variance(xp, y) + eps)
    return xp.sum((bn - y / xp.sqrt(xp.mean(y ** 2) + eps)) ** 2)


CENTERED = Claim(
    id="gallery/every_m_equalities/centered",
    source="bnproof docs, every-m equalities example (RMSNorm: Zhang & Sennrich 2019)",
    statement=r"\textstyle\sum_b y_b = 0 \implies \mathrm{BN}_\varepsilon(y) = y/\sqrt{\overline{y^2} + \varepsilon}",
    title="on a centered batch, BN is RMSNorm",
    kind="identity", variables=(Y, Var("eps", (), "positive")), sizes=SIZES,
    equalities=(lambda xp, y, eps: xp.sum(y),), residual=_bn_minus_rms,
)

CENTERED_AT_ONE = Claim(
    id="gallery/every_m_equalities/centered-at-one",
    source="bnproof docs, every-m equalities example (a near miss)",
    statement=r"\textstyle\sum_b y_b = 1 \implies \mathrm{BN}_\varepsilon(y) = y/\sqrt{\overline{y^2} + \varepsilon}",
    title="a batch summing to 1 is not centered",
    kind="identity", variables=(Y, Var("eps", (), "positive")), sizes=SIZES,
    equalities=(lambda xp, y, eps: xp.sum(y) - 1,), residual=_bn_minus_rms,
)

def _standardized_error(xp, y):
    return xp.sum(((y - xp.mean(y)) / xp.sqrt(_variance(xp, y)) - y) ** 2)


STANDARDIZED = Claim(
    id="gallery/every_m_equalities/standardized",
    source="bnproof docs, every-m equalities example (a standardized batch)",
    statement=r"\textstyle\sum_b y_b = 0,\ \sum_b y_b^2 = m \implies \mathrm{BN}(y) = y",
    title="on a standardized batch, BN is the identity",
    kind="identity", variables=(Y,), sizes=SIZES,
    equalities=(lambda xp, y: xp.sum(y), lambda xp, y: xp.sum(y ** 2) - y.shape[0]),
    residual=_standardized_error,
)

EXPECTED = {
    "gallery/every_m_equalities/recovery": "survived",
    "gallery/every_m_equalities/mean": "survived",
    "gallery/every_m_equalities/variance": "survived",
    "gallery/every_m_equalities/recovery-printed": "refuted",
    "gallery/every_m_equalities/recovery-wrong-sign": "refuted",
    "gallery/every_m_equalities/centered": "survived",
    "gallery/every_m_equalities/centered-at-one": "refuted",
    "gallery/every_m_equalities/standardized": "vacuous",
}
