"""Red team: transcendental functions, their certificates and the checker's series."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest

from bnproof.checker import Rejected, check_document
from bnproof.checker import series
from bnproof.claims.decide import REFUTED, UNDECIDED, decide
from bnproof.render.latex_program import evaluate
from tamper import seal
from test_transcendental import certificate, scalar

F = Fraction


# -- the checker's series against mpmath at far higher precision ------------------------------

def _inside(f, x, b, bounds):
    lo, hi = bounds
    with mpmath.workprec(b + 400):
        scale = mpmath.mpf(2) ** b
        value = f() if x is None else f(mpmath.mpf(x) / scale)
        return lo / scale <= value <= hi / scale and lo <= hi


def _points(b):
    one = 1 << b
    edges = [0, 1, -1, one, -one, one - 1, -one + 1, one + 1, one // 2, one // 2 + 1,
             (7 * one) // 10, 3 * one // 2, 2 * one]
    rng = random.Random(b)
    return edges + [rng.randint(-4 * one, 4 * one) for _ in range(6)]


@pytest.mark.parametrize("b", [1, 3, 64, 256, 1024])
def test_series_enclose_the_truth_where_truncation_matters(b):
    one = 1 << b
    assert _inside(lambda: mpmath.pi, None, b, series.pi_bounds(b))
    for x in _points(b):
        assert _inside(mpmath.exp, x, b, series.exp_bounds(x, b)), ("exp", x, b)
        assert _inside(mpmath.tanh, x, b, series.tanh_bounds(x, b)), ("tanh", x, b)
        if x > 0:
            assert _inside(mpmath.log, x, b, series.log_bounds(x, b)), ("log", x, b)
        if -one <= x <= one:
            assert _inside(mpmath.acos, x, b, series.acos_bounds(x, b)), ("acos", x, b)
    # the ends of the work limit, and tanh past the shortcut's threshold
    for x in (4096 << b, -(4096 << b), (4096 << b) - 1):
        assert _inside(mpmath.exp, x, b, series.exp_bounds(x, b)), ("exp", x, b)
    for x in ((2048 << b) - 1, 2048 << b, (2048 << b) + 1, -(10**6 << b)):
        assert _inside(mpmath.tanh, x, b, series.tanh_bounds(x, b)), ("tanh", x, b)
    for x in (1, 3, (1 << (2 * b)) + 1, 10**50):  # log of tiny and huge numbers
        assert _inside(mpmath.log, x, b, series.log_bounds(x, b)), ("log", x, b)


def test_series_refuse_arguments_outside_their_domains():
    for call in (lambda: series.log_bounds(0, 8), lambda: series.log_bounds(-1, 8),
                 lambda: series.acos_bounds(257, 8), lambda: series.acos_bounds(-257, 8),
                 lambda: series.exp_bounds((4096 << 8) + 1, 8)):
        with pytest.raises(ValueError):
            call()


# -- exact zeros: forged refutations resealed, never accepted ---------------------------------

@pytest.fixture(scope="module")
def genuine():
    return certificate(scalar(lambda xp, x: x - xp.tanh(x)), F(-1, 2))


def _forged(doc, steps, kind):
    sign = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}
    residual = len(steps) - 1
    doc = {**doc, "claim": {**doc["claim"], "kind": kind},
           "program": {"steps": steps, "residual": residual, "hypotheses": []},
           "obligations": [{"fact": "residual", "value": residual, "sign": sign[kind]}]}
    return seal(doc)


ZEROS = {
    "arccos(-1) - pi": [["const", "-1"], ["acos", 0], ["pi"], ["sub", 1, 2]],
    "exp(0) - 1": [["const", "0"], ["exp", 0], ["const", "1"], ["sub", 1, 2]],
    "log(exp(2)) - 2": [["const", "2"], ["exp", 0], ["log", 1], ["sub", 2, 0]],
    "2 arccos(0) - pi": [["const", "0"], ["acos", 0], ["const", "2"], ["mul", 2, 1], ["pi"],
                         ["sub", 3, 4]],
    "arccos(tanh 0) - pi/2": [["const", "0"], ["tanh", 0], ["acos", 1], ["pi"], ["const", "1/2"],
                              ["mul", 3, 4], ["sub", 2, 5]],
    # tanh x = (e^(2x) - 1)/(e^(2x) + 1) at x = 3/7, an identity
    "tanh identity": [["const", "3/7"], ["tanh", 0], ["const", "2"], ["mul", 2, 0], ["exp", 3],
                      ["const", "1"], ["sub", 4, 5], ["add", 4, 5], ["div", 6, 7], ["sub", 1, 8]],
    "arccos(-x) + arccos(x) - pi at an irrational x": [
        ["const", "1/2"], ["sqrt", 0], ["acos", 1], ["neg", 1], ["acos", 3], ["add", 2, 4], ["pi"],
        ["sub", 5, 6]],
}


@pytest.mark.parametrize("name", ZEROS)
@pytest.mark.parametrize("kind", ["identity", "inequality", "strict-inequality"])
def test_forged_refutations_of_exact_zeros_are_rejected(genuine, name, kind):
    doc = _forged(genuine, ZEROS[name], kind)
    if name == "exp(0) - 1" and kind == "strict-inequality":  # exactly 0 refutes "> 0"
        assert "refuted" in check_document(doc)
        return
    with pytest.raises(Rejected):
        check_document(doc)


def test_exact_zeros_with_a_negated_residual_are_rejected_too(genuine):
    for steps in ZEROS.values():
        negated = steps + [["neg", len(steps) - 1]]
        with pytest.raises(Rejected):
            check_document(_forged(genuine, negated, "inequality"))


@pytest.mark.parametrize("bits", [-1, 10**9, 2**20 + 1, "64", 64.0, None])
def test_hostile_enclosure_bits_are_rejected(genuine, bits):
    doc = {**genuine, "obligations": [dict(genuine["obligations"][-1])]}
    doc["obligations"][0]["enclosure"] = {**doc["obligations"][0]["enclosure"], "bits": bits}
    with pytest.raises(Rejected, match="bits must be an integer"):
        check_document(seal(doc))


def test_a_huge_or_shifted_enclosure_is_rejected(genuine):
    stated = genuine["obligations"][-1]["enclosure"]
    for lo, hi in (("-" + "9" * 10**6, "-1"),  # too long to parse
                   ("-1/100", "-1/1000")):  # shows the sign, but misses the value (about -0.038)
        doc = {**genuine, "obligations": [dict(genuine["obligations"][-1])]}
        doc["obligations"][0]["enclosure"] = {**stated, "lo": lo, "hi": hi}
        with pytest.raises(Rejected, match="residual enclosure"):
            check_document(seal(doc))


# -- the engine never refutes an exact zero, and refutes a tiny nonzero -----------------------

@pytest.mark.parametrize("residual", [
    lambda xp, x: xp.log(xp.exp(x)) - x,
    lambda xp, x: xp.tanh(x) - (xp.exp(2 * x) - 1) / (xp.exp(2 * x) + 1),
    lambda xp, x: xp.arccos(xp.tanh(x - x)) * 2 - xp.pi,
])
def test_the_engine_never_refutes_an_exact_zero(residual):
    decision = decide(scalar(residual, kind="identity"), {"x": F(2)})
    assert decision.verdict == UNDECIDED


def test_a_tiny_nonzero_residual_is_refuted_and_certified():
    claim = scalar(lambda xp, x: xp.tanh(x) - 1, kind="identity")  # tanh 1000 - 1 ≈ -5e-869
    assert decide(claim, {"x": F(1000)}).verdict == REFUTED
    assert "refuted" in check_document(certificate(claim, F(1000)))


# -- LaTeX: the shown decimal of a refuted residual ------------------------------------------

@pytest.mark.parametrize("residual, x, kind, expected", [
    (lambda xp, x: xp.tanh(x) - 1, 1000, "identity", -2 * mpmath.exp(-2000)),
    (lambda xp, x: xp.exp(x) - xp.exp(x + F(1, 10**300)), 1, "identity",
     -mpmath.e * mpmath.mpf(10) ** -300),
    (lambda xp, x: xp.arccos(x) - xp.pi / 2, F(1, 10**500), "inequality",
     -mpmath.mpf(10) ** -500),
    (lambda xp, x: x - xp.tanh(x), F(-1, 2), "inequality", mpmath.mpf(-0.5) - mpmath.tanh(-0.5)),
])
def test_the_latex_decimal_of_a_tiny_residual_is_not_zero(residual, x, kind, expected):
    # SymPy's evalf gives up on the cancellation and printed 0.0 for a refuted residual
    shown = evaluate(certificate(scalar(residual, kind=kind), F(x))).residual_decimal
    with mpmath.workprec(4000):
        mant, _, exp = mpmath.nstr(expected, 6, min_fixed=-4, max_fixed=8).partition("e")
    assert shown.startswith(mant[:6]) and (not exp or shown.endswith(f"10^{{{int(exp)}}}")), shown


@pytest.mark.parametrize("argument, edge", [
    (lambda xp, x: xp.tanh(x) / xp.tanh(x), "1"),
    (lambda xp, x: -xp.exp(x) / xp.exp(x), "-1"),
])
def test_an_arccos_argument_that_may_be_an_edge_is_named_as_such(argument, edge):
    # the argument is exactly ±1 but not algebraic: undecided, and the message said the
    # argument "may be exactly 0", which it is not
    decision = decide(scalar(lambda xp, x: xp.arccos(argument(xp, x)) - 1), {"x": F(1)})
    assert decision.verdict == UNDECIDED
    assert f"may be exactly {edge} (its ball contains {edge} at" in decision.detail, decision.detail
