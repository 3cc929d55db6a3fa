"""Equality hypotheses used as multipliers in proofs for every batch size m (docs/claims.md,
"Proofs for every m", "Equality hypotheses"), and a near miss, refuted.

An equality that fixes a scalar input or a batch sum is substituted out.  One that fixes
neither — a product Σy·Σz = 0 says that one of two batches is centered, not which — is
used as a multiplier: the residual's numerator N is Σ q·N_e, N_e the equality's
numerator and q a polynomial in the batch sums, so N is 0 wherever the equality holds.
The prover finds q (sympy's division), the certificate carries it as steps, and the
independent checker checks N − q·N_e ≡ 0 in its own algebra.

True, proved for every m (fuzz: survived, with the proof's certificate):

* COV: if Σy·Σz = 0, the covariance of y and z is the mean of their products,
  cov(y, z) = mean(y∘z) (N = −Σy·Σz/m², q = −1).
* COV_SQUARED: the same squared, cov(y, z)² = mean(y∘z)² (q holds batch sums).

Near miss, refuted:

* COV_PRODUCT_ONE: with Σy·Σz = 1 instead, cov(y, z) = mean(y∘z) − 1/m² ≠ mean(y∘z).
"""

from bnproof.claims import Claim, Var

SOURCE = "bnproof docs, every-m multipliers example"
VARIABLES = (Var("y", ("m",)), Var("z", ("m",)))
SIZES = {"m": (2, 5)}


def cov(xp, y, z):
    return xp.mean((y - xp.mean(y)) * (z - xp.mean(z)))


def one_centered(xp, y, z):
    return xp.sum(y) * xp.sum(z)


COV = Claim(
    id="gallery/every_m_multipliers/cov", source=SOURCE,
    statement=r"\textstyle\sum_b y_b \sum_b z_b = 0 \implies \mathrm{cov}(y, z) = \overline{y \circ z}",
    title="one centered batch: covariance is the mean product",
    kind="identity", variables=VARIABLES, sizes=SIZES, equalities=(one_centered,),
    residual=lambda xp, y, z: cov(xp, y, z) - xp.mean(y * z),
)

COV_SQUARED = Claim(
    id="gallery/every_m_multipliers/cov-squared", source=SOURCE,
    statement=r"\textstyle\sum_b y_b \sum_b z_b = 0 \implies \mathrm{cov}(y, z)^2 = \overline{y \circ z}^2",
    title="the same, squared (a multiplier that is not a number)",
    kind="identity", variables=VARIABLES, sizes=SIZES, equalities=(one_centered,),
    residual=lambda xp, y, z: cov(xp, y, z) ** 2 - xp.mean(y * z) ** 2,
)

COV_PRODUCT_ONE = Claim(
    id="gallery/every_m_multipliers/cov-product-one", source=SOURCE + " (a near miss)",
    statement=r"\textstyle\sum_b y_b \sum_b z_b = 1 \implies \mathrm{cov}(y, z) = \overline{y \circ z}",
    title="Σy·Σz = 1 is not a centered batch",
    kind="identity", variables=VARIABLES, sizes=SIZES,
    equalities=(lambda xp, y, z: xp.sum(y) * xp.sum(z) - 1,),
    residual=lambda xp, y, z: cov(xp, y, z) - xp.mean(y * z),
)

EXPECTED = {
    COV.id: "survived",
    COV_SQUARED.id: "survived",
    COV_PRODUCT_ONE.id: "refuted",
}
