"""Hostile sizes and expressions against the reference reading: every one ends
inconclusive (verdict "undecided", with the cap it hit), never a hang, a crash or a
verdict.  No assertion depends on the machine's speed: each case stops at a count."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from bnproof import reading
from bnproof.claims import Claim, Law, Var
from bnproof.reading import session as session_module
from bnproof.reading import values as values_module


def claim_of(residual, variables=(Var("y", (2,)),), **extra) -> Claim:
    return Claim(id="test/limits", source="test", statement="x", residual=residual, variables=variables, **extra)


def undecided(claim, instance, *words):
    r = reading.read(claim, instance)
    assert r.verdict == "undecided", r
    for w in words:
        assert w in r.detail, r.detail
    return r


def test_repeated_squaring_of_a_rational_stops_at_the_bit_cap():
    def fn(xp, y):
        x = y[0]
        for _ in range(200):
            x = x * x
        return x

    undecided(claim_of(fn), {"y": [Fraction(3, 7), 1]}, "bits")


def test_a_huge_power_stops_before_it_is_computed():
    undecided(claim_of(lambda xp, y: y[0] ** 10**9), {"y": [3, 1]}, "power")
    undecided(claim_of(lambda xp, y: (y[0] ** 4000) ** 4000), {"y": [3, 1]}, "bits")


def test_deep_nesting_stops_at_the_depth_cap():
    """symengine recurses over an expression: 10⁴ levels crash it (segfault), so values
    deeper than the cap are never made."""
    def fn(xp, y):
        x = y[0]
        for _ in range(5000):
            x = xp.sqrt(x + 1)
        return x

    undecided(claim_of(fn), {"y": [2, 1]}, "deeper")


def test_an_exponential_tree_inside_a_gradient_stops_at_the_size_cap():
    """x ↦ x² + x forty times is a small graph but a tree of 2⁴⁰ nodes, which symengine's
    diff walks in full: the reading stops at the size cap instead of hanging."""
    def fn(xp, y):
        def f(v):
            x = v[0] + v[1] * xp.sqrt(xp.q(2))
            for _ in range(40):
                x = x * x + x
            return x
        return xp.grad(f, y)[0]

    undecided(claim_of(fn), {"y": [1, 2]}, "size cap")


def test_the_operation_count_is_capped(monkeypatch):
    monkeypatch.setattr(session_module, "MAX_OPS", 5_000)

    def fn(xp, y):
        x = y[0]
        while True:  # never ends by itself: the reading's cap ends it
            x = x + y[1]

    undecided(claim_of(fn), {"y": [1, 2]}, "5000 value operations")


def test_a_claim_catching_the_cap_still_ends(monkeypatch):
    monkeypatch.setattr(session_module, "MAX_OPS", 5_000)

    def fn(xp, y):
        x = y[0]
        for _ in range(20_000):
            try:
                x = x + y[1]
            except BaseException:  # noqa: BLE001 - the trick under test
                pass
        return x

    undecided(claim_of(fn), {"y": [1, 2]}, "value operations")


def test_the_work_is_capped(monkeypatch):
    monkeypatch.setattr(session_module, "MAX_WORK", 100_000)

    def fn(xp, y):
        x = y[0] ** 4000  # a rational of about 1.1·10⁴ bits, each product charged by its words
        for _ in range(10_000):
            z = x * x
        return z

    undecided(claim_of(fn), {"y": [7, 2]}, "units of work")


def test_exp_of_a_huge_argument_is_bounded():
    undecided(claim_of(lambda xp, y: xp.exp(y[0] * 10**6) - 1), {"y": [1, 2]}, "exp")


def test_huge_instances_are_refused_before_work():
    claim = claim_of(lambda xp, y: y[0], variables=(Var("y", ("m",)),), sizes={"m": (1, 10**7)})
    undecided(claim, {"y": [0] * 200_000}, "entries")


def test_a_huge_number_in_the_instance_is_refused_before_arithmetic():
    undecided(claim_of(lambda xp, y: y[0] * y[0] + y[1]), {"y": [3**1_000_000, 1]}, "bits")


def test_expectations_over_too_many_batches():
    claim = Claim(id="t/e", source="t", statement="x", variables=(Law("X", (), "k"),), sizes={"k": (1, 9)},
                  residual=lambda xp, X: xp.expect(lambda xp, B: xp.sum(B), X, 13))
    undecided(claim, {"X_support": [1, 2], "X_weights": [1, 3]}, "batches")


def test_a_hostile_program_is_refused_or_bounded():
    from bnproof.reading.program import program_value

    steps = [["input", "x"]] + [["mul", i, i] for i in range(200)]
    v = program_value(steps, 200, {"x": 3})
    assert not v.is_defined and "bits" in v.why
    with pytest.raises(ValueError):
        program_value([["add", 0, 0]], 0, {})  # refers to itself
    with pytest.raises(ValueError):
        program_value([["const", "1e999999999"]], 0, {})  # constants are p/q only
    with pytest.raises(ValueError):
        program_value([["frobnicate"]], 0, {})


def test_caps_do_not_touch_the_paper_claims_at_m_9():
    """The caps leave room: every proofs/ claim reads at m = 9 (and the largest other
    sizes) within them."""
    from bnproof.claims.api import all_claims

    for claim in all_claims():
        if "m" not in claim.sizes:
            continue
        sizes = {s: (9 if s == "m" else hi) for s, (lo, hi) in claim.sizes.items()}
        for instance in reading.generic_instances(claim, sizes, 1, seed=3):
            r = reading.read(claim, instance)
            assert r.verdict != "undecided", (claim.id, r)


def test_values_report_their_caps():
    assert values_module.MAX_DEPTH < 10_000 and values_module.MAX_SIZE > 0
    assert isinstance(np.asarray([1]), np.ndarray)
