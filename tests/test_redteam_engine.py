"""Red-team findings against the exact engine, each a defect that was reproduced first.

Every expectation is derived by hand:
  * `1 if x == y else 0` is 1 at x = y = 1, so "it is identically 0" is false; Python's
    default == on traced values compared identity and fixed the branch to 0 at every point;
  * `x − 1 if x != 0 else 5` is 5 ≥ 0 at x = 0, so refuting "≥ 0" there is false;
  * |γ| > 0 holds on γ's declared domain (nonzero), so γ = 0 refutes nothing;
  * (x^N − 1)/(x^(N−1) − 1) has gcd x − 1, and cancelling it leaves N − 1 terms;
  * (Σx + 1)^64 − (Σx + 1)^64 = 0, but expanding it in 6 variables has ~10^8 terms.
Work is bounded by counts (the field's work units), never by a clock.
"""

from dataclasses import replace
from fractions import Fraction

import pytest

from bnproof.claims import Claim, Var
from bnproof.claims.decide import HOLDS, OUTSIDE, REFUTED, UNDECIDED, decide, trace
from bnproof.claims.prove import MAX_GRID, NOT_PROVED, PROVED, prove_at, verified_sizes
from bnproof.program.radicals import Radicals
from bnproof.program.trace import ProgramTooLarge


def identity(residual, variables, sizes=None, hypotheses=()):
    return Claim(id="test/redteam", source="a test", statement="=", kind="identity",
                 variables=variables, sizes=sizes or {}, residual=residual, hypotheses=hypotheses)


def inequality(residual, variables, strict=False):
    return Claim(id="test/redteam-ineq", source="a test", statement="≥", variables=variables,
                 residual=residual, strict=strict)


# -- a Python branch on a traced value never fixes the program -------------------------------


def test_equality_of_traced_values_is_refused_not_identity():
    indicator = identity(lambda xp, x, y: xp.q(1) if x == y else xp.q(0), (Var("x"), Var("y")))
    assert prove_at(indicator, {}).status == NOT_PROVED
    decision = decide(indicator, {"x": Fraction(1), "y": Fraction(1)})
    assert decision.verdict == UNDECIDED and "compared" in decision.detail
    guarded = inequality(lambda xp, x: x - 1 if x != 0 else xp.q(5), (Var("x"),))
    assert decide(guarded, {"x": Fraction(0)}).verdict == UNDECIDED  # was refuted


def test_truth_value_of_a_dual_is_its_value():
    # "∂/∂w0 of (w0 if w1 else 0) is 1": false at w1 = 0; a dual used to be always true
    claim = identity(lambda xp, w: xp.grad(lambda v: v[0] if v[1] else v[1] * 0, w)[0] - 1,
                     (Var("w", (2,)),))
    assert prove_at(claim, {}).status == NOT_PROVED
    assert decide(claim, {"w": [Fraction(1), Fraction(0)]}).verdict == UNDECIDED


# -- decide honours the declared domains --------------------------------------------------


def test_instances_outside_the_declared_domains_are_outside_never_refuted():
    nonzero = inequality(lambda xp, g: xp.abs(g), (Var("g", (), "nonzero"),), strict=True)
    assert decide(nonzero, {"g": Fraction(0)}).verdict == OUTSIDE
    assert decide(nonzero, {"g": Fraction(-2)}).verdict == HOLDS
    positive = inequality(lambda xp, p: p, (Var("p", (), "positive"),), strict=True)
    assert decide(positive, {"p": Fraction(0)}).verdict == OUTSIDE
    symmetric = inequality(lambda xp, H: H[0][1] - H[1][0] - 1, (Var("H", (2, 2), "symmetric"),))
    # the program reads H[1][0] as H[0][1]; an asymmetric instance is not what it decides
    asymmetric = {"H": [[Fraction(0), Fraction(5)], [Fraction(0), Fraction(0)]]}
    assert decide(symmetric, asymmetric).verdict == OUTSIDE
    assert decide(symmetric, {"H": [[Fraction(0)] * 2] * 2}).verdict == REFUTED


# -- the prover's work is bounded by a count, shared by all cases ---------------------------


def test_prover_stops_at_its_work_limit():
    power = identity(lambda xp, x: (xp.sum(x) + 1) ** 64 - (xp.sum(x) + 1) ** 64,
                     (Var("x", (6,)),))
    result = prove_at(power, {}, max_work=10**9)
    assert result.status == NOT_PROVED and "work limit" in result.reason
    assert 0 < result.work <= 10**9


def test_case_split_shares_one_work_limit():
    # 2^4 sign cases, each expanding a power of Σ|x_i| + 1: the limit bounds all of them together
    claim = identity(lambda xp, x: (xp.sum(xp.abs(x)) + 1) ** 6 - (xp.sum(xp.abs(x)) + 1) ** 6,
                     (Var("x", (4,)),))
    full = prove_at(claim, {})
    assert full.status == PROVED and full.cases == 16
    half = prove_at(claim, {}, max_work=full.work // 2)
    assert half.status == NOT_PROVED and "work limit" in half.reason
    assert half.work <= full.work // 2


def test_gcd_cancellation_never_builds_a_dense_quotient():
    field = Radicals(["x"])
    x = field.input(0)
    power = x
    for _ in range(4):  # x^(64^4): four sparse products
        power = field.pow(power, 64)
    one = field.const(1)
    ratio = field.div(field.sub(power, one), field.sub(field.div(power, x), one))
    # cancelling gcd x − 1 would leave 64^4 − 1 terms; the dense bound refuses it
    assert len(ratio.n) + len(ratio.d) <= 4


def test_hostile_sizes_stop_the_trace_before_allocating():
    claim = identity(lambda xp, x: xp.sum(x) - xp.sum(x), (Var("x", ("m", "m")),), {"m": (1, 10**6)})
    with pytest.raises(ProgramTooLarge):
        trace(claim, {"m": 10**6})
    result = prove_at(claim, {"m": 10**6})
    assert result.status == NOT_PROVED and "ProgramTooLarge" in result.reason
    assert prove_at(claim, {"m": -1}).status == NOT_PROVED
    assert prove_at(claim, {"m": 2}).status == PROVED


def test_verified_sizes_never_raises_and_is_bounded():
    claim = identity(lambda xp, x: xp.sum(x) - xp.sum(x), (Var("x", ("m",)),), {"m": (1, 3)})
    assert verified_sizes(replace(claim, exact_sizes={"m": (1, 3)})) == [{"m": 1}, {"m": 2}, {"m": 3}]
    for bad in ({"m": (1, 2.5)}, {"m": (1,)}, {"m": "13"}, {"m": (True, 2)}):
        assert verified_sizes(replace(claim, exact_sizes=bad)) == []
    many = verified_sizes(replace(claim, exact_sizes={"m": (1, 10**12)}))
    assert many == [{"m": m} for m in range(1, MAX_GRID + 1)]


# -- nothing raises out of decide or prove_at; only exact numbers are traced -------------------


def test_a_claim_that_exits_is_undecided_not_an_exit():
    import sys

    def leaves(xp, x):
        sys.exit(3)

    claim = identity(leaves, (Var("x"),))
    assert decide(claim, {"x": Fraction(1)}).verdict == UNDECIDED
    assert prove_at(claim, {}).status == NOT_PROVED
    assert verified_sizes(replace(claim, exact_sizes={})) == []


@pytest.mark.parametrize("value", ["-1", True, 0.1, 1j, float("nan")])
def test_residuals_that_are_not_exact_numbers_are_undecided(value):
    # "-1" used to parse as −1 (refuted), True as 1, 0.1 as its binary fraction
    claim = inequality(lambda xp, x: value, (Var("x"),))
    assert decide(claim, {"x": Fraction(1)}).verdict == UNDECIDED


def test_float_constants_are_refused_not_made_binary_fractions():
    # leaky_relu(−|x| − 1, 0.1) + (|x| + 1)/10 is 0 for slope 1/10, and 2^-55-ish for double(0.1)
    claim = identity(lambda xp, x: xp.leaky_relu(-xp.abs(x) - 1, 0.1) + (xp.abs(x) + 1) / 10,
                     (Var("x"),))
    assert decide(claim, {"x": Fraction(1)}).verdict == UNDECIDED  # was refuted
    exact = identity(lambda xp, x: xp.leaky_relu(-xp.abs(x) - 1, Fraction(1, 10)) + (xp.abs(x) + 1) / 10,
                     (Var("x"),))
    assert decide(exact, {"x": Fraction(1)}).verdict == HOLDS


# -- xp.grad takes partial derivatives entry by entry, whatever the shape --------------------


def test_gradient_of_a_matrix_variable_is_entrywise():
    # ∂/∂W₀₀ (Σ W)² = 2 Σ W: 20 at W = [[1, 2], [3, 4]]; seeding whole rows gave 2·(1 + 3) = 8
    claim = identity(lambda xp, W: xp.grad(lambda V: xp.sum(V) ** 2, W)[0][0] - 2 * xp.sum(W),
                     (Var("W", (2, 2)),))
    W = {"W": [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(4)]]}
    assert decide(claim, W).verdict == HOLDS  # was refuted
    assert prove_at(claim, {}).status == PROVED
    scalar = identity(lambda xp, x: xp.grad(lambda v: v * v * v, x) - 3 * x * x, (Var("x"),))
    assert decide(scalar, {"x": Fraction(3)}).verdict == HOLDS  # a 0-d variable was a TypeError
    vector_valued = identity(lambda xp, w: xp.sum(xp.grad(lambda v: v * 2, w)), (Var("w", (2,)),))
    assert decide(vector_valued, {"w": [Fraction(1), Fraction(2)]}).verdict == UNDECIDED


# -- exact zeros through many radicals --------------------------------------------------------

PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


def _sum_of_roots_twice(xp):
    """Σ √p − Σ √(4p)/2 over twelve primes: exactly 0 (√(4p) = 2√p)."""
    total = xp.q(0)
    for p in PRIMES:
        total = total + xp.sqrt(xp.q(p))
    for p in PRIMES:
        total = total - xp.sqrt(xp.q(4 * p)) / 2
    return total


def test_an_exact_zero_through_twenty_four_radicals_is_decided():
    # one generator per radicand gave 24 generators: beyond the zero test's 10, undecided
    claim = Claim(id="test/roots", source="a test", statement="=", kind="identity", variables=(),
                  residual=_sum_of_roots_twice)
    decision = decide(claim, {})
    assert decision.verdict == HOLDS and decision.residual.sign == 0
    divided = Claim(id="test/roots-div", source="a test", statement="≥", variables=(),
                    residual=lambda xp: 1 / _sum_of_roots_twice(xp))
    assert decide(divided, {}).verdict == OUTSIDE  # a division by exactly 0
    assert prove_at(claim, {}).status == PROVED
    products = identity(lambda xp, x: x * (xp.sqrt(xp.q(6)) - xp.sqrt(xp.q(2)) * xp.sqrt(xp.q(3)))
                        + xp.sqrt(xp.q(8, 9)) - xp.sqrt(xp.q(2)) * xp.q(2, 3), (Var("x"),))
    assert prove_at(products, {}).status == PROVED
    # a near miss stays a near miss: √(4·37 + 1) is not 2√37
    off = identity(lambda xp, x: x * (xp.sqrt(xp.q(149)) - 2 * xp.sqrt(xp.q(37))), (Var("x"),))
    assert prove_at(off, {}).status == NOT_PROVED


# -- reported enclosures stay small ----------------------------------------------------------


def _power_chain(base, times):
    for _ in range(times):
        base = base ** 64
    return base


@pytest.mark.parametrize("shift,sign", [(-1, 1), (1, 1)])
def test_enclosures_of_tiny_and_huge_values_are_compact(shift, sign):
    # (√2 ∓ 1)^(64⁶) is a 64-bit ball with an exponent near ∓2^36: its exact endpoints took
    # gigabytes (a MemoryError, or the machine's memory), though the sign was decided
    claim = inequality(lambda xp, x: _power_chain(xp.sqrt(xp.q(2)) + shift, 6) * x * x,
                       (Var("x"),), strict=True)
    decision = decide(claim, {"x": Fraction(1)})
    assert decision.verdict == HOLDS and decision.residual.sign == sign
    value = decision.residual.value
    for end in (value.lo, value.hi):
        assert end is None or max(end.numerator.bit_length(), end.denominator.bit_length()) <= 8200
    if shift == -1:  # rounded outward onto the grid 2^-4096: still an enclosure
        assert value.lo == 0 and value.hi == Fraction(1, 2**4096)
    else:  # beyond 2^4096: unbounded, never a wrong bound
        assert value.lo is None and value.hi is None


def test_instance_text_with_a_huge_exponent_is_refused_before_any_work():
    # Fraction("1e999999999") builds a billion-digit integer before any work limit applies
    claim = inequality(lambda xp, x: x, (Var("x"),))
    for text in ("1e999999999", "-2.5E+123456789", "1e-999999999"):
        decision = decide(claim, {"x": text})
        assert decision.verdict == UNDECIDED and "exponent" in decision.detail
    assert decide(claim, {"x": "1.5e3"}).verdict == HOLDS
    assert decide(claim, {"x": "-3/7"}).verdict == REFUTED


def test_decide_reports_its_work_and_keeps_a_given_limit():
    # √(K² + 1) − K with K = 2^3000 needs about 6000 bits: more than 10^8 bit-operations
    K = 2**3000
    claim = inequality(lambda xp, x: xp.sqrt(xp.q(K) ** 2 + x * x) - K, (Var("x"),))
    decided = decide(claim, {"x": Fraction(1)})
    assert decided.verdict == HOLDS and decided.work == decided.residual.work > 10**8
    stopped = decide(claim, {"x": Fraction(1)}, max_work=10**8)
    assert stopped.verdict == UNDECIDED and "work limit" in stopped.detail
    assert 0 < stopped.work <= 10**8
