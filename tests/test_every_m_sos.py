"""Sums of squares for every m (issue 23, pattern 5): Cauchy–Schwarz-type bounds found by
Gram–Schmidt over the batch vectors or by an exact LDLᵀ (symbolic_m/sos.py), certified
with the proof method "sos" whose pivots that may be 0 each have a case
(checker/sos.py).  The checker expands every Σ q∘q itself and re-derives every sign
from the domains and hypotheses; forged certificates (a square dropped, a sign flipped,
a denominator of unknown sign, the case B = 0 missing) are rejected; a hostile claim
ends "not proved" within the search's work units."""

from __future__ import annotations

import copy
import re
import importlib.util
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.checker.symbolic_program import read_steps
from bnproof.claims import Claim, Var
from bnproof.symbolic_m import sos
from bnproof.symbolic_m.prove import attempt
from tests.tamper import seal

ROOT = Path(__file__).resolve().parents[1]


def _gallery():
    spec = importlib.util.spec_from_file_location("every_m_inequalities",
                                                  ROOT / "docs" / "examples" / "every_m_inequalities.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


G = _gallery()
TRUE = ["CAUCHY_SCHWARZ", "AM_GM", "GRAM_DETERMINANT", "TWO_GAPS", "COVARIANCE", "REGRESSION", "MEAN_SQUARE", "BN_NORM_BOUND", "BN_EPS_PROJECTION", "TWO_SQUARES"]
# each near miss beside the true claim it misses: the pair fails unless the search proves
# the one and not the other
NEAR = {"REVERSED": "CAUCHY_SCHWARZ", "TWO_GAPS_TWICE": "TWO_GAPS", "FACTOR_TWO": "CAUCHY_SCHWARZ", "AM_GM_QUARTER": "AM_GM",
        "UNBIASED_COVARIANCE": "COVARIANCE", "REGRESSION_HALF": "REGRESSION", "BN_EPS_MINUS_ONE": "BN_EPS_PROJECTION",
        "BN_NORM_BOUND_MINUS_ONE": "BN_NORM_BOUND"}

_PROOFS: dict = {}


def proved(name: str):
    if name not in _PROOFS:
        _PROOFS[name] = attempt(getattr(G, name))
    return _PROOFS[name]


@pytest.mark.parametrize("name", TRUE)
def test_gallery_claims_are_proved_and_accepted(name):
    result = proved(name)
    assert result.proved, result.reason
    assert "proved for every m" in check_document(result.document)


@pytest.mark.parametrize("name", ["CAUCHY_SCHWARZ", "AM_GM", "GRAM_DETERMINANT", "COVARIANCE",
                                  "BN_EPS_PROJECTION"])
def test_a_pivot_that_may_be_0_has_its_case(name):
    result = proved(name)
    proof = result.proof
    assert proof["method"] == "sos" and proof["cases"], proof
    assert re.search("cases? for a pivot that may be 0", check_document(result.document))
    steps = result.program["steps"] + proof["steps"]
    for case in proof["cases"]:
        assert steps[case["pivot"]][0] == "sum"  # Σ q∘q: a sum of squares, not a number


def test_cauchy_schwarz_is_a_product_of_two_sums_of_squares():
    proof = proved("CAUCHY_SCHWARZ").proof
    (term,) = proof["terms"]
    steps = proved("CAUCHY_SCHWARZ").program["steps"] + proof["steps"]
    assert term["coefficient"] == "1" and len(term["factors"]) == 2
    assert all(steps[f][0] == "sum" for f in term["factors"])  # ‖b‖² · ‖a − ℓb‖²


@pytest.mark.parametrize("near", NEAR)
def test_near_misses_are_not_proved(near):
    assert proved(NEAR[near]).proved
    result = proved(near)
    assert not result.proved and result.document is None
    assert "no manifestly nonnegative decomposition" in result.reason


@pytest.mark.parametrize("near", NEAR)
def test_near_misses_are_refuted_by_fuzz(near, tmp_path):
    assert proved(NEAR[near]).proved
    result = bnproof.fuzz(getattr(G, near), out_dir=tmp_path, seed=0, max_examples=60,
                          time_budget=60, jax=False)
    assert result.verdict == "refuted", result.reason


# --- forged certificates, sealed with a valid digest ---------------------------------------

def _forge(name, change):
    forged = copy.deepcopy(proved(name).document)
    change(forged["proof"])
    return seal(forged)


def test_a_square_dropped_is_rejected():
    def drop(proof):
        assert len(proof["terms"]) == 2  # (Σy − Σz)² + (Σyz)²
        proof["terms"].pop()
    with pytest.raises(Rejected, match="does not reduce to 0"):
        check_document(_forge("TWO_SQUARES", drop))


def test_a_square_dropped_from_a_cauchy_schwarz_term_is_rejected():
    def drop(proof):  # ‖b‖²·‖a − ℓb‖² made ‖b‖² alone
        proof["terms"][0]["factors"].pop()
    with pytest.raises(Rejected, match="does not reduce to 0"):
        check_document(_forge("CAUCHY_SCHWARZ", drop))


@pytest.mark.parametrize("name", ["CAUCHY_SCHWARZ", "TWO_SQUARES"])
def test_a_coefficient_sign_flipped_is_rejected(name):
    def flip(proof):
        proof["terms"][0]["coefficient"] = "-" + proof["terms"][0]["coefficient"]
    with pytest.raises(Rejected, match="coefficient is not > 0"):
        check_document(_forge(name, flip))


def test_the_case_b_0_missing_is_rejected():
    def no_case(proof):  # the same decomposition, dividing by ‖b‖² with nothing for b = 0
        proof["method"] = "nonnegative"
        del proof["cases"]
    with pytest.raises(Rejected, match="not manifestly > 0"):
        check_document(_forge("CAUCHY_SCHWARZ", no_case))

    def empty(proof):
        proof["cases"] = []
    with pytest.raises(Rejected, match="none given"):
        check_document(_forge("CAUCHY_SCHWARZ", empty))


def test_a_case_whose_pivot_is_no_sum_of_squares_is_rejected():
    def other(proof):  # a pivot Σa²·Σb², a product: nothing says it is 0 only at a = 0
        assert proved("CAUCHY_SCHWARZ").program["steps"][6] == ["mul", 3, 5]
        proof["cases"].append({"pivot": 6, "input": "a", "proof": {"method": "zero"}})
    with pytest.raises(Rejected, match="not a sum of squares"):
        check_document(_forge("CAUCHY_SCHWARZ", other))


def test_a_case_for_another_input_is_rejected():
    def swap(proof):  # the pivot ‖x − x̄‖² put x, not y, in the span of the others
        case = proof["cases"][0]
        case["input"] = "y" if case["input"] == "x" else "x"
    with pytest.raises(Rejected, match="not a nonzero number times the input"):
        check_document(_forge("COVARIANCE", swap))


def test_three_vectors_have_a_case_for_each_pivot_they_divide_by():
    proof = proved("GRAM_DETERMINANT").proof
    assert len(proof["cases"]) == 2 and {c["proof"]["method"] for c in proof["cases"]} == {"zero"}


def test_a_constant_batch_under_bn_eps_is_its_own_case():
    # y = λ·1: BN_ε(y) = 0, and the residual m·Σz² is proved ≥ 0 in the case by itself
    (case,) = proved("BN_EPS_PROJECTION").proof["cases"]
    assert case["input"] == "y" and case["proof"]["method"] == "nonnegative"

    def zero(proof):
        proof["cases"][0]["proof"] = {"method": "zero"}
    with pytest.raises(Rejected, match="in this case is not 0"):
        check_document(_forge("BN_EPS_PROJECTION", zero))


def test_a_case_outside_the_claim_is_undefined_there():
    # x = λ·1: the claim divides by var(x) = 0, so no instance of the case is in it
    (case,) = proved("REGRESSION").proof["cases"]
    assert case["input"] == "x" and case["proof"] == {"method": "undefined"}

    def zero(proof):
        proof["cases"][0]["proof"] = {"method": "zero"}
    with pytest.raises(Rejected, match="undefined in this case"):
        check_document(_forge("REGRESSION", zero))


def test_a_bound_with_roots_divides_by_twice_the_root_and_has_the_case_z_0():
    # √m‖z‖ − ⟨ŷ, z⟩: 2ρ·N = (ρ² − C²) + (ρ − C)², ρ = √m·‖z‖·σ > 0 once z = 0 is a case
    result = proved("BN_NORM_BOUND")
    cases = {c["input"]: c["proof"]["method"] for c in result.proof["cases"]}
    assert cases == {"z": "zero", "y": "undefined"}

    def no_z(proof):
        proof["cases"] = [c for c in proof["cases"] if c["input"] != "z"]
    with pytest.raises(Rejected, match="not manifestly > 0"):
        check_document(_forge("BN_NORM_BOUND", no_z))

    def drop(proof):  # the term (ρ − C)², the last
        proof["terms"].pop()
    with pytest.raises(Rejected, match="does not reduce to 0"):
        check_document(_forge("BN_NORM_BOUND", drop))


def test_cases_have_cases_and_read_the_case_scalars():
    # b = λ·a: the residual there is λ²·(Σa²Σc² − (Σa∘c)²), a case proof of its own (method
    # "sos", with the case a = 0 in it) whose factor λ² reads λ at the step after the program's
    result = proved("TWO_GAPS")
    program = result.program
    (case,) = [c for c in result.proof["cases"] if c["input"] == "b"]
    inner = case["proof"]
    assert inner["method"] == "sos" and inner["cases"]
    lam = len(program["steps"])  # the case's one scalar λ (b = λ·a)
    squares = [i for i, s in enumerate(inner["steps"]) if s == ["pow", lam, 2]]
    assert squares, inner["steps"]

    def odd(proof):  # λ² made λ: λ has no sign
        (c,) = [c for c in proof["cases"] if c["input"] == "b"]
        c["proof"]["steps"][squares[0]][2] = 1
    with pytest.raises(Rejected, match="not manifestly >= 0"):
        check_document(_forge("TWO_GAPS", odd))


def test_a_case_proof_that_divides_by_0_there_is_rejected():
    def nested(proof):  # the main proof again inside the case b = 0: it divides by Σb² = 0 there
        proof["cases"][0]["proof"] = copy.deepcopy(proof)
    with pytest.raises(Rejected, match="divides by a value whose normal form is 0 in this case"):
        check_document(_forge("CAUCHY_SCHWARZ", nested))


def test_cases_of_cases_are_bounded_in_depth():
    from bnproof.checker.sos import MAX_DEPTH, check_case
    from bnproof.checker.symbolic_program import read_inputs

    program = _cauchy_schwarz_program()
    inputs = read_inputs(program["inputs"])
    types: list = []
    ops = read_steps(program["steps"], inputs, types, "steps")
    deep = tuple(("b", []) for _ in range(MAX_DEPTH))
    with pytest.raises(Rejected, match=f"cases at most {MAX_DEPTH} deep"):
        check_case({"method": "sos"}, inputs, ops, types, {}, 10, set(), set(), frozenset(), deep, "case")


def test_too_many_cases_are_refused():
    def many(proof):
        proof["cases"] = proof["cases"] * 9
    with pytest.raises(Rejected, match="proof.cases"):
        check_document(_forge("CAUCHY_SCHWARZ", many))


def test_a_case_said_undefined_where_the_program_is_defined_is_rejected():
    def undefined(proof):
        proof["cases"][0]["proof"] = {"method": "undefined"}
    with pytest.raises(Rejected, match="defined in this case"):
        check_document(_forge("CAUCHY_SCHWARZ", undefined))


# --- hand-written: R·B = Σ q∘q needs B > 0, or a case for B = 0 -----------------------------

def _document(steps, residual, scalars=()):
    from bnproof.certificate.proof import document

    program = {"inputs": [["a", "vector", "real"], ["b", "vector", "real"]]
               + [[s, "scalar", "real"] for s in scalars],
               "steps": steps, "residual": residual, "hypotheses": [], "kind": "inequality", "strict": False}
    body = {"id": "me/cauchy-schwarz", "source": "a test", "statement": "x \\ge 0", "kind": "inequality",
            "variables": [{"name": "a", "shape": ["m"], "domain": "real"},
                          {"name": "b", "shape": ["m"], "domain": "real"}]
            + [{"name": s, "shape": [], "domain": "real"} for s in scalars]}
    witness = {"m": 2, "inputs": {"a": ["1", "2"], "b": ["3", "-1"], **{s: "1" for s in scalars}}}
    return document(body, program, proof_of[0], witness)


proof_of = [None]

# R = Σa²·Σb² − (Σab)² (step 10); q = a·B − b·C (steps 11..13), Σq² (15): R·B = Σq², B = Σb² (5)
def _cauchy_schwarz_program():
    return {"inputs": [["a", "vector", "real"], ["b", "vector", "real"]], "steps": _CS, "residual": 10,
            "hypotheses": [], "kind": "inequality", "strict": False}


_CS = [["input", "a"], ["input", "b"], ["mul", 0, 0], ["sum", 2], ["mul", 1, 1], ["sum", 4],
       ["mul", 3, 5], ["mul", 0, 1], ["sum", 7], ["pow", 8, 2], ["sub", 6, 9]]
_LAGRANGE = [["mul", 5, 0], ["mul", 8, 1], ["sub", 11, 12], ["mul", 13, 13], ["sum", 14]]


def _cs(proof):
    proof_of[0] = proof
    return _document(_CS, 10)


def test_a_denominator_whose_sign_is_not_established_is_rejected_and_its_case_establishes_it():
    proof = {"method": "nonnegative", "steps": _LAGRANGE,
             "terms": [{"coefficient": "1", "factors": [15]}], "denominator": [5]}
    with pytest.raises(Rejected, match="step 5 is not manifestly > 0"):
        check_document(_cs(proof))  # B = Σb² is 0 at b = 0, where the program is defined
    proof = {**proof, "method": "sos",
             "cases": [{"pivot": 5, "input": "b", "proof": {"method": "zero"}}]}
    assert "with 1 case" in check_document(_cs(proof))  # b = 0 proved apart: R = 0 there


def test_a_pivot_whose_vector_is_not_the_input_plus_others_is_rejected():
    # Σq² with q = a·B − b·C: its coefficient of a is B, a batch sum, so Σq² = 0 does not put a
    # in the span of the other vectors
    proof = {"method": "sos", "steps": _LAGRANGE, "terms": [{"coefficient": "1", "factors": [15]}],
             "denominator": [5], "cases": [{"pivot": 5, "input": "b", "proof": {"method": "zero"}},
                                           {"pivot": 15, "input": "a", "proof": {"method": "zero"}}]}
    with pytest.raises(Rejected, match="not a nonzero number times the input"):
        check_document(_cs(proof))


# R = Σa²·Σb² + 2·Σab·s + s² (step 15) with R·B = Σ(a·B + b·s)²: at b = 0, R = s², not 0
_SHIFTED = [["input", "a"], ["input", "b"], ["input", "s"], ["mul", 0, 0], ["sum", 3], ["mul", 1, 1],
            ["sum", 5], ["mul", 4, 6], ["mul", 0, 1], ["sum", 8], ["mul", 9, 2], ["const", "2"],
            ["mul", 11, 10], ["pow", 2, 2], ["add", 7, 12], ["add", 14, 13]]


def _shifted(case_proof):
    proof_of[0] = {"method": "sos",
                   "steps": [["mul", 6, 0], ["mul", 2, 1], ["add", 16, 17], ["mul", 18, 18], ["sum", 19]],
                   "terms": [{"coefficient": "1", "factors": [20]}], "denominator": [6],
                   "cases": [{"pivot": 6, "input": "b", "proof": case_proof}]}
    return _document(_SHIFTED, 15, ("s",))


def test_a_case_said_zero_that_is_not_is_rejected():
    with pytest.raises(Rejected, match="in this case is not 0"):
        check_document(_shifted({"method": "zero"}))


def test_a_case_proved_nonnegative_in_its_own_right_is_accepted():
    square = {"method": "nonnegative", "steps": [["pow", 2, 2]],
              "terms": [{"coefficient": "1", "factors": [16]}], "denominator": []}
    assert "with 1 case" in check_document(_shifted(square))


# --- hostile sizes: bounded by work units, never by the clock ---------------------------------

def _many_scalars(n):
    names = [f"c{k}" for k in range(n)]

    def residual(xp, **kw):  # Σ (c_k − c_{k+1})², written out: no square by its form
        cs = [kw[c] for c in names]
        return sum(cs[k] * cs[k] - 2 * cs[k] * cs[k + 1] + cs[k + 1] * cs[k + 1] for k in range(n - 1))
    return Claim(id="me/many-squares", source="a test", statement="x \\ge 0",
                 variables=tuple(Var(c) for c in names), sizes={"m": (2, 3)}, residual=residual)


def _many_vectors(n):
    def residual(xp, **kw):  # Σ over pairs of Cauchy–Schwarz: true, but a Gram basis of n vectors
        vs = [kw[f"v{k}"] for k in range(n)]
        out = 0
        for i in range(n):
            for j in range(i + 1, n):
                out = out + xp.sum(vs[i] * vs[i]) * xp.sum(vs[j] * vs[j]) - xp.sum(vs[i] * vs[j]) ** 2
        return out
    return Claim(id="me/many-vectors", source="a test", statement="x \\ge 0",
                 variables=tuple(Var(f"v{k}", ("m",)) for k in range(n)), sizes={"m": (2, 3)},
                 residual=residual)


def test_a_huge_gram_matrix_is_not_proved_within_its_bound():
    result = attempt(_many_scalars(sos.MAX_GRAM + 6), certify=False)
    assert not result.proved
    assert "Gram matrix has" in result.reason and f"at most {sos.MAX_GRAM}" in result.reason
    assert sos.LAST["work"] <= sos.MAX_WORK


def test_a_numerator_too_large_to_write_out_is_not_proved_within_its_bound():
    # each decomposition found is written out and replayed, which costs more than the search
    result = attempt(_many_scalars(sos.MAX_NUMERATOR), certify=False)
    assert not result.proved
    assert f"numerators of at most {sos.MAX_NUMERATOR} terms" in result.reason


def test_a_small_one_of_the_same_form_is_proved():
    result = attempt(_many_scalars(4))
    assert result.proved, result.reason
    assert "proved for every m" in check_document(result.document)


def test_too_many_vectors_is_not_proved_within_its_bound():
    result = attempt(_many_vectors(sos.MAX_VECTORS + 2), certify=False)
    assert not result.proved
    assert f"Gram basis has {sos.MAX_VECTORS + 2} vectors (at most {sos.MAX_VECTORS}" in result.reason


def test_the_work_bound_stops_the_search():
    from bnproof.symbolic_m.algebra import TooLarge
    from bnproof.symbolic_m.evaluate import Replay
    from bnproof.symbolic_m.trace import program_for

    program = program_for(G.COVARIANCE, {})
    with pytest.raises(TooLarge, match="more than 20 work units"):
        sos.sos_proof(Replay(program), program, False, sos.Budget(20))
    assert sos.LAST["work"] <= 20 + 200  # the unit charged last may overshoot by one product
    found = sos.sos_proof(Replay(program), program, False, sos.Budget())
    assert found is not None and sos.LAST["work"] < sos.MAX_WORK
