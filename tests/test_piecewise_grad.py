"""xp.grad through piecewise and transcendental functions (issue 12.5): exact away from
kinks (against hand-derived values and jax.grad), and at a kink the instance is outside
the claim (a division by exactly 0 in the exact engine), never an internal error or a
one-sided value."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy

from bnproof.claims import Claim, Var
from bnproof.claims import xp as namespaces
from bnproof.claims.decide import HOLDS, OUTSIDE, REFUTED, decide
from bnproof.program.evaluate import to_sympy
from bnproof.program.trace import Program

F = Fraction

# f(xp, v) of a vector v, its gradient by hand (a function of v's exact entries), kinks
CASES = {
    "relu": (lambda xp, v: xp.relu(v[0]), lambda a, b: (1 if a > 0 else 0, 0)),
    "leaky_relu": (lambda xp, v: xp.leaky_relu(v[0], F(1, 10)), lambda a, b: (1 if a > 0 else F(1, 10), 0)),
    "leaky_relu(-2)": (lambda xp, v: xp.leaky_relu(v[0], -2), lambda a, b: (1 if a > 0 else -2, 0)),
    "abs": (lambda xp, v: xp.abs(v[0]), lambda a, b: (1 if a > 0 else -1, 0)),
    "max": (lambda xp, v: xp.maximum(v[0], v[1]), lambda a, b: (1, 0) if a > b else (0, 1)),
    "min": (lambda xp, v: xp.minimum(v[0], v[1]), lambda a, b: (0, 1) if a > b else (1, 0)),
    "relu squared": (lambda xp, v: xp.relu(v[0]) ** 2 * v[1],
                     lambda a, b: (2 * max(a, 0) * b, max(a, 0) ** 2)),
    "max of products": (lambda xp, v: xp.maximum(v[0] * v[1], v[1]),
                        lambda a, b: (b, a) if a * b > b else (0, 1)),
}
KINKS = {"relu": [(0, 5)], "leaky_relu": [(0, 1)], "leaky_relu(-2)": [(0, 0)], "abs": [(0, 3)],
         "max": [(2, 2), (F(-1, 3), F(-1, 3))], "min": [(7, 7)], "relu squared": [],
         "max of products": [(1, 4), (3, 0)]}


def claim_of(f, which: int, expected) -> Claim:
    """"∂f/∂v[which] at v equals expected(v)" as an identity over a 2-vector v."""
    return Claim(id="t/grad", source="a test", statement="g", variables=(Var("v", (2,)),),
                 kind="identity",
                 residual=lambda xp, v: xp.grad(lambda w: f(xp, w), v)[which] - expected(xp, v))


def exact_gradient(f, point):
    """The exact gradient of f at a point (Fractions), from the traced dual numbers."""
    program = Program()
    xp = namespaces.trace(program)
    v = np.array([program.emit(["input", "v", k]) for k in range(2)], dtype=object)
    grad = xp.grad(lambda w: f(xp, w), v)
    return [to_sympy(program.steps, lambda name, index: point[index[0]], g.index)
            if not isinstance(g, int) else sympy.Integer(g) for g in grad]


POINTS = [(3, 5), (-2, 5), (F(1, 3), F(-2, 7)), (-4, -9), (F(5, 2), 1)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_derivatives_away_from_kinks(name):
    f, hand = CASES[name]
    for a, b in POINTS:
        if (F(a), F(b)) in [(F(p), F(q)) for p, q in KINKS[name]]:
            continue
        got = exact_gradient(f, (F(a), F(b)))
        want = hand(F(a), F(b))
        assert [sympy.nsimplify(g) for g in got] == [sympy.Rational(w.numerator, w.denominator)
                                                    if isinstance(w, F) else w for w in want], (a, b)


@pytest.mark.parametrize("name", sorted(CASES))
def test_exact_derivatives_agree_with_jax(name):
    f, _ = CASES[name]
    jnp = namespaces.numeric()
    flt = namespaces.floating()
    for a, b in POINTS:
        if (F(a), F(b)) in [(F(p), F(q)) for p, q in KINKS[name]]:
            continue
        point = np.array([float(a), float(b)])
        exact = [float(g) for g in exact_gradient(f, (F(a), F(b)))]
        assert np.allclose(np.asarray(jnp.grad(lambda w: f(jnp, w), jnp.asarray(point))), exact)
        assert np.allclose(flt.grad(lambda w: f(flt, w), flt.asarray(point)).astype(float), exact)


@pytest.mark.parametrize("name", sorted(CASES))
def test_kinks_are_outside_the_claim(name):
    f, _ = CASES[name]
    # a partial derivative through the kink (v[0] for one-argument functions; both for
    # max and min, also where both branches happen to have the same slope: conservative)
    for which in ((0,) if name in ("relu", "leaky_relu", "leaky_relu(-2)", "abs") else (0, 1)):
        # whatever value is claimed for the derivative, a kink decides nothing: outside
        for claimed in (0, 1, F(1, 2)):
            claim = claim_of(f, which, lambda xp, v, c=claimed: xp.q(c.numerator if isinstance(c, F) else c,
                                                                       c.denominator if isinstance(c, F) else 1))
            for a, b in KINKS[name]:
                decision = decide(claim, {"v": [F(a), F(b)]})
                assert decision.verdict == OUTSIDE and "division by zero" in decision.detail, \
                    (name, a, b, decision)


def test_a_partial_that_does_not_cross_the_kink_is_defined():
    f, _ = CASES["relu"]  # relu(v[0]) does not depend on v[1]: ∂/∂v[1] = 0 even at v[0] = 0
    assert decide(claim_of(f, 1, lambda xp, v: 0), {"v": [F(0), F(5)]}).verdict == HOLDS


def test_kinks_in_floats_are_undefined_not_one_sided():
    flt = namespaces.floating()
    for f in (lambda w: flt.relu(w[0]), lambda w: flt.abs(w[0]), lambda w: flt.maximum(w[0], w[1])):
        with pytest.raises(ZeroDivisionError):  # the float screen counts it as undefined
            flt.grad(f, np.array([0.0, 0.0], dtype=object))


def test_transcendental_derivatives_are_exact():
    cases = [  # f, point, the exact derivative by hand
        (lambda xp, v: xp.sigmoid(v[0]), 0, sympy.Rational(1, 4)),
        (lambda xp, v: xp.log(v[0]), 2, sympy.Rational(1, 2)),
        (lambda xp, v: xp.arccos(v[0]), 0, -1),
        (lambda xp, v: xp.arccos(v[0]), F(1, 2), -2 / sympy.sqrt(3)),
        (lambda xp, v: xp.tanh(v[0]), 0, 1),
        (lambda xp, v: xp.exp(v[0] * 2), 0, 2),
        (lambda xp, v: xp.exp(v[0]), 1, sympy.E),
        (lambda xp, v: xp.tanh(v[0]), 1, 1 - sympy.tanh(1) ** 2),
    ]
    for f, x, want in cases:
        got = exact_gradient(f, (F(x), F(0)))[0]
        assert sympy.simplify(got - want) == 0, (x, got, want)


def test_arccos_has_no_derivative_at_the_ends_of_its_domain():
    claim = claim_of(lambda xp, v: xp.arccos(v[0]), 0, lambda xp, v: xp.q(0))
    for end in (1, -1):
        decision = decide(claim, {"v": [F(end), F(0)]})
        assert decision.verdict == OUTSIDE, decision


def test_true_and_false_derivative_claims():
    # x · relu'(x) = relu(x) wherever relu is differentiable
    identity = Claim(id="t/relu", source="a test", statement="x relu'(x) = relu(x)",
                     variables=(Var("v", (2,)),), kind="identity",
                     residual=lambda xp, v: v[0] * xp.grad(lambda w: xp.relu(w[0]), v)[0] - xp.relu(v[0]))
    for a in (3, -2, F(1, 9)):
        assert decide(identity, {"v": [F(a), F(1)]}).verdict == HOLDS
    assert decide(identity, {"v": [F(0), F(1)]}).verdict == OUTSIDE
    # "|x|' ≥ 0" is false at every x < 0
    false = Claim(id="t/abs", source="a test", statement="|x|' >= 0", variables=(Var("v", (2,)),),
                  residual=lambda xp, v: xp.grad(lambda w: xp.abs(w[0]), v)[0])
    assert decide(false, {"v": [F(-1), F(0)]}).verdict == REFUTED
    assert decide(false, {"v": [F(1), F(0)]}).verdict == HOLDS
    assert decide(false, {"v": [F(0), F(0)]}).verdict == OUTSIDE
