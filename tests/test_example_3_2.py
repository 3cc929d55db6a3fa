"""Example 3.2 of Dannemann & Junike (2025): every expected value below is
taken from the paper or derived by hand, never from bnproof."""

import sympy
from sympy import Rational as R, sqrt

from bnproof.claims import lemma45
from bnproof.exact.symbolic import closed_forms
from bnproof.instance import example_3_2

REPORT = lemma45.analyse(example_3_2())
N = REPORT.neurons[0]


def sym(value):
    return value.to_sympy() if hasattr(value, "to_sympy") else R(int(value.p), int(value.q))


def vector(v):
    if hasattr(v, "to_sympy"):
        return list(v.to_sympy())
    return [R(int(e.p), int(e.q)) for e in v.entries()]


def test_standard_optimum_is_1_3_with_loss_12():
    assert vector(N.standard.w) == [1, 3]
    assert vector(N.standard.grad) == [0, 0]
    assert N.standard.is_unique_minimum
    assert sym(N.standard.loss) == 12  # (4-2)² + (7-5)² + (11-13)²


def test_gradient_of_bn_loss_at_w_star_matches_paper():
    grad = list(N.grad_bn_at_w_star.to_sympy())
    assert grad == [-54 * sqrt(74) / 1369, 18 * sqrt(74) / 1369]
    # the paper prints (−0.34, 0.11)
    assert [round(float(g), 2) for g in grad] == [-0.34, 0.11]
    assert [round(float(g), 4) for g in grad] == [-0.3393, 0.1131]


def test_bn_loss_values():
    assert sympy.simplify(N.loss_bn_at_w_star.to_sympy() - (201 - 118 * sqrt(74) / 37)) == 0
    assert sympy.simplify(N.bn.minimum.to_sympy() - (201 - 2 * sqrt(194))) == 0


def test_bn_optimum_ray_is_3w1_eq_5w2():
    b = vector(N.bn.direction)
    assert 3 * b[0] == 5 * b[1] and b[0] > 0
    assert N.bn.kernel is None and not N.bn.constant
    assert N.bn.first_order_ok and N.bn.second_order_ok


def test_closest_bn_optimum_and_lemma_residual():
    # by hand: t = ⟨(1,3),(5,3)⟩/34 = 7/17, Ŵ* = (35/17, 21/17), ‖W0 − Ŵ*‖² = 72/17
    assert vector(N.closest.point) == [R(35, 17), R(21, 17)]
    assert sym(N.lhs) == R(72, 17)
    assert sym(N.rhs) == 0  # W0 = W*
    assert sym(N.residual) == R(-72, 17)
    assert sym(N.inner) == 10
    assert REPORT.verdict == "refuted"


def test_closed_forms_match_paper():
    f = closed_forms(N.neuron)
    w1, w2 = f.w
    assert sympy.expand(f.mu - (R(4, 3) * w1 + 2 * w2)) == 0
    assert sympy.simplify(f.sigma - sqrt(2 * w1**2 + 6 * w1 * w2 + 6 * w2**2) / 3) == 0
    paper_C = (w1 + w2 - 2) ** 2 + (w1 + 2 * w2 - 5) ** 2 + (2 * w1 + 3 * w2 - 13) ** 2
    assert sympy.expand(f.loss - paper_C) == 0
    root = sqrt(2 * w1**2 + 6 * w1 * w2 + 6 * w2**2)
    paper_C_hat = ((-w1 - 3 * w2) / root - 2) ** 2 + (-w1 / root - 5) ** 2 + ((2 * w1 + 3 * w2) / root - 13) ** 2
    point = {w1: R(2, 7), w2: R(-5, 3)}
    assert sympy.simplify((sum(f.bn_loss_terms) - paper_C_hat).subs(point)) == 0
    assert sympy.simplify((f.bn_loss_reduced - paper_C_hat).subs(point)) == 0
