"""Arrays of the reference's values, as a claim holds them: what only floats answer is refused.

numpy's object arrays are the reading's arrays, with numpy's own broadcasting,
reductions and products.  Two questions have another answer on them than on the
float64 arrays of numpy's own reading of the claim, and a claim could branch on
either: an array's ``dtype`` (object, not float64), and a ufunc with no exact
meaning (np.isnan, np.isfinite, np.sin, ...: numpy raises TypeError on object
arrays, which a claim may catch, and gives a number on floats).  So the arrays a
claim receives (its inputs, what the namespace makes, what numpy's ufuncs make of
them) are ``ExactArray``: numpy's object array with the claim's own ``dtype``
question refused (numpy's and this package's own code get the answer), and an
``__array_ufunc__`` (shared with values.Value) that runs the exact ufuncs on plain
object arrays and refuses every other one with a recorded stop (errors.Refused, a
BaseException the claim's ``except Exception`` does not catch, recorded in its
session whatever it catches).

``type(y)`` of such an array is ExactArray, not np.ndarray: numpy's float64 reading
(floats.py) is the check on that, as on ``type(v)`` of a value.

program/trace.py has the same machinery for the tracer (TracedArray), written there
again on purpose: which ufuncs count as exact is a reading of numpy, and a mistake in
one shared list would be made by both readings, which must fail independently.
"""

from __future__ import annotations

import fractions
import os
import sys

import numpy as np

from .errors import Refused
from .session import current

OWN, NUMPY, CLAIM = "own", "numpy", "claim"
_HERE = os.path.dirname(os.path.abspath(__file__))
_FRACTIONS = os.path.abspath(fractions.__file__)
_NUMPY = os.path.dirname(os.path.abspath(np.__file__)) + os.sep
_ABC = frozenset(os.path.abspath(f) for f in (__import__("abc").__file__, __import__("_py_abc").__file__))
_ASKERS: dict = {}  # code object -> kind


def asker(depth: int) -> str:
    """Who asks, `depth` frames above the caller (past abc's __instancecheck__): this
    package or Fraction's operators (OWN), numpy's own Python code (NUMPY), or the
    claim's code and whatever it calls (CLAIM)."""
    frame = sys._getframe(depth + 1)
    while frame is not None and _kind_of(frame.f_code) == "abc":
        frame = frame.f_back
    return CLAIM if frame is None else _kind_of(frame.f_code)


def _kind_of(code) -> str:
    kind = _ASKERS.get(code)
    if kind is None:
        path = os.path.abspath(code.co_filename)
        kind = ("abc" if path in _ABC else
                OWN if os.path.dirname(path) == _HERE or path == _FRACTIONS else
                NUMPY if path.startswith(_NUMPY) else CLAIM)
        if len(_ASKERS) < 100_000:
            _ASKERS[code] = kind
    return kind


# numpy's ufuncs whose object loops call an operator or method the values implement as
# numpy's float64 does (a comparison is decided at the point, as values.py says)
_EXACT = frozenset({np.add, np.subtract, np.multiply, np.true_divide, np.negative, np.positive,
                    np.power, np.matmul, np.absolute, np.sqrt, np.exp, np.log, np.arccos, np.tanh,
                    np.maximum, np.minimum, np.equal, np.not_equal, np.less, np.less_equal,
                    np.greater, np.greater_equal, np.conjugate})


def _is_exact(ufunc) -> bool:
    """An exact ufunc, or one of np.frompyfunc/np.vectorize (its only loop runs a Python
    function of the claim's on each entry)."""
    if ufunc in _EXACT:
        return True
    try:
        return set(ufunc.types) == {"O" * ufunc.nin + "->" + "O" * ufunc.nout}
    except (AttributeError, TypeError):
        return False


def array_ufunc(ufunc, method: str, inputs, kwargs):
    """A ufunc on the reference's values: an exact one on plain object arrays (an array
    result is an ExactArray again); any other is refused (a recorded stop)."""
    if not _is_exact(ufunc):
        name = getattr(ufunc, "__name__", "ufunc")
        current().stop(Refused(f"numpy.{name} of an exact value (numpy raises TypeError for it on object "
                               "arrays and gives a number on float64 arrays: use xp)"))
    out = kwargs.get("out")
    if out is not None:
        kwargs["out"] = tuple(_plain(o) for o in out)
    result = getattr(ufunc, method)(*(_plain(x) for x in inputs), **kwargs)
    if out is not None:
        return out[0] if len(out) == 1 else out
    return tuple(map(exact_array, result)) if isinstance(result, tuple) else exact_array(result)


def _plain(x):
    if type(x) is ExactArray:
        return np.ndarray.view(x, np.ndarray)
    if type(x) in SCALARS:  # a 0-d object array: no override is left, numpy's object loop runs
        box = np.empty((), dtype=object)
        box[()] = x
        return box
    return x


SCALARS: set = set()  # values.Value, added by values.py (which imports this module)


def exact_array(x):
    """x as an ExactArray when it is a plain object array (anything else as it is)."""
    if type(x) is np.ndarray and x.dtype == object:
        return x.view(ExactArray)
    return x


_DTYPE = np.ndarray.dtype


class ExactArray(np.ndarray):
    """numpy's object array of exact values, as a claim holds it: the same array, except
    that the claim's own ``dtype`` question and numpy's inexact ufuncs are refused."""

    @property
    def dtype(self):
        if asker(1) != CLAIM:
            return _DTYPE.__get__(self)
        current().stop(Refused("the dtype of an array of exact values (object, where numpy's own arrays of "
                               "the claim are float64): a claim that asks it may take another branch"))

    def tobytes(self, *args, **kwargs):
        current().stop(Refused("the bytes of an array of exact values"))

    def view(self, *args, **kwargs):
        wanted = kwargs.get("dtype", args[0] if args else None)
        if wanted is not None and not (isinstance(wanted, type) and issubclass(wanted, np.ndarray)) \
                and asker(1) == CLAIM:
            current().stop(Refused("a view of an array of exact values as another dtype"))
        return super().view(*args, **kwargs)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return array_ufunc(ufunc, method, inputs, kwargs)

    # printed as numpy prints it: the class's name is no text a claim could branch on
    def __repr__(self):
        return repr(np.ndarray.view(self, np.ndarray))

    def __str__(self):
        return str(np.ndarray.view(self, np.ndarray))
