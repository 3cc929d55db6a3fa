"""Red team of the checker refactor (issue 25, session 29): sealed forged certificates
aimed at the code the refactor merged, each next to its honest neighbour, which must be
accepted (so that the forgery is rejected for what it forges, not for its format).

The differential campaign behind them is bench/checker_differential.py (the checker at
the session's start, 1f4f438, against the checker now, on every committed and gallery
certificate and their mutants): it found no verdict difference and no crash.  These are
the merged places a careless merge would open, as documents:

- the sign table that scalar steps and a vector step's entries now share
  (nonnegative.Manifest): -y for a positive vector y is not >= 0;
- the derivative by a scalar input, now the gradient's ONE coordinate
  (symbolic_length.Algebra.derivative), through a product and through a square root;
- every_d.py, which now reads with proof.py's readers and writes with instantiate.write:
  a sum over the wrong axis, and each family's program under the other's method;
- the existential readers (exists_witnesses.py, exists_hint.py): a hint whose outputs
  are not a witness, an obligation of the hint dropped, a case proved "every-d".
"""

import copy
import json
from pathlib import Path

import pytest

from bnproof.checker import check_bytes
from tamper import seal

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "redteam_session28"


def verdict(doc: dict) -> tuple[bool, str]:
    return check_bytes(json.dumps(seal(doc)).encode(), "doc")


def accepted(doc: dict) -> str:
    ok, line = verdict(doc)
    assert ok, line
    return line


def rejected(doc: dict, *fragments: str) -> str:
    ok, line = verdict(doc)
    assert not ok, f"a forgery was accepted: {line}"
    assert "internal checker error" not in line, line
    assert any(f in line for f in fragments), line
    return line


def proof_doc(cid, kind, variables, inputs, steps, residual, proof, witness, hypotheses=()):
    return {
        "format": "bnproof-certificate", "version": 2, "bnproof_version": "0.1.0", "kind": "proof",
        "claim": {"id": f"redteam29/{cid}", "kind": kind, "source": "red team, session 29",
                  "statement": cid, "variables": variables},
        "fixed": {},
        "program": {"inputs": inputs, "steps": steps, "residual": residual,
                    "hypotheses": list(hypotheses), "kind": "identity" if kind == "identity" else "inequality",
                    "strict": kind == "strict-inequality"},
        "proof": proof, "witness": witness,
    }


# --- the shared sign table: a vector's entries --------------------------------------------

def _sum_of(steps):
    y = [{"name": "y", "shape": ["m"], "domain": "positive"}]
    return proof_doc("sum-sign", "inequality", y, [["y", "vector", "positive"]], steps, len(steps) - 1,
                     {"method": "nonnegative", "denominator": [], "steps": [],
                      "terms": [{"coefficient": "1", "factors": [len(steps) - 1]}]},
                     {"m": 2, "inputs": {"y": ["1", "2"]}})


def test_sum_of_a_positive_vector_is_manifestly_nonnegative():
    accepted(_sum_of([["input", "y"], ["sum", 0]]))


@pytest.mark.parametrize("steps", [
    [["input", "y"], ["neg", 0], ["sum", 1]],                        # sum(-y) >= 0
    [["input", "y"], ["neg", 0], ["pow", 1, 3], ["sum", 2]],         # sum((-y)^3) >= 0
    [["input", "y"], ["ones"], ["sub", 1, 0], ["sum", 2]],           # sum(1 - y) >= 0
    [["input", "y"], ["const", "-1"], ["mul", 1, 0], ["sum", 2]],    # sum(-1 * y) >= 0
], ids=["neg", "odd-power-of-neg", "ones-minus", "negative-scalar-times"])
def test_a_vector_of_unknown_sign_is_not_manifestly_nonnegative(steps):
    rejected(_sum_of(steps), "not manifestly", "not nonnegative", "manifestly")


# --- the derivative by a scalar input ----------------------------------------------------

ROOT_STEPS = [["input", "y"], ["input", "c"], ["mul", 0, 0], ["sum", 2], ["mul", 1, 1], ["add", 4, 3],
              ["sqrt", 5], ["grad", 6, 1]]  # step 7: d/dc sqrt(c^2 + sum y^2)
PRODUCT_STEPS = [["input", "y"], ["input", "c"], ["sum", 0], ["mul", 1, 2], ["grad", 3, 1],
                 ["mul", 0, 0], ["sum", 5]]  # step 4: d/dc (c sum y); 2: sum y; 6: sum y^2


def _derivative(extra_steps, residual, base=ROOT_STEPS):
    variables = [{"name": "y", "shape": ["m"], "domain": "real"}, {"name": "c", "shape": [], "domain": "real"}]
    steps = base + extra_steps
    return proof_doc("derivative", "identity", variables, [["y", "vector", "real"], ["c", "scalar", "real"]],
                     steps, residual, {"method": "zero"}, {"m": 2, "inputs": {"y": ["1", "2"], "c": "1"}})


def test_the_derivative_of_a_root_by_a_scalar_input():
    # d/dc sqrt(c^2 + sum y^2) = c / sqrt(c^2 + sum y^2)
    accepted(_derivative([["div", 1, 6], ["sub", 7, 8]], 9))


@pytest.mark.parametrize("extra, residual", [
    ([["const", "1"], ["div", 8, 6], ["sub", 7, 9]], 10),   # ... = 1 / sqrt(...)
    ([["div", 1, 6], ["add", 7, 8]], 9),                     # ... = -c / sqrt(...)
    ([], 7),                                                 # ... = 0
], ids=["one-over-root", "wrong-sign", "zero"])
def test_a_wrong_derivative_by_a_scalar_input_is_rejected(extra, residual):
    rejected(_derivative(extra, residual), "normal form is not 0")


def test_the_product_rule_by_a_scalar_input():
    accepted(_derivative([["sub", 4, 2], ["add", 7, 6], ["sub", 8, 6]], 9, PRODUCT_STEPS))


@pytest.mark.parametrize("extra, residual", [
    ([["sub", 4, 6], ["add", 7, 2], ["sub", 8, 2]], 9),  # d/dc (c sum y) = sum y^2
    ([["sub", 4, 1], ["add", 7, 6], ["sub", 8, 6]], 9),  # ... = c
    ([["add", 4, 2], ["add", 7, 6], ["sub", 8, 6]], 9),  # ... = -sum y
], ids=["sum-of-squares", "the-variable", "wrong-sign"])
def test_a_wrong_product_rule_is_rejected(extra, residual):
    rejected(_derivative(extra, residual, PRODUCT_STEPS), "normal form is not 0")


# --- every-d: its readers and writer are the every-m family's now ------------------------

def _every_d(tail):
    X = [{"name": "X", "shape": ["m", "d"], "domain": "real"}]
    steps = [["input", "X"], ["mul", 0, 0], ["sum", 1, 0], ["sum", 2, 0]] + tail  # step 3: sum of all X_ij^2
    return proof_doc("sum-axes", "identity", X, [["X", "matrix", "real"]], steps, len(steps) - 1,
                     {"method": "every-d"}, {"m": 2, "d": 2, "inputs": {"X": [["1", "2"], ["3", "-1"]]}})


def test_a_double_sum_in_either_order():
    accepted(_every_d([["sum", 1, 1], ["sum", 4, 0], ["sub", 3, 5]]))


@pytest.mark.parametrize("tail", [
    [["sum", 0, 0], ["mul", 4, 4], ["sum", 5, 0], ["sub", 3, 6]],    # sum_j (sum_i X_ij)^2
    [["sum", 0, 1], ["mul", 4, 4], ["sum", 5, 0], ["sub", 3, 6]],    # sum_i (sum_j X_ij)^2
    [["transpose", 1], ["sum", 4, 0], ["sum", 5, 0], ["sub", 3, 6], ["sub", 7, 3]],  # 0 = -sum X^2
], ids=["columns-squared", "rows-squared", "minus-itself"])
def test_a_sum_over_the_wrong_axis_is_rejected(tail):
    rejected(_every_d(tail), "normal form is not 0")


def test_an_every_d_program_is_not_read_as_every_m():
    doc = _every_d([["sum", 1, 1], ["sum", 4, 0], ["sub", 3, 5]])
    doc["proof"] = {"method": "zero"}
    rejected(doc, "fixed", "program.", "witness", "claim.")


def test_an_every_m_program_is_not_read_as_every_d():
    doc = _derivative([["div", 1, 6], ["sub", 7, 8]], 9)
    doc["proof"] = {"method": "every-d"}
    doc["witness"]["d"] = 1
    rejected(doc, "claim.variables", "program.")


def test_an_every_d_witness_of_the_wrong_shape_is_rejected():
    doc = _every_d([["sum", 1, 1], ["sum", 4, 0], ["sub", 3, 5]])
    doc["witness"]["inputs"]["X"] = ["1", "2"]
    rejected(doc, "witness.inputs.X")
    doc["witness"]["inputs"]["X"] = [["1", "2"], ["3", "-1"]]
    doc["witness"]["d"] = 3
    rejected(doc, "witness.inputs.X")


# --- existential readers -----------------------------------------------------------------

def _fixture(name):
    return json.loads((FIXTURES / name).read_text())


def test_the_committed_existential_fixtures_are_accepted():
    for name in ("sigma3.witnesses.json", "recover.proof.json", "cauchy-schwarz.proof.json"):
        accepted(_fixture(name))


def test_a_hint_whose_outputs_are_no_witness_is_rejected():
    doc = _fixture("sigma3.witnesses.json")
    part = doc["parts"][0]
    bad = copy.deepcopy(part["hints"][0])
    bad["outputs"] = [bad["outputs"][0]] * len(bad["outputs"])  # p = (a, a, a): sigma(p) = 0, not t
    part["hints"].append(bad)
    part["witnessed"][1]["hint"] = len(part["hints"]) - 1
    rejected(doc, "residual", "witnessed[1]")


def test_a_hint_moved_to_another_part_is_rejected():
    doc = _fixture("sigma3.witnesses.json")
    other = copy.deepcopy(doc["parts"][0])
    other["hints"] = []
    doc["parts"].append(other)
    rejected(doc, "hint")


def test_an_obligation_of_the_hint_dropped_is_rejected():
    doc = _fixture("recover.proof.json")
    defined = doc["claim"]["exists"]["defined"]
    for k in range(len(defined)):
        forged = copy.deepcopy(doc)
        del forged["claim"]["exists"]["defined"][k]
        rejected(forged, "claim.exists.defined")


def test_a_case_of_a_sum_of_squares_is_not_proved_every_d():
    doc = _fixture("cauchy-schwarz.proof.json")
    assert doc["proof"]["method"] == "sos" and doc["proof"]["cases"]
    for method in ("every-d", "moments-n", "substitution"):
        forged = copy.deepcopy(doc)
        forged["proof"]["cases"][0]["proof"] = {"method": method}
        rejected(forged, "method", "proof")


def test_a_universal_variable_named_by_a_list_is_rejected_not_a_crash():
    # found by bench/checker_differential.py: at 1f4f438 the existential marking's check
    # hashed the universal names, and a list there was "internal checker error: TypeError"
    doc = _fixture("inverse-defined.proof.json")
    assert "exists" in doc["claim"]
    var = doc["claim"]["variables"][0]
    var["name"], var["shape"] = var["shape"], var["name"]
    rejected(doc, "claim.variables[0]")
