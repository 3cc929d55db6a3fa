"""Inequalities for every batch size m (docs/claims.md, "Proofs for every m", sums of
squares), and their near misses, refuted.

A residual R in batch sums is ≥ 0 when R·D is a sum of squares with D > 0: squares
Σ_i q(i)² of per-entry expressions q whose coefficients are batch sums, and squares of
scalars.  The prover finds them by Gram–Schmidt over the batch vectors (the ones
vector 1 and the input vectors): with q_1 = v_1, q_k = v_k − Σ_{t<k} ℓ_kt q_t and
ℓ_kt = ⟨v_k, q_t⟩/‖q_t‖², every batch sum ⟨v_j, v_k⟩ is Σ_t ℓ_jt ℓ_kt ‖q_t‖², and
Cauchy–Schwarz is ⟨a, a⟩⟨b, b⟩ − ⟨a, b⟩² = ‖q_1‖²‖q_2‖² (q_1 = a, q_2 = b − ℓ a):
a product of two sums of squares.  Where ‖q_t‖² may be 0 (a = 0, a constant batch)
the proof has a case: q_t ≡ 0 puts v_t in the span of the earlier vectors, and the
residual is proved again with v_t replaced by λ_0·1 + Σ λ_s v_s (fresh λ): there it is
0, or the claim is undefined (BN divides by σ = 0).

True, proved for every m (fuzz: survived, with the note "proved for every m"):

* CAUCHY_SCHWARZ: (Σ a∘b)² ≤ Σa²·Σb² for batch vectors a, b, no hypothesis: the
  certificate has a case for a = 0 (there the residual is 0).
* AM_GM: ⟨a, b⟩ ≤ (‖a‖² + ‖b‖²)/2, i.e. ½‖a‖²(1 − ℓ)² + ½‖b − ℓa‖² with ℓ = ⟨a, b⟩/‖a‖²,
  and a case for a = 0 where the residual ½‖b‖² is proved ≥ 0 on its own.
* GRAM_DETERMINANT: the Gram determinant of three batch vectors is ≥ 0 (the product of
  the three pivots ‖q_1‖²‖q_2‖²‖q_3‖², with a case for each of the first two).
* TWO_GAPS: (Σa²Σb² − (Σa∘b)²) + (Σb²Σc² − (Σb∘c)²) ≥ 0, two Cauchy–Schwarz gaps that
  share b: its cases have cases (a = 0, then b = 0; b = λa, where the residual is
  λ²·(Σa²Σc² − (Σa∘c)²), proved with the case's own scalar λ).
* COVARIANCE: cov(x, y)² ≤ var(x)·var(y), biased (÷ m) moments; a case for a constant x.
* REGRESSION: cov(x, y)²/var(x) ≤ var(y), the variance a least-squares line explains is
  at most the variance; the case of a constant x is outside the claim (it divides by
  var(x) = 0 there), and the certificate says so ("undefined").
* MEAN_SQUARE: (mean y)² ≤ mean(y²): m·Σy² − (Σy)² = m·Σ(y − ȳ)², no case (d = m > 0).
* BN_EPS_PROJECTION: ⟨BN_ε(y), z⟩² ≤ m·‖z‖² for ε > 0 (‖ŷ_ε‖² = mσ²/(σ² + ε) ≤ m), with
  no hypothesis on y: a constant batch is a case, where BN_ε(y) = 0 and the residual
  m·Σz² is proved ≥ 0 on its own.
* BN_NORM_BOUND: ⟨ŷ, z⟩ ≤ √m·‖z‖ under σ² > 0 (‖ŷ‖ = √m, Cauchy–Schwarz), with its
  roots: N = ρ − C with ρ = √m‖z‖σ, and 2ρ·N = (ρ² − C²) + (ρ − C)², the first a
  Cauchy–Schwarz sum of squares; z = 0, where ρ = 0, is a case (the residual is 0).
* BN_PROJECTION: the squared form ⟨ŷ, z⟩² ≤ m·‖z‖² (the structural search of
  nonnegative.py proves it already).
* TWO_SQUARES: ((Σy − Σz)² + (Σy∘z)²)/(Σz² + 1) ≥ 0 written out: a sum of two squares
  over a positive denominator, from the exact LDLᵀ.

Samuelson's inequality ((y_1 − μ)² ≤ (m − 1)/m·Σ(y_i − μ)², |ŷ_i| ≤ √(m − 1)) is not
here: it names one entry y_1 with m symbolic, and indexing an entry is outside the
fragment.

Near misses, refuted by ``bnproof fuzz``, never proved ("not proved: normal form …, no
manifestly nonnegative decomposition found"):

* REVERSED: (Σ a∘b)² ≥ Σa²·Σb².
* FACTOR_TWO: 2·(Σ a∘b)² ≤ Σa²·Σb².
* REGRESSION_HALF: cov(x, y)²/var(x) ≤ var(y)/2.
* TWO_GAPS_TWICE: the second gap counted twice, (Σb∘c)² doubled.
* AM_GM_QUARTER: ⟨a, b⟩ ≤ (‖a‖² + ‖b‖²)/4 (false at a = b ≠ 0).
* UNBIASED_COVARIANCE: Bessel's covariance (÷ (m − 1)) squared against biased variances.
* BN_NORM_BOUND_MINUS_ONE, BN_EPS_MINUS_ONE and BN_PROJECTION_MINUS_ONE: m − 1 for m
  (√(m − 1)‖z‖ is no bound: z = ŷ gives m).

``bnproof prove docs/examples/every_m_inequalities.py`` proves the true ones for every m;
``bnproof fuzz docs/examples/every_m_inequalities.py`` refutes the near misses.
"""

from bnproof.claims import Claim, Var

SOURCE = "bnproof docs, every-m inequalities example"
A, B = Var("a", ("m",)), Var("b", ("m",))
X, Y, Z = Var("x", ("m",)), Var("y", ("m",)), Var("z", ("m",))
EPS = Var("eps", (), "positive")
SIZES = {"m": (2, 5)}


def _spread(xp, y, **_):
    """σ² > 0: BN without ε is undefined on a constant batch."""
    return xp.mean((y - xp.mean(y)) ** 2)


def _var(xp, x):
    return xp.mean(x * x) - xp.mean(x) ** 2


def _cov(xp, x, y, unbiased=False):
    m = x.shape[0]
    c = xp.sum((x - xp.mean(x)) * (y - xp.mean(y)))
    return c / (m - 1) if unbiased else c / m


def _bn(xp, y, eps=0):
    mu = xp.mean(y)
    return (y - mu) / xp.sqrt(xp.mean((y - mu) ** 2) + eps)


CAUCHY_SCHWARZ = Claim(
    id="gallery/every_m_inequalities/cauchy-schwarz",
    source="Cauchy–Schwarz in R^m",
    statement=r"\Big(\sum_i a_i b_i\Big)^2 \le \sum_i a_i^2 \sum_i b_i^2",
    title="Cauchy–Schwarz for batch vectors",
    kind="inequality", variables=(A, B), sizes=SIZES,
    residual=lambda xp, a, b: xp.sum(a * a) * xp.sum(b * b) - xp.sum(a * b) ** 2,
)

AM_GM = Claim(
    id="gallery/every_m_inequalities/am-gm",
    source="the arithmetic–geometric mean inequality for batch vectors",
    statement=r"\langle a, b\rangle \le \tfrac12 \big(\|a\|^2 + \|b\|^2\big)",
    title="an inner product is at most the mean of the squared norms",
    kind="inequality", variables=(A, B), sizes=SIZES,
    residual=lambda xp, a, b: (xp.sum(a * a) + xp.sum(b * b)) / 2 - xp.sum(a * b),
)


def _gram_determinant(xp, a, b, c):
    aa, bb, cc = xp.sum(a * a), xp.sum(b * b), xp.sum(c * c)
    ab, ac, bc = xp.sum(a * b), xp.sum(a * c), xp.sum(b * c)
    return aa * bb * cc + 2 * ab * bc * ac - aa * bc ** 2 - bb * ac ** 2 - cc * ab ** 2


GRAM_DETERMINANT = Claim(
    id="gallery/every_m_inequalities/gram-determinant",
    source="Gram's inequality for three vectors",
    statement=r"\det \begin{pmatrix} \langle a,a\rangle & \langle a,b\rangle & \langle a,c\rangle \\ "
              r"\langle a,b\rangle & \langle b,b\rangle & \langle b,c\rangle \\ "
              r"\langle a,c\rangle & \langle b,c\rangle & \langle c,c\rangle \end{pmatrix} \ge 0",
    title="the Gram determinant of three batch vectors",
    kind="inequality", variables=(A, B, Var("c", ("m",))), sizes=SIZES,
    residual=_gram_determinant,
)


def _gaps(xp, a, b, c, twice=1):
    def gap(u, v, k=1):
        return xp.sum(u * u) * xp.sum(v * v) - k * xp.sum(u * v) ** 2
    return gap(a, b) + gap(b, c, twice)


TWO_GAPS = Claim(
    id="gallery/every_m_inequalities/two-gaps",
    source=SOURCE,
    statement=r"\|a\|^2\|b\|^2 - \langle a,b\rangle^2 + \|b\|^2\|c\|^2 - \langle b,c\rangle^2 \ge 0",
    title="two Cauchy–Schwarz gaps that share a vector",
    kind="inequality", variables=(A, B, Var("c", ("m",))), sizes=SIZES,
    residual=_gaps,
)

COVARIANCE = Claim(
    id="gallery/every_m_inequalities/covariance",
    source="Cauchy–Schwarz for the biased covariance",
    statement=r"\mathrm{cov}(x, y)^2 \le \mathrm{var}(x)\,\mathrm{var}(y)",
    title="a covariance is bounded by the variances",
    kind="inequality", variables=(X, Y), sizes=SIZES,
    residual=lambda xp, x, y: _var(xp, x) * _var(xp, y) - _cov(xp, x, y) ** 2,
)

REGRESSION = Claim(
    id="gallery/every_m_inequalities/regression",
    source="least squares: the explained variance is at most the variance",
    statement=r"\frac{\mathrm{cov}(x, y)^2}{\mathrm{var}(x)} \le \mathrm{var}(y)",
    title="a regression line explains at most all of the variance",
    kind="inequality", variables=(X, Y), sizes=SIZES,
    residual=lambda xp, x, y: _var(xp, y) - _cov(xp, x, y) ** 2 / _var(xp, x),
)

MEAN_SQUARE = Claim(
    id="gallery/every_m_inequalities/mean-square",
    source="Jensen's inequality for the square",
    statement=r"\bar y^2 \le \overline{y^2}",
    title="the square of the mean is at most the mean square",
    kind="inequality", variables=(Y,), sizes=SIZES,
    residual=lambda xp, y: xp.mean(y * y) - xp.mean(y) ** 2,
)

BN_NORM_BOUND = Claim(
    id="gallery/every_m_inequalities/bn-norm-bound",
    source="Cauchy–Schwarz with the BN output, ‖ŷ‖ = √m",
    statement=r"\langle \hat y, z\rangle \le \sqrt{m}\,\|z\|",
    title="a BN output against any vector, roots and all",
    kind="inequality", variables=(Y, Z), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, z: xp.sqrt(y.shape[0]) * xp.sqrt(xp.sum(z * z)) - xp.sum(_bn(xp, y) * z),
)

BN_PROJECTION = Claim(
    id="gallery/every_m_inequalities/bn-projection",
    source="Cauchy–Schwarz with the BN output, ‖ŷ‖² = m",
    statement=r"\langle \hat y, z\rangle^2 \le m \,\|z\|^2",
    title="a BN output against any vector",
    kind="inequality", variables=(Y, Z), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, z: y.shape[0] * xp.sum(z * z) - xp.sum(_bn(xp, y) * z) ** 2,
)

BN_EPS_PROJECTION = Claim(
    id="gallery/every_m_inequalities/bn-eps-projection",
    source="Cauchy–Schwarz with BN_ε's output, ‖ŷ_ε‖² = mσ²/(σ² + ε) ≤ m",
    statement=r"\langle \hat y_\varepsilon, z\rangle^2 \le m \,\|z\|^2 \quad (\varepsilon > 0)",
    title="a BN_ε output against any vector, constant batches included",
    kind="inequality", variables=(Y, Z, EPS), sizes=SIZES,
    residual=lambda xp, y, z, eps: y.shape[0] * xp.sum(z * z) - xp.sum(_bn(xp, y, eps) * z) ** 2,
)


def _two_squares(xp, y, z):
    s, t, u = xp.sum(y), xp.sum(z), xp.sum(y * z)
    return s * s - 2 * s * t + t * t + u * u


TWO_SQUARES = Claim(
    id="gallery/every_m_inequalities/two-squares",
    source=SOURCE,
    statement=r"\frac{(\Sigma y - \Sigma z)^2 + (\Sigma y z)^2}{\Sigma z^2 + 1} \ge 0",
    title="two squares written out, over a positive denominator",
    kind="inequality", variables=(Y, Z), sizes=SIZES,
    residual=lambda xp, y, z: _two_squares(xp, y, z) / (xp.sum(z * z) + 1),
)

REVERSED = Claim(
    id="gallery/every_m_inequalities/reversed",
    source=SOURCE + " (near miss: Cauchy–Schwarz reversed)",
    statement=r"\Big(\sum_i a_i b_i\Big)^2 \ge \sum_i a_i^2 \sum_i b_i^2",
    kind="inequality", variables=(A, B), sizes=SIZES,
    residual=lambda xp, a, b: xp.sum(a * b) ** 2 - xp.sum(a * a) * xp.sum(b * b),
)

FACTOR_TWO = Claim(
    id="gallery/every_m_inequalities/factor-two",
    source=SOURCE + " (near miss: a factor 2)",
    statement=r"2\Big(\sum_i a_i b_i\Big)^2 \le \sum_i a_i^2 \sum_i b_i^2",
    kind="inequality", variables=(A, B), sizes=SIZES,
    residual=lambda xp, a, b: xp.sum(a * a) * xp.sum(b * b) - 2 * xp.sum(a * b) ** 2,
)

REGRESSION_HALF = Claim(
    id="gallery/every_m_inequalities/regression-half",
    source=SOURCE + " (near miss: half the variance)",
    statement=r"\frac{\mathrm{cov}(x, y)^2}{\mathrm{var}(x)} \le \tfrac12 \mathrm{var}(y)",
    kind="inequality", variables=(X, Y), sizes=SIZES,
    residual=lambda xp, x, y: _var(xp, y) / 2 - _cov(xp, x, y) ** 2 / _var(xp, x),
)

TWO_GAPS_TWICE = Claim(
    id="gallery/every_m_inequalities/two-gaps-twice",
    source=SOURCE + " (near miss: ⟨b, c⟩² counted twice)",
    statement=r"\|a\|^2\|b\|^2 - \langle a,b\rangle^2 + \|b\|^2\|c\|^2 - 2\langle b,c\rangle^2 \ge 0",
    kind="inequality", variables=(A, B, Var("c", ("m",))), sizes=SIZES,
    residual=lambda xp, a, b, c: _gaps(xp, a, b, c, twice=2),
)

AM_GM_QUARTER = Claim(
    id="gallery/every_m_inequalities/am-gm-quarter",
    source=SOURCE + " (near miss: 1/4 for 1/2)",
    statement=r"\langle a, b\rangle \le \tfrac14 \big(\|a\|^2 + \|b\|^2\big)",
    kind="inequality", variables=(A, B), sizes=SIZES,
    residual=lambda xp, a, b: (xp.sum(a * a) + xp.sum(b * b)) / 4 - xp.sum(a * b),
)

UNBIASED_COVARIANCE = Claim(
    id="gallery/every_m_inequalities/unbiased-covariance",
    source=SOURCE + " (near miss: Bessel's covariance against biased variances)",
    statement=r"\mathrm{cov}_{m-1}(x, y)^2 \le \mathrm{var}(x)\,\mathrm{var}(y)",
    kind="inequality", variables=(X, Y), sizes=SIZES,
    residual=lambda xp, x, y: _var(xp, x) * _var(xp, y) - _cov(xp, x, y, unbiased=True) ** 2,
)

BN_NORM_BOUND_MINUS_ONE = Claim(
    id="gallery/every_m_inequalities/bn-norm-bound-minus-one",
    source=SOURCE + " (near miss: √(m − 1) for √m)",
    statement=r"\langle \hat y, z\rangle \le \sqrt{m - 1}\,\|z\|",
    kind="inequality", variables=(Y, Z), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, z: xp.sqrt(y.shape[0] - 1) * xp.sqrt(xp.sum(z * z)) - xp.sum(_bn(xp, y) * z),
)

BN_EPS_MINUS_ONE = Claim(
    id="gallery/every_m_inequalities/bn-eps-minus-one",
    source=SOURCE + " (near miss: m − 1 for m, with BN_ε)",
    statement=r"\langle \hat y_\varepsilon, z\rangle^2 \le (m - 1)\,\|z\|^2",
    kind="inequality", variables=(Y, Z, EPS), sizes=SIZES,
    residual=lambda xp, y, z, eps: (y.shape[0] - 1) * xp.sum(z * z) - xp.sum(_bn(xp, y, eps) * z) ** 2,
)

BN_PROJECTION_MINUS_ONE = Claim(
    id="gallery/every_m_inequalities/bn-projection-minus-one",
    source=SOURCE + " (near miss: m − 1 for m)",
    statement=r"\langle \hat y, z\rangle^2 \le (m - 1)\,\|z\|^2",
    kind="inequality", variables=(Y, Z), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, z: (y.shape[0] - 1) * xp.sum(z * z) - xp.sum(_bn(xp, y) * z) ** 2,
)

EXPECTED = {
    "gallery/every_m_inequalities/cauchy-schwarz": "survived",
    "gallery/every_m_inequalities/am-gm": "survived",
    "gallery/every_m_inequalities/gram-determinant": "survived",
    "gallery/every_m_inequalities/two-gaps": "survived",
    "gallery/every_m_inequalities/covariance": "survived",
    "gallery/every_m_inequalities/regression": "survived",
    "gallery/every_m_inequalities/mean-square": "survived",
    "gallery/every_m_inequalities/bn-norm-bound": "survived",
    "gallery/every_m_inequalities/bn-projection": "survived",
    "gallery/every_m_inequalities/bn-eps-projection": "survived",
    "gallery/every_m_inequalities/two-squares": "survived",
    "gallery/every_m_inequalities/reversed": "refuted",
    "gallery/every_m_inequalities/factor-two": "refuted",
    "gallery/every_m_inequalities/regression-half": "refuted",
    "gallery/every_m_inequalities/two-gaps-twice": "refuted",
    "gallery/every_m_inequalities/am-gm-quarter": "refuted",
    "gallery/every_m_inequalities/unbiased-covariance": "refuted",
    "gallery/every_m_inequalities/bn-norm-bound-minus-one": "refuted",
    "gallery/every_m_inequalities/bn-eps-minus-one": "refuted",
    "gallery/every_m_inequalities/bn-projection-minus-one": "refuted",
}
