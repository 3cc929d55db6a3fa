"""Ba, Kiros & Hinton (2016), Layer Normalization (arXiv:1607.06450).

True statements of Section 3 and Section 5.1 ("Invariance under weights and data
transformations", Table 1), written as a reader would: a held-out proxy of issue
23's measurement (bench/heldout.py).

One layer of H hidden units: summed inputs a = W x (W of shape H × d, one training
case x ∈ R^d), μ = (1/H) Σ a_i, σ = √((1/H) Σ (a_i − μ)²) (Eq. 3), and the output
h = (g/σ) ⊙ (a − μ) + b with gain and bias vectors g, b ∈ R^H (Eq. 4 without f).
The statistics run over the H units, so H plays the role a batch size plays for BN.
"""

from bnproof.claims import Claim, Var

PAPER = "Ba, Kiros & Hinton 2016, Layer Normalization"
W = Var("W", ("H", "d"))
XCASE = Var("x", ("d",))
GAIN, BIAS = Var("g", ("H",)), Var("b", ("H",))
DELTA = Var("delta", (), "positive")
SIZES = {"H": (2, 5), "d": (1, 3)}


def layer_norm(xp, a, g, b):
    mu = xp.mean(a)
    sigma = xp.sqrt(xp.mean((a - mu) ** 2))
    return g / sigma * (a - mu) + b


def units_spread(xp, W, x, **_):
    a = W @ x
    return xp.mean((a - xp.mean(a)) ** 2)


def gap(xp, p, q):
    return xp.sum((p - q) ** 2)


SINGLE_CASE_RESCALING = Claim(
    id="published/ba2016/single-case-rescaling",
    source=PAPER + ", Section 5.1 and Table 1 (single training case re-scaling: invariant)",
    statement=r"\mathrm{LN}(W(\delta \mathbf{x})) = \mathrm{LN}(W\mathbf{x}) \quad (\delta > 0)",
    reading="One training case x scaled by δ > 0; the statistics over the H units of the layer; "
            "σ > 0.  Read as Σ_i (lhs_i − rhs_i)² = 0.",
    kind="identity", variables=(W, XCASE, GAIN, BIAS, DELTA), sizes=SIZES, hypotheses=(units_spread,),
    residual=lambda xp, W, x, g, b, delta: gap(xp, layer_norm(xp, W @ (delta * x), g, b),
                                               layer_norm(xp, W @ x, g, b)),
)

WEIGHT_MATRIX_RESCALING = Claim(
    id="published/ba2016/weight-matrix-rescaling",
    source=PAPER + ", Section 5.1 and Table 1 (weight matrix re-scaling: invariant)",
    statement=r"\mathrm{LN}((\delta W)\mathbf{x}) = \mathrm{LN}(W\mathbf{x}) \quad (\delta > 0)",
    reading="W' = δW for a scalar δ > 0.",
    kind="identity", variables=(W, XCASE, GAIN, BIAS, DELTA), sizes=SIZES, hypotheses=(units_spread,),
    residual=lambda xp, W, x, g, b, delta: gap(xp, layer_norm(xp, (delta * W) @ x, g, b),
                                               layer_norm(xp, W @ x, g, b)),
)

WEIGHT_MATRIX_RECENTERING = Claim(
    id="published/ba2016/weight-matrix-recentering",
    source=PAPER + ", Section 5.1 and Table 1 (weight matrix re-centering: invariant)",
    statement=r"\mathrm{LN}((W + \mathbf{1}\gamma^\top)\mathbf{x}) = \mathrm{LN}(W\mathbf{x})",
    reading="The same vector γ ∈ R^d added to every row of W (numpy's broadcast W + γ).",
    kind="identity", variables=(W, XCASE, Var("c", ("d",)), GAIN, BIAS), sizes=SIZES,
    hypotheses=(units_spread,),
    residual=lambda xp, W, x, c, g, b: gap(xp, layer_norm(xp, (W + c) @ x, g, b), layer_norm(xp, W @ x, g, b)),
)


def _bn(xp, z):
    mu = xp.mean(z)
    return (z - mu) / xp.sqrt(xp.mean((z - mu) ** 2))


def _batch_spread(xp, X, w, **_):
    z = X @ w
    return xp.mean((z - xp.mean(z)) ** 2)


DATASET_RESCALING_BN = Claim(
    id="published/ba2016/bn-dataset-rescaling",
    source=PAPER + ", Section 5.1 and Table 1 (batch norm: dataset re-scaling invariant)",
    statement=r"\mathrm{BN}((\delta X) \mathbf{w}) = \mathrm{BN}(X \mathbf{w}) \quad (\delta > 0)",
    reading="One unit with weights w over a mini-batch X of m cases (m × d); every case scaled by the same "
            "δ > 0.",
    kind="identity", variables=(Var("X", ("m", "d")), Var("w", ("d",)), DELTA), sizes={"m": (2, 5), "d": (1, 3)},
    hypotheses=(_batch_spread,),
    residual=lambda xp, X, w, delta: gap(xp, _bn(xp, (delta * X) @ w), _bn(xp, X @ w)),
)

WEIGHT_VECTOR_RESCALING_BN = Claim(
    id="published/ba2016/bn-weight-vector-rescaling",
    source=PAPER + ", Section 5.1 and Table 1 (batch norm: weight vector re-scaling invariant)",
    statement=r"\mathrm{BN}(X (\delta_i \mathbf{w}_i)) = \mathrm{BN}(X \mathbf{w}_i) \quad (\delta_i > 0)",
    reading="Unit i's incoming weight vector w_i scaled by its own δ_i > 0 (BN normalizes each unit "
            "separately, so one unit is the claim).",
    kind="identity", variables=(Var("X", ("m", "d")), Var("w", ("d",)), DELTA), sizes={"m": (2, 5), "d": (1, 3)},
    hypotheses=(_batch_spread,),
    residual=lambda xp, X, w, delta: gap(xp, _bn(xp, X @ (delta * w)), _bn(xp, X @ w)),
)


def _ln_rows(xp, A):
    """LN of each row (training case) of a mini-batch of summed inputs A (m × H)."""
    mu = xp.mean(A, axis=1)[:, None]
    return (A - mu) / xp.sqrt(xp.mean((A - mu) ** 2, axis=1)[:, None])


def _rows_spread(xp, X, W, **_):
    A = X @ W.T
    return xp.mean((A - xp.mean(A, axis=1)[:, None]) ** 2, axis=1)


MINIBATCH_CASE_RESCALING = Claim(
    id="published/ba2016/minibatch-case-rescaling",
    source=PAPER + ", Section 5.1 (\"invariant to re-scaling of individual training cases\")",
    statement=r"\mathrm{LN}(\mathrm{diag}(\delta) X W^\top) = \mathrm{LN}(X W^\top) \quad (\delta_n > 0)",
    reading="A mini-batch X of m cases (m × d), each case n scaled by its own δ_n > 0; summed inputs "
            "A = X Wᵀ (m × H); LN of each row over its H units.",
    kind="identity", variables=(Var("X", ("m", "d")), Var("W", ("H", "d")), Var("delta", ("m",), "positive")),
    sizes={"m": (2, 4), "d": (1, 2), "H": (2, 3)}, hypotheses=(_rows_spread,),
    residual=lambda xp, X, W, delta: gap(xp, _ln_rows(xp, (delta[:, None] * X) @ W.T), _ln_rows(xp, X @ W.T)),
)
