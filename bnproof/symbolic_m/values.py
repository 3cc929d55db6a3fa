"""Values of a claim traced at a symbolic batch size m: each records its step in
a Recorder, so running the claim's residual writes the symbolic-length program.

Types: SymScalar (S), SymVector (V, length m), SymMatrix (M, m × m).  Inputs of
shape (m, d) with d fixed are Columns: d vectors, so X @ w and X.T @ X work
with numpy object arrays of scalars on the d side.  A Python branch, a
comparison, an index or a loop over m is outside the fragment: they raise
OutsideFragment instead of fixing a value the proof would then assume.

Every refusal poisons the Recorder before it is raised (fragment.py), and so
does any other exception that leaves a value's method: a claim that catches it
still ends outside the fragment.

Introspection follows one rule: a traced value answers a question only with
what numpy's object arrays answer at every m, with m itself a traced scalar;
every other question is refused (the trace is poisoned).  A batch vector,
matrix or (m, d) input is an ndarray in every exact reading, so it answers
isinstance(v, np.ndarray) with True (through ``__class__``; ``type(v)`` cannot
be made to lie), ``ndim``, ``shape`` and ``size`` with m in them, a vector's
``.T`` with itself, and copy/deepcopy with itself (values are immutable: the
Recorder is never cloned).  A scalar is a program node in one reading and a 0-d
array in another (xp.sqrt, xp.asarray), so its shape, size, ndim and class are
refused when the claim asks.  len, iteration, tolist, dtype, methods and numpy's
own functions (np.shape, np.size, np.ndim, np.copy, …) are refused for all.

Text and keys are refused too: str, repr, format and hash of any traced value (m
included: ``str(y.shape) == "(6,)"`` is the text of a number under numpy and in the
reference, which compare at a few m only; here it would be one answer for every
m), asked by the claim's code or anything it calls; this package's own messages
get a placeholder.  So are numpy's ufuncs with no exact reading here (np.isnan,
np.isfinite, np.sin, ...: numpy would raise a TypeError the claim could catch):
``__array_ufunc__`` answers numpy's arithmetic (an array or numpy scalar on the
left of +, −, ×, ÷, @, **) with the value's own operator and refuses every other
ufunc.  The fixed side's object arrays are SymArrays (``fixed_array``): their
``dtype`` and numpy's inexact ufuncs on them are refused likewise.
"""

from __future__ import annotations

import fractions
import functools
import inspect
import os
import sys
import sysconfig
from fractions import Fraction

import numpy as np

from .fragment import OutsideFragment, RefusedAttribute, outside, poison

MAX_STEPS = 200_000  # a hostile claim stops here
MAX_POWER = 64  # the spec's bound on |k| in ["pow", a, k]


class Recorder:
    """The program's steps, each recorded once (identical steps share an index), and
    the refusals met while recording them (a poisoned trace is never a program)."""

    def __init__(self):
        self.steps: list[list] = []
        self._index: dict[tuple, int] = {}
        self.refusals: list[str] = []
        self.kinds: dict[int, str] = {}  # step -> S, V or M, as a value wrapped it (tangents.py)

    def poison(self, reason: str) -> None:
        if reason not in self.refusals:
            self.refusals.append(reason)

    def emit(self, step: list) -> int:
        key = tuple(step)
        if key not in self._index:
            if len(self.steps) >= MAX_STEPS:
                reason = f"more than {MAX_STEPS} steps"
                poison(reason, self)
                raise OutsideFragment(reason)
            self._index[key] = len(self.steps)
            self.steps.append(list(step))
        return self._index[key]

    def const(self, value) -> "SymScalar":
        if isinstance(value, (bool, float, complex, str)):
            outside(f"the inexact constant {value!r}", self)
        return SymScalar(self, self.emit(["const", str(Fraction(value))]))

    def m(self) -> "SymScalar":
        return SymScalar(self, self.emit(["m"]))

    # a copy of the recorder would record a second program that the proof never sees
    def __copy__(self):
        outside("a copy of the tracer's recorder", self)

    def __deepcopy__(self, memo):
        outside("a copy of the tracer's recorder", self)

    def __reduce_ex__(self, protocol):
        outside("a pickled copy of the tracer's recorder", self)


def _exact(x) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


def is_array(x) -> bool:
    """A real numpy array (the tracer's own test: a batch value answers isinstance(v,
    np.ndarray) with True for the claim, as numpy's arrays do)."""
    return issubclass(type(x), np.ndarray)


# ------------------------------------------------------------------ poisoning guards

def _guard(f):
    """f, with any exception leaving it recorded on the value's trace first."""
    @functools.wraps(f)
    def method(self, *args, **kwargs):
        try:
            return f(self, *args, **kwargs)
        except OutsideFragment as err:
            poison(err.reason, _recorder(self))
            raise
        except Exception as err:
            poison(f"uses an operation the symbolic-length backend does not model "
                   f"({type(err).__name__}: {err})", _recorder(self))
            raise
    return method


_UNGUARDED = {"__init__", "__getattr__", "__setattr__", "__delattr__", "__class__", "__hash__",
              "__copy__", "__deepcopy__", "__repr__", "__str__", "__format__"}


def _guarded(cls):
    for name, attr in list(vars(cls).items()):
        if name in _UNGUARDED:
            continue
        if isinstance(attr, property):
            setattr(cls, name, property(_guard(attr.fget)))
        elif inspect.isfunction(attr):
            setattr(cls, name, _guard(attr))
    return cls


def _recorder(value):
    try:
        return object.__getattribute__(value, "_rec")
    except AttributeError:
        return None


_HERE = os.path.dirname(os.path.abspath(__file__))
_NEUTRAL = {os.path.abspath(fractions.__file__)}  # Fraction's operators ask isinstance of any operand


def _asked_by_tracer(depth: int) -> bool:
    """Whether the code `depth` frames up (past abc's __instancecheck__) is this package's
    own, or stdlib arithmetic that asks of every operand."""
    frame = sys._getframe(depth + 1)
    while frame is not None and frame.f_globals.get("__name__") in ("abc", "_py_abc"):
        frame = frame.f_back
    if frame is None:
        return False
    path = os.path.abspath(frame.f_code.co_filename)
    return os.path.dirname(path) == _HERE or path in _NEUTRAL


_NUMPY = os.path.dirname(os.path.abspath(np.__file__)) + os.sep


_NOT_THE_CLAIM = tuple(os.path.abspath(p) + os.sep for p in (
    os.path.dirname(np.__file__), sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]))


def _asked_by_claim(depth: int) -> bool:
    """Whether the Python code `depth` frames up is neither this package's, numpy's nor the
    standard library's: the claim's (or its helper module's)."""
    frame = sys._getframe(depth + 1)
    if frame is None:
        return False
    path = os.path.abspath(frame.f_code.co_filename)
    return os.path.dirname(path) != _HERE and not path.startswith(_NOT_THE_CLAIM)


def _asked_by_numpy(depth: int) -> bool:
    frame = sys._getframe(depth + 1)
    return frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_NUMPY)


def _refused_attribute(what):
    def get(self):
        outside(f"{what} (a traced value answers only what numpy's arrays answer at every m)",
                _recorder(self), error=RefusedAttribute)
    return property(get)


def _refusing(what):
    def method(self, *args, **kwargs):
        outside(what, _recorder(self))
    return method


# numpy's ufuncs for Python's operators: an array or numpy scalar on the left of an operator
# with a traced value calls the ufunc, answered by the value's own (reflected) operator
_OPERATORS = {np.add: ("__add__", "__radd__"), np.subtract: ("__sub__", "__rsub__"),
              np.multiply: ("__mul__", "__rmul__"), np.true_divide: ("__truediv__", "__rtruediv__"),
              np.matmul: ("__matmul__", "__rmatmul__"), np.power: ("__pow__", "__rpow__")}
TEXT = ("the text of a traced value (str, repr, format, print: numpy prints a number, and the "
        "batch size m is no number here)")


class _Traced:
    """What every traced value (scalar, vector, matrix, (m, d) input) refuses or answers
    alike: an attribute it lacks, a mutation, a copy, a pickle, an operator numpy has,
    its text, a ufunc numpy has no exact reading of."""

    __slots__ = ()

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method == "__call__" and not kwargs:
            if ufunc in _OPERATORS and len(inputs) == 2:
                forward, reflected = _OPERATORS[ufunc]
                a, b = inputs
                if a is self:
                    result = getattr(type(a), forward)(a, b)
                    if result is NotImplemented and isinstance(b, _Traced):
                        result = getattr(type(b), reflected)(b, a)
                else:
                    result = getattr(type(b), reflected)(b, a)
                if result is not NotImplemented:
                    return result
            elif ufunc is np.negative and len(inputs) == 1:
                return -self
            elif ufunc is np.positive and len(inputs) == 1:
                return self
        outside(f"numpy.{getattr(ufunc, '__name__', 'ufunc')} on a traced value (numpy has no exact "
                "reading of it here; use xp)", _recorder(self))

    def __repr__(self):
        if _asked_by_tracer(1):  # this package's own messages
            return f"<traced {type(self).__name__}>"
        outside(TEXT, _recorder(self))

    def __str__(self):
        if _asked_by_tracer(1):
            return f"<traced {type(self).__name__}>"
        outside(TEXT, _recorder(self))

    def __format__(self, spec):
        if _asked_by_tracer(1):
            return f"<traced {type(self).__name__}>"
        outside(TEXT, _recorder(self))

    def __bytes__(self):
        outside(TEXT, _recorder(self))

    def __getattr__(self, name):
        # Python's and numpy's own protocol probes (__array_interface__, __array_struct__, …)
        # ask of every object put in an array: they are answered "absent" without a refusal
        if name.startswith("__") and name.endswith("__"):
            # the claim's own probe (hasattr(m, "__getnewargs__"), which an int has) would branch
            # where numpy does not, beyond the m the second reading compares at
            if _asked_by_claim(1) and not name.startswith("__array"):  # numpy's own, from C
                outside(f"the attribute .{name} of a traced value (a traced value answers only what "
                        "numpy's arrays answer at every m)", _recorder(self), error=RefusedAttribute)
            raise AttributeError(name)
        outside(f"the attribute .{name} of a traced value (a traced value answers only what "
                "numpy's arrays answer at every m)", _recorder(self), error=RefusedAttribute)

    def __setattr__(self, name, value):
        outside("an assignment to an attribute of a traced value", _recorder(self))

    def __delattr__(self, name):
        outside("a deletion of an attribute of a traced value", _recorder(self))

    def __copy__(self):
        return self  # immutable: a copy is the same value, recorded once

    def __deepcopy__(self, memo):
        return self

    __reduce_ex__ = _refusing("a pickled traced value")
    __reduce__ = _refusing("a pickled traced value")
    __setitem__ = _refusing("an assignment to an entry of a traced value")
    __delitem__ = _refusing("a deletion of an entry of a traced value")
    __contains__ = _refusing("`in` on a traced value")
    __floordiv__ = __rfloordiv__ = _refusing("// on a traced value")
    __mod__ = __rmod__ = __divmod__ = __rdivmod__ = _refusing("% or divmod on a traced value")
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _refusing("& | ^ on a traced value")
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = _refusing("<< or >> on a traced value")
    __invert__ = _refusing("~ on a traced value")
    __round__ = __trunc__ = __floor__ = __ceil__ = _refusing("rounding a traced value")
    __complex__ = _refusing("a conversion to complex")
    __bool__ = _refusing("a Python branch on a traced value")
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _refusing("a comparison of traced values")
    __abs__ = _refusing("abs")
    __index__ = __int__ = _refusing("a Python loop or index over the batch size m")
    __float__ = _refusing("a conversion to float")


def _numpy_function(self, func, types, args, kwargs):
    # numpy would take a traced value for a 0-d object array: np.dot(y, g) became y∘g
    outside(f"numpy.{getattr(func, '__name__', 'function')} on a traced value (numpy functions "
            "do not see batch vectors as arrays; use xp)", _recorder(self))


def _numpy_array(self, *args, **kwargs):
    outside("a batch vector or matrix converted to a numpy array (its length m is symbolic; use xp)",
            _recorder(self))


class _Batch:
    """A value whose length is m (vector, matrix, (m, d) input): an ndarray in every exact
    reading, so isinstance(v, np.ndarray) is True; a Python-level fact about m is refused."""

    __slots__ = ()

    @property
    def __class__(self):
        return np.ndarray

    def __len__(self):
        outside("len() of a batch vector or matrix (the symbolic m is not an int)", _recorder(self))

    def __iter__(self):
        outside("a Python loop over the entries of a batch vector or matrix", _recorder(self))

    def __getitem__(self, key):
        outside("indexing an entry of a batch vector or matrix", _recorder(self))

    def __hash__(self):  # numpy's arrays are unhashable
        outside("a batch vector or matrix as a dict key or set member", _recorder(self))


class Sym(_Traced):
    __slots__ = ("_rec", "_index")
    __array_function__ = _numpy_function
    _kind = "?"

    def __init__(self, rec: Recorder, index: int):
        object.__setattr__(self, "_rec", rec)
        object.__setattr__(self, "_index", index)
        rec.kinds.setdefault(index, self._kind)

    def _op(self, op, *args):  # neg and pow keep the operand's type
        return _make(self._rec, op, self._rec.emit([op, *args]), self._kind)

    def _lift(self, other):
        if isinstance(other, Sym):
            return other
        if _exact(other):
            return self._rec.const(other)
        if isinstance(other, np.integer) and not isinstance(other, np.bool_):
            return self._rec.const(int(other))
        if is_array(other) and other.shape == ():
            return self._lift(other.item())
        return None

    def _binary(self, op, other, reflected=False):
        o = self._lift(other)
        if o is None:
            if is_array(other):
                return _elementwise_d(self, op, other, reflected)
            if isinstance(other, Columns):
                return NotImplemented  # its reflected method applies numpy's broadcasting
            if isinstance(other, (float, np.floating)):
                outside(f"the inexact constant {other!r}", self._rec)
            # numpy would apply it (a list broadcasts, at some m only): never a TypeError to catch
            outside(f"an operation of a traced value with a {type(other).__name__}", self._rec)
        a, b = (o, self) if reflected else (self, o)
        return _typed(op, a, b)

    def __add__(self, o): return self._binary("add", o)
    def __radd__(self, o): return self._binary("add", o, True)
    def __sub__(self, o): return self._binary("sub", o)
    def __rsub__(self, o): return self._binary("sub", o, True)
    def __mul__(self, o): return self._binary("mul", o)
    def __rmul__(self, o): return self._binary("mul", o, True)
    def __truediv__(self, o): return self._binary("div", o)
    def __rtruediv__(self, o): return self._binary("div", o, True)
    def __matmul__(self, o): return self._binary("matmul", o)
    def __rmatmul__(self, o): return self._binary("matmul", o, True)

    def __neg__(self):
        return self._op("neg", self._index)

    def __pos__(self):
        return self

    def __pow__(self, k):
        if isinstance(k, np.integer):
            k = int(k)
        if not isinstance(k, int) or isinstance(k, bool):
            outside("a power with an exponent that is not an integer", self._rec)
        if abs(k) > MAX_POWER:
            outside(f"a power beyond ±{MAX_POWER}", self._rec)
        if k < 0 and self._kind != "S":
            outside("a negative power of a batch vector", self._rec)
        if self._kind == "M":
            outside("a power of a matrix", self._rec)
        return self._op("pow", self._index, k)

    def __rpow__(self, base):
        outside("a power with a traced exponent", self._rec)

    # numpy's numbers hash by value (equal values are one key); a traced scalar could only
    # hash by identity, so the claim's dict or set of values is refused (the tracer's own
    # use is by identity)
    def __hash__(self):
        if _asked_by_tracer(1):
            return object.__hash__(self)
        outside("a traced value as a dict key or set member (numpy's numbers hash by value)",
                _recorder(self))

    def __iter__(self):
        outside("a Python loop over the entries of a batch vector", self._rec)

    def __getitem__(self, key):
        outside("indexing an entry of a batch vector or matrix", self._rec)


@_guarded
class SymScalar(Sym):
    __slots__ = ()
    _kind = "S"

    @property
    def __class__(self):
        # a program node in one exact reading, a 0-d array in another: the claim's
        # isinstance of a traced scalar has no one answer (the tracer's own checks pass)
        if not _asked_by_tracer(1):
            outside("isinstance or the class of a traced scalar (a node or a 0-d array, by the "
                    "reading)", _recorder(self), error=RefusedAttribute)
        return SymScalar

    shape = _refused_attribute("the shape of a traced scalar")
    size = _refused_attribute("the size of a traced scalar")
    ndim = _refused_attribute("the ndim of a traced scalar")


@_guarded
class SymVector(_Batch, Sym):
    __slots__ = ()
    _kind = "V"
    ndim = 1
    __array__ = _numpy_array  # scalars stay convertible: object arrays of them are the d side

    @property
    def shape(self):
        return (self._rec.m(),)

    @property
    def size(self):
        return self._rec.m()

    @property
    def T(self):  # numpy: a vector's transpose is itself
        return self


@_guarded
class SymMatrix(_Batch, Sym):
    __slots__ = ()
    _kind = "M"
    ndim = 2
    __array__ = _numpy_array

    @property
    def shape(self):
        m = self._rec.m()
        return (m, m)

    @property
    def size(self):
        return self._rec.m() * self._rec.m()

    @property
    def T(self):
        return self._op("transpose", self._index)

    def transpose(self):
        return self.T


# the guards of the shared bases: their methods are looked up through the subclasses
for _base in (_Traced, _Batch, Sym):
    _guarded(_base)

_KINDS = {"S": SymScalar, "V": SymVector, "M": SymMatrix}


def _make(rec, op, index, kind):
    return _KINDS[kind](rec, index)


def _typed(op: str, a: Sym, b: Sym) -> Sym:
    """The result type of a binary op (spec §1), or OutsideFragment for a type mismatch."""
    if a._rec is not b._rec:  # a value kept from another trace: its steps are another program's
        outside("a traced value from another trace (kept from an earlier run of the claim)",
                a._rec, b._rec)
    ka, kb = a._kind, b._kind
    pair = ka + kb
    if op in ("add", "sub"):
        kind = "S" if pair == "SS" else (kb if ka == "S" else ka)
        if ka != kb and "S" not in pair:
            outside(f"{'+' if op == 'add' else '−'} of a {_NAME[ka]} and a {_NAME[kb]}", a._rec)
    elif op == "mul":
        if pair in ("MM",):
            outside("an elementwise product of matrices", a._rec)
        if pair in ("VM", "MV"):
            outside("an elementwise product of a vector and a matrix", a._rec)
        kind = "S" if pair == "SS" else (kb if ka == "S" else ka)
    elif op == "div":
        if kb != "S":
            outside(f"a division by a {_NAME[kb]} (only scalars divide)", a._rec)
        kind = ka
    elif op == "matmul":
        if "S" in pair:
            outside("@ with a scalar", a._rec)
        kind = {"MM": "M", "MV": "V", "VM": "V", "VV": "S"}[pair]
    else:
        raise AssertionError(op)
    return _make(a._rec, op, a._rec.emit([op, a._index, b._index]), kind)


_NAME = {"S": "scalar", "V": "batch vector", "M": "matrix"}


def _elementwise_d(value: Sym, op: str, array: np.ndarray, reflected: bool):
    """A traced value with a numpy array of the fixed d side: entrywise, if the value is a scalar."""
    if value._kind != "S":  # numpy would broadcast the array's last axis against the batch
        outside(f"a {_NAME[value._kind]} combined with a fixed-size array", value._rec)
    out = np.empty(array.shape, dtype=object)
    for k in np.ndindex(array.shape):
        entry = array[k]
        out[k] = _apply(op, entry, value) if reflected else _apply(op, value, entry)
    return fixed_array(out)


def _apply(op, a, b):
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
            "div": lambda: a / b, "matmul": lambda: a @ b}[op]()


@_guarded
class Columns(_Batch, _Traced):
    """An (m, d) input with d fixed: its d columns are vectors "X:0", ..., "X:{d-1}"."""

    __slots__ = ("_rec", "_columns", "_transposed")
    __array_function__ = _numpy_function
    __array__ = _numpy_array
    ndim = 2

    def __init__(self, rec: Recorder, columns, transposed: bool = False):
        object.__setattr__(self, "_rec", rec)
        object.__setattr__(self, "_columns", tuple(columns))
        object.__setattr__(self, "_transposed", transposed)

    @property
    def shape(self):
        shape = (self._rec.m(), len(self._columns))
        return shape[::-1] if self._transposed else shape

    @property
    def size(self):
        return self._rec.m() * len(self._columns)

    @property
    def T(self):
        return Columns(self._rec, self._columns, not self._transposed)

    def _each(self, other, f):
        """Entrywise with numpy's broadcasting, which aligns the LAST axis (d): another
        (m, d) matrix, a (d,) array or a scalar; never a batch vector (numpy would pair
        it with the d axis, and needs d = m) nor a transpose or another width."""
        if self._transposed:
            return self._each_transposed(other, f)
        if isinstance(other, Columns):
            if other._rec is not self._rec:
                outside("a traced value from another trace (kept from an earlier run of the claim)",
                        self._rec, other._rec)
            if other._transposed or len(other._columns) != len(self._columns):
                outside("entrywise arithmetic of batch matrices of different shapes", self._rec)
            return Columns(self._rec, [f(a, b) for a, b in zip(self._columns, other._columns)])
        if isinstance(other, Sym) and other._kind != "S":
            outside(f"a batch matrix combined entrywise with a {_NAME[other._kind]} (numpy broadcasts "
                    "it along the fixed axis)", self._rec)
        other = np.asarray(other, dtype=object) if not isinstance(other, Sym) else other
        if is_array(other) and other.shape == (len(self._columns),):
            return Columns(self._rec, [f(a, b) for a, b in zip(self._columns, other)])
        if is_array(other) and other.shape == ():
            other = other.item()
        if is_array(other):
            outside(f"a batch matrix combined with an array of shape {other.shape}", self._rec)
        return Columns(self._rec, [f(a, other) for a in self._columns])

    def _each_transposed(self, other, f):
        """Entrywise on the (d, m) transpose, with numpy's broadcasting of the last axis (m):
        another transpose of the same width, a batch vector (each row, a column of the
        matrix, with it), a (d, 1) array of the fixed side (row j with its entry j) or a
        scalar; never a (d,) array (numpy would pair it with the m axis)."""
        d = len(self._columns)
        if isinstance(other, Columns):
            if other._rec is not self._rec:
                outside("a traced value from another trace (kept from an earlier run of the claim)",
                        self._rec, other._rec)
            if not other._transposed or len(other._columns) != d:
                outside("entrywise arithmetic of batch matrices of different shapes", self._rec)
            return Columns(self._rec, [f(a, b) for a, b in zip(self._columns, other._columns)], True)
        if isinstance(other, Sym) and other._kind == "M":
            outside("the transpose of a batch matrix combined entrywise with a matrix", self._rec)
        if isinstance(other, Sym):  # a batch vector pairs with the m axis; a scalar with all
            return Columns(self._rec, [f(a, other) for a in self._columns], True)
        other = np.asarray(other, dtype=object)
        if other.shape == (d, 1):
            return Columns(self._rec, [f(a, b) for a, b in zip(self._columns, other[:, 0])], True)
        if other.shape == ():
            return Columns(self._rec, [f(a, other.item()) for a in self._columns], True)
        outside(f"the transpose of a batch matrix combined with an array of shape {other.shape} "
                "(numpy pairs its last axis with the batch axis)", self._rec)

    def __add__(self, o): return self._each(o, lambda a, b: a + b)
    def __sub__(self, o): return self._each(o, lambda a, b: a - b)
    def __rsub__(self, o): return self._each(o, lambda a, b: b - a)
    def __mul__(self, o): return self._each(o, lambda a, b: a * b)
    def __truediv__(self, o): return self._each(o, lambda a, b: a / b)
    __radd__, __rmul__ = __add__, __mul__

    def __rtruediv__(self, o):
        outside("a division by a batch matrix (only scalars divide)", self._rec)

    def __rpow__(self, base):
        outside("a power with a traced exponent", self._rec)

    def __neg__(self):
        return Columns(self._rec, [-a for a in self._columns], self._transposed)

    def __pos__(self):
        return self

    def __pow__(self, k):
        return Columns(self._rec, [a**k for a in self._columns], self._transposed)

    def __matmul__(self, other):
        if not self._transposed:  # X @ w: w has d entries
            w = np.asarray(other, dtype=object)
            if w.shape != (len(self._columns),):
                outside("a batch matrix times something that is not a fixed-size vector", self._rec)
            total = None
            for column, weight in zip(self._columns, w):
                term = column * weight
                total = term if total is None else total + term
            return total
        if isinstance(other, Columns) and not other._transposed:  # Xᵀ Y: d × d' sums
            out = np.empty((len(self._columns), len(other._columns)), dtype=object)
            for i, a in enumerate(self._columns):
                for j, b in enumerate(other._columns):
                    out[i, j] = _sum(a * b)
            return fixed_array(out)
        if isinstance(other, SymVector):  # Xᵀ v
            return fixed_array(np.array([_sum(a * other) for a in self._columns] + [None], dtype=object)[:-1])
        outside("a product with the transpose of a batch matrix", self._rec)

    def __rmatmul__(self, other):
        if isinstance(other, SymVector) and not self._transposed:  # vᵀ X
            return fixed_array(np.array([_sum(other * a) for a in self._columns] + [None], dtype=object)[:-1])
        outside("a product with a batch matrix", self._rec)

    def __getitem__(self, key):
        outside("indexing an entry of a batch matrix", self._rec)

    def __iter__(self):
        outside("a Python loop over the rows of a batch matrix", self._rec)


def _sum(v: Sym) -> SymScalar:
    if v._kind == "S":
        return v
    if v._kind != "V":
        outside("the sum of a matrix's entries", v._rec)
    return SymScalar(v._rec, v._rec.emit(["sum", v._index]))


# ------------------------------------------------------------------ the fixed side's arrays

# numpy's ufuncs whose object loops call the scalars' own operators (which refuse by
# themselves what they do not model: a comparison, a float)
_EXACT_UFUNCS = frozenset({np.add, np.subtract, np.multiply, np.true_divide, np.negative, np.positive,
                           np.power, np.matmul, np.equal, np.not_equal, np.less, np.less_equal,
                           np.greater, np.greater_equal})
_DTYPE = np.ndarray.dtype


def _exact_ufunc(ufunc) -> bool:
    if ufunc in _EXACT_UFUNCS:
        return True
    try:  # np.frompyfunc/np.vectorize: a Python function of the claim's on each entry
        return set(ufunc.types) == {"O" * ufunc.nin + "->" + "O" * ufunc.nout}
    except (AttributeError, TypeError):
        return False


def fixed_array(x):
    """x as a SymArray when it is a plain object array (anything else as it is)."""
    if type(x) is np.ndarray and x.dtype == object:
        return x.view(SymArray)
    return x


class SymArray(np.ndarray):
    """An object array of traced scalars of the fixed side (a (d,) input, Xᵀ v, ...): numpy's
    own array, except that the claim's ``dtype`` and numpy's inexact ufuncs are refused
    (numpy's object dtype and TypeError, where numpy's reading has float64 and numbers)."""

    @property
    def dtype(self):
        if _asked_by_tracer(1) or _asked_by_numpy(1):
            return _DTYPE.__get__(self)
        outside("the dtype of an array of traced values (numpy's object dtype, where numpy's own "
                "arrays of the claim are float64)")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if any(issubclass(type(x), _Traced) for x in inputs):
            return NotImplemented  # the traced value's own __array_ufunc__ answers
        if not _exact_ufunc(ufunc):
            outside(f"numpy.{getattr(ufunc, '__name__', 'ufunc')} on a traced value (numpy has no exact "
                    "reading of it here; use xp)")
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(o.view(np.ndarray) if type(o) is SymArray else o for o in out)
        result = getattr(ufunc, method)(*(x.view(np.ndarray) if type(x) is SymArray else x for x in inputs),
                                        **kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        return tuple(map(fixed_array, result)) if isinstance(result, tuple) else fixed_array(result)

    def __repr__(self):  # numpy's text, without the class's name
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))


def _deferring(name: str):
    """ndarray's operator `name`, deferring to a traced operand's own (reflected) operator:
    numpy's ufunc machinery would otherwise ask the operand's class (refused for a scalar)."""
    method = getattr(np.ndarray, name)

    def operator(self, other):
        if issubclass(type(other), _Traced):
            return NotImplemented
        return method(self, other)

    operator.__name__ = name
    return operator


for _name in ("add", "sub", "mul", "truediv", "matmul", "pow"):
    for _form in ("__{}__", "__r{}__", "__i{}__"):
        setattr(SymArray, _form.format(_name), _deferring(_form.format(_name)))
