"""render/exact_text writes SymPy's printed form without SymPy: the same text
as sympy.sstr on every value and closed form, or Unsupported (then the report
asks SymPy).  Compared here with SymPy itself on random instances, and on the
cases where SymPy's text is least obvious."""

import json
import random
from fractions import Fraction

import flint
import pytest
import sympy

from bnproof.claims import lemma45
from bnproof.errors import BnproofError
from bnproof.exact import symbolic
from bnproof.exact.layer import Neuron
from bnproof.exact.surd import Surd
from bnproof.instance import example_3_2, instance_from_json
from bnproof.render import exact_text, report

q = flint.fmpq


def fq(x: Fraction):
    return q(x.numerator, x.denominator)


def surd(a, b, r) -> Surd:
    return Surd(fq(Fraction(a)), fq(Fraction(b)), fq(Fraction(r)))


def sympy_constant_first(expr) -> str:
    const, rest = expr.as_coeff_Add()
    if const == 0:
        return sympy.sstr(expr)
    text = sympy.sstr(rest)
    return f"{sympy.sstr(const)} - {text[1:]}" if text.startswith("-") else f"{sympy.sstr(const)} + {text}"


def test_example_3_2_values_by_hand():
    # Ĉ(W*) = 201 − 118√74/37 and ∇Ĉ(W*)₁ = −54√74/1369 (the report's Example 3.2)
    assert exact_text.number(surd(201, Fraction(-118, 37), 74)) == "201 - 118*sqrt(74)/37"
    assert exact_text.number(surd(0, Fraction(-54, 1369), 74)) == "-54*sqrt(74)/1369"
    # √(8/3) = 2√6/3; √(1/2) = √2/2; √(4·32771²) is an integer
    assert exact_text.sqrt_parts(Fraction(8, 3)) == (Fraction(2, 3), 6)
    assert exact_text.sqrt_parts(Fraction(1, 2)) == (Fraction(1, 2), 2)
    assert exact_text.sqrt_parts(Fraction(4 * 32771 ** 2)) == (Fraction(2 * 32771), 1)
    assert exact_text.number(Fraction(-72, 17)) == "-72/17"
    assert exact_text.number(q(0)) == "0"


@pytest.mark.parametrize("a, b, r, text", [
    (1, -1, 2, "1 - sqrt(2)"),          # a positive number, then a negative multiple
    (1, 1, 2, "1 + sqrt(2)"),           # otherwise by float value
    (-1, -1, 2, "-sqrt(2) - 1"),
    (Fraction(3, 2), Fraction(5, 7), 2, "5*sqrt(2)/7 + 3/2"),
    (-3, 2, 2, "-3 + 2*sqrt(2)"),
    (0, 1, 12, "2*sqrt(3)"),
    (0, 1, Fraction(2, 3), "sqrt(6)/3"),
])
def test_two_term_order_as_sympy(a, b, r, text):
    value = surd(a, b, r)
    assert exact_text.number(value) == text == sympy.sstr(value.to_sympy())


def test_a_square_above_the_trial_bound_stays_under_the_root():
    # 32771 is prime and above 2**15: trial division does not see the square in
    # 3·32771²·65537, nor does exact_text look further (only by factoring could it):
    # the composite rest stays under the root whole, still √n exactly, as SymPy
    # writes it too unless its search beyond the bound happens on 32771
    n = 3 * 32771 ** 2 * 65537
    value = surd(0, 1, n)
    assert exact_text.number(value) == f"sqrt({n})" == sympy.sstr(value.to_sympy())
    assert report.s(value) == f"sqrt({n})"
    # a square rest is taken out whole: 2²·(32771·65537)² · 3
    assert exact_text.number(surd(0, 1, 12 * (32771 * 65537) ** 2)) == f"{2 * 32771 * 65537}*sqrt(3)"
    # one prime above the bound, to the first power, is fully factored: no guess needed
    assert exact_text.number(surd(0, 1, 4 * 65537)) == "2*sqrt(65537)" == sympy.sstr(surd(0, 1, 4 * 65537).to_sympy())


def test_random_scalars_match_sympy():
    rng = random.Random(7)
    compared = 0
    for _ in range(400):
        big = rng.choice([10, 1000, 10 ** 6, 10 ** 12])
        a = Fraction(rng.randint(-big, big), rng.randint(1, big)) if rng.random() < 0.8 else Fraction(0)
        b = Fraction(rng.randint(-big, big), rng.randint(1, big)) if rng.random() < 0.8 else Fraction(rng.choice([1, -1]))
        r = Fraction(rng.choice([2, 3, 6, 8, 50, 74, 194, 2 * 32771, 32768 * 3]) * rng.choice([1, 4, 9, 49]),
                     rng.choice([1, 2, 3, 9, 25, 98]))
        value = surd(a, b, r)
        try:
            text = exact_text.number(value)
        except exact_text.Unsupported:
            continue
        compared += 1
        assert text == sympy.sstr(value.to_sympy()), (a, b, r)
    assert compared > 350


def test_to_float_survives_cancellation():
    # p − q√2 with p² − 2q² = 1 (p + q√2 = (3 + 2√2)⁴⁰): about 1e-31 from 30-digit terms,
    # where a 60-digit float evaluation of each term would keep about half the digits
    p, qq = 3, 2
    for _ in range(39):
        p, qq = 3 * p + 4 * qq, 2 * p + 3 * qq
    assert p * p - 2 * qq * qq == 1
    value = surd(p, -qq, 2)
    assert exact_text.to_float(value) == float(sympy.N(p - qq * sympy.sqrt(2), 80)) > 0
    assert exact_text.to_float(surd(-p, qq, 2)) == -exact_text.to_float(value)
    assert exact_text.to_float(surd(201, Fraction(-118, 37), 74)) == float(
        sympy.N(201 - sympy.Rational(118, 37) * sympy.sqrt(74), 40))
    assert exact_text.to_float(q(-72, 17)) == -72 / 17


def _neuron(rng) -> Neuron:
    m, d = rng.choice([2, 3, 5, 12, 13]), rng.choice([2, 3, 4, 10, 11])
    span, frac = rng.choice([1, 3, 20]), rng.choice([0.0, 0.3])

    def value():
        n = rng.randint(-span, span)
        return Fraction(n, rng.randint(1, 6)) if rng.random() < frac else Fraction(n)

    X = [[value() for _ in range(d)] for _ in range(m)]
    if rng.random() < 0.2:  # a constant column
        c, v = rng.randrange(d), value()
        for row in X:
            row[c] = v
    y = [value() for _ in range(m)]
    gamma = rng.choice([Fraction(1), Fraction(2), Fraction(-1), Fraction(1, 3), Fraction(0)])
    beta = rng.choice([Fraction(0), Fraction(1), Fraction(-2, 3)])
    return Neuron(X=flint.fmpq_mat([[fq(x) for x in row] for row in X]), y=flint.fmpq_mat([[fq(v)] for v in y]),
                  gamma=fq(gamma), beta=fq(beta), scale=rng.choice([q(1), q(1, m)]))


# The 60 random neurons drawn as before; SymPy's closed forms of the wide ones (d = 10,
# 11: many cross terms) are most of this test's time, and what they add to exact_text's
# paths is names that sort as strings (w1, w10, w11, w2, ...), which four of them keep:
# d = 11 with m = 3 and m = 2, d = 11 with m = 13 (more than MAX_TERMS_SHOWN terms, so
# none shown), d = 10.  Every narrow one (d ≤ 4) is compared: m = 12 (exactly
# MAX_TERMS_SHOWN terms) and 13, constant columns, every γ, β and scale.
WIDE_KEPT = (0, 13, 43, 52)


def test_closed_forms_match_sympy_on_random_neurons():
    assert exact_text.MAX_TERMS_SHOWN == symbolic.MAX_TERMS_SHOWN
    rng = random.Random(3)
    neurons = [_neuron(rng) for _ in range(60)]
    assert sorted(k for k in WIDE_KEPT if neurons[k].X.ncols() >= 10) == list(WIDE_KEPT)
    compared = 0
    for k, neuron in enumerate(neurons):
        if neuron.X.ncols() > 4 and k not in WIDE_KEPT:
            continue
        try:
            ref = symbolic.closed_forms(neuron)
        except Exception:  # noqa: BLE001 - σ ≡ 0: no closed form to print
            continue
        try:
            mine = exact_text.closed_forms_text(neuron, exact_text.MAX_TERMS_SHOWN)
        except exact_text.Unsupported:
            continue
        compared += 1
        assert mine.mu == sympy.sstr(ref.mu)
        assert mine.sigma == sympy.sstr(ref.sigma)
        assert mine.loss == sympy.sstr(ref.loss)
        assert mine.bn_loss_reduced == sympy_constant_first(ref.bn_loss_reduced)
        if ref.loss_terms is None:
            assert mine.loss_terms is None and mine.bn_loss_terms is None
        else:
            assert mine.loss_terms == [sympy.sstr(t) for t in ref.loss_terms]
            assert mine.bn_loss_terms == [sympy.sstr(t) for t in ref.bn_loss_terms]
    assert compared >= 35


def test_one_effective_weight_is_left_to_sympy():
    # d = 1: SymPy writes σ(w) = √14·|w1|/3; exact_text declines and the report asks SymPy
    neuron = Neuron(X=flint.fmpq_mat([[1], [2], [4]]), y=flint.fmpq_mat([[2], [5], [13]]), gamma=q(1), beta=q(0),
                    scale=q(1))
    with pytest.raises(exact_text.Unsupported):
        exact_text.closed_forms_text(neuron, 12)
    assert report.forms_text(neuron).sigma == "sqrt(14)*Abs(w1)/3"


def test_weights_sort_as_sympy_sorts_names():
    # w10 sorts before w2 as a string, in sums and in products
    d = 11
    X = [[Fraction((i * 7 + j * 3) % 5 - 2) for j in range(d)] for i in range(4)]
    neuron = Neuron(X=flint.fmpq_mat([[fq(x) for x in row] for row in X]), y=flint.fmpq_mat([[1], [0], [2], [-1]]),
                    gamma=q(1), beta=q(0), scale=q(1))
    mine = exact_text.closed_forms_text(neuron, 12)
    ref = symbolic.closed_forms(neuron)
    assert "w1*w10" in mine.loss and mine.loss == sympy.sstr(ref.loss)
    assert mine.bn_loss_terms == [sympy.sstr(t) for t in ref.bn_loss_terms]


def test_reports_match_the_sympy_printed_ones():
    """Whole reports (JSON and text) from exact_text's forms equal those from SymPy's."""
    rng = random.Random(11)
    cases = [example_3_2()]
    for _ in range(12):
        m, d, n = rng.choice([3, 5, 13]), rng.choice([2, 3]), rng.choice([1, 2])
        data = {"X": [[rng.randint(-4, 4) for _ in range(d)] for _ in range(m)],
                "Y": [[rng.choice([rng.randint(-4, 4), f"{rng.randint(-4, 4)}/3"]) for _ in range(n)]
                      for _ in range(m)],
                "W0": [[rng.randint(-3, 3) for _ in range(d)] for _ in range(n)],
                "gamma": [rng.choice([1, 2, "1/3"]) for _ in range(n)]}
        try:
            cases.append(instance_from_json(data))
        except BnproofError:
            pass
    for inst in cases:
        try:
            rep = lemma45.analyse(inst)
        except BnproofError:
            continue
        new = report.forms_for(rep)
        old = []
        for nr in rep.neurons:
            f = symbolic.closed_forms(nr.neuron)
            old.append(exact_text.FormsText(
                [str(w) for w in f.w], sympy.sstr(f.mu), sympy.sstr(f.sigma), sympy.sstr(f.loss),
                None if f.loss_terms is None else [sympy.sstr(t) for t in f.loss_terms],
                None if f.bn_loss_terms is None else [sympy.sstr(t) for t in f.bn_loss_terms],
                sympy_constant_first(f.bn_loss_reduced)))
        assert new == old
        extras = report.Extras(None, "c.json", "checked")
        assert json.dumps(report.to_json(rep, new, extras)) == json.dumps(report.to_json(rep, old, extras))


def test_floats_in_json_are_the_nearest_floats():
    rep = lemma45.analyse(example_3_2())
    out = report.to_json(rep, report.forms_for(rep), report.Extras(None, None, None))
    # ∇Ĉ(W*) = (−54√74/1369, 18√74/1369), Ĉ's minimum 201 − 2√194
    assert out["grad_bn_at_W_star_float"] == [float(sympy.N(-54 * sympy.sqrt(74) / 1369, 40)),
                                              float(sympy.N(18 * sympy.sqrt(74) / 1369, 40))]
    assert out["neurons"][0]["min_C_hat_float"] == float(sympy.N(201 - 2 * sympy.sqrt(194), 40))
