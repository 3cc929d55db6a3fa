"""A claim traced at a symbolic batch size m AND a symbolic feature count d: the
program of proof method "every-d" (bnproof/checker/every_d.py has its format and
why its normal form is sound; docs/claims.md, "Proofs for every m", "Every d").

Inputs of shape (), (m,), (d,) and (m, d) become tensors whose axes are lengths m or
d, never numbers.  So the program the claim's code records is the same at every d,
and every question whose answer depends on d is refused, recorded on the trace
before it is raised (a claim that catches it is still outside): comparing m or d with
anything (`if X.shape[1] >= 2`), using either as a Python integer (`range(d)`,
`len(w)`), indexing an entry, a row or a column (`X[:, 0]`), iterating, and combining
an axis of length m with one of length d entrywise (numpy would pair them only when
m = d, or broadcast them when one is 1).  Slices `:` and new axes `None` are kept, so
`X[:, None, :] - X[None, :, :]` (all pairs of rows) is traced.  A claim that is
outside here is still proved at each d of its range by the every-m prover.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from fractions import Fraction

import numpy as np

from ..claims.api import Claim
from .column_steps import OPERANDS
from .fragment import OutsideFragment, RefusedAttribute, outside, poison, tracing

MAX_STEPS = 4000
MAX_TENSOR_POW, MAX_POW = 8, 64


class Rec:
    """The program's steps, each once, and the refusals met while recording them."""

    def __init__(self):
        self.steps: list = []
        self._index: dict = {}
        self.refusals: list = []
        self.axes: list = []  # the axes ("m", "d") of each step's value
        self.kinds: dict = {}  # input name -> "scalar" | "vector" | "feature" | "matrix"

    def poison(self, reason: str) -> None:
        if reason not in self.refusals:
            self.refusals.append(reason)

    def emit(self, step: list) -> int:
        key = repr(step)
        if key not in self._index:
            if len(self.steps) >= MAX_STEPS:
                outside(f"more than {MAX_STEPS} steps", self)
            axes = self._axes_of(step)
            self._index[key] = len(self.steps)
            self.steps.append(step)
            self.axes.append(axes)
        return self._index[key]

    def _axes_of(self, step: list) -> tuple:
        """The step's axes by the checker's own typing rule (a step it would reject is a
        defect of this tracer: refused, never recorded)."""
        from ..checker.every_d import _axes
        from ..checker.parse import Rejected

        n = OPERANDS.get(step[0], 0)
        try:
            return _axes(step[0], [self.axes[j] for j in step[1:1 + n]], step[1 + n:], self.kinds,
                         f"step {len(self.steps)}")
        except Rejected as err:
            outside(f"a step the every-d program cannot state ({err})", self)


def _asked_by_tracer() -> bool:
    """Whether the code that asked a T's class (two frames up: past the property) is
    this package's own."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__") in ("abc", "_py_abc"):
        frame = frame.f_back
    return frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _HERE


_HERE = os.path.dirname(os.path.abspath(__file__))
_NOT_THE_CLAIM = tuple(os.path.abspath(p) + os.sep for p in (
    os.path.dirname(np.__file__), sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]))


def _asked_by_claim() -> bool:
    """Whether the Python code two frames up (past __getattr__) is neither this package's,
    numpy's nor the standard library's: the claim's (or its helper module's)."""
    frame = sys._getframe(2)
    if frame is None:
        return False
    path = os.path.abspath(frame.f_code.co_filename)
    return os.path.dirname(path) != _HERE and not path.startswith(_NOT_THE_CLAIM)
TEXT = ("the text of a traced value (str, repr, format, print: numpy prints a number, and m, d are no "
        "numbers here)")


def _refusing(what: str):
    def method(self, *args):
        self._refuse(what)
    return method


def _axes(shape: tuple) -> tuple:
    return tuple(s for s in shape if s != 1)


class T:
    """A traced value: a step of the program and its numpy shape, whose entries are "m",
    "d" or 1 (an axis of length 1 that `None` inserted)."""

    __array_ufunc__ = None  # numpy defers to T's operators, never iterates it
    __array_priority__ = 1000
    # no __dict__ (vars(d) raises for numpy's int, and would not here); a pickle would show
    # the class where numpy's shows the number (d.__reduce_ex__(2)[1] is (int, 5)): refused
    __slots__ = ("_rec", "_i", "_shape")

    def __init__(self, rec: Rec, index: int, shape: tuple):
        self._rec, self._i, self._shape = rec, index, tuple(shape)

    def __copy__(self):
        return self  # immutable: a copy is the same value

    def __deepcopy__(self, memo):
        return self

    def __reduce_ex__(self, protocol):
        self._refuse("a pickled traced value (numpy's pickle holds the number)")

    def __reduce__(self):
        self._refuse("a pickled traced value (numpy's pickle holds the number)")

    # ---- what numpy answers at every m and d
    @property
    def __class__(self):
        # numpy answers isinstance(X.shape[1], int) True and the tracer False: a claim that
        # asks takes here a branch no reading takes, and a branch on d >= 5 behind it is
        # beyond the (m, d) the second reading compares at.  The tracer's own checks pass.
        if not _asked_by_tracer():
            outside("isinstance or the class of a traced value (m, d or a value of the trace)", self._rec)
        return T

    @property
    def shape(self):
        return tuple(1 if s == 1 else T(self._rec, self._rec.emit([s]), ()) for s in self._shape)

    # numpy prints a number ("5" at d = 5): a claim that reads the text would branch on it
    # where no reading can see (beyond the (m, d) compared at), as the every-m tracer refuses
    def __repr__(self):
        if _asked_by_tracer():  # this package's own messages
            return "<traced every-d value>"
        outside(TEXT, self._rec)

    def __str__(self):
        if _asked_by_tracer():
            return "<traced every-d value>"
        outside(TEXT, self._rec)

    def __format__(self, spec):
        if _asked_by_tracer():
            return "<traced every-d value>"
        outside(TEXT, self._rec)

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def T(self):
        if len(self._shape) < 2:
            return self
        if len(self._shape) != 2 or 1 in self._shape:
            outside("the transpose of an array of more than 2 axes, or with an axis of length 1", self._rec)
        return self._unit(["transpose", self._i], self._shape[::-1])

    def _unit(self, step, shape):
        return T(self._rec, self._rec.emit(step), shape)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            # numpy's and the stdlib's protocol probes: not a question of the claim.  The claim's
            # own (hasattr(d, "__getnewargs__"), which an int has) would branch where numpy does not
            if _asked_by_claim() and not name.startswith("__array"):  # numpy's own, from C
                outside(f"the attribute .{name} of a traced value (m, d or a value of the trace)", self._rec)
            raise AttributeError(name)
        reason = f"uses .{name} of a traced value"
        poison(reason, self._rec)
        raise RefusedAttribute(reason)

    # ---- questions whose answer depends on m or d: refused
    def _refuse(self, what):
        outside(what, self._rec)

    def __bool__(self):
        self._refuse("the truth value of a traced value (a branch on m, d or the data)")

    def __int__(self):
        self._refuse("m or d (or a traced value) as a Python integer")

    __index__ = __int__

    def __float__(self):
        self._refuse("a traced value as a float")

    def __len__(self):
        self._refuse("len() of a traced value (its length is m or d)")

    def __iter__(self):
        self._refuse("iteration over a traced value (a loop over m or d)")

    def __hash__(self):
        self._refuse("a traced value as a dict key or set member")

    def _compare(self, other):
        self._refuse("a comparison of m, d or a traced value (a branch on it)")

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _compare

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        shape, rest = [], list(self._shape)
        for k in key:
            if k is None:
                shape.append(1)
            elif isinstance(k, slice) and k == slice(None):
                if not rest:
                    self._refuse("an index beyond the value's axes")
                shape.append(rest.pop(0))
            else:
                self._refuse("indexing an entry, a row or a column (X[:, 0]): a particular column "
                             "is not the same statement at every d")
        return T(self._rec, self._i, tuple(shape + rest))

    # ---- arithmetic
    def _lift(self, x):
        return lift(self._rec, x)

    def _binary(self, op, a, b):
        a, b = self._lift(a), self._lift(b)
        shape = broadcast(self._rec, a._shape, b._shape)
        if op == "div" and _axes(b._shape):
            self._refuse("division by a vector or matrix entrywise")
        return T(self._rec, self._rec.emit([op, _placed(a, shape), _placed(b, shape)]), shape)

    def __add__(self, o): return self._binary("add", self, o)
    def __radd__(self, o): return self._binary("add", o, self)
    def __sub__(self, o): return self._binary("sub", self, o)
    def __rsub__(self, o): return self._binary("sub", o, self)
    def __mul__(self, o): return self._binary("mul", self, o)
    def __rmul__(self, o): return self._binary("mul", o, self)
    def __truediv__(self, o): return self._binary("div", self, o)
    def __rtruediv__(self, o): return self._binary("div", o, self)

    def __neg__(self):
        return self._unit(["neg", self._i], self._shape)

    def __pos__(self):
        return self

    # Python's other numeric protocols: without these methods Python raises a TypeError the
    # trace never sees, which a claim's `except TypeError` turns into a branch numpy never
    # takes (d // 5, d >> 2, 2 ** d, round(d / 5) are numbers under numpy), hidden beyond the
    # (m, d) the second reading compares at.  Each is refused, recorded before it is raised.
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __divmod__ = __rdivmod__ = _refusing(
        "//, % or divmod of a traced value (m, d or the data)")
    __rpow__ = _refusing("a power with a traced exponent")
    __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = __and__ = __rand__ = __or__ = __ror__ = \
        __xor__ = __rxor__ = __invert__ = _refusing("a bitwise operation on a traced value (m, d or the data)")
    __abs__ = _refusing("abs of a traced value (a branch on its sign)")
    __round__ = __trunc__ = __floor__ = __ceil__ = _refusing("rounding a traced value (m, d or the data)")
    __complex__ = _refusing("a traced value as a complex number")
    __index__ = _refusing("m or d (or a traced value) as an index or a Python integer")
    __setitem__ = __delitem__ = _refusing("a change of a traced value in place (numpy changes the array, and "
                                         "every name bound to it)")

    def __iadd__(self, o):
        return self._in_place("add", o)

    def __isub__(self, o):
        return self._in_place("sub", o)

    def __imul__(self, o):
        return self._in_place("mul", o)

    def __itruediv__(self, o):
        return self._in_place("div", o)

    def __ipow__(self, k):
        if _axes(self._shape):
            self._refuse("a change of a traced value in place (numpy changes the array, and every name bound to it)")
        return self ** k

    def __imatmul__(self, o):
        self._refuse("a change of a traced value in place (numpy changes the array, and every name bound to it)")

    def _in_place(self, op, o):
        # numpy's `v += 1` changes the array v, and the input it may be: refused for an array;
        # a scalar (numpy's is immutable) is bound anew, as numpy does
        if _axes(self._shape):
            self._refuse("a change of a traced value in place (numpy changes the array, and every name bound to it)")
        return self._binary(op, self, o)

    def __pow__(self, k):
        if isinstance(k, bool) or not isinstance(k, int):
            self._refuse(f"a power {k!r} that is not an integer")
        limit = MAX_TENSOR_POW if _axes(self._shape) else MAX_POW
        if not (-limit if not _axes(self._shape) else 0) <= k <= limit:
            self._refuse(f"the power {k} (beyond ±{limit}, or negative for a vector: an entrywise division)")
        return self._unit(["pow", self._i, k], self._shape)

    def __matmul__(self, o):
        return matmul(self._rec, self, self._lift(o))

    def __rmatmul__(self, o):
        return matmul(self._rec, self._lift(o), self)


def lift(rec: Rec, x) -> T:
    if isinstance(x, T):
        if x._rec is not rec:
            outside("a value from another trace (kept from an earlier run of the claim)", rec)
        return x
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return T(rec, rec.emit(["const", str(Fraction(x))]), ())
    outside(f"the constant {x!r} of type {type(x).__name__} (write xp.q(p, r) for a rational)", rec)


def broadcast(rec: Rec, a: tuple, b: tuple) -> tuple:
    """numpy's broadcast of two shapes, where m and d never pair with each other."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            outside("an axis of length m combined entrywise with one of length d (numpy would "
                    "pair them only when m = d, or broadcast them when one is 1)", rec)
    return tuple(out)


def _placed(v: T, shape: tuple) -> int:
    """v's step, broadcast to the axes of `shape` where it lacks some of them."""
    mine, target = _axes(v._shape), _axes(shape)
    if not mine or mine == target and len(v._shape) == len(shape) and v._shape == shape:
        return v._i
    full = (1,) * (len(shape) - len(v._shape)) + v._shape
    positions = [sum(1 for s in shape[:p] if s != 1) for p, s in enumerate(full) if s != 1]
    return v._rec.emit(["expand", v._i, list(target), positions])


def matmul(rec: Rec, a: T, b: T) -> T:
    if 1 in a._shape or 1 in b._shape or not a._shape or not b._shape or len(a._shape) > 2 or len(b._shape) > 2:
        outside("a matrix product of values that are not vectors or matrices of lengths m and d", rec)
    ia, ib = len(a._shape) - 1, 0
    if a._shape[ia] != b._shape[ib]:
        outside("a matrix product over axes of lengths m and d", rec)
    shape = a._shape[:ia] + b._shape[1:]
    return T(rec, rec.emit(["dot", a._i, b._i, ia, ib]), shape)


class Namespace:
    """The `xp` of this trace; a name it lacks is outside the fragment, naming it."""

    def __init__(self, rec: Rec):
        self._rec = rec

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        outside(f"xp.{name} (outside the every-d fragment)", self._rec)

    @property
    def kind(self):
        outside("xp.kind", self._rec)

    def _size(self, n):
        """"m" or "d" for a value that is the batch size or the feature count."""
        if isinstance(n, T) and not n._shape and self._rec.steps[n._i] in (["m"], ["d"]):
            return self._rec.steps[n._i][0]
        outside("an array of a fixed length (a length that is not m or d)", self._rec)

    def q(self, p, r=1):
        if all(isinstance(x, int) and not isinstance(x, bool) for x in (p, r)):
            return lift(self._rec, Fraction(p, r))
        return lift(self._rec, p) / lift(self._rec, r)

    def asarray(self, x):
        return lift(self._rec, x)

    def _reduce(self, x, axis, mean):
        x = lift(self._rec, x)
        if axis is None:
            axes = list(range(len(x._shape)))
        elif isinstance(axis, int) and not isinstance(axis, bool) and -len(x._shape) <= axis < len(x._shape):
            axes = [axis % len(x._shape)]
        else:
            outside(f"a reduction over axis {axis!r}", self._rec)
        out = x
        for p in sorted(axes, reverse=True):
            length = out._shape[p]
            shape = out._shape[:p] + out._shape[p + 1:]
            if length == 1:
                out = T(self._rec, out._i, shape)
                continue
            position = sum(1 for s in out._shape[:p] if s != 1)
            out = T(self._rec, self._rec.emit(["sum", out._i, position]), shape)
            if mean:
                out = out / T(self._rec, self._rec.emit([length]), ())
        return out

    def sum(self, x, axis=None):
        return self._reduce(x, axis, False)

    def mean(self, x, axis=None):
        return self._reduce(x, axis, True)

    def sqrt(self, x):
        x = lift(self._rec, x)
        if _axes(x._shape):
            outside("an entrywise square root of a vector or matrix", self._rec)
        return T(self._rec, self._rec.emit(["sqrt", x._i]), x._shape)

    def dot(self, a, b):
        return matmul(self._rec, lift(self._rec, a), lift(self._rec, b))

    def outer(self, a, b):
        a, b = lift(self._rec, a), lift(self._rec, b)
        if len(a._shape) != 1 or len(b._shape) != 1 or 1 in a._shape + b._shape:
            outside("an outer product of values that are not vectors", self._rec)
        return a[:, None] * b[None, :]

    def grad(self, f, x):
        """∇f(x) for a scalar function f: f is traced at a fresh placeholder of x's shape,
        its steps differentiated in reverse mode (columns_grad.py) and written again with
        the placeholder replaced by x, as ordinary steps: the checker replays them as any
        other, and the second reading, which differentiates the claim's own code, is what
        confirms they are the derivative."""
        from .columns_grad import gradient, substitute

        x = lift(self._rec, x)
        kind = {(): "scalar", ("m",): "vector", ("d",): "feature", ("m", "d"): "matrix"}.get(x._shape)
        if kind is None:
            outside(f"xp.grad with respect to a value of shape {x._shape}", self._rec)
        name = f"grad-probe-{len(self._rec.kinds)}"
        self._rec.kinds[name] = kind
        probe = T(self._rec, self._rec.emit(["input", name]), x._shape)
        out = lift(self._rec, f(probe))
        if out._shape:
            outside("xp.grad of a function whose value is not one scalar", self._rec)
        g = gradient(self._rec, out._i, probe._i)
        return T(self._rec, substitute(self._rec, g, probe._i, x._i), x._shape)

    def eye(self, n):
        axis = self._size(n)
        return T(self._rec, self._rec.emit(["eye", axis]), (axis, axis))

    def ones(self, n):
        axis = self._size(n)
        return T(self._rec, self._rec.emit(["expand", self._rec.emit(["const", "1"]), [axis], []]), (axis,))

    def zeros(self, n):
        axis = self._size(n)
        return T(self._rec, self._rec.emit(["expand", self._rec.emit(["const", "0"]), [axis], []]), (axis,))


# ------------------------------------------------------------------ the program

def sizes_of(claim: Claim, batch: str) -> str | None:
    """The claim's feature count: its one size other than the batch size, when every
    variable is a scalar, a batch vector, a feature vector or a (batch, feature) matrix,
    and some variable is such a matrix; else None (no proof for every d is attempted)."""
    others = [n for n in claim.sizes if n != batch]
    if len(others) != 1 or claim.exists or claim.equalities:
        return None
    (feature,) = others
    allowed = {(), (batch,), (feature,), (batch, feature)}
    shapes = {tuple(v.shape) for v in claim.variables}
    if not shapes <= allowed or (batch, feature) not in shapes:
        return None
    if any(v.domain == "symmetric" for v in claim.variables):
        return None
    return feature


def program_for(claim: Claim, batch: str, feature: str) -> dict:
    """The every-d program of the claim; raises OutsideFragment with the first refusal."""
    rec = Rec()
    kinds = {(): "scalar", (batch,): "vector", (feature,): "feature", (batch, feature): "matrix"}
    axes = {"scalar": (), "vector": ("m",), "feature": ("d",), "matrix": ("m", "d")}
    with tracing(rec):
        try:
            declared, values = [], {}
            for var in claim.variables:
                kind = kinds[tuple(var.shape)]
                declared.append([var.name, kind, var.domain if kind == "scalar" else "real"])
                rec.kinds[var.name] = kind
                values[var.name] = T(rec, rec.emit(["input", var.name]), axes[kind])
            xp = Namespace(rec)
            residual = _scalar(rec, claim.residual(xp, **values), "residual")
            hypotheses = [_scalar(rec, h(xp, **values), "hypothesis") for h in claim.hypotheses]
        except (KeyboardInterrupt, MemoryError):
            raise
        except OutsideFragment as err:
            raise OutsideFragment(rec.refusals[0] if rec.refusals else err.reason) from None
        except RecursionError:
            raise OutsideFragment(rec.refusals[0] if rec.refusals else "uses a program nested too deeply") from None
        except Exception as err:  # an operation this tracer does not model: never guessed
            raise OutsideFragment(rec.refusals[0] if rec.refusals else
                                  f"uses an operation the every-d tracer does not model "
                                  f"({type(err).__name__}: {err})") from None
        if rec.refusals:  # the claim caught a refusal: its program is a branch numpy never takes
            raise OutsideFragment(rec.refusals[0])
    steps, new = _prune(rec.steps, [residual] + hypotheses)
    if any(s[0] == "input" and s[1] not in {d[0] for d in declared} for s in steps):
        raise OutsideFragment("uses a value of xp.grad's placeholder argument that its function kept "
                              "(the argument escaped the function)")
    return {"inputs": declared, "steps": steps, "residual": new[residual],
            "hypotheses": [new[h] for h in hypotheses], "kind": claim.kind, "strict": bool(claim.strict)}


def _scalar(rec: Rec, value, what: str) -> int:
    value = lift(rec, value)
    if value._shape:
        outside(f"a {what} that is not one scalar (one per entry of a vector whose length is m or d)", rec)
    return value._i


def _prune(steps: list, roots: list) -> tuple[list, dict]:
    needed, stack = set(), list(roots)
    while stack:
        i = stack.pop()
        if i not in needed:
            needed.add(i)
            stack.extend(steps[i][1:1 + OPERANDS.get(steps[i][0], 0)])
    order = sorted(needed)
    new = {old: k for k, old in enumerate(order)}
    out = []
    for old in order:
        step, n = steps[old], OPERANDS.get(steps[old][0], 0)
        out.append([step[0], *(new[j] for j in step[1:1 + n]), *step[1 + n:]])
    return out, new
