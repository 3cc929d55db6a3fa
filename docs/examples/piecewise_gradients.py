"""Derivatives of piecewise functions: xp.grad through relu, leaky_relu, abs,
maximum and minimum (and exp, log, arccos, tanh, sigmoid).

xp.grad is exact in the exact engine (dual numbers over the traced program)
and jax.grad in the numeric search.  Away from a kink the derivative is the
slope of the branch taken.  At a kink (relu or leaky_relu at 0, |x| at 0,
max(a, b) or min(a, b) with a = b) there is no derivative: the dual number
divides by exactly 0 there, so the instance is outside the claim, never a
one-sided value (jax.grad does return one there, but floats only nominate
instances; the exact engine decides them).

* RELU_EULER: x · relu'(x) = relu(x), Euler's identity for a function that is
  positively homogeneous of degree 1: true wherever relu is differentiable
  (the kink x = 0 is outside).  It survives.
* LEAKY_SLOPE: the derivative of leaky_relu with slope 1/5 is 1 or 1/5 away
  from 0, so (g − 1)(g − 1/5) = 0 with g = leaky_relu'(x): an identity whose
  exact value is 0 everywhere it is defined.  It survives.
* SOFT_GRADIENT: d/dx log(1 + e^x) = sigmoid(x), through exp and log: an
  exact zero that is not algebraic.  The exact engine cannot prove it 0, so
  it never refutes it; floats see it as 0 up to rounding and nominate no
  violation, so it survives (evidence, not a proof).
* ABS_SLOPE_NONNEGATIVE: "|x|' ≥ 0": false at every x < 0 (the slope is −1);
  refuted with a certificate.
* MAX_SLOPE_AT_MOST_HALF: "∂ max(a, b)/∂a ≤ 1/2" (what a tie would give with
  the average of the one-sided slopes): false wherever a > b (the slope is 1).
"""

from fractions import Fraction

from bnproof.claims import Claim, Var

SOURCE = "bnproof docs, piecewise-gradients example"
X = (Var("x", (2,)),)  # x[0] is the variable; x[1] is a second input, for max


def slope(xp, f, x, which=0):
    """∂f/∂x[which] at x."""
    return xp.grad(f, x)[which]


RELU_EULER = Claim(
    id="gallery/piecewise_gradients/relu-euler",
    source=SOURCE,
    statement=r"x\,\mathrm{relu}'(x) = \mathrm{relu}(x)",
    title="x · relu'(x) = relu(x) away from the kink",
    kind="identity",
    variables=X,
    residual=lambda xp, x: x[0] * slope(xp, lambda v: xp.relu(v[0]), x) - xp.relu(x[0]),
)

LEAKY_SLOPE = Claim(
    id="gallery/piecewise_gradients/leaky-slope",
    source=SOURCE,
    statement=r"(g - 1)(g - 1/5) = 0,\ g = \mathrm{leaky}'(x)",
    title="leaky_relu's slope is 1 or 1/5",
    kind="identity",
    variables=X,
    residual=lambda xp, x: ((slope(xp, lambda v: xp.leaky_relu(v[0], Fraction(1, 5)), x) - 1)
                            * (slope(xp, lambda v: xp.leaky_relu(v[0], Fraction(1, 5)), x)
                               - xp.q(1, 5))),
)

SOFT_GRADIENT = Claim(
    id="gallery/piecewise_gradients/softplus-gradient",
    source=SOURCE,
    statement=r"\frac{d}{dx}\log(1 + e^x) = \sigma(x)",
    title="softplus' = sigmoid (exactly 0, not algebraic: never refuted)",
    kind="identity",
    variables=X,
    residual=lambda xp, x: (slope(xp, lambda v: xp.log(1 + xp.exp(v[0])), x) - xp.sigmoid(x[0])),
)

ABS_SLOPE_NONNEGATIVE = Claim(
    id="gallery/piecewise_gradients/abs-slope-nonnegative",
    source=SOURCE,
    statement=r"|x|' \ge 0",
    title="the slope of |x| is never negative (false)",
    variables=X,
    residual=lambda xp, x: slope(xp, lambda v: xp.abs(v[0]), x),
)

MAX_SLOPE_AT_MOST_HALF = Claim(
    id="gallery/piecewise_gradients/max-slope-at-most-half",
    source=SOURCE,
    statement=r"\partial_a \max(a, b) \le 1/2",
    title="max's slope in a is at most 1/2 (false)",
    variables=X,
    residual=lambda xp, x: xp.q(1, 2) - slope(xp, lambda v: xp.maximum(v[0], v[1]), x),
)

EXPECTED = {
    RELU_EULER.id: "survived",
    LEAKY_SLOPE.id: "survived",
    SOFT_GRADIENT.id: "survived",
    ABS_SLOPE_NONNEGATIVE.id: "refuted",
    MAX_SLOPE_AT_MOST_HALF.id: "refuted",
}
