"""Squares over a positive denominator, proved for every m (issue 23, pattern 5 in part):
a residual ≥ 0 by its form as written, or one whose normal form is c·μ·L²/D with D a
product of the program's steps > 0 by their form (symbolic_m/squares.py).  A step the
claim divides by is nonzero wherever the claim is defined, so its square, and a sum of
squares it divides by, are > 0 (the checker's manifest signs, checker/proof.py).  The
checker re-derives the square and every sign: a forged term, coefficient, square or
denominator is rejected; the near misses are never proved, and fuzz refutes them."""

from __future__ import annotations

import copy

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.symbolic_m.prove import attempt
from tests.tamper import seal

Y, G = Var("y", ("m",)), Var("g", ("m",))
SIZES = {"m": (2, 5)}


def _spread(xp, y, **_):
    return xp.mean((y - xp.mean(y)) ** 2)


def _yhat(xp, y):
    mu = xp.mean(y)
    return (y - mu) / xp.sqrt(xp.mean((y - mu) ** 2))


def _linear(xp, y, g):
    return xp.sum(y * g) - xp.mean(y) * xp.sum(g)


def _expanded(xp, y, g):
    """_linear(xp, y, g)**2 written out: its square shows in normal form only."""
    a, b = xp.sum(y * g), xp.mean(y) * xp.sum(g)
    return a * a - 2 * a * b + b * b


def claim(cid, residual, variables=(Y, G), hypotheses=(), strict=False):
    return Claim(id=f"me/{cid}", source="a test", statement="x \\ge 0", variables=variables,
                 sizes=SIZES, hypotheses=hypotheses, residual=residual, strict=strict)


PROVED = {
    "as-written": claim("as-written", lambda xp, y, g: _linear(xp, y, g) ** 2 / (xp.sum(y**2) + 1)),
    "expanded": claim("expanded", lambda xp, y, g: _expanded(xp, y, g) / (xp.sum(y**2) + 1)),
    # Σg² > 0 because the claim divides by it: no hypothesis needed
    "over-sum-of-squares": claim("over-sum-of-squares", lambda xp, y, g: _expanded(xp, y, g) / xp.sum(g * g)),
    "positive-factor": claim("positive-factor", lambda xp, y, g, c: c * _expanded(xp, y, g) / (xp.sum(y**2) + 1),
                             (Y, G, Var("c", (), "positive"))),
    "bn-eps": claim("bn-eps", lambda xp, y, g, eps: (xp.sum(g * _yhat(xp, y)) - xp.sum(g)) ** 2
                    / (_spread(xp, y) + eps), (Y, G, Var("eps", (), "positive")), (_spread,)),
    "bn-projection": claim("bn-projection", lambda xp, y, g: xp.sum(g * _yhat(xp, y)) ** 2 / (xp.sum(g * g) + 1),
                           hypotheses=(_spread,)),
    "strict": claim("strict", lambda xp, y, g: _linear(xp, y, g) ** 2 / (xp.sum(y**2) + 1) + xp.q(1, 3), strict=True),
}

NEAR_MISSES = {
    "negated": claim("negated", lambda xp, y, g: -_expanded(xp, y, g) / (xp.sum(y**2) + 1)),
    "signed-denominator": claim("signed-denominator", lambda xp, y, g: xp.sum(y * g) ** 2 / xp.sum(y)),
    "unsigned-factor": claim("unsigned-factor", lambda xp, y, g, c: c * _expanded(xp, y, g) / (xp.sum(y**2) + 1),
                             (Y, G, Var("c"))),
    "strict-square": claim("strict-square", lambda xp, y, g: _expanded(xp, y, g) / (xp.sum(y**2) + 1), strict=True),
    "not-a-square": claim("not-a-square", lambda xp, y, g: (_expanded(xp, y, g) - xp.sum(g) ** 2)
                          / (xp.sum(y**2) + 1)),
}


@pytest.mark.parametrize("name", PROVED)
def test_squares_over_positive_denominators_are_proved(name):
    result = attempt(PROVED[name])
    assert result.proved, result.reason
    assert result.proof["method"] == "nonnegative"
    assert "proved for every m" in check_document(result.document)


def test_a_square_written_out_is_found_in_normal_form():
    result = attempt(PROVED["over-sum-of-squares"])
    proof, steps = result.proof, result.program["steps"] + result.proof["steps"]
    (term,) = proof["terms"]
    square = steps[term["factors"][-1]]
    assert square[0] == "pow" and square[2] == 2  # pow(L, 2), L built from the program's steps
    divisor = steps[[d for d in proof["denominator"] if steps[d][0] == "sum"][0]]
    assert divisor[0] == "sum"  # Σg²: > 0 because the claim divides by it


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_never_proved(name):
    result = attempt(NEAR_MISSES[name])
    assert not result.proved and result.document is None


@pytest.mark.parametrize("name", ["negated", "signed-denominator", "unsigned-factor", "not-a-square"])
def test_near_misses_are_refuted_by_fuzz(name, tmp_path):
    result = bnproof.fuzz(NEAR_MISSES[name], out_dir=tmp_path, seed=0, max_examples=60, time_budget=60, jax=False)
    assert result.verdict == "refuted", result.reason


# --- forged certificates -------------------------------------------------------------------

def _expanded_proof():
    return attempt(PROVED["over-sum-of-squares"]).document


def _forge(doc, change):
    forged = copy.deepcopy(doc)
    change(forged)
    return seal(forged)


def _square_step(doc):
    proof = doc["proof"]
    return proof["terms"][0]["factors"][-1] - len(doc["program"]["steps"])


def test_the_checker_accepts_the_square():
    assert "residual >= 0" in check_document(_expanded_proof())


def test_a_forged_term_that_is_not_a_square_is_rejected():
    def unsquare(doc):  # pow(L, 2) made pow(L, 1): L is no sign by its form
        doc["proof"]["steps"][_square_step(doc)][2] = 1
    with pytest.raises(Rejected, match="not manifestly >= 0"):
        check_document(_forge(_expanded_proof(), unsquare))


def test_a_forged_coefficient_is_rejected():
    def double(doc):
        doc["proof"]["terms"][0]["coefficient"] = "2"
    with pytest.raises(Rejected, match="does not reduce to 0"):
        check_document(_forge(_expanded_proof(), double))


def test_a_forged_linear_form_is_rejected():
    def other(doc):  # a coefficient inside L changed: another square, not the residual's
        consts = [s for s in doc["proof"]["steps"] if s[0] == "const"]
        assert consts, "L has a coefficient to change"
        consts[0][1] = str(int(consts[0][1]) + 3)
    with pytest.raises(Rejected, match="does not reduce to 0"):
        check_document(_forge(_expanded_proof(), other))


def _program_without_division():
    """residual = (Σyg)² (no division anywhere), as a hand-written program."""
    steps = [["input", "y"], ["input", "g"], ["mul", 0, 1], ["sum", 2], ["pow", 3, 2]]
    return {"inputs": [["y", "vector", "real"], ["g", "vector", "real"]], "steps": steps,
            "residual": 4, "hypotheses": [], "kind": "inequality", "strict": False}


def _document(program, proof):
    from bnproof.certificate.proof import document

    body = {"id": "me/square", "source": "a test", "statement": "x \\ge 0", "kind": "inequality",
            "variables": [{"name": "y", "shape": ["m"], "domain": "real"},
                          {"name": "g", "shape": ["m"], "domain": "real"}]}
    witness = {"m": 2, "inputs": {"y": ["1", "2"], "g": ["3", "-1"]}}
    return document(body, program, proof, witness)


@pytest.mark.parametrize("denominator", [
    [["sum", 0]],  # Σy: no sign at all
    [["sum", 0], ["pow", 5, 2]],  # (Σy)²: ≥ 0, but the program never divides by Σy, so it may be 0
    [["mul", 0, 0], ["sum", 5]],  # Σy²: ≥ 0, and 0 at y = 0, where the program is defined
])
def test_a_denominator_the_program_does_not_divide_by_is_not_positive(denominator):
    # residual · q = (Σyg)² · q holds as algebra, but q must be > 0 for the inequality to follow
    q = 5 + len(denominator) - 1
    proof = {"method": "nonnegative", "steps": denominator,
             "terms": [{"coefficient": "1", "factors": [4, q]}], "denominator": [q]}
    with pytest.raises(Rejected, match="not manifestly > 0"):
        check_document(_document(_program_without_division(), proof))


def test_a_divisor_of_the_program_is_nonzero_so_its_square_is_positive():
    # residual = (Σyg)² / (Σy)²: the program divides by (Σy)², so Σy ≠ 0 wherever it is defined
    steps = [["input", "y"], ["input", "g"], ["mul", 0, 1], ["sum", 2], ["pow", 3, 2], ["sum", 0],
             ["pow", 5, 2], ["div", 4, 6]]
    program = {"inputs": [["y", "vector", "real"], ["g", "vector", "real"]], "steps": steps,
               "residual": 7, "hypotheses": [], "kind": "inequality", "strict": False}
    proof = {"method": "nonnegative", "steps": [], "terms": [{"coefficient": "1", "factors": [4]}],
             "denominator": [6]}
    assert "residual >= 0" in check_document(_document(program, proof))


# --- the prover's signs by form are the checker's ---------------------------------------------

@pytest.mark.parametrize("name", [*PROVED, *NEAR_MISSES])
def test_the_search_reads_signs_as_the_checker_does(name):
    from bnproof.checker.proof import Manifest, divisors
    from bnproof.checker.symbolic_program import read_inputs, read_steps
    from bnproof.symbolic_m.forms import Forms
    from bnproof.symbolic_m.trace import program_for

    c = {**PROVED, **NEAR_MISSES}[name]
    program = program_for(c, {})
    inputs = read_inputs(program["inputs"])
    types: list = []
    ops = read_steps(program["steps"], inputs, types, "steps")
    positive = {n for n, t, d in inputs if t == "S" and d == "positive"}
    manifest = Manifest(ops, types, set(program["hypotheses"]), positive, divisors(ops))
    forms = Forms(program)
    for k in range(len(ops)):
        assert (forms.positive(k), forms.nonnegative(k), forms.nonzero(k)) == manifest.sign(k), (k, ops[k])
