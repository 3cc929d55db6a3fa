"""Forged proof certificates, resealed with a valid digest (tests/tamper.py's seal), are
rejected: false identities, bad decompositions, smuggled steps, hostile sizes, broken
witnesses, relabelled kinds and names.  Every mutant starts from a certificate the
checker accepts, so each rejection is the mutation's doing."""

from __future__ import annotations

import copy

import pytest

from bnproof.checker import Rejected, check_document
from tests.tamper import seal
from tests.test_checker_proof import WITNESS, Y, ProgramBuilder, cauchy, certificate, claim, theorem_41


def rejected(doc, match=None):
    with pytest.raises(Rejected, match=match):
        check_document(seal(doc))


def mutated(doc, fn):
    doc = copy.deepcopy(doc)
    fn(doc)
    return doc


def test_the_originals_are_accepted():
    check_document(certificate(theorem_41()))
    check_document(cauchy())
    check_document(cauchy(strict=True))


# --- false identities with method zero, near misses included ---------------------

@pytest.mark.parametrize("program", [theorem_41("1/sqrt(m)"), theorem_41("2/m"),
                                     theorem_41(variance="unbiased")], ids=["sqrt-m", "2-over-m", "unbiased"])
def test_near_miss_identities_are_not_proved(program):
    rejected(certificate(program), "not 0")


def test_sum_squared_is_not_m_times_sum_of_squares():
    b = ProgramBuilder(Y)
    y = b.input("y")
    r = b.sub(b.pow(b.sum(y), 2), b.mul(b.m(), b.sum(b.mul(y, y))))
    rejected(certificate(b.program(r), body=claim(names=("y",)), witness={"m": 2, "inputs": {"y": ["0", "1"]}}),
             "not 0")


def test_a_changed_constant_in_the_program():
    doc = certificate(theorem_41())
    k = next(i for i, s in enumerate(doc["program"]["steps"]) if s[0] == "const")
    rejected(mutated(doc, lambda d: d["program"]["steps"].__setitem__(k, ["const", "2"])), "not 0")


def only_at_two():
    """m S[(y - mu)^2] = 2 S[y^2] - S[y]^2: true at m = 2, false at every other m
    ((y1 - y2)^2 = 2 S[(y - mu)^2] at m = 2 only: written with m it is no identity)."""
    b = ProgramBuilder(Y)
    y, m = b.input("y"), b.m()
    yc = b.sub(y, b.div(b.sum(y), m))
    r = b.sub(b.mul(m, b.sum(b.mul(yc, yc))), b.sub(b.mul(b.const("2"), b.sum(b.mul(y, y))),
                                                 b.pow(b.sum(y), 2)))
    return certificate(b.program(r), body=claim(names=("y",)), witness={"m": 2, "inputs": {"y": ["0", "1"]}})


def test_an_identity_only_at_m_equal_2_is_not_proved():
    rejected(only_at_two(), "not 0")


# --- the nonnegative decomposition ------------------------------------------------

def test_a_negative_coefficient():
    rejected(mutated(cauchy(), lambda d: d["proof"]["terms"][0].update(coefficient="-1")), "not > 0")


def test_a_factor_that_is_not_manifestly_nonnegative():
    def sum_of_non_square(d):  # sum(y): not a sum of squares
        d["proof"]["steps"].append(["sum", 0])
        d["proof"]["terms"][0]["factors"].append(len(d["program"]["steps"]) + len(d["proof"]["steps"]) - 1)

    def difference(d):  # sub(a, b) of two nonnegative steps
        n = len(d["program"]["steps"]) + len(d["proof"]["steps"])
        d["proof"]["steps"].append(["sub", n - 1, n - 1])
        d["proof"]["terms"][0]["factors"].append(n)

    rejected(mutated(cauchy(), sum_of_non_square), "not manifestly >= 0")
    rejected(mutated(cauchy(), difference), "not manifestly >= 0")


def test_a_denominator_that_can_be_zero():
    def denominator(d):  # S[(y - mu)^2] >= 0 but not > 0
        d["proof"]["denominator"] = [len(d["program"]["steps"]) + len(d["proof"]["steps"]) - 1]
    rejected(mutated(cauchy(), denominator), "not manifestly > 0")


def test_a_wrong_decomposition():
    rejected(mutated(cauchy(), lambda d: d["proof"]["terms"][0].update(coefficient="2")), "does not reduce to 0")


def test_a_strict_claim_with_only_nonnegative_terms():
    doc = cauchy(strict=True)
    rejected(mutated(doc, lambda d: d["proof"]["terms"].pop()), "manifestly > 0|does not reduce")
    # the same decomposition, the +1 moved into a factor that is only >= 0: not strict
    def weak(d):
        d["proof"]["terms"][1]["factors"] = [len(d["program"]["steps"]) + len(d["proof"]["steps"]) - 1]
        d["proof"]["terms"][1]["coefficient"] = "1"
    rejected(mutated(doc, weak), "strict claim needs a term")


def test_a_proof_step_that_divides_by_a_value_not_manifestly_positive():
    def divide(d):  # replace mu = S[y]/m by S[y]/S[y]
        start = len(d["program"]["steps"])
        d["proof"]["steps"][1] = ["div", start, start]
    rejected(mutated(cauchy(), divide), "not manifestly > 0")


def test_input_and_grad_smuggled_into_proof_steps():
    rejected(mutated(cauchy(), lambda d: d["proof"]["steps"].append(["input", "y"])), "not allowed")
    rejected(mutated(cauchy(), lambda d: d["proof"]["steps"].append(["grad", 2, 0])), "not allowed")


def test_a_dropped_hypothesis_that_the_decomposition_needs():
    # (S[g]^2 + h) * h >= 0 with h = S[y] a hypothesis used as a factor (a divisor of the
    # program would need no hypothesis: it is nonzero wherever the program is defined)
    b = ProgramBuilder(Y, ["g", "vector", "real"])
    y, g = b.input("y"), b.input("g")
    h = b.sum(y)
    r = b.mul(b.add(b.pow(b.sum(g), 2), h), h)
    program = b.program(r, [h], "inequality")
    n = len(program["steps"])
    proof = {"method": "nonnegative", "steps": [["sum", 1], ["pow", n, 2], ["add", n + 1, h]],
             "terms": [{"coefficient": "1", "factors": [n + 2, h]}], "denominator": []}
    body = claim(kind="inequality", names=("y", "g"))
    good = certificate(program, proof, {"m": 2, "inputs": {"y": ["1", "0"], "g": ["1", "1"]}}, body)
    assert "residual >= 0" in check_document(good)
    rejected(mutated(good, lambda d: d["program"].update(hypotheses=[])), "not manifestly")


# --- structure and hostile sizes ------------------------------------------------------

@pytest.mark.parametrize("step,match", [
    (["add", 5, 99], "earlier step"), (["add", 5, -1], "earlier step"), (["add", 5, True], "earlier step"),
    (["neg", 10**6], "earlier step"), (["pow", 5, 65], "exponent"), (["pow", 5, 1.5], "exponent"),
    (["const", "1" * 300], "longer"), (["const", "0.5"], "canonical"), (["relu", 5], "known operation"),
    (["add", 5], "takes 2"), (["mul", 0, 0], None)])
def test_malformed_steps(step, match):
    doc = certificate(theorem_41())
    rejected(mutated(doc, lambda d: d["program"]["steps"].insert(8, step)), match)


def test_a_forward_reference_and_a_cycle():
    doc = certificate(theorem_41())
    n = len(doc["program"]["steps"])
    rejected(mutated(doc, lambda d: d["program"]["steps"].__setitem__(5, ["neg", 5])), "earlier step")
    rejected(mutated(doc, lambda d: d["program"]["steps"].__setitem__(5, ["neg", n - 1])), "earlier step")
    rejected(mutated(doc, lambda d: d["program"].update(residual=n)), "not the index")


def test_a_type_mismatch_is_a_rejection():
    doc = certificate(theorem_41())  # step 0 is y (V): V / V, sqrt(V), outer(S, S) are not in the fragment
    for step in (["div", 0, 0], ["sqrt", 0], ["outer", 2, 2], ["grad", 2, 2]):
        rejected(mutated(doc, lambda d: d["program"]["steps"].insert(3, step)), "fragment|vector input")


def test_deep_nesting_and_unknown_keys():
    doc = certificate(theorem_41())
    deep = [0]
    for _ in range(200):
        deep = [deep]
    rejected(mutated(doc, lambda d: d["program"]["steps"].append(["neg", deep])), "earlier step")
    rejected(mutated(doc, lambda d: d.update(extra=1)), "unexpected key")
    rejected(mutated(doc, lambda d: d["proof"].update(note="trust me")), "unexpected key")
    rejected(mutated(doc, lambda d: d["program"].update(hypotheses=[0])), "not a scalar")


def test_a_division_by_a_formally_zero_scalar():
    b = ProgramBuilder(Y)
    y, m = b.input("y"), b.m()
    r = b.sub(b.div(b.sum(y), b.sub(m, m)), b.div(b.sum(y), b.sub(m, m)))  # 0 where "defined": nowhere
    rejected(certificate(b.program(r), body=claim(names=("y",)), witness={"m": 2, "inputs": {"y": ["0", "1"]}}),
             "normal form is 0")


def test_a_program_that_blows_up_is_rejected_by_the_limits_not_run_forever(monkeypatch):
    from bnproof.checker import symbolic_length

    # the same mechanism at a twentieth of the limit, so the test is quick
    monkeypatch.setattr(symbolic_length, "MAX_WORK", symbolic_length.MAX_WORK // 20)
    b = ProgramBuilder(Y, ["g", "vector", "real"])
    y, g = b.input("y"), b.input("g")
    x = b.add(b.add(b.sum(y), b.sum(g)), b.add(b.m(), b.sum(b.mul(y, g))))
    for _ in range(8):
        x = b.pow(x, 64)
    rejected(certificate(b.program(b.sub(x, x)), body=claim(names=("y", "g")),
                         witness={"m": 2, "inputs": {"y": ["0", "1"], "g": ["1", "1"]}}),
             "limit")
    v = b.add(y, g)
    for _ in range(12):
        v = b.pow(b.add(v, b.ones()), 3)
    rejected(certificate(b.program(b.sum(v)), body=claim(names=("y", "g")),
                         witness={"m": 2, "inputs": {"y": ["0", "1"], "g": ["1", "1"]}}), "limit")


# --- the witness -------------------------------------------------------------------------

def test_a_witness_outside_the_hypotheses_or_the_domains():
    doc = certificate(theorem_41())
    constant = {"m": 3, "inputs": {**WITNESS["inputs"], "y": ["2", "2", "2"]}}  # sigma = 0
    rejected(mutated(doc, lambda d: d.update(witness=constant)), "division by zero|hypothesis|not positive")
    zero_gamma = {"m": 3, "inputs": {**WITNESS["inputs"], "gamma": "0"}}
    rejected(mutated(doc, lambda d: d.update(witness=zero_gamma)), "domain")
    short = {"m": 3, "inputs": {**WITNESS["inputs"], "y": ["1", "2"]}}
    rejected(mutated(doc, lambda d: d.update(witness=short)), "vector at m = 3")
    rejected(mutated(doc, lambda d: d.update(witness={"m": 10**9, "inputs": WITNESS["inputs"]})), "witness.m")


# --- kinds, names and claims ----------------------------------------------------------

def test_a_kind_swap():
    doc = cauchy()
    rejected(mutated(doc, lambda d: d["claim"].update(kind="identity")), "kind")
    both = mutated(doc, lambda d: (d["claim"].update(kind="identity"), d["program"].update(kind="identity")))
    rejected(both, "identity needs")
    rejected(mutated(doc, lambda d: d.update(kind="refutation")), "proof|missing key")
    strict = mutated(certificate(theorem_41(), body=claim(kind="inequality")),
                     lambda d: d["program"].update(kind="inequality"))
    assert "with equality" in check_document(seal(strict))
    rejected(mutated(strict, lambda d: (d["claim"].update(kind="strict-inequality"),
                                        d["program"].update(strict=True))), "strict")


def test_the_papers_names():
    doc = certificate(theorem_41())
    rejected(mutated(doc, lambda d: d["claim"].update(id="santurkar2018/theorem-4.1")), "refute")
    rejected(mutated(doc, lambda d: d["claim"].update(id="Theorem-4.1/As_Derived")), "reads as")
    rejected(mutated(doc, lambda d: d["claim"].update(id="santurkar2018/theorem-9.9")), "reads as")


def test_declared_variables_bind_the_inputs():
    doc = certificate(theorem_41())
    rejected(mutated(doc, lambda d: d["claim"]["variables"][2].update(domain="positive")), "inputs")
    rejected(mutated(doc, lambda d: d["program"]["inputs"][2].__setitem__(2, "positive")), "inputs")
    rejected(mutated(doc, lambda d: d["claim"]["variables"].pop()), "inputs|witness")


def test_the_digest_still_binds():
    doc = certificate(theorem_41())
    doc["claim"]["statement"] = "x"
    with pytest.raises(Rejected, match="digest"):
        check_document(doc)
    assert check_document(seal(doc))  # resealed, the changed statement is what it binds
