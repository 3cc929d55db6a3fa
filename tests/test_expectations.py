"""Random variables (issue 12.2): Law declarations, xp.expect and xp.var by moment algebra.

Every exact value here is recomputed independently by enumerating the batches
with Fractions; the moment algebra must agree with it in every backend, keep
its programs small, refuse what is not a polynomial in the samples, and give
true claims (exact residual 0) no refutation and false ones a certificate the
checker accepts."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Law, Var
from bnproof.claims import xp as namespaces
from bnproof.claims.api import load_file
from bnproof.claims.decide import HOLDS, OUTSIDE, REFUTED, UNDECIDED, decide, trace
from bnproof.claims.law import distribution
from bnproof.claims.moments import ExpansionTooLarge, NotPolynomial
from bnproof.claims.prove import prove_at
from bnproof.errors import BadInput
from tamper import seal

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "expectations.py"


# ---------------------------------------------------------------- the independent oracle


def enumerate_batches(support, weights, n, f):
    """(E[f], E[f²]) by summing over all kⁿ batches, f a function of a list of draws."""
    total = sum(weights)
    p = [F(w) / total for w in weights]
    first = second = F(0)
    for idx in itertools.product(range(len(support)), repeat=n):
        prob = F(1)
        for i in idx:
            prob *= p[i]
        value = f([support[i] for i in idx])
        first += prob * value
        second += prob * value * value
    return first, second


def unbiased_variance(xs):
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def svar(xp, B):
    return xp.sum((B - xp.mean(B)) ** 2) / (B.shape[0] - 1)


def claim_of(residual, law=Law("X", (), "k"), extra=(), kind="inequality", sizes=None, **more):
    return Claim(id="t/expect", source="tests", statement="s", variables=(law, *extra),
                 sizes=sizes or {"k": (1, 3)}, residual=residual, kind=kind, **more)


SUPPORT, WEIGHTS = [F(-1), F(1, 2), F(3)], [F(1), F(2), F(4)]


def test_var_of_the_batch_variance_matches_enumeration_with_a_small_program():
    """3-point law, n = 6: 729 batches by enumeration; the traced program stays small."""
    claim = claim_of(lambda xp, X: xp.var(svar, X, 6))
    traced = trace(claim, {"k": 3})
    assert len(traced.steps) < 5000
    decision = decide(claim, {"X_support": SUPPORT, "X_weights": WEIGHTS}, traced=traced)
    first, second = enumerate_batches(SUPPORT, WEIGHTS, 6, unbiased_variance)
    assert decision.residual.how == "exact rational"
    assert decision.residual.value.lo == decision.residual.value.hi == second - first ** 2
    assert second - first ** 2 > 0


def test_the_jax_program_is_small_too():
    import jax
    import jax.numpy as jnp

    claim = claim_of(lambda xp, X: xp.var(svar, X, 6))
    xp = namespaces.numeric()
    jaxpr = jax.make_jaxpr(jax.vmap(lambda s, w: claim.residual(xp, X_support=s, X_weights=w)))(
        jnp.ones((4, 3)), jnp.ones((4, 3)))
    assert len(jaxpr.jaxpr.eqns) < 500


def test_vector_draws_and_arguments_match_enumeration():
    """Cross-sample and cross-coordinate monomials of degree 3, with a weight vector argument."""
    support = [[F(1), F(2)], [F(0), F(-1)], [F(3), F(1, 3)]]
    weights = [F(1), F(1), F(2)]
    w = [F(2), F(-1)]

    def f(xp, B, w):
        return xp.dot(w, xp.mean(B, axis=0)) * B[0, 0] * B[1, 1] + B[2, 1] ** 3

    def oracle(draws):
        mean = [sum(d[j] for d in draws) / 3 for j in range(2)]
        return (w[0] * mean[0] + w[1] * mean[1]) * draws[0][0] * draws[1][1] + draws[2][1] ** 3

    first, second = enumerate_batches(support, weights, 3, oracle)
    values = {"X_support": support, "X_weights": weights, "w": w}
    law, extra = Law("X", ("d",), "k"), (Var("w", ("d",)),)
    for residual, expected in ((lambda xp, X, w: xp.expect(f, X, 3, w), first),
                               (lambda xp, X, w: xp.var(f, X, 3, w), second - first ** 2)):
        claim = claim_of(residual, law, extra, sizes={"k": (1, 3), "d": (2, 2)})
        sign = decide(claim, values).residual
        assert sign.value.lo == sign.value.hi == expected


def test_every_backend_agrees_with_the_exact_value():
    import jax
    import jax.numpy as jnp
    import sympy

    first, second = enumerate_batches(SUPPORT, WEIGHTS, 5, unbiased_variance)
    exact = second - first ** 2
    fn = lambda xp, s, w: xp.var(svar, distribution(xp, "X", s, w), 5)  # noqa: E731
    floats = [float(x) for x in SUPPORT], [float(x) for x in WEIGHTS]
    assert fn(namespaces.floating(), np.array(floats[0]), np.array(floats[1])) == pytest.approx(float(exact))
    batched = jax.jit(jax.vmap(lambda s, w: fn(namespaces.numeric(), s, w)))(
        jnp.array([floats[0]] * 2), jnp.array([floats[1]] * 2))
    assert np.allclose(np.asarray(batched), float(exact))
    symbolic = fn(namespaces.symbolic(), np.array([sympy.Rational(x.numerator, x.denominator) for x in SUPPORT],
                                                  dtype=object),
                  np.array([sympy.Integer(int(x)) for x in WEIGHTS], dtype=object))
    assert sympy.nsimplify(sympy.simplify(symbolic)) == sympy.Rational(exact.numerator, exact.denominator)


def test_probabilities_are_normalised_in_the_program():
    """Scaling the weights changes nothing: the normalisation is part of the program."""
    claim = claim_of(lambda xp, X: xp.expect(lambda xp, B: B[0] * B[1], X, 2))
    a = decide(claim, {"X_support": SUPPORT, "X_weights": WEIGHTS}).residual.value.lo
    b = decide(claim, {"X_support": SUPPORT, "X_weights": [7 * w for w in WEIGHTS]}).residual.value.lo
    mean = sum(s * w for s, w in zip(SUPPORT, WEIGHTS)) / sum(WEIGHTS)
    assert a == b == mean ** 2
    steps = trace(claim, {"k": 3}).steps
    assert any(step[0] == "div" for step in steps)  # weights / sum(weights)


# ---------------------------------------------------------------- what is not a polynomial


@pytest.mark.parametrize("f, what", [
    (lambda xp, B: xp.sqrt(B[0] ** 2), "square root"),
    (lambda xp, B: xp.abs(B[0]), "absolute value"),
    (lambda xp, B: xp.max(B), "maximum"),
    (lambda xp, B: xp.relu(B[0]), "maximum"),
    (lambda xp, B: 1 / B[0], "divides"),
    (lambda xp, B: B[0] / xp.sum(B), "divides"),
    (lambda xp, B: B[0] ** -1, "divides"),
])
def test_a_non_polynomial_f_is_bad_input_with_a_clear_message(f, what):
    claim = claim_of(lambda xp, X: xp.expect(f, X, 2))
    with pytest.raises(NotPolynomial, match=f"not a polynomial in the samples.*{what}") as err:
        trace(claim, {"k": 2})
    assert isinstance(err.value, BadInput)
    with pytest.raises(NotPolynomial):  # the float screen too
        claim.residual(namespaces.floating(), X_support=np.ones(2), X_weights=np.ones(2))
    verdict = decide(claim, {"X_support": [1, 2], "X_weights": [1, 1]})
    assert verdict.verdict == UNDECIDED and "not a polynomial" in verdict.detail


@pytest.mark.parametrize("name", ["tanh", "exp", "log", "arccos", "sigmoid"])
def test_transcendental_functions_of_the_samples_are_not_polynomials(name):
    if not hasattr(namespaces.floating(), name):
        pytest.skip(f"xp.{name} is not in this version of the namespaces")
    claim = claim_of(lambda xp, X: xp.expect(lambda xp, B: getattr(xp, name)(B[0] / 4), X, 2))
    with pytest.raises(NotPolynomial, match="not a polynomial in the samples"):
        trace(claim, {"k": 2})


def test_non_polynomial_functions_of_constants_are_allowed():
    """sqrt, abs, max of what does not depend on the samples is an ordinary constant."""
    claim = claim_of(lambda xp, X, c: xp.expect(lambda xp, B, c: xp.sqrt(c * c) * B[0] / xp.abs(c), X, 1, c),
                     extra=(Var("c", (), "nonzero"),))
    value = decide(claim, {"X_support": [F(1), F(3)], "X_weights": [1, 1], "c": -2}).residual.value
    assert value.lo == value.hi == 2


def test_a_non_polynomial_claim_is_bad_input_in_the_api_and_in_the_cli(tmp_path):
    import bnproof

    path = tmp_path / "sqrt.py"
    path.write_text("from bnproof.claims import Claim, Law\n"
                    "C = Claim(id='t/sqrt', source='s', statement='s', variables=(Law('X', (), 'k'),),\n"
                    "          sizes={'k': (1, 2)},\n"
                    "          residual=lambda xp, X: xp.expect(lambda xp, B: xp.sqrt(B[0] ** 2), X, 2))\n")
    with pytest.raises(BadInput, match="not a polynomial in the samples"):
        bnproof.fuzz(str(path), max_examples=5, time_budget=300, jax=False)
    proc = subprocess.run([sys.executable, "-m", "bnproof", "fuzz", str(path), "--no-jax", "--time-budget", "300"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 3 and "not a polynomial in the samples" in proc.stderr
    assert "sqrt.py" in proc.stderr and "Traceback" not in proc.stderr  # the user's file is named
    assert not (tmp_path / "bnproof-out").exists()


def test_hostile_sizes_and_arguments_are_refused():
    for n in (0, -1, True, 2.0, 10**6):
        with pytest.raises(BadInput, match="number of samples"):
            trace(claim_of(lambda xp, X, n=n: xp.expect(lambda xp, B: B[0], X, n)), {"k": 2})
    with pytest.raises(ExpansionTooLarge):  # degree 8 in 60 samples: refused, not ground through
        trace(claim_of(lambda xp, X: xp.var(lambda xp, B: xp.sum(B) ** 4, X, 60)), {"k": 2})
    with pytest.raises(ExpansionTooLarge, match="coordinates"):
        trace(claim_of(lambda xp, X: xp.expect(lambda xp, B: B[0, 0], X, 9000),
                       law=Law("X", ("d",), "k"), sizes={"k": (1, 2), "d": (20, 20)}), {"k": 1, "d": 20})
    with pytest.raises(BadInput, match="Law variable"):
        trace(claim_of(lambda xp, X: xp.expect(lambda xp, B: B[0], X.support, 2)), {"k": 2})
    with pytest.raises(BadInput, match="nested"):
        trace(claim_of(lambda xp, X: xp.expect(lambda xp, B: xp.expect(lambda xp, C: C[0], X, 1), X, 2)),
              {"k": 2})
    kept = []

    def keeps(xp, B):
        kept.append(B[0])
        return kept[0] * B[0]  # the first batch's sample times this one's: not B[0]²

    with pytest.raises(BadInput, match="another expectation"):
        trace(claim_of(lambda xp, X: xp.expect(keeps, X, 1) + xp.expect(keeps, X, 1)), {"k": 2})
    with pytest.raises(TypeError, match="truth value"):
        trace(claim_of(lambda xp, X: xp.expect(lambda xp, B: B[0] if B[0] else B[1], X, 2)), {"k": 2})


# ---------------------------------------------------------------- the claim format


def test_a_law_expands_into_two_ordinary_variables_once():
    claim = claim_of(lambda xp, X: xp.expect(lambda xp, B: B[0, 0], X, 1), law=Law("X", ("d",), "k"),
                     sizes={"k": (1, 3), "d": (1, 2)})
    assert claim.variables == (Var("X_support", ("k", "d")), Var("X_weights", ("k",), "positive"))
    again = replace(claim, path="elsewhere.py")  # what load_file does: no second expansion
    assert again.variables == claim.variables
    value = decide(again, {"X_support": [[F(1), F(5)], [F(3), F(0)]], "X_weights": [1, 3]}).residual.value
    assert value.lo == F(1, 4) * 1 + F(3, 4) * 3  # E[X_0]: the first coordinate, once (no double wrap)


def test_bad_law_declarations_are_refused():
    with pytest.raises(ValueError, match="name"):
        Law("x" * 25)
    with pytest.raises(ValueError, match="name"):
        Law("1X")
    with pytest.raises(ValueError, match="points"):
        Law("X", (), 0)
    with pytest.raises(ValueError, match="taken twice"):
        claim_of(lambda xp, X: 0, extra=(Var("X_weights", ("k",)),))
    with pytest.raises(ValueError, match="taken twice"):
        claim_of(lambda xp, X: 0, extra=(Var("X", ()),))
    with pytest.raises(ValueError, match="no range in sizes"):
        claim_of(lambda xp, X: 0, law=Law("X", (), "p"))


def test_hypotheses_receive_the_distribution_too():
    claim = claim_of(lambda xp, X: xp.expect(lambda xp, B: B[0], X, 1),
                     hypotheses=(lambda xp, X: xp.var(lambda xp, B: B[0], X, 1),))  # Var(X) > 0
    assert decide(claim, {"X_support": [5, 5], "X_weights": [1, 2]}).verdict == OUTSIDE
    assert decide(claim, {"X_support": [5, 6], "X_weights": [1, 2]}).verdict == HOLDS


def test_weights_outside_their_domain_put_the_instance_outside():
    claim = claim_of(lambda xp, X: -xp.expect(lambda xp, B: B[0] ** 2, X, 1))
    assert decide(claim, {"X_support": [1, 2], "X_weights": [1, 0]}).verdict == OUTSIDE
    assert decide(claim, {"X_support": [1, 2], "X_weights": [1, -1]}).verdict == OUTSIDE


# ---------------------------------------------------------------- verdicts, proofs, certificates


@pytest.fixture(scope="module")
def gallery():
    return {c.id: c for c in load_file(EXAMPLE)}


def _random_instance(rng, k: int, d: int | None) -> dict:
    """k support points (scalars, or d-vectors and a weight vector w), positive weights."""
    def point():
        return [F(int(x), 3) for x in rng.integers(-9, 9, d)] if d else F(int(rng.integers(-9, 9)), 2)

    instance = {"X_support": [point() for _ in range(k)], "X_weights": [int(x) for x in rng.integers(1, 9, k)]}
    if d:
        instance["w"] = [F(int(x)) for x in rng.integers(-5, 5, d)]
    return instance


def test_true_identities_have_exact_residual_zero_and_are_proved(gallery):
    rng = np.random.default_rng(1)
    for claim in gallery.values():
        if claim.id.endswith("biased-batch-variance"):
            continue
        for k in (1, 2, 3):
            instance = _random_instance(rng, k, 2 if "batch-mean" in claim.id else None)
            decision = decide(claim, instance)
            assert decision.verdict == HOLDS and decision.residual.sign == 0, (claim.id, instance)
        sizes = {name: hi for name, (lo, hi) in claim.exact_sizes.items()}
        assert prove_at(claim, sizes).proved, claim.id


def test_the_biased_variance_is_zero_only_on_a_point_mass(gallery):
    claim = gallery["gallery/expectations/biased-batch-variance"]
    assert decide(claim, {"X_support": [F(7)], "X_weights": [3]}).verdict == HOLDS  # 0 = 0: no false refutation
    assert decide(claim, {"X_support": [F(2), F(2)], "X_weights": [1, 5]}).verdict == HOLDS
    refuted = decide(claim, {"X_support": [F(0), F(1)], "X_weights": [1, 1]})
    assert refuted.verdict == REFUTED and refuted.residual.value.lo == F(-1, 16)  # −Var/4 at n = 4
    assert not prove_at(claim, {"k": 2}).proved


def test_fuzz_verdicts_certificate_check_and_latex(gallery, tmp_path):
    import bnproof

    module = {}
    exec(compile(EXAMPLE.read_text(), str(EXAMPLE), "exec"), module)  # the trusted example file itself
    for claim_id, expected in module["EXPECTED"].items():
        result = bnproof.fuzz(gallery[claim_id], seed=0, max_examples=60, time_budget=60, jax=False)
        assert result.verdict == expected, (claim_id, result.verdict)
    result = bnproof.fuzz(gallery["gallery/expectations/biased-batch-variance"], seed=0, max_examples=60,
                          time_budget=60, jax=False, out_dir=tmp_path)
    path = tmp_path / "gallery/expectations/biased-batch-variance.json"
    doc = json.loads(path.read_text())
    assert set(doc["instance"]) == {"X_support", "X_weights"}
    assert {v["name"]: v["domain"] for v in doc["claim"]["variables"]} == {"X_support": "real",
                                                                           "X_weights": "positive"}
    check_document(doc)
    assert bnproof.check(str(path), claim=str(EXAMPLE)).accepted
    latex = bnproof.latex(str(path))
    assert "X\\_weights" in latex and "refuted" in latex


def _forged(doc, **instance):
    forged = json.loads(json.dumps(doc))
    forged["instance"].update(instance)
    return seal(forged)


def test_forged_certificates_are_rejected(gallery, tmp_path):
    import bnproof

    result = bnproof.fuzz(gallery["gallery/expectations/biased-batch-variance"], seed=0, max_examples=60,
                          time_budget=60, jax=False)
    doc = json.loads(result.certificate)
    k = len(doc["instance"]["X_weights"])
    check_document(_forged(doc))  # resealed unchanged: accepted, so the rejections below are earned
    with pytest.raises(Rejected, match="is zero"):  # a point mass: the residual is exactly 0
        check_document(_forged(doc, X_support=["5"] * k))
    with pytest.raises(Rejected, match="X_weights is 0, not positive"):  # p would be 0 or undefined
        check_document(_forged(doc, X_weights=["0"] + ["1"] * (k - 1)))
    with pytest.raises(Rejected, match="X_weights is -1, not positive"):  # Σ weights = 0: a division by 0
        check_document(_forged(doc, X_weights=["1", "-1"] + ["1"] * (k - 2)))
    # the biased claim's program under the unbiased claim's name: the checker trusts the
    # program, so only check --claim can tell, and it must
    unbiased = gallery["gallery/expectations/unbiased-sample-variance"]
    forged = json.loads(json.dumps(doc))
    forged["claim"].update(id=unbiased.id, source=unbiased.source, statement=unbiased.statement)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(seal(forged)))
    check_document(json.loads(path.read_text()))
    assert not bnproof.check(str(path), claim=str(EXAMPLE)).accepted


def test_moments_follow_the_expansions_order_of_first_appearance():
    """The moments are program steps in the order the expansion first meets each
    monomial pattern: that order is in every certificate, so a polynomial kept in a
    monomial order (flint's fmpq_mpoly, sorted dicts) would change certificates
    byte for byte.  X² + X⁴ + X³ meets its powers neither ascending nor descending."""
    claim = claim_of(lambda xp, X: xp.expect(lambda xp, B: B[0] ** 2 + B[0] ** 4 + B[0] ** 3, X, 1))
    steps = trace(claim, {"k": 1}).steps
    assert [s[2] for s in steps if s[0] == "pow"] == [2, 4, 3]
