"""Angles and other transcendental functions: xp.arccos, xp.pi, xp.exp, xp.log,
xp.tanh and xp.sigmoid.

Their values are not algebraic, so the exact engine decides a sign from a
rigorous arb ball that excludes 0 (raising the precision as needed), after
each function's side condition is proved (log needs its argument > 0,
arccos needs it in [−1, 1]; an undefined value puts the instance outside the
claim).  A residual that is exactly 0 keeps a ball around 0 at every
precision: no exact zero test exists for it, so it is never refuted, only
left undecided.  The checker re-verifies a refutation with its own integer
series (bnproof/checker/series.py).

* ANGLE_AT_MOST_PI: the angle θ = arccos(⟨w1, w2⟩/(|w1| |w2|)) between the
  normals of two hyperplanes lies in [0, π]: true (it survives).
* BN_ANGLE_OBTUSE: "the directions of two BN-normalized batches ŷ and ẑ make
  an angle of at least π/2": false (two batches ordered alike make an acute
  angle); refuted with a certificate the checker re-verifies by series.
* TANH_BELOW_IDENTITY: tanh x ≤ x for all x: false for every x < 0.
* EXP_LOG: exp(log x) = x for x > 0, an identity whose exact value is 0 at
  every instance: floats see rounding noise (±1e-16 relative) and nominate
  some instances, where the exact engine can prove neither 0 (the value is
  not algebraic) nor a sign, so the honest verdict is undecided: never
  refuted, and never "survived" while violations were left open.
* RIGHT_ANGLE: 2 arccos(0) − π = 0, a claim without variables, decided once:
  it is exactly 0, which balls cannot show, so the honest verdict is
  undecided (never verified, never refuted).

``bnproof fuzz docs/examples/transcendental.py`` searches them all.
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import normalize, stats

SOURCE = "bnproof docs, transcendental-functions example"
W = (Var("w1", ("d",)), Var("w2", ("d",)))
BATCHES = (Var("y", ("m",)), Var("z", ("m",)))


def angle(xp, u, v):
    """The angle between nonzero vectors u and v, in [0, π]."""
    return xp.arccos(xp.dot(u, v) / (xp.sqrt(xp.dot(u, u)) * xp.sqrt(xp.dot(v, v))))


ANGLE_AT_MOST_PI = Claim(
    id="gallery/transcendental/angle-at-most-pi",
    source=SOURCE,
    statement=r"0 \le \arccos\frac{\langle w_1, w_2\rangle}{\|w_1\|\,\|w_2\|} \le \pi",
    title="the angle between two hyperplanes' normals is in [0, π]",
    variables=W, sizes={"d": (2, 3)},
    hypotheses=(lambda xp, w1, w2: xp.dot(w1, w1), lambda xp, w1, w2: xp.dot(w2, w2)),
    residual=lambda xp, w1, w2: xp.minimum(angle(xp, w1, w2), xp.pi - angle(xp, w1, w2)),
)

BN_ANGLE_OBTUSE = Claim(
    id="gallery/transcendental/bn-angle-obtuse",
    source=SOURCE,
    statement=r"\angle(\hat y, \hat z) \ge \pi/2",
    title="two BN-normalized batches make an obtuse angle (false)",
    variables=BATCHES, sizes={"m": (2, 4)},
    hypotheses=(lambda xp, y, z: stats(xp, y)[1] ** 2, lambda xp, y, z: stats(xp, z)[1] ** 2),
    residual=lambda xp, y, z: angle(xp, normalize(xp, y)[0], normalize(xp, z)[0]) - xp.pi / 2,
)

TANH_BELOW_IDENTITY = Claim(
    id="gallery/transcendental/tanh-below-identity",
    source=SOURCE,
    statement=r"\tanh x \le x",
    title="tanh lies below the identity (false for x < 0)",
    variables=(Var("x", ()),),
    residual=lambda xp, x: x - xp.tanh(x),
)

EXP_LOG = Claim(
    id="gallery/transcendental/exp-log",
    source=SOURCE,
    statement=r"e^{\log x} = x",
    title="exp inverts log (exactly 0: never refuted)",
    kind="identity",
    variables=(Var("x", (), "positive"),),
    residual=lambda xp, x: xp.exp(xp.log(x)) - x,
)

RIGHT_ANGLE = Claim(
    id="gallery/transcendental/right-angle",
    source=SOURCE,
    statement=r"2 \arccos 0 = \pi",
    title="arccos 0 is a right angle (exactly 0: undecided, never refuted)",
    kind="identity",
    variables=(),
    residual=lambda xp: 2 * xp.arccos(xp.q(0)) - xp.pi,
)

EXPECTED = {
    ANGLE_AT_MOST_PI.id: "survived",
    BN_ANGLE_OBTUSE.id: "refuted",
    TANH_BELOW_IDENTITY.id: "refuted",
    EXP_LOG.id: "undecided",
    RIGHT_ANGLE.id: "undecided",
}
