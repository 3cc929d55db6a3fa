"""Red team: implicit sets, equality hypotheses, guards, network blocks and helper
modules.  The distances are compared with an independent exact solution of the
projection (every subset of constraints, any size, solved by Gauss-Jordan on
Fractions), never with the closed form they test."""

import itertools
import random
import sys
from fractions import Fraction as F

import numpy as np
import pytest

from bnproof.claims import Claim, Var
from bnproof.claims import xp as namespaces
from bnproof.claims.api import load_file
from bnproof.claims.blocks import Layer, level_set, mlp, regions
from bnproof.claims.decide import HOLDS, OUTSIDE, REFUTED, decide
from bnproof.claims.sets import squared_distance
from bnproof.program.evaluate import DomainError, Evaluator
from bnproof.program.trace import Program


# --- an independent exact projection ------------------------------------------------

def _affine_projection(A, b, p):
    """The projection of p onto {x : A x = b} (None if that is empty): reduced row
    echelon form, a particular solution and a null-space basis, then least squares."""
    d = len(p)
    M = [[F(x) for x in a] + [F(c)] for a, c in zip(A, b)]
    pivots, r = [], 0
    for col in range(d):
        k = next((i for i in range(r, len(M)) if M[i][col] != 0), None)
        if k is None:
            continue
        M[r], M[k] = M[k], M[r]
        M[r] = [x / M[r][col] for x in M[r]]
        for i in range(len(M)):
            if i != r and M[i][col] != 0:
                M[i] = [x - M[i][col] * y for x, y in zip(M[i], M[r])]
        pivots.append(col)
        r += 1
    if any(row[d] != 0 for row in M[r:]):
        return None
    x0 = [F(0)] * d
    for i, col in enumerate(pivots):
        x0[col] = M[i][d]
    basis = []
    for f in (c for c in range(d) if c not in pivots):
        v = [F(0)] * d
        v[f] = F(1)
        for i, col in enumerate(pivots):
            v[col] = -M[i][f]
        basis.append(v)
    k = len(basis)
    N = [[sum(a * c for a, c in zip(basis[i], basis[j])) for j in range(k)]
         + [sum(a * (q - z) for a, q, z in zip(basis[i], p, x0))] for i in range(k)]
    for col in range(k):  # N is a positive definite Gram matrix: pivots are nonzero
        N[col] = [x / N[col][col] for x in N[col]]
        for i in range(k):
            if i != col and N[i][col] != 0:
                N[i] = [x - N[i][col] * y for x, y in zip(N[i], N[col])]
    t = [N[i][k] for i in range(k)]
    return [x0[j] + sum(t[i] * basis[i][j] for i in range(k)) for j in range(d)]


def brute_squared_distance(pieces, p):
    """min ‖p − x‖² over the polyhedra, by every subset of constraints (dependent ones
    included); None for an empty set."""
    p, best = [F(c) for c in p], None
    for rows in pieces:
        for k in range(len(rows) + 1):
            for S in itertools.combinations(range(len(rows)), k):
                x = _affine_projection([rows[i][0] for i in S], [rows[i][1] for i in S], p)
                if x is None or any(sum(F(a) * z for a, z in zip(aa, x)) > F(c) for aa, c in rows):
                    continue
                d = sum((q - z) ** 2 for q, z in zip(p, x))
                best = d if best is None or d < best else best
    return best


def exact_squared_distance(pieces, p):
    """sets.squared_distance traced with constants and decided by the engine."""
    program = Program()
    xp = namespaces.trace(program)
    q = lambda v: xp.q(F(v).numerator, F(v).denominator)  # noqa: E731
    out = squared_distance(xp, xp.asarray([q(c) for c in p]),
                           [[([q(a) for a in aa], q(c)) for aa, c in rows] for rows in pieces])
    out = np.asarray(out, dtype=object).reshape(()).item()
    try:
        sign = Evaluator(program.steps, lambda *_: 0).sign(out.index)
    except DomainError:
        return None
    assert sign.value is not None and sign.value.exact, sign
    return sign.value.lo


def _random_pieces(rnd):
    d = rnd.randint(1, 3)
    pieces = []
    for _ in range(rnd.randint(1, 2)):
        rows = []
        for _ in range(rnd.randint(0, 4)):
            u = rnd.random()
            if rows and u < 0.15:  # a duplicate row
                rows.append(rows[rnd.randrange(len(rows))])
            elif rows and u < 0.3:  # a parallel row, same or opposite side
                a, c = rows[rnd.randrange(len(rows))]
                s = rnd.choice([-2, -1, F(1, 2), 2])
                rows.append(([s * x for x in a], s * c + rnd.randint(-1, 1)))
            else:
                rows.append(([rnd.randint(-2, 2) for _ in range(d)], rnd.randint(-3, 3)))
        pieces.append(rows)
    return pieces, [F(rnd.randint(-6, 6), rnd.randint(1, 3)) for _ in range(d)]


@pytest.mark.parametrize("seed", range(4))
def test_the_closed_form_distance_is_the_exact_projection_distance(seed):
    rnd = random.Random(seed)
    for _ in range(40):
        pieces, p = _random_pieces(rnd)
        assert exact_squared_distance(pieces, p) == brute_squared_distance(pieces, p), (pieces, p)


DEGENERATE = {
    "inside": ([[([1, 0], 1), ([-1, 0], 0), ([0, 1], 1), ([0, -1], 0)]], [F(1, 2), F(1, 3)], 0),
    "single point": ([[([1, 0], 1), ([-1, 0], -1), ([0, 1], 2), ([0, -1], -2)]], [0, 0], 5),
    "unbounded wedge": ([[([-1, 0], 0), ([0, -1], 0)]], [-3, -4], 25),
    "duplicate and parallel rows": ([[([1, 1], 1), ([1, 1], 1), ([2, 2], 2), ([-1, -1], -1)]], [0, 0],
                                    F(1, 2)),
    "zero row, satisfied": ([[([0, 0], 0), ([1, 0], -1)]], [1, 5], 4),
    "zero row, violated (empty)": ([[([0, 0], -1), ([1, 0], 5)]], [1, 5], None),
    "empty by parallel rows": ([[([1, 0, 0], 0), ([-1, 0, 0], -1)]], [0, 0, 0], None),
    "one dimension, a point": ([[([2], 1), ([-2], -1)]], [3], F(25, 4)),
    "empty union member": ([[([1], 0), ([-1], -1)], [([1], 7)]], [9], 4),
    "no rows: all of space": ([[]], [3, -1, 2], 0),
}


@pytest.mark.parametrize("name", DEGENERATE)
def test_degenerate_polyhedra(name):
    pieces, p, expected = DEGENERATE[name]
    assert brute_squared_distance(pieces, p) == expected
    assert exact_squared_distance(pieces, p) == expected


# --- network blocks -----------------------------------------------------------------

def _layers(xp, var=None):
    return [Layer(xp.asarray([[xp.q(1), xp.q(2)], [xp.q(-1), xp.q(1)]]), b=xp.asarray([xp.q(1), xp.q(0)]),
                  gamma=xp.asarray([xp.q(2), xp.q(1)]), beta=xp.asarray([xp.q(0), xp.q(-1)]),
                  mu=xp.asarray([xp.q(1), xp.q(1)]),
                  var=xp.asarray([xp.q(4), xp.q(1)]) if var is None else xp.asarray([var, xp.q(1)])),
            xp.asarray([[xp.q(1), xp.q(-3)]])]


def _on_own_level_set(activation, slope):
    """True: every x lies on {f = f(x)}, so its distance to that level set is exactly 0."""
    def residual(xp, x):
        s = None if slope is None else xp.q(*slope)
        level = mlp(xp, x.reshape(1, 2), _layers(xp), activation, slope=s)[0, 0]
        return squared_distance(xp, x, level_set(xp, _layers(xp), level, activation, slope=s))

    return Claim(id="rt/level", source="t", statement="t", variables=(Var("x", (2,)),), kind="identity",
                 residual=residual)


SLOPES = [("relu", None), ("abs", None), ("leaky_relu", None), ("leaky_relu", (1, 2)),
          ("leaky_relu", (-1, 2)), ("leaky_relu", (-3, 1)), ("leaky_relu", (2, 1)),
          ("leaky_relu", (5, 2)), ("leaky_relu", (1, 1))]


@pytest.mark.parametrize("activation, slope", SLOPES)
def test_a_point_lies_on_its_own_level_set(activation, slope):
    # leaky_relu(z, α) = max(z, αz) is αz for z > 0 when α > 1: regions once took z there,
    # and this true identity was refuted with an accepted certificate
    claim = _on_own_level_set(activation, slope)
    for x in ([1, -1], [2, 1], [-1, -3], [F(1, 2), F(-7, 3)], [0, 0]):
        assert decide(claim, {"x": x}).verdict == HOLDS, x


@pytest.mark.parametrize("activation, slope", SLOPES)
def test_regions_agree_with_mlp(activation, slope):
    xp = namespaces.floating()
    s = None if slope is None else slope[0] / slope[1]
    layers = _layers(namespaces.floating())
    rnd = np.random.default_rng(0)
    for x in rnd.uniform(-4, 4, size=(20, 2)):
        want = mlp(xp, x.reshape(1, 2), layers, activation, slope=s)[0, 0]
        inside = [np.dot(M[0], x) + t[0] for rows, M, t in regions(xp, layers, activation, slope=s)
                  if all(np.dot(a, x) <= c + 1e-9 for a, c in rows)]
        assert inside and all(v == pytest.approx(want) for v in inside), (x, want, inside)


def test_regions_of_a_layer_without_batch_norm_need_no_statistics():
    xp = namespaces.floating()
    layers = [Layer(np.eye(2), b=np.array([1.0, -1.0])), np.array([[1.0, 1.0]])]
    x = np.array([0.5, 3.0])
    got = [np.dot(M[0], x) + t[0] for rows, M, t in regions(xp, layers)
           if all(np.dot(a, x) <= c for a, c in rows)]
    assert got == [pytest.approx(mlp(xp, x.reshape(1, 2), layers)[0, 0])]


def test_test_mode_bn_with_zero_variance_is_undefined_never_a_value():
    def claim(residual):
        return Claim(id="rt/v0", source="t", statement="t", variables=(Var("x", (2,)), Var("v", ())),
                     residual=residual)

    through_mlp = claim(lambda xp, x, v: -xp.q(1) + 0 * mlp(xp, x.reshape(1, 2), _layers(xp, v))[0, 0])
    through_set = claim(lambda xp, x, v: -xp.q(1) + 0 * squared_distance(
        xp, x, level_set(xp, _layers(xp, v), xp.q(0))))
    for c in (through_mlp, through_set):
        for x in ([1, 0], [-1, 1], [0, 0]):  # (U − μ) = 0 at [0, 0]: 0/0 is still no value
            assert decide(c, {"x": x, "v": 0}).verdict == OUTSIDE
            assert decide(c, {"x": x, "v": -1}).verdict == OUTSIDE
        assert decide(c, {"x": [1, 0], "v": 4}).verdict == REFUTED  # the residual is defined there


# --- equality hypotheses: exactly 0, never by rounding -------------------------------

def _with_equality(equality):
    return Claim(id="rt/eq", source="t", statement="t", variables=(Var("x", ()),),
                 equalities=(lambda xp, x: equality(xp) + 0 * x,), residual=lambda xp, x: -xp.q(1) + 0 * x)


def test_an_equality_off_by_1e_40_puts_the_instance_outside():
    d = decide(_with_equality(lambda xp: xp.sqrt(xp.q(8)) - 2 * xp.sqrt(xp.q(2)) + xp.q(1, 10**40)),
               {"x": 0})
    assert d.verdict == OUTSIDE and "equality" in d.detail
    d = decide(_with_equality(lambda xp: xp.q(1, 10**40)), {"x": 0})
    assert d.verdict == OUTSIDE


@pytest.mark.parametrize("zero", [lambda xp: xp.sqrt(xp.q(2)) * xp.sqrt(xp.q(2)) - 2,
                                  lambda xp: xp.sqrt(xp.q(8)) - 2 * xp.sqrt(xp.q(2)),
                                  lambda xp: (xp.sqrt(xp.q(3)) + 1) ** 2 - 4 - 2 * xp.sqrt(xp.q(3))])
def test_an_irrational_exact_zero_meets_its_equality(zero):
    assert decide(_with_equality(zero), {"x": 0}).verdict == REFUTED


# --- helper modules -----------------------------------------------------------------

CLAIM_FILE = '''
from bnproof.claims import Claim, Var
from rt_helper_tag import TAG
C = Claim(id="rt/{name}", source=TAG, statement="t", variables=(Var("x", ()),),
          residual=lambda xp, x: x * x)
'''


def test_a_helper_that_puts_its_folder_on_sys_path_does_not_serve_the_next_claim_file(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    # a common idiom in helpers: the folder stays importable after the load
    (a / "rt_helper_tag.py").write_text("import os, sys\nsys.path.insert(0, os.path.dirname("
                                        "os.path.abspath(__file__)))\nTAG = 'a'\n")
    (a / "claim.py").write_text(CLAIM_FILE.format(name="a"))
    (b / "claim.py").write_text(CLAIM_FILE.format(name="b"))  # b has no rt_helper_tag.py
    path = list(sys.path)
    assert load_file(a / "claim.py")[0].source == "a"
    assert sys.path == path
    from bnproof.errors import BadInput

    with pytest.raises(BadInput, match="rt_helper_tag"):
        load_file(b / "claim.py")


def test_a_relative_import_in_a_claim_file_is_a_one_line_error(tmp_path):
    (tmp_path / "claim.py").write_text("from . import mylib\n")
    (tmp_path / "mylib.py").write_text("X = 1\n")
    from bnproof.errors import BadInput

    with pytest.raises(BadInput, match="claim.py") as err:
        load_file(tmp_path / "claim.py")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("pieces, point, exact", [
    ([[([2, -1, -2], -2), ([-2, 2, 1], -1), ([-2, 2, 1], -1)]], (-2, F(1, 3), 2), F(1018, 153)),
    ([[([-2, 2], -1), ([-2, 2], -1), ([0, 1], 2)]], (F(-4, 3), 2), F(529, 72)),
])
def test_a_boundary_condition_rounded_below_zero_does_not_hide_the_set_from_the_float_screen(
        pieces, point, exact):
    # duplicate rows make a guard condition exactly 0 that floats round below 0; the float
    # distance must still be the exact one (within rounding), not +inf or a farther candidate
    floats = squared_distance(namespaces.floating(), np.array([float(x) for x in point]), pieces)
    assert floats == pytest.approx(float(exact), rel=1e-9)
    assert squared_distance(namespaces.floating(), np.array([float(x) for x in point]), pieces) < np.inf
