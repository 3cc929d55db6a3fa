"""Red team: existential claims and random variables, attacked as a referee would
(forged existential certificates resealed with a valid digest, hostile sizes, the
SMT trust route, names that collide, expectations that are undefined at the
instance, constants whose variance is exactly 0)."""

import copy
import json
import time
from fractions import Fraction as F

import numpy as np
import pytest

import bnproof
from bnproof.certificate import solvers
from bnproof.checker import Rejected, check_document
from bnproof.checker.exists_query import query
from bnproof.claims import Claim, Law, Var
from bnproof.claims.decide import HOLDS, OUTSIDE, REFUTED, decide
from bnproof.claims.exists import NO_WITNESS, UNDECIDED, WITNESS, decide_inner, trace
from bnproof.certificate.exists import build
from bnproof.errors import BadInput
from tamper import seal

INVERSE = Claim("t/inverse", "test", "p x = 1", lambda xp, x, p: p * x - 1, (Var("x"),),
                kind="identity", exists=(Var("p"),))
X, P = ["input", "x"], ["input", "p"]


@pytest.fixture(scope="module")
def inverse():
    traced = trace(INVERSE, {})
    inner = decide_inner(INVERSE, traced, {"x": F(0)}, {})
    assert inner.verdict == NO_WITNESS
    return json.loads(json.dumps(build(INVERSE, {"x": F(0)}, {}, traced, inner)))


def forged(doc, change):
    doc = copy.deepcopy(doc)
    change(doc)
    return seal({k: v for k, v in doc.items() if k != "digest"})


def with_program(doc, steps, residuals, kind="identity", nonexistence=None, hypotheses=()):
    def change(d):
        d["program"] = {"steps": steps, "residuals": residuals, "hypotheses": list(hypotheses)}
        d["claim"]["kind"] = kind
        if nonexistence is not None:
            d["nonexistence"] = nonexistence
    return forged(doc, change)


# ---------------------------------------------------------------- existential certificates


def test_hostile_existential_sizes_are_rejected_before_anything_is_built(inverse):
    """The existential entries are made from "sizes" alone: n = 100000 in a (n, n) p was
    10^10 zeros built before any other check (the checker hung)."""
    def change(d):
        d["claim"]["exists"].append({"name": "q", "shape": ["n", "n"], "domain": "real"})
        d["sizes"] = {"n": 100_000}
    start = time.process_time()  # this process's CPU time: another process's load does not count
    with pytest.raises(Rejected, match="existential entries"):
        check_document(forged(inverse, change))
    assert time.process_time() - start < 5


def test_a_p_that_cancels_only_on_evaluated_points_is_not_affine(inverse):
    """p*p - p*p + 1, p/p - 1, max(p, p) - p + 1, |p| - |p| + 1, sqrt(p*p) - p, a guarded p:
    each would pass a check that only looked at p = 0 and p = 1."""
    one = ["1"]
    forgeries = [
        [X, P, ["mul", 1, 1], ["sub", 2, 2], ["const", "1"], ["add", 3, 4]],
        [X, P, ["div", 1, 1], ["const", "-1"], ["add", 2, 3]],
        [X, P, ["max", 1, 1], ["sub", 2, 1], ["const", "1"], ["add", 3, 4]],
        [X, P, ["abs", 1], ["sub", 2, 2], ["const", "1"], ["add", 3, 4]],
        [X, P, ["mul", 1, 1], ["sqrt", 2], ["sub", 3, 1]],
        [X, P, ["const", "1"], ["guard", 1, 2]],
    ]
    for steps in forgeries:
        doc = with_program(inverse, steps, [len(steps) - 1],
                           nonexistence={"method": "farkas", "multipliers": one})
        with pytest.raises(Rejected, match="not affine"):
            check_document(doc)


def test_boundary_witnesses_are_respected(inverse):
    """p >= 1 and 1 - p >= 0 meet at p = 1 (exactly 0): no multipliers refute it; with
    strict signs the system is empty and y = (1, 1) proves it."""
    steps = [X, P, ["const", "1"], ["sub", 1, 2], ["sub", 2, 1]]
    for y in (["1", "1"], ["2", "2"], ["0", "1"], ["1", "0"]):
        with pytest.raises(Rejected):
            check_document(with_program(inverse, steps, [3, 4], "inequality",
                                        {"method": "farkas", "multipliers": y}))
    assert "Farkas" in check_document(with_program(inverse, steps, [3, 4], "strict-inequality",
                                                   {"method": "farkas", "multipliers": ["1", "1"]}))
    with pytest.raises(Rejected, match="canonical"):  # "-0" is not a rational string
        check_document(forged(inverse, lambda d: d["nonexistence"].update(multipliers=["-0"])))


def test_the_engine_finds_the_boundary_witness_and_never_refutes_an_irrational_one():
    band = Claim("t/band0", "test", "x <= p <= x", lambda xp, x, p: xp.asarray([p - x, x - p]),
                 (Var("x"),), exists=(Var("p"),))
    inner = decide_inner(band, trace(band, {}), {"x": F(7, 3)}, {})
    assert inner.verdict == WITNESS and inner.witness == {"p": F(7, 3)}
    root = Claim("t/root", "test", "p^2 = 2", lambda xp, x, p: xp.asarray([p * p - x, p]),
                 (Var("x"),), kind="inequality", exists=(Var("p"),))
    # p^2 >= 2 and p >= 0: p = 2 is rational; p^2 - 2 = 0 with p >= 0 only at sqrt 2
    only = Claim("t/root2", "test", "p^2 = 2", lambda xp, x, p: p * p - x, (Var("x"),),
                 kind="identity", exists=(Var("p"),))
    assert decide_inner(root, trace(root, {}), {"x": F(2)}, {}).verdict == WITNESS
    assert decide_inner(only, trace(only, {}), {"x": F(3)}, {}).verdict == UNDECIDED


SMT_STEPS = [X, P, ["mul", 1, 1], ["const", "1"], ["sub", 2, 3]]  # p^2 = 1: p = 1 is a witness


def _sat_smt(inverse):
    text = query(SMT_STEPS, {"x": F(0)}, {"p"}, [4], "identity")
    return with_program(inverse, SMT_STEPS, [4], "identity",
                        {"method": "smt", "query": text, "answers": {"z3": "unsat", "cvc5": "unsat"},
                         "trust": "non-existence confirmed by z3 and cvc5 (not checked by the bnproof kernel)"})


def test_the_checker_alone_does_not_claim_it_heard_the_solvers(inverse):
    """The answers of an smt certificate are the certificate's word; a forger writes
    'unsat' for a query that is sat.  The checker cannot judge them, and its line must say
    that it did not re-run them."""
    line = check_document(_sat_smt(inverse))
    assert "as the certificate records: not re-run by this checker" in line


def test_bnproof_check_reruns_the_solvers_on_a_forged_smt_certificate(inverse, tmp_path, monkeypatch):
    path = tmp_path / "sat.json"
    path.write_text(json.dumps(_sat_smt(inverse)))
    if solvers.available("z3") or solvers.available("cvc5"):
        result = bnproof.check(path)
        assert not result.accepted and "NOT confirmed" in result.line
    monkeypatch.setattr(solvers, "available", lambda name: False)
    result = bnproof.check(path)
    assert result.accepted  # nothing here can judge it: the line must say so
    assert "not re-run by this checker" in result.line
    assert "no solver installed here to re-run" in result.line


# ---------------------------------------------------------------- random variables


def claim_of(residual, law=Law("X", (), "k"), extra=(), kind="inequality", **more):
    return Claim(id="t/rt-expect", source="tests", statement="s", variables=(law, *extra),
                 sizes={"k": (1, 3)}, residual=residual, kind=kind, **more)


LAW = {"X_support": [F(1), F(2)], "X_weights": [1, 1]}
C = (Var("c"),)


def test_an_existential_variable_cannot_take_a_laws_name():
    """The law's Distribution was passed under the same keyword, silently replacing the
    existential variable: 'there is X with X >= E[X] + 1' (true) was refuted."""
    for name in ("X", "X_support", "X_weights"):
        with pytest.raises(ValueError, match="taken twice|both universal and existential"):
            Claim("t/coll", "s", "st", lambda xp, X: 0, (Law("X", (), 2),), exists=(Var(name),))


@pytest.mark.parametrize("f", [
    lambda xp, B, c: (B[0] - B[0]) / c,
    lambda xp, B, c: 0 * B[0] / c,
    lambda xp, B, c: 0 * B[0] * (1 / c),
    lambda xp, B, c: (B[0] - B[0]) * c ** -1,
])
def test_an_expectation_that_divides_by_zero_is_undefined_not_zero(f):
    """E[(X - X)/c] at c = 0 has no value (the expression divides by 0), as (c - c)/c has
    none outside expectations; the moment algebra dropped the division with the zero
    numerator and decided E = 0, refuting "E - 1 >= 0" at an instance outside the claim."""
    claim = claim_of(lambda xp, X, c: xp.expect(f, X, 2, c) - 1, extra=C)
    assert decide(claim, {**LAW, "c": F(0)}).verdict == OUTSIDE
    decided = decide(claim, {**LAW, "c": F(3)})
    assert decided.verdict == REFUTED and decided.residual.value.lo == -1
    zero = claim_of(lambda xp, X, c: xp.expect(f, X, 2, c), extra=C, kind="identity")
    assert decide(zero, {**LAW, "c": F(3)}).verdict == HOLDS


def test_the_variance_of_a_constant_is_exactly_zero():
    """f returning a 0-d array (xp.sqrt of a constant) was lifted as a polynomial whose
    coefficient was the array itself: 'got Poly', undecided.  Var of a constant is 0."""
    for g in (lambda xp, B, c: xp.sqrt(c + 2), lambda xp, B, c: c * c + 1, lambda xp, B, c: xp.abs(c - 1)):
        claim = claim_of(lambda xp, X, c, g=g: xp.var(g, X, 3, c), extra=C, kind="identity")
        decided = decide(claim, {**LAW, "c": F(0)})
        assert decided.verdict == HOLDS and decided.residual.sign == 0
    never = claim_of(lambda xp, X, c: -xp.var(lambda xp, B, c: xp.exp(c), X, 2, c), extra=C)
    assert decide(never, {**LAW, "c": F(1)}).verdict != REFUTED  # exp(1)^2 - exp(1)^2: never < 0
    assert decide(claim_of(lambda xp, X, c: xp.expect(lambda xp, B, c: xp.sqrt(c), X, 1, c) - 2, extra=C),
                  {**LAW, "c": F(4)}).residual.sign == 0


def test_a_one_point_law_has_no_variance():
    claim = claim_of(lambda xp, X: xp.var(lambda xp, B: xp.sum(B), X, 3), law=Law("X", (), 1), kind="identity")
    assert decide(claim, {"X_support": [F(5, 7)], "X_weights": [F(3)]}).verdict == HOLDS


def test_a_second_law_is_not_drawn_in_an_expectation():
    """Passing law Y to f is bad input with the reason (it gave a TypeError on Distribution);
    E[X] E[Y] written as two expectations is the independent product."""
    two = (Law("Y", (), "k"),)
    values = {**LAW, "Y_support": [F(-1), F(3)], "Y_weights": [1, 3]}
    with pytest.raises(BadInput, match="one law only"):
        from bnproof.claims.decide import trace as trace_claim
        trace_claim(claim_of(lambda xp, X, Y: xp.expect(lambda xp, B, Y: B[0] * Y, X, 1, Y), extra=two),
                    {"k": 2})
    product = claim_of(lambda xp, X, Y: xp.expect(lambda xp, B: B[0], X, 1) * xp.expect(lambda xp, B: B[0], Y, 1)
                       - F(3, 2) * 2, extra=two, kind="identity")
    assert decide(product, values).verdict == HOLDS


def test_jax_jit_and_vmap_of_a_division_inside_an_expectation():
    import jax
    import jax.numpy as jnp

    from bnproof.claims import xp as namespaces
    from bnproof.claims.law import distribution

    def fn(s, w, c):
        xp = namespaces.numeric()
        return xp.expect(lambda xp, B, c: (B[0] - B[0]) / c + B[1] * c, distribution(xp, "X", s, w), 2, c)

    out = jax.jit(jax.vmap(fn))(jnp.array([[1.0, 2.0]] * 2), jnp.array([[1.0, 1.0]] * 2), jnp.array([2.0, 0.0]))
    assert float(out[0]) == pytest.approx(3.0)
    assert not np.isfinite(float(out[1]))  # 0/0: no value, as the exact engine says


def test_latex_does_not_write_a_refutation_the_solvers_deny(inverse, tmp_path, monkeypatch):
    """bnproof latex printed 'Both answered unsat ... no witness' for a forged smt certificate
    whose query z3 and cvc5 (installed here) answer sat."""
    from bnproof._api.latex import CertificateRejected

    path = tmp_path / "sat.json"
    path.write_text(json.dumps(_sat_smt(inverse)))
    if solvers.available("z3") or solvers.available("cvc5"):
        with pytest.raises(CertificateRejected, match="NOT confirmed"):
            bnproof.latex(path)
    monkeypatch.setattr(solvers, "available", lambda name: False)
    text = str(bnproof.latex(path))
    assert "as the certificate records" in text and "the recorded answers stand" in text
