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

import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from . import moments
from .object_xp import MAX_ENTRIES, TooLarge, _transcendental, _with_duals, object_namespace

# Floats only nominate instances: a guard condition that is exactly 0 (a boundary point, duplicate
# rows of a polyhedron) rounds to either side of 0, and dropping it there would make a set look
# farther, or empty, and hide its instances from the search.  The exact engine decides every guard.
FLOAT_GUARD_SLACK = 1e-9


def _object_namespace(*args, **kwargs):
    """The object namespace (object_xp.py) with xp.expect and xp.var over i.i.d.
    batches of a Law (moments.py), which runs its polynomials in an object namespace
    of its own: so the two meet here, above both."""
    namespace = object_namespace(*args, **kwargs)
    namespace.expect, namespace.var = moments.expect, moments.var
    return namespace


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
