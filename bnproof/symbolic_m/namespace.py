"""The claim namespace ``xp`` at a symbolic batch size: the same residual code
that runs exactly, symbolically and in JAX records the symbolic-length program
here.  What the fragment lacks (relu, abs, max, transcendental functions,
solve, indexing, loops over m) raises OutsideFragment naming it.

Arrays of the fixed side it gives the claim are SymArrays (values.py), and a fixed
size is bounded before anything is allocated: ``ones``, ``zeros``, ``eye`` and
``outer`` of more than MAX_ENTRIES entries are outside the fragment."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from . import tangents
from .fragment import OutsideFragment, outside, poison, refuse
from .values import MAX_STEPS, Columns, Recorder, Sym, SymScalar, SymVector, _exact, _sum, fixed_array, is_array

PROBE = "grad-probe"  # the placeholder input xp.grad calls its function on (never a program input)
PROBE_SCALAR = "grad-probe-scalar"  # the same for a scalar (["input", PROBE_SCALAR, serial])
MAX_ENTRIES = MAX_STEPS  # entries of one fixed-size array the namespace makes


def namespace(rec: Recorder) -> SimpleNamespace:
    def is_m(n) -> bool:
        return isinstance(n, SymScalar) and rec.steps[n._index] == ["m"]

    def lift(x):
        if isinstance(x, Sym):
            return x
        if _exact(x):
            return rec.const(x)
        if is_array(x) and x.shape == ():
            return lift(x.item())
        if isinstance(x, float):
            outside(f"the inexact constant {x!r}")
        return None

    def elementwise(f, x):
        if is_array(x):
            out = np.empty(x.shape, dtype=object)
            for k in np.ndindex(x.shape):
                out[k] = f(x[k])
            return fixed_array(out)
        return f(x)

    def sqrt(x):
        def root(v):
            v = lift(v)
            if v is None or v._kind != "S":
                outside("an elementwise square root of a batch vector")
            return SymScalar(rec, rec.emit(["sqrt", v._index]))
        return elementwise(root, x)

    def total(x, axis=None):
        if isinstance(x, Columns):
            sums = fixed_array(np.array([_sum(c) for c in x._columns] + [None], dtype=object)[:-1])
            if axis is None:
                return functools.reduce(lambda a, b: a + b, sums)
            if axis not in (0, -2, 1, -1):
                outside(f"a sum of a batch matrix over axis {axis!r}")
            if (axis in (0, -2)) != x._transposed:  # over the batch axis: each column's sum
                return sums
            return functools.reduce(lambda a, b: a + b, x._columns)  # over the fixed axis: a row's
        if isinstance(x, Sym):
            if x._kind == "M":  # numpy: axis 0 sums each column (1ᵀM), axis 1 each row (M1)
                ones = SymVector(rec, rec.emit(["ones"]))
                if axis is None:
                    return ones @ (x @ ones)
                if axis in (0, -2):
                    return ones @ x
                if axis in (1, -1):
                    return x @ ones
                outside(f"a sum of a matrix over axis {axis!r}")
            if axis not in (None, 0, -1) or x._kind == "S" and axis is not None:
                outside(f"a sum over axis {axis!r} of a {'scalar' if x._kind == 'S' else 'vector'}")
            return _sum(x)
        x = np.asarray(x, dtype=object)
        if x.size == 0:
            return rec.const(0)
        if any(isinstance(v, (SymVector, Columns)) for v in x.reshape(-1)):
            outside("an array of batch vectors")
        return fixed_array(np.sum(x, axis=axis))

    def length(x, axis):
        if isinstance(x, Sym):  # the mean of a scalar is itself (numpy), not it over m
            return 1 if x._kind == "S" else rec.m()
        x = np.asarray(x, dtype=object)
        return x.size if axis is None else x.shape[axis]

    def mean(x, axis=None):
        if isinstance(x, Columns):
            if axis is None:
                return total(x) / (rec.m() * len(x._columns))
            if axis not in (0, -2, 1, -1):
                outside(f"a mean of a batch matrix over axis {axis!r}")
            over_batch = (axis in (0, -2)) != x._transposed
            return total(x, axis) / (rec.m() if over_batch else rec.const(len(x._columns)))
        if isinstance(x, Sym) and x._kind == "M":
            return total(x, axis) / (rec.m() * rec.m() if axis is None else rec.m())
        n = length(x, axis)
        return total(x, axis) / (n if isinstance(n, Sym) else rec.const(n))

    def q(p, r=1):
        if _exact(p) and _exact(r):
            return rec.const(Fraction(p, r))
        a, b = lift(p), lift(r)
        if a is None or b is None:
            outside(f"xp.q of {p!r}, {r!r}")
        return a if _exact(r) and r == 1 else a / b

    def sized(n, make, what):
        if is_m(n):
            return make()
        if isinstance(n, Sym):
            outside(f"{what} of a traced size other than m")
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 0:
            # numpy raises (a negative or inexact size), where a list repeated n times is empty
            outside(f"{what} of the size {n!r} (numpy takes a size >= 0)")
        if (n * n if what == "eye" else n) > MAX_ENTRIES:
            outside(f"{what} of {n * n if what == 'eye' else n} entries (over the limit of {MAX_ENTRIES})")
        return None

    def ones(n):
        made = sized(n, lambda: SymVector(rec, rec.emit(["ones"])), "ones")
        return made if made is not None else fixed_array(np.array([rec.const(1) for _ in range(n)], dtype=object))

    def zeros(n):
        made = sized(n, lambda: SymVector(rec, rec.emit(["ones"])) * 0, "zeros")
        return made if made is not None else fixed_array(np.array([rec.const(0) for _ in range(n)], dtype=object))

    def eye(n):
        from .values import SymMatrix
        made = sized(n, lambda: SymMatrix(rec, rec.emit(["eye"])), "eye")
        if made is not None:
            return made
        return fixed_array(np.array([[rec.const(int(i == j)) for j in range(n)] for i in range(n)],
                                    dtype=object).reshape(n, n))

    def asarray(x):
        if isinstance(x, (Sym, Columns)):
            return x
        if isinstance(x, (list, tuple)) and any(isinstance(v, (SymVector, Columns)) for v in x):
            outside("an array built from batch vectors")
        return fixed_array(np.asarray(x, dtype=object))

    def dot(a, b):
        if isinstance(a, (Sym, Columns)) or isinstance(b, (Sym, Columns)):
            return a @ b
        return fixed_array(np.dot(np.asarray(a, dtype=object), np.asarray(b, dtype=object)))

    def outer(a, b):
        if isinstance(a, SymVector) and isinstance(b, SymVector):
            from .values import SymMatrix
            return SymMatrix(rec, rec.emit(["outer", a._index, b._index]))
        if isinstance(a, SymVector) and _fixed_vector(b):  # 1cᵀ: column j is a·c_j
            return Columns(rec, [a * c for c in np.asarray(b, dtype=object).reshape(-1)])
        if _fixed_vector(a) and isinstance(b, SymVector):  # c1ᵀ: (d, m), numpy's (1cᵀ)ᵀ
            return Columns(rec, [b * c for c in np.asarray(a, dtype=object).reshape(-1)], True)
        if isinstance(a, (Sym, Columns)) or isinstance(b, (Sym, Columns)):
            outside("an outer product that is not of two batch vectors, or of a batch vector "
                    "and a fixed-size array")
        a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
        if a.size * b.size > MAX_ENTRIES:
            outside(f"an outer product of {a.size * b.size} entries (over the limit of {MAX_ENTRIES})")
        return fixed_array(np.outer(a, b))

    serial = itertools.count()

    def grad(fn, x):
        if isinstance(x, SymScalar) or is_array(x):
            return scalar_grad(fn, x)
        if not isinstance(x, SymVector):
            outside("a gradient with respect to something that is not a batch vector, a scalar or "
                    "an array of scalars")
        # xp.grad(fn, x) differentiates fn's argument only (the exact and JAX backends seed
        # a fresh variable): a value fn reads from outside that depends on x is a constant
        # there, but ["grad", f, x] would differentiate it too.  So ["grad", f, x] is written
        # only for an input x that fn, applied to a placeholder, does not reach; otherwise
        # (a closure, a computed point) fn's recorded steps at the placeholder are
        # differentiated in reverse mode and written again at x (tangents.py).  A value fn
        # keeps from its placeholder (an escape) is refused by program_for when the residual
        # or a hypothesis reads it (the placeholder is no input of the program).
        placeholder = SymVector(rec, rec.emit(["input", PROBE, next(serial)]))
        probe = scalar_of(fn(placeholder))
        if rec.steps[x._index][0] == "input" and x._index not in reachable(probe._index):
            value = scalar_of(fn(x))
            return SymVector(rec, rec.emit(["grad", value._index, x._index]))
        return tangents.gradient_at(rec, probe._index, placeholder._index, x)

    def scalar_grad(fn, x):
        """∂fn/∂c for a scalar c, or the partial derivatives for an array w of scalars of
        the fixed side, with w's shape.  At the claim's own inputs, not read by fn other
        than through its argument: one ["grad", f, c] step per entry, which the checker
        differentiates itself.  Anywhere else (a computed point such as c·w, or a closure
        that reads the input): forward mode over fn's recorded steps (tangents.py)."""
        entries = [lift(e) for e in ([x] if isinstance(x, SymScalar) else list(x.reshape(-1)))]
        if not entries or any(e is None or e._kind != "S" for e in entries):
            outside("a gradient with respect to an array that is not of scalars")
        # fresh placeholders for each call: a nested xp.grad's own are other steps than these
        probes = [SymScalar(rec, rec.emit(["input", PROBE_SCALAR, next(serial)])) for _ in entries]
        argument = probes[0] if isinstance(x, SymScalar) else fixed_array(
            np.array(probes + [None], dtype=object)[:-1].reshape(x.shape))
        probe = scalar_of(fn(argument))
        indices = [e._index for e in entries]
        at_inputs = all(rec.steps[i][0] == "input" for i in indices) and len(set(indices)) == len(indices)
        if at_inputs and not set(indices) & reachable(probe._index):
            value = scalar_of(fn(x))
            parts = [SymScalar(rec, rec.emit(["grad", value._index, i])) for i in indices]
        else:
            parts = tangents.at_point(rec, probe._index, [p._index for p in probes], entries)
        if isinstance(x, SymScalar):
            return parts[0]
        return fixed_array(np.array(parts + [None], dtype=object)[:-1].reshape(x.shape))

    def scalar_of(value):
        if is_array(value) and value.size == 1:
            value = value.reshape(()).item()
        value = lift(value)
        if value is None or value._kind != "S":
            outside("a gradient of something that is not one scalar")
        return value

    def reachable(index: int) -> set:
        seen, stack = set(), [index]
        while stack:
            i = stack.pop()
            if i not in seen:
                seen.add(i)
                step = rec.steps[i]
                stack.extend(step[1:2] if step[0] == "pow" else
                             () if step[0] in ("input", "const") else step[1:])
        return seen

    functions = dict(
        sum=total, mean=mean, sqrt=sqrt, dot=dot, outer=outer, ones=ones, zeros=zeros, eye=eye,
        asarray=asarray, q=q, grad=grad,
        abs=refuse("abs"), maximum=refuse("maximum"), minimum=refuse("minimum"),
        max=refuse("max"), min=refuse("min"), relu=refuse("relu"), leaky_relu=refuse("leaky_relu"),
        tanh=refuse("tanh"), exp=refuse("exp"), log=refuse("log"), arccos=refuse("arccos"),
        sigmoid=refuse("sigmoid"), solve=refuse("solve (elimination over the fixed side)"),
        expect=refuse("expectations over random batches"), var=refuse("variances over random batches"),
        guard=refuse("guarded candidates (sets)"),
    )
    return SimpleNamespace(**{name: _guarded(f, rec) for name, f in functions.items()})


def _fixed_vector(x) -> bool:
    """An array of the fixed side with no batch value in it (numpy's outer flattens it)."""
    if isinstance(x, (Sym, Columns)) or not (is_array(x) or isinstance(x, (list, tuple))):
        return False
    entries = np.asarray(x, dtype=object).reshape(-1)
    return 0 < entries.size <= MAX_ENTRIES and all(
        _exact(e) or isinstance(e, (SymScalar, np.integer)) and not isinstance(e, np.bool_) for e in entries)


def _guarded(f, rec: Recorder):
    """f, with any exception leaving it recorded on this trace first (a claim that catches
    it is still outside the fragment): the namespace's refusals, numpy's errors, and those
    of a function xp.grad calls."""
    @functools.wraps(f)
    def function(*args, **kwargs):
        try:
            return f(*args, **kwargs)
        except OutsideFragment as err:
            poison(err.reason, rec)
            raise
        except Exception as err:
            poison(f"uses an operation the symbolic-length backend does not model "
                   f"({type(err).__name__}: {err})", rec)
            raise
    return function


class _PiNamespace(SimpleNamespace):
    """xp.pi is refused (transcendental) when a claim touches it, and so is xp.kind: a claim
    that asks which backend runs it may compute another residual under each."""

    def __getattr__(self, name):
        if name == "pi":
            outside("π (transcendental)", self.__dict__.get("_rec"))
        if name == "kind":
            outside("xp.kind (a claim that asks which backend traces it)", self.__dict__.get("_rec"))
        raise AttributeError(name)

    def __copy__(self):  # a copy would clone the recorder: the same namespace serves
        return self

    def __deepcopy__(self, memo):
        return self


def symbolic_length(rec: Recorder):
    """The claim namespace at a symbolic batch size, recording into rec."""
    return _PiNamespace(**vars(namespace(rec)), _rec=rec)
