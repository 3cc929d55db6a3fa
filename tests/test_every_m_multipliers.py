"""Equality hypotheses that fix no scalar, used as multipliers (issue 23, pattern 7): the
residual's numerator N = Σ q_j·N_j as polynomials in the atoms, found by the prover
(symbolic_m/equalities.py, with sympy) and checked by the checker's own algebra
(checker/substitution.py).  A product Σy·Σz = 0 ("one of the two batches is centered")
fixes neither sum, so no substitution uses it."""

from __future__ import annotations

import copy

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.symbolic_m.prove import attempt
from tests.tamper import seal

YZ = (Var("y", ("m",)), Var("z", ("m",)))


def _cov(xp, y, z):
    return xp.mean((y - xp.mean(y)) * (z - xp.mean(z)))


def _claim(name, residual, equality):
    return Claim(id=f"t/multipliers/{name}", source="t", statement="s", kind="identity", variables=YZ,
                 sizes={"m": (2, 5)}, equalities=(equality,), residual=residual)


ONE_CENTERED = lambda xp, y, z: xp.sum(y) * xp.sum(z)  # noqa: E731
COV = _claim("cov", lambda xp, y, z: _cov(xp, y, z) - xp.mean(y * z), ONE_CENTERED)
COV_SQUARED = _claim("cov-squared", lambda xp, y, z: _cov(xp, y, z) ** 2 - xp.mean(y * z) ** 2, ONE_CENTERED)


@pytest.fixture(scope="module")
def proved():
    out = {}
    for claim in (COV, COV_SQUARED):
        result = attempt(claim)
        assert result.proved, result.reason
        out[claim.id] = result
    return out


def forged(doc: dict, change) -> dict:
    doc = copy.deepcopy(doc)
    change(doc)
    return seal(doc)


def test_a_product_equality_is_used_as_a_multiplier_and_the_checker_accepts(proved):
    for result in proved.values():
        assert "multipliers" in result.proof and len(result.proof["multipliers"]) == 1
        assert "proved for every m" in check_document(result.document)


def test_a_multiplier_that_is_not_a_number(proved):
    """cov² − mean(yz)² = (cov − mean(yz))(cov + mean(yz)): its multiplier holds sums."""
    proof = proved[COV_SQUARED.id].proof
    assert any(step[0] == "mul" for step in proof["steps"])


def test_near_misses_are_not_proved(proved):
    one = _claim("cov-one", COV.residual, lambda xp, y, z: xp.sum(y) * xp.sum(z) - 1)
    result = attempt(one)
    assert not result.proved and "no combination" in result.reason
    swapped = _claim("cov-swapped", lambda xp, y, z: _cov(xp, y, z) - xp.mean(y) * xp.mean(z), ONE_CENTERED)
    assert not attempt(swapped).proved
    assert proved[COV.id].proved


def test_a_wrong_multiplier_is_rejected(proved):
    doc = proved[COV.id].document

    def change(d):
        d["proof"]["steps"][0] = ["const", "1"]  # N = −ΣyΣz/…: the multiplier is −1, not 1
    assert doc["proof"]["steps"][0] == ["const", "-1"]
    with pytest.raises(Rejected, match="not the multipliers' combination"):
        check_document(forged(doc, change))


def test_a_multiplier_that_divides_is_rejected(proved):
    doc = proved[COV.id].document
    n = len(doc["program"]["steps"])

    def change(d):
        d["proof"]["steps"] += [["div", n, n]]
        d["proof"]["multipliers"] = [n + 1]
    with pytest.raises(Rejected, match="no division, no root"):
        check_document(forged(doc, change))


def test_a_multiplier_for_a_missing_equality_is_rejected(proved):
    doc = proved[COV.id].document

    def change(d):
        d["proof"]["multipliers"] = d["proof"]["multipliers"] * 2
    with pytest.raises(Rejected):
        check_document(forged(doc, change))
