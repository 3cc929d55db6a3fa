"""Expectations over a random batch, proved for every batch size (docs/claims.md,
"Proofs for every m": expectations over i.i.d. draws), and their near misses, refuted.

A batch B of m i.i.d. draws of a random variable X (a ``Law``): its mean μ_B and its
biased variance σ²_B = (1/m) Σ (x_b − μ_B)², the one BN normalizes with.  The batch
size m is a size of the claim, given to the claim's functions as the length of a
placeholder vector ``batch`` (read only through ``batch.shape[0]``), so that the
same code runs at every fixed m in the search and once at a symbolic m in the
prover.  ``bnproof prove`` traces ``xp.expect(f, X, m)`` with m symbolic: f runs
on "the sample" x, ``xp.sum`` turns x^k into the power sum P_k = Σ_b x_b^k, and the
expectation of a product of power sums expands over the set partitions of its
factors into a polynomial in m and the moments μ_k = E[X^k] (E[P₁²] = m·μ₂ +
m(m − 1)·μ₁²).  A residual that is 0 as a rational function of m and the μ_k holds
for every batch size and every law with those moments; the independent checker
re-derives it with its own expansion over which draws coincide.

True, proved for every m (fuzz: survived, with the note "proved for every m"):

* BESSEL: m/(m − 1) · E[σ²_B] = Var X (Bessel's correction).
* BIASED_MEAN: E[σ²_B] = (m − 1)/m · Var X.
* MEAN: Var(μ_B) = Var X / m.
* UNBIASED_MEAN: E[μ_B] = E[X].
* AFFINE: Var(γ·μ_B + β) = γ²·Var X / m for every γ, β (scalar inputs are
  constants of every expectation).
* VARIANCE_OF_VARIANCE: Var(s²) = μ₄/m − σ⁴(m − 3)/(m(m − 1)), s² the unbiased
  batch variance, μ₄ the fourth central moment, σ² = Var X (a classical formula;
  its expansion reaches products of four power sums).

Near misses, refuted with a certificate:

* SWAPPED: E[σ²_B] = Var X (biased and unbiased variance swapped).
* MEAN_SQUARED_N: Var(μ_B) = Var X / m².
* AFFINE_WRONG: Var(γ·μ_B + β) = γ·Var X / m.
* VARIANCE_OF_VARIANCE_WRONG: Var(s²) with (m − 1) for (m − 3).

``bnproof prove docs/examples/every_n_moments.py`` proves the true ones for every m;
``bnproof fuzz docs/examples/every_n_moments.py`` refutes the near misses.
"""

from bnproof.claims import Claim, Law, Var

X = Law("X", (), "k")
BATCH = Var("batch", ("m",))  # its length is the batch size m; its entries are never read
SIZES = {"k": (1, 3), "m": (2, 6)}


def _biased(xp, B):
    """σ²_B of a batch B of draws."""
    return xp.mean((B - xp.mean(B)) ** 2)


def _mean(xp, B):
    return xp.mean(B)


def _variance(xp, X):
    """Var X: one draw."""
    return xp.var(lambda xp, B: B[0], X, 1)


def _claim(name, title, statement, residual):
    return Claim(id=f"gallery/every_n_moments/{name}", source="bnproof docs, every-n expectations",
                 title=title, statement=statement, kind="identity", variables=(X, BATCH), sizes=SIZES,
                 residual=residual)


BESSEL = _claim(
    "bessel", "Bessel's correction",
    r"\frac{m}{m-1}\,\mathbb{E}[\sigma_B^2] = \operatorname{Var} X",
    lambda xp, X, batch: xp.expect(_biased, X, batch.shape[0]) * batch.shape[0] / (batch.shape[0] - 1)
    - _variance(xp, X),
)

BIASED_MEAN = _claim(
    "biased-variance", "the expected biased batch variance",
    r"\mathbb{E}[\sigma_B^2] = \frac{m-1}{m}\operatorname{Var} X",
    lambda xp, X, batch: xp.expect(_biased, X, batch.shape[0])
    - xp.q(batch.shape[0] - 1, batch.shape[0]) * _variance(xp, X),
)

MEAN = _claim(
    "variance-of-the-mean", "the variance of the batch mean",
    r"\operatorname{Var}(\mu_B) = \frac{\operatorname{Var} X}{m}",
    lambda xp, X, batch: xp.var(_mean, X, batch.shape[0]) - _variance(xp, X) / batch.shape[0],
)

UNBIASED_MEAN = _claim(
    "mean-of-the-mean", "the batch mean is unbiased",
    r"\mathbb{E}[\mu_B] = \mathbb{E}[X]",
    lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0]) - xp.expect(lambda xp, B: B[0], X, 1),
)

def _affine_mean(xp, B, gamma, beta):
    return gamma * xp.mean(B) + beta


def _affine(name, title, statement, power):
    return Claim(id=f"gallery/every_n_moments/{name}", source="bnproof docs, every-n expectations",
                 title=title, statement=statement, kind="identity",
                 variables=(X, BATCH, Var("gamma"), Var("beta")), sizes=SIZES,
                 residual=lambda xp, X, batch, gamma, beta: xp.var(_affine_mean, X, batch.shape[0], gamma, beta)
                 - gamma ** power * _variance(xp, X) / batch.shape[0])


AFFINE = _affine("affine-mean", "the variance of an affine map of the batch mean",
                 r"\operatorname{Var}(\gamma\mu_B + \beta) = \frac{\gamma^2 \operatorname{Var} X}{m}", 2)
AFFINE_WRONG = _affine("affine-mean-wrong", "γ for γ² (false)",
                       r"\operatorname{Var}(\gamma\mu_B + \beta) = \frac{\gamma \operatorname{Var} X}{m}", 1)


def _unbiased(xp, B):
    """s² of a batch: Bessel's variance."""
    return xp.sum((B - xp.mean(B)) ** 2) / (B.shape[0] - 1)


def _central(xp, X, power):
    """E[(X − E X)^power]: one draw, the mean passed in as a constant."""
    mean = xp.expect(lambda xp, B: B[0], X, 1)
    return xp.expect(lambda xp, B, mean: (B[0] - mean) ** power, X, 1, mean)


def _variance_of_variance(xp, X, m, shift):
    return xp.var(_unbiased, X, m) - (_central(xp, X, 4) / m
                                      - _central(xp, X, 2) ** 2 * (m - shift) / (m * (m - 1)))


VARIANCE_OF_VARIANCE = _claim(
    "variance-of-the-sample-variance", "the variance of the sample variance",
    r"\operatorname{Var}(s^2) = \frac{\mu_4}{m} - \frac{\sigma^4 (m-3)}{m(m-1)}",
    lambda xp, X, batch: _variance_of_variance(xp, X, batch.shape[0], 3),
)

SWAPPED = _claim(
    "swapped", "biased and unbiased variance swapped (false)",
    r"\mathbb{E}[\sigma_B^2] = \operatorname{Var} X",
    lambda xp, X, batch: xp.expect(_biased, X, batch.shape[0]) - _variance(xp, X),
)

MEAN_SQUARED_N = _claim(
    "variance-of-the-mean-over-m-squared", "Var X / m² for Var X / m (false)",
    r"\operatorname{Var}(\mu_B) = \frac{\operatorname{Var} X}{m^2}",
    lambda xp, X, batch: xp.var(_mean, X, batch.shape[0]) - _variance(xp, X) / batch.shape[0] ** 2,
)

VARIANCE_OF_VARIANCE_WRONG = _claim(
    "variance-of-the-sample-variance-wrong", "m − 1 for m − 3 (false)",
    r"\operatorname{Var}(s^2) = \frac{\mu_4}{m} - \frac{\sigma^4 (m-1)}{m(m-1)}",
    lambda xp, X, batch: _variance_of_variance(xp, X, batch.shape[0], 1),
)

EXPECTED = {
    BESSEL.id: "survived",
    BIASED_MEAN.id: "survived",
    MEAN.id: "survived",
    UNBIASED_MEAN.id: "survived",
    VARIANCE_OF_VARIANCE.id: "survived",
    AFFINE.id: "survived",
    SWAPPED.id: "refuted",
    MEAN_SQUARED_N.id: "refuted",
    VARIANCE_OF_VARIANCE_WRONG.id: "refuted",
    AFFINE_WRONG.id: "refuted",
}
