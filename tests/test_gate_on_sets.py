"""The second reading's gate on an equality set with no rational point along one entry:
γ = σ (σ irrational on rational y) and a standardized batch (Σy = 0, Σy² = m: quadratic,
and solving it moves an entry Σy = 0 fixed).  The gate (symbolic_m/crosscheck.py,
search/equalities.py on_set_exactly) solves entries in closed form over Q(√…), admits
the instance only when the reading proves every domain, hypothesis and equality there,
and compares the program with the claim's own code as everywhere else: a code that
differs only ON the set is caught (exit 7); a set it cannot draw on is undecided, with
why, never a pass.  Each test failed before (the gate said "no generic instance on the
set ... could be drawn" for all of them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bnproof import reading
from bnproof.checker import check_document
from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.errors import Disagreement
from bnproof.reading.instances import Algebraic
from bnproof.symbolic_m.crosscheck import gate, on_the_set, second_reading
from bnproof.symbolic_m.prove import attempt
from bnproof.symbolic_m.trace import program_for

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_m_equalities.py"
STANDARDIZED = next(c for c in load_file(GALLERY) if c.id.endswith("/standardized"))
Y, GAMMA, BETA = Var("y", ("m",)), Var("gamma", (), "positive"), Var("beta")


def _variance(xp, y):
    return xp.mean((y - xp.mean(y)) ** 2)


def _bn(xp, y):
    return (y - xp.mean(y)) / xp.sqrt(_variance(xp, y))


def _recovery(xp, y, gamma, beta):
    return xp.sum((gamma * _bn(xp, y) + beta - y) ** 2)


def _beta_mu(xp, y, gamma, beta):
    return beta - xp.mean(y)


def _gamma_sigma(xp, y, gamma, beta):
    return gamma - xp.sqrt(_variance(xp, y))


def _as_printed(cid="t/as-printed", residual=_recovery, hypotheses=()):
    """Remark 2.7 as printed (γ = σ, no ε): the prover substitutes no root, so the tests
    read its program (traced, not proved) against its code at the gate."""
    return Claim(id=cid, source="a test", statement="x", kind="identity", variables=(Y, GAMMA, BETA),
                 sizes={"m": (2, 6)}, equalities=(_beta_mu, _gamma_sigma), hypotheses=hypotheses,
                 residual=residual)


def _standardized(cid, residual=None, square_sum=None):
    return Claim(id=cid, source="a test", statement="x", kind="identity", variables=(Y,), sizes={"m": (2, 6)},
                 equalities=(lambda xp, y: xp.sum(y),
                             square_sum or (lambda xp, y: xp.sum(y ** 2) - y.shape[0])),
                 residual=residual or STANDARDIZED.residual)


# --- proved ----------------------------------------------------------------------------

def test_the_standardized_batch_is_proved_and_the_checker_accepts():
    result = attempt(STANDARDIZED)
    assert result.proved, result.reason
    assert "proved for every m" in check_document(result.document)


def test_its_gate_instances_are_algebraic_and_exactly_on_the_set():
    instance = reading.generic_instances(STANDARDIZED, {"m": 5}, 1)[0]
    moved = on_the_set(STANDARDIZED, [instance])[0]
    assert any(isinstance(x, Algebraic) for x in moved["y"])
    read = reading.read(STANDARDIZED, moved)
    assert read.verdict == reading.HOLDS and read.sign == 0  # the equalities proved exactly 0
    # the float reading is kept: numpy float64 at the rounded entries, within its bound
    assert reading.confirm_numpy(STANDARDIZED, moved).status == reading.AGREES


def test_gamma_equals_sigma_as_printed_is_compared_at_algebraic_instances():
    claim = _as_printed()
    instance = reading.generic_instances(claim, {"m": 4}, 1)[0]
    moved = on_the_set(claim, [instance])[0]
    assert isinstance(moved["gamma"], Algebraic)
    assert reading.read(claim, moved).verdict == reading.HOLDS
    confirmation = second_reading(claim, {}, program_for(claim))
    assert confirmation.status == reading.AGREES, confirmation.detail
    assert gate(claim, {}, program_for(claim)) is None


# --- a code that differs only on the set -----------------------------------------------

def test_a_code_that_differs_only_where_gamma_is_sigma_is_a_disagreement():
    def residual(xp, y, gamma, beta):
        honest = _recovery(xp, y, gamma, beta)
        return honest + 1 if gamma == xp.sqrt(_variance(xp, y)) else honest  # decided exactly

    with pytest.raises(Disagreement) as err:
        gate(_as_printed("t/cheat-gamma", residual), {}, program_for(_as_printed()))
    assert err.value.exit_code == 7


def test_a_code_that_differs_only_on_the_standardized_set_is_a_disagreement():
    def residual(xp, y):
        honest = STANDARDIZED.residual(xp, y)
        return honest + 1 if xp.sum(y ** 2) == y.shape[0] else honest

    with pytest.raises(Disagreement):
        gate(_standardized("t/cheat-standardized", residual), {}, program_for(STANDARDIZED))
    assert not attempt(_standardized("t/cheat-standardized", residual)).proved  # end to end, never proved


# --- undecided, with why ---------------------------------------------------------------

def test_a_hypothesis_false_at_every_drawn_instance_is_undecided_never_a_pass():
    claim = _as_printed("t/gamma-large", hypotheses=(lambda xp, y, gamma, beta: gamma - 1000,))
    confirmation = second_reading(claim, {}, program_for(claim))
    assert confirmation.status == reading.INCONCLUSIVE
    assert "hypothesis 1" in confirmation.detail and "is not > 0" in confirmation.detail
    why = gate(claim, {}, program_for(claim))
    assert why is not None and "could not confirm" in why


def test_a_set_with_no_real_point_along_the_entries_is_undecided_with_why():
    claim = _standardized("t/no-real-point", square_sum=lambda xp, y: xp.sum(y ** 2) + 1)
    confirmation = second_reading(claim, {}, program_for(claim))
    assert confirmation.status == reading.INCONCLUSIVE
    assert "in closed form: equality 2 could not be solved" in confirmation.detail


def test_an_algebraic_entry_is_compared_exactly_and_outside_a_domain_is_outside():
    import symengine as se

    root = Algebraic(se.sqrt(2) - se.sqrt(3))  # < 0: γ is declared positive
    read = reading.read(_as_printed(), {"y": [1, 2], "gamma": root, "beta": 0})
    assert read.verdict == reading.OUTSIDE and "gamma is not positive" in read.detail
    assert Algebraic(se.sqrt(2) * se.sqrt(8)) == 4 and not Algebraic(se.sqrt(2)) > Algebraic(se.Rational(3, 2))
