"""Expectations over a batch of m i.i.d. draws, proved for every m (issue 23, pattern 6):
the engine's moment algebra (symbolic_m/moments_n.py), its certificates and the
checker's independent replay (checker/moments_n.py), the second reading, and the near
misses (biased and unbiased variance swapped, Var X/m² for Var X/m) never proved."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

import bnproof
from bnproof.checker.kernel import check_document
from bnproof.checker.parse import Rejected
from bnproof.claims import Claim, Law, Var
from bnproof.claims.api import load_file
from bnproof.errors import Disagreement
from bnproof.symbolic_m import moments_n as MN
from bnproof.symbolic_m import moments_n_prove as MP
from bnproof.symbolic_m.prove import NOT_PROVED, OUTSIDE, PROVED, attempt
from tamper import seal

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_n_moments.py"
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(GALLERY)}
TRUE = ["bessel", "biased-variance", "variance-of-the-mean", "mean-of-the-mean", "variance-of-the-sample-variance",
        "affine-mean"]
NEAR_MISSES = ["swapped", "variance-of-the-mean-over-m-squared", "variance-of-the-sample-variance-wrong",
               "affine-mean-wrong"]
FIXED = {"k": 2}


@pytest.fixture(scope="module")
def bessel():
    result = attempt(CLAIMS["bessel"], FIXED)
    assert result.status == PROVED, result.reason
    return result


# ---------------------------------------------------------------- the moment algebra


def _engine(factors: list[int]):
    num = MN.ONE
    for k in factors:
        num = num * MN.GEN[f"P{k}"]
    return MN.expectation(num, None)


def _checker(factors: list[int]):
    from bnproof.checker import moments_n as CM

    num = CM.ONE
    for k in factors:
        num = CM.p_mul(num, CM.p_var(f"P7.{k}"))
    return CM.expectation(num, 7)


def _brute(factors: list[int], n: int, support, probs) -> Fraction:
    """E[Π_j Σ_b X_b^{k_j}] by enumerating every batch of n draws."""
    total = Fraction(0)
    for batch in itertools.product(range(len(support)), repeat=n):
        weight = Fraction(1)
        for i in batch:
            weight *= probs[i]
        value = Fraction(1)
        for k in factors:
            value *= sum(support[i] ** k for i in batch)
        total += weight * value
    return total


def _at_engine(p, n, moments) -> Fraction:
    point = [Fraction(n)] + [moments[k] for k in range(1, MN.MAX_MOMENT + 1)] + \
        [Fraction(0)] * (len(MN.NAMES) - 1 - MN.MAX_MOMENT)
    total = Fraction(0)
    for mono, c in zip(p.monoms(), p.coeffs()):
        t = Fraction(int(c.p), int(c.q))
        for v, e in zip(point, mono):
            t *= v ** int(e)
        total += t
    return total


def test_second_moment_of_the_batch_sum_is_the_classic_formula():
    m, mu1, mu2 = MN.GEN["m"], MN.GEN["mu1"], MN.GEN["mu2"]
    assert _engine([1, 1]) == m * mu2 + m * (m - 1) * mu1**2
    assert _engine([1, 2]) == m * MN.GEN["mu3"] + m * (m - 1) * mu1 * mu2


@pytest.mark.parametrize("factors", [[1], [2], [1, 1], [1, 2], [1, 1, 1], [2, 2], [1, 1, 2], [1, 1, 1, 1], [3, 1, 2]])
def test_engine_checker_and_enumeration_agree(factors):
    from bnproof.checker import moments_n as CM

    rng = random.Random(len(factors) * 7 + sum(factors))
    support = [Fraction(rng.randint(-3, 3), rng.randint(1, 3)) for _ in range(3)]
    weights = [Fraction(rng.randint(1, 4)) for _ in range(3)]
    probs = [w / sum(weights) for w in weights]
    moments = {k: sum(p * s**k for p, s in zip(probs, support)) for k in range(1, MN.MAX_MOMENT + 1)}
    engine, checker = _engine(factors), _checker(factors)
    for n in (1, 2, 3, 4):
        expected = _brute(factors, n, support, probs)
        assert _at_engine(engine, n, moments) == expected
        assert CM.evaluate(checker, CM.point_of(n, support, weights)) == expected


# ---------------------------------------------------------------- proofs and near misses


@pytest.mark.parametrize("name", TRUE)
def test_true_claims_are_proved_for_every_m_with_an_accepted_certificate(name):
    result = attempt(CLAIMS[name], FIXED)
    assert result.status == PROVED, result.reason
    assert result.proof == {"method": "moments-n"}
    assert "proved for every n" in check_document(result.document)


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_not_proved_and_show_their_normal_form(name):
    result = attempt(CLAIMS[name], FIXED)
    assert result.status == NOT_PROVED and "normal form" in result.reason
    assert "μ1" in result.normal_form and "μ2" in result.normal_form
    assert result.document is None


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_refuted_by_fuzz(name, tmp_path):
    result = bnproof.fuzz(CLAIMS[name], out_dir=tmp_path, seed=0, max_examples=60, time_budget=60, jax=False)
    assert result.verdict == "refuted", result.reason
    assert bnproof.check(result.certificate_path, claim=CLAIMS[name]).accepted


def test_prove_api_proves_bessel_at_every_declared_law_size():
    result = bnproof.prove(CLAIMS["bessel"])
    assert result.status == "proved", result.text
    assert [f["k"] for f in result.covered] == [1, 2, 3]


# ---------------------------------------------------------------- forged certificates


def _forged(doc: dict, change) -> dict:
    forged = json.loads(json.dumps(doc))
    change(forged)
    return seal(forged)


def test_an_unchanged_resealed_certificate_is_accepted(bessel):
    check_document(_forged(bessel.document, lambda d: None))


def test_a_wrong_coefficient_is_rejected(bessel):
    def change(doc):
        steps = doc["program"]["steps"]
        k = next(i for i, s in enumerate(steps) if s == ["const", "1"])
        steps[k] = ["const", "2"]

    with pytest.raises(Rejected, match="not the zero polynomial"):
        check_document(_forged(bessel.document, change))


def test_m_squared_for_m_is_rejected(bessel):
    """The program of Bessel's correction with m² for m (a valid digest, a program of
    another statement): its residual is not 0."""
    m2 = Claim(id="t/m2", source="t", statement="x", kind="identity", variables=(Law("X", (), "k"),
               Var("batch", ("m",))), sizes={"k": (1, 3), "m": (2, 6)},
               residual=lambda xp, X, batch: xp.expect(_biased, X, batch.shape[0]) * batch.shape[0] ** 2
               / (batch.shape[0] - 1) - xp.var(lambda xp, B: B[0], X, 1))
    program, _ = MN.program_for(m2)
    with pytest.raises(Rejected, match="not the zero polynomial"):
        check_document(_forged(bessel.document, lambda d: d.update(program=program)))


def _biased(xp, B):
    return xp.mean((B - xp.mean(B)) ** 2)


def test_a_draw_dependent_divisor_is_rejected(bessel):
    def change(doc):
        steps = doc["program"]["steps"]
        k = next(i for i, s in enumerate(steps) if s[0] == "div" and steps[s[2]][0] == "n")
        sums = next(i for i, s in enumerate(steps) if s[0] == "sum" and i < k)
        steps[k] = ["div", steps[k][1], sums]

    with pytest.raises(Rejected, match="depends on the draws"):
        check_document(_forged(bessel.document, change))


def test_a_vacuous_witness_is_rejected(bessel):
    """At m = 1 Bessel's m/(m − 1) divides by 0: the witness shows nothing."""
    def change(doc):
        doc["witness"]["m"] = 1
        doc["witness"]["inputs"]["batch"] = ["0"]

    with pytest.raises(Rejected, match="undefined at n = 1"):
        check_document(_forged(bessel.document, change))


def test_the_program_of_another_claim_is_not_bound(bessel, tmp_path):
    """A zero program of another true claim, under Bessel's statement: the checker accepts
    (its residual is 0), and the binding to the claim rejects it."""
    other = attempt(CLAIMS["biased-variance"], FIXED).document
    forged = _forged(bessel.document, lambda d: d.update(program=other["program"]))
    check_document(forged)
    path = tmp_path / "forged.proof.json"
    path.write_text(json.dumps(forged), encoding="ascii")
    assert not bnproof.check(path, claim=CLAIMS["bessel"]).accepted
    genuine = tmp_path / "bessel.proof.json"
    genuine.write_text(json.dumps(bessel.document), encoding="ascii")
    assert bnproof.check(genuine, claim=CLAIMS["bessel"]).accepted


# ---------------------------------------------------------------- second reading and fragment


def test_the_second_reading_catches_a_program_that_is_not_the_claim():
    wrong, _ = MN.program_for(CLAIMS["variance-of-the-mean-over-m-squared"])
    confirmation = MP.second_reading(CLAIMS["variance-of-the-mean"], FIXED, wrong)
    assert confirmation.status == "disagrees", confirmation.detail
    with pytest.raises(Disagreement):
        MP.gate(CLAIMS["variance-of-the-mean"], FIXED, wrong)


def test_the_second_reading_agrees_with_a_proof():
    program, _ = MN.program_for(CLAIMS["bessel"])
    confirmation = MP.second_reading(CLAIMS["bessel"], FIXED, program)
    assert confirmation.status == "agrees" and confirmation.compared == 6  # n = 2, 3, 4, 5, 7 and the declared 6


def _law_claim(residual, **kw):
    return Claim(id="t/outside", source="t", statement="x", kind="identity",
                 variables=(Law("X", (), "k"), Var("batch", ("m",))), sizes={"k": (1, 2), "m": (2, 4)},
                 residual=residual, **kw)


@pytest.mark.parametrize("residual, reason", [
    (lambda xp, X, batch: xp.expect(lambda xp, B: xp.sum(B * X.support[0]), X, batch.shape[0]), "support"),
    (lambda xp, X, batch: xp.expect(lambda xp, B: 1 / xp.sum(B), X, batch.shape[0]), "division"),
    (lambda xp, X, batch: xp.expect(lambda xp, B: B[0], X, batch.shape[0]), "entry"),
    (lambda xp, X, batch: xp.expect(lambda xp, B: xp.sqrt(xp.sum(B ** 2)), X, batch.shape[0]), "sqrt"),
    (lambda xp, X, batch: xp.expect(lambda xp, B: xp.sum(B), X, batch.shape[0] + 1), "number of draws"),
    (lambda xp, X, batch: xp.sum(batch), "batch"),
])
def test_outside_the_fragment_is_said_never_proved(residual, reason):
    result = attempt(_law_claim(residual), {"k": 1})
    assert result.status == OUTSIDE and reason in result.reason, result.reason


def test_a_caught_refusal_is_still_outside():
    def residual(xp, X, batch):
        try:
            xp.expect(lambda xp, B: 1 / xp.sum(B), X, batch.shape[0])
        except Exception:
            pass
        return xp.expect(lambda xp, B: xp.sum(B), X, batch.shape[0]) - batch.shape[0] * \
            xp.expect(lambda xp, B: B[0], X, 1)

    result = attempt(_law_claim(residual), {"k": 1})
    assert result.status == OUTSIDE and "division" in result.reason


def test_the_derivation_is_printed_from_the_checker_replay():
    """`bnproof latex` of the proof: each expectation as a polynomial in m and the moments
    (E[P₁²]'s m(m − 1)μ₁² term among them), and R = 0."""
    tex = bnproof.latex(bnproof.prove(CLAIMS["variance-of-the-mean"]))
    assert r"\begin{document}" in tex and tex.rstrip().endswith(r"\end{document}")
    assert r"\mathbb{E}\Big[\frac{P_{1}^{2}}{m^{2}}\Big]" in tex
    assert r"m^{2} \mu_{1}^{2}" in tex and "R = 0" in tex
    assert "".join(CLAIMS["variance-of-the-mean"].statement.split()) in "".join(tex.split())


def test_a_batch_of_fixed_size_is_read_as_numpy_reads_it():
    """xp.expect(f, X, 4) with f combining the batch array and a traced mean (numpy's
    broadcasting, np.mean of the array): E[σ²_B] = 3/4·Var X at 4 draws is proved, Var X is not."""
    import numpy as np

    def biased_np(xp, B):
        return xp.mean((B - np.mean(B)) ** 2)

    def variance(xp, X):
        return xp.var(lambda xp, B: B[0], X, 1)

    right = _law_claim(lambda xp, X, batch: xp.expect(biased_np, X, 4) - xp.q(3, 4) * variance(xp, X))
    wrong = _law_claim(lambda xp, X, batch: xp.expect(biased_np, X, 4) - variance(xp, X))
    assert attempt(right, {"k": 2}).status == PROVED
    result = attempt(wrong, {"k": 2})
    assert result.status == NOT_PROVED and "μ2" in result.normal_form


def test_a_value_kept_from_an_expectation_is_outside():
    """A batch's value that escapes its expectation (kept in a list) names draws that are
    gone: used in the residual or in another expectation, it is outside, never 0."""
    def residual(xp, X, batch, into_other):
        kept = []

        def f(xp, B):
            kept.append(xp.sum(B))
            return xp.sum(B)

        xp.expect(f, X, batch.shape[0])
        if into_other:
            return xp.expect(lambda xp, B: kept[0], X, batch.shape[0]) - xp.expect(f, X, batch.shape[0])
        return kept[0] - kept[0]

    for into_other in (False, True):
        claim = _law_claim(lambda xp, X, batch: residual(xp, X, batch, into_other))
        result = attempt(claim, {"k": 1})
        assert result.status == OUTSIDE and "batch" in result.reason, result.reason


def test_export_says_there_is_no_smt_export_in_one_line(bessel, tmp_path):
    from cli_runner import run_cli

    path = tmp_path / "bessel.proof.json"
    path.write_text(json.dumps(bessel.document), encoding="ascii")
    result = run_cli("export", path, "--m", "3")
    assert result.returncode == 3 and "no SMT-LIB export" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_a_law_of_more_points_than_the_reading_enumerates_is_proved():
    """At k = 5 the reading would enumerate 5^7 batches (over its cap): it reads the claim
    at k = 3, where the same program is the claim's."""
    import dataclasses

    claim = dataclasses.replace(CLAIMS["variance-of-the-mean"], sizes={"k": (1, 5), "m": (2, 6)})
    result = attempt(claim, {"k": 5})
    assert result.status == PROVED, result.reason
    assert MP.read_at(claim, result.program, {"k": 5}) == {"k": 3}


def test_scalar_inputs_are_constants_of_every_expectation():
    """Var(γ·μ_B + β) = γ²·Var X/m: the certificate names γ and β as inputs; a forged
    certificate with γ for γ² on the right is rejected, and so is one that declares an
    input otherwise than the claim."""
    result = attempt(CLAIMS["affine-mean"], FIXED)
    assert result.status == PROVED and result.program["inputs"] == [["gamma", "real"], ["beta", "real"]]
    assert "γ" in attempt(CLAIMS["affine-mean-wrong"], FIXED).normal_form  # the input γ, as the claim writes it

    def change(doc):
        steps = doc["program"]["steps"]
        gamma = steps.index(["input", "gamma"])
        k = steps.index(["pow", gamma, 2])
        steps[k] = ["pow", gamma, 1]

    with pytest.raises(Rejected, match="not the zero polynomial"):
        check_document(_forged(result.document, change))

    def undeclared(doc):
        doc["program"]["inputs"][0][1] = "positive"

    with pytest.raises(Rejected, match="not a law's"):
        check_document(_forged(result.document, undeclared))
