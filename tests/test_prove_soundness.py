"""The fixed-size identity prover proves only what holds wherever the claim is defined,
and only when the claim is defined somewhere.

False "identities" below are false by hand:
  Σ max(x_i, 1000) = 1000·m fails at x_1 = 2000;  |x + y| = |x| + |y| fails at (1, −1);
  √(−1)² + 1 = 0 has no real meaning (√−1 is undefined);
  1/z − 1/z = 0 with z = √2 + √3 − √(5 + 2√6) = 0 is defined nowhere;
  Theorem 4.1 with 1/√m instead of 1/m, Remark 2.7 with the unbiased σ, Fact C.1 with a
  wrong constant: each differs from the true identity by a nonzero multiple of a term that
  is not identically zero (⟨g, ŷ⟩², μ² terms, ŷ⟨g, ŷ⟩).
"""

from dataclasses import replace
from fractions import Fraction

import pytest

from bnproof.claims import Claim, Var
from bnproof.claims.api import resolve
from bnproof.claims.blocks import backprop, batch_norm, norm2, normalize, stats
from bnproof.claims.decide import HOLDS, decide
from bnproof.claims.prove import (NOT_PROVED, OUTSIDE_FRAGMENT, PROVED, identity_holds, prove_at,
                                  verified_sizes)


def one(name):
    (claim,) = resolve(name)
    return claim


def identity(residual, variables, sizes=None, hypotheses=()):
    return Claim(id="test/identity", source="a test", statement="=", kind="identity",
                 variables=variables, sizes=sizes or {}, residual=residual, hypotheses=hypotheses)


def zero_surd(xp):
    return xp.sqrt(xp.q(2)) + xp.sqrt(xp.q(3)) - xp.sqrt(xp.q(5) + xp.sqrt(xp.q(6)) * 2)


# -- false identities the old prover "verified exactly" -------------------------------------


@pytest.mark.parametrize("m", [1, 2, 3])
def test_max_with_a_large_constant_is_not_proved(m):
    claim = identity(lambda xp, x: xp.sum(xp.maximum(x, xp.q(1000))) - 1000 * m,
                     (Var("x", ("m",)),), {"m": (1, 3)})
    result = prove_at(claim, {"m": m})
    assert result.status == NOT_PROVED and "does not reduce to 0" in result.reason
    assert result.cases >= 2


def test_triangle_equality_is_not_proved_but_a_true_abs_identity_is():
    triangle = identity(lambda xp, x, y: xp.abs(x + y) - xp.abs(x) - xp.abs(y),
                        (Var("x"), Var("y")))
    assert prove_at(triangle, {}).status == NOT_PROVED
    square = identity(lambda xp, x: xp.abs(x) ** 2 - x**2, (Var("x"),))
    result = prove_at(square, {})
    assert result.status == PROVED and result.cases == 2  # |x| → x and |x| → −x
    assert decide(square, result.witness).verdict == HOLDS
    # max(a, b) + min(a, b) = a + b: two steps, one discriminant a − b, so 2 cases, not 4
    sums = identity(lambda xp, a, b: xp.maximum(a, b) + xp.minimum(a, b) - a - b,
                    (Var("a"), Var("b")))
    result = prove_at(sums, {})
    assert result.status == PROVED and result.cases == 2


def test_relu_identities_split_into_cases():
    # relu(x) − relu(−x) = x, and leaky_relu with slope 1 is the identity
    claim = identity(lambda xp, x: xp.sum(xp.relu(x) - xp.relu(-x) - x), (Var("x", (2,)),))
    assert prove_at(claim, {}).status == PROVED
    claim = identity(lambda xp, x: xp.relu(x) - x, (Var("x"),))
    assert prove_at(claim, {}).status == NOT_PROVED


def test_square_root_of_minus_one_is_not_proved():
    claim = identity(lambda xp, x: xp.sqrt(xp.q(-1)) ** 2 + 1 + x - x, (Var("x"),))
    result = prove_at(claim, {})
    assert result.status == NOT_PROVED and "defined nowhere" in result.reason
    # a radicand negative everywhere but not constant: the algebra agrees, no witness exists
    claim = identity(lambda xp, x: xp.sqrt(-(x * x) - 1) ** 2 + x * x + 1, (Var("x"),))
    result = prove_at(claim, {})
    assert result.status == NOT_PROVED and "no instance where the claim is defined" in result.reason


def test_division_by_an_exact_zero_surd_is_vacuous_not_proved():
    claim = identity(lambda xp, x: x / zero_surd(xp) - x / zero_surd(xp), (Var("x"),))
    result = prove_at(claim, {})
    assert result.status == NOT_PROVED and result.witness is None


def test_tanh_is_outside_the_provable_fragment():
    claim = identity(lambda xp, x: xp.tanh(x) - xp.tanh(x), (Var("x"),))
    result = prove_at(claim, {})
    assert result.status == OUTSIDE_FRAGMENT and result.reason.endswith("uses tanh")


def test_case_split_is_capped_by_a_count():
    # |x_i| − |x_i| summed: true, with 9 independent signs = 512 combinations
    claim = identity(lambda xp, x: xp.sum(xp.abs(x)) - xp.sum(xp.abs(x * 1)), (Var("x", (9,)),))
    capped = prove_at(claim, {})
    assert capped.status == NOT_PROVED
    assert capped.reason == ("not proved: 18 piecewise operations exceed the case-split limit "
                             "(256 cases)")
    assert capped.cases == 257  # stopped at the first case over the limit
    assert prove_at(claim, {}, max_cases=512).status == PROVED


# -- the papers' identities are proved; near misses are not ------------------------------------


@pytest.mark.parametrize("name", ["fact-c.1", "fact-c.2", "fact-c.2/eq-2", "theorem-4.1/as-derived",
                                  "remark-2.7/corrected"])
@pytest.mark.parametrize("m", [2, 3])
def test_paper_identities_are_proved_with_a_witness(name, m):
    claim = one(name)
    result = prove_at(claim, {"m": m})
    assert result.status == PROVED, result.reason
    assert decide(claim, result.witness).verdict == HOLDS
    assert identity_holds(claim, {"m": m})


def test_observation_4_3_is_proved_at_its_sizes():
    claim = one("observation-4.3")
    assert all(prove_at(claim, {"m": m, "d": d}).proved for m in (2, 3) for d in (1, 2))


def _theorem_4_1(last):
    def residual(xp, y, g, gamma):
        yhat, sigma = normalize(xp, y)
        m = y.shape[0]
        lhs = norm2(xp, backprop(xp, g, yhat, sigma, gamma))
        rhs = gamma**2 / sigma**2 * (norm2(xp, g) - xp.sum(g) ** 2 * xp.q(1, m)
                                     - last(xp, m) * xp.sum(g * yhat) ** 2)
        return rhs - lhs
    return identity(residual, (Var("y", ("m",)), Var("g", ("m",)), Var("gamma", (), "nonzero")),
                    {"m": (2, 4)}, (lambda xp, y, g, gamma: stats(xp, y)[1] ** 2,))


def _unbiased_recovery(xp, z):
    m = z.shape[0]
    mu = xp.mean(z)
    sigma = xp.sqrt(xp.sum((z - mu) ** 2) / (m - 1))  # the unbiased σ: γ = σ no longer undoes BN
    zhat = sigma * (z - mu) / stats(xp, z)[1] + mu
    return xp.sum((zhat - z) ** 2)


def _fact_c_1_with(constant):
    def residual(xp, A, g, gamma, beta):
        yhat, sigma = normalize(xp, A)
        m = A.shape[0]
        printed = gamma / (sigma * m) * (g * m - xp.sum(g) - yhat * xp.sum(g * yhat) * constant)
        true = xp.grad(lambda a: xp.sum(g * batch_norm(xp, a, gamma, beta)), A)
        return xp.sum((printed - true) ** 2)
    return identity(residual, (Var("A", ("m",)), Var("g", ("m",)), Var("gamma"), Var("beta")),
                    {"m": (2, 4)}, (lambda xp, A, g, gamma, beta: stats(xp, A)[1] ** 2,))


@pytest.mark.parametrize("m", [2, 3, 4])
def test_near_misses_are_not_proved(m):
    assert prove_at(_theorem_4_1(lambda xp, m: xp.q(1, m)), {"m": m}).proved  # the control
    assert not prove_at(_theorem_4_1(lambda xp, m: 1 / xp.sqrt(xp.q(m))), {"m": m}).proved
    assert not prove_at(_theorem_4_1(lambda xp, m: xp.q(1, m + 1)), {"m": m}).proved
    unbiased = identity(_unbiased_recovery, (Var("z", ("m",)),), {"m": (2, 4)},
                        (lambda xp, z: stats(xp, z)[1] ** 2,))
    assert not prove_at(unbiased, {"m": m}).proved
    assert prove_at(_fact_c_1_with(1), {"m": m}).proved  # the control
    assert not prove_at(_fact_c_1_with(Fraction(1001, 1000)), {"m": m}).proved
    assert not prove_at(one("remark-2.7"), {"m": m}).proved  # the printed β = μ/σ


def test_verified_sizes_lists_only_proved_sizes():
    claim = identity(lambda xp, x: xp.sum(xp.abs(x)) - xp.sum(x), (Var("x", ("m",)),),
                     {"m": (1, 2)})
    assert verified_sizes(replace(claim, exact_sizes={"m": (1, 2)})) == []
    true = replace(one("remark-2.7/corrected"), exact_sizes={"m": (2, 3)})
    assert verified_sizes(true) == [{"m": 2}, {"m": 3}]
