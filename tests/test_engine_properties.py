"""Properties of the exact engine on random small instances (Hypothesis).

Expected values come from definitions or from independent routes: SymPy
differentiation of the naive loss, and JAX autodiff of a separately written
forward pass."""

import functools
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bnproof.claims import lemma45
from bnproof.errors import DegenerateInstance
from bnproof.exact import bn
from bnproof.exact.layer import Neuron
from bnproof.exact.linalg import column, dot, to_fraction
from bnproof.instance import instance_from_json

small = st.fractions(min_value=-5, max_value=5, max_denominator=4)
nonzero = small.filter(lambda x: x != 0)


@st.composite
def instances(draw, max_m=5, max_d=3, n=1, shapes=None):
    """`shapes`: the (m, d) to draw from, where each shape is another program to compile."""
    if shapes:
        m, d = draw(st.sampled_from(shapes))
    else:
        m = draw(st.integers(3, max_m))
        d = draw(st.integers(1, min(max_d, m - 1)))
    X = [[draw(small) for _ in range(d)] for _ in range(m)]
    data = {
        "X": [[str(x) for x in r] for r in X],
        "Y": [[str(draw(small)) for _ in range(n)] for _ in range(m)],
        "W0": [[str(draw(small)) for _ in range(d)] for _ in range(n)],
        "gamma": [str(draw(nonzero)) for _ in range(n)],
        "beta": [str(draw(small)) for _ in range(n)],
        "loss": draw(st.sampled_from(["sum", "mean"])),
    }
    return instance_from_json(data)


def point(draw_from, d):
    return column([draw_from for _ in range(d)])


@given(instances(), st.lists(nonzero, min_size=3, max_size=3), st.fractions(1, 50, max_denominator=9))
def test_bn_loss_is_scale_invariant(inst, w, a):
    neuron = Neuron.of(inst, 0)
    w = column(w[: inst.d])
    try:
        value = neuron.bn_loss(w)
    except DegenerateInstance:
        assume(False)
    assert neuron.bn_loss(w * flint.fmpq(a.numerator, a.denominator)) == value


@given(instances(), st.lists(nonzero, min_size=3, max_size=3))
def test_bn_output_has_mean_beta_and_std_abs_gamma(inst, w):
    neuron = Neuron.of(inst, 0)
    z = neuron.X * column(w[: inst.d])
    try:
        norm = bn.normalize(z)
    except DegenerateInstance:
        assume(False)
    out = bn.transform(norm, neuron.gamma, neuron.beta)
    m = inst.m
    ones = column([1] * m)
    mean = (ones.transpose() * out) * flint.fmpq(1, m)
    assert mean.scalar() == neuron.beta
    centred = out - ones * neuron.beta
    assert ((centred.T * centred) * flint.fmpq(1, m)).scalar() == neuron.gamma**2


def _naive_bn_loss(inst):
    """Ĉ(w) written from the definition with SymPy symbols, independent of the engine."""
    w = sympy.symbols(f"v1:{inst.d + 1}", real=True)
    X = [[sympy.Rational(x.numerator, x.denominator) for x in row] for row in inst.X]
    y = [sympy.Rational(r[0].numerator, r[0].denominator) for r in inst.Y]
    g, b = (sympy.Rational(v[0].numerator, v[0].denominator) for v in (inst.gamma, inst.beta))
    m = len(X)
    z = [sum(xi * wi for xi, wi in zip(row, w)) for row in X]
    mu = sum(z) / m
    sigma = sympy.sqrt(sum((zi - mu) ** 2 for zi in z) / m)
    loss = sum((g * (zi - mu) / sigma + b - yi) ** 2 for zi, yi in zip(z, y))
    return w, loss if inst.loss == "sum" else loss / m


@settings(max_examples=12)
@given(instances(max_m=4, max_d=2), st.lists(nonzero, min_size=2, max_size=2))
def test_exact_gradient_and_hessian_equal_sympy_differentiation(inst, wv):
    neuron = Neuron.of(inst, 0)
    w = column(wv[: inst.d])
    try:
        grad, hess = neuron.bn_grad(w), neuron.bn_hessian(w)
    except DegenerateInstance:
        assume(False)
    syms, loss = _naive_bn_loss(inst)
    at = {s: sympy.Rational(v.numerator, v.denominator) for s, v in zip(syms, wv)}
    # each derivative taken once (∂²/∂s∂t from ∂/∂s, and ∂²/∂t∂s = ∂²/∂s∂t), then evaluated
    # by replacing the symbols with the point's rationals: the same values as .subs, and
    # half the time of differentiating the loss afresh for every entry
    first = [sympy.diff(loss, s) for s in syms]
    second = {(i, k): sympy.diff(first[i], t) for i in range(len(syms)) for k, t in enumerate(syms) if k >= i}
    for i, s in enumerate(syms):
        expected = first[i].xreplace(at)
        assert sympy.simplify(expected - grad.to_sympy()[i]) == 0
        for k, t in enumerate(syms):
            expected = second[min(i, k), max(i, k)].xreplace(at)
            assert sympy.simplify(expected - hess.to_sympy()[i, k]) == 0


@functools.lru_cache(maxsize=None)
def _derivatives(forward):
    """forward.derivatives' function, compiled with tests/xla_programs' options: its three
    shapes' Hessians compile in 1.75 s of CPU, not 2.6 s."""
    from xla_programs import compiled

    return compiled(forward.derivatives.__wrapped__)


# Three shapes, not every m ≤ 6, d ≤ 3 (eleven, each a compilation of JAX's Hessians):
# one column, m = d + 1 (the centred inputs' rank is d exactly), and the largest.
JAX_SHAPES = [(4, 1), (3, 2), (6, 3)]


@settings(max_examples=25)
@given(instances(n=2, shapes=JAX_SHAPES), st.lists(nonzero, min_size=6, max_size=6))
def test_exact_and_jax_layers_agree(inst, wv):
    forward = pytest.importorskip("bnproof.numeric.forward")
    neurons = [Neuron.of(inst, j) for j in range(inst.n)]
    rows = [column(wv[j * inst.d:(j + 1) * inst.d]) for j in range(inst.n)]
    try:
        exact = [(nr.bn_grad(w), nr.bn_hessian(w)) for nr, w in zip(neurons, rows)]
    except DegenerateInstance:
        assume(False)
    f = lambda v: np.array([[float(x) for x in r] for r in v])  # noqa: E731
    out = _derivatives(forward)(
        np.array([[float(to_fraction(x)) for x in r.entries()] for r in rows]),
        f(inst.X), f(inst.Y), np.array([float(g) for g in inst.gamma]),
        np.array([float(b) for b in inst.beta]), 1.0 if inst.loss == "sum" else 1.0 / inst.m,
    )
    for j, (grad, hess) in enumerate(exact):
        scale = 1 + float(np.max(np.abs(hess.to_floats())))
        np.testing.assert_allclose(np.asarray(out["grad_C_hat"])[j], grad.to_floats(),
                                   rtol=1e-8, atol=1e-8 * scale)
        np.testing.assert_allclose(np.asarray(out["hess_C_hat"])[j, :, j, :].ravel(),
                                   hess.to_floats(), rtol=1e-7, atol=1e-7 * scale)


@given(instances(max_m=6, max_d=3))
def test_bn_optima_pass_first_and_second_order_conditions(inst):
    try:
        report = lemma45.analyse(inst)
    except DegenerateInstance:
        assume(False)
    opt = report.neurons[0].bn
    assert opt.first_order_ok and opt.second_order_ok


@given(instances(max_m=6, max_d=3), st.lists(nonzero, min_size=3, max_size=3))
def test_ray_is_the_global_minimum_of_bn_loss(inst, wv):
    try:
        report = lemma45.analyse(inst)
        neuron = report.neurons[0]
        value = float(neuron.neuron.bn_loss(column(wv[: inst.d])))
    except DegenerateInstance:
        assume(False)
    assert float(neuron.bn.minimum) <= value + 1e-9 * (1 + abs(value))


@given(instances(max_m=6, max_d=3))
def test_rhs_is_squared_distance_to_the_line_through_w_star(inst):
    """By hand: RHS = ‖W0‖² − ⟨W0, W*⟩²/‖W*‖² = ‖W0 − kW*‖², k = ⟨W*, W0⟩/‖W*‖²."""
    try:
        n = lemma45.analyse(inst).neurons[0]
    except DegenerateInstance:
        assume(False)
    assume(n.rhs is not None)
    w0, ws = n.w0, n.standard.w
    k = dot(w0, ws) / dot(ws, ws)
    diff = w0 - ws * k
    assert n.rhs == dot(diff, diff)
    if n.closest.point is not None:
        gap = n.w0 - n.closest.point
        assert n.lhs == dot(gap, gap)


def test_gamma_negative_flips_the_ray():
    data = {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3], "gamma": -1}
    n = lemma45.analyse(instance_from_json(data)).neurons[0]
    assert [to_fraction(x) for x in n.bn.direction.entries()] == [-5, -3]
    assert n.bn.first_order_ok and n.bn.second_order_ok
    # ⟨W0, −b⟩ < 0: the open ray does not attain the distance; the infimum is ‖W0‖²
    assert n.closest.point is None and n.lhs == 10


def test_constant_input_column_gives_ray_plus_kernel():
    # first column constant: σ and Ĉ ignore w1, so the optimum set is {t·b + s·(1, 0)}
    data = {"X": [[1, 1], [1, 2], [1, 4]], "y": [1, 2, 2], "W0": [3, 1]}
    n = lemma45.analyse(instance_from_json(data)).neurons[0]
    assert [to_fraction(x) for x in n.bn.kernel.entries()] == [1, 0]
    b = [to_fraction(x) for x in n.bn.direction.entries()]
    assert b[0] == 0 and b[1] > 0
    assert n.bn.first_order_ok and n.bn.second_order_ok
    assert [to_fraction(x) for x in n.closest.point.entries()] == [3, 1]
    assert n.lhs == 0


def test_two_neurons_are_read_column_wise():
    data = {"X": [[1, 1], [1, 2], [2, 3]], "Y": [[2, 1], [5, 2], [13, 3]],
            "W0": [[1, 3], [1, 0]]}
    report = lemma45.analyse(instance_from_json(data))
    first, second = report.neurons
    assert first.verdict == "refuted" and first.residual == flint.fmpq(-72, 17)
    # y = x2 exactly for the second neuron: W* = (0, 1), ⟨W0, W*⟩ = 0
    assert [to_fraction(x) for x in second.standard.w.entries()] == [0, 1]
    assert second.verdict == "hypothesis-not-met"
    assert report.verdict == "refuted"


def test_mean_loss_scales_sum_loss():
    base = {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3]}
    s = lemma45.analyse(instance_from_json(base)).neurons[0]
    m = lemma45.analyse(instance_from_json({**base, "loss": "mean"})).neurons[0]
    assert m.grad_bn_at_w_star == s.grad_bn_at_w_star * flint.fmpq(1, 3)
    assert m.lhs == s.lhs and m.verdict == s.verdict


def test_surd_sign_is_exact_near_cancellation():
    from bnproof.exact.surd import Surd

    # 1393² − 2·985² = −1, so 1393 − 985√2 < 0 by about 3.6e-4
    assert Surd(flint.fmpq(1393), flint.fmpq(-985), 2).sign() == -1
    assert Surd(flint.fmpq(-1393), flint.fmpq(985), 2).sign() == 1
    # 10^20 − √(10^40 + 1) ≈ −5e-21: doubles round it to exactly 0
    big = 10**20
    tiny = Surd(flint.fmpq(big), flint.fmpq(-1), flint.fmpq(big**2 + 1))
    assert float(big) - (float(big**2 + 1)) ** 0.5 == 0.0
    assert tiny.sign() == -1 and not tiny.is_zero()
    assert Surd(flint.fmpq(3), flint.fmpq(5), 4).b == 0  # √4 folds into the rational part
    assert Fraction(int(Surd(flint.fmpq(3), flint.fmpq(5), 4).a.p)) == 13
