"""Roots of scaled quantities, proved for every batch size m (docs/claims.md,
"Proofs for every m"), and their near misses, refuted.

BN divides by a square root, σ = √V with V = (1/m) Σ (y_b − μ)².  Scaling the batch
by c scales V by c², and √(c²V) = |c|·√V: so BN(c·y) = BN(y) exactly when c > 0.
The prover takes a square out of a root only where the sign of what leaves is known
from a declared domain or a hypothesis (√(c²V) = c·√V for c > 0, = −c·√V under the
hypothesis −c > 0, and s²·√V for √(s⁴V) whatever the sign of s), and the independent
checker re-derives each such step from the program and the declared domains alone.

True, proved for every m (fuzz: survived, with the note "proved for every m" and the
proof's certificate):

* SCALE_INVARIANCE: BN(c·y) = BN(y) for c > 0 (Ioffe & Szegedy 2015, §3.3, write
  BN(Wu) = BN((aW)u) for a scalar a: true for a > 0 only).  Every identity here is
  read on the whole batch, as Σ_b (left_b − right_b)² = 0.
* SQUARE_SCALE: BN(s²·y) = BN(y) for every s ≠ 0 (no sign needed: √(s⁴V) = s²√V).
* NEGATIVE_SCALE: BN(c·y) = −BN(y) under the hypothesis −c > 0.
* EPSILON: BN_ε(c·y) = BN_{ε/c²}(y) for c, ε > 0 (the ε of a rescaled batch).
* UNBIASED_EPSILON: the same with Bessel's variance (1/(m − 1)) Σ (y_b − μ)².
* RMS_NORM: RMSNorm_ε(c·x) = RMSNorm_{ε/c²}(x), x/√(mean(x²) + ε) (Zhang & Sennrich
  2019's RMSNorm with an ε), a layer normalization's rescaling, the m units of one
  layer in place of a batch.
* WEIGHT_NORM: (c·w)/‖c·w‖ = w/‖w‖ for c > 0 (Salimans & Kingma 2016: the direction
  of weight normalization does not depend on the scale of v).
* ROOT_PRODUCT: √(c³)·√(σ²/c) = c·σ for c > 0 (products and quotients of roots:
  √(c³) = c·√c and √(σ²/c) = √c·σ/c).
* WEIGHT_NORM_LENGTH: ‖g·v/‖v‖‖ = g for g > 0 (Salimans & Kingma 2016: the length of
  w = g v/‖v‖ is g).  A root inside a root: √(g²Σv²/r²) with r = ‖v‖ = √(Σv²).  A
  root is ≥ 0 by definition and r divides, so r > 0 wherever the claim is defined,
  and r² leaves: √(Σv²/r²) = √(Σv²)/r = 1.
* WEIGHT_NORM_LENGTH_ABS: ‖g·v/‖v‖‖ = |g| for g of either sign, written √(g²) (abs
  is outside the fragment): √(g²Σv²) = √(g²)·√(Σv²), a product of roots of two
  quantities ≥ 0, and g² stays under its own root.
* EFFECTIVE_LEARNING_RATE: (w − η∇L(w))/‖w‖ = ŵ − (η/‖w‖²)∇L(ŵ), ŵ = w/‖w‖, for
  L(w) = ½ Σ (BN(w) − t)² (van Laarhoven 2017, §3: a step of size η on w is a step of
  size η/‖w‖² on the direction).  BN(ŵ) has σ(ŵ) = √(V/‖w‖²) = σ(w)/‖w‖.

Near misses, refuted with a certificate:

* SCALE_ANY_SIGN: BN(c·y) = BN(y) with no sign declared (false for c < 0).
* NEGATIVE_SCALE_SAME: BN(c·y) = BN(y) under −c > 0 (false: it is −BN(y)).
* EPSILON_WRONG_POWER: BN_ε(c·y) = BN_{ε/c}(y).
* EPSILON_MISSING: BN_ε(c·y) = BN_ε(y).
* VARIANCE_SWAPPED: Bessel's variance on the left, the biased one on the right.
* WEIGHT_NORM_LENGTH_ANY_SIGN: ‖g·v/‖v‖‖ = g with g ≠ 0 only (false for g < 0: the
  length is |g|; √(g²Σv²) = |g|·√(Σv²) stays whole, g's sign being unknown).

``bnproof prove docs/examples/every_m_roots.py`` proves the true ones for every m;
``bnproof fuzz docs/examples/every_m_roots.py`` refutes the near misses.
"""

from bnproof.claims import Claim, Var

SOURCE = "bnproof docs, every-m roots example"
Y = Var("y", ("m",))
C = Var("c", (), "positive")
EPS = Var("eps", (), "positive")
SIZES = {"m": (2, 5)}


def _bn(xp, y, eps=0, bessel=False):
    """(y − μ)/√(V + ε), V biased (÷ m) or Bessel's (÷ (m − 1))."""
    mu = xp.mean(y)
    n = y.shape[0] - 1 if bessel else y.shape[0]
    return (y - mu) / xp.sqrt(xp.sum((y - mu) ** 2) / n + eps)


def _spread(xp, y, **_):
    """V > 0: BN without ε is undefined on a constant batch."""
    return xp.mean((y - xp.mean(y)) ** 2)


def _gap(xp, a, b):
    return xp.sum((a - b) ** 2)


SCALE_INVARIANCE = Claim(
    id="gallery/every_m_roots/scale-invariance",
    source="Ioffe & Szegedy 2015, Section 3.3 (BN(Wu) = BN((aW)u), read for a > 0)",
    statement=r"\mathrm{BN}(c\,y) = \mathrm{BN}(y) \quad (c > 0)",
    title="BN does not see the scale of its input",
    kind="identity", variables=(Y, C), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, c: _gap(xp, _bn(xp, c * y), _bn(xp, y)),
)

SQUARE_SCALE = Claim(
    id="gallery/every_m_roots/square-scale",
    source=SOURCE,
    statement=r"\mathrm{BN}(s^2 y) = \mathrm{BN}(y) \quad (s \ne 0)",
    title="a square scale needs no sign",
    kind="identity", variables=(Y, Var("s", (), "nonzero")), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, s: _gap(xp, _bn(xp, s**2 * y), _bn(xp, y)),
)

NEGATIVE_SCALE = Claim(
    id="gallery/every_m_roots/negative-scale",
    source=SOURCE,
    statement=r"\mathrm{BN}(c\,y) = -\mathrm{BN}(y) \quad (c < 0)",
    title="a negative scale flips BN",
    kind="identity", variables=(Y, Var("c")), sizes=SIZES,
    hypotheses=(_spread, lambda xp, c, **_: -c),
    residual=lambda xp, y, c: _gap(xp, _bn(xp, c * y), -_bn(xp, y)),
)

EPSILON = Claim(
    id="gallery/every_m_roots/epsilon",
    source="Ioffe & Szegedy 2015, Algorithm 1 (BN with ε), rescaled",
    statement=r"\mathrm{BN}_\varepsilon(c\,y) = \mathrm{BN}_{\varepsilon/c^2}(y) \quad (c, \varepsilon > 0)",
    title="rescaling a batch rescales BN's ε by 1/c²",
    kind="identity", variables=(Y, C, EPS), sizes=SIZES,
    residual=lambda xp, y, c, eps: _gap(xp, _bn(xp, c * y, eps), _bn(xp, y, eps / c**2)),
)

UNBIASED_EPSILON = Claim(
    id="gallery/every_m_roots/unbiased-epsilon",
    source=SOURCE,
    statement=r"\mathrm{BN}^{(m-1)}_\varepsilon(c\,y) = \mathrm{BN}^{(m-1)}_{\varepsilon/c^2}(y)",
    title="the same with Bessel's variance",
    kind="identity", variables=(Y, C, EPS), sizes=SIZES,
    residual=lambda xp, y, c, eps: _gap(xp, _bn(xp, c * y, eps, True), _bn(xp, y, eps / c**2, True)),
)


def _rms(xp, x, eps):
    return x / xp.sqrt(xp.mean(x * x) + eps)


RMS_NORM = Claim(
    id="gallery/every_m_roots/rms-norm",
    source="Zhang & Sennrich 2019, RMSNorm with an ε, over the m units of one layer",
    statement=r"\mathrm{RMS}_\varepsilon(c\,x) = \mathrm{RMS}_{\varepsilon/c^2}(x) \quad (c, \varepsilon > 0)",
    title="RMSNorm's rescaling",
    kind="identity", variables=(Var("x", ("m",)), C, EPS), sizes=SIZES,
    residual=lambda xp, x, c, eps: _gap(xp, _rms(xp, c * x, eps), _rms(xp, x, eps / c**2)),
)


def _direction(xp, w):
    return w / xp.sqrt(xp.sum(w * w))


WEIGHT_NORM = Claim(
    id="gallery/every_m_roots/weight-norm",
    source="Salimans & Kingma 2016, Eq. 2 (w = g v/||v||)",
    statement=r"\frac{c\,v}{\lVert c\,v \rVert} = \frac{v}{\lVert v \rVert} \quad (c > 0)",
    title="weight normalization's direction ignores the scale of v",
    kind="identity", variables=(Var("v", ("m",)), C), sizes=SIZES,
    hypotheses=(lambda xp, v, **_: xp.sum(v * v),),
    residual=lambda xp, v, c: _gap(xp, _direction(xp, c * v), _direction(xp, v)),
)

ROOT_PRODUCT = Claim(
    id="gallery/every_m_roots/root-product",
    source=SOURCE,
    statement=r"\sqrt{c^3}\,\sqrt{\sigma^2/c} = c\,\sigma \quad (c > 0)",
    title="products and quotients of roots",
    kind="identity", variables=(Y, C), sizes=SIZES,
    residual=lambda xp, y, c: xp.sqrt(c**3) * xp.sqrt(_spread(xp, y) / c) - c * xp.sqrt(_spread(xp, y)),
)

def _norm(xp, v):
    return xp.sqrt(xp.sum(v * v))


def _nonzero(xp, v, **_):
    """‖v‖² > 0: weight normalization divides by ‖v‖."""
    return xp.sum(v * v)


WEIGHT_NORM_LENGTH = Claim(
    id="gallery/every_m_roots/weight-norm-length",
    source="Salimans & Kingma 2016, Section 2, below Eq. 2 (||w|| = g)",
    statement=r"\left\lVert g\,\frac{v}{\lVert v \rVert} \right\rVert = g \quad (g > 0)",
    title="the length of a weight-normalized vector is g",
    kind="identity", variables=(Var("v", ("m",)), Var("g", (), "positive")), sizes=SIZES,
    hypotheses=(_nonzero,),
    residual=lambda xp, v, g: _norm(xp, g * v / _norm(xp, v)) - g,
)


WEIGHT_NORM_LENGTH_ABS = Claim(
    id="gallery/every_m_roots/weight-norm-length-abs",
    source="Salimans & Kingma 2016, Section 2 (for g of either sign, ||w|| = |g|)",
    statement=r"\left\lVert g\,\frac{v}{\lVert v \rVert} \right\rVert = |g| = \sqrt{g^2}",
    title="the length of a weight-normalized vector is |g|",
    kind="identity", variables=(Var("v", ("m",)), Var("g")), sizes=SIZES, hypotheses=(_nonzero,),
    residual=lambda xp, v, g: _norm(xp, g * v / _norm(xp, v)) - xp.sqrt(g * g),
)


def _bn_loss(xp, t):
    return lambda w: xp.sum((_bn(xp, w) - t) ** 2) / 2


def _effective_step(xp, w, t, eta):
    norm = _norm(xp, w)
    on_w = (w - eta * xp.grad(_bn_loss(xp, t), w)) / norm
    on_direction = w / norm - eta / norm**2 * xp.grad(_bn_loss(xp, t), w / norm)
    return _gap(xp, on_w, on_direction)


EFFECTIVE_LEARNING_RATE = Claim(
    id="gallery/every_m_roots/effective-learning-rate",
    source="van Laarhoven 2017, Section 3 (the effective learning rate is eta/||w||^2)",
    statement=(r"\frac{w - \eta \nabla L(w)}{\lVert w \rVert} = \hat w - \frac{\eta}{\lVert w \rVert^2}"
               r" \nabla L(\hat w), \quad \hat w = \frac{w}{\lVert w \rVert}"),
    title="a step on a scale-invariant loss, seen on the direction",
    kind="identity", variables=(Var("w", ("m",)), Var("t", ("m",)), Var("eta")), sizes=SIZES,
    hypotheses=(lambda xp, w, **_: _spread(xp, w),),
    residual=_effective_step,
)

SCALE_ANY_SIGN = Claim(
    id="gallery/every_m_roots/scale-any-sign",
    source=SOURCE + " (a false claim: no sign declared)",
    statement=r"\mathrm{BN}(c\,y) = \mathrm{BN}(y) \quad (c \ne 0)",
    title="scale invariance without c > 0 (false)",
    kind="identity", variables=(Y, Var("c", (), "nonzero")), sizes=SIZES, hypotheses=(_spread,),
    residual=lambda xp, y, c: _gap(xp, _bn(xp, c * y), _bn(xp, y)),
)

NEGATIVE_SCALE_SAME = Claim(
    id="gallery/every_m_roots/negative-scale-same",
    source=SOURCE + " (a false claim)",
    statement=r"\mathrm{BN}(c\,y) = \mathrm{BN}(y) \quad (c < 0)",
    title="scale invariance for c < 0 (false)",
    kind="identity", variables=(Y, Var("c")), sizes=SIZES,
    hypotheses=(_spread, lambda xp, c, **_: -c),
    residual=lambda xp, y, c: _gap(xp, _bn(xp, c * y), _bn(xp, y)),
)

EPSILON_WRONG_POWER = Claim(
    id="gallery/every_m_roots/epsilon-wrong-power",
    source=SOURCE + " (a false claim: ε/c for ε/c²)",
    statement=r"\mathrm{BN}_\varepsilon(c\,y) = \mathrm{BN}_{\varepsilon/c}(y)",
    title="ε rescaled by the wrong power of c (false)",
    kind="identity", variables=(Y, C, EPS), sizes=SIZES,
    residual=lambda xp, y, c, eps: _gap(xp, _bn(xp, c * y, eps), _bn(xp, y, eps / c)),
)

EPSILON_MISSING = Claim(
    id="gallery/every_m_roots/epsilon-missing",
    source=SOURCE + " (a false claim: ε not rescaled)",
    statement=r"\mathrm{BN}_\varepsilon(c\,y) = \mathrm{BN}_\varepsilon(y)",
    title="BN with ε is not scale invariant (false)",
    kind="identity", variables=(Y, C, EPS), sizes=SIZES,
    residual=lambda xp, y, c, eps: _gap(xp, _bn(xp, c * y, eps), _bn(xp, y, eps)),
)

VARIANCE_SWAPPED = Claim(
    id="gallery/every_m_roots/variance-swapped",
    source=SOURCE + " (a false claim: Bessel's variance on one side only)",
    statement=r"\mathrm{BN}^{(m-1)}_\varepsilon(c\,y) = \mathrm{BN}_{\varepsilon/c^2}(y)",
    title="biased and unbiased variance swapped (false)",
    kind="identity", variables=(Y, C, EPS), sizes=SIZES,
    residual=lambda xp, y, c, eps: _gap(xp, _bn(xp, c * y, eps, True), _bn(xp, y, eps / c**2)),
)

WEIGHT_NORM_LENGTH_ANY_SIGN = Claim(
    id="gallery/every_m_roots/weight-norm-length-any-sign",
    source=SOURCE + " (a false claim: ||g v/||v|||| = |g|)",
    statement=r"\left\lVert g\,\frac{v}{\lVert v \rVert} \right\rVert = g \quad (g \ne 0)",
    title="the length of a weight-normalized vector without g > 0 (false)",
    kind="identity", variables=(Var("v", ("m",)), Var("g", (), "nonzero")), sizes=SIZES,
    hypotheses=(_nonzero,),
    residual=lambda xp, v, g: _norm(xp, g * v / _norm(xp, v)) - g,
)

EXPECTED = {
    "gallery/every_m_roots/scale-invariance": "survived",
    "gallery/every_m_roots/square-scale": "survived",
    "gallery/every_m_roots/negative-scale": "survived",
    "gallery/every_m_roots/epsilon": "survived",
    "gallery/every_m_roots/unbiased-epsilon": "survived",
    "gallery/every_m_roots/rms-norm": "survived",
    "gallery/every_m_roots/weight-norm": "survived",
    "gallery/every_m_roots/root-product": "survived",
    "gallery/every_m_roots/weight-norm-length": "survived",
    "gallery/every_m_roots/weight-norm-length-abs": "survived",
    "gallery/every_m_roots/effective-learning-rate": "survived",
    "gallery/every_m_roots/scale-any-sign": "refuted",
    "gallery/every_m_roots/negative-scale-same": "refuted",
    "gallery/every_m_roots/epsilon-wrong-power": "refuted",
    "gallery/every_m_roots/epsilon-missing": "refuted",
    "gallery/every_m_roots/variance-swapped": "refuted",
    "gallery/every_m_roots/weight-norm-length-any-sign": "refuted",
}
