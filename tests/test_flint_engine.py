"""The exact engine on python-flint (fmpq rationals, arb balls) decides what an
independent oracle decides, on random programs and on adversarial ones.

The oracle is SymPy, written here from the definitions and sharing nothing with
the engine: values are exact SymPy numbers, a sign is that of a rational, or 0
when the number's minimal polynomial is t, or else the sign of a 60-digit
evaluation (the programs are small, so no nonzero value comes near 10^-60).
A square root of a number the oracle finds negative, and a division by one it
finds to be 0, are "undefined".  Hand-derived values:
  √(3 + 2√2) = 1 + √2, since (1 + √2)² = 3 + 2√2;
  √2 + √3 − √(5 + 2√6) = 0, since (√2 + √3)² = 5 + 2√6.
"""

from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bnproof.program.evaluate import DomainError, Evaluator, decide_sign

T = sympy.Symbol("t")
UNDEFINED = "undefined"

# Leaves a program starts from: zeros, ones, small fractions, a huge rational, perfect
# squares (exact roots), and the surds of the hand-derived identities above.
CONSTANTS = ["0", "1", "-1", "2", "3", "5", "6", "1/4", "9/16", "-7/3",
             str(Fraction(2**300 + 1, 3**150)), str(Fraction(2**300 + 1, 3**150) ** 2)]
PRELUDE = [["const", c] for c in CONSTANTS]
K = len(PRELUDE)
PRELUDE += [["sqrt", 3], ["sqrt", 4], ["sqrt", 6],  # √2, √3, √6: steps K, K+1, K+2
            ["mul", K + 2, 3], ["add", 5, K + 3], ["sqrt", K + 4],  # √(5 + 2√6): K+5
            ["add", K, K + 1], ["sub", K + 6, K + 5]]  # √2 + √3 − √(5 + 2√6) = 0: K+7
ZERO_SURD = K + 7
BINARY = ("add", "sub", "mul", "div", "max", "min")
UNARY = ("neg", "sqrt", "abs")


def oracle_sign(x) -> int:
    if x.is_Rational:
        return int(bool(x > 0)) - int(bool(x < 0))
    if sympy.minimal_polynomial(x, T) == T:
        return 0
    value = x.evalf(60)
    return 1 if value > 0 else -1


def oracle(steps: list) -> list:
    """Each step's exact SymPy value as the oracle decides it, or UNDEFINED (an undefined
    operand makes every step that uses it undefined, and only those)."""
    values = []
    for step in steps:
        op = step[0]
        if op == "const":
            values.append(sympy.Rational(step[1]))
            continue
        args = [values[j] for j in step[1:3 if op in BINARY else 2]]
        if UNDEFINED in args:
            values.append(UNDEFINED)
            continue
        a = args[0]
        if op == "neg":
            values.append(-a)
        elif op == "sqrt":
            values.append(UNDEFINED if oracle_sign(a) < 0 else sympy.sqrt(a))
        elif op == "abs":
            values.append(a if oracle_sign(a) >= 0 else -a)
        elif op == "pow":
            values.append(a ** step[2])
        else:
            b = args[1]
            if op == "div":
                values.append(UNDEFINED if oracle_sign(b) == 0 else a / b)
            elif op in ("max", "min"):
                a_first = oracle_sign(a - b) >= 0  # a ≥ b
                values.append((a if a_first else b) if op == "max" else (b if a_first else a))
            else:
                values.append({"add": a + b, "sub": a - b, "mul": a * b}[op])
    return values


def engine(steps: list, output: int):
    try:
        sign = decide_sign(steps, None, output)
    except DomainError:
        return UNDEFINED, None
    return sign.sign, sign


@st.composite
def programs(draw):
    steps = [list(s) for s in PRELUDE]
    roots = 4  # square roots in the prelude; the oracle's minimal polynomials stay cheap
    for _ in range(draw(st.integers(1, 6))):
        n = len(steps)
        op = draw(st.sampled_from(BINARY + UNARY + ("pow",)))
        if op == "sqrt":
            if roots >= 6:
                op = "neg"
            roots += 1
        i = draw(st.integers(0, n - 1))
        if op in BINARY:
            steps.append([op, i, draw(st.integers(0, n - 1))])
        elif op == "pow":
            steps.append([op, i, draw(st.integers(0, 3))])
        else:
            steps.append([op, i])
    return steps


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(programs())
def test_random_programs_agree_with_an_independent_oracle(steps):
    expected = oracle(steps)
    for out in range(K, len(steps)):  # every step after the constants, each as an output
        got, sign = engine(steps, out)
        value = expected[out]
        if value == UNDEFINED:
            assert got == UNDEFINED, (steps, out, sign)
            continue
        assert got == oracle_sign(value), (steps, out, sign, value)
        if got == 0:  # 0 is reported exactly, whichever way it was found
            assert sign.value.exact and sign.value.lo == 0
            assert sign.how in ("exact rational", "exact zero test")
        elif sign.how == "exact rational":  # the engine kept it rational: the same rational
            assert value.is_Rational and sign.value.lo == Fraction(int(value.p), int(value.q))
            assert type(sign.value.lo) is Fraction and sign.value.exact
        else:  # an enclosure of the true value (√2·√2 = 2 may come as a ball around 2)
            assert sign.value.lo <= value.evalf(60) <= sign.value.hi


def test_an_exact_zero_no_ball_can_decide():
    steps = [list(s) for s in PRELUDE]
    assert engine(steps, ZERO_SURD)[0] == 0
    assert engine(steps, ZERO_SURD)[1].how == "exact zero test"
    steps += [["div", 1, ZERO_SURD]]  # 1 / 0 in disguise: undefined, never a huge value
    assert engine(steps, len(steps) - 1)[0] == UNDEFINED
    steps += [["sqrt", ZERO_SURD]]  # √0 = 0: a value, and rational
    sign = engine(steps, len(steps) - 1)[1]
    assert sign.sign == 0 and sign.value.exact and sign.value.lo == 0


def test_zero_over_zero_is_undefined_rational_or_not():
    steps = [["const", "0"], ["div", 0, 0]]
    assert engine(steps, 1)[0] == UNDEFINED
    steps = [list(s) for s in PRELUDE] + [["div", ZERO_SURD, ZERO_SURD]]
    assert engine(steps, len(steps) - 1)[0] == UNDEFINED


def test_nested_radical_denests_exactly():
    # √(3 + 2√2) − 1 − √2 = 0, and the square root of (1 + √2) − √(3 + 2√2) is √0
    steps = [["const", "2"], ["const", "3"], ["const", "1"], ["sqrt", 0], ["mul", 3, 0],
             ["add", 1, 4], ["sqrt", 5], ["sub", 6, 2], ["sub", 7, 3]]
    assert engine(steps, 8)[0] == 0
    steps += [["add", 2, 3], ["sub", 9, 6], ["sqrt", 10], ["add", 11, 2]]
    sign = engine(steps, 12)[1]  # √0 + 1 = 1 exactly
    assert sign.sign == 1 and sign.how == "exact rational" and sign.value.lo == 1


def test_rational_work_is_charged_by_bit_size():
    big = 2**14000 + 1  # a product of two 14001-bit numbers is charged at least 14001² bit-operations
    steps = [["const", str(big)], ["mul", 0, 0], ["const", "1"], ["sub", 1, 2]]
    sign = engine(steps, 3)[1]
    assert sign.sign == 1 and sign.value.lo == big * big - 1
    assert sign.work >= 14001**2
    stopped = decide_sign(steps, None, 3, max_work=14001**2)  # not enough for the product
    assert stopped.sign is None and "work limit" in stopped.how


def test_huge_rationals_and_exact_square_roots_stay_exact():
    big = Fraction(2**3000 + 1, 3**1001)
    steps = [["const", str(big * big)], ["sqrt", 0], ["const", str(big)], ["sub", 1, 2],
             ["const", str(Fraction(1, 3**1001))], ["sub", 2, 4]]
    zero = engine(steps, 3)[1]  # √(big²) − big
    assert zero.sign == 0 and zero.how == "exact rational" and zero.value.lo == 0
    rest = engine(steps, 5)[1]  # big − 3^-1001 = 2^3000 / 3^1001, exactly
    assert rest.value.lo == rest.value.hi == Fraction(2**3000, 3**1001)


def test_the_evaluators_exact_values_are_fractions_to_readers_outside():
    steps = [["const", "3/4"], ["const", "2"], ["mul", 0, 1], ["sqrt", 1]]
    ev = Evaluator(steps, None)
    assert ev.sign(2).sign == 1 and ev.sign(3).sign == 1
    assert ev.exact[2] == Fraction(3, 2) and type(ev.exact[2]) is Fraction
    assert ev.exact.get(3) is None  # √2 is irrational: no exact value
    assert ev.exact.get(99) is None and 2 in ev.exact


def test_a_program_changed_between_decisions_is_read_afresh():
    steps = [["const", "1"], ["const", "2"], ["sub", 0, 1], ["neg", 2]]
    assert decide_sign(steps, None, 3).sign == 1
    steps[2] = ["add", 0, 1]  # same list, same length: nothing of the first reading is reused
    assert decide_sign(steps, None, 3).sign == -1


@pytest.mark.parametrize("exponent", [0, 1, 5])
def test_powers_of_rationals_and_surds(exponent):
    steps = [["const", "-2/3"], ["pow", 0, exponent], ["const", "2"], ["sqrt", 2], ["pow", 3, exponent]]
    rational = engine(steps, 1)[1]
    assert rational.value.lo == Fraction(-2, 3) ** exponent
    surd = engine(steps, 4)[1]  # (√2)^k: rational for even k, else an enclosure of 2^(k/2)
    assert surd.sign == 1
    assert surd.value.lo <= sympy.sqrt(2) ** exponent <= surd.value.hi
