"""Nested xp.grad in the reference reading (bnproof/reading/grad.py): random programs of
nesting depth 1-3, whose inner functions read the outer gradients' variables (where
forward mode without a tag per call confuses perturbations), against SymPy's diff
(exactly) and jax.grad (float64); and the class-1 claim of issue 22."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
import sympy

from bnproof import reading
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats
from bnproof.reading.namespace import reference
from bnproof.reading.session import Session, scope
from bnproof.reading.values import Value, constant


# ---------------------------------------------------------------- random programs

def random_program(rng: random.Random, sizes: list, algebraic: bool, depth: int = 4):
    """An expression tree over the entries of len(sizes) vector variables: ("var", j, i),
    ("const", q), (op, child...).  Only operations defined everywhere (division by
    1 + u², √(1 + u²)), so every instance is in the domain."""

    def leaf():
        if rng.random() < 0.8:
            j = rng.randrange(len(sizes))
            return ("var", j, rng.randrange(sizes[j]))
        return ("const", Fraction(rng.randint(-3, 3), rng.randint(1, 3)))

    def node(d):
        if d == 0:
            return leaf()
        ops = ["add", "sub", "mul", "mul", "div", "pow"] + (["sqrt"] if algebraic else ["sqrt", "tanh", "exp"])
        op = rng.choice(ops)
        if op in ("add", "sub", "mul", "div"):
            return (op, node(d - 1), node(d - 1))
        if op == "pow":
            return (op, node(d - 1), rng.choice([2, 3]))
        return (op, node(d - 1))

    # every variable appears: the mixed partial along each of them is not trivially 0
    tree = node(depth)
    for j in range(len(sizes)):
        for i in range(sizes[j]):
            tree = ("add", tree, ("mul", ("var", j, i), node(1)))
    return tree


def run_tree(tree, xp, values, one, sqrt, exp, tanh):
    op = tree[0]
    if op == "var":
        return values[tree[1]][tree[2]]
    if op == "const":
        return one(tree[1])
    a = run_tree(tree[1], xp, values, one, sqrt, exp, tanh)
    if op == "pow":
        return a ** tree[2]
    if op == "sqrt":
        return sqrt(1 + a * a)
    if op == "exp":
        return exp(a * one(Fraction(1, 4)))
    if op == "tanh":
        return tanh(a)
    b = run_tree(tree[2], xp, values, one, sqrt, exp, tanh)
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    return a / (1 + b * b)


def nested(xp, tree, plan, points, level, values, funcs):
    """∂/∂v_1[i_1] … ∂/∂v_L[i_L] of the program, each derivative an xp.grad whose function
    reads the enclosing gradients' variables; with plan[level] "same", the inner
    gradient is taken at the enclosing one's own (seeded) variable."""
    if level == len(plan):
        return run_tree(tree, xp, values, *funcs)
    where, index = plan[level]
    at = values[-1] if where == "same" else points[level]
    g = xp.grad(lambda v: nested(xp, tree, plan, points, level + 1, values + [v], funcs), at)
    return g[index]


def nested_sympy(tree, plan, points, level, values):
    if level == len(plan):
        return run_tree(tree, None, values, lambda q: sympy.Rational(q.numerator, q.denominator),
                        sympy.sqrt, sympy.exp, sympy.tanh)
    where, index = plan[level]
    n = len(points[level])
    w = sympy.symbols(f"w{level}_0:{n}")
    inner = nested_sympy(tree, plan, points, level + 1, values + [list(w)])
    d = sympy.diff(inner, w[index])
    at = values[-1] if where == "same" else [sympy.Rational(q.numerator, q.denominator) for q in points[level]]
    return d.subs(dict(zip(w, at)), simultaneous=True)


def random_case(seed: int, algebraic: bool):
    rng = random.Random(seed)
    depth = rng.randint(1, 3)
    plan, sizes = [], []
    for level in range(depth):
        same = level > 0 and rng.random() < 0.3
        n = sizes[-1] if same else rng.randint(1, 2)
        sizes.append(n)
        plan.append(("same" if same else "fresh", rng.randrange(n)))
    points = [[Fraction(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(n)] for n in sizes]
    for level, (where, _) in enumerate(plan):
        if where == "same":
            points[level] = points[level - 1]
    tree = random_program(rng, sizes, algebraic, depth=rng.randint(2, 4))
    return tree, plan, points


def read_nested(tree, plan, points) -> Value:
    xp = reference()
    with scope(Session()):
        pts = [np.array([constant(q) for q in p], dtype=object) for p in points]
        out = nested(xp, tree, plan, pts, 0, [], (constant, xp.sqrt, xp.exp, xp.tanh))
        out = out.reshape(()).item() if isinstance(out, np.ndarray) else out
        assert out.is_defined, out.why
        return out


@pytest.mark.parametrize("seed", range(40))
def test_nested_gradients_equal_sympy_exactly(seed):
    tree, plan, points = random_case(seed, algebraic=True)
    mine = read_nested(tree, plan, points)
    truth = nested_sympy(tree, plan, points, 0, [])
    difference = mine.expr._sympy_() - truth
    t = sympy.Dummy("t")
    assert sympy.minimal_polynomial(difference, t) == t, (plan, mine, truth)


@pytest.mark.parametrize("seed", range(40, 70))
def test_nested_gradients_close_to_jax(seed):
    jax = pytest.importorskip("jax")
    from bnproof.claims.xp import numeric

    tree, plan, points = random_case(seed, algebraic=False)
    mine = read_nested(tree, plan, points)
    xp = numeric()
    import jax.numpy as jnp

    pts = [jnp.asarray([float(q) for q in p], dtype=jnp.float64) for p in points]
    value = float(nested(xp, tree, plan, pts, 0, [], (float, jnp.sqrt, jnp.exp, jnp.tanh)))
    from bnproof.reading import signs

    exact = float(signs.ball(mine.expr, 128).mid())  # only to print and compare in this test
    assert value == pytest.approx(exact, rel=1e-9, abs=1e-9), (plan, mine)
    del jax


def test_perturbation_confusion_is_not_possible():
    """d/dx [x · d/dy (x·y)] at any point: the inner derivative is x, so the whole is 2x.
    Forward mode without tags reads the outer perturbation inside and gives 1 + 2x... here
    the reference must give exactly 2x."""
    xp = reference()
    with scope(Session()):
        x0 = np.array([constant(Fraction(3, 2))], dtype=object)

        def outer(x):
            inner = xp.grad(lambda y: xp.sum(x * y), np.array([constant(5)], dtype=object))
            return xp.sum(x * inner)

        g = xp.grad(outer, x0)
        assert g[0].fraction() == 3


# ---------------------------------------------------------------- issue 22, class 1


def _inner(xp, y, g, gam):
    return xp.grad(lambda a: xp.sum(g * batch_norm(xp, a, gam, 0)), y)[0]


def _class_1_residual(xp, y, g, gamma):
    lhs = gamma * xp.grad(lambda G: _inner(xp, y, g, G), gamma)
    return lhs - _inner(xp, y, g, gamma)


CLASS_1 = Claim(id="adv/nested-grad", source="issue 22, class 1", statement="x", kind="identity",
                variables=(Var("y", ("m",)), Var("g", ("m",)), Var("gamma", ())),
                sizes={"m": (2, 3)}, hypotheses=(lambda xp, y, g, gamma: stats(xp, y)[1] ** 2,),
                residual=_class_1_residual)


def test_class_1_true_claim_reads_as_holds():
    """γ·∂/∂γ(∂f/∂y₁) = ∂f/∂y₁ (the gradient of Fact C.1 is linear in γ): exactly 0 where the
    engine without tagged perturbations read 3√2/4."""
    r = reading.read(CLASS_1, {"y": [0, 1, 0], "g": [0, 0, 1], "gamma": 1})
    assert r.verdict == "holds" and r.sign == 0 and r.value.fraction() == 0, r


@pytest.mark.parametrize("m", [2, 3, 5])
def test_class_1_holds_at_generic_instances(m):
    for instance in reading.generic_instances(CLASS_1, {"m": m}, 3, seed=m):
        r = reading.read(CLASS_1, instance)
        assert r.verdict == "holds" and r.value.fraction() == 0, (instance, r)
