"""Program certificates in the independent checker (bnproof.checker).

Standard library and pytest only, like tests/test_checker.py: every
certificate here is built by hand, and every sign is argued in a comment."""

from __future__ import annotations

import hashlib
import json
import time
from fractions import Fraction

import pytest

from bnproof.checker import Rejected, check_document, check_file, main
from bnproof.checker.kernel import program_digest


def canonical_sha(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def seal(doc: dict) -> dict:
    body = {k: v for k, v in doc.items() if k != "digest"}
    return {**body, "digest": canonical_sha(body)}


def shape(value) -> list:
    return [len(value), *shape(value[0])] if isinstance(value, list) else []


def certificate(steps, residual, hypotheses=(), instance=None, kind="inequality",
                claim_id="toy", obligations=None, verdict="refuted", variables=None, sizes=None) -> dict:
    """A version 2 program certificate; by default every instance variable is declared
    real with its shape in integers, so no sizes are named."""
    instance = {"x": "0"} if instance is None else instance
    if variables is None:
        variables = [{"name": k, "shape": shape(v), "domain": "real"} for k, v in instance.items()] \
            if isinstance(instance, dict) else []
    if obligations is None:
        obligations = [{"fact": "hypothesis", "value": h, "sign": "positive"} for h in hypotheses]
        obligations.append({"fact": "residual", "value": residual,
                            "sign": "negative" if kind == "inequality" else "nonzero"})
    return seal({
        "format": "bnproof-certificate", "version": 2, "bnproof_version": "0.1.0",
        "claim": {"id": claim_id, "source": "a test", "statement": r"x \geq 1", "kind": kind,
                  "variables": variables},
        "sizes": sizes or {},
        "instance": instance,
        "program": {"steps": steps, "residual": residual, "hypotheses": list(hypotheses)},
        "obligations": obligations,
        "verdict": verdict,
    })


def check(tmp_path, doc) -> tuple[bool, str]:
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ok, line = check_file(path)
    assert main([str(path)]) == (0 if ok else 6)
    assert "\n" not in line
    return ok, line.removeprefix(f"{'ACCEPTED' if ok else 'REJECTED'} {path}: ")


def accepted(tmp_path, doc) -> str:
    ok, rest = check(tmp_path, doc)
    assert ok, rest
    return rest


def rejected(tmp_path, doc, reason: str) -> str:
    ok, rest = check(tmp_path, doc)
    assert not ok and reason in rest, rest
    return rest


def trust(doc) -> str:
    return f"(trusting program {canonical_sha(doc['program'])[:23]})"


# residual = x - 1 at x = 0: -1 < 0, exactly, with no hypothesis
TOY = [["input", "x"], ["const", "1"], ["sub", 0, 1]]
# sqrt(2) < 1393/985 since 1393^2 - 2*985^2 = -1: residual = 1393 - 985*sqrt(2) < 0 needs
# |985 sqrt 2 - 1393| = 1/(985 sqrt 2 + 1393) ~ 3.6e-4 resolved: intervals, not exact values
PELL = [["const", "2"], ["sqrt", 0], ["const", "985"], ["mul", 2, 1], ["const", "1393"],
        ["sub", 4, 3]]


# --- accepted -----------------------------------------------------------------

def test_rational_refutation(tmp_path):
    doc = certificate(TOY, 2)
    assert accepted(tmp_path, doc) == f"toy refuted {trust(doc)}"
    assert program_digest(doc["program"]) == canonical_sha(doc["program"])
    assert check_document(doc) == f"toy refuted {trust(doc)}"


def test_refutation_that_needs_intervals(tmp_path):
    doc = certificate(PELL, 5)
    assert accepted(tmp_path, doc) == f"toy refuted {trust(doc)}"
    # 1393 - 985*sqrt(2) > -1: the same number is not < -1
    doc = certificate(PELL + [["const", "1"], ["add", 5, 6]], 7)
    rejected(tmp_path, doc, "residual: the value of step 7 is not negative")


def test_hypotheses_and_nested_inputs(tmp_path):
    # W = [[1, 2], [3, 4]], t = 1/2: hypotheses W[1][0] > 0 and sqrt(t) > 0; residual
    # W[0][1]*sqrt(t) - sqrt(2) = 2/sqrt 2 - sqrt 2 = 0 is not negative
    inst = {"W": [["1", "2"], ["3", "4"]], "t": "1/2"}
    steps = [["input", "W", 1, 0], ["input", "t"], ["sqrt", 1], ["input", "W", 0, 1],
             ["mul", 3, 2], ["const", "2"], ["sqrt", 5], ["sub", 4, 6], ["const", "-1/1000"],
             ["add", 7, 8]]
    doc = certificate(steps, 9, hypotheses=[0, 2], instance=inst)
    assert accepted(tmp_path, doc) == f"toy refuted {trust(doc)}"
    # exactly 0, decided in Q(√2) (checker/surds.py): not negative
    rejected(tmp_path, certificate(steps, 7, [0, 2], inst), "residual: the value of step 7 is not negative")


def test_every_operation(tmp_path):
    # ((|-3| max 2) min 5)^3 / (-(1/4)) = -108; sqrt(9/4) = 3/2 stays exact; pow 0 is 1
    steps = [["const", "-3"], ["abs", 0], ["const", "2"], ["max", 1, 2], ["const", "5"],
             ["min", 3, 4], ["pow", 5, 3], ["const", "1/4"], ["neg", 7], ["div", 6, 8],
             ["const", "9/4"], ["sqrt", 10], ["pow", 11, 0], ["add", 9, 12], ["mul", 13, 11]]
    assert accepted(tmp_path, certificate(steps, 14)).startswith("toy refuted")
    # the same operations on intervals: s = sqrt(2); (|-s| max 5) min 3 = 3, 3^2 = 9,
    # 9/(-s) ~ -6.36, (-6.36)^3 ~ -257.4, minus step 14 (-160.5): ~ -96.9 != 0
    steps += [["sqrt", 2], ["neg", 15], ["abs", 16], ["max", 17, 4], ["min", 18, 1],
              ["pow", 19, 2], ["div", 20, 16], ["pow", 21, 3], ["sub", 22, 14]]
    doc = certificate(steps, 23, kind="identity")
    assert accepted(tmp_path, doc) == f"toy refuted {trust(doc)}"


def test_identity_refutations(tmp_path):
    # sqrt(2)*sqrt(2) - 2 is exactly 0: intervals can never separate it from 0, the
    # exact value in Q(√2) is 0 (checker/surds.py)
    zero = [["const", "2"], ["sqrt", 0], ["mul", 1, 1], ["sub", 2, 0]]
    assert rejected(tmp_path, certificate(zero, 3, kind="identity"), "is zero") == \
        "residual: the value of step 3 is zero"
    # sqrt(8) - 2*sqrt(2) + 1/1000 = 1/1000 != 0
    steps = [["const", "8"], ["sqrt", 0], ["const", "2"], ["sqrt", 2], ["mul", 2, 3],
             ["sub", 1, 4], ["const", "1/1000"], ["add", 5, 6]]
    doc = certificate(steps, 7, kind="identity")
    assert accepted(tmp_path, doc) == f"toy refuted {trust(doc)}"
    # an exact zero is decided at once
    rejected(tmp_path, certificate([["const", "0"]], 0, kind="identity"),
             "residual: the value of step 0 is zero")


def test_claims_of_the_papers_are_not_taken_on_a_program_s_word(tmp_path):
    # paper ids with no formula in the checker: a program alone cannot refute them
    for cid in ("santurkar2018/fact-c.1", "dannemann2025/example-3.2/ray"):
        rejected(tmp_path, certificate(TOY, 2, claim_id=cid), f"claim {cid}: a claim of the papers "
                 "with no formula in this checker")


@pytest.mark.parametrize("cid, paper", [
    # the aliases that `bnproof list` and `fuzz` show, with or without a formula here
    ("lemma-4.5", "santurkar2018/lemma-4.5"),
    ("theorem-4.1", "santurkar2018/theorem-4.1"),
    ("theorem-4.1/as-derived", "santurkar2018/theorem-4.1/as-derived"),
    ("fact-c.1", "santurkar2018/fact-c.1"),
    ("fact-c.2", "santurkar2018/fact-c.2"),
    ("remark-2.7/corrected", "dannemann2025/remark-2.7/corrected"),
    ("example-3.2/ray", "dannemann2025/example-3.2/ray"),
    # names a person reads as the same: case, surrounding or doubled slashes, punctuation
    ("Theorem-4.1", "santurkar2018/theorem-4.1"),
    ("/theorem-4.1/", "santurkar2018/theorem-4.1"),
    ("theorem_4.1", "santurkar2018/theorem-4.1"),
    ("THEOREM-4.1/AS-DERIVED", "santurkar2018/theorem-4.1/as-derived"),
    ("Santurkar2018/Theorem-4.1", "santurkar2018/theorem-4.1"),
    ("santurkar2018//theorem-4.1", "santurkar2018/theorem-4.1"),
    ("/santurkar2018/fact-c.1", "santurkar2018/fact-c.1"),
    ("fact-c.1/", "santurkar2018/fact-c.1"),
    ("Fact_C.1", "santurkar2018/fact-c.1"),
])
def test_every_name_of_a_paper_s_claim_is_reserved(tmp_path, cid, paper):
    # a forged program, validly sealed: before, the aliases were accepted as a user's claim
    rejected(tmp_path, certificate(TOY, 2, claim_id=cid),
             f"claim {cid}: reads as the name of a claim of the papers ({paper})")


@pytest.mark.parametrize("cid", ["santurkar2018/no-such-claim", "dannemann2025", "SANTURKAR2018/x"])
def test_the_papers_namespaces_are_reserved(tmp_path, cid):
    rejected(tmp_path, certificate(TOY, 2, claim_id=cid), f"claim {cid}: reads as the name of a claim")


def test_user_names_near_a_paper_s_are_still_users(tmp_path):
    for cid in ("me/theorem-4.1", "theorem-4.1x", "my-lemma-4.5"):
        assert accepted(tmp_path, certificate(TOY, 2, claim_id=cid)).startswith(f"{cid} refuted (trusting")


# --- rejected -----------------------------------------------------------------

@pytest.mark.parametrize("hyp, reason", [
    (["const", "0"], "hypothesis 0: the value of step 3 is not positive"),
    (["const", "-1/2"], "hypothesis 0: the value of step 3 is not positive"),
    (["neg", 1], "hypothesis 0: the value of step 3 is not positive"),  # -sqrt(2), an interval
])
def test_failing_hypothesis(tmp_path, hyp, reason):
    steps = [["const", "2"], ["sqrt", 0], ["const", "-1"], hyp]
    rejected(tmp_path, certificate(steps, 2, hypotheses=[3]), reason)


def _obligations(*items):
    return [{"fact": f, "value": v, "sign": s} for f, v, s in items]


@pytest.mark.parametrize("steps, residual, changes, reason", [
    ([["const", "1"], ["add", 0, 2], ["const", "2"]], 1, {}, "program.steps[1]: operand 2 is not"),
    ([["const", "1"], ["add", 0, 1]], 1, {}, "program.steps[1]: operand 1 is not"),
    ([["const", "1"], ["neg", -1]], 1, {}, "program.steps[1]: operand -1 is not"),
    ([["const", "1"], ["neg", 10**30]], 1, {}, "program.steps[1]: operand 1000"),
    ([["const", "1"], ["neg", True]], 1, {}, "operand a boolean is not"),
    ([["const", "1"], ["neg", 0.0]], 1, {}, "operand a number is not"),
    ([["const", "1"], ["expm1", 0]], 1, {}, "program.steps[1]: unknown operation 'expm1'"),
    ([["const", "1"], "__import__('os')"], 1, {}, "program.steps[1]: expected a list"),
    ([["__import__('os').system('touch pwned')"]], 0, {}, "unknown operation"),
    ([[]], 0, {}, "program.steps[0]: expected a list"),
    ([[0, 1]], 0, {}, "program.steps[0]: expected a list"),
    ([["const", "1", "2"]], 0, {}, "const takes 1 argument, got 2"),
    ([["const", "1.5"]], 0, {}, "program.steps[0][1]: not a canonical rational"),
    ([["const", 1]], 0, {}, "expected a rational string, got a number"),
    ([["const", "2"], ["add", 0]], 1, {}, "add takes 2 arguments, got 1"),
    ([["const", "2"], ["pow", 0, 10**6]], 1, {}, "exponent of pow must be an integer from 0 to 64"),
    ([["const", "2"], ["pow", 0, -1]], 1, {}, "exponent of pow"),
    ([["const", "2"], ["pow", 0, "2"]], 1, {}, "exponent of pow"),
    ([["input", "y"]], 0, {}, "input names 'y', not a variable"),
    ([["input"]], 0, {}, "input names nothing"),
    ([["input", "x", 0]], 0, {}, "instance.x has no entry 0"),
    ([["input", "v", 2]], 0, {"instance": {"v": ["1", "2"]}}, "instance.v has no entry 2"),
    ([["input", "v", -1]], 0, {"instance": {"v": ["1", "2"]}}, "instance.v has no entry -1"),
    ([["input", "v", "0"]], 0, {"instance": {"v": ["1", "2"]}}, "instance.v has no entry a string"),
    ([["input", "v"]], 0, {"instance": {"v": ["1", "2"]}}, "instance.v is a list, not a number"),
    ([["input", "v", 0]], 0, {"instance": {"v": [["1"]]}}, "instance.v[0] is a list"),
    ([["input", "x"]], 0, {"instance": {"x": 0}}, "instance.x: expected a rational string"),
    ([["input", "x"]], 0, {"instance": {"1x": "0"}}, "claim.variables[0].name: not a variable name"),
    ([["input", "x"]], 0, {"instance": {"x": [[[[[[[[[[[[[[[[["1"]]]]]]]]]]]]]]]]]}},
     "claim.variables[0].shape: 17 entries, more than the limit 16"),
    ([["input", "x"]], 0, {"instance": []}, "instance: expected an object"),
    ([], 0, {}, "program: residual is not the index of one of the 0 steps"),
    (TOY, 3, {}, "program: residual is not the index"),
    (TOY, True, {}, "program: residual is not the index"),
    (TOY, 2, {"hypotheses": [5]}, "program: hypothesis 0 is not the index"),
    (TOY, 2, {"obligations": _obligations(("residual", 2, "nonzero"))}, "obligations[0]: expected"),
    (TOY, 2, {"kind": "identity", "obligations": _obligations(("residual", 2, "negative"))},
     "obligations[0]: expected fact residual, value 2, sign nonzero"),
    (TOY, 2, {"obligations": _obligations(("residual", 1, "negative"))}, "obligations[0]"),
    (TOY, 2, {"obligations": _obligations(("residual", True, "negative"))}, "obligations[0]"),
    (TOY, 2, {"obligations": []}, "obligations: expected 1 entries, got 0"),
    (TOY, 2, {"hypotheses": [0], "obligations": _obligations(
        ("residual", 2, "negative"), ("hypothesis", 0, "positive"))}, "obligations[0]: expected fact hypothesis"),
    (TOY, 2, {"verdict": "holds"}, "a program certificate can only say \"refuted\""),
    (TOY, 2, {"kind": "equation"}, "claim.kind"),
    (TOY, 2, {"claim_id": "two words"}, "claim.id"),
    (TOY, 2, {"claim_id": ""}, "claim.id"),
    (TOY, 2, {"claim_id": 7}, "claim.id"),
])
def test_hostile_programs(tmp_path, monkeypatch, steps, residual, changes, reason):
    monkeypatch.chdir(tmp_path)
    rejected(tmp_path, certificate(steps, residual, **changes), reason)
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("steps, reason", [
    ([["const", "1"], ["const", "0"], ["div", 0, 1]], "division by zero at step 2"),
    # the divisor is exact 0 though the dividend is an interval
    ([["const", "2"], ["sqrt", 0], ["const", "0"], ["div", 1, 2]], "division by zero at step 3"),
    # sqrt(2)*sqrt(2) - 2 = 0 as a divisor: never separated from 0 by intervals, exactly 0
    ([["const", "2"], ["sqrt", 0], ["mul", 1, 1], ["sub", 2, 0], ["div", 0, 3]],
     "division by zero at step 4 (the divisor is exactly 0)"),
    ([["const", "-1"], ["sqrt", 0]], "square root of a negative number at step 1"),
    ([["const", "2"], ["sqrt", 0], ["neg", 1], ["sqrt", 2]], "square root of a negative number at step 3"),
])
def test_arithmetic_failures(tmp_path, steps, reason):
    rejected(tmp_path, certificate(steps, len(steps) - 1), reason)


def test_a_radicand_exactly_zero_is_proved_nonnegative_exactly(tmp_path):
    # sqrt(sqrt2*sqrt2 - 2): the radicand's interval straddles 0 at every precision, so
    # intervals never give the square root a value; its exact value in Q(√2) is 0, so
    # the square root is 0 and sqrt(...) - 1 = -1 < 0
    steps = [["const", "2"], ["sqrt", 0], ["mul", 1, 1], ["sub", 2, 0], ["sqrt", 3],
             ["const", "1"], ["sub", 4, 5]]
    accepted(tmp_path, certificate(steps, 6))
    # the same with a radicand exactly -2^-5000 (beyond every interval): undefined
    tiny = steps[:4] + [["const", str(Fraction(1, 2 ** 1000))], ["pow", 4, 5], ["sub", 3, 5],
                        ["sqrt", 6], ["const", "1"], ["sub", 7, 8]]
    rejected(tmp_path, certificate(tiny, 9), "square root of a negative number at step 7")


# K sqrt2 - K sqrt2 - 1 is exactly -1 < 0, so its square root is undefined; with K = 2^5000
# the interval of K sqrt2 is wider than 2^900 at 4096 bits and the radicand's straddles 0
HUGE_K = [["const", str(2 ** 5000)], ["const", "2"], ["sqrt", 1], ["mul", 0, 2], ["sub", 3, 3],
          ["const", "1"], ["sub", 4, 5], ["sqrt", 6], ["const", "1"], ["sub", 7, 8]]


def test_the_square_root_of_minus_one_is_not_accepted(tmp_path):
    # before: sqrt of [lo < 0, hi] was sqrt(max(lo, 0)), so sqrt(-1) - 1 "refuted" x >= 1
    # the radicand is exactly -1 in Q(√2): undefined, rejected as such
    rejected(tmp_path, certificate(HUGE_K, 9), "square root of a negative number at step 7")


@pytest.mark.parametrize("steps", [
    [["const", "3"]] + [["pow", i, 2] for i in range(200)],                  # exact
    [["const", "3"], ["sqrt", 0]] + [["pow", i + 1, 2] for i in range(200)],  # intervals
    [["const", "3"], ["sqrt", 0]] + [["mul", i + 1, i + 1] for i in range(200)],
    [["const", "3/2"]] + [["pow", i, 64] for i in range(200)],
    [["const", "3"], ["sqrt", 0]] + [["pow", i + 1, 64] for i in range(200)],
])
def test_blow_ups_are_refused_quickly(tmp_path, steps):
    # "quickly" in this process's CPU time, which other processes on a busy machine do not
    # inflate as they do wall time (a refusal takes milliseconds; a blow-up, minutes)
    start = time.process_time()
    rejected(tmp_path, certificate(steps, len(steps) - 1), "beyond 100000 bits")
    assert time.process_time() - start < 5


def test_tiny_intervals_do_not_blow_up(tmp_path):
    # (1/3)^(2^k) underflows to [0, 2^-bits]: the sign of 1/3^... - 1 is still decided
    steps = [["const", "3"], ["sqrt", 0], ["const", "1"], ["div", 2, 1]]
    steps += [["pow", i + 3, 2] for i in range(200)] + [["sub", 203, 2]]
    start = time.process_time()
    assert accepted(tmp_path, certificate(steps, 204)).startswith("toy refuted")
    assert time.process_time() - start < 5


def test_work_limit(tmp_path, monkeypatch):
    # A = sqrt(3)^(64*64*15) ~ 2^48700 as an interval, then A*A / A over and over: every
    # division is quadratic in 100000 bits.  Under the real limit (10^13) this is refused
    # after about 1000 steps (~15 s); a lower limit shows the same refusal quickly (under a second of CPU).
    import bnproof.checker.program as program
    monkeypatch.setattr(program, "MAX_WORK", 10**11)
    steps = [["const", "3"], ["sqrt", 0], ["pow", 1, 64], ["pow", 2, 64], ["pow", 3, 15],
             ["mul", 4, 4]] + [["div", 5, 4]] * 1000
    start = time.process_time()
    rejected(tmp_path, certificate(steps, 6, kind="identity"), "too much arithmetic by step")
    assert time.process_time() - start < 5
    # the same limit leaves a modest program alone
    assert accepted(tmp_path, certificate(PELL, 5)).startswith("toy refuted")


def test_step_limit(tmp_path):
    steps = [["const", "-1"]] + [["add", i, 0] for i in range(200_000)]
    rejected(tmp_path, certificate(steps, 0), "program.steps: 200001 entries, more than the limit")


def test_envelope_and_digest(tmp_path):
    doc = certificate(TOY, 2)
    rejected(tmp_path, {**doc, "digest": "sha256:" + "0" * 64}, "digest mismatch")
    tampered = dict(doc, instance={"x": "2"})  # x - 1 > 0 now, but the old seal
    rejected(tmp_path, tampered, "digest mismatch")
    rejected(tmp_path, seal(tampered), "residual: the value of step 2 is not negative")
    rejected(tmp_path, seal({**doc, "version": 1}), "unsupported version (this checker knows version 2)")
    rejected(tmp_path, seal({**doc, "format": "other"}), "format")
    rejected(tmp_path, seal({**doc, "note": "x"}), "document: unexpected key 'note'")
    rejected(tmp_path, seal({**doc, "witnesses": {}}), "document: unexpected key 'program'")
    rejected(tmp_path, seal({**doc, "program": {"steps": TOY, "residual": 2}}),
             "program: missing key 'hypotheses'")
    rejected(tmp_path, seal({**doc, "program": TOY}), "program: expected an object, got a list")
    rejected(tmp_path, seal({**doc, "claim": {**doc["claim"], "kind": None, "x": 1}}),
             "claim: unexpected key 'x'")
    rejected(tmp_path, seal({**doc, "obligations": [1]}), "obligations[0]: expected an object")


def test_trust_line_names_the_program(tmp_path):
    a, b = certificate(TOY, 2), certificate(TOY + [["const", "0"]], 2)
    assert trust(a) != trust(b) and trust(a) in accepted(tmp_path, a) and trust(b) in accepted(tmp_path, b)
    assert program_digest(a["program"]).startswith(trust(a)[18:-1])


def test_wrong_types_never_crash():
    """Every value of a program certificate replaced by values of every JSON type."""
    inst = {"W": [["1", "2"], ["3", "4"]], "t": "1/2"}
    base = certificate([["input", "W", 1, 0], ["input", "t"], ["sqrt", 1], ["pow", 2, 3],
                        ["sub", 3, 0]], 4, hypotheses=[0], instance=inst)
    check_document(base)
    paths = []

    def walk(value, path):
        paths.append(path)
        if isinstance(value, (dict, list)):
            for k, v in (value.items() if isinstance(value, dict) else enumerate(value)):
                walk(v, path + (k,))

    walk(base, ())
    for path in paths[1:]:
        if path in (("digest",), ("bnproof_version",), ("claim", "source"), ("claim", "statement")):
            continue
        for value in (None, True, 0, -1, 7, 1.5, "x", "2", [], ["1"], [0], {}):
            doc = json.loads(json.dumps(base))
            target = doc
            for key in path[:-1]:
                target = target[key]
            if target[path[-1]] == value and type(target[path[-1]]) is type(value):
                continue
            target[path[-1]] = value
            try:
                check_document(seal(doc))
            except Rejected as exc:
                assert "internal" not in str(exc)


def test_show_program_renders_the_trusted_program(tmp_path):
    # x used once is written in place; v2 = x*2 is used twice, so it gets a name
    doc = certificate([["input", "x"], ["const", "2"], ["mul", 0, 1], ["mul", 2, 2], ["neg", 3],
                       ["const", "1"], ["sub", 4, 5], ["input", "x"], ["pow", 7, 2], ["add", 8, 5]],
                      6, hypotheses=[9])
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    ok, text = check_file(path, show_program=True)
    assert ok and text.splitlines()[1:] == ["  v2 = (x * 2)", "  hypothesis: (x^2 + 1) > 0",
                                             "  residual: (neg((v2 * v2)) - 1)"]
    assert check_file(path) == (True, text.splitlines()[0])  # one line unless asked
    assert main([str(path), "--show-program"]) == 0
