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


# ---------------------------------------------------------------- substitution and multipliers

def _cov_claiming(doc: dict, value: str) -> int:
    """cov's certificate whose residual is the constant `value` (1 = 0 on the set: false),
    written value + 0 * cov so that cov's divisions stay read (an unread one is rejected)."""
    old = doc["program"]["residual"]
    c, zero = add_steps(doc, ["const", value]), add_steps(doc, ["const", "0"])
    k = add_steps(doc, ["add", c, add_steps(doc, ["mul", zero, old])])
    doc["program"]["residual"] = k
    return k


@pytest.mark.parametrize("steps", [
    [["const", "1"], ["div", "ONE", 16]],  # 1 / (sum y * sum z): the equality's own inverse
    [["pow", 16, -1]],
    [["sqrt", 16]],
])
def test_a_multiplier_that_divides_by_the_equality_is_rejected(steps):
    """With q = 1/(sum y sum z), q * N = 1 identically, so a residual 1 would be "0 on the
    set" if a multiplier could divide: q is undefined exactly where the equality holds."""
    doc = load("cov")
    k = _cov_claiming(doc, "1")
    assert false_at(doc, 2, {"y": ["1", "-1"], "z": ["1", "2"]})
    steps = [[k + 1 if x == "ONE" else x for x in s] for s in steps]
    doc["proof"] = {"method": "substitution", "steps": steps, "multipliers": [k + len(steps)]}
    rejected(doc, "no division, no root")


def test_a_multiplier_that_is_a_program_step_dividing_by_the_equality_leaves_no_instance():
    doc = load("cov")
    k = _cov_claiming(doc, "1")
    q = add_steps(doc, ["div", k, 16])  # a program step: "defined wherever the program is"
    doc["proof"] = {"method": "substitution", "steps": [], "multipliers": [q]}
    # read by no part of the statement, its division is a hidden hypothesis (live_steps.py);
    # read, it would leave no instance on the set: the witness could not be there
    rejected(doc, "read by neither the residual nor a hypothesis")
    doc["program"]["hypotheses"] = [add_steps(doc, ["mul", q, q])]
    rejected(doc, "division by zero")


@pytest.mark.parametrize("change, match", [
    (lambda d: d["proof"].update(multipliers=[17, 17]), "expected 1 entries"),
    (lambda d: d["proof"].update(multipliers=[]), "expected 1 entries"),
    (lambda d: d["claim"].pop("equalities"), "states no equality"),
    (lambda d: d["claim"].update(equalities=True), "states no equality"),
    (lambda d: d["claim"].update(equalities=2), "expected 2 entries"),
    (lambda d: (d["claim"].pop("equalities"), d["program"].pop("equalities")), "expected 0 entries"),
    (lambda d: d["program"].update(equalities=[15]), "not the multipliers' combination"),
    (lambda d: d["witness"].update(inputs={"y": ["1", "2"], "z": ["1", "2"]}), "not zero"),
    (lambda d: (d["claim"].update(kind="strict-inequality"),
                d["program"].update(kind="inequality", strict=True)), "strict"),
])
def test_cov_by_multipliers_changed_is_rejected(change, match):
    doc = load("cov")
    change(doc)
    rejected(doc, match)


def test_cov_plus_one_with_its_multiplier_is_rejected():
    doc = load("cov")
    one = add_steps(doc, ["const", "1"])
    doc["program"]["residual"] = add_steps(doc, ["add", 15, one])  # cov - mean(yz) + 1 = 0: false
    assert false_at(doc, 2, {"y": ["1", "-1"], "z": ["1", "2"]})
    doc["proof"]["steps"][0] = ["const", "-1"]
    doc["proof"]["multipliers"] = [len(doc["program"]["steps"])]
    rejected(doc, "not the multipliers' combination")


@pytest.mark.parametrize("sub, match", [
    ({"equality": 0, "input": "gamma"}, "not a nonzero number times a power of m"),
    ({"equality": 0, "input": "eps"}, "not a nonzero number times a power of m"),
    ({"equality": 1, "input": "beta"}, "not the index of one of the claim's 1 equalities"),
    ({"equality": -1, "input": "beta"}, "not the index"),
    ({"equality": True, "input": "beta"}, "not the index"),
    ({"equality": 0, "input": "y"}, "not a scalar input"),
    ({"equality": 0, "sum": 6}, "not a batch sum"),
    ({"equality": 0, "sum": 4}, "not a batch sum"),   # m = S[1] is no batch sum
    ({"equality": 0, "input": "beta", "sum": 5}, "unexpected|expected"),
])
def test_a_substitution_that_does_not_follow_from_the_equality_is_rejected(sub, match):
    doc = load("mean")
    doc["proof"]["substitutions"] = [sub]
    rejected(doc, match)


def test_the_same_input_substituted_twice_is_rejected():
    doc = load("mean")
    doc["proof"]["substitutions"] *= 2
    rejected(doc, "still free")


def test_a_multiple_of_the_batch_sum_is_not_the_batch_sum():
    doc = load("centered")
    two = add_steps(doc, ["const", "2"])
    doc["proof"]["substitutions"][0]["sum"] = add_steps(doc, ["mul", two, 3])
    rejected(doc, "not a batch sum")


def test_centered_without_its_equality_is_false_and_rejected():
    doc = load("centered")
    del doc["claim"]["equalities"], doc["program"]["equalities"]
    doc["proof"] = {"method": "zero"}
    doc["witness"]["inputs"] = {"y": ["1", "2"], "eps": "1"}
    assert false_at(doc, 2, {"y": ["1", "2"], "eps": "1"})
    rejected(doc, "not 0")


def test_recovery_with_a_gamma_of_either_sign_is_false_and_rejected():
    """gamma^2 = sigma^2 + eps fixes |gamma| only: with gamma < 0, BN(y) = 2 mu - y."""
    doc = load("recovery")
    doc["claim"]["variables"][1]["domain"] = "real"
    doc["program"]["inputs"][1][2] = "real"
    rejected(doc, "does not reduce to 0")
    neg = add_steps(doc, ["neg", 1])
    doc["program"]["hypotheses"] = [neg]  # gamma < 0: the root leaves as -gamma
    doc["witness"]["inputs"]["gamma"] = "-5/3"
    point = {"y": ["1", "-7"], "gamma": "-5", "beta": "-3", "eps": "9"}  # sigma^2 = 16
    assert false_at(doc, 2, point)
    rejected(doc, "does not reduce to 0")


# ---------------------------------------------------------------- roots: signs from the program only

def test_negative_scale_with_its_sign_hypothesis_changed_is_rejected():
    doc = load("negative-scale")  # BN(c y) = -BN(y) for c < 0 (hypothesis -c > 0)
    doc["program"]["hypotheses"] = [19, 1]  # c > 0 instead: false
    doc["witness"]["inputs"]["c"] = "5"
    assert false_at(doc, 2, {"y": ["3", "5/3"], "c": "5"})
    rejected(doc, "not 0")
    for hyps in ([19], [19, 27, 1]):  # no sign, or both (c > 0 and c < 0): unknown
        doc["program"]["hypotheses"] = hyps
        rejected(doc, "not 0")


@pytest.mark.parametrize("name, variable, point", [
    ("weight-norm", "c", {"v": ["1", "2"], "c": "-1"}),
    ("root-product", "c", {"y": ["4", "2/3"], "c": "-1"}),
])
def test_a_positive_input_made_real_leaves_its_root_and_is_rejected(name, variable, point):
    doc = load(name)
    k = next(i for i, v in enumerate(doc["claim"]["variables"]) if v["name"] == variable)
    for domain in ("real", "nonzero"):
        doc["claim"]["variables"][k]["domain"] = domain
        doc["program"]["inputs"][k][2] = domain
        if name == "weight-norm":
            assert false_at(doc, 2, point)
        rejected(doc, "not 0")


@pytest.mark.parametrize("k, holds", [(3, False), (-1, False), (5, False), (64, True), (-2, True),
                                      (-64, True), (65, None), (-65, None)])
def test_square_scale_at_other_exponents(k, holds):
    """BN(s^k y) = BN(y) for s != 0 holds for even k only; |k| <= 64."""
    doc = load("square-scale")
    doc["program"]["steps"][2] = ["pow", 1, k]
    if holds is None:
        rejected(doc, "exponent of pow")
    elif holds:
        accepted(doc)
    else:
        assert false_at(doc, 2, {"y": ["1/2", "1"], "s": "-2"})
        rejected(doc, "not 0")


def _scalar_doc(steps, residual, hypotheses=(), domain="real", witness="2") -> dict:
    """A proof certificate of a hand-made program over one scalar x and a batch vector y."""
    doc = load("weight-norm")
    doc["claim"]["variables"] = [{"name": "y", "shape": ["m"], "domain": "real"},
                                 {"name": "x", "shape": [], "domain": domain}]
    doc["claim"]["id"] = "rt28/roots"
    doc["program"].update(inputs=[["y", "vector", "real"], ["x", "scalar", domain]],
                          steps=[["input", "y"], ["input", "x"]] + steps, residual=residual,
                          hypotheses=list(hypotheses))
    doc["witness"] = {"m": 2, "inputs": {"y": ["1", "2"], "x": witness}}
    return doc


@pytest.mark.parametrize("steps, point", [
    # sqrt(x^2) = x
    ([["pow", 1, 2], ["sqrt", 2], ["sub", 3, 1]], {"x": "-1"}),
    # sqrt(x^6) = x^3
    ([["pow", 1, 6], ["sqrt", 2], ["pow", 1, 3], ["sub", 3, 4]], {"x": "-1"}),
    # sqrt(x^2 * sum y^2) = x * sqrt(sum y^2)
    ([["pow", 1, 2], ["mul", 0, 0], ["sum", 3], ["mul", 2, 4], ["sqrt", 5], ["sqrt", 4], ["mul", 1, 7],
      ["sub", 6, 8]], {"x": "-1"}),
    # sqrt((sum y)^2) = sum y (a batch sum of no square monomial)
    ([["sum", 0], ["pow", 2, 2], ["sqrt", 3], ["sub", 4, 2]], {"x": "1", "y": ["-1", "-2"]}),
    # sqrt(sum y^2)^3 ... sqrt(S^3) = S sqrt(S) is true; sqrt(S^2 x^2) = S x is not
    ([["mul", 0, 0], ["sum", 2], ["pow", 3, 2], ["pow", 1, 2], ["mul", 4, 5], ["sqrt", 6], ["mul", 3, 1],
      ["sub", 7, 8]], {"x": "-1"}),
    # sqrt(x^2/x^4) = 1/x
    ([["pow", 1, 2], ["pow", 1, 4], ["div", 2, 3], ["sqrt", 4], ["pow", 1, -1], ["sub", 5, 6]], {"x": "-1"}),
    # sqrt(sqrt(x^2)^2) = x: a root's square is its radicand, never its base
    ([["pow", 1, 2], ["sqrt", 2], ["pow", 3, 2], ["sqrt", 4], ["sub", 5, 1]], {"x": "-1"}),
])
def test_roots_of_squares_of_unsigned_values_do_not_leave_with_a_sign(steps, point):
    doc = _scalar_doc(steps, len(steps) + 1)
    doc["proof"] = {"method": "zero"}
    point = {"y": ["1", "2"], **point}
    assert false_at(doc, 2, point)
    rejected(doc, "not 0")
    positive = _scalar_doc(steps, len(steps) + 1, hypotheses=[1])  # x > 0: the same is then true
    positive["proof"] = {"method": "zero"}
    if point["y"] == ["1", "2"]:
        accepted(positive)


def test_a_root_of_a_value_that_is_negative_somewhere_is_not_a_value_there():
    """sqrt(x) * sqrt(x) = x is true wherever sqrt(x) is defined; sqrt(x*x*x)/x = sqrt(x) too.
    sqrt(-x^2) is defined at x = 0 only: the witness cannot be elsewhere."""
    doc = _scalar_doc([["sqrt", 1], ["mul", 2, 2], ["sub", 3, 1]], 4)
    doc["proof"] = {"method": "zero"}
    accepted(doc)
    doc["witness"]["inputs"]["x"] = "-2"
    rejected(doc, "square root of a negative|negative")
    doc = _scalar_doc([["pow", 1, 2], ["neg", 2], ["sqrt", 3], ["sub", 4, 1]], 5, witness="-1")
    doc["proof"] = {"method": "zero"}
    rejected(doc)


# ---------------------------------------------------------------- existential claims through a hint

def test_inverse_defined_without_its_hypothesis_is_false_and_rejected():
    """exists gamma: gamma (sum y)^2 = sum y, hint 1/sum y: at sum y = 0 (no hypothesis) the
    hint is undefined, and gamma * 0 = 0 holds for every gamma, so this one is true there
    after all; the checker still refuses an obligation it cannot prove."""
    doc = load("inverse-defined")
    doc["program"]["hypotheses"] = []
    rejected(doc, "step 1 is not shown != 0")


@pytest.mark.parametrize("hypothesis, holds", [
    ([["mul", 0, 0], ["sum", 7]], None),        # sum y^2 > 0: sum y may still be 0
    ([["const", "1"], ["add", 1, 7]], None),    # sum y + 1 > 0: likewise
    ([["pow", 1, 3]], None),                    # (sum y)^3 > 0 implies sum y != 0: not seen, refused
    ([["m"], ["mul", 7, 4]], True),             # m (sum y)^2 > 0: a positive multiple of its square
    ([["div", 4, 1]], True),                    # (sum y)^2 / sum y: defined only where sum y != 0
])
def test_an_obligation_is_proved_only_by_a_hypothesis_that_implies_it(hypothesis, holds):
    doc = load("inverse-defined")
    doc["witness"]["inputs"]["y"] = ["1", "2"]
    doc["program"]["hypotheses"] = [add_steps(doc, *hypothesis)]
    if holds:
        accepted(doc)
    else:
        rejected(doc, "step 1 is not shown != 0")


def test_a_hint_whose_root_is_of_a_value_negative_somewhere_is_rejected():
    """exists g: g x / sqrt(mean x^2 + eps) = x with eps any real: at x = 0, eps = -1 no g
    makes the residual defined, so the claim is false there; its obligation is refused."""
    doc = load("rms-gain")
    doc["claim"]["variables"][1]["domain"] = "real"
    doc["program"]["inputs"][1][2] = "real"
    with pytest.raises(ValueError):
        values_at(doc["program"], 2, {"x": ["0", "0"], "eps": "-1"})
    rejected(doc, "step 6 is not shown >= 0")


def test_recover_with_eps_of_any_sign_is_rejected():
    doc = load("recover")  # gamma = sqrt(sigma^2 + eps), beta = mu
    doc["claim"]["variables"][1]["domain"] = "nonzero"
    doc["program"]["inputs"][1][2] = "nonzero"
    rejected(doc, "step 9 is not shown >= 0")
    sq = add_steps(doc, ["pow", 1, 2])
    doc["program"]["hypotheses"] = [sq]  # eps^2 > 0: eps != 0, not eps > 0
    rejected(doc, "step 9 is not shown >= 0")
    doc["program"]["hypotheses"] = [1]  # eps > 0 as a hypothesis step: true, proved
    accepted(doc)


def test_scale_with_a_hypothesis_that_does_not_keep_sigma_from_0_is_rejected():
    doc = load("scale")
    one = add_steps(doc, ["const", "1"])
    doc["program"]["hypotheses"] = [add_steps(doc, ["add", 22, one])]  # sum (y - mean)^2 + 1 > 0
    rejected(doc, "step 14 is not shown != 0")
    doc["program"]["hypotheses"] = []
    rejected(doc, "step 14 is not shown != 0")


@pytest.mark.parametrize("change, match", [
    (lambda e: e.update(defined=e["defined"][::-1]), "not the program's definedness obligations"),
    (lambda e: e.update(defined=e["defined"] + [[3, "nonzero"]]), "not the program's"),
    (lambda e: e.update(defined=e["defined"][1:]), "not the program's"),
    (lambda e: e.update(defined=[[3, "nonnegative"]] + e["defined"][1:]), "step 3 nonzero is missing"),
    (lambda e: e.update(defined=[[3.0, "nonzero"]] + e["defined"][1:]), "not the program's"),
    (lambda e: e.update(hint=-1), "hint"),
    (lambda e: e.update(hint=True), "hint"),
    (lambda e: e.update(variables=[]), "at least one variable"),
    (lambda e: e.update(variables=[{"name": "y", "shape": [], "domain": "real"}]), "also a universal"),
    (lambda e: e.update(extra=1), "unexpected key"),
    (lambda e: e.pop("defined"), "missing|expected"),
])
def test_the_existential_marking_changed_is_rejected(change, match):
    doc = load("scale")
    change(doc["claim"]["exists"])
    rejected(doc, match)


def test_a_hint_proof_may_not_be_of_another_program_format():
    doc = load("scale")
    doc["proof"] = {"method": "every-d"}
    rejected(doc, "symbolic-length program")
    doc["proof"] = {"method": "moments-n"}
    rejected(doc, "symbolic-length program")


def test_an_obligation_index_that_is_a_boolean_is_not_the_step_it_equals():
    doc = load("inverse-defined")  # defined [[1, "nonzero"]]: true == 1 in Python
    doc["claim"]["exists"]["defined"] = [[True, "nonzero"]]
    rejected(doc, "not the program's definedness obligations")


# ---------------------------------------------------------------- every d

def _every_d(steps, kind="identity", witness=None) -> dict:
    """kohler-nonnegative's claim (X (m, d), w (d,)) with another program, proof every-d."""
    doc = load("kohler-nonnegative")
    doc["claim"].update(id="rt28/every-d", kind=kind)
    doc["program"].update(steps=copy.deepcopy(steps), residual=len(steps) - 1, hypotheses=[],
                          kind="identity" if kind == "identity" else "inequality",
                          strict=kind == "strict-inequality")
    doc["proof"] = {"method": "every-d"}
    doc["witness"] = witness or {"m": 2, "d": 2, "inputs": {"X": [["1", "2"], ["3", "5"]], "w": ["2", "-1"]}}
    return doc


X, W = ["input", "X"], ["input", "w"]
EDGE = {
    # (sum_j w_j)^2 = sum_j w_j^2: true at d = 1 only
    "d-is-1": [X, W, ["sum", 1, 0], ["pow", 2, 2], ["pow", 1, 2], ["sum", 4, 0], ["sub", 3, 5]],
    # sum_i (X_ij - mean_j)^2 summed over j = 0: true at m = 1 only
    "m-is-1": [X, W, ["m"], ["sum", 0, 0], ["div", 3, 2], ["expand", 4, ["m", "d"], [1]], ["sub", 0, 5],
               ["pow", 6, 2], ["sum", 7, 0], ["sum", 8, 0]],
    # column means divided by d instead of m: true where m = d
    "m-for-d": [X, W, ["d"], ["sum", 0, 0], ["div", 3, 2], ["m"], ["div", 3, 5], ["sub", 4, 6], ["sum", 7, 0]],
    # tr I_d = tr I_m
    "traces": [X, W, ["eye", "d"], ["sum", 2, 0], ["sum", 3, 0], ["eye", "m"], ["sum", 5, 0], ["sum", 6, 0],
               ["sub", 4, 7]],
    # sum of all entries of X X^T = sum of all entries of X^T X: true at m = d = 1
    "gram-sides": [X, W, ["dot", 0, 0, 1, 1], ["sum", 2, 0], ["sum", 3, 0], ["dot", 0, 0, 0, 0], ["sum", 5, 0],
                   ["sum", 6, 0], ["sub", 4, 7]],
    # w^T X^T X w = (sum w)^2 sum X^2: a broadcast in place of a product
    "broadcast": [X, W, ["dot", 0, 1, 1, 0], ["pow", 2, 2], ["sum", 3, 0], ["sum", 1, 0], ["pow", 5, 2],
                  ["pow", 0, 2], ["sum", 7, 0], ["sum", 8, 0], ["mul", 6, 9], ["sub", 4, 10]],
}


@pytest.mark.parametrize("name", sorted(EDGE))
def test_every_d_identities_true_only_at_edge_sizes_are_rejected(name):
    doc = _every_d(EDGE[name])
    assert not proof_holds(doc)
    rejected(doc, "not 0")
    doc["witness"] = {"m": 1, "d": 1, "inputs": {"X": [["2"]], "w": ["3"]}}  # where it happens to hold
    rejected(doc, "not 0")


def test_kohler_nonnegative_reversed_keeps_its_squares_and_is_rejected():
    doc = load("kohler-nonnegative")
    doc["program"]["residual"] = add_steps(doc, ["neg", 13])
    assert not proof_holds(doc)
    rejected(doc, "does not have normal form 0")


@pytest.mark.parametrize("kind", ["strict-inequality", "identity"])
def test_squares_prove_only_a_non_strict_inequality(kind):
    doc = load("kohler-nonnegative")  # w^T S w = 0 at w = 0: neither > 0 nor = 0 everywhere
    doc["claim"]["kind"] = kind
    doc["program"].update(kind="identity" if kind == "identity" else "inequality",
                          strict=kind == "strict-inequality")
    assert not proof_holds(doc)
    rejected(doc, "only a non-strict inequality")


@pytest.mark.parametrize("change, match", [
    (lambda sq, n: sq["steps"].__setitem__(1, ["const", "-1"]), "not manifestly >= 0"),
    (lambda sq, n: sq["steps"].__setitem__(3, ["div", 15, 11]), "division by a value other than"),
    (lambda sq, n: sq["steps"].__setitem__(3, ["pow", 16, -1]), "could be undefined"),
    (lambda sq, n: (sq["steps"].append(["sqrt", 13]), sq.update(terms=[[15, n + 4]])), "could be undefined"),
    (lambda sq, n: sq.update(terms=[]), "no square"),
    (lambda sq, n: sq.update(terms=[[14, 17]]), "expected \\[scalar step, step\\]"),  # a tensor coefficient
    (lambda sq, n: sq.update(terms=[[17, 14]] * 17), "more than 16|expected at most|16"),
    (lambda sq, n: sq.update(terms=[[17, 14.0]]), "expected \\[scalar step, step\\]"),
    (lambda sq, n: sq.update(terms=[[17, True]]), "expected \\[scalar step, step\\]"),
])
def test_kohler_nonnegative_squares_changed_are_rejected(change, match):
    doc = load("kohler-nonnegative")
    change(doc["proof"]["squares"], len(doc["program"]["steps"]))
    rejected(doc, match)


def test_a_square_root_of_the_residual_is_no_square():
    """R - (sqrt R)^2 has normal form 0 for any R: a root among the squares' steps would
    prove every inequality, so none is allowed (R = -|w|^2 - 1 here, false everywhere)."""
    doc = _every_d([X, W, ["pow", 1, 2], ["sum", 2, 0], ["const", "1"], ["add", 3, 4], ["neg", 5]],
                   kind="inequality")
    assert not proof_holds(doc)
    doc["proof"] = {"method": "every-d", "squares": {"steps": [["sqrt", 6], ["const", "1"]],
                                                     "terms": [[8, 7]]}}
    rejected(doc, "could be undefined")


def test_norm_grows_with_an_odd_power_of_eta_is_rejected():
    doc = load("norm-grows")
    doc["proof"]["squares"]["terms"] = [[49, 40]]  # eta, not eta^2
    rejected(doc, "not manifestly >= 0")
    doc = load("norm-grows")  # reversed, with -eta^2
    n = len(doc["program"]["steps"])
    doc["program"]["residual"] = add_steps(doc, ["neg", 47])
    assert not proof_holds(doc)
    doc["proof"]["squares"] = {"steps": [["const", "-1"], ["input", "eta"], ["pow", n + 2, 2],
                                         ["mul", n + 1, n + 3]], "terms": [[n + 4, 40]]}
    rejected(doc, "not manifestly >= 0")


@pytest.mark.parametrize("step, match", [
    (["expand", 4, ["d", "m"], [0]], "both alike"),               # a (d, m) value taken from X's (m, d)
    (["expand", 4, ["m", "d"], [0]], "not a broadcast"),
    (["expand", 4, ["m", "d", "m", "d"], [1]], "not a broadcast"),
    (["sum", 0, 2], "an axis the value does not have"),
    (["dot", 0, 1, 0, 0], "different lengths"),                   # X's m axis against w's d axis
    (["eye", "n"], "not m or d"),
    (["pow", 0, 9], "within the limits"),
    (["pow", 3, 65], "within the limits"),
    (["pow", 0, -1], "within the limits"),
    (["transpose", 3], "not 2-d"),
    (["div", 0, 1], "not a scalar"),
    (["sqrt", 0], "not a scalar"),
    (["add", 0, 1], "both alike"),
])
def test_every_d_steps_across_axes_are_rejected(step, match):
    doc = load("centroid")
    doc["program"]["steps"][5] = step
    rejected(doc, match)


# ---------------------------------------------------------------- witness certificates

def _part(doc):
    return doc["parts"][0]


@pytest.mark.parametrize("change, match", [
    # p = 0 at t = 1: sigma(p) = 0, not 1
    (lambda d: _part(d).update(witnessed=[{"instance": {"t": "1"}, "witness": {"p": ["0", "0", "0"]}}]),
     "not zero"),
    (lambda d: _part(d)["hints"][0].update(outputs=[5, 5, 9]), "not zero"),
    (lambda d: _part(d)["hints"][0]["steps"].__setitem__(1, ["const", "-3/2"]), "square root of a negative"),
    (lambda d: (_part(d)["hints"][0]["steps"].append(["div", 0, 8]),
                _part(d)["hints"][0].update(outputs=[5, 7, 10])), "division by zero"),
    (lambda d: _part(d)["witnessed"][0]["instance"].update(t="0"), "not positive"),
    (lambda d: _part(d)["witnessed"][0]["instance"].update(t="-1"), "not positive"),
    (lambda d: d["claim"].update(kind="strict-inequality"), "not positive"),
    # sigma(p) >= 0 read through yhat = (p - mu)/sigma at a constant p: undefined, never a value
    (lambda d: (_part(d)["program"].update(residuals=[21]), d["claim"].update(kind="inequality"),
                _part(d).update(witnessed=[{"instance": {"t": "1"}, "witness": {"p": ["1", "1", "1"]}}])),
     "division by zero"),
    (lambda d: _part(d)["hints"][0]["steps"].__setitem__(0, ["input", "p", 0]), "not a variable of the instance"),
    (lambda d: _part(d)["witnessed"][0].update(hint=1), "not the index of one of this part's hints"),
    (lambda d: _part(d)["witnessed"][0].update(hint=True), "not the index of one of this part's hints"),
    (lambda d: (_part(d)["hints"].append(None), _part(d)["witnessed"][0].update(hint=1)), "not the index"),
    (lambda d: _part(d)["program"]["steps"].__setitem__(1, ["input", "p", True]), "no entry"),
    (lambda d: _part(d)["program"]["steps"].__setitem__(1, ["input", "p", 0.0]), "no entry"),
    (lambda d: _part(d)["program"]["steps"].__setitem__(1, ["input", "p", 3]), "no entry"),
    (lambda d: _part(d)["program"].update(hypotheses=[1]), "depends on an existential variable"),
    (lambda d: _part(d).update(witnessed=[]), "at least one witness"),
    (lambda d: d.update(parts=[]), "at least one part"),
    (lambda d: _part(d)["witnessed"][0].update(witness={"p": ["1", "1", "1"]}), "unexpected key"),
    (lambda d: _part(d).update(sizes={"m": 2}), "unexpected key|sizes"),
])
def test_a_witness_certificate_changed_is_rejected(change, match):
    doc = load("sigma3.witnesses")
    change(doc)
    rejected(doc, match)


# ---------------------------------------------------------------- work limits (bounded work, never a speed)

def _grown(name: str, steps, where="program", read=None) -> dict:
    """name's certificate with steps appended to its program (indices relative to the first
    appended step as "+k"), or to its proof's steps; `read`: the appended step the residual
    becomes (a root nothing reads is rejected before any arithmetic, live_steps.py)."""
    doc = load(name)
    base = len(doc["program"]["steps"]) + (len(doc["proof"].get("steps", [])) if where == "proof" else 0)
    fix = lambda x: base + int(x[1:]) if type(x) is str and x.startswith("+") else x  # noqa: E731
    target = doc["program"]["steps"] if where == "program" else doc["proof"]["steps"]
    target += [[fix(x) for x in s] for s in steps]
    if read is not None:
        doc["program"]["residual"] = fix(read)
    return doc


@pytest.mark.parametrize("doc, match", [
    (lambda: _grown("weight-norm", [["pow", 1, 64], ["pow", "+0", 64], ["pow", "+1", 64]]), "beyond 512"),
    (lambda: _grown("weight-norm", [["sum", 0], ["add", "+0", 1], ["m"], ["add", "+1", "+2"], ["pow", "+3", 64],
                                    ["pow", "+4", 8]]), "too much algebra"),
    (lambda: _grown("weight-norm", [["const", "9" * 197 + "/7"], ["pow", "+0", 64], ["pow", "+1", 64]]),
     "beyond 8192 bits"),
    (lambda: _grown("weight-norm", [["const", "9" * 199 + "/7"]]), "longer than 200"),
    (lambda: _grown("weight-norm", [x for i in range(70) for x in  # sqrt(c + i + 2), summed: read
                                    (["const", str(i + 2)], ["add", 1, f"+{4 * i}"], ["sqrt", f"+{4 * i + 1}"],
                                     ["add", 13 if i == 0 else f"+{4 * i - 1}", f"+{4 * i + 2}"])], read="+279"),
     "more than 64 square roots"),
    (lambda: _grown("cauchy-schwarz", [["add", 3, 5], ["add", "+0", 8], ["pow", "+1", 64], ["pow", "+2", 8]],
                    where="proof"), "too much algebra"),
])
def test_arithmetic_beyond_the_limits_is_rejected_with_the_reason(doc, match):
    rejected(doc(), match)


def test_a_multiplier_of_huge_degree_is_rejected_with_the_reason():
    doc = load("cov")
    n = len(doc["program"]["steps"])
    doc["proof"]["steps"] = [["add", 3, 6], ["add", n, 14], ["pow", n + 1, 64], ["pow", n + 2, 8],
                             ["mul", n + 3, n + 3]]
    doc["proof"]["multipliers"] = [n + 4]
    rejected(doc, "too much algebra")


def test_every_d_sums_beyond_the_renamings_and_factors_are_rejected():
    doc = load("kohler-nonnegative")
    n = len(doc["program"]["steps"])
    chain = [["dot", 0, 0, 1, 1]] + [["dot", n + i, n, 1, 0] for i in range(7)]
    doc["program"]["steps"] += chain + [["sum", n + 7, 0], ["sum", n + 8, 0], ["add", n + 9, 13]]
    doc["program"]["residual"] = n + 10  # kohler's residual too: its division stays read
    doc["proof"] = {"method": "every-d"}
    rejected(doc, "renamings")
    doc = _grown("kohler-nonnegative", [["expand", 0, ["m", "m", "d"], [0, 2]], ["expand", 0, ["m", "m", "d"], [1, 2]],
                                        ["sub", "+0", "+1"], ["pow", "+2", 8], ["pow", "+3", 8]])
    rejected(doc, "more than 16 factors")


def test_every_d_witness_written_out_beyond_its_cells_is_rejected():
    doc = load("centroid")
    doc["witness"] = {"m": 32, "d": 16, "inputs": {"X": [["1"] * 16] * 32, "c": ["0"] * 16}}
    accepted(doc)  # the largest witness the checker takes, within its limits
    doc["program"]["steps"] += [["expand", 0, ["m", "m", "d"], [0, 2]]] * 150
    rejected(doc, "entries in all|scalar steps")
    doc["witness"]["m"] = 33
    rejected(doc, "m and d must be integers")


def test_a_gram_pivot_read_for_the_input_whose_coefficient_is_not_a_number_is_rejected():
    """Pivot 37 is |b - (a.b/|a|^2) a|^2: zero puts b in the span of a (case b), not a in the
    span of b (a's coefficient a.b/|a|^2 may be 0)."""
    doc = load("gram-determinant")
    doc["proof"]["cases"][1]["input"] = "a"
    rejected(doc, "not a nonzero number times the input a")
    doc["proof"]["cases"][1]["input"] = "c"
    rejected(doc, "not a nonzero number times the input c")
