"""Roots of scaled quantities, proved for every m (issue 23, pattern 1): a square whose
sign is known leaves a root, in the prover's normal form (symbolic_m/roots.py) and, by
its own code, in the checker's (checker/roots.py).  The near misses (no sign, the
wrong sign, a wrong power of c, a missing ε, biased and unbiased variance swapped)
are never proved, and a certificate that claims such a step is rejected."""

from __future__ import annotations

import copy
from fractions import Fraction
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

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_m_roots.py"
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(GALLERY)}
TRUE = ("scale-invariance", "square-scale", "negative-scale", "epsilon", "unbiased-epsilon",
        "rms-norm", "weight-norm", "root-product")
NEAR_MISSES = ("scale-any-sign", "negative-scale-same", "epsilon-wrong-power", "epsilon-missing",
               "variance-swapped")


# --- the prover, end to end ----------------------------------------------------------

@pytest.mark.parametrize("name", TRUE)
def test_true_claims_are_proved_for_every_m_and_the_checker_accepts(name):
    result = attempt(CLAIMS[name])
    assert result.proved, result.reason
    assert result.proof == {"method": "zero"}
    assert "proved for every m" in check_document(result.document)


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_never_proved(name):
    result = attempt(CLAIMS[name])
    assert not result.proved and result.document is None
    assert result.reason.startswith("not proved: normal form")


@pytest.mark.parametrize("name", ["scale-any-sign", "epsilon-wrong-power"])
def test_near_misses_are_refuted_by_fuzz(name, tmp_path):
    result = bnproof.fuzz(CLAIMS[name], out_dir=tmp_path, seed=0, max_examples=60, time_budget=60, jax=False)
    assert result.verdict == "refuted"
    assert bnproof.check(result.certificate_path, claim=CLAIMS[name]).accepted


def _claim(cid, residual, domain="real", hypotheses=()):
    from bnproof.claims import Claim, Var

    return Claim(id=cid, source="a test", statement="x = 0", kind="identity",
                 variables=(Var("y", ("m",)), Var("c", (), domain)), sizes={"m": (2, 4)},
                 hypotheses=(_spread, *hypotheses), residual=residual)


def _spread(xp, y, **_):
    return xp.mean((y - xp.mean(y)) ** 2)


def _bn(xp, y):
    return (y - xp.mean(y)) / xp.sqrt(_spread(xp, y))


def _invariance(xp, y, c):
    return xp.sum((_bn(xp, c * y) - _bn(xp, y)) ** 2)


def test_a_hypothesis_that_is_the_input_gives_its_sign():
    assert attempt(_claim("me/hyp-c", _invariance, hypotheses=(lambda xp, c, **_: c,))).proved
    # c² > 0 says c ≠ 0, not its sign: √(c²V) = |c|·√V stays whole
    squared = attempt(_claim("me/hyp-c2", _invariance, hypotheses=(lambda xp, c, **_: c * c,)))
    assert not squared.proved
    # a positive domain and the hypothesis −c > 0 contradict each other: no sign is used
    contra = attempt(_claim("me/contra", _invariance, "positive", (lambda xp, c, **_: -c,)))
    assert not contra.proved


def test_the_proof_passes_the_second_reading():
    from bnproof.symbolic_m.crosscheck import second_reading

    claim = CLAIMS["epsilon"]
    result = attempt(claim)
    assert second_reading(claim, {}, result.program).status == "agrees"


# --- the checker, on programs written by hand -------------------------------------------

class Builder:
    """Steps appended by name: b.add(i, j) appends ["add", i, j] and returns its index."""

    def __init__(self, c_domain):
        self.inputs = [["y", "vector", "real"], ["c", "scalar", c_domain]]
        self.steps = []
        self.c_domain = c_domain

    def __getattr__(self, op):
        def step(*args):
            self.steps.append([op, *args])
            return len(self.steps) - 1
        return step

    def variance(self, y):
        m = self.m()
        yc = self.sub(y, self.div(self.sum(y), m))
        return self.div(self.sum(self.pow(yc, 2)), m)

    def document(self, residual, hypotheses=(), c="2", proof=None):
        from bnproof.certificate.proof import document

        program = {"inputs": self.inputs, "steps": self.steps, "residual": residual,
                   "hypotheses": list(hypotheses), "kind": "identity", "strict": False}
        body = {"id": "me/roots", "source": "a test", "statement": "x = 0", "kind": "identity",
                "variables": [{"name": "y", "shape": ["m"], "domain": "real"},
                              {"name": "c", "shape": [], "domain": self.c_domain}]}
        witness = {"m": 3, "inputs": {"y": ["1", "2", "4"], "c": c}}
        return document(body, program, proof or {"method": "zero"}, witness)


def root_minus(c_domain, radicand_power, outside, hypothesis=None, c="2", plus=False):
    """√(c^k · V) − outside(c)·√V (+ with plus), V the biased variance of y."""
    b = Builder(c_domain)
    y, c_in = b.input("y"), b.input("c")
    v = b.variance(y)
    left = b.sqrt(b.mul(b.pow(c_in, radicand_power), v))
    right = b.mul(outside(b, c_in), b.sqrt(v))
    hyps = [b.pow(b.sqrt(v), 2)]
    if hypothesis == "c":
        hyps.append(c_in)
    elif hypothesis == "-c":
        hyps.append(b.neg(c_in))
    elif hypothesis == "c^2":
        hyps.append(b.pow(c_in, 2))
    return b.document(b.add(left, right) if plus else b.sub(left, right), hyps, c)


def ident(b, c):
    return c


def square(b, c):
    return b.pow(c, 2)


def c_root_c(b, c):
    return b.mul(c, b.sqrt(c))


@pytest.mark.parametrize("case", [
    ("positive", 2, ident, None, "2", False),  # √(c²V) = c√V, c > 0 declared
    ("real", 2, ident, "c", "2", False),  # c > 0 a hypothesis
    ("real", 2, ident, "-c", "-2", True),  # √(c²V) = −c√V under −c > 0
    ("real", 4, square, None, "-2", False),  # √(c⁴V) = c²√V whatever c's sign
    ("nonzero", 4, square, None, "3", False),
    ("positive", 3, c_root_c, None, "2", False),  # √(c³V) = c√c√V
])
def test_the_checker_accepts_a_square_out_of_a_root_where_its_sign_is_known(case):
    domain, power, outside, hypothesis, c, plus = case
    assert "proved for every m" in check_document(root_minus(domain, power, outside, hypothesis, c, plus))


@pytest.mark.parametrize("case", [
    ("real", 2, ident, None, "2", False),  # √(c²V) = c√V claimed without c > 0
    ("nonzero", 2, ident, None, "2", False),
    ("real", 2, ident, "c^2", "2", False),  # c² > 0 is no sign of c
    ("real", 2, ident, "c", "2", True),  # the wrong sign: c > 0 gives √(c²V) = +c√V
    ("positive", 3, ident, None, "2", False),  # c³ for c²
    ("positive", 2, square, None, "2", False),  # c² outside for c² inside
    ("real", 2, ident, "-c", "-2", False),  # −c > 0, and c√V claimed
])
def test_the_checker_rejects_a_false_square_out_of_a_root(case):
    domain, power, outside, hypothesis, c, plus = case
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(root_minus(domain, power, outside, hypothesis, c, plus))


def test_a_contradictory_sign_is_never_used():
    # c declared positive and the hypothesis −c > 0: the checker takes no sign of c, so
    # √(c²V) = c√V does not reduce (and no witness could meet both anyway)
    doc = root_minus("positive", 2, ident, "-c", "2")
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(doc)


def test_rational_squares_leave_a_root():
    b = Builder("positive")
    y = b.input("y")
    v = b.variance(y)
    four = b.sqrt(b.mul(b.const("4"), v))  # √(4V) = 2√V, √(V/9) = √V/3, √(8V) = 2√(2V)
    ninth = b.sqrt(b.div(v, b.const("9")))
    eight = b.sqrt(b.mul(b.const("8"), v))
    root = b.sqrt(v)
    r = b.add(b.sub(four, b.mul(b.const("2"), root)), b.sub(b.mul(b.const("3"), ninth), root))
    r = b.add(r, b.sub(eight, b.mul(b.const("2"), b.sqrt(b.mul(b.const("2"), v)))))
    hyp = b.pow(root, 2)
    assert "proved for every m" in check_document(b.document(r, [hyp]))
    w = Builder("positive")  # a program of its own: no step of r left unread (a hidden hypothesis)
    v = w.variance(w.input("y"))
    root = w.sqrt(v)
    wrong = w.sub(w.sqrt(w.mul(w.const("2"), v)), root)
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(w.document(wrong, [w.pow(root, 2)]))


def test_a_forged_gallery_certificate_without_c_positive_is_rejected():
    forged = domain_dropped(attempt(CLAIMS["scale-invariance"]).document, "c")
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


def test_a_forged_gallery_certificate_with_a_wrong_power_is_rejected():
    # ε/c² made ε/c in the program: a valid digest, a false identity
    doc = attempt(CLAIMS["epsilon"]).document
    forged = copy.deepcopy(doc)
    steps = forged["program"]["steps"]
    powers = [i for i, s in enumerate(steps) if s[0] == "pow" and s[2] == 2
              and steps[s[1]] == ["input", "c"]]
    assert powers
    for i in powers:
        steps[i] = ["pow", steps[i][1], 1]
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


# --- the two implementations of the split, side by side ---------------------------------

@pytest.mark.parametrize("k", [1, 2, 4, 12, 18, 50, 97 * 97, 3 * 1009 * 1009, 2**40])
def test_square_parts_agree_and_are_exact(k):
    s, t = prover_roots.square_part(k)
    assert (s, t) == checker_roots.squares_out(k)
    assert s * s * t == k
    assert all(t % (p * p) for p in range(2, 100))


def test_sign_facts_of_domains_and_hypotheses():
    program = {"inputs": [["a", "scalar", "positive"], ["b", "scalar", "real"], ["c", "scalar", "real"],
                          ["d", "scalar", "positive"], ["e", "scalar", "nonzero"]],
               "steps": [["input", "a"], ["input", "b"], ["input", "c"], ["neg", 2], ["input", "d"],
                         ["neg", 4], ["input", "e"], ["pow", 6, 2]],
               "hypotheses": [1, 3, 5, 7]}
    want = {"a": 1, "b": 1, "c": -1, "d": 0, "e": 0}
    assert prover_roots.sign_facts(program) == want
    from bnproof.checker.symbolic_program import read_inputs, read_steps
    inputs = read_inputs(program["inputs"])
    ops = read_steps(program["steps"], inputs, [], "steps")
    assert checker_roots.sign_facts(inputs, ops, program["hypotheses"]) == want


def test_the_prover_splits_as_documented():
    # √(c³ s⁶ m / (9 e²)) with c > 0, s of unknown sign, e < 0: c·√c leaves, s⁴ leaves
    # (s² stays: |s| is no polynomial), e⁻¹ leaves as (−e)⁻¹, 1/3 leaves; m stays
    signs = {1: 1, 2: 0, 3: -1}
    n = {((0, 1), (1, 3), (2, 6)): Fraction(1)}
    d = {((3, 2),): Fraction(9)}
    out_n, out_d, in_n, in_d, own = prover_roots.split(n, d, lambda v: signs.get(v))
    assert P.ordered(out_n) == [(((1, 1), (2, 2)), Fraction(-1, 3))] and P.ordered(out_d) == [(((3, 1),), 1)]
    assert P.ordered(in_n) == [(((0, 1), (2, 2)), 1)] and in_d == P.ONE and own == [1]
