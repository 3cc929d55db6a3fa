"""Shapes beyond one batch vector, proved for every batch size (docs/claims.md,
"Proofs for every m"), and their near misses, refuted.

* A batch size of any name: the batch size is the claim's size named m, or else the
  one size that is the first axis of its batch inputs and never a later axis (y of
  shape ("n",), X of shape ("B", "d")).  Two candidates (y of shape ("n",) beside c of
  shape ("d",)) are refused with that reason: name the batch size m.
* Vector inputs declared positive: every entry > 0 is a manifest sign, in the search
  and in the checker (Σy > 0, mean(y∘g² + y) > 0), and a batch sum of such vectors
  leaves a root as a positive input does (√((Σy)²) = Σy).
* Outer products with a vector of fixed length d: xp.outer(xp.ones(n), c) is 1cᵀ, an
  (n, d) matrix whose column j is c_j·1, so X + 1cᵀ (and numpy's broadcast X + c) works.
* Reductions over the fixed axis: xp.mean(X, axis=1) is the batch vector of row means
  (layer norm's μ of each row of an (n, d) input), and the transpose Xᵀ, of shape (d, n),
  is reduced and broadcast as numpy does (a row of Xᵀ with a batch vector, a (d, 1) array
  such as xp.mean(Z, axis=1)[:, None] with each row).

True, proved for every batch size (at d = 1, 2, 3 where there is a d):

* BATCH_NAMED_N: Σ BN(y)_b = 0 with the batch size named n.
* POSITIVE_MEAN: the mean of a positive batch is > 0.
* POSITIVE_WEIGHTED: mean(y∘g² + y) > 0 for a positive batch y and any g.
* POSITIVE_ROOT: √((Σ y∘z)²) = Σ y∘z for positive batches y and z.
* SHIFT_PER_COLUMN: BN(X + 1cᵀ) = BN(X), column-wise (BN of each column does not see a
  constant added to that column), X of shape (B, d), c of shape (d,).
* SHIFT_BROADCAST: the same with numpy's broadcast X + c.
* COLUMN_MEANS: the column means of X + 1cᵀ are those of X plus c.
* ROW_MEANS: layer norm's row means of X + 1cᵀ are those of X plus mean(c).
* LN_OF_TRANSPOSE: LN(Aᵀ) = BN(A)ᵀ: layer norm of the (d, n) transpose, each row
  normalized over its n entries, is batch normalization of A's columns.

Near misses, refuted with a certificate:

* SHIFT_ADDS_C: BN(X + 1cᵀ) = BN(X) + 1cᵀ (BN removes the shift: false unless c = 0).
* SIGNLESS_MEAN: mean(y) ≥ 0 for a batch y with no declared sign.
* SIGNLESS_ROOT: √((Σy)²) = Σy with no declared sign (false when Σy < 0).
* COLUMN_MEANS_TWICE: the column means of X + 1cᵀ are those of X plus 2c.
* LN_VARIANCE_SWAPPED: LN(Aᵀ) with Bessel's variance (÷ (n − 1)) for BN(A)ᵀ with the
  biased one.

``bnproof prove docs/examples/every_m_shapes.py`` proves the true ones;
``bnproof fuzz docs/examples/every_m_shapes.py`` refutes the near misses.
"""

from bnproof.claims import Claim, Var

SOURCE = "bnproof docs, every-m shapes example"
X = Var("X", ("B", "d"))
C = Var("c", ("d",))
MATRIX_SIZES = {"B": (2, 5), "d": (1, 3)}


def _bn(xp, y):
    mu = xp.mean(y)
    return (y - mu) / xp.sqrt(xp.mean((y - mu) ** 2))


def _spread(xp, y, **_):
    return xp.mean((y - xp.mean(y)) ** 2)


def _bn_columns(xp, X):
    """BN of each column of X: the batch axis is axis 0."""
    mu = xp.mean(X, axis=0)
    return (X - mu) / xp.sqrt(xp.mean((X - mu) ** 2, axis=0))


def _column_spread(xp, X, c):
    """Each column's variance > 0 (one hypothesis per column)."""
    return xp.mean((X - xp.mean(X, axis=0)) ** 2, axis=0)


def _ln_rows(xp, Z, bessel=False):
    """Layer norm of each row of Z over its last axis (numpy's broadcasting by [:, None])."""
    mu = xp.mean(Z, axis=1)[:, None]
    n = Z.shape[1] - 1 if bessel else Z.shape[1]
    return (Z - mu) / xp.sqrt(xp.sum((Z - mu) ** 2, axis=1)[:, None] / n)


def _one_c(xp, X, c):
    return xp.outer(xp.ones(X.shape[0]), c)


BATCH_NAMED_N = Claim(
    id="gallery/every_m_shapes/batch-named-n",
    source=SOURCE,
    statement=r"\sum_{b=1}^{n} \mathrm{BN}(y)_b = 0",
    title="the batch size may be named n",
    kind="identity", variables=(Var("y", ("n",)),), sizes={"n": (2, 5)}, hypotheses=(_spread,),
    residual=lambda xp, y: xp.sum(_bn(xp, y)),
)

POSITIVE_MEAN = Claim(
    id="gallery/every_m_shapes/positive-mean",
    source=SOURCE,
    statement=r"\tfrac{1}{m}\sum_b y_b > 0 \quad (y_b > 0)",
    title="a positive batch has a positive mean",
    kind="inequality", strict=True, variables=(Var("y", ("m",), "positive"),), sizes={"m": (2, 5)},
    residual=lambda xp, y: xp.mean(y),
)

POSITIVE_WEIGHTED = Claim(
    id="gallery/every_m_shapes/positive-weighted",
    source=SOURCE,
    statement=r"\tfrac{1}{m}\sum_b (y_b g_b^2 + y_b) > 0 \quad (y_b > 0)",
    title="positive weights of squares",
    kind="inequality", strict=True, variables=(Var("y", ("m",), "positive"), Var("g", ("m",))),
    sizes={"m": (2, 5)},
    residual=lambda xp, y, g: xp.mean(y * g ** 2 + y),
)

POSITIVE_ROOT = Claim(
    id="gallery/every_m_shapes/positive-root",
    source=SOURCE,
    statement=r"\sqrt{\Big(\sum_b y_b z_b\Big)^2} = \sum_b y_b z_b \quad (y_b, z_b > 0)",
    title="a positive batch sum leaves its root",
    kind="identity", variables=(Var("y", ("m",), "positive"), Var("z", ("m",), "positive")),
    sizes={"m": (2, 5)},
    residual=lambda xp, y, z: xp.sqrt(xp.sum(y * z) ** 2) - xp.sum(y * z),
)

SHIFT_PER_COLUMN = Claim(
    id="gallery/every_m_shapes/shift-per-column",
    source="Ioffe & Szegedy 2015, Section 3.1 (a bias b in BN(Wu + b) is cancelled by the mean)",
    statement=r"\mathrm{BN}(X + \mathbf{1}c^\top) = \mathrm{BN}(X)",
    title="BN of each column does not see a shift of that column",
    kind="identity", variables=(X, C), sizes=MATRIX_SIZES, hypotheses=(_column_spread,),
    residual=lambda xp, X, c: xp.sum((_bn_columns(xp, X + _one_c(xp, X, c)) - _bn_columns(xp, X)) ** 2),
)

SHIFT_BROADCAST = Claim(
    id="gallery/every_m_shapes/shift-broadcast",
    source=SOURCE,
    statement=r"\mathrm{BN}(X + c) = \mathrm{BN}(X) \quad \text{(numpy's broadcast of } c\text{)}",
    title="the same, as numpy broadcasts",
    kind="identity", variables=(X, C), sizes=MATRIX_SIZES, hypotheses=(_column_spread,),
    residual=lambda xp, X, c: xp.sum((_bn_columns(xp, X + c) - _bn_columns(xp, X)) ** 2),
)

COLUMN_MEANS = Claim(
    id="gallery/every_m_shapes/column-means",
    source=SOURCE,
    statement=r"\tfrac{1}{B}\mathbf{1}^\top(X + \mathbf{1}c^\top) = \tfrac{1}{B}\mathbf{1}^\top X + c^\top",
    title="column means shift by c",
    kind="identity", variables=(X, C), sizes=MATRIX_SIZES,
    residual=lambda xp, X, c: xp.sum((xp.mean(X + _one_c(xp, X, c), axis=0) - xp.mean(X, axis=0) - c) ** 2),
)

ROW_MEANS = Claim(
    id="gallery/every_m_shapes/row-means",
    source="Ba, Kiros & Hinton 2016, Section 3 (the mean of each layer's units)",
    statement=r"\tfrac{1}{d}(X + \mathbf{1}c^\top)\mathbf{1} = \tfrac{1}{d}X\mathbf{1} + \bar c\,\mathbf{1}",
    title="row means shift by the mean of c",
    kind="identity", variables=(X, C), sizes=MATRIX_SIZES,
    residual=lambda xp, X, c: xp.sum((xp.mean(X + _one_c(xp, X, c), axis=1) - xp.mean(X, axis=1)
                                      - xp.mean(c)) ** 2),
)

LN_OF_TRANSPOSE = Claim(
    id="gallery/every_m_shapes/ln-of-transpose",
    source="Ba, Kiros & Hinton 2016, Section 3 (layer norm is BN over the other axis)",
    statement=r"\mathrm{LN}(A^\top) = \mathrm{BN}(A)^\top",
    title="layer norm of the transpose is batch norm",
    kind="identity", variables=(Var("A", ("B", "d")),), sizes=MATRIX_SIZES,
    hypotheses=(lambda xp, A: _column_spread(xp, A, None),),
    residual=lambda xp, A: xp.sum((_ln_rows(xp, A.T) - _bn_columns(xp, A).T) ** 2),
)

SHIFT_ADDS_C = Claim(
    id="gallery/every_m_shapes/shift-adds-c",
    source=SOURCE,
    statement=r"\mathrm{BN}(X + \mathbf{1}c^\top) = \mathrm{BN}(X) + \mathbf{1}c^\top",
    title="near miss: BN keeps the shift",
    kind="identity", variables=(X, C), sizes=MATRIX_SIZES, hypotheses=(_column_spread,),
    residual=lambda xp, X, c: xp.sum((_bn_columns(xp, X + _one_c(xp, X, c))
                                      - _bn_columns(xp, X) - _one_c(xp, X, c)) ** 2),
)

SIGNLESS_MEAN = Claim(
    id="gallery/every_m_shapes/signless-mean",
    source=SOURCE,
    statement=r"\tfrac{1}{m}\sum_b y_b \ge 0",
    title="near miss: no declared sign",
    kind="inequality", variables=(Var("y", ("m",)),), sizes={"m": (2, 5)},
    residual=lambda xp, y: xp.mean(y),
)

SIGNLESS_ROOT = Claim(
    id="gallery/every_m_shapes/signless-root",
    source=SOURCE,
    statement=r"\sqrt{\Big(\sum_b y_b\Big)^2} = \sum_b y_b",
    title="near miss: the root of a square with no sign",
    kind="identity", variables=(Var("y", ("m",)),), sizes={"m": (2, 5)},
    residual=lambda xp, y: xp.sqrt(xp.sum(y) ** 2) - xp.sum(y),
)

COLUMN_MEANS_TWICE = Claim(
    id="gallery/every_m_shapes/column-means-twice",
    source=SOURCE,
    statement=r"\tfrac{1}{B}\mathbf{1}^\top(X + \mathbf{1}c^\top) = \tfrac{1}{B}\mathbf{1}^\top X + 2c^\top",
    title="near miss: the shift counted twice",
    kind="identity", variables=(X, C), sizes=MATRIX_SIZES,
    residual=lambda xp, X, c: xp.sum((xp.mean(X + _one_c(xp, X, c), axis=0) - xp.mean(X, axis=0) - 2 * c) ** 2),
)

LN_VARIANCE_SWAPPED = Claim(
    id="gallery/every_m_shapes/ln-variance-swapped",
    source=SOURCE,
    statement=r"\mathrm{LN}_{\text{Bessel}}(A^\top) = \mathrm{BN}(A)^\top",
    title="near miss: Bessel's variance on one side",
    kind="identity", variables=(Var("A", ("B", "d")),), sizes=MATRIX_SIZES,
    hypotheses=(lambda xp, A: _column_spread(xp, A, None),),
    residual=lambda xp, A: xp.sum((_ln_rows(xp, A.T, bessel=True) - _bn_columns(xp, A).T) ** 2),
)

EXPECTED = {
    "gallery/every_m_shapes/batch-named-n": "survived",
    "gallery/every_m_shapes/positive-mean": "survived",
    "gallery/every_m_shapes/positive-weighted": "survived",
    "gallery/every_m_shapes/positive-root": "survived",
    "gallery/every_m_shapes/shift-per-column": "survived",
    "gallery/every_m_shapes/shift-broadcast": "survived",
    "gallery/every_m_shapes/column-means": "survived",
    "gallery/every_m_shapes/row-means": "survived",
    "gallery/every_m_shapes/ln-of-transpose": "survived",
    "gallery/every_m_shapes/shift-adds-c": "refuted",
    "gallery/every_m_shapes/signless-mean": "refuted",
    "gallery/every_m_shapes/signless-root": "refuted",
    "gallery/every_m_shapes/column-means-twice": "refuted",
    "gallery/every_m_shapes/ln-variance-swapped": "refuted",
}
