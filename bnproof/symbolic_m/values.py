"""Values of a claim traced at a symbolic batch size m: each records its step in
a Recorder, so running the claim's residual writes the symbolic-length program.

Types: SymScalar (S), SymVector (V, length m), SymMatrix (M, m × m).  Inputs of
shape (m, d) with d fixed are Columns: d vectors, so X @ w and X.T @ X work
with numpy object arrays of scalars on the d side.  A Python branch, a
comparison, an index or a loop over m is outside the fragment: they raise
OutsideFragment instead of fixing a value the proof would then assume.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .fragment import OutsideFragment, outside

MAX_STEPS = 200_000  # a hostile claim stops here
MAX_POWER = 64  # the spec's bound on |k| in ["pow", a, k]


class Recorder:
    """The program's steps, each recorded once (identical steps share an index)."""

    def __init__(self):
        self.steps: list[list] = []
        self._index: dict[tuple, int] = {}

    def emit(self, step: list) -> int:
        key = tuple(step)
        if key not in self._index:
            if len(self.steps) >= MAX_STEPS:
                raise OutsideFragment(f"more than {MAX_STEPS} steps")
            self._index[key] = len(self.steps)
            self.steps.append(list(step))
        return self._index[key]

    def const(self, value) -> "SymScalar":
        if isinstance(value, (bool, float, complex, str)):
            raise OutsideFragment(f"uses the inexact constant {value!r}")
        return SymScalar(self, self.emit(["const", str(Fraction(value))]))

    def m(self) -> "SymScalar":
        return SymScalar(self, self.emit(["m"]))


def _exact(x) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


def _numpy_function(self, func, types, args, kwargs):
    # numpy would take a traced value for a 0-d object array: np.dot(y, g) became y∘g
    outside(f"numpy.{getattr(func, '__name__', 'function')} on a traced value (numpy functions "
            "do not see batch vectors as arrays; use xp)")


def _numpy_array(self, *args, **kwargs):
    outside("a batch vector or matrix converted to a numpy array (its length m is symbolic; use xp)")


class Sym:
    __array_ufunc__ = None  # numpy defers to the reflected methods below
    __array_function__ = _numpy_function
    kind = "?"

    def __init__(self, rec: Recorder, index: int):
        self.rec, self.index = rec, index

    def _op(self, op, *args):  # neg and pow keep the operand's type
        return _make(self.rec, op, self.rec.emit([op, *args]), self.kind)

    def _lift(self, other):
        if isinstance(other, Sym):
            return other
        if _exact(other):
            return self.rec.const(other)
        if isinstance(other, np.ndarray) and other.shape == ():
            return self._lift(other.item())
        return None

    def _binary(self, op, other, reflected=False):
        o = self._lift(other)
        if o is None:
            if isinstance(other, np.ndarray):
                return _elementwise_d(self, op, other, reflected)
            if isinstance(other, float):
                outside(f"the inexact constant {other!r}")
            return NotImplemented
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
        return self._op("neg", self.index)

    def __pos__(self):
        return self

    def __pow__(self, k):
        if isinstance(k, np.integer):
            k = int(k)
        if not isinstance(k, int) or isinstance(k, bool):
            outside("a power with an exponent that is not an integer")
        if abs(k) > MAX_POWER:
            outside(f"a power beyond ±{MAX_POWER}")
        if k < 0 and self.kind != "S":
            outside("a negative power of a batch vector")
        if self.kind == "M":
            outside("a power of a matrix")
        return self._op("pow", self.index, k)

    def __rpow__(self, base):
        outside("a power with a traced exponent")

    def __bool__(self):
        outside("a Python branch on a traced value")

    def __lt__(self, o): outside("a comparison of traced values")
    __le__ = __gt__ = __ge__ = __lt__

    def __eq__(self, o):
        outside("a comparison of traced values")

    __ne__ = __eq__
    __hash__ = object.__hash__

    def __abs__(self):
        outside("abs")

    def __index__(self):
        outside("a Python loop or index over the batch size m")

    __int__ = __index__

    def __float__(self):
        outside("a conversion to float")

    def __iter__(self):
        outside("a Python loop over the entries of a batch vector")

    def __getitem__(self, key):
        outside("indexing an entry of a batch vector or matrix")


class SymScalar(Sym):
    kind = "S"
    shape = ()
    size = 1
    ndim = 0


class SymVector(Sym):
    kind = "V"
    ndim = 1
    __array__ = _numpy_array  # scalars stay convertible: object arrays of them are the d side

    @property
    def shape(self):
        return (self.rec.m(),)

    def __len__(self):
        outside("len() of a batch vector (the symbolic m is not an int)")


class SymMatrix(Sym):
    kind = "M"
    ndim = 2
    __array__ = _numpy_array

    @property
    def shape(self):
        m = self.rec.m()
        return (m, m)

    @property
    def T(self):
        return self._op("transpose", self.index)

    def transpose(self):
        return self.T


_KINDS = {"S": SymScalar, "V": SymVector, "M": SymMatrix}


def _make(rec, op, index, kind):
    return _KINDS[kind](rec, index)


def _typed(op: str, a: Sym, b: Sym) -> Sym:
    """The result type of a binary op (spec §1), or OutsideFragment for a type mismatch."""
    ka, kb = a.kind, b.kind
    pair = ka + kb
    if op in ("add", "sub"):
        kind = "S" if pair == "SS" else (kb if ka == "S" else ka)
        if ka != kb and "S" not in pair:
            outside(f"{'+' if op == 'add' else '−'} of a {_NAME[ka]} and a {_NAME[kb]}")
    elif op == "mul":
        if pair in ("MM",):
            outside("an elementwise product of matrices")
        if pair in ("VM", "MV"):
            outside("an elementwise product of a vector and a matrix")
        kind = "S" if pair == "SS" else (kb if ka == "S" else ka)
    elif op == "div":
        if kb != "S":
            outside(f"a division by a {_NAME[kb]} (only scalars divide)")
        kind = ka
    elif op == "matmul":
        if "S" in pair:
            outside("@ with a scalar")
        kind = {"MM": "M", "MV": "V", "VM": "V", "VV": "S"}[pair]
    else:
        raise AssertionError(op)
    return _make(a.rec, op, a.rec.emit([op, a.index, b.index]), kind)


_NAME = {"S": "scalar", "V": "batch vector", "M": "matrix"}


def _elementwise_d(value: Sym, op: str, array: np.ndarray, reflected: bool):
    """A traced value with a numpy array of the fixed d side: entrywise, if the value is a scalar."""
    if value.kind != "S":  # numpy would broadcast the array's last axis against the batch
        outside(f"a {_NAME[value.kind]} combined with a fixed-size array")
    out = np.empty(array.shape, dtype=object)
    for k in np.ndindex(array.shape):
        entry = array[k]
        out[k] = _apply(op, entry, value) if reflected else _apply(op, value, entry)
    return out


def _apply(op, a, b):
    return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
            "div": lambda: a / b, "matmul": lambda: a @ b}[op]()


class Columns:
    """An (m, d) input with d fixed: its d columns are vectors "X:0", ..., "X:{d-1}"."""

    __array_ufunc__ = None
    __array_function__ = _numpy_function
    __array__ = _numpy_array
    ndim = 2

    def __init__(self, rec: Recorder, columns: list, transposed: bool = False):
        self.rec, self.columns, self.transposed = rec, list(columns), transposed

    @property
    def shape(self):
        shape = (self.rec.m(), len(self.columns))
        return shape[::-1] if self.transposed else shape

    @property
    def T(self):
        return Columns(self.rec, self.columns, not self.transposed)

    def _each(self, other, f):
        """Entrywise with numpy's broadcasting, which aligns the LAST axis (d): another
        (m, d) matrix, a (d,) array or a scalar; never a batch vector (numpy would pair
        it with the d axis, and needs d = m) nor a transpose or another width."""
        if self.transposed:
            outside("arithmetic on the transpose of a batch matrix")
        if isinstance(other, Columns):
            if other.transposed or len(other.columns) != len(self.columns):
                outside("entrywise arithmetic of batch matrices of different shapes")
            return Columns(self.rec, [f(a, b) for a, b in zip(self.columns, other.columns)])
        if isinstance(other, Sym) and other.kind != "S":
            outside(f"a batch matrix combined entrywise with a {_NAME[other.kind]} (numpy broadcasts "
                    "it along the fixed axis)")
        other = np.asarray(other, dtype=object) if not isinstance(other, Sym) else other
        if isinstance(other, np.ndarray) and other.shape == (len(self.columns),):
            return Columns(self.rec, [f(a, b) for a, b in zip(self.columns, other)])
        if isinstance(other, np.ndarray) and other.shape == ():
            other = other.item()
        if isinstance(other, np.ndarray):
            outside(f"a batch matrix combined with an array of shape {other.shape}")
        return Columns(self.rec, [f(a, other) for a in self.columns])

    def __add__(self, o): return self._each(o, lambda a, b: a + b)
    def __sub__(self, o): return self._each(o, lambda a, b: a - b)
    def __rsub__(self, o): return self._each(o, lambda a, b: b - a)
    def __mul__(self, o): return self._each(o, lambda a, b: a * b)
    def __truediv__(self, o): return self._each(o, lambda a, b: a / b)
    __radd__, __rmul__ = __add__, __mul__

    def __neg__(self):
        return Columns(self.rec, [-a for a in self.columns], self.transposed)

    def __pow__(self, k):
        return Columns(self.rec, [a**k for a in self.columns], self.transposed)

    def __matmul__(self, other):
        if not self.transposed:  # X @ w: w has d entries
            w = np.asarray(other, dtype=object)
            if w.shape != (len(self.columns),):
                outside("a batch matrix times something that is not a fixed-size vector")
            total = None
            for column, weight in zip(self.columns, w):
                term = column * weight
                total = term if total is None else total + term
            return total
        if isinstance(other, Columns) and not other.transposed:  # Xᵀ Y: d × d' sums
            out = np.empty((len(self.columns), len(other.columns)), dtype=object)
            for i, a in enumerate(self.columns):
                for j, b in enumerate(other.columns):
                    out[i, j] = _sum(a * b)
            return out
        if isinstance(other, SymVector):  # Xᵀ v
            return np.array([_sum(a * other) for a in self.columns] + [None], dtype=object)[:-1]
        outside("a product with the transpose of a batch matrix")

    def __rmatmul__(self, other):
        if isinstance(other, SymVector) and not self.transposed:  # vᵀ X
            return np.array([_sum(other * a) for a in self.columns] + [None], dtype=object)[:-1]
        outside("a product with a batch matrix")

    def __getitem__(self, key):
        outside("indexing an entry of a batch matrix")

    def __iter__(self):
        outside("a Python loop over the rows of a batch matrix")

    def __bool__(self):
        outside("a Python branch on a traced value")


def _sum(v: Sym) -> SymScalar:
    if v.kind == "S":
        return v
    if v.kind != "V":
        outside("the sum of a matrix's entries")
    return SymScalar(v.rec, v.rec.emit(["sum", v.index]))
