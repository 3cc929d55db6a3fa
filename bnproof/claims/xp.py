"""The array namespaces a claim's residual is written against.

One definition, three backends:
  * ``trace()``: numpy object arrays of program nodes, for exact evaluation,
    certificates and the fixed-size identity prover (claims/prove.py);
  * ``symbolic()``: numpy object arrays of SymPy expressions, for LaTeX and
    cross-checks (never for proofs: SymPy's assumptions are not a proof);
  * ``numeric()``: ``jax.numpy``, float64, for vmapped batched search and
    gradient-based search (``floating()``: numpy, for single instances).
``exp``, ``log``, ``arccos``, ``tanh``, ``sigmoid`` (1/(1 + exp(−x))) and the
constant ``pi`` trace to transcendental steps: the exact engine decides their
signs with rigorous balls (never by the algebraic exact zero test), so a value
that may be exactly 0 there stays undecided.
A residual uses only: + − × ÷ by arrays or integers, ``**`` with an integer,
``@``, and the functions below (``max``/``min`` reduce over an axis or all
entries; ``maximum``/``minimum`` are elementwise).  Divide arrays by integers, never an integer
by an integer (that would be a float): write ``xp.q(1, m)``.
In ``trace()`` every function records whatever it raises as a refusal that poisons
the program (program/trace.py), so that a claim catching it is never judged, and
the arrays it gives the claim are TracedArrays (program/trace.py: their ``dtype``
and numpy's inexact ufuncs are refusals).  An elementwise function of scalars gives
a scalar, as numpy's ufuncs do (np.vectorize alone would give a 0-d array, which
numpy's float64 reading never sees).

Sizes are bounded before anything is allocated: ``ones``, ``zeros``, ``eye`` and
``outer`` of more than MAX_ENTRIES entries are refused with one line (in ``trace()``
through ``Program.reserve``, the program's own bound), so that a hostile size such as
``xp.ones(y.shape[0] * 10**9)`` never reaches numpy's allocator.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from . import moments

# Floats only nominate instances: a guard condition that is exactly 0 (a boundary point, duplicate
# rows of a polyhedron) rounds to either side of 0, and dropping it there would make a set look
# farther, or empty, and hide its instances from the search.  The exact engine decides every guard.
FLOAT_GUARD_SLACK = 1e-9
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


def _object_namespace(kind: str, sqrt, absolute, maximum, minimum, number, tanh,
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
        expect=moments.expect, var=moments.var,  # over i.i.d. batches of a Law (moments.py)
        # v where g ≥ 0, else absent (+∞): min over guarded candidates ignores the absent
        guard=_elementwise(guard, wrap) if guard else None,
    )


def trace(program):
    from ..program.trace import Node, traced_array

    def number(x):
        return program.const(x)

    def lift(x):
        return x if isinstance(x, Node) else program.const(x)

    return _recording(program, _object_namespace(
        "trace",
        sqrt=lambda x: lift(x).sqrt(),
        absolute=lambda x: abs(lift(x)),
        maximum=lambda a, b: lift(a).max(b),
        minimum=lambda a, b: lift(a).min(b),
        number=number,
        tanh=lambda x: lift(x).tanh(),
        guard=lambda v, g: lift(v).guard(g),
        transcendental={"exp": lambda x: lift(x).exp(), "log": lambda x: lift(x).log(),
                        "arccos": lambda x: lift(x).arccos(), "pi": program.pi},
        wrap=traced_array, reserve=program.reserve,
    ))


def _recording(program, namespace):
    """The namespace with every function run as part of `program`'s trace: whatever it
    raises is a refusal that poisons the program (program/trace.py), even if the claim's
    code catches it, and refusals raised inside it with no traced value at hand (xp.grad
    of a non-scalar, xp.expect's polynomials) are recorded on it."""
    for name, value in list(vars(namespace).items()):
        if callable(value) and name != "make_pi":
            setattr(namespace, name, _recorded(program, name, value))
    return namespace


def _recorded(program, name: str, function):
    def call(*args, **kwargs):
        with program:
            try:
                return function(*args, **kwargs)
            except Exception as err:  # noqa: BLE001 - recorded, then raised as it was
                program.refuse(err)
                raise

    call.__name__ = call.__qualname__ = name
    call.__wrapped__ = function
    return call


def symbolic(sqrt=None):
    import sympy

    def number(x):
        if isinstance(x, sympy.Rational):  # xp.q's own value, passed back (a leaky_relu slope)
            return x
        x = Fraction(x)
        return sympy.Rational(x.numerator, x.denominator)

    return _object_namespace("symbolic", sqrt or sympy.sqrt, sympy.Abs, sympy.Max, sympy.Min, number,
                             sympy.tanh, lambda v, g: sympy.Piecewise((v, g >= 0), (sympy.oo, True)),
                             {"exp": sympy.exp, "log": sympy.log, "arccos": sympy.acos,
                              "pi": lambda: sympy.pi})


def _float_namespace(kind: str, xnp, asarray, grad, duals: bool = False) -> SimpleNamespace:
    """numpy and jax.numpy share the array API; only these differ.  With duals (numpy's
    float gradient runs dual numbers through object arrays), the elementwise
    functions dispatch object arrays to their dual-aware scalar versions."""

    def q(p, r=1):
        return xnp.float64(p) / r

    sqrt, absolute, maximum, minimum, tanh = xnp.sqrt, xnp.abs, xnp.maximum, xnp.minimum, xnp.tanh
    functions = {"exp": xnp.exp, "log": xnp.log, "arccos": xnp.arccos, "pi": float(np.pi)}
    extra = _transcendental(functions, xnp.sqrt, lambda: 1.0, vectorize=False)
    if duals:
        scalar = _with_duals(np.sqrt, abs, max, min, math.tanh, lambda: 0.5)
        sqrt, absolute, maximum, minimum, tanh = (_object_or(f, g) for f, g in zip(
            (sqrt, absolute, maximum, minimum, tanh), scalar))
        duals_of = _transcendental({"exp": np.exp, "log": np.log, "arccos": np.arccos, "pi": np.pi},
                                   scalar[0], lambda: 1.0, vectorize=False)
        for name in ("exp", "log", "arccos"):
            extra[name] = _object_or(getattr(xnp, name), duals_of[name])
        exp = extra["exp"]
        extra["sigmoid"] = lambda x: 1.0 / (1.0 + exp(-x))

    return SimpleNamespace(
        **extra,
        kind=kind,
        sum=xnp.sum, mean=xnp.mean, sqrt=sqrt, abs=absolute, maximum=maximum,
        minimum=minimum, max=xnp.max, min=xnp.min, dot=xnp.dot, outer=_bounded_outer(xnp.outer),
        ones=_float_sized("ones", xnp.ones), zeros=_float_sized("zeros", xnp.zeros),
        eye=_float_sized("eye", xnp.eye, square=True),
        asarray=asarray, q=q,
        relu=lambda x: maximum(x, 0.0),
        # a Fraction as a float; the backend's own number (xp.q(1, 10)) as it is
        leaky_relu=lambda x, slope=Fraction(1, 100): maximum(
            x, x * (float(slope) if isinstance(slope, (int, Fraction)) else slope)),
        tanh=tanh, solve=xnp.linalg.solve, grad=grad,
        expect=moments.expect, var=moments.var,
        guard=lambda v, g: xnp.where(g >= -FLOAT_GUARD_SLACK, v, xnp.inf),  # absent is +∞: min ignores it
    )


def _float_sized(what: str, make, square: bool = False):
    """numpy's (or JAX's) xp.ones/zeros/eye, refused over MAX_ENTRIES entries before the
    backend allocates; a size it cannot count is the backend's to refuse."""
    def sized(n):
        try:
            count = math.prod(int(k) for k in (n if isinstance(n, (tuple, list)) else (n,)))
        except (TypeError, ValueError):
            return make(n)
        if (count * count if square else count) > MAX_ENTRIES:
            raise TooLarge(f"xp.{what} of {count * count if square else count} entries: over the limit of "
                           f"{MAX_ENTRIES} entries of one array")
        return make(n)
    return sized


def _bounded_outer(outer):
    def bounded(a, b):
        count = int(np.size(a)) * int(np.size(b))
        if count > MAX_ENTRIES:
            raise TooLarge(f"xp.outer of {count} entries: over the limit of {MAX_ENTRIES} entries of one array")
        return outer(a, b)
    return bounded


def _object_or(vectorized, scalar):
    """The numpy ufunc for float arrays, the dual-aware scalar function elementwise
    for object arrays (of duals)."""
    elementwise = np.vectorize(scalar, otypes=[object])

    def apply(*args):
        if any(np.asarray(a).dtype == object for a in args):
            return elementwise(*args)
        return vectorized(*args)

    return apply


def numeric():
    """jax.numpy, float64: vmapped batched search and gradient-based search."""
    import jax

    from ..numeric.jax_setup import configure

    configure(jax)
    import jax.numpy as jnp

    return _float_namespace("numeric", jnp, jnp.asarray, lambda fn, x: jax.grad(fn)(x))


def _numeric_gradient(fn, x):
    from .dual import Dual, gradient

    out = gradient(fn, np.asarray(x, dtype=object))
    # inside an outer gradient the entries are duals of its pass: they stay objects
    return out if any(isinstance(g, Dual) for g in out.reshape(-1)) else out.astype(np.float64)


def floating():
    """numpy float64, for screening single instances cheaply (e.g. in Hypothesis)."""
    return _float_namespace("floating", np, lambda x: np.asarray(x, dtype=np.float64),
                            _numeric_gradient, duals=True)
