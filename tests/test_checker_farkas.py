"""The checker on existential certificates: honest ones accepted, forged ones (resealed
with a valid digest) rejected, whatever part is forged."""

import copy
import json
from fractions import Fraction

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.checker.farkas import TOO_HIGH, check_multipliers, degree
from bnproof.claims.api import Claim, Var
from bnproof.claims.exists import NO_WITNESS, decide_inner, trace
from bnproof.certificate.exists import build
from tamper import seal


def certificate(claim, instance, sizes=None):
    sizes = sizes or {}
    traced = trace(claim, sizes)
    inner = decide_inner(claim, traced, instance, sizes)
    assert inner.verdict == NO_WITNESS, inner
    return json.loads(json.dumps(build(claim, instance, sizes, traced, inner)))


INVERSE = Claim("t/inverse", "test", "p x = 1", lambda xp, x, p: p * x - 1, (Var("x"),),
                kind="identity", exists=(Var("p"),))
# p >= x and p <= -x: infeasible exactly when x > 0
BAND = Claim("t/band", "test", "x <= p <= -x", lambda xp, x, p: xp.asarray([p - x, -x - p]),
             (Var("x"),), exists=(Var("p"),))
SQUARE = Claim("t/square", "test", "p^2 = x", lambda xp, x, p: p * p - x, (Var("x"),),
               kind="identity", exists=(Var("p"),))


def forged(doc, change):
    doc = copy.deepcopy(doc)
    change(doc)
    return seal({k: v for k, v in doc.items() if k != "digest"})


def test_honest_farkas_certificates_are_accepted():
    doc = certificate(INVERSE, {"x": Fraction(0)})
    assert doc["nonexistence"] == {"method": "farkas", "multipliers": ["-1"]}
    assert "t/inverse refuted (no witness: a Farkas certificate" in check_document(doc)
    band = certificate(BAND, {"x": Fraction(1)})
    y = [Fraction(v) for v in band["nonexistence"]["multipliers"]]
    # independently: y1 (p - 1) + y2 (-1 - p) cancels p iff y1 = y2, and then sums to -2 y1 < 0
    assert y[0] == y[1] > 0
    check_document(band)


@pytest.mark.parametrize("change, why", [
    (lambda d: d["nonexistence"].update(multipliers=["0"]), "is 0"),
    (lambda d: d["nonexistence"].update(multipliers=["1", "-1"]), "expected 1"),
])
def test_wrong_multipliers_for_an_identity(change, why):
    with pytest.raises(Rejected, match=why):
        check_document(forged(certificate(INVERSE, {"x": Fraction(0)}), change))


def test_negative_or_non_cancelling_multipliers_are_rejected():
    band = certificate(BAND, {"x": Fraction(1)})
    with pytest.raises(Rejected, match="negative"):
        check_document(forged(band, lambda d: d["nonexistence"].update(multipliers=["-1", "-1"])))
    with pytest.raises(Rejected, match="do not cancel"):
        check_document(forged(band, lambda d: d["nonexistence"].update(multipliers=["1", "2"])))
    with pytest.raises(Rejected, match="not negative"):
        check_document(forged(band, lambda d: d["nonexistence"].update(multipliers=["0", "0"])))


def test_a_feasible_instance_cannot_be_certified():
    """At x = -1 the band [-1, 1] holds p = 0: the honest multipliers of x = 1 moved there fail."""
    band = certificate(BAND, {"x": Fraction(1)})
    with pytest.raises(Rejected):
        check_document(forged(band, lambda d: d["instance"].update(x="-1")))
    inverse = certificate(INVERSE, {"x": Fraction(0)})
    with pytest.raises(Rejected, match="do not cancel"):  # at x = 2, p = 1/2 exists
        check_document(forged(inverse, lambda d: d["instance"].update(x="2")))


def test_a_program_not_affine_in_p_cannot_carry_a_farkas_certificate():
    """p * p - x at x = -1 really has no real root, but p^2 is not affine: only SMT can say so."""
    inverse = certificate(INVERSE, {"x": Fraction(0)})

    def square(d):  # the step p*x becomes p*p
        steps = d["program"]["steps"]
        mul = next(k for k, s in enumerate(steps) if s[0] == "mul")
        p = next(k for k, s in enumerate(steps) if s[:2] == ["input", "p"])
        steps[mul] = ["mul", p, p]
    with pytest.raises(Rejected, match="not affine"):
        check_document(forged(inverse, square))

    def under_abs(d):  # abs(p) - 1 = 0 would be solvable; the checker never linearizes through abs
        steps = d["program"]["steps"]
        p = next(k for k, s in enumerate(steps) if s[:2] == ["input", "p"])
        steps.append(["abs", p])
        steps.append(["sub", len(steps) - 1, next(k for k, s in enumerate(steps) if s == ["const", "1"])])
        d["program"]["residuals"] = [len(steps) - 1]
    with pytest.raises(Rejected, match="not affine"):
        check_document(forged(inverse, under_abs))


def test_irrational_coefficients_are_rejected():
    """sqrt(2) p - 1 = 0 with multiplier 0 ... the coefficient is irrational: refused."""
    claim = Claim("t/irr", "test", "s p = 1", lambda xp, x, p: xp.sqrt(x) * p - 1, (Var("x"),),
                  kind="identity", exists=(Var("p"),))
    doc = certificate(INVERSE, {"x": Fraction(0)})
    traced = trace(claim, {})
    from bnproof.certificate.exists import program_of
    doc = forged(doc, lambda d: (d["program"].update(program_of(traced)), d["instance"].update(x="2")))
    with pytest.raises(Rejected, match="not an exact rational"):
        check_document(doc)


def test_a_hypothesis_reading_p_is_rejected():
    inverse = certificate(INVERSE, {"x": Fraction(0)})
    p = next(k for k, s in enumerate(inverse["program"]["steps"]) if s[:2] == ["input", "p"])
    with pytest.raises(Rejected, match="hypothesis 0 depends on an existential"):
        check_document(forged(inverse, lambda d: d["program"].update(hypotheses=[p])))


def test_smt_certificates_state_their_trust_and_bind_their_query():
    doc = certificate(SQUARE, {"x": Fraction(-1)})
    assert doc["nonexistence"]["method"] == "smt"
    line = check_document(doc)
    assert "non-existence confirmed by z3 and cvc5 (not checked by the bnproof kernel)" in line
    with pytest.raises(Rejected, match="not the query"):
        check_document(forged(doc, lambda d: d["nonexistence"].update(query="(assert false)\n(check-sat)\n")))
    with pytest.raises(Rejected, match="not the query"):  # x = 4 has p = 2: the query is x's
        check_document(forged(doc, lambda d: d["instance"].update(x="4")))
    with pytest.raises(Rejected, match="both z3 and cvc5"):
        check_document(forged(doc, lambda d: d["nonexistence"].update(answers={"z3": "unsat"})))
    with pytest.raises(Rejected, match="trust"):
        check_document(forged(doc, lambda d: d["nonexistence"].update(trust="checked")))


def test_a_paper_claim_id_cannot_be_refuted_by_an_existential_certificate():
    doc = certificate(INVERSE, {"x": Fraction(0)})
    with pytest.raises(Rejected, match="claim of the papers"):
        check_document(forged(doc, lambda d: d["claim"].update(id="santurkar2018/theorem-4.1")))


def test_x_alone_undefined_is_rejected():
    claim = Claim("t/div", "test", "p/x", lambda xp, x, p: p - 1 / x, (Var("x"),), kind="identity",
                  exists=(Var("p"),))
    doc = certificate(INVERSE, {"x": Fraction(0)})
    from bnproof.certificate.exists import program_of
    doc = forged(doc, lambda d: d["program"].update(program_of(trace(claim, {}))))
    with pytest.raises(Rejected, match="division by zero"):
        check_document(doc)


def test_degree_and_multipliers_directly():
    steps = [["input", "x"], ["input", "p"], ["mul", 0, 1], ["mul", 2, 1], ["div", 0, 1], ["pow", 1, 0]]
    assert degree(steps, {"p"}) == [0, 1, 1, TOO_HIGH, TOO_HIGH, 0]
    a, b = [[Fraction(1)], [Fraction(-1)]], [Fraction(0), Fraction(-1)]
    assert check_multipliers([Fraction(1), Fraction(1)], a, b, "inequality")
    with pytest.raises(Rejected):  # p >= 0, -p - 1 >= 0... strict: y >= 0, nonzero
        check_multipliers([Fraction(0), Fraction(0)], a, b, "strict-inequality")
    assert check_multipliers([Fraction(1), Fraction(1)], a, [Fraction(0), Fraction(0)], "strict-inequality")
