"""The reference reading's ``xp``: every name the other backends give a claim
(claims/xp.py), over numpy object arrays of values.py's exact values, with
numpy's own broadcasting, reductions and products.

The arrays it gives a claim are ExactArrays (arrays.py: their ``dtype`` and numpy's
inexact ufuncs are refused); an elementwise function of scalars gives a scalar, as
numpy's ufuncs do.  ``ones``, ``zeros``, ``eye`` and ``outer`` of more than
MAX_ENTRIES entries are refused (inconclusive: a cap) before anything is allocated."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import symengine as se

from . import expect as expectations
from .arrays import exact_array
from .errors import Inconclusive, Refused
from .grad import gradient
from .linalg import solve
from .session import current
from .values import FLOAT_MIX, Value, _unary, branch, constant, guard, lift, symbolic_constant


def _value(x) -> Value:
    v = lift(x)
    if v is None:
        raise TypeError(f"expected a number, got {type(x).__name__}")
    return v


MAX_ENTRIES = 1_000_000  # entries of one array xp.ones/zeros/eye/outer makes


def _elementwise(f, arity: int = 1):
    vectorized = np.vectorize(f, otypes=[object])

    def apply(*args):
        out = vectorized(*args[:arity])
        return out[()] if isinstance(out, np.ndarray) and out.ndim == 0 else exact_array(out)

    return apply


def _entries(what: str, n, square: bool = False) -> int:
    """n for xp.ones/zeros (n² for xp.eye), a size numpy takes, within MAX_ENTRIES; refused
    before anything is allocated."""
    if type(n) is not Value and isinstance(n, (float, complex, np.floating, np.complexfloating)):
        current().stop(Refused(f"{FLOAT_MIX} ({type(n).__name__} {n!r} given to xp.{what})"))
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"xp.{what}: expected an integer size, got {type(n).__name__}")
    n = int(n)
    if n < 0:
        raise ValueError(f"xp.{what}: negative dimensions are not allowed")
    count = n * n if square else n
    if count > MAX_ENTRIES:
        current().stop(Inconclusive(f"xp.{what} of {count} entries, over the reference's cap of "
                                    f"{MAX_ENTRIES}"))
    return n


def _exact(x):
    """An exact number the claim passes to a namespace function (a size, xp.q's parts)."""
    if type(x) is not Value and isinstance(x, (float, complex, np.floating, np.complexfloating)):
        current().stop(Refused(f"{FLOAT_MIX} ({type(x).__name__} {x!r} given to the namespace)"))
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer, Fraction)):
        raise TypeError(f"expected an exact number (int or Fraction), got {type(x).__name__}")
    return Fraction(int(x)) if isinstance(x, np.integer) else Fraction(x)


def reference() -> SimpleNamespace:
    """The namespace the reference reading runs a claim's functions in (kind "reference")."""

    def asarray(x):
        return exact_array(np.asarray(x, dtype=object))

    def ones(n, value=1):
        n = _entries("ones" if value else "zeros", n)
        return exact_array(np.array([constant(value) for _ in range(n)], dtype=object))

    def eye(n):
        n = _entries("eye", n, square=True)
        return exact_array(np.array([[constant(int(i == j)) for j in range(n)] for i in range(n)],
                                    dtype=object).reshape(n, n))

    def outer(a, b):
        a, b = asarray(a), asarray(b)
        if a.size * b.size > MAX_ENTRIES:
            current().stop(Inconclusive(f"xp.outer of {a.size * b.size} entries, over the reference's cap of "
                                        f"{MAX_ENTRIES}"))
        return exact_array(np.outer(a, b))

    sqrt = _elementwise(lambda v: _unary(_value(v), "sqrt"))
    absolute = _elementwise(lambda v: _unary(_value(v), "abs"))
    exp = _elementwise(lambda v: _unary(_value(v), "exp"))
    log = _elementwise(lambda v: _unary(_value(v), "log"))
    arccos = _elementwise(lambda v: _unary(_value(v), "acos"))
    tanh = _elementwise(lambda v: _unary(_value(v), "tanh"))
    maximum = _elementwise(lambda a, b: branch(_value(a), _value(b), True), 2)
    minimum = _elementwise(lambda a, b: branch(_value(a), _value(b), False), 2)
    guarded = _elementwise(lambda v, g: guard(_value(v), _value(g)), 2)
    pi = symbolic_constant(se.pi, math.pi)

    def q(p, r=1):
        return constant(_exact(p) / _exact(r))

    def total(x, axis=None):
        x = asarray(x)
        if x.size == 0:
            return constant(0)
        return np.sum(x, axis=axis)

    def mean(x, axis=None):
        x = asarray(x)
        if x.size == 0:
            raise ValueError("xp.mean of an empty array")
        # numpy divides the sum by the count: of plain ints that would be a float, so the
        # entries are exact values first (the other backends' mean is exact there too)
        return exact_array(np.mean(_elementwise(_value)(x) if x.ndim else _value(x[()]), axis=axis))

    def reduce(pairwise):
        def over(x, axis=None):
            x = asarray(x)
            slices = list(x.reshape(-1) if axis is None else np.moveaxis(x, axis, 0))
            return functools.reduce(pairwise, slices)
        return over

    def leaky_relu(x, slope=Fraction(1, 100)):
        x = asarray(x)
        if not isinstance(slope, (Value, np.ndarray)):
            slope = constant(_exact(slope))
        return maximum(x, x * slope)

    def sigmoid(x):
        one = constant(1)
        return one / (one + exp(-asarray(x)))

    xp = SimpleNamespace(
        kind="reference",
        sum=total, mean=mean, sqrt=sqrt, abs=absolute, maximum=maximum, minimum=minimum,
        max=reduce(maximum), min=reduce(minimum),
        dot=lambda a, b: exact_array(np.dot(asarray(a), asarray(b))),
        outer=outer, ones=ones, zeros=lambda n: ones(n, 0), eye=eye,
        asarray=asarray, q=q,
        relu=lambda x: maximum(asarray(x), constant(0)),
        leaky_relu=leaky_relu,
        tanh=tanh, exp=exp, log=log, arccos=arccos, sigmoid=sigmoid, pi=pi, make_pi=lambda: pi,
        solve=lambda A, b: exact_array(solve(A, b)), grad=lambda fn, x: exact_array(gradient(fn, x)),
        guard=guarded,
    )
    xp.expect = lambda f, law, n, *args: expectations.expectation(xp, f, law, n, args, second=False)
    xp.var = lambda f, law, n, *args: expectations.expectation(xp, f, law, n, args, second=True)
    return xp
