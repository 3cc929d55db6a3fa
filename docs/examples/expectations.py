"""Expectations and variances over random batches: what BN's batch statistics are on average.

In train mode BN normalizes with the statistics of a random batch B of n
samples drawn i.i.d. from the data distribution, so papers state facts such
as "E[μ_B] = E[X]", "var(μ_B) = Var(X)/n" or "the batch variance is biased".
Here the data distribution is a ``Law``: a discrete law with k support
points and rational probabilities, over which the claim is quantified like
any other variable (its support and weights are searched, decided exactly,
and written in certificates).  ``xp.expect(f, X, n)`` and ``xp.var(f, X, n)``
are the exact expectation and variance of f over a batch of n draws,
computed by moment algebra (not by enumerating the kⁿ batches).

* UNBIASED: E[s²] = Var(X) with s² = Σ(x_i − x̄)²/(n − 1).  True; its exact
  residual is 0 on every law (an identity, proved at k ≤ 3).
* BIASED: E[σ_B²] = Var(X) with σ_B² = Σ(x_i − x̄)²/n, the variance BN uses.
  False: E[σ_B²] = (n − 1)/n · Var(X), so any law with two distinct points
  refutes it, with an exact certified counterexample.
* MEAN: var(⟨w, μ_B⟩) = ⟨w, Σ w⟩/n for vector samples, Σ the covariance of
  the law.  True (an identity, proved at k ≤ 2 only of the declared k ≤ 3, so
  its verdict is the search's: survived, with that note).
* VARIANCE_OF_VARIANCE: Var(s²) = μ₄/n − σ⁴(n − 3)/(n(n − 1)), μ₄ the fourth
  central moment.  True (an identity; survived, proved at k ≤ 2 only).

Try ``bnproof fuzz docs/examples/expectations.py``.
"""

from bnproof.claims import Claim, Law, Var

N = 4  # the batch size of every claim here
SIZES = {"k": (1, 3)}


def _first(xp, B):
    return B[0]


def _square(xp, B):
    return B[0] ** 2


def _variance(xp, X):
    """Var(X) of the law itself: one draw."""
    return xp.expect(_square, X, 1) - xp.expect(_first, X, 1) ** 2


def _unbiased(xp, B):
    return xp.sum((B - xp.mean(B)) ** 2) / (B.shape[0] - 1)


def _biased(xp, B):
    return xp.mean((B - xp.mean(B)) ** 2)


UNBIASED = Claim(
    id="gallery/expectations/unbiased-sample-variance",
    source="bnproof docs, expectations example (Bessel's correction)",
    statement=r"\mathbb{E}\Big[\tfrac{1}{n-1}\sum_{i=1}^n (x_i - \bar x)^2\Big] = \operatorname{Var}(X)",
    variables=(Law("X", (), "k"),),
    sizes=SIZES,
    kind="identity",
    exact_sizes={"k": (1, 3)},
    residual=lambda xp, X: xp.expect(_unbiased, X, N) - _variance(xp, X),
)

BIASED = Claim(
    id="gallery/expectations/biased-batch-variance",
    source="bnproof docs, expectations example (the variance BN normalizes with)",
    statement=r"\mathbb{E}\Big[\tfrac{1}{n}\sum_{i=1}^n (x_i - \mu_B)^2\Big] = \operatorname{Var}(X)",
    variables=(Law("X", (), "k"),),
    sizes=SIZES,
    kind="identity",
    residual=lambda xp, X: xp.expect(_biased, X, N) - _variance(xp, X),
)


def _projected_mean(xp, B, w):
    return xp.dot(w, xp.mean(B, axis=0))


def _covariance_form(xp, X, w):
    """⟨w, Σ w⟩ = Var(⟨w, X⟩) for one draw."""
    return xp.var(lambda xp, B, w: xp.dot(w, B[0]), X, 1, w)


MEAN = Claim(
    id="gallery/expectations/variance-of-the-batch-mean",
    source="bnproof docs, expectations example",
    statement=r"\operatorname{var}(\langle w, \mu_B\rangle) = \frac{\langle w, \Sigma w\rangle}{n}",
    variables=(Law("X", ("d",), "k"), Var("w", ("d",))),
    sizes={"k": (1, 3), "d": (1, 2)},
    kind="identity",
    exact_sizes={"k": (1, 2), "d": (1, 2)},
    residual=lambda xp, X, w: xp.var(_projected_mean, X, N, w) - _covariance_form(xp, X, w) / N,
)


def _central(xp, X, power):
    """E[(X − E X)^power] of the law."""
    mean = xp.expect(_first, X, 1)
    return xp.expect(lambda xp, B, mean: (B[0] - mean) ** power, X, 1, mean)


VARIANCE_OF_VARIANCE = Claim(
    id="gallery/expectations/variance-of-the-sample-variance",
    source="bnproof docs, expectations example (a classical formula)",
    statement=r"\operatorname{Var}(s^2) = \frac{\mu_4}{n} - \frac{\sigma^4 (n-3)}{n(n-1)}",
    variables=(Law("X", (), "k"),),
    sizes=SIZES,
    kind="identity",
    exact_sizes={"k": (1, 2)},
    residual=lambda xp, X: xp.var(_unbiased, X, N)
    - (_central(xp, X, 4) / N - _central(xp, X, 2) ** 2 * xp.q(N - 3, N * (N - 1))),
)

EXPECTED = {
    UNBIASED.id: "verified-exactly",
    BIASED.id: "refuted",
    MEAN.id: "survived",  # verified exactly at k = 1, 2 only, of 1..3: the search's verdict
    VARIANCE_OF_VARIANCE.id: "survived",  # likewise
}
