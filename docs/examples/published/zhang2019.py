"""Zhang & Sennrich (2019), Root Mean Square Layer Normalization, NeurIPS 2019
(arXiv:1910.07467).

True statements of Sections 3–4, written as a reader would: a held-out proxy of issue
23's measurement (bench/heldout.py).

RMS(a) = √((1/n) Σ a_i²) over the n summed inputs a = Wx of a layer, and
ā_i = a_i/RMS(a) · g_i (Eq. 4, without ε).  The statistics run over the n units.
"""

from bnproof.claims import Claim, Var

PAPER = "Zhang & Sennrich 2019, Root Mean Square Layer Normalization"
A = Var("a", ("n",))
GAIN = Var("g", ("n",))


def rms_norm(xp, a, g):
    return a / xp.sqrt(xp.mean(a * a)) * g


def nonzero(xp, a, **_):
    return xp.mean(a * a)


RESCALING = Claim(
    id="published/zhang2019/rescaling-invariance",
    source=PAPER + ", Section 4, Table 1 (RMSNorm is invariant to re-scaling its input)",
    statement=r"\mathrm{RMSNorm}(\delta \mathbf{a}) = \mathrm{RMSNorm}(\mathbf{a}) \quad (\delta > 0)",
    reading="Read as Σ_i (lhs_i − rhs_i)² = 0.",
    kind="identity", variables=(A, GAIN, Var("delta", (), "positive")), sizes={"n": (2, 6)},
    hypotheses=(nonzero,),
    residual=lambda xp, a, g, delta: xp.sum((rms_norm(xp, delta * a, g) - rms_norm(xp, a, g)) ** 2),
)


def _ln(xp, a, g):
    mu = xp.mean(a)
    return (a - mu) / xp.sqrt(xp.mean((a - mu) ** 2)) * g


ZERO_MEAN = Claim(
    id="published/zhang2019/equals-layernorm-at-zero-mean",
    source=PAPER + ", Section 3 (\"RMSNorm is identical to LayerNorm when the mean of the summed inputs is zero\")",
    statement=r"\mu = 0 \implies \mathrm{RMSNorm}(\mathbf{a}) = \mathrm{LayerNorm}(\mathbf{a})",
    reading="The equality Σ a_i = 0 as the hypothesis; LayerNorm without bias and ε.",
    kind="identity", variables=(A, GAIN), sizes={"n": (2, 6)}, hypotheses=(nonzero,),
    equalities=(lambda xp, a, g: xp.sum(a),),
    residual=lambda xp, a, g: xp.sum((rms_norm(xp, a, g) - _ln(xp, a, g)) ** 2),
)
