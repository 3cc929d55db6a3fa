"""The exact engine never turns an undefined operation into a value, decides exact
zeros and ties exactly, and stops hostile work by a count (bit-operations).

Every expected value here is derived by hand:
  z = √2 + √3 − √(5 + 2√6) is exactly 0, since (√2 + √3)² = 5 + 2√6;
  K√2 − K√2 − 1 is exactly −1 for any K, so its square root is undefined;
  √(K² + 1) − K = 1/(√(K² + 1) + K) lies in (1/(2K + 1), 1/(2K)).
"""

from fractions import Fraction

import numpy as np
import pytest
import sympy

from bnproof.claims import Claim, Var
from bnproof.claims import xp as namespaces
from bnproof.claims.decide import (HOLDS, OUTSIDE, REFUTED, UNDECIDED, decide, exact_instance, lookup,
                                   trace)
from bnproof.program.evaluate import MAX_WORK, DomainError, decide_sign, run, to_sympy
from bnproof.program.trace import Program

EPSILON = Fraction(1, 10**30)


def zero_surd(xp):
    """√2 + √3 − √(5 + 2√6): exactly 0, but no interval ever shows it."""
    two, three = xp.q(2), xp.q(3)
    return xp.sqrt(two) + xp.sqrt(three) - xp.sqrt(xp.q(5) + xp.sqrt(xp.q(6)) * 2)


def power_of_two(xp, exponent):
    """2^exponent as a program value: a constant, or a constant to the 64th power
    (a program's constants are decimal text, and Python caps int-to-text at 4300 digits)."""
    if exponent <= 5000:
        return xp.q(2**exponent)
    assert exponent % 64 == 0
    return xp.q(2 ** (exponent // 64)) ** 64


def program_of(build):
    """Trace build(xp) into a program; the output is the last step."""
    program = Program()
    xp = namespaces.trace(program)
    out = build(xp)
    if isinstance(out, np.ndarray):  # xp's elementwise functions give 0-d arrays
        out = out.reshape(()).item()
    return program.steps, out.index


def sign_of(build, **extra):
    steps, out = program_of(build)
    return decide_sign(steps, None, out, **extra)


def constant_claim(residual, kind="inequality", hypotheses=()):
    return Claim(id="test/constant", source="a test", statement="c", kind=kind, variables=(),
                 residual=lambda xp: residual(xp), hypotheses=hypotheses)


def scalar_claim(residual, kind="inequality", hypotheses=()):
    return Claim(id="test/scalar", source="a test", statement="c", kind=kind,
                 variables=(Var("x", ()),), residual=residual, hypotheses=hypotheses)


# -- undefined operations are never values -------------------------------------------


@pytest.mark.parametrize("exponent", [5000, 200_000])
def test_root_of_minus_one_in_disguise_is_undefined(exponent):
    def build(xp):
        k_root2 = xp.sqrt(xp.q(2)) * power_of_two(xp, exponent)
        return xp.sqrt(k_root2 - k_root2 - 1)

    with pytest.raises(DomainError, match="square root of a negative"):
        sign_of(build)


def test_claim_undefined_at_every_instance_is_never_refuted():
    # the old engine took √max(lo, 0) of the straddling radicand and refuted this
    K = 2**5000

    def residual(xp, x):
        k_root2 = xp.sqrt(xp.q(2)) * K
        return xp.sqrt(k_root2 - k_root2 - 1) - x * x - 1  # "= −1 − x² < 0" if it had a value

    claim = scalar_claim(residual)
    for x in (0, 1, Fraction(-7, 3)):
        decision = decide(claim, {"x": Fraction(x)})
        assert decision.verdict == OUTSIDE and "square root of a negative" in decision.detail


def test_division_by_an_exact_zero_surd_is_outside_the_domain():
    with pytest.raises(DomainError, match="division by zero"):
        sign_of(lambda xp: xp.q(1) / zero_surd(xp))
    claim = constant_claim(lambda xp: xp.q(1) / zero_surd(xp) - 1)
    assert decide(claim, {}).verdict == OUTSIDE


def test_square_root_of_an_exact_zero_surd_is_zero():
    sign = sign_of(lambda xp: xp.sqrt(zero_surd(xp)) + 1)
    assert sign.sign == 1 and sign.value.lo == sign.value.hi == 1  # √0 + 1 = 1 exactly
    assert decide(constant_claim(lambda xp: xp.sqrt(zero_surd(xp)) + 1), {}).verdict == HOLDS


def test_root_of_a_tiny_negative_surd_is_undefined_and_of_a_tiny_positive_one_is_a_value():
    # √2 − 1.4142135623730950488 > 0 (the next digit of √2 is 0, then 1), and minus 10^-19 more < 0
    digits = Fraction(14142135623730950488, 10**19)
    positive = sign_of(lambda xp: xp.sqrt(xp.sqrt(xp.q(2)) - digits))
    assert positive.sign == 1
    with pytest.raises(DomainError):
        sign_of(lambda xp: xp.sqrt(xp.sqrt(xp.q(2)) - digits - Fraction(1, 10**19)))


# -- ties and near ties, decided exactly, never a crash ------------------------------------


def test_variable_free_max_tie_is_decided_exactly():
    tie = sign_of(lambda xp: xp.maximum(zero_surd(xp), xp.q(0)))
    assert tie.sign == 0
    assert decide(constant_claim(lambda xp: xp.maximum(zero_surd(xp), xp.q(0))), {}).verdict == HOLDS


@pytest.mark.parametrize("shift,expected", [(EPSILON, 1), (-EPSILON, 0)])
def test_near_ties_are_decided(shift, expected):
    # max(z + 10^-30, 0) = 10^-30 > 0; max(z − 10^-30, 0) = 0
    assert sign_of(lambda xp: xp.maximum(zero_surd(xp) + shift, xp.q(0))).sign == expected
    assert sign_of(lambda xp: xp.minimum(zero_surd(xp) - shift, xp.q(0))).sign == -expected
    assert sign_of(lambda xp: xp.abs(zero_surd(xp) + shift)).sign == 1


def test_report_expression_takes_the_decided_branch():
    steps, out = program_of(lambda xp: xp.maximum(zero_surd(xp) - EPSILON, xp.q(0)) + 1)
    expr = to_sympy(steps, None, out)
    assert not expr.has(sympy.Max) and expr == 1
    steps, out = program_of(lambda xp: xp.abs(xp.q(1) - xp.sqrt(xp.q(2))))
    assert str(to_sympy(steps, None, out)) == "-1 + sqrt(2)"


# -- tanh is decided by rigorous balls; a value that may be exactly 0 is not ------------


def test_tanh_is_decided_by_balls_and_an_exact_zero_stays_undecided():
    claim = scalar_claim(lambda xp, x: xp.tanh(x) - 2)  # "tanh x ≥ 2": false everywhere
    for x in (0, 1, -3):
        decision = decide(claim, {"x": Fraction(x)})
        assert decision.verdict == REFUTED, decision.detail
    steps, out = program_of(lambda xp: xp.tanh(xp.q(1)) * 2 - xp.tanh(xp.q(1)) - xp.tanh(xp.q(1)))
    sign = decide_sign(steps, None, out)  # exactly 0, and not algebraic: no exact zero test
    assert sign.sign is None and "may be exactly 0" in sign.how
    xp = namespaces.numeric()  # JAX evaluates it
    assert abs(float(claim.residual(xp, xp.asarray(0.5))) - (np.tanh(0.5) - 2)) < 1e-15


def test_undecided_hypothesis_is_undecided_not_outside():
    # 2 arccos(x − x) − π is exactly 0, which balls can never separate from 0
    claim = scalar_claim(lambda xp, x: x, hypotheses=(lambda xp, x: 2 * xp.arccos(x - x) - xp.pi,))
    assert decide(claim, {"x": Fraction(1)}).verdict == UNDECIDED


def test_decide_reports_instead_of_raising():
    def broken(xp, x):
        raise RuntimeError("the claim's own bug")

    decision = decide(scalar_claim(broken), {"x": Fraction(1)})
    assert decision.verdict == UNDECIDED and "the claim's own bug" in decision.detail
    wrong_shape = decide(scalar_claim(lambda xp, x: x), {"x": [Fraction(1), Fraction(2)]})
    assert wrong_shape.verdict == UNDECIDED


# -- derivatives through kinks ------------------------------------------------------------------


def _relu_loss(xp, w):
    # f(w) = relu(w0 − 2 w1) + |w1| + max(w0, w1), a hand derivative away from kinks:
    # ∂f/∂w0 = [w0 > 2 w1] + [w0 > w1],  ∂f/∂w1 = −2 [w0 > 2 w1] + sign(w1) + [w1 > w0]
    return xp.grad(lambda v: xp.relu(v[0] - 2 * v[1]) + xp.abs(v[1]) + xp.maximum(v[0], v[1]), w)


def _hand_gradient(w0, w1):
    return (int(w0 > 2 * w1) + int(w0 > w1), -2 * int(w0 > 2 * w1) + (1 if w1 > 0 else -1)
            + int(w1 > w0))


def _gradient_claim(which):
    def residual(xp, w, target):
        return _relu_loss(xp, w)[which] - target
    return Claim(id="test/relu-grad", source="a test", statement="∂f", kind="identity",
                 variables=(Var("w", (2,)), Var("target", ())), residual=residual)


@pytest.mark.parametrize("w", [(5, 1), (1, 2), (Fraction(3, 2), -1), (-4, -1), (3, 2)])
def test_gradient_through_relu_abs_max_is_exact_away_from_kinks(w):
    hand = _hand_gradient(*w)
    for which in (0, 1):
        claim = _gradient_claim(which)
        instance = exact_instance({"w": list(w), "target": hand[which]})
        assert decide(claim, instance).verdict == HOLDS
        instance["target"] = Fraction(hand[which] + 1)
        assert decide(claim, instance).verdict == REFUTED
    floating = namespaces.floating()
    assert np.allclose(_relu_loss(floating, np.asarray(w, dtype=float)), hand)
    jax_xp = namespaces.numeric()
    assert np.allclose(np.asarray(_relu_loss(jax_xp, jax_xp.asarray(w, dtype=float))), hand)


@pytest.mark.parametrize("w", [(2, 1), (1, 0), (2, 2)])  # w0 = 2 w1; w1 = 0; w0 = w1
def test_gradient_at_a_kink_is_outside_the_domain(w):
    claim = _gradient_claim(0 if w != (1, 0) else 1)
    decision = decide(claim, exact_instance({"w": list(w), "target": 0}))
    assert decision.verdict == OUTSIDE and "division by zero" in decision.detail


def test_entries_that_do_not_depend_on_the_variable_have_no_kink():
    # ∂/∂w0 of |w1| is 0 even at w1 = 0: the dual's derivative is the integer 0, no division
    claim = Claim(id="test/partial", source="a test", statement="∂", kind="identity",
                  variables=(Var("w", (2,)),),
                  residual=lambda xp, w: xp.grad(lambda v: xp.abs(v[1]) + v[0] * 3, w)[0] - 3)
    assert decide(claim, exact_instance({"w": [1, 0]})).verdict == HOLDS


# -- hostile sizes stop by a count ----------------------------------------------------------------


def test_refinement_beyond_4096_bits_then_a_work_limit():
    K = 2**3000  # √(K² + 1) − K ≈ 2^-3001 next to numbers of 2^3000: about 6000 bits

    def build(xp):
        return xp.sqrt(xp.q(K) ** 2 + 1) - K

    decided = sign_of(build)
    assert decided.sign == 1 and decided.value.lo > 0
    assert decided.value.lo < Fraction(1, 2 * K) and decided.value.hi > Fraction(1, 2 * K + 1)
    stopped = sign_of(build, max_work=10**9)  # enough for the rationals, not for 16384 bits
    assert stopped.sign is None and "work limit" in stopped.how and stopped.work <= 10**9


def test_hostile_size_ends_undecided_within_the_work_limit():
    def build(xp):  # √(K⁴ + 1) − K² with K = 2^200000: numbers of 800 000 bits
        K = power_of_two(xp, 200_000)
        return xp.sqrt(K**4 + 1) - K**2

    sign = sign_of(build)
    assert sign.sign is None and "work limit" in sign.how and sign.work <= MAX_WORK
    claim = constant_claim(build)
    decision = decide(claim, {})
    assert decision.verdict == UNDECIDED and "work limit" in decision.detail


# -- the fixed-precision view used by reports ----------------------------------------------


def test_run_encloses_every_value_and_refuses_undefined_ones():
    steps, out = program_of(lambda xp: xp.sqrt(xp.q(2)) * 3)
    value = run(steps, None, 64)[out]
    assert value.lo < 3 * Fraction(14142135623730951, 10**16) < value.hi + Fraction(1, 10**15)
    assert value.hi - value.lo < Fraction(1, 2**45)
    steps, out = program_of(lambda xp: xp.q(1) / zero_surd(xp))
    with pytest.raises(DomainError):
        run(steps, None, 64)


def test_traced_instance_values_agree_with_sympy():
    claim = Claim(id="test/sympy", source="a test", statement="s", variables=(Var("y", (3,)),),
                  residual=lambda xp, y: xp.sqrt(xp.sum(y * y)) - xp.max(xp.abs(y)))
    instance = exact_instance({"y": [1, -2, 2]})  # √9 − 2 = 1
    traced = trace(claim, {})
    decision = decide(claim, instance, traced)
    assert decision.verdict == HOLDS and decision.residual.value.lo == 1
    assert sympy.simplify(to_sympy(traced.steps, lookup(instance), traced.residual) - 1) == 0
