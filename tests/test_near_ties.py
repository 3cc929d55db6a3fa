"""Near-ties (issue 22): floats may nominate instances, never be the only judge of one
whose residual they round to the boundary.  `xp.tanh(x**2 + 20) >= 1` is false by
8.5·10⁻¹⁸ at every x, its float residual is 0.0, and it survived `fuzz` with and without
JAX; `verify` at x = 0 refutes it.  A claim whose residual is ≡ 0 ties everywhere, and
must not pay for that in exact decisions."""

from __future__ import annotations

import json

import pytest

from bnproof.claims import Claim, Var
from bnproof.search import certify, hypothesis_search
from bnproof.search.fuzz import fuzz
from bnproof.search.screen import near_tie
from cli_runner import env_for, run_cli

TANH = '''from bnproof.claims import Claim, Var

C = Claim(id="ties/tanh", source="a test", statement=r"\\tanh(x^2 + 20) \\ge 1", kind="inequality",
          variables=(Var("x", ()),), residual=lambda xp, x: xp.tanh(x ** 2 + 20) - 1)
'''

TANH_CLAIM = Claim(id="ties/tanh-identity", source="a test", statement="x", kind="identity",
                   variables=(Var("x", ()),), residual=lambda xp, x: xp.tanh(x ** 2 + 20) - 1)

# an identity written as an inequality: Σ(y − μ)² = Σy² − (Σy)²/m, so the residual is ≡ 0
ZERO = Claim(id="ties/zero", source="a test", statement="x", kind="inequality",
             variables=(Var("y", ("m",)),), sizes={"m": (2, 5)},
             residual=lambda xp, y: xp.sum((y - xp.mean(y)) ** 2) - xp.sum(y * y) + xp.sum(y) ** 2 / y.shape[0])


@pytest.mark.parametrize("jax", [False, True], ids=["no-jax", "jax"])
def test_fuzz_refutes_a_claim_false_by_less_than_rounding(tmp_path, jax):
    (tmp_path / "tanh.py").write_text(TANH, encoding="utf-8")
    proc = run_cli("fuzz", "tanh.py", "--json", "--no-timings", "--max-examples", "20",
                   *(["--no-jax"] if not jax else []), cwd=tmp_path, env=env_for(tmp_path))
    (result,) = json.loads(proc.stdout)
    assert proc.returncode == 1 and result["verdict"] == "refuted", proc.stdout + proc.stderr
    assert result["counterexample"] == {"x": "0"}
    certificate = json.loads((tmp_path / "bnproof-out" / "ties" / "tanh.json").read_text(encoding="utf-8"))
    assert certificate["claim"]["id"] == "ties/tanh"


@pytest.fixture
def decisions(monkeypatch):
    """The exact decisions a search makes (each a call of the exact engine)."""
    made = []
    decide = certify.decide

    def counting(*args, **kwargs):
        made.append(args[1])
        return decide(*args, **kwargs)

    monkeypatch.setattr(certify, "decide", counting)
    return made


def test_an_identity_false_by_less_than_rounding_is_refuted(decisions):
    outcome = fuzz(TANH_CLAIM, max_examples=20, use_jax=False, time_budget=60)
    assert outcome.verdict == "refuted" and len(decisions) <= hypothesis_search.MAX_TIES


def test_a_residual_identically_zero_survives_and_costs_no_more_exact_decisions(decisions):
    """Every instance is a near-tie; the exact decisions stay those survival makes anyway
    (SAMPLES instances floats put inside the claim), as before near-ties were decided."""
    outcome = fuzz(ZERO, max_examples=200, use_jax=False, time_budget=60)
    assert outcome.verdict == "survived", outcome.reason
    assert outcome.instances == 200
    assert len(decisions) <= hypothesis_search.SAMPLES, len(decisions)


def test_the_near_tie_budget_is_a_count_per_search(decisions, monkeypatch):
    # a residual that is 0.0 in floats too (never faint); samples off: every exact decision
    # left is a near-tie's, one per instance until the budget is spent
    monkeypatch.setattr(hypothesis_search, "SAMPLES", 0)
    flat = Claim(id="ties/flat", source="a test", statement="x", kind="inequality",
                 variables=(Var("y", ("m",)),), sizes={"m": (2, 5)}, residual=lambda xp, y: xp.sum(y - y))
    outcome = fuzz(flat, max_examples=200, use_jax=False, time_budget=60)
    assert outcome.verdict == "survived" and outcome.instances == 200
    assert 0 < len(decisions) <= hypothesis_search.MAX_TIES  # repeated draws are decided once


def test_what_a_near_tie_is():
    inequality = ZERO
    strict = Claim(id="ties/strict", source="s", statement="x", kind="inequality", strict=True,
                   variables=(Var("x", ()),), residual=lambda xp, x: x)
    assert near_tie(inequality, {"y": [1, 2]}, 0.0)
    assert near_tie(inequality, {"y": [1, 2]}, -4e-9) and near_tie(inequality, {"y": [1, 2]}, 4e-9)
    assert not near_tie(inequality, {"y": [1, 2]}, -1e-6)  # a violation the screen nominates
    assert near_tie(inequality, {"y": [10 ** 6, 2]}, -1e-4)  # scaled to the magnitude
    assert near_tie(TANH_CLAIM, {"x": 0}, 0.0)
    assert not near_tie(strict, {"x": 0}, 0.0)  # nominated already: r ≤ 0 refutes
    assert not near_tie(inequality, {"y": [10 ** 400, 1]}, 0.0)  # unrepresentable: the exact engine's


def test_a_residual_floats_place_is_no_near_tie_whatever_the_magnitude():
    """Inside the magnitude's slack (1 at entries of 10⁶) but unmoved by ulps of the
    entries: floats place it, so it costs no exact decision (fuzz_budget's stall claim
    traced at sizes the test forbids when this was sent to the engine)."""
    from bnproof.claims.xp import floating

    constant = Claim(id="tie/constant", source="t", statement="1 >= 0", variables=(Var("y", ("m",)),),
                     sizes={"m": (2, 2)}, residual=lambda xp, y: 1 + 0 * y[0])
    instance = {"y": [10 ** 6, 2]}
    assert near_tie(constant, instance, 1.0)  # the slack alone would send it
    assert not near_tie(constant, instance, 1.0, floating())
    assert near_tie(TANH_CLAIM, {"x": 0}, 0.0, floating())  # 0.0 itself always is one
