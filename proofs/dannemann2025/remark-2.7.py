"""Remark 2.7 of Dannemann & Junike (2025), p. 3: BN can recover the original activations.

As printed: "If γ_j = σ_j and β_j = μ_j/σ_j then Ẑ_l = Z_l".  With γ = σ the
BN output is z − μ + β, so the identity needs β = μ; the printed β = μ/σ gives
it only when μ = 0 or σ = 1.  Both readings are encoded: the printed one, and
the corrected one (β = μ), which is also the construction behind Observation
4.3 of Santurkar et al.  The residual is Σ_b (ẑ_b − z_b)², zero exactly when
the activations are recovered.
"""

from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.blocks import stats

SOURCE = "Dannemann & Junike (2025), Batch normalization does not improve initialization, Remark 2.7, p. 3"


@hypothesis(r"the batch variance $\sigma_j^2$")
def _variance(xp, z):
    return stats(xp, z)[1] ** 2


def _recovery_error(beta_of):
    def residual(xp, z):
        mu, sigma = stats(xp, z)
        gamma, beta = sigma, beta_of(mu, sigma)
        zhat = gamma * (z - mu) / sigma + beta
        return xp.sum((zhat - z) ** 2)

    return residual


def _recovered(beta_of):
    """Ẑ_l, the BN output with γ = σ and β as given."""
    def output(xp, z):
        mu, sigma = stats(xp, z)
        return sigma * (z - mu) / sigma + beta_of(mu, sigma)

    return output


def _quantities(beta_of):
    return {r"\mu_j": lambda xp, z: stats(xp, z)[0], r"\sigma_j": lambda xp, z: stats(xp, z)[1],
            r"\beta_j": lambda xp, z: beta_of(*stats(xp, z)),
            r"\widehat{\mathbb{Z}}_l": _recovered(beta_of)}


# Each claim's reading stands alone: a report or a document shows one claim.
READING = ("With γ = σ the BN output is z − μ + β, so the identity needs β = μ; the printed β = μ/σ gives "
           "it only when μ = 0 or σ = 1.  The residual is Σ_b (ẑ_b − z_b)², zero exactly when the "
           "activations are recovered.")


PRINTED = Claim(
    id="dannemann2025/remark-2.7", aliases=("remark-2.7",),
    title="BN can recover the original activations",
    source=SOURCE,
    statement=r"\gamma_j=\sigma_j,\ \beta_j=\frac{\mu_j}{\sigma_j} \implies \widehat{\mathbb{Z}}_l=\mathbb{Z}_l",
    reading="As printed: \"If γ_j = σ_j and β_j = μ_j/σ_j then Ẑ_l = Z_l\", read as this claim.  " + READING,
    kind="identity", variables=(Var("z", ("m",)),), sizes={"m": (2, 6)},
    hypotheses=(_variance,), residual=_recovery_error(lambda mu, sigma: mu / sigma),
    symbols={"z": r"\mathbb{Z}_l"}, quantities=_quantities(lambda mu, sigma: mu / sigma),
)
CORRECTED = Claim(
    id="dannemann2025/remark-2.7/corrected", aliases=("remark-2.7/corrected",),
    title="BN recovers the activations with γ = σ and β = μ",
    source=SOURCE + " (corrected: β_j = μ_j)",
    statement=r"\gamma_j=\sigma_j,\ \beta_j=\mu_j \implies \widehat{\mathbb{Z}}_l=\mathbb{Z}_l",
    reading=READING + "  This claim is the corrected remark, with β = μ (the construction behind "
                      "Observation 4.3 of Santurkar et al.).",
    kind="identity", variables=(Var("z", ("m",)),), sizes={"m": (2, 6)},
    hypotheses=(_variance,), residual=_recovery_error(lambda mu, sigma: mu),
    symbols={"z": r"\mathbb{Z}_l"}, quantities=_quantities(lambda mu, sigma: mu),
    exact_sizes={"m": (2, 6)},
)
