"""The claim's array namespace over numpy object arrays of exact numbers (trace
nodes, SymPy expressions, moments.py's polynomials): every function of xp but
xp.expect and xp.var, which xp.py adds.

It is a floor below xp.py and moments.py, which both build on it: moments.py
runs a claim's f on polynomials in this namespace, and xp.py's namespaces take
their xp.expect from moments.py.  Sizes are bounded before anything is
allocated (MAX_ENTRIES; see xp.py)."""

from __future__ import annotations

import functools
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

MAX_ENTRIES = 1_000_000  # entries of one array xp.ones/zeros/eye/outer makes (the program's MAX_STEPS)


class TooLarge(ValueError):
    """An array the namespace would make is over MAX_ENTRIES entries."""


def entries(what: str, n, square: bool = False, reserve=None) -> int:
    """The entries of xp.ones/zeros(n) (xp.eye(n): n²), refused before anything is
    allocated when over MAX_ENTRIES (or over what `reserve`, the program's bound, allows).
    A size numpy refuses (negative, bool, not an integer) is refused as numpy does."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"xp.{what}: expected an integer size, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"xp.{what}: negative dimensions are not allowed")
    count = int(n) * int(n) if square else int(n)
    if reserve is not None:
        reserve(count)
    if count > MAX_ENTRIES:
        raise TooLarge(f"xp.{what} of {count} entries: over the limit of {MAX_ENTRIES} entries of one array")
    return count


def _elementwise(f, wrap):
    """f on each entry, numpy-style: a scalar for scalars (as numpy's ufuncs give), else an
    array (wrapped: the trace's TracedArray)."""
    vectorized = np.vectorize(f, otypes=[object])

    def apply(*args):
        out = vectorized(*args)
        return out[()] if isinstance(out, np.ndarray) and out.ndim == 0 else wrap(out)

    return apply


def _identity(x):
    return x


def _with_duals(sqrt, absolute, maximum, minimum, tanh, half):
    """The backend's elementwise functions, extended to dual numbers (for xp.grad):
    a dual carries its derivative through them, straight-line (see dual.py).  Each
    passes itself on for the dual's primal, which in a nested gradient is a dual of
    an outer pass."""
    from .dual import Dual
    from .dual import maximum as dual_max

    def d_sqrt(x):
        return x.sqrt(d_sqrt) if isinstance(x, Dual) else sqrt(x)

    def d_abs(x):
        return x.abs(d_abs) if isinstance(x, Dual) else absolute(x)

    def d_max(a, b):
        if isinstance(a, Dual) or isinstance(b, Dual):
            return dual_max(a, b, d_max, d_abs, half())
        return maximum(a, b)

    def d_min(a, b):
        if isinstance(a, Dual) or isinstance(b, Dual):
            return dual_max(a, b, d_min, d_abs, half(), sign=-1)
        return minimum(a, b)

    def d_tanh(x):
        return x.tanh(d_tanh) if isinstance(x, Dual) else tanh(x)

    return d_sqrt, d_abs, d_max, d_min, d_tanh


class _Namespace(SimpleNamespace):
    """A namespace whose ``pi`` is made on first use: a traced π is a program step, and
    a program that never uses π must not carry one."""

    def __getattr__(self, name):
        if name == "pi" and "make_pi" in self.__dict__:
            return self.__dict__["make_pi"]()
        raise AttributeError(name)


def _transcendental(functions: dict, sqrt, one, vectorize: bool, wrap=_identity) -> dict:
    """exp, log, arccos and sigmoid, extended to dual numbers (for xp.grad), and π
    (``make_pi`` where it is made on first use)."""
    from .dual import Dual

    if functions is None:  # a namespace built without them (none of its claims uses them)
        return {}

    def dual_aware(name, f):
        def apply(x):  # passes itself on: a nested dual's primal is a dual of an outer pass
            if isinstance(x, Dual):
                return getattr(x, name)(apply, sqrt) if name == "arccos" else getattr(x, name)(apply)
            return f(x)
        return _elementwise(apply, wrap) if vectorize else apply

    exp = dual_aware("exp", functions["exp"])
    out = {name: dual_aware(name, functions[name]) for name in ("exp", "log", "arccos")}
    # the trace: 1/(1 + exp(−x)), no step of its own; `one` is made on use (a traced
    # constant is a step, which a program without sigmoid must not carry)
    out["sigmoid"] = lambda x: one() / (one() + exp(-x))
    out["make_pi" if callable(functions["pi"]) else "pi"] = functions["pi"]
    return out


def object_namespace(kind: str, sqrt, absolute, maximum, minimum, number, tanh,
                      guard=None, transcendental=None, wrap=_identity, reserve=None) -> SimpleNamespace:
    from .dual import gradient

    sqrt, absolute, maximum, minimum, tanh = _with_duals(sqrt, absolute, maximum, minimum, tanh,
                                                         lambda: number(Fraction(1, 2)))
    vsqrt, vabs = _elementwise(sqrt, wrap), _elementwise(absolute, wrap)
    vmax, vmin = _elementwise(maximum, wrap), _elementwise(minimum, wrap)
    vtanh = _elementwise(tanh, wrap)

    def asarray(x):
        return wrap(np.asarray(x, dtype=object))

    def ones(n, value=1):
        entries("ones" if value else "zeros", n, reserve=reserve)
        return wrap(np.array([number(value)] * n, dtype=object))

    def eye(n):
        entries("eye", n, square=True, reserve=reserve)
        return wrap(np.array([[number(int(i == j)) for j in range(n)] for i in range(n)], dtype=object))

    def outer(a, b):
        a, b = asarray(a), asarray(b)
        if reserve is not None:
            reserve(a.size * b.size)
        if a.size * b.size > MAX_ENTRIES:
            raise TooLarge(f"xp.outer of {a.size * b.size} entries: over the limit of {MAX_ENTRIES} entries "
                           "of one array")
        return wrap(np.outer(a, b))

    def grad(fn, x):  # the function's argument is the claim's array too (its dtype refuses)
        return wrap(gradient(lambda seeded: fn(wrap(seeded)), x))

    def exact(x):
        """A Python int or Fraction as the backend's number; the backend's own (xp.q(1, 10))
        as it is."""
        return number(x) if isinstance(x, (int, Fraction)) and not isinstance(x, bool) else x

    def total(x, axis=None):
        x = asarray(x)
        if x.size == 0:
            return number(0)
        return np.sum(x, axis=axis)

    def mean(x, axis=None):
        x = asarray(x)
        n = x.size if axis is None else x.shape[axis]
        return total(x, axis) * q(1, n)

    def q(p, r=1):
        return number(Fraction(p, r))

    def reduce(pairwise):
        def over(x, axis=None):
            x = asarray(x)
            slices = list(x.reshape(-1) if axis is None else np.moveaxis(x, axis, 0))
            return functools.reduce(pairwise, slices)
        return over

    def solve(A, b):
        """A x = b by elimination without row exchanges: branch-free, so it traces
        to a straight-line program; valid when every leading minor of A is nonzero
        (e.g. A positive definite), and a zero pivot is reported as a domain error."""
        A = [list(row) for row in asarray(A)]
        b = list(asarray(b))
        n = len(b)
        for k in range(n):
            for i in range(k + 1, n):
                f = A[i][k] / A[k][k]
                A[i] = [a - f * c for a, c in zip(A[i], A[k])]
                b[i] = b[i] - f * b[k]
        x = [None] * n
        for i in reversed(range(n)):
            x[i] = (b[i] - sum((A[i][j] * x[j] for j in range(i + 1, n)), number(0))) / A[i][i]
        return asarray(x)

    return _Namespace(
        **_transcendental(transcendental, sqrt, lambda: number(1), vectorize=True, wrap=wrap),
        kind=kind,
        sum=total, mean=mean, sqrt=vsqrt, abs=vabs, maximum=vmax, minimum=vmin,
        max=reduce(vmax), min=reduce(vmin),
        dot=lambda a, b: wrap(np.dot(asarray(a), asarray(b))),
        outer=outer,
        ones=ones,
        zeros=lambda n: ones(n, 0),
        eye=eye,
        asarray=asarray, q=q,
        relu=lambda x: vmax(asarray(x), number(0)),
        leaky_relu=lambda x, slope=Fraction(1, 100): vmax(asarray(x), asarray(x) * exact(slope)),
        tanh=vtanh, solve=solve, grad=grad,
        # v where g ≥ 0, else absent (+∞): min over guarded candidates ignores the absent
        guard=_elementwise(guard, wrap) if guard else None,
    )
