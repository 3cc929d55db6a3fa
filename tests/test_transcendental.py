"""exp, log, arccos, tanh, sigmoid and π (issue 12.4): every backend, rigorous sign
decisions by balls after the side conditions, exact zeros never refuted (by the engine
or the checker, forged certificates included), bounded work at hostile arguments, the
prover's refusal, the SMT export's refusal, LaTeX."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from bnproof.certificate.program import build
from bnproof.certificate.smtlib_program import NotExportable, program_smt
from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.claims import xp as namespaces
from bnproof.claims.decide import HOLDS, OUTSIDE, REFUTED, UNDECIDED, decide, sizes_of, trace
from bnproof.claims.prove import OUTSIDE_FRAGMENT, prove_at
from bnproof.program.evaluate import decide_sign, to_sympy
from bnproof.program.trace import Program
from bnproof.render.latex_program import document
from tamper import seal

F = Fraction


def scalar(residual, kind="inequality", hypotheses=(), claim_id="t/transcendental", **kw):
    return Claim(id=claim_id, source="a test", statement=r"x", variables=(Var("x", ()),),
                 residual=residual, kind=kind, hypotheses=hypotheses, **kw)


def certificate(claim, x):
    instance = {"x": F(x)}
    return build(claim, instance, trace(claim, sizes_of(claim, instance)))


def sign_of(fn):
    program = Program()
    out = fn(namespaces.trace(program))
    out = out.reshape(()).item() if isinstance(out, np.ndarray) else out
    return decide_sign(program.steps, None, out.index)


# -- every backend computes the same function --------------------------------------------

def RESIDUAL(xp, x):
    return xp.arccos(x / 2) * 2 - xp.pi + xp.exp(x) * xp.sigmoid(x) - xp.log(x * x + 1) + xp.tanh(x)


@pytest.mark.parametrize("x", [F(1, 3), F(-7, 5), F(2)])
def test_backends_agree(x):
    with mpmath.workprec(200):
        m = mpmath.mpf(x.numerator) / x.denominator
        expected = (2 * mpmath.acos(m / 2) - mpmath.pi
                    + mpmath.exp(m) / (1 + mpmath.exp(-m)) - mpmath.log(m * m + 1) + mpmath.tanh(m))
    sym = namespaces.symbolic()
    assert abs(float(RESIDUAL(sym, sym.q(x.numerator, x.denominator)).evalf(30)) - expected) < 1e-12
    flt = namespaces.floating()
    assert abs(RESIDUAL(flt, flt.asarray(float(x))) - expected) < 1e-12
    jnp = namespaces.numeric()
    assert abs(float(RESIDUAL(jnp, jnp.asarray(float(x)))) - expected) < 1e-12
    program = Program()
    out = RESIDUAL(namespaces.trace(program), program.emit(["input", "x"]))
    out = out.reshape(()).item() if isinstance(out, np.ndarray) else out
    exact = to_sympy(program.steps, lambda name, index: x, out.index)
    with mpmath.workprec(200):
        assert abs(mpmath.mpf(str(exact.evalf(40))) - expected) < 1e-35
    sign = decide_sign(program.steps, lambda name, index: x, out.index)
    assert sign.sign == (1 if expected > 0 else -1)
    assert sign.value.lo <= F(str(mpmath.nstr(expected, 40))) + F(1, 10**30) and \
        sign.value.hi >= F(str(mpmath.nstr(expected, 40))) - F(1, 10**30)


def test_pi_is_a_step_only_where_used_and_sigmoid_traces_through_exp():
    program = Program()
    xp = namespaces.trace(program)
    assert program.steps == []  # building the namespace emits nothing
    x = program.emit(["input", "x"])
    xp.sigmoid(x)
    xp.pi + xp.pi
    ops = [s[0] for s in program.steps]
    assert ops.count("pi") == 1 and "exp" in ops and "sigmoid" not in ops


# -- rigorous decisions, side conditions first ---------------------------------------------


def test_false_claims_are_refuted_and_certified():
    claim = scalar(lambda xp, x: x - xp.tanh(x))  # "tanh x ≤ x": false for x < 0
    assert decide(claim, {"x": F(-1, 2)}).verdict == REFUTED
    assert decide(claim, {"x": F(1, 2)}).verdict == HOLDS
    assert "refuted" in check_document(certificate(claim, F(-1, 2)))
    angle = scalar(lambda xp, x: xp.arccos(x) - xp.pi / 2)  # "arccos x ≥ π/2": false for x > 0
    assert decide(angle, {"x": F(1, 10**30)}).verdict == REFUTED  # by 1e-30: more precision
    assert decide(angle, {"x": F(-1, 3)}).verdict == HOLDS
    assert "refuted" in check_document(certificate(angle, F(1, 10**30)))


@pytest.mark.parametrize("residual, x", [
    (lambda xp, x: xp.exp(xp.log(x)) - x, 2),
    (lambda xp, x: xp.exp(xp.log(x)) - x, F(1, 7)),
    (lambda xp, x: 2 * xp.arccos(x - x) - xp.pi, 5),
    (lambda xp, x: xp.arccos(x) + xp.arccos(-x) - xp.pi, F(1, 3)),
    (lambda xp, x: xp.log(x * x) - 2 * xp.log(x), 3),
    (lambda xp, x: xp.tanh(x) * (1 + xp.exp(-2 * x)) - (1 - xp.exp(-2 * x)), F(5, 2)),
    (lambda xp, x: xp.sigmoid(x) + xp.sigmoid(-x) - 1, 3),
])
def test_exact_zeros_are_never_refuted(residual, x):
    for kind in ("identity", "inequality"):  # as an identity, and as "≥ 0"
        decision = decide(scalar(residual, kind=kind), {"x": F(x)})
        assert decision.verdict == UNDECIDED and "may be exactly 0" in decision.detail, decision
    for strict in (True,):  # "> 0": exactly 0 would refute it, but 0 is never proved
        assert decide(scalar(residual, strict=strict), {"x": F(x)}).verdict == UNDECIDED


def test_rational_values_of_transcendental_steps_are_exact():
    for fn in (lambda xp: xp.exp(xp.q(0)) - 1, lambda xp: xp.log(xp.q(1)),
               lambda xp: xp.arccos(xp.q(1)), lambda xp: xp.tanh(xp.q(0)),
               lambda xp: xp.sigmoid(xp.q(0)) - xp.q(1, 2)):
        sign = sign_of(fn)
        assert sign.sign == 0 and sign.how == "exact rational"


@pytest.mark.parametrize("residual, x, why", [
    (lambda xp, x: xp.log(x), 0, "log of 0"),
    (lambda xp, x: xp.log(x), -3, "log of a negative"),
    (lambda xp, x: xp.log(x - xp.sqrt(x * x)), 2, "log of 0"),  # an algebraic exact 0
    (lambda xp, x: xp.log(xp.sqrt(x) - 1), F(1, 4), "log of a negative"),
    (lambda xp, x: xp.arccos(x), F(3, 2), "outside [-1, 1]"),
    (lambda xp, x: xp.arccos(xp.sqrt(x) * xp.sqrt(x) / 2 + F(1, 10**40)), 2, "outside [-1, 1]"),
    (lambda xp, x: xp.arccos(-xp.sqrt(x) * xp.sqrt(x) / 2 - F(1, 10**40)), 2, "outside [-1, 1]"),
])
def test_undefined_operations_put_the_instance_outside(residual, x, why):
    decision = decide(scalar(residual), {"x": F(x)})
    assert decision.verdict == OUTSIDE and why in decision.detail, decision


def test_arccos_at_the_exact_edges_of_its_domain():
    # √2·√2/2 is exactly 1 but irrational steps lead to it: the exact zero test settles it
    assert sign_of(lambda xp: xp.arccos(xp.sqrt(xp.q(2)) * xp.sqrt(xp.q(2)) / 2)).sign == 0
    # arccos(−1) = π: the difference is exactly 0 and not algebraic, so undecided
    sign = sign_of(lambda xp: xp.arccos(-xp.sqrt(xp.q(2)) * xp.sqrt(xp.q(2)) / 2) - xp.pi)
    assert sign.sign is None
    sign = sign_of(lambda xp: xp.arccos(-xp.sqrt(xp.q(2)) * xp.sqrt(xp.q(2)) / 2) - 3)
    assert sign.sign == 1  # π − 3 > 0, with the argument exactly −1
    # 1 − 10^-40 is inside: more precision, then a value
    assert sign_of(lambda xp: xp.arccos(xp.q(1) - xp.q(1, 10**40))).sign == 1


def test_hostile_arguments_are_bounded_work():
    claim = scalar(lambda xp, x: xp.exp(x) - 1)
    decision = decide(claim, {"x": F(2**5000)})  # e^(2^5000): refused, not computed
    assert decision.verdict == UNDECIDED and "±4096" in decision.detail
    decision = decide(scalar(lambda xp, x: xp.exp(x ** 64) - 1), {"x": F(3, 2) ** 64})
    assert decision.verdict == UNDECIDED
    assert decide(scalar(lambda xp, x: xp.tanh(x) - 2), {"x": F(2**5000)}).verdict == REFUTED
    assert decide(scalar(lambda xp, x: xp.log(x) - 3466), {"x": F(2**5000)}).verdict == REFUTED
    # tanh(2^5000) − 1 is −2e^(−2^5001) ≠ 0, beyond any precision: undecided, not 0
    assert decide(scalar(lambda xp, x: xp.tanh(x) - 1, kind="identity"),
                  {"x": F(2**5000)}).verdict == UNDECIDED


def test_the_prover_refuses_transcendental_programs():
    claim = scalar(lambda xp, x: xp.exp(xp.log(x)) - x, kind="identity",
                   hypotheses=(lambda xp, x: x,))
    result = prove_at(claim, {})
    assert result.status == OUTSIDE_FRAGMENT and "not algebraic" in result.reason
    # 2·arccos(0) − π: even a constant transcendental program is never "proved"
    zero = Claim(id="t/zero", source="a test", statement="0", variables=(),
                 residual=lambda xp: 2 * xp.arccos(xp.q(0)) - xp.pi, kind="identity")
    assert prove_at(zero, {}).status == OUTSIDE_FRAGMENT


# -- the checker: it re-verifies, and forgeries are rejected ---------------------------------


def forged(doc, steps, residual, kind=None):
    doc = {**doc, "program": {"steps": steps, "residual": residual, "hypotheses": []}}
    if kind is not None:
        doc["claim"] = {**doc["claim"], "kind": kind}
        sign = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}
        doc["obligations"] = [{"fact": "residual", "value": residual, "sign": sign[kind]}]
    return seal(doc)


@pytest.fixture(scope="module")
def genuine():
    return certificate(scalar(lambda xp, x: x - xp.tanh(x)), F(-1, 2))


@pytest.mark.parametrize("steps, residual, kind, reason", [
    # 2·arccos(0) − π < 0: exactly 0, so never proved negative
    ([["const", "0"], ["acos", 0], ["const", "2"], ["mul", 2, 1], ["pi"], ["sub", 3, 4]], 5,
     "inequality", "undecided at 4096 bits"),
    # exp(log 2) − 2 ≠ 0
    ([["const", "2"], ["log", 0], ["exp", 1], ["sub", 2, 0]], 3, "identity", "undecided"),
    # arccos(x) + arccos(−x) − π ≤ 0, strict: exactly 0 is a refutation only if proved
    ([["input", "x"], ["acos", 0], ["neg", 0], ["acos", 2], ["add", 1, 3], ["pi"], ["sub", 4, 5]],
     6, "strict-inequality", "undecided"),
    ([["const", "-1"], ["log", 0]], 1, "inequality", "log of a number <= 0"),
    ([["const", "3/2"], ["acos", 0]], 1, "inequality", "outside [-1, 1]"),
    ([["const", "2"], ["sqrt", 0], ["acos", 1]], 2, "inequality", "outside [-1, 1]"),
    ([["const", "0"], ["log", 0]], 1, "inequality", "log of a number <= 0"),
    ([["const", "4097"], ["exp", 0]], 1, "inequality", "work limit"),
    ([["const", "2"], ["pow", 0, 64], ["exp", 1], ["neg", 2]], 3, "inequality", "work limit"),
    ([["const", "1"], ["tanh", 0], ["tanh", 0, 0]], 1, "inequality", "tanh takes 1 arguments"),
    ([["pi", 0]], 0, "inequality", "pi takes 0 arguments"),
])
def test_forged_certificates_are_rejected(genuine, steps, residual, kind, reason):
    doc = forged(genuine, steps, residual, kind)
    with pytest.raises(Rejected, match=reason.replace("[", r"\[").replace("]", r"\]")):
        check_document(doc)


def test_genuine_certificates_are_accepted(genuine):
    assert "refuted" in check_document(genuine)
    # 22/7 − π < 0 is false (π < 22/7): a forged sign is rejected, the true one accepted
    steps = [["const", "22/7"], ["pi"], ["sub", 0, 1]]
    with pytest.raises(Rejected, match="is not negative"):
        check_document(forged(genuine, steps, 2, "inequality"))
    assert "refuted" in check_document(forged(genuine, [["pi"], ["const", "22/7"], ["sub", 0, 1]],
                                              2, "inequality"))


def test_the_smt_export_refuses_transcendental_programs(genuine):
    with pytest.raises(NotExportable, match="step 1 is tanh.*QF_NRA"):
        program_smt(genuine)


def test_latex_renders_the_new_steps():
    claim = scalar(lambda xp, x: xp.arccos(x) - xp.pi + xp.exp(x) - xp.log(x + 1) - xp.tanh(x))
    doc = certificate(claim, F(1, 2))
    text = document(doc, "ACCEPTED", "cert.json").render(True)
    for command in (r"\arccos", r"\pi", r"\log", r"\tanh", "e^{"):
        assert command in text, command
    assert "rigorous enclosures" in text and "series with proved truncation bounds" in text


def test_fuzz_refutes_a_false_claim_and_never_an_exact_zero():
    from bnproof.search.fuzz import fuzz

    false = scalar(lambda xp, x: x - xp.tanh(x), claim_id="t/tanh-below-identity")
    outcome = fuzz(false, max_examples=40, use_jax=False, time_budget=60)
    assert outcome.verdict == REFUTED and outcome.counterexample["x"] < 0
    zero = scalar(lambda xp, x: xp.exp(xp.log(x)) - x, kind="identity", claim_id="t/exp-log",
                  hypotheses=(lambda xp, x: x,))
    outcome = fuzz(zero, max_examples=40, use_jax=False, time_budget=60)
    assert outcome.verdict != REFUTED and outcome.refutation is None
    assert math.isclose(float(namespaces.floating().exp(namespaces.floating().log(2.0))), 2.0)


def test_the_residual_carries_the_engines_enclosure(genuine):
    stated = genuine["obligations"][-1]["enclosure"]
    lo, hi = F(stated["lo"]), F(stated["hi"])
    with mpmath.workprec(200):
        exact = F(-1, 2) - F(str(mpmath.nstr(mpmath.tanh(mpmath.mpf(-1) / 2), 50)))  # x − tanh x at −1/2
    assert stated["bits"] >= 64 and lo <= exact + F(1, 10**40) and hi >= exact - F(1, 10**40) and hi < 0
    assert "enclosure at 64 bits agrees" in check_document(genuine)
    algebraic = certificate(scalar(lambda xp, x: x - 1), 0)  # algebraic: no enclosure, as before
    assert "enclosure" not in algebraic["obligations"][-1]


@pytest.mark.parametrize("change, reason", [
    ({"lo": "1", "hi": "2"}, "does not show the residual negative"),  # the wrong sign
    ({"lo": "-3", "hi": "-2"}, "disjoint from the checker's own"),  # a false interval
    ({"lo": "-1/100", "hi": "-1/50"}, "does not show"),  # lo > hi
    ({"bits": True}, "bits must be an integer"),
    ({"bits": 0}, "bits must be an integer"),
    ({"lo": "0.5"}, "residual enclosure lo"),
    ({"extra": 1}, "unexpected key"),
])
def test_a_false_or_malformed_enclosure_is_rejected(genuine, change, reason):
    doc = {**genuine, "obligations": [dict(genuine["obligations"][-1])]}
    doc["obligations"][0]["enclosure"] = {**doc["obligations"][0]["enclosure"], **change}
    with pytest.raises(Rejected, match=reason):
        check_document(seal(doc))


def test_only_the_residual_has_an_enclosure(genuine):
    claim = scalar(lambda xp, x: x - xp.tanh(x), hypotheses=(lambda xp, x: -x,))
    doc = certificate(claim, F(-1, 2))
    doc["obligations"][0]["enclosure"] = doc["obligations"][-1]["enclosure"]
    with pytest.raises(Rejected, match="only the residual's obligation"):
        check_document(seal(doc))


def test_a_transcendental_certificate_follows_the_schema(genuine):
    import json
    from pathlib import Path

    from jsonschema import Draft202012Validator

    schema = json.loads((Path(__file__).parent.parent / "docs" / "certificate.schema.json").read_text())
    doc = certificate(scalar(lambda xp, x: xp.arccos(x) - xp.pi / 2 + xp.log(x + 1) * 0), F(1, 3))
    assert [s for s in doc["program"]["steps"] if s[0] in ("acos", "pi", "log")]
    for cert in (genuine, doc):
        Draft202012Validator(schema).validate(json.loads(json.dumps(cert)))


def test_a_proved_branch_with_an_exact_value_is_exact():
    # min(0, π) is exactly 0 once 0 < π is proved: not "may be exactly 0"
    assert sign_of(lambda xp: xp.minimum(xp.q(0), xp.pi)).sign == 0
    # and what follows it is algebraic again: the exact zero test applies
    sign = sign_of(lambda xp: xp.minimum(xp.q(0), xp.pi) + xp.sqrt(xp.q(2)) - xp.sqrt(xp.q(2)))
    assert sign.sign == 0 and sign.how == "exact zero test"
    assert sign_of(lambda xp: xp.maximum(xp.q(0), xp.pi) - xp.pi).sign is None  # π − π
