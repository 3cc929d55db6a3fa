"""The C-backed LDLᵀ pivots (bnproof/exact/pivots.py) against a plain scalar
elimination written here, on rational and Q(√r) matrices: definite,
indefinite, negative definite, singular, zero pivots where flint must
exchange rows, the zero matrix, a perfect-square radicand, and the BN
Hessians the engine actually builds."""

import random

import flint
import pytest
from hypothesis import given, settings, strategies as st

from bnproof.exact.linalg import is_positive_definite, ldl_pivots, rows_of
from bnproof.exact.pivots import rational_pivots
from bnproof.exact.surd import Surd

fmpq, fmpq_mat = flint.fmpq, flint.fmpq_mat


def reference(rows):
    """Elimination without exchanges, one scalar at a time (the engine's old loop)."""
    a = [list(r) for r in rows]
    n, pivots = len(a), []
    for k in range(n):
        p = a[k][k]
        pivots.append(p)
        sign = p.sign() if isinstance(p, Surd) else (p > 0) - (p < 0)
        if sign <= 0:
            break
        inv = p.inverse() if isinstance(p, Surd) else 1 / p
        for i in range(k + 1, n):
            factor = a[i][k] * inv
            for j in range(k + 1, n):
                a[i][j] = a[i][j] - factor * a[k][j]
    return pivots


def q(rows):
    return fmpq_mat([[fmpq(x) for x in r] for r in rows])


def surd_matrix(a_rows, b_rows, r):
    return Surd(q(a_rows), q(b_rows), r)


def same(xs, ys):
    return len(xs) == len(ys) and all(x == y for x, y in zip(xs, ys))


def symmetric(rng, n, span=4, rank=None):
    rank = n if rank is None else rank
    v = [[rng.randint(-span, span) for _ in range(rank)] for _ in range(n)]
    return [[sum(v[i][t] * v[j][t] for t in range(rank)) for j in range(n)] for i in range(n)]


def test_known_values():
    # [[2, 1], [1, 2]]: pivots 2 and 2 − 1/2 = 3/2, derived by hand
    assert ldl_pivots(q([[2, 1], [1, 2]])) == [fmpq(2), fmpq(3, 2)]
    # D1 = 1, D2 = 1·1 − 1·1 = 0: flint exchanges rows at step 2, the pivot is exactly 0
    assert ldl_pivots(q([[1, 1, 0], [1, 1, 1], [0, 1, 1]])) == [fmpq(1), fmpq(0)]
    # a zero first entry, nonzero elsewhere: the first pivot is 0 and the elimination stops
    assert ldl_pivots(q([[0, 1], [1, 5]])) == [fmpq(0)]
    assert ldl_pivots(q([[-3, 1], [1, -2]])) == [fmpq(-3)]  # negative definite: stop at once
    assert ldl_pivots(q([[0, 0], [0, 0]])) == [fmpq(0)]
    assert ldl_pivots(fmpq_mat(0, 0)) == [] and ldl_pivots([]) == []


def test_rows_of_scalars_and_fractions_agree_with_matrices():
    from fractions import Fraction

    rows = [[Fraction(1, 3), 2], [2, Fraction(25, 2)]]
    expected = reference([[fmpq(x.numerator, x.denominator) if isinstance(x, Fraction) else fmpq(x)
                           for x in r] for r in rows])
    assert ldl_pivots(rows) == expected == [fmpq(1, 3), fmpq(25, 2) - 12]


@pytest.mark.parametrize("seed", range(40))
def test_rational_agrees_with_scalar_elimination(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 9)
    kind = seed % 5
    if kind == 0:  # positive definite
        rows = symmetric(rng, n)
        rows = [[x + (5 if i == j else 0) for j, x in enumerate(r)] for i, r in enumerate(rows)]
    elif kind == 1:  # singular: rank below n
        rows = symmetric(rng, n, rank=max(1, n - 2))
    elif kind == 2:  # indefinite
        rows = [[rng.randint(-6, 6) for _ in range(n)] for _ in range(n)]
        rows = [[rows[i][j] + rows[j][i] for j in range(n)] for i in range(n)]
    elif kind == 3:  # negative definite, rational entries
        rows = [[-fmpq(x, 7) for x in r] for r in symmetric(rng, n)]
        rows = [[x - (1 if i == j else 0) for j, x in enumerate(r)] for i, r in enumerate(rows)]
    else:  # not symmetric: LU pivots without exchanges, D_k / D_(k-1) still
        rows = [[fmpq(rng.randint(-5, 5), rng.randint(1, 4)) for _ in range(n)] for _ in range(n)]
    m = q(rows)
    got = ldl_pivots(m)
    assert same(got, reference(rows_of(m)))
    if is_positive_definite(got) and len(got) == n:
        # the product of all pivots is the determinant (independent of the elimination)
        prod = fmpq(1)
        for p in got:
            prod *= p
        assert prod == m.det()


def test_zero_pivot_after_positive_ones_where_flint_exchanges_rows():
    # leading 3×3 block singular (rank 2), the matrix itself nonsingular
    rows = [[1, 2, 3, 0], [2, 5, 7, 1], [3, 7, 10, 0], [0, 1, 0, 4]]
    got = ldl_pivots(q(rows))
    assert same(got, reference(rows_of(q(rows))))
    assert got[-1] == 0 and len(got) == 3 and not is_positive_definite(got)


def test_large_entries_and_width():
    rng = random.Random(7)
    n = 16  # wider than any other matrix here; the reference's scalar loop costs 6 s at n = 24, 0.5 s here
    rows = [[fmpq(rng.randint(-10**30, 10**30), rng.randint(1, 10**20)) for _ in range(n)]
            for _ in range(n)]
    sym = q(rows) * q(rows).transpose()
    got = ldl_pivots(sym)
    assert len(got) == n and is_positive_definite(got)
    assert same(got, reference(rows_of(sym)))


@pytest.mark.parametrize("seed", range(24))
def test_quadratic_field_agrees_with_scalar_elimination(seed):
    rng = random.Random(1000 + seed)
    n = rng.randint(1, 6)
    r = rng.choice([2, 3, fmpq(5, 7), 10])
    a, b = symmetric(rng, n), symmetric(rng, n, rank=max(1, n - 1))
    kind = seed % 4
    if kind == 1:  # b·√r only (the BN Hessian's shape)
        a = [[0] * n for _ in range(n)]
    elif kind == 2:  # a only
        b = [[0] * n for _ in range(n)]
    elif kind == 3:  # negated: negative definite or indefinite
        a = [[-x for x in row] for row in a]
    matrix = surd_matrix(a, b, r)
    got = ldl_pivots(matrix)
    assert same(got, reference(rows_of(matrix)))
    assert same(ldl_pivots(rows_of(matrix)), got)  # rows of Surds, the old interface
    assert all(isinstance(p, Surd) for p in got)


def test_quadratic_field_zero_pivot_and_cancelling_parts():
    # 1 − √2·(1/√2)... here a pivot a + b√2 that is exactly 0 needs a = b = 0;
    # 3 − 2√2 > 0 is small but positive: signs are decided exactly
    m = surd_matrix([[3, 1], [1, 3]], [[-2, 0], [0, -2]], 2)
    got = ldl_pivots(m)
    assert same(got, reference(rows_of(m)))
    assert got[0] == Surd(fmpq(3), fmpq(-2), 2) and got[0].sign() > 0
    # 1·1 − 1·1 = 0 in the leading 2×2 block, in Q(√3)
    s = surd_matrix([[1, 1, 0], [1, 1, 0], [0, 0, 1]], [[1, 1, 0], [1, 1, 0], [0, 0, 0]], 3)
    got = ldl_pivots(s)
    assert same(got, reference(rows_of(s))) and got[-1].is_zero() and len(got) == 2


def test_perfect_square_radicand_folds_into_the_rational_part():
    # r = 9/4: b·√r is rational; pivots are those of a + (3/2)·b
    a, b = [[2, 1], [1, 2]], [[2, 0], [0, 2]]
    m = surd_matrix(a, b, fmpq(9, 4))
    got = ldl_pivots(m)
    assert same(got, reference(rows_of(m)))
    assert got == [Surd.rational(fmpq(5), 1), Surd.rational(fmpq(5) - fmpq(1, 5), 1)]


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**32), st.sampled_from([2, 3, 6, 4]))
def test_property_field_pivots(n, seed, r):
    rng = random.Random(seed)
    a = [[rng.randint(-3, 3) for _ in range(n)] for _ in range(n)]
    b = [[rng.randint(-3, 3) for _ in range(n)] for _ in range(n)]
    a = [[a[i][j] + a[j][i] for j in range(n)] for i in range(n)]
    b = [[b[i][j] + b[j][i] for j in range(n)] for i in range(n)]
    a = [[x + (rng.randint(0, 20) if i == j else 0) for j, x in enumerate(row)]
         for i, row in enumerate(a)]
    m = surd_matrix(a, b, r)
    assert same(ldl_pivots(m), reference(rows_of(m)))


def test_rational_pivots_are_fmpq():
    assert all(isinstance(p, fmpq) for p in rational_pivots(q([[4, 2], [2, 3]])))


# -- the engine's pivots and its contracted derivatives ---------------------------------

from fractions import Fraction  # noqa: E402

from bnproof.exact import bn as bn_forms  # noqa: E402
from bnproof.exact.layer import Neuron  # noqa: E402
from bnproof.exact.optima import bn_optima  # noqa: E402
from bnproof.exact.pivots import Pivots, certified_signs  # noqa: E402
from bnproof.instance import instance_from_json  # noqa: E402


def _instance(seed, m, d, loss="sum"):
    rng = random.Random(seed)
    return instance_from_json({
        "X": [[rng.randint(-4, 4) if rng.random() < 0.8 else f"{rng.randint(-9, 9)}/{rng.randint(1, 5)}"
               for _ in range(d)] for _ in range(m)],
        "y": [rng.randint(-5, 5) for _ in range(m)],
        "W0": [rng.randint(1, 3) for _ in range(d)],
        "gamma": rng.choice([1, -2, "3/2"]), "beta": rng.choice([0, 1, "-1/3"]), "loss": loss})


@pytest.mark.parametrize("seed", range(12))
def test_contracted_derivatives_equal_the_m_dimensional_forms(seed):
    """layer.Neuron's O(d²) loss, gradient and Hessian against bn.py's forms on ŷ itself."""
    inst = _instance(seed, m=6 + seed, d=1 + seed % 4, loss="mean" if seed % 3 == 0 else "sum")
    neuron = Neuron.of(inst, 0)
    rng = random.Random(seed)
    w = fmpq_mat([[fmpq(rng.randint(-5, 5), rng.randint(1, 3))] for _ in range(neuron.d)])
    try:
        norm = bn_forms.normalize(neuron.X * w)
    except Exception:
        pytest.skip("σ(w) = 0 on this draw")
    g = neuron.bn_residual(norm) * (2 * neuron.scale)
    dz = bn_forms.backprop(g, norm, neuron.gamma)
    r = neuron.bn_residual(norm)
    assert neuron.bn_loss(w) == (r.T * r).scalar() * neuron.scale
    assert neuron.bn_grad(w) == Surd(neuron.X.transpose() * dz.a, neuron.X.transpose() * dz.b, dz.r)
    expected = bn_forms.pullback_hessian(neuron.X, neuron.Xc, g, 2 * neuron.scale, norm, neuron.gamma)
    assert neuron.bn_hessian(w) == expected
    assert neuron.gram_c == neuron.Xc.transpose() * neuron.Xc
    assert neuron.loss(w) == fmpq(sum(((neuron.X * w - neuron.y).transpose()
                                       * (neuron.X * w - neuron.y)).entries(), fmpq(0))) * neuron.scale


def test_exact_matrix_reads_fractions_over_a_common_denominator():
    from bnproof.exact.layer import exact_matrix

    rows = [[Fraction(1, 6), 2], [Fraction(-3, 4), Fraction(5)]]
    assert exact_matrix(rows) == fmpq_mat([[fmpq(1, 6), 2], [fmpq(-3, 4), 5]])
    assert exact_matrix([[1, -2, 3]]) == fmpq_mat([[1, -2, 3]])


@pytest.mark.parametrize("seed", range(6))
def test_bn_second_order_pivots_match_the_scalar_reference(seed):
    inst = _instance(100 + seed, m=12, d=5)
    opt = bn_optima(Neuron.of(inst, 0))
    if opt.constant or opt.complement is None:
        pytest.skip("no Hessian across the ray on this draw")
    qt = opt.complement.transpose()
    restricted = Surd(qt * opt.hessian.a * opt.complement, qt * opt.hessian.b * opt.complement,
                      opt.hessian.r)
    assert isinstance(opt.pivots, Pivots)
    assert same(list(opt.pivots), reference(rows_of(restricted)))
    assert opt.second_order_ok == all(p.sign() > 0 for p in reference(rows_of(restricted)))


def test_signs_come_before_values_and_are_checked_against_them():
    big = 10**100  # numerators past _FFLU_BITS: signs from balls, values when read
    m = q([[2 * big, big], [big, 2 * big]])
    lazy = ldl_pivots(m)
    assert len(lazy) == 2 and lazy.signs == [1, 1] and lazy._values is None
    assert is_positive_definite(lazy) and lazy._values is None  # decided without the values
    assert list(lazy) == [fmpq(2 * big), fmpq(3 * big, 2)]
    # a forged sign list (a wrong ball) is caught when the exact values arrive
    forged = Pivots([1, -1], lambda: [fmpq(2), fmpq(3, 2)])
    with pytest.raises(ArithmeticError):
        list(forged)


def test_short_matrices_get_exact_pivots_at_once():
    # fflu's exact minors are cheaper than balls for short numerators: no ball is needed
    got = ldl_pivots(q([[2, 1], [1, 2]]))
    assert got._values == [fmpq(2), fmpq(3, 2)] and got.signs == [1, 1]
    got = ldl_pivots(q([[1, 2], [2, 1]]))  # indefinite: stops at the first pivot ≤ 0
    assert got._values == [fmpq(1), fmpq(-3)] and got.signs == [1, -1]


def test_an_exactly_zero_pivot_is_decided_exactly():
    # no ball excludes 0 for an exactly zero pivot: the exact fallback decides
    singular = q([[1, 1, 0], [1, 1, 1], [0, 1, 1]])
    assert certified_signs(singular) is None
    got = ldl_pivots(singular)
    assert got.signs == [1, 0] and not is_positive_definite(got)
    # a tiny positive pivot next to huge entries still gets a certified sign or an exact one
    big = 10**60
    near = q([[big, big - 1], [big - 1, big]])  # second pivot (2·10⁶⁰ − 1)/10⁶⁰ > 0
    got = ldl_pivots(near)
    assert got.signs == [1, 1] and list(got) == reference(rows_of(near))


# -- the factored Hessian (exact/hessian.py) -----------------------------------------


def _random_surd_vector(rng, d, r, both=True):
    a = fmpq_mat([[fmpq(rng.randint(-9, 9), rng.randint(1, 7))] for _ in range(d)])
    b = fmpq_mat([[fmpq(rng.randint(-9, 9), rng.randint(1, 7))] for _ in range(d)])
    return Surd(a, b if both else fmpq_mat(d, 1), r)


@pytest.mark.parametrize("seed", range(10))
def test_factored_hessian_restricts_and_applies_exactly(seed):
    """QᵀHQ and H·V from the factored form equal the products with the full
    bn.contracted_hessian, on inputs with both Q(√r) parts nonzero (the engine
    only meets one at a time) and bases with one or more pivot rows."""
    from bnproof.exact.bn import contracted_hessian
    from bnproof.exact.hessian import HessianForm
    from bnproof.exact.linalg import echelon

    rng = random.Random(seed)
    d, r = rng.randint(2, 6), fmpq(rng.choice([2, 3, 5, 7]), rng.choice([1, 3]))
    half = fmpq_mat([[fmpq(rng.randint(-5, 5), rng.randint(1, 4)) for _ in range(d)] for _ in range(d)])
    gram_c = half.transpose() * half
    xy, xg = _random_surd_vector(rng, d, r), _random_surd_vector(rng, d, r, both=seed % 2 == 0)
    gy = Surd(fmpq(rng.randint(-9, 9), 5), fmpq(rng.randint(-9, 9), 7), r)
    args = (gram_c, xy, xg, gy, fmpq(rng.randint(1, 4), 3), fmpq(rng.randint(1, 9), 2),
            fmpq(rng.choice([1, -2, 3]), rng.choice([1, 2])), rng.randint(2, 9))
    form, full = HessianForm(*args), contracted_hessian(*args)
    assert form.matrix() == full
    rows = rng.randint(1, d - 1)  # the complement of `rows` directions, as the engine builds it
    across = echelon(fmpq_mat([[fmpq(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(d)]
                               for _ in range(rows)]))
    q = across.basis()
    if q is None:
        pytest.skip("the random rows span everything")
    (na, da), (nb, db) = form.restricted(across)
    assert da > 0 and db > 0
    assert fmpq_mat(na) / da == q.transpose() * full.a * q
    assert fmpq_mat(nb) / db == q.transpose() * full.b * q
    v = fmpq_mat([[fmpq(rng.randint(-5, 5), rng.randint(1, 3)) for _ in range(2)] for _ in range(d)])
    applied = form.apply(v)
    assert applied.a == full.a * v and applied.b == full.b * v
    expected = ldl_pivots(Surd(q.transpose() * full.a * q, q.transpose() * full.b * q, full.r))
    assert list(form.restricted_pivots(across)) == list(expected)


def test_engine_hessian_form_matches_the_full_hessian_at_its_optimum():
    # with a kernel of Xc (a constant column) the basis has two pivot rows
    inst = _instance(7, m=9, d=4)
    data = {"X": [list(r[:3]) + [2] for r in inst.X], "y": [r[0] for r in inst.Y], "W0": [1, 1, 1, 1]}
    from bnproof.instance import instance_from_json

    opt = bn_optima(Neuron.of(instance_from_json(data), 0))
    assert opt.kernel is not None and opt.kernel.ncols() == 1
    qt = opt.complement.transpose()
    restricted = Surd(qt * opt.hessian.a * opt.complement, qt * opt.hessian.b * opt.complement,
                      opt.hessian.r)
    assert same(list(opt.pivots), reference(rows_of(restricted)))
    assert opt.flat_directions_ok and opt.hessian_form.apply(opt.kernel).is_zero()
