"""Existential claims end to end: the claim format, the inner decision, fuzz verdicts
(true claims never refuted, false ones refuted with a certificate the checker
accepts), bnproof check and bnproof latex."""

import json
from fractions import Fraction

import pytest

import bnproof
from bnproof.checker import check_document
from bnproof.claims.api import Claim, Var
from bnproof.claims.blocks import normalize
from bnproof.claims.exists import NO_WITNESS, OUTSIDE, WITNESS, decide_inner, trace


def run(claim, examples=30):
    return bnproof.fuzz(claim, seed=0, max_examples=examples, time_budget=60, jax=False)


def test_the_claim_format_validates_existential_variables():
    residual = lambda xp, x, p: p * x - 1  # noqa: E731
    with pytest.raises(ValueError, match="both universal and existential"):
        Claim("t/a", "s", "st", residual, (Var("x"),), exists=(Var("x"),))
    with pytest.raises(ValueError, match="domain 'real'"):
        Claim("t/a", "s", "st", residual, (Var("x"),), exists=(Var("p", (), "positive"),))
    with pytest.raises(ValueError, match="no range in sizes"):
        Claim("t/a", "s", "st", residual, (Var("x"),), exists=(Var("p", ("n",)),))


def test_a_hypothesis_reading_p_is_refused_when_traced():
    claim = Claim("t/h", "s", "st", lambda xp, x, p: p, (Var("x"),), exists=(Var("p"),),
                  hypotheses=(lambda xp, x, p: p * p + 1,))
    with pytest.raises(ValueError, match="hypothesis depends on an existential"):
        trace(claim, {})
    assert run(claim, 3).verdict == "undecided"


GAMMA_ABSORBED = Claim(  # W' = gamma W: linear in W', the normalized batch irrational at m = 3
    "t/gamma-absorbed", "test", "W' yhat = W (gamma yhat)",
    lambda xp, y, W, gamma, Wp: Wp * normalize(xp, y)[0] - W * (gamma * normalize(xp, y)[0]),
    (Var("y", ("m",)), Var("W", ()), Var("gamma", (), "nonzero")), sizes={"m": (2, 3)},
    kind="identity", exists=(Var("Wp", ()),),
    hypotheses=(lambda xp, y, W, gamma, Wp: xp.sum((y - xp.mean(y)) ** 2),))
BETA_CANCELS = Claim(
    "t/beta-cancels", "test", "gamma yhat_1 + beta' = 0",
    lambda xp, y, gamma, b: gamma * normalize(xp, y)[0][0] + b,
    (Var("y", ("m",)), Var("gamma", (), "nonzero")), sizes={"m": (2, 2)}, kind="identity",
    exists=(Var("b", ()),), hypotheses=(lambda xp, y, gamma, b: xp.sum((y - xp.mean(y)) ** 2),))
INVERSE = Claim("t/inverse", "test", "p x = 1", lambda xp, x, p: p * x - 1, (Var("x"),),
                kind="identity", exists=(Var("p"),))


def test_true_existential_claims_survive_with_exact_witnesses():
    for claim in (GAMMA_ABSORBED, BETA_CANCELS):
        result = run(claim)
        assert result.verdict == "survived", result.reason
        assert result.reason.startswith("witnesses found for")
        assert result.met_hypotheses > 10
        # the report says what was found: witnesses, not merely "no counterexample"
        line = result.text(timings=False).splitlines()[1]
        assert line.startswith(f"a witness found for each of the {result.met_hypotheses} instances"), line


def test_the_exact_zero_witness_is_confirmed_exactly():
    """At y = (3, 1) the normalized first sample is 1: beta' = -gamma, the residual exactly 0."""
    traced = trace(BETA_CANCELS, {"m": 2})
    inner = decide_inner(BETA_CANCELS, traced, {"y": [Fraction(3), Fraction(1)], "gamma": Fraction(2, 7)},
                         {"m": 2})
    assert inner.verdict == WITNESS and inner.witness == {"b": Fraction(-2, 7)}
    outside = decide_inner(BETA_CANCELS, traced, {"y": [Fraction(1), Fraction(1)], "gamma": Fraction(1)},
                           {"m": 2})
    assert outside.verdict == OUTSIDE  # sigma = 0: outside the hypotheses, never a refutation


def test_false_linear_claim_is_refuted_by_a_farkas_certificate():
    result = run(INVERSE)
    assert result.verdict == "refuted"
    assert result.counterexample == {"x": Fraction(0)}
    doc = json.loads(result.certificate)
    assert doc["nonexistence"] == {"method": "farkas", "multipliers": ["-1"]}
    assert "Farkas certificate" in check_document(doc)
    latex = bnproof.latex(result)
    assert r"\sum_i y_i\, r_i = 1 \neq 0" in latex


def test_a_system_infeasible_at_a_bn_batch_is_refuted():
    """'Some beta makes every BN output of the batch equal to 0': with sigma > 0 the outputs
    gamma yhat_b + beta differ, so no beta exists; m = 2 keeps the rows rational."""
    claim = Claim("t/all-zero", "test", "exists beta: gamma yhat + beta = 0",
                  lambda xp, y, gamma, beta: gamma * normalize(xp, y)[0] + beta,
                  (Var("y", ("m",)), Var("gamma", (), "nonzero")), sizes={"m": (2, 2)}, kind="identity",
                  exists=(Var("beta", ()),), hypotheses=(lambda xp, y, gamma, beta: xp.sum((y - xp.mean(y)) ** 2),))
    result = run(claim)
    assert result.verdict == "refuted"
    doc = json.loads(result.certificate)
    y = [Fraction(v) for v in doc["nonexistence"]["multipliers"]]
    assert y[0] == -y[1] != 0  # subtracting the two rows cancels beta and leaves 2 gamma != 0
    check_document(doc)


def test_a_false_nonlinear_claim_is_refuted_through_both_solvers(tmp_path):
    claim = Claim("t/square-root", "test", "p^2 = x", lambda xp, x, p: p * p - x, (Var("x"),),
                  kind="identity", exists=(Var("p"),))
    result = bnproof.fuzz(claim, seed=0, max_examples=30, time_budget=60, jax=False, out_dir=tmp_path)
    assert result.verdict == "refuted" and result.counterexample["x"] < 0
    assert "not checked by the bnproof kernel" in result.certificate_check
    checked = bnproof.check(result.certificate_path)
    assert checked.accepted and "re-run: z3 unsat, cvc5 unsat" in checked.line
    assert "trusted, not checked" in bnproof.latex(result)


def test_a_nonlinear_witness_is_found_and_an_irrational_one_is_undecided():
    claim = Claim("t/square", "test", "p^2 = x", lambda xp, x, p: p * p - x, (Var("x"),),
                  kind="identity", exists=(Var("p"),))
    traced = trace(claim, {})
    # one call: z3's model (3/2 or -3/2) depends on what the process asked z3 before
    assert decide_inner(claim, traced, {"x": Fraction(9, 4)}, {}).witness in \
        ({"p": Fraction(3, 2)}, {"p": Fraction(-3, 2)})
    assert decide_inner(claim, traced, {"x": Fraction(2)}, {}).verdict == "undecided"  # sqrt 2: not refuted
    assert decide_inner(claim, traced, {"x": Fraction(-1)}, {}).verdict == NO_WITNESS


def test_a_vector_of_inequalities_is_a_system():
    """x <= p <= x + 1 always has p = x; p >= x and p <= x - 1 never does (x any)."""
    holds = Claim("t/band-ok", "test", "x <= p <= x + 1", lambda xp, x, p: xp.asarray([p - x, x + 1 - p]),
                  (Var("x"),), exists=(Var("p"),))
    fails = Claim("t/band-empty", "test", "x <= p <= x - 1", lambda xp, x, p: xp.asarray([p - x, x - 1 - p]),
                  (Var("x"),), exists=(Var("p"),))
    assert run(holds, 10).verdict == "survived"
    result = run(fails, 10)
    assert result.verdict == "refuted"
    assert [Fraction(v) for v in json.loads(result.certificate)["nonexistence"]["multipliers"]] == \
        [Fraction(1), Fraction(1)]  # (p - x) + (x - 1 - p) = -1 < 0, after z3's normalization


def test_seed_determinism_and_vacuity():
    a, b = run(GAMMA_ABSORBED, 10), run(GAMMA_ABSORBED, 10)
    assert (a.verdict, a.instances, a.met_hypotheses) == (b.verdict, b.instances, b.met_hypotheses)
    never = Claim("t/never", "test", "x^2 < 0", lambda xp, x, p: p, (Var("x"),), exists=(Var("p"),),
                  hypotheses=(lambda xp, x, p: -x * x,))
    assert run(never, 10).verdict == "vacuous"


def test_transcendental_inner_problems_are_undecided_never_refuted():
    """exp(p) = -1 has no solution, but no solver here proves it: undecided, not refuted."""
    claim = Claim("t/exp", "test", "exp p = x", lambda xp, x, p: xp.exp(p) - x, (Var("x"),),
                  kind="identity", exists=(Var("p"),))
    inner = decide_inner(claim, trace(claim, {}), {"x": Fraction(-1)}, {})
    assert inner.verdict == "undecided" and "no SMT-LIB form" in inner.detail


def test_a_residual_index_outside_the_program_names_its_list():
    """One reader of step indices for existential and witness certificates (issue 25): an
    index past the last step is refused with the list that holds it."""
    from bnproof.checker import Rejected
    from tamper import seal

    doc = json.loads(run(INVERSE).certificate)
    doc["program"]["residuals"] = [len(doc["program"]["steps"])]
    with pytest.raises(Rejected, match=r"program\.residuals: \d+ is not the index of a step"):
        check_document(seal(doc))
