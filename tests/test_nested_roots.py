"""A root's square inside another root's radicand leaves it (issue 23, pattern 1): a root
is >= 0 by definition, and > 0 wherever it divides, so √(A/r²) = √A/r and √(A·r²) =
r·√A; a batch sum of a square (Σv² >= 0) leaves as well.  The prover
(symbolic_m/roots.py) and, by its own reading, the checker (checker/roots.py) take
such a factor out; a square of unknown sign (√(A/c²) = √A/|c|) and a root of a
negative quantity never give a proof."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.checker import roots as checker_roots
from bnproof.claims.api import load_file
from bnproof.symbolic_m import poly as P
from bnproof.symbolic_m import roots as prover_roots
from bnproof.symbolic_m.prove import attempt
from tests.tamper import domain_dropped, seal
from tests.test_every_m_roots import Builder

ROOT = Path(__file__).resolve().parents[1]
GALLERY = {c.id.rsplit("/", 1)[1]: c for c in load_file(ROOT / "docs" / "examples" / "every_m_roots.py")}
PUBLISHED = {c.id: c for path in sorted((ROOT / "docs" / "examples" / "published").glob("*.py"))
             for c in load_file(path)}


# --- the held-out claims that roots inside roots blocked -----------------------------------

@pytest.mark.parametrize("cid", [
    "published/salimans2016/norm-is-g",  # g·√(Σv²/r₁²) − g, r₁ = √(Σv²)
    "published/salimans2016/norm-grows",
    "published/hoffer2018/gradient-of-direction",  # √(V/(m²r₁²)) beside √(V/m²)
    "published/vanlaarhoven2017/effective-learning-rate",  # ŵ = w/‖w‖ inside BN
])
def test_published_claims_with_a_root_inside_a_root_are_proved_for_every_m(cid):
    result = bnproof.prove(PUBLISHED[cid], time_budget=120)
    assert result.status == "proved", result.text
    # every m (covered [{}]), or every m and every d (one every-d proof)
    assert result.covered in ([], [{}]) or "every m and every d" in result.text, result.text
    assert result.certificate_texts
    for text in result.certificate_texts:  # prove writes only what the checker accepts: again here
        assert "proved for every m" in check_document(json.loads(text))


# --- the gallery -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["weight-norm-length", "weight-norm-length-abs", "effective-learning-rate"])
def test_gallery_claims_are_proved_checked_and_read_again(name):
    from bnproof.symbolic_m.crosscheck import second_reading

    claim = GALLERY[name]
    result = attempt(claim)
    assert result.proved, result.reason
    assert "proved for every m" in check_document(result.document)
    assert second_reading(claim, {}, result.program).status == "agrees"


def test_the_length_without_a_sign_of_g_is_not_proved_and_is_refuted(tmp_path):
    claim = GALLERY["weight-norm-length-any-sign"]
    result = attempt(claim)
    assert not result.proved and result.document is None
    # √(g²Σv²/r₁²) = √(g²)·r₁/r₁: the normal form is |g| − g, written √(g²) − g
    assert result.reason.startswith("not proved: normal form") and "r₂ = √(g²)" in result.reason
    # and the same root r₁ leaves where g > 0: the near miss differs only in g's sign
    assert attempt(GALLERY["weight-norm-length"]).proved
    found = bnproof.fuzz(claim, out_dir=tmp_path, seed=0, max_examples=60, time_budget=60, jax=False)
    assert found.verdict == "refuted"


# --- the checker, on programs written by hand ----------------------------------------------

def _roots(b):
    """(y, c, V, r): V the biased variance of y, r = ‖y‖ = √(Σy²)."""
    y, c = b.input("y"), b.input("c")
    v = b.variance(y)
    r = b.sqrt(b.sum(b.pow(y, 2)))
    return y, c, v, r


def _hypotheses(b, v, r):
    return [b.pow(b.sqrt(v), 2), b.pow(r, 2)]  # V > 0, Σy² > 0


def _accepted(doc) -> bool:
    try:
        return "proved for every m" in check_document(doc)
    except Rejected as err:
        assert "normal form is not 0" in str(err), str(err)
        return False


def over_root(b, y, c, v, r):  # √(V/r²)·r − √V
    return b.sub(b.mul(b.sqrt(b.div(v, b.pow(r, 2))), r), b.sqrt(v))


def times_root(b, y, c, v, r):  # √(V·r²) − r·√V
    return b.sub(b.sqrt(b.mul(v, b.pow(r, 2))), b.mul(r, b.sqrt(v)))


def odd_root(b, y, c, v, r):  # √(V/r³)·r² − √(V·r)
    return b.sub(b.mul(b.sqrt(b.div(v, b.pow(r, 3))), b.pow(r, 2)), b.sqrt(b.mul(v, r)))


def over_root_twice(b, y, c, v, r):  # √(V/r/r)·r − √V: r² a divisor, not r² = Σy²
    return b.sub(b.mul(b.sqrt(b.div(b.div(v, r), r)), r), b.sqrt(v))


def product_of_roots(b, y, c, v, r):  # √(Σy²·V) − √(Σy²)·√V (Σy² ≥ 0: the root of a product)
    s = b.sum(b.pow(y, 2))
    return b.sub(b.sqrt(b.mul(s, v)), b.mul(b.sqrt(s), b.sqrt(v)))


def sum_of_squares(b, y, c, v, r):  # √((Σy²)²·V) − Σy²·√V
    s = b.sum(b.pow(y, 2))
    return b.sub(b.sqrt(b.mul(b.pow(s, 2), v)), b.mul(s, b.sqrt(v)))


def nested_scale(b, y, c, v, r):  # √(c²V/r²)·r − c·√V, c's sign from the program alone
    return b.sub(b.mul(b.sqrt(b.div(b.mul(b.pow(c, 2), v), b.pow(r, 2))), r), b.mul(c, b.sqrt(v)))


# near misses
def over_square(b, y, c, v, r):  # √(V/c²)·c − √V: it is √V·c/|c|
    return b.sub(b.mul(b.sqrt(b.div(v, b.pow(c, 2))), c), b.sqrt(v))


def wrong_power(b, y, c, v, r):  # √(V/r²)·r² − √V
    return b.sub(b.mul(b.sqrt(b.div(v, b.pow(r, 2))), b.pow(r, 2)), b.sqrt(v))


def negative_radicand(b, y, c, v, r):  # √(−V/r²)·r − √V: the root of a negative quantity
    return b.sub(b.mul(b.sqrt(b.div(b.neg(v), b.pow(r, 2))), r), b.sqrt(v))


def sign_unknown_sum(b, y, c, v, r):  # √((Σy)²·V) − Σy·√V: Σy of unknown sign
    s = b.sum(y)
    return b.sub(b.sqrt(b.mul(b.pow(s, 2), v)), b.mul(s, b.sqrt(v)))


def negated_root(b, y, c, v, r):  # √(V·r²) + r·√V: the wrong sign of what leaves
    return b.add(b.sqrt(b.mul(v, b.pow(r, 2))), b.mul(r, b.sqrt(v)))


def _document(build, domain="real", hypothesis=None, c="2"):
    b = Builder(domain)
    y, c_in, v, r = _roots(b)
    residual = build(b, y, c_in, v, r)
    hyps = _hypotheses(b, v, r)
    if hypothesis == "c":
        hyps.append(c_in)
    elif hypothesis == "c^2":
        hyps.append(b.pow(c_in, 2))
    return b.document(residual, hyps, c)


TRUE = [(over_root, "real", None), (over_root_twice, "real", None), (times_root, "real", None),
        (odd_root, "real", None), (product_of_roots, "real", None), (sum_of_squares, "real", None), (nested_scale, "positive", None), (nested_scale, "real", "c")]
FALSE = [(over_square, "real", None), (over_square, "nonzero", None), (over_square, "real", "c^2"),
         (wrong_power, "real", None), (negative_radicand, "real", None), (sign_unknown_sum, "real", None),
         (negated_root, "real", None), (nested_scale, "real", None), (nested_scale, "nonzero", None),
         (nested_scale, "real", "c^2")]


def test_the_checker_takes_a_root_out_of_a_root_and_never_a_square_of_unknown_sign():
    # both halves in one test: the near misses are rejected by the same step that accepts the
    # true forms (before that step existed, the true forms were rejected too)
    accepted = {(f.__name__, d, h): _accepted(_document(f, d, h)) for f, d, h in TRUE + FALSE}
    assert accepted == {**{(f.__name__, d, h): True for f, d, h in TRUE},
                        **{(f.__name__, d, h): False for f, d, h in FALSE}}


# --- forged certificates, sealed with a valid digest ----------------------------------------

def test_a_forged_certificate_without_g_positive_is_rejected():
    doc = attempt(GALLERY["weight-norm-length"]).document
    assert doc is not None and "proved for every m" in check_document(doc)
    forged = seal(domain_dropped(doc, "g"))  # the sign fact that lets g² leave, dropped
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(forged)


def test_a_forged_published_certificate_without_g_positive_is_rejected():
    result = bnproof.prove(PUBLISHED["published/salimans2016/norm-is-g"], time_budget=120)
    assert result.status == "proved", result.text
    doc = json.loads(result.certificate_texts[0])
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(domain_dropped(doc, "g")))


def test_a_forged_hypothesis_that_is_only_g_squared_gives_no_sign():
    b_true = _document(nested_scale, "real", "c")
    assert _accepted(b_true)
    # the hypothesis c > 0 made c² > 0 in the program: sealed, and no sign of c is left
    forged = json.loads(json.dumps(b_true))
    program = forged["program"]
    steps = program["steps"]
    c_step = steps.index(["input", "c"])
    steps.append(["pow", c_step, 2])
    program["hypotheses"] = [h if h != c_step else len(steps) - 1 for h in program["hypotheses"]]
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


def test_a_root_divisor_replaced_by_a_sum_of_unknown_sign_is_rejected():
    # the divisor ‖y‖ = √(Σy²) made Σy in the program: √(V/(Σy)²)·Σy = √V·sign(Σy)
    doc = _document(over_root)
    assert _accepted(doc)
    forged = json.loads(json.dumps(doc))
    steps = forged["program"]["steps"]
    roots = [i for i, s in enumerate(steps) if s[0] == "sqrt" and steps[s[1]][0] == "sum"
             and steps[steps[s[1]][1]][0] == "pow"]
    assert len(roots) == 1
    steps[roots[0]] = ["sum", steps.index(["input", "y"])]
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


# --- the two implementations agree on what a root lets out ---------------------------------

def test_the_prover_and_the_checker_split_a_root_out_alike():
    # √(V·s³/r³) with r a root and s = Σv² (both >= 0): s·r⁻² leave, r stays inside (√r is
    # no root of the fragment) and s's odd power is its own root √s
    n = {((0, 1), (2, 3)): prover_roots.Fraction(1)}
    d = {((1, 3),): prover_roots.Fraction(1)}
    signs = {1: prover_roots.NONNEG, 2: prover_roots.SQUARES}
    out_n, out_d, in_n, in_d, own = prover_roots.split(n, d, lambda a: signs.get(a))
    assert P.ordered(out_n) == [(((2, 1),), 1)] and P.ordered(out_d) == [(((1, 2),), 1)]
    assert P.ordered(in_n) == [(((0, 1), (1, 1)), 1)] and in_d == P.ONE and own == [2]
    # the checker's own reading of the same atoms (its split is exercised by the documents above)
    assert checker_roots.sign_of(("r", 0), {}) == checker_roots.NONNEG
    assert checker_roots.sign_of(("S", ((("v", "y"), 2),)), {}) == checker_roots.SQUARES
    assert checker_roots.sign_of(("S", ((("v", "y"), 1),)), {}) is None
    assert checker_roots.sign_of(("S", ((("v", "y"), 2), (("v", "x"), 1))), {}) is None


# --- the second reading's radicals (reading/radicals.py) ----------------------------------

def test_the_second_reading_splits_radicands_over_a_coprime_basis():
    # the certified program of vanlaarhoven2017/effective-learning-rate reads √(2161·15013)
    # where the claim's code reads √2161·√15013 (both primes past the small ones)
    import symengine as se

    from bnproof.reading import radicals

    e = se.sqrt(se.Integer(2161 * 15013)) - se.sqrt(se.Integer(2161)) * se.sqrt(se.Integer(15013))
    assert radicals.normalize(e).expand() == 0
    assert radicals.coprime_basis([2161 * 15013, 2161, 6, 10, 49]) == (2, 3, 5, 2161, 15013)
    wrong = se.sqrt(se.Integer(2161 * 15013)) - se.sqrt(se.Integer(2161)) * se.sqrt(se.Integer(15017))
    assert radicals.normalize(wrong).expand() != 0
