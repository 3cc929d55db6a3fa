"""Implicit sets (issue 12.3): exact distances, the guard step, equality hypotheses,
and forged certificates that misuse them."""

import copy
from fractions import Fraction

import numpy as np
import pytest

from bnproof.checker.kernel import check_document
from bnproof.checker.parse import Rejected
from bnproof.certificate.program import build
from bnproof.claims import Claim, Var
from bnproof.claims import xp as namespaces
from bnproof.claims.blocks import Layer, level_set, mlp
from bnproof.claims.decide import HOLDS, OUTSIDE, REFUTED, decide, trace
from bnproof.claims.sets import distance, hyperplane, squared_distance
from tamper import seal

SQUARE = [[([1, 0], 1), ([-1, 0], 0), ([0, 1], 1), ([0, -1], 0)]]  # [0, 1]²


@pytest.mark.parametrize("point, expected", [([2, 3], 5), ([Fraction(1, 2), Fraction(1, 3)], 0),
                                             ([-1, Fraction(1, 2)], 1), ([-2, -3], 13)])
def test_squared_distance_to_a_square_is_exact(point, expected):
    # independent: the nearest point of [0,1]² is the clamped point
    clamped = [min(max(Fraction(c), 0), 1) for c in point]
    assert sum((Fraction(c) - k) ** 2 for c, k in zip(point, clamped)) == expected
    claim = Claim(id="t/d", source="t", statement="t", variables=(Var("x", (2,)),), kind="identity",
                  residual=lambda xp, x: squared_distance(xp, x, SQUARE) - xp.q(expected))
    assert decide(claim, {"x": point}).verdict == HOLDS
    wrong = Claim(id="t/d", source="t", statement="t", variables=(Var("x", (2,)),), kind="identity",
                  residual=lambda xp, x: squared_distance(xp, x, SQUARE) - xp.q(expected + 1))
    assert decide(wrong, {"x": point}).verdict == REFUTED


def test_distance_to_an_empty_set_is_undefined_never_a_value():
    empty = [[([1, 0], 0), ([-1, 0], -1)]]  # x₁ ≤ 0 and x₁ ≥ 1
    claim = Claim(id="t/e", source="t", statement="t", variables=(Var("x", (2,)),),
                  residual=lambda xp, x: -distance(xp, x, empty))
    d = decide(claim, {"x": [0, 0]})
    assert d.verdict == OUTSIDE and "empty" in d.detail
    assert np.isinf(distance(namespaces.floating(), np.array([0.0, 0.0]), empty))


def test_a_distance_exactly_zero_in_an_irrational_field_is_not_refuted():
    # x on the hyperplane through √2-scaled data: the distance is exactly 0, not ~1e-17
    claim = Claim(id="t/z", source="t", statement="t", variables=(Var("x", (2,)),), kind="identity",
                  residual=lambda xp, x: distance(xp, x, hyperplane(xp, xp.sqrt(xp.asarray(
                      [xp.q(2), xp.q(2)])), xp.sqrt(xp.q(2)))))
    assert decide(claim, {"x": [Fraction(1, 3), Fraction(2, 3)]}).verdict == HOLDS
    assert decide(claim, {"x": [1, 1]}).verdict == REFUTED


def _level_claim():
    return Claim(id="t/l", source="t", statement="t", variables=(Var("x", (2,)),), kind="identity",
                 residual=lambda xp, x: squared_distance(xp, x, level_set(
                     xp, [Layer(xp.eye(2), gamma=xp.ones(2), beta=xp.zeros(2), mu=xp.zeros(2),
                                var=xp.ones(2)), xp.asarray([[xp.q(1), xp.q(1)]])], xp.q(1))) - xp.q(9))


def test_folded_hyperplane_distance_matches_geometry():
    # {relu(x1) + relu(x2) = 1}: from (−2, −2) the nearest point is (1, −2) or (−2, 1), at 3
    assert decide(_level_claim(), {"x": [-2, -2]}).verdict == HOLDS
    assert decide(_level_claim(), {"x": [-2, -1]}).verdict == REFUTED  # 2² + ... ≠ 9


def test_mlp_evaluates_a_point_outside_the_batch_with_the_batch_statistics():
    fx = namespaces.floating()
    X = np.array([[0.0], [2.0]])  # μ = 1, σ² = 1
    layers = [Layer(np.array([[1.0]]), b=np.array([1.0]), gamma=np.array([1.0]), beta=np.array([0.0])),
              np.array([[1.0]])]
    out = mlp(fx, np.array([[5.0]]), layers, "leaky_relu", slope=0.5, batch=X)
    assert out[0, 0] == pytest.approx(4.0)  # (5 + 1 − 2)/1
    out = mlp(fx, np.array([[-5.0]]), layers, "leaky_relu", slope=0.5, batch=X)
    assert out[0, 0] == pytest.approx(-3.0)  # 0.5 · (−6)


ON_LINE = Claim(id="t/on-line", source="t", statement="t",
                variables=(Var("w", (2,)), Var("c", ()), Var("x", (2,))),
                hypotheses=(lambda xp, w, c, x: w[0] ** 2 + w[1] ** 2,),
                equalities=(lambda xp, w, c, x: w[0] * x[0] + w[1] * x[1] - c,),
                residual=lambda xp, w, c, x: -distance(xp, x, hyperplane(xp, w, c)))

CLOSE = Claim(id="t/close", source="t", statement="t",  # false: "points on the line are within 1 of 0"
              variables=(Var("w", (2,)), Var("c", ()), Var("x", (2,))),
              equalities=(lambda xp, w, c, x: w[0] * x[0] + w[1] * x[1] - c,),
              residual=lambda xp, w, c, x: 1 - x[0] ** 2 - x[1] ** 2)


def test_equalities_are_decided_exactly():
    assert decide(ON_LINE, {"w": [1, 1], "c": 1, "x": [Fraction(1, 2), Fraction(1, 2)]}).verdict == HOLDS
    off = decide(ON_LINE, {"w": [1, 1], "c": 1, "x": [Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**30)]})
    assert off.verdict == OUTSIDE and "equality" in off.detail


def _certificate():
    instance = {"w": [1, 1], "c": 3, "x": [1, 2]}
    assert decide(CLOSE, instance).verdict == REFUTED
    return build(CLOSE, instance, trace(CLOSE, {}))


def test_equality_certificate_is_accepted_and_binds_the_obligation():
    doc = _certificate()
    assert "refuted" in check_document(doc)
    assert any(o["sign"] == "zero" for o in doc["obligations"])


def test_forged_equality_that_is_not_exactly_zero_is_rejected():
    doc = copy.deepcopy(_certificate())
    doc["instance"]["c"] = str(Fraction(3) + Fraction(1, 10**30))  # ⟨w, x⟩ − c = −10⁻³⁰
    with pytest.raises(Rejected, match="equality"):
        check_document(seal(doc))


def test_forged_guard_that_is_misused_is_rejected():
    doc = copy.deepcopy(_certificate())
    steps = doc["program"]["steps"]
    # the residual becomes guard(residual, -1): absent, so it is no value at all
    steps.append(["const", "-1"])
    steps.append(["guard", doc["program"]["residual"], len(steps) - 1])
    doc["program"]["residual"] = len(steps) - 1
    doc["obligations"][-1]["value"] = len(steps) - 1
    with pytest.raises(Rejected, match="absent"):
        check_document(seal(doc))
    # arithmetic on an absent value is undefined, not +∞
    steps.append(["add", len(steps) - 1, len(steps) - 2])
    doc["program"]["residual"] = doc["obligations"][-1]["value"] = len(steps) - 1
    with pytest.raises(Rejected, match="absent"):
        check_document(seal(doc))


def test_search_samples_on_the_equality_set():
    import bnproof

    assert bnproof.fuzz(ON_LINE, seed=0, max_examples=30, time_budget=60, jax=False).verdict == "survived"
    assert bnproof.fuzz(CLOSE, seed=0, max_examples=60, time_budget=60, jax=False).verdict == "refuted"
