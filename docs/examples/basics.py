"""The basics: plain inequalities, a strict one, and identities whose exact value is 0.

One BN unit over a batch y ∈ R^m normalizes to ŷ = (y − μ)/σ (biased σ, no ε),
so Σ ŷ_b = 0 and Σ ŷ_b² = m whenever σ > 0, and every |ŷ_b| ≤ √(m − 1).
Each claim below needs σ² > 0 (the hypothesis: ŷ is undefined otherwise).

* ENTRY_BOUND, ŷ_b² ≤ m − 1: true (it survives).
* ENTRY_BELOW_ONE, |ŷ_b| ≤ 1: false from m = 3 on (y = (1, 0, 0) gives
  ŷ_1 = √2); refuted with a certificate.
* SUM_ZERO, Σ ŷ_b = 0: an identity, true, and its exact value is 0 on every
  instance, so floats see ±1e-16 there and must not call that a violation;
  the prover verifies it exactly at m = 2, 3 (``exact_sizes``), part of the
  declared 2 ≤ m ≤ 5, so its verdict is the search's (survived), with the note
  "verified exactly for 2 ≤ m ≤ 3 only, of 2 ≤ m ≤ 5 declared".
* SQUARES_AT_MOST_M, Σ ŷ_b² ≤ m: a true inequality that holds with equality
  everywhere (the residual is exactly 0): it survives, never refuted on noise.
* MAX_POSITIVE, max_b ŷ_b > 0: a true strict inequality (a printed `<`/`>` is
  ``strict=True``: the residual must be > 0).
* SPREAD_POSITIVE, m Σ y_b² > (Σ y_b)² with no hypothesis: false, and
  refuted exactly where it fails, on a constant batch, at a residual of
  exactly 0 (no violation for a non-strict claim, one for a strict claim).
  SPREAD_NONNEGATIVE, the same with ≥, is true and survives.
* SQUARES_BELOW_M, Σ ŷ_b² < m: false too (it is exactly m), but here the exact
  zero is irrational (σ is a square root): intervals can never show that a sum
  of square roots is exactly 0, so the independent checker decides it in the
  field Q(√σ²), where it is 0 coordinate by coordinate, and the refutation is
  certified.

``bnproof fuzz docs/examples/basics.py`` searches them all.
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import normalize, stats

SOURCE = "bnproof docs, basics example"
Y = (Var("y", ("m",)),)
SIZES = {"m": (2, 5)}


def _spread(xp, y):
    """σ² > 0: BN is undefined on a constant batch."""
    return stats(xp, y)[1] ** 2


def _yhat(xp, y):
    return normalize(xp, y)[0]


ENTRY_BOUND = Claim(
    id="gallery/basics/entry-bound",
    source=SOURCE,
    statement=r"\hat y_b^2 \le m - 1",
    title="no normalized entry exceeds √(m − 1) in size",
    variables=Y, sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y: (y.shape[0] - 1) - xp.max(_yhat(xp, y) ** 2),
)

ENTRY_BELOW_ONE = Claim(
    id="gallery/basics/entry-below-one",
    source=SOURCE,
    statement=r"|\hat y_b| \le 1",
    title="every normalized entry lies in [−1, 1] (false)",
    variables=Y, sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y: 1 - xp.max(xp.abs(_yhat(xp, y))),
)

SUM_ZERO = Claim(
    id="gallery/basics/sum-zero",
    source=SOURCE,
    statement=r"\sum_b \hat y_b = 0",
    title="the normalized batch sums to 0",
    kind="identity",
    variables=Y, sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y: xp.sum(_yhat(xp, y)),
    exact_sizes={"m": (2, 3)},
)

SQUARES_AT_MOST_M = Claim(
    id="gallery/basics/squares-at-most-m",
    source=SOURCE,
    statement=r"\sum_b \hat y_b^2 \le m",
    title="Σ ŷ² ≤ m, which holds with equality",
    variables=Y, sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y: y.shape[0] - xp.sum(_yhat(xp, y) ** 2),
)

MAX_POSITIVE = Claim(
    id="gallery/basics/max-positive",
    source=SOURCE,
    statement=r"\max_b \hat y_b > 0",
    title="some normalized entry is positive",
    variables=Y, sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y: xp.max(_yhat(xp, y)),
    strict=True,
)

SPREAD_NONNEGATIVE = Claim(
    id="gallery/basics/spread-nonnegative",
    source=SOURCE,
    statement=r"m \sum_b y_b^2 \ge \Bigl(\sum_b y_b\Bigr)^2",
    title="Cauchy–Schwarz for a batch (equality on constant batches)",
    variables=Y, sizes=SIZES,
    residual=lambda xp, y: xp.sum(y * y) * y.shape[0] - xp.sum(y) ** 2,
)

SPREAD_POSITIVE = Claim(
    id="gallery/basics/spread-positive",
    source=SOURCE,
    statement=r"m \sum_b y_b^2 > \Bigl(\sum_b y_b\Bigr)^2",
    title="strict Cauchy–Schwarz for a batch (false on constant batches)",
    variables=Y, sizes=SIZES,
    residual=lambda xp, y: xp.sum(y * y) * y.shape[0] - xp.sum(y) ** 2,
    strict=True,
)

SQUARES_BELOW_M = Claim(
    id="gallery/basics/squares-below-m",
    source=SOURCE,
    statement=r"\sum_b \hat y_b^2 < m",
    title="Σ ŷ² < m (false: it is exactly m)",
    variables=Y, sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y: y.shape[0] - xp.sum(_yhat(xp, y) ** 2),
    strict=True,
)

EXPECTED = {
    "gallery/basics/entry-bound": "survived",
    "gallery/basics/entry-below-one": "refuted",
    "gallery/basics/sum-zero": "survived",  # verified exactly at m = 2, 3 only, of 2..5
    "gallery/basics/squares-at-most-m": "survived",
    "gallery/basics/max-positive": "survived",
    "gallery/basics/spread-nonnegative": "survived",
    "gallery/basics/spread-positive": "refuted",
    "gallery/basics/squares-below-m": "refuted",
}
