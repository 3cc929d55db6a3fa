"""Red team of the exact engine's move to python-flint (issue 14, point 3).

The engine (bnproof/program/evaluate.py) now decides on fmpq rationals and arb balls;
the stdlib checker (bnproof/checker/program.py) evaluates the same programs with
Fractions and its own intervals, independently, and is the differential oracle here.
Where they may differ: the engine decides more (nested radicals such as
√(3 + 2√2) = 1 + √2, which the checker leaves undecided), or either side is undecided.
They must never decide differently, and an undefined operation is never a value.

Hand-derived values used below:
  √2·√8 = √16 = 4;  (√3 + √2)(√3 − √2) = 3 − 2 = 1;  (1 + √2)² = 3 + 2√2;
  0 < (√2 − 1)^4096 = (√2 + 1)^-4096 < 2^-5200 (√2 + 1 > 2^1.27);
  √(x²) = |x|; arccos 1 = log 1 = tanh 0 = 0 and exp 0 = 1 exactly.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bnproof
from bnproof.checker import check_document
from bnproof.checker.program import Rejected, evaluate as checker_evaluate, parse_steps
from bnproof.program.evaluate import MAX_WORK, DomainError, Evaluator, decide_sign

# -- the oracle -------------------------------------------------------------------


def checker_verdict(steps: list):
    """The checker's verdict on the last step of a variable-free program: its sign,
    "domain" (an undefined operation or an absent value) or "undecided"."""
    ops = parse_steps(steps, {})
    for want, sign in (("positive", 1), ("negative", -1), ("zero", 0)):
        try:
            checker_evaluate(ops, [("residual", len(steps) - 1, want)])
            return sign
        except Rejected as err:
            text = str(err)
            if "is not " in text or "is zero" in text:
                continue
            if "undecided" in text or "limit" in text:
                return "undecided"
            return "domain"
    raise AssertionError(f"the checker contradicts itself on {steps}")


def engine_verdict(evaluator: Evaluator, output: int):
    try:
        sign = evaluator.sign(output)
    except DomainError:
        return "domain"
    return "undecided" if sign.sign is None else sign.sign


def both(steps: list):
    return engine_verdict(Evaluator(steps, None), len(steps) - 1), checker_verdict(steps)


def c(x) -> list:
    return ["const", str(Fraction(x))]


# -- exact zeros balls cannot decide -------------------------------------------------

EXACT_ZEROS = {
    "sqrt2*sqrt8-4": [c(2), c(8), ["sqrt", 0], ["sqrt", 1], ["mul", 2, 3], c(4), ["sub", 4, 5]],
    "(sqrt3+sqrt2)(sqrt3-sqrt2)-1": [c(3), c(2), ["sqrt", 0], ["sqrt", 1], ["add", 2, 3], ["sub", 2, 3],
                                     ["mul", 4, 5], c(1), ["sub", 6, 7]],
    "max tie sqrt2, sqrt8/2": [c(2), ["sqrt", 0], c(8), ["sqrt", 2], c("1/2"), ["mul", 3, 4], ["max", 1, 5],
                               ["sub", 6, 1]],
    "min tie sqrt2, sqrt8/2": [c(2), ["sqrt", 0], c(8), ["sqrt", 2], c("1/2"), ["mul", 3, 4], ["min", 1, 5],
                               ["sub", 6, 5]],
    "abs of an exact zero": [c(2), ["sqrt", 0], c(8), ["sqrt", 2], c("1/2"), ["mul", 3, 4], ["sub", 1, 5],
                             ["abs", 6]],
    "log 1": [c(1), ["log", 0]],
    "exp 0 - 1": [c(0), ["exp", 0], c(1), ["sub", 1, 2]],
    "acos((sqrt2)^2/2)": [c(2), ["sqrt", 0], ["mul", 1, 1], ["div", 2, 0], ["acos", 3]],
    # the transcendental step is exactly 1 (exp 0): the rest is algebraic
    "sqrt2*exp(0) - sqrt2": [c(2), ["sqrt", 0], c(0), ["exp", 2], ["mul", 1, 3], ["sub", 4, 1]],
    # x·0 = 0 whatever x: arb's product is the exact ball [0 ± 0]
    "exp(1)*0": [c(0), c(1), ["exp", 1], ["mul", 2, 0]],
    "tanh(sqrt2)*0 + 0": [c(0), c(2), ["sqrt", 1], ["tanh", 2], ["mul", 3, 0], ["add", 4, 0]],
}


@pytest.mark.parametrize("name", sorted(EXACT_ZEROS))
def test_exact_zeros_are_zero_in_the_engine_and_the_checker(name):
    assert both(EXACT_ZEROS[name]) == (0, 0)


def test_a_nested_radical_zero_is_zero_where_the_checker_cannot_say():
    # √(3 + 2√2) − 1 − √2 = 0: beyond the checker's field (undecided there), never a sign
    steps = [c(3), c(2), ["sqrt", 1], ["mul", 1, 2], ["add", 0, 3], ["sqrt", 4], c(1), ["sub", 5, 6],
             ["sub", 7, 2]]
    assert both(steps) == (0, "undecided")


def test_two_acos_zero_minus_pi_is_never_given_a_sign():
    # 2·arccos(0) − π = 0 exactly, but not algebraic: undecided on both sides
    steps = [c(0), ["acos", 0], c(2), ["mul", 1, 2], ["pi"], ["sub", 3, 4]]
    assert both(steps) == ("undecided", "undecided")


# t = (√2 − 1)^4096 = (√2 + 1)^-4096 lies in (0, 2^-5200): far inside 2^-4096 of 0
TINY = [c(2), ["sqrt", 0], c(1), ["sub", 1, 2], ["pow", 3, 64], ["pow", 4, 64]]  # t: step 5


@pytest.mark.parametrize("tail, expected", [
    ([], 1),
    ([["neg", 5]], -1),
    ([c(Fraction(1, 1 << 4096)), ["sub", 5, 6]], -1),  # t − 2^-4096
    ([["add", 1, 2], ["pow", 6, 64], ["pow", 7, 64], ["mul", 5, 8], ["sub", 9, 2]], 0),  # t·(√2+1)^4096 − 1
])
def test_signs_within_two_to_the_minus_4096_of_zero(tail, expected):
    steps = TINY + tail
    assert both(steps) == (expected, expected)
    sign = decide_sign(steps, None)
    if expected:
        assert sign.value.lo < 0 if expected < 0 else sign.value.hi > 0


def test_huge_rationals_and_roots_of_their_squares_are_exact():
    x = Fraction(3**2000, 7**1500)  # ~3170 bits: under the 4300-digit string limit
    root = [c(x * x), ["sqrt", 0], c(x), ["sub", 1, 2]]
    sign = decide_sign(root, None)
    assert (sign.sign, sign.how) == (0, "exact rational")
    big = [c(10**4000), c(10**4000 + 1), ["sub", 0, 1]]
    ev = Evaluator(big, None)
    assert ev.sign(2).sign == -1 and ev.exact[2] == -1 and type(ev.exact[2]) is Fraction
    # |√(x² + 1) − x| < 2^-3000: a 64-bit ball cannot say, the engine still does
    near = [c(x * x + 1), ["sqrt", 0], c(x), ["sub", 1, 2]]
    assert decide_sign(near, None).sign == 1


UNDEFINED = {
    "sqrt(-1)": [c(-1), ["sqrt", 0]],
    "sqrt(sqrt2 - 3/2)": [c(2), ["sqrt", 0], c("3/2"), ["sub", 1, 2], ["sqrt", 3]],
    "0/0": [c(0), ["div", 0, 0]],
    "1/0": [c(1), c(0), ["div", 0, 1]],
    "1/(sqrt2*sqrt2 - 2)": [c(1), c(2), ["sqrt", 1], ["mul", 2, 2], ["sub", 3, 1], ["div", 0, 4]],
    "sqrt(-(sqrt2*sqrt8 - 4) - 2^-5000)": [c(2), c(8), ["sqrt", 0], ["sqrt", 1], ["mul", 2, 3], c(4),
                                           ["sub", 5, 4], c(Fraction(1, 1 << 5000)), ["sub", 6, 7],
                                           ["sqrt", 8]],
    "log 0": [c(0), ["log", 0]],
    "log(sqrt2*sqrt2 - 2)": [c(2), ["sqrt", 0], ["mul", 1, 1], ["sub", 2, 0], ["log", 3]],
    "acos(1 + (sqrt2 - 1)^4096)": TINY + [["add", 5, 2], ["acos", 6]],
    "a guard absent everywhere": [c(1), c(-1), ["guard", 0, 1]],
}


@pytest.mark.parametrize("name", sorted(UNDEFINED))
def test_undefined_operations_are_never_values(name):
    assert both(UNDEFINED[name]) == ("domain", "domain")


def test_a_guard_at_exactly_zero_holds_in_both():
    # the condition √2·√8/2 − √2... exactly 0 counts as ≥ 0
    steps = [c(2), ["sqrt", 0], c(8), ["sqrt", 2], c("1/2"), ["mul", 3, 4], ["sub", 1, 5], c(5),
             ["guard", 7, 6]]
    assert both(steps) == (1, 1)


@pytest.mark.parametrize("condition", [[c(1), ["acos", 0]], [c(1), ["log", 0]], [c(0), ["tanh", 0]]])
def test_a_guard_whose_condition_is_a_transcendental_step_at_an_exact_zero_holds(condition):
    steps = condition + [c(5), ["guard", 2, 1]]
    assert both(steps) == (1, 1)


@pytest.mark.parametrize("exponent", [-1, -3, 65, 10**9, 2.0, True, "2"])
def test_pow_exponents_outside_the_traced_range_are_refused_before_any_work(exponent):
    # traced programs and the checker allow integers 0..64 only.  A negative exponent
    # looped forever on a ball (k >>= 1 never reaches 0 from -1), raised
    # ZeroDivisionError on 0, and was charged as exponent 1 on a rational (3^-(3·10^7)
    # was computed for 8,196 bit-operations of work)
    for base in ([c(2), ["sqrt", 0]], [c(0), ["abs", 0]], [c(3), ["neg", 0]]):
        with pytest.raises(ValueError, match="pow"):
            decide_sign(base + [["pow", 1, exponent]], None)


@pytest.mark.parametrize("exponent", [0, 1, 64])
def test_pow_exponents_in_range_still_decide(exponent):
    steps = [c(2), ["sqrt", 0], ["pow", 1, exponent], c(Fraction(2) ** (exponent // 2)), ["sub", 2, 3]]
    expected = 0 if exponent % 2 == 0 else 1  # √2^k − 2^⌊k/2⌋
    assert both(steps) == (expected, expected)


def test_hostile_powers_stop_at_the_work_limit_with_an_undecided_sign():
    # (2^64 + 1)^(64^4): squaring chains of a huge rational are charged before they run
    steps = [c(2**64 + 1)] + [["pow", i, 64] for i in range(4)] + [c(1), ["sub", 4, 5]]
    sign = decide_sign(steps, None)
    assert sign.sign is None and "work limit" in sign.how and sign.work <= MAX_WORK
    # the same through a ball: (√2 + 1)^(64^6) stays bounded too
    surd = [c(2), ["sqrt", 0], c(1), ["add", 1, 2]] + [["pow", 3 + i, 64] for i in range(6)]
    sign = decide_sign(surd, None, max_work=10**9)
    assert sign.sign in (1, None) and sign.work <= 10**9


# -- what crosses the API: Fractions, never fmpq ------------------------------------------


def test_exact_values_are_fractions_that_meet_fraction_keys():
    # fmpq(1, 2) == Fraction(1, 2) is False in python-flint and their hashes collide, so
    # an fmpq escaping into a dict keyed by Fractions would miss (or compare unequal)
    steps = [["input", "x"], c("1/2"), ["mul", 0, 1], ["sqrt", 2]]
    ev = Evaluator(steps, lambda name, index: Fraction(1, 2))
    assert ev.sign(3).sign == 1
    table = {Fraction(1, 2): "half", Fraction(1, 4): "quarter"}
    assert [table.get(ev.exact[i]) for i in range(3)] == ["half", "half", "quarter"]
    assert all(type(ev.exact[i]) is Fraction for i in range(3)) and ev.exact[3] == Fraction(1, 2)
    assert dict(ev.exact) == {0: Fraction(1, 2), 1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 2)}
    sign = ev.sign(2)
    assert type(sign.value.lo) is Fraction and sign.value.lo == sign.value.hi == Fraction(1, 4)
    for interval in ev.values(64):
        assert {type(interval.lo), type(interval.hi)} == {Fraction}


@pytest.mark.parametrize("given", [Fraction(-3, 4), "-3/4", "-0.75", -0.75])
def test_inputs_of_every_exact_kind_give_the_same_decision(given):
    steps = [["input", "x"], ["abs", 0], ["sqrt", 1], c("-0.0"), ["add", 0, 3]]
    ev = Evaluator(steps, lambda name, index: given)
    assert ev.sign(4).sign == -1 and ev.exact[4] == Fraction(-3, 4)
    assert ev.sign(2).sign == 1 and ev.exact[2] is None  # √(3/4) is irrational


def test_negative_zero_is_zero():
    ev = Evaluator([["input", "x"], ["neg", 0], ["sqrt", 1], c(1), ["div", 3, 0]], lambda n, i: -0.0)
    assert ev.sign(2).sign == 0 and ev.exact[2] == 0
    with pytest.raises(DomainError):
        ev.sign(4)


def test_a_value_beyond_the_float_range_is_reported_exactly_not_as_a_float():
    x = 10**400  # float(fmpq(10**400)) raises OverflowError
    sign = decide_sign([c(x), c(2), ["sqrt", 1], ["mul", 0, 2]], None)
    assert sign.sign == 1 and sign.value.lo > x and sign.value.hi < 2 * x


# -- differential: engine against checker on random programs ----------------------------

CONSTANTS = ["0", "1", "-1", "2", "3", "8", "1/2", "-3/4", "9/4", str(Fraction(1, 2**80)), str(2**70 + 1)]
BINARY = ["add", "sub", "mul", "div", "max", "min", "guard"]
UNARY = ["neg", "sqrt", "abs", "pow", "exp", "log", "acos", "tanh"]


@st.composite
def programs(draw):
    algebraic = draw(st.booleans())
    unary = UNARY[:4] if algebraic else UNARY
    steps = [["const", draw(st.sampled_from(CONSTANTS))] for _ in range(3)]
    for _ in range(draw(st.integers(1, 6))):
        k = len(steps)
        kind = draw(st.sampled_from(["const", "binary", "unary", "unary"] + ([] if algebraic else ["pi"])))
        if kind == "const":
            steps.append(["const", draw(st.sampled_from(CONSTANTS))])
        elif kind == "pi":
            steps.append(["pi"])
        elif kind == "binary":
            steps.append([draw(st.sampled_from(BINARY)), draw(st.integers(0, k - 1)), draw(st.integers(0, k - 1))])
        else:
            op = draw(st.sampled_from(unary))
            steps.append(["pow", draw(st.integers(0, k - 1)), draw(st.integers(0, 3))] if op == "pow"
                         else [op, draw(st.integers(0, k - 1))])
    return steps


@settings(max_examples=200)
@given(programs(), st.randoms(use_true_random=False))
def test_engine_and_checker_never_decide_differently(steps, rng):
    # one evaluator asked every step in a random order shares what it learns: its answers
    # must be those of a fresh evaluator per step
    shared = Evaluator(steps, None)
    order = list(range(len(steps)))
    rng.shuffle(order)
    asked = {i: engine_verdict(shared, i) for i in order}
    for i in range(len(steps)):
        prefix = steps[: i + 1]
        ours, theirs = engine_verdict(Evaluator(prefix, None), i), checker_verdict(prefix)
        assert asked[i] == ours, (i, prefix)
        if "undecided" not in (ours, theirs):
            assert ours == theirs, (i, prefix)
        if ours == "domain" or theirs == "domain":
            break  # the checker rejects every longer prefix; the engine evaluates cones only


# -- shrinking: reported, certified, repeatable -------------------------------------------


def _fuzz(claim, seed):
    return bnproof.fuzz(claim, seed=seed, max_examples=30, time_budget=300, jax=False, prove=False)


@pytest.mark.parametrize("claim, seed", [("santurkar2018/theorem-4.1", 5), ("dannemann2025/remark-2.7", 3)])
def test_the_same_seed_gives_the_same_shrunk_certified_counterexample(claim, seed):
    first, second = _fuzz(claim, seed), _fuzz(claim, seed)
    assert first.verdict == second.verdict == "refuted"
    assert first.certificate == second.certificate  # byte for byte
    assert first.counterexample == second.counterexample and first.instances == second.instances
    # the instance count is the search's own, not the shrinker's decisions
    assert first.instances == sum(first._outcome.phases.values()) >= 1
    document = json.loads(first.certificate)
    check_document(document)  # accepted; the reported counterexample is the certified one
    assert {k: v for k, v in document["instance"].items()} == json.loads(
        json.dumps(first.counterexample, default=str))
