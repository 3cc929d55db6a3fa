"""Inequalities for every m and every d by structural squares (checker/every_d_squares.py,
symbolic_m/every_d_squares.py): R = Σ c_k · Σ T_k∘T_k with each c_k manifestly >= 0.
Proofs are accepted by the checker, near misses never proved (and refuted by fuzz), and
forged certificates sealed with a valid digest rejected: a coefficient's sign flipped, a
square dropped, a coefficient of unknown sign, a term that is not a square."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.claims.api import load_file
from tests.tamper import seal

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(ROOT / "docs" / "examples" / "every_d.py")}
TRUE = ("kohler-nonnegative", "norm-grows")
NEAR_MISSES = ("kohler-above-norm", "norm-shrinks")


def _attempt(claim):
    from bnproof.symbolic_m.every_d import attempt

    return attempt(claim)


def _document(name):
    a = _attempt(CLAIMS[name])
    assert a.proved, a.reason
    return a.document


def _rejected(doc, says):
    with pytest.raises(Rejected) as err:
        check_document(seal(doc))
    assert says in str(err.value), str(err.value)


def _extra(doc, step):
    """Append a step to the certificate's square steps; its index."""
    squares = doc["proof"]["squares"]
    squares["steps"].append(step)
    return len(doc["program"]["steps"]) + len(squares["steps"]) - 1


@pytest.mark.parametrize("name", TRUE)
def test_true_inequalities_are_proved_by_squares_and_the_checker_accepts(name):
    result = bnproof.prove(CLAIMS[name])
    assert result.status == "proved" and result.text == "proved for every m and every d", result.text
    doc = _document(name)
    assert set(doc["proof"]) == {"method", "squares"} and doc["fixed"] == {}
    assert "residual >= 0 as a sum of 1 square with coefficients >= 0" in check_document(doc)


def test_the_published_claims_are_proved():
    for path, attr in (("kohler2019.py", "S_NORM_NONNEGATIVE"), ("hoffer2018.py", "NORM_NEVER_SHRINKS")):
        spec = importlib.util.spec_from_file_location("paper", ROOT / "docs" / "examples" / "published" / path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        a = _attempt(getattr(module, attr))
        assert a.proved, a.reason
        assert "as a sum of 1 square" in check_document(a.document)


def test_the_hoffer_square_is_the_gradient_times_eta_squared():
    doc = _document("norm-grows")
    squares, n0 = doc["proof"]["squares"], len(doc["program"]["steps"])
    (c, t), = squares["terms"]
    assert t < n0  # a step of the program itself (∇L)
    assert ["pow", n0 + 1, 2] in squares["steps"] and ["input", "eta"] in squares["steps"]


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_never_proved_and_fuzz_refutes_them(name, tmp_path):
    a = _attempt(CLAIMS[name])
    assert a.status == "not-proved" and a.document is None
    assert "no square of the" in a.reason
    assert not bnproof.prove(CLAIMS[name]).proved
    result = bnproof.fuzz(CLAIMS[name], out_dir=tmp_path, seed=0, max_examples=40, time_budget=60, jax=False)
    assert result.verdict == "refuted", result


def test_past_the_bound_the_search_names_it(monkeypatch):
    from bnproof.symbolic_m import every_d_squares

    monkeypatch.setattr(every_d_squares, "MAX_CANDIDATES", 1)
    a = _attempt(CLAIMS["norm-grows"])
    assert not a.proved and "the first 1 candidate squares only" in a.reason


# --- forged certificates, sealed with a valid digest ------------------------------------------

def test_two_halves_are_accepted_and_a_dropped_square_is_rejected():
    doc = copy.deepcopy(_document("kohler-nonnegative"))
    (c, t), = doc["proof"]["squares"]["terms"]
    half = _extra(doc, ["mul", c, _extra(doc, ["const", "1/2"])])
    doc["proof"]["squares"]["terms"] = [[half, t], [half, t]]
    assert "a sum of 2 squares" in check_document(seal(doc))
    doc["proof"]["squares"]["terms"] = [[half, t]]
    _rejected(doc, "does not have normal form 0")


def test_a_coefficient_whose_sign_is_flipped_is_rejected():
    doc = copy.deepcopy(_document("kohler-nonnegative"))
    (c, t), = doc["proof"]["squares"]["terms"]
    doc["proof"]["squares"]["terms"] = [[_extra(doc, ["neg", c]), t]]
    _rejected(doc, "the coefficient is not manifestly >= 0")


def test_a_coefficient_of_unknown_sign_is_rejected():
    doc = copy.deepcopy(_document("norm-grows"))
    steps = doc["proof"]["squares"]["steps"]
    k = next(i for i, s in enumerate(steps) if s[0] == "pow")
    steps[k][2] = 1  # η for η²: η is real, of either sign
    _rejected(doc, "the coefficient is not manifestly >= 0")


def test_a_term_that_is_not_a_square_is_rejected():
    doc = _document("kohler-nonnegative")
    residual = doc["program"]["residual"]
    forged = copy.deepcopy(doc)  # R = (√R)²: would assume what it proves
    one = _extra(forged, ["const", "1"])
    forged["proof"]["squares"]["terms"] = [[one, _extra(forged, ["sqrt", residual])]]
    _rejected(forged, "sqrt could be undefined")
    forged = copy.deepcopy(doc)  # a product of two different steps claimed as a square
    (c, t), = forged["proof"]["squares"]["terms"]
    forged["proof"]["squares"]["terms"] = [[c, t, 1]]
    _rejected(forged, "expected [scalar step, step]")
    forged = copy.deepcopy(doc)  # a division by a program value adds a condition
    (c, t), = forged["proof"]["squares"]["terms"]
    forged["proof"]["squares"]["terms"] = [[_extra(forged, ["div", c, residual]), t]]
    _rejected(forged, "a division by a value other than m, d or a nonzero constant")


def test_squares_do_not_prove_an_identity_or_a_strict_inequality():
    doc = _document("kohler-nonnegative")
    for kind, strict in (("identity", False), ("strict-inequality", True)):
        forged = copy.deepcopy(doc)
        forged["claim"]["kind"] = kind
        forged["program"]["kind"], forged["program"]["strict"] = ("identity" if kind == "identity"
                                                                  else "inequality"), strict
        _rejected(forged, "sums of squares prove only a non-strict inequality")


def test_latex_of_a_squares_proof_says_a_sum_of_squares_not_zero():
    text = bnproof.latex(bnproof.prove(CLAIMS["kohler-nonnegative"]))
    assert r"R = \sum_k c_k \sum T_k^{\,2} \ge 0" in text and "R = 0" not in text
    assert "with equality" not in text


def test_a_scalar_step_squared_proves_the_second_moment_above_the_variance():
    """mean(z²) − Var(z) = mean(z)²: the square of a scalar step (z = Xw)."""
    from bnproof.claims import Claim, Var

    def residual(xp, X, w):
        z = X @ w
        return xp.mean(z ** 2) - xp.mean((z - xp.mean(z)) ** 2)

    claim = Claim(id="me/second-moment", source="a test", statement=r"E[z^2] \ge \mathrm{Var}(z)",
                  kind="inequality", variables=(Var("X", ("m", "d")), Var("w", ("d",))),
                  sizes={"m": (2, 4), "d": (1, 3)}, residual=residual)
    a = _attempt(claim)
    assert a.proved, a.reason
    (c, t), = a.document["proof"]["squares"]["terms"]
    assert a.document["program"]["steps"][t][0] == "div"  # mean(z), a scalar
    assert "as a sum of 1 square" in check_document(a.document)


def test_a_sum_of_two_squares_proves_the_second_moment_plus_the_quadratic_form():
    """mean(z²) + wᵀSw = (1/m)‖z‖² + (1/m)‖X_c w‖²: no one square's multiple is R."""
    from bnproof.claims import Claim, Var

    def residual(xp, X, w):
        z = X @ w
        centred = X - xp.mean(X, axis=0)
        return xp.mean(z ** 2) + w @ (centred.T @ centred / X.shape[0]) @ w

    claim = Claim(id="me/two-squares", source="a test", statement=r"E[z^2] + w^\top S w \ge 0",
                  kind="inequality", variables=(Var("X", ("m", "d")), Var("w", ("d",))),
                  sizes={"m": (2, 4), "d": (1, 3)}, residual=residual)
    a = _attempt(claim)
    assert a.proved, a.reason
    assert len(a.document["proof"]["squares"]["terms"]) == 2
    assert "as a sum of 2 squares" in check_document(a.document)
    forged = copy.deepcopy(a.document)
    forged["proof"]["squares"]["terms"].pop()  # a square dropped
    _rejected(forged, "does not have normal form 0")
