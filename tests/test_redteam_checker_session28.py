"""Red team of the checker's proof methods of session 28 (docs/certificates.md, "Proof
certificates", "Every m and every d", "Witness certificates"): every-d (and its squares),
sos with pivot cases, substitution by multipliers, existential claims proved through a
hint, nested roots, and witness certificates.

Each attack starts from a certificate bnproof wrote for a gallery claim
(tests/redteam_session28/, written by `bnproof prove docs/examples/<gallery>.py` and, for
the witnesses, `bnproof.fuzz` on tests/test_existential_witnesses.py's sigma3 claim), makes
one meaningful change, seals it again (tests/tamper.py's `seal`: anyone can) and asserts
that the checker rejects it.  Where the mutant's claim is false, that is decided here
independently of the checker (SymPy on the program, tests/proof_oracle.py, or exact
Fractions at a point where it fails), so a test that passes because the claim happens to
be true is not counted as a rejection earned."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from bnproof.checker import Rejected, check_document
from bnproof.checker.kernel import check_bytes
from proof_oracle import proof_holds
from tamper import seal

HERE = Path(__file__).resolve().parent / "redteam_session28"


def load(name: str) -> dict:
    suffix = ".witnesses.json" if name.endswith("witnesses") else ".proof.json"
    return json.loads((HERE / (name.removesuffix(".witnesses") + suffix)).read_text(encoding="utf-8"))


def rejected(doc: dict, match: str | None = None) -> str:
    with pytest.raises(Rejected, match=match) as err:
        check_document(seal(copy.deepcopy(doc)))
    return str(err.value)


def accepted(doc: dict) -> str:
    return check_document(seal(copy.deepcopy(doc)))


def add_steps(doc: dict, *steps) -> int:
    """Append program steps; the index of the last."""
    doc["program"]["steps"].extend(copy.deepcopy(list(steps)))
    return len(doc["program"]["steps"]) - 1


# ---------------------------------------------------------------- an independent reading

def values_at(program: dict, m: int, point: dict) -> list:
    """The every-m program at batch size m and the point (name -> Fraction or list), by
    SymPy: exact values; a division by 0 or a root of a negative raises ZeroDivisionError
    or ValueError (the point is then outside the claim)."""
    out = []
    for step in program["steps"]:
        op, args = step[0], step[1:]
        v = [out[a] for a in args] if op not in ("input", "const", "pow") else None
        if op == "input":
            x = point[args[0]]
            out.append([sympy.Rational(e) for e in x] if type(x) is list else sympy.Rational(x))
        elif op == "const":
            out.append(sympy.Rational(Fraction(args[0])))
        elif op == "m":
            out.append(sympy.Integer(m))
        elif op == "ones":
            out.append([sympy.Integer(1)] * m)
        elif op == "pow":
            base, k = out[args[0]], args[1]
            if k < 0:
                _nonzero(base)
            out.append([x ** k for x in base] if type(base) is list else base ** k)
        elif op == "sqrt":
            if v[0] < 0:
                raise ValueError("root of a negative")
            out.append(sympy.sqrt(v[0]))
        elif op == "sum":
            out.append(sum(v[0], sympy.Integer(0)))
        elif op == "neg":
            out.append([-x for x in v[0]] if type(v[0]) is list else -v[0])
        elif op in ("add", "sub", "mul", "div"):
            a, b = v
            if op == "div":
                _nonzero(b)
            f = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
                 "div": lambda x, y: x / y}[op]
            if type(a) is list or type(b) is list:
                a = a if type(a) is list else [a] * m
                b = b if type(b) is list else [b] * m
                out.append([sympy.simplify(f(x, y)) for x, y in zip(a, b)])
            else:
                out.append(sympy.simplify(f(a, b)))
        else:
            raise AssertionError(f"op {op} not read here")
    return out


def _nonzero(x):
    if sympy.simplify(x) == 0:
        raise ZeroDivisionError
    return True


def false_at(doc: dict, m: int, point: dict) -> bool:
    """The certificate's claim (its program) fails at this instance: every step defined,
    every hypothesis > 0, every equality 0, and the residual of the wrong sign."""
    program = doc["program"]
    vals = values_at(program, m, point)
    if any(not sympy.simplify(vals[h]) > 0 for h in program["hypotheses"]):
        return False
    if any(sympy.simplify(vals[e]) != 0 for e in program.get("equalities", [])):
        return False
    r = sympy.nsimplify(sympy.simplify(vals[program["residual"]]))
    if program["kind"] == "identity":
        return r != 0
    return bool(r <= 0) if program["strict"] else bool(r < 0)


# ---------------------------------------------------------------- the starting point

@pytest.mark.parametrize("name", sorted(p.name.split(".")[0] for p in HERE.glob("*.json")))
def test_the_honest_certificates_are_accepted(name):
    line = accepted(load(name + (".witnesses" if "sigma3" in name else "")))
    assert " proved for every m" in line or " witnessed " in line


# ---------------------------------------------------------------- JSON and names

@pytest.mark.parametrize("old, new, why", [
    ('"m": 2}', '"m": 2, "m": 3}', "duplicate key"),
    ('"pivot": 3,', '"pivot": 5, "pivot": 3,', "duplicate key"),
    ('"m": 2}', '"m": NaN}', "NaN"),
    ('"m": 2}', '"m": Infinity}', "Infinity"),
    ('"m": 2}', '"m": -Infinity}', "Infinity"),
    ('"m": 2}', '"m": ' + "9" * 5000 + "}", "not valid JSON"),
])
def test_json_tricks_are_rejected_before_any_reading(old, new, why):
    text = json.dumps(seal(load("cauchy-schwarz")), sort_keys=True)
    assert old in text
    ok, line = check_bytes(text.replace(old, new, 1).encode(), "x.json")
    assert not ok and why in line, line


@pytest.mark.parametrize("field, value", [
    ("witness.m", 2.0), ("witness.m", True), ("witness.m", 10 ** 40), ("witness.m", 0),
    ("program.residual", 10.0), ("program.residual", True), ("proof.cases.0.pivot", 3.0),
    ("proof.cases.0.pivot", True), ("proof.cases.0.pivot", -1), ("proof.cases.0.input", "A"),
    ("proof.cases.0.input", "a\u200b"), ("proof.cases.0.input", "\u0430"),
])
def test_numbers_and_names_of_the_wrong_kind_are_rejected(field, value):
    doc = load("cauchy-schwarz")
    *path, last = field.split(".")
    target = doc
    for key in path:
        target = target[int(key)] if key.isdigit() else target[key]
    target[last] = value
    rejected(doc)


@pytest.mark.parametrize("cid", ["santurkar2018/theorem-4.1", "Santurkar2018/Theorem_4.1",
                                 "santurkar2018/theorem\u20114.1", "s\u0430nturkar2018/theorem-4.1",
                                 "santurkar2018//theorem-4.1", "santurkar2018/theorem-4.1\u200b"])
@pytest.mark.parametrize("name", ["cauchy-schwarz", "centroid", "inverse-defined", "cov", "sigma3.witnesses"])
def test_a_paper_claim_under_any_spelling_is_never_proved_nor_witnessed(name, cid):
    doc = load(name)
    doc["claim"]["id"] = cid
    rejected(doc)


# ---------------------------------------------------------------- sos: pivots and cases

A, B = ["1", "1"], ["1", "1"]  # a parallel to b: Cauchy-Schwarz is an equality there


def test_cauchy_schwarz_made_strict_keeps_its_proof_and_is_rejected():
    doc = load("cauchy-schwarz")
    doc["claim"]["kind"], doc["program"]["strict"] = "strict-inequality", True
    assert false_at(doc, 2, {"a": A, "b": B})
    rejected(doc, "not a strict inequality")


def test_cauchy_schwarz_reversed_keeps_its_proof_and_is_rejected():
    doc = load("cauchy-schwarz")
    doc["program"]["steps"][10] = ["sub", 9, 6]  # (a.b)^2 - |a|^2 |b|^2 >= 0
    assert false_at(doc, 2, {"a": ["1", "0"], "b": ["0", "1"]})
    rejected(doc, "does not reduce to 0")


@pytest.mark.parametrize("change, match", [
    (lambda case: case.update(input="b"), "not a nonzero number times the input b"),
    (lambda case: case.update(proof={"method": "undefined"}), "is defined in this case"),
    (lambda case: case.update(pivot=9), "not manifestly > 0"),        # sum(a*b): no pivot, |a|^2 none either
    (lambda case: case.update(pivot=5), "not manifestly > 0"),        # |b|^2: the division by |a|^2 stays
    (lambda case: case.update(pivot=17, input="b"), "not manifestly > 0"),
    (lambda case: case.update(input="c"), "not a vector input"),
    (lambda case: case.update(proof={"method": "zero", "steps": []}), "unexpected|expected"),
])
def test_a_cauchy_schwarz_case_changed_is_rejected(change, match):
    doc = load("cauchy-schwarz")
    doc["program"]["steps"][10] = ["sub", 9, 6]  # made false, so that no rejection is free
    change(doc["proof"]["cases"][0])
    rejected(doc)
    honest = load("cauchy-schwarz")
    change(honest["proof"]["cases"][0])
    rejected(honest, match)


def test_the_am_gm_case_is_not_zero_and_may_not_say_so():
    doc = load("am-gm")  # where a = 0 the residual is |b|^2 / 2, not 0
    doc["proof"]["cases"][0]["proof"] = {"method": "zero"}
    rejected(doc, "not 0")


def test_a_pivot_whose_input_has_a_coefficient_that_may_vanish_is_no_pivot():
    """q = (sum b) a - b is 0 where sum b = 0 and b = 0 whatever a is: q = 0 does not put
    a in the span of b, so the case a = lambda b would miss instances.  The claim is made
    false at a = (1, 1), b = 0 (|a|^2 |b|^2 - (a.b)^2 - |a|^2 |b|^2 ... plus a term only
    the pivot's case would see); the checker refuses the pivot itself."""
    doc = load("cauchy-schwarz")
    extra = doc["proof"]["steps"]
    base = len(doc["program"]["steps"]) + len(extra)
    extra += [["sum", 1], ["mul", base, 0], ["sub", base + 1, 1], ["mul", base + 2, base + 2],
              ["sum", base + 3]]
    doc["proof"]["cases"].append({"pivot": base + 4, "input": "a", "proof": {"method": "zero"}})
    rejected(doc, "not a nonzero number times the input a")


def test_a_pivot_that_is_no_sum_of_squares_is_rejected():
    doc = load("cauchy-schwarz")
    doc["proof"]["cases"].append({"pivot": 8, "input": "a", "proof": {"method": "zero"}})  # sum(a*b)
    rejected(doc, "not a sum of squares")


def test_swapping_the_two_gaps_case_proofs_reuses_lambdas_of_the_other_case():
    doc = load("two-gaps")
    one, two = doc["proof"]["cases"]
    one["proof"], two["proof"] = two["proof"], one["proof"]
    rejected(doc)


def test_a_nested_case_that_reads_its_parents_lambda_as_its_own_is_rejected():
    doc = load("two-gaps")
    inner = doc["proof"]["cases"][1]["proof"]  # b = lambda a: one lambda, step 23
    inner["steps"][0] = ["pow", 22, 2]  # the program's residual, not the case's lambda
    rejected(doc)


def test_cases_nested_four_deep_are_rejected():
    doc = load("two-gaps")
    case = doc["proof"]["cases"][0]["proof"]["cases"][0]  # depth 2
    case["proof"] = {"method": "sos", "steps": [], "terms": [], "denominator": [],
                     "cases": [{"input": "c", "pivot": 15, "proof": {
                         "method": "sos", "steps": [], "terms": [], "denominator": [],
                         "cases": [{"input": "c", "pivot": 15, "proof": {"method": "zero"}}]}}]}
    rejected(doc)


def test_more_than_eight_cases_are_rejected():
    doc = load("gram-determinant")
    doc["proof"]["cases"] = doc["proof"]["cases"] * 5
    rejected(doc, "at most 8|more than 8|8")


def test_an_undefined_case_of_bn_norm_bound_made_zero_is_rejected():
    doc = load("bn-norm-bound")
    doc["proof"]["cases"][1]["proof"] = {"method": "zero"}
    rejected(doc, "undefined in this case")
