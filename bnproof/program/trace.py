"""Record a claim's residual as a straight-line program over the instance.

A claim is written once against an array namespace ``xp`` (see
``bnproof.claims.xp``).  Run on numpy object arrays of ``Node`` it records
every arithmetic step: the program is what the exact evaluator replays, what
a certificate carries, and what the checker re-executes.  Nothing here ever
evaluates text.

Program format (also the certificate's): a list of steps, step i defines
value i.
    ["input", name, index...]   an instance entry, e.g. ["input", "X", 2, 0]
    ["const", "p/q"]            a rational constant
    ["add", i, j] ["sub", i, j] ["mul", i, j] ["div", i, j]
    ["neg", i] ["sqrt", i] ["abs", i] ["max", i, j] ["min", i, j]
    ["pow", i, k]               integer power k ≥ 0
    ["exp", i] ["log", i] ["acos", i] ["tanh", i]
                                transcendental functions (log needs its argument
                                > 0, acos needs it in [-1, 1]); xp.sigmoid(x) traces
                                to 1/(1 + exp(-x)), so it needs no step of its own
    ["pi"]                      the constant π (nullary)
    ["guard", i, j]             value i where value j ≥ 0, else absent (+∞): "min"
                                ignores an absent operand, every other step on an
                                absent value is undefined, and so is an absent output
                                (the min over candidates of which none qualifies)
Transcendental steps are decided with rigorous balls only, never by the algebraic
exact zero test or the identity prover (``TRANSCENDENTAL``, ``is_algebraic``).

Refusals poison.  The tracer says "outside the fragment" by raising (a truth value,
a comparison, a float, a power above MAX_POWER, a copy of the recorder, ...), and a
claim's ``try: ... except Exception:`` could catch that and go on along a branch
numpy would never take.  So every refusal is first recorded on its Program
(``Program.refuse``, or ``refuse`` for the active program: ``with program:``), and
``Program.check`` raises TraceRefused once the claim's functions have returned,
whatever they caught: a poisoned program is never judged (claims/decide.py).

Traced values behave as an ndarray of immutable numbers: arrays are numpy's own
object arrays; a Node is immutable (a copy or deep copy is the node itself, the
Program refuses to be copied), and what numpy's numbers would answer by value or in
two ways (np.float64 has .shape, a Python float has not) is a refusal.

The class a claim sees.  Every scalar numpy computes from the claim's arrays is an
np.float64, so a Node answers ``isinstance`` as np.float64 does (a float, an
np.floating, a numbers.Real, never an int nor an ndarray): its ``__class__`` is
np.float64 to every asker but bnproof's own machinery (this package, claims/xp.py,
object_xp.py, dual.py, moments.py, decide.py, exists.py) and ``fractions`` (whose operators would
otherwise convert a "float" operand with float() instead of deferring to the node).
The reference reading (reading/values.py) answers the same way, so both exact
readings take numpy's branch.  Refusing every such question (the symbolic-length
tracer's rule, where ``xp.asarray`` of a scalar is no 0-d array and the class has no
one answer) would withhold claims that ask ``isinstance(v, numbers.Real)``, which
every number numpy gives a claim answers alike.  Where numpy's own numbers disagree
(a scalar input is a Python float in the float screen: np.floating says False
there), the branch does not depend on the value, so numpy's float64 reading
(reading/floats.py) sees the difference at every instance it compares; ``type(v)``
cannot be made to lie, and that check is its backstop too.

What only floats answer is refused and poisons, as a conversion to float is: the
``dtype`` of an array of traced values (numpy's is object, the float readings'
float64: a claim's own ``y.dtype`` is refused, numpy's and bnproof's internal
questions are answered), and numpy's ufuncs that have no exact reading on object
arrays (np.isnan, np.isfinite, np.sin, ...: numpy raises TypeError there, which a
claim could catch and branch on; float64 arrays give a number).  Arrays of traced
values are therefore a thin ndarray subclass (``TracedArray``: the claim's inputs,
what the namespace makes, and what numpy's ufuncs make of them); both it and Node
have an ``__array_ufunc__`` that runs the exact ufuncs (arithmetic, powers, @,
abs, sqrt, exp, log, arccos, tanh, maximum, minimum, comparisons, and functions of
the claim's own applied entry by entry) on plain object arrays and refuses every
other one with a recorded refusal.  ``type(y)`` of such an array is the subclass,
not np.ndarray: numpy's float64 reading is the check on that too.
"""

from __future__ import annotations

import contextvars
import fractions
import numbers
import os
import sys
from fractions import Fraction

import numpy as np

TRANSCENDENTAL = frozenset({"exp", "log", "acos", "tanh", "pi"})
OPS = {"input", "const", "add", "sub", "mul", "div", "neg", "sqrt", "abs", "max", "min", "pow",
       "guard", *TRANSCENDENTAL}
MAX_STEPS = 1_000_000  # a hostile size stops the trace here, before memory runs out
MAX_POWER = 64  # ["pow", i, k] has 0 <= k <= MAX_POWER


def is_algebraic(steps: list, indices) -> bool:
    """Whether none of these steps is transcendental (so Q(√r) arithmetic applies)."""
    return not any(steps[i][0] in TRANSCENDENTAL for i in indices)


class ProgramTooLarge(ValueError):
    """The traced program would exceed MAX_STEPS steps."""


class TraceRefused(ValueError):
    """The tracer refused something while the claim ran (a truth value, a float, a copy
    of the recorder, ...) and the claim's code went on anyway, having caught the
    refusal: the program it returned is that of another branch than numpy would take,
    so it is never judged.  `reason` is the first refusal's message, `error` the
    refusal itself (its traceback shows where the claim's code met it)."""

    def __init__(self, reason: str, error: BaseException | None = None, count: int = 1):
        more = f" (and {count - 1} more refusals)" if count > 1 else ""
        caught = (" (the claim's code caught this refusal of the tracer and went on: the program "
                  "it returned is not judged)" if error is not None and error.__traceback__ else "")
        super().__init__(f"{reason}{more}{caught}")
        self.reason, self.error = reason, error


# The program whose trace is running, for refusals raised where no traced value is at hand
# (xp.grad of a non-scalar, xp.expect's polynomial values, the blocks' arguments).
_ACTIVE: contextvars.ContextVar = contextvars.ContextVar("bnproof_active_program", default=None)


def active() -> "Program | None":
    return _ACTIVE.get()


def refuse(error: BaseException, program: "Program | None" = None) -> BaseException:
    """Record `error` as a refusal on `program` (else the active one, if any) and return it,
    to be raised: ``raise refuse(TypeError(...))``.  Outside a trace it is only returned."""
    program = program if program is not None else _ACTIVE.get()
    if program is not None:
        program.refuse(error)
    return error


class Program:
    """The step recorder of one trace.  A refusal (``refuse``) poisons it for good: whatever
    the claim's code does with the exception, ``check`` raises TraceRefused afterwards.
    Used as a context manager it is the active program (``refuse`` without a program)."""

    def __init__(self, max_steps: int = MAX_STEPS):
        self.steps: list[list] = []
        self._consts: dict[Fraction, int] = {}
        self._pi: int | None = None
        self.max_steps = max_steps
        self._refusal: BaseException | None = None  # the first refusal; later ones only counted
        self.refusals = 0
        self._tokens: list = []

    # ------------------------------------------------------------ poison

    def refuse(self, error: BaseException) -> BaseException:
        """Record a refusal (once per exception object) and return it, to be raised."""
        if getattr(error, "_bnproof_refused_by", None) is not self:
            try:
                error._bnproof_refused_by = self
            except AttributeError:  # an exception type with __slots__: counted again if re-raised
                pass
            self.refusals += 1
            if self._refusal is None:
                self._refusal = error
        return error

    @property
    def poison(self) -> str | None:
        """The first refusal's reason, or None if nothing was refused."""
        return None if self._refusal is None else _reason(self._refusal)

    def check(self) -> None:
        """Raise TraceRefused if anything was refused during the trace."""
        if self._refusal is not None:
            error = self._refusal
            raise TraceRefused(_reason(error), error, self.refusals).with_traceback(error.__traceback__)

    def __enter__(self) -> "Program":
        self._tokens.append(_ACTIVE.set(self))
        return self

    def __exit__(self, *exc) -> None:
        _ACTIVE.reset(self._tokens.pop())

    # A copy would record the claim's later steps in a second program while the first one is
    # judged: the recorder is one per trace.
    def __copy__(self):
        raise self.refuse(TypeError("the program recorder of a trace cannot be copied"))

    def __deepcopy__(self, memo):
        raise self.refuse(TypeError("the program recorder of a trace cannot be copied"))

    def __reduce_ex__(self, protocol):
        raise self.refuse(TypeError("the program recorder of a trace cannot be pickled"))

    # ------------------------------------------------------------ steps

    def reserve(self, count: int) -> None:
        """Refuse, before anything is allocated, `count` more steps beyond the limit."""
        if len(self.steps) + count > self.max_steps:
            raise self.refuse(ProgramTooLarge(f"the traced program would exceed {self.max_steps} steps"))

    def emit(self, step: list) -> "Node":
        self.reserve(1)
        self.steps.append(step)
        return Node(self, len(self.steps) - 1)

    def const(self, value) -> "Node":
        refused = TypeError(f"cannot trace the constant {value!r} (use exact numbers: int or Fraction)")
        if isinstance(value, (bool, np.bool_, float, complex, str)):  # never a binary fraction or a parse
            raise self.refuse(refused)
        try:
            value = Fraction(value)
        except (TypeError, ValueError):
            raise self.refuse(refused) from None
        if value not in self._consts:
            self.reserve(1)
            self._consts[value] = len(self.steps)
            self.steps.append(["const", str(value)])
        return Node(self, self._consts[value])

    def pi(self) -> "Node":
        """The constant π, one step however often it is used."""
        if self._pi is None:
            self._pi = self.emit(["pi"]).index
        return Node(self, self._pi)


def _reason(error: BaseException) -> str:
    return str(error) or type(error).__name__


# What a number of numpy or Python has and a traced scalar has not: numpy's scalars
# (np.float64: .shape, .size, .item(), ...), Python's float and Fraction (.numerator,
# .is_integer(), ...).  numpy itself gives a scalar two answers (a Python float has no
# .shape, np.float64 has ()), so the branch a claim takes on them is not determined:
# reading one poisons the trace.
NUMBER_ATTRIBUTES = frozenset(
    name for kind in (np.float64, float, Fraction, int) for name in dir(kind) if not name.startswith("_"))


def attribute_refused(value, name: str, program: "Program | None") -> AttributeError:
    """The AttributeError for a missing attribute of a traced scalar: recorded as a
    refusal when numbers have the attribute (see NUMBER_ATTRIBUTES)."""
    error = AttributeError(f"a traced scalar has no .{name}: numpy's numbers disagree on it "
                           "(np.float64 has it, a Python float may not), so the claim's branch "
                           "would not be numpy's")
    if name in NUMBER_ATTRIBUTES:
        return refuse(error, program)
    return AttributeError(f"{type(value).__name__!r} object has no attribute {name!r}")


def _exact_spelling(value: float) -> str:
    """How to write a float constant exactly: 1/3 in Python is 0.333…, a float, so
    `(1/3) * x` names xp.q(1, 3), the exact third the claim means."""
    import math

    if not math.isfinite(value):
        return "a claim's constants are exact numbers (int, Fraction or xp.q(p, q))"
    guess = Fraction(value).limit_denominator(10**6)
    if float(guess) == value and guess.denominator > 1:
        return (f"write xp.q({guess.numerator}, {guess.denominator}) (or Fraction({guess.numerator}, "
                f"{guess.denominator})) for the exact {guess}")
    if float(guess) == value:
        return f"write {guess.numerator}, an int"
    return "write it exactly, as xp.q(p, q) or a Fraction"


class Node:
    """One value of a program; arithmetic on nodes emits steps.

    A node is an immutable exact number: copies are the node itself.  What numpy's
    numbers answer and a node cannot answer the same way (a truth value, a comparison,
    float(), hashing by value, a numpy scalar's attributes) is a refusal: it raises
    and poisons the program (Program.refuse), so that a claim which catches it is
    still never judged on the branch it took instead."""

    __slots__ = ("program", "index")

    def __init__(self, program: Program, index: int):
        self.program, self.index = program, index

    def _refuse(self, error: BaseException) -> BaseException:
        return self.program.refuse(error)

    def _lift(self, other) -> "Node":
        if isinstance(other, Node):
            if other.program is not self.program:
                raise self._refuse(TypeError("a traced value of another trace (a copy of the program "
                                             "recorder?) cannot be combined with this one"))
            return other
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return self.program.const(other)
        if isinstance(other, float):
            raise self._refuse(TypeError(f"cannot mix a traced value with the float {other!r}: "
                                         f"{_exact_spelling(other)}"))
        raise self._refuse(TypeError(f"cannot mix a traced value with {type(other).__name__} "
                                     "(use exact numbers: int or Fraction)"))

    def _bin(self, op, other, swap=False):
        if not isinstance(other, (Node, int, Fraction, float)):
            return NotImplemented  # numpy arrays apply it elementwise; duals carry a derivative
        other = self._lift(other)
        a, b = (other, self) if swap else (self, other)
        return self.program.emit([op, a.index, b.index])

    def __add__(self, o):
        return self._bin("add", o)

    def __radd__(self, o):
        return self._bin("add", o, True)

    def __sub__(self, o):
        return self._bin("sub", o)

    def __rsub__(self, o):
        return self._bin("sub", o, True)

    def __mul__(self, o):
        return self._bin("mul", o)

    def __rmul__(self, o):
        return self._bin("mul", o, True)

    def __truediv__(self, o):
        return self._bin("div", o)

    def __rtruediv__(self, o):
        return self._bin("div", o, True)

    def __neg__(self):
        return self.program.emit(["neg", self.index])

    def __pos__(self):
        return self

    def __pow__(self, k):
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= MAX_POWER:
            raise self._refuse(TypeError(f"only integer powers 0..{MAX_POWER} are traced; use xp.sqrt "
                                         "for roots"))
        return self.program.emit(["pow", self.index, k])

    def __abs__(self):
        return self.program.emit(["abs", self.index])

    def __bool__(self):
        raise self._refuse(TypeError("a traced value has no truth value: use xp.maximum/xp.minimum/"
                                     "xp.abs, not if/and/or, so that the program stays straight-line"))

    # Python's default == compares identity, not value: `x == y` on two inputs would be False
    # at x = y = 1 and silently fix a branch of the program.  Comparisons are refused, like
    # truth values.
    def _compared(self, other):
        raise self._refuse(TypeError("a traced value cannot be compared (==, !=, <, <=, >, >=): use "
                                     "xp.maximum/xp.minimum/xp.abs, so that the program stays "
                                     "straight-line"))

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _compared

    # numpy's numbers hash by value (equal values are one dict key), a node could only hash
    # by identity: a set or dict of values would have another size than under numpy
    def __hash__(self):
        raise self._refuse(TypeError("a traced value cannot be hashed (a set or dict key): equal "
                                     "values are not known to be equal while tracing"))

    def _converted(self, *args):
        raise self._refuse(TypeError("a traced value cannot be converted to a Python number (float, "
                                     "int, round, //, %): the program must stay exact"))

    __float__ = __int__ = __complex__ = __round__ = __trunc__ = __floor__ = __ceil__ = _converted
    __mod__ = __rmod__ = __floordiv__ = __rfloordiv__ = __divmod__ = __rdivmod__ = _converted

    def __rpow__(self, base):
        raise self._refuse(TypeError("a traced value cannot be an exponent (only integer powers "
                                     f"0..{MAX_POWER} of a value are traced)"))

    def __matmul__(self, other):
        raise self._refuse(TypeError("@ of a traced scalar: numpy refuses a 0-d operand of matmul"))

    __rmatmul__ = __matmul__

    def __repr__(self):  # a placeholder, never the value (a debugging print must not poison)
        return f"<traced value {self.index}>"

    # isinstance asks this when the class asked for is not Node's own: a claim (or numpy's
    # own Python code) sees numpy's float64, bnproof's machinery and Fraction's operators
    # the node (see the module docstring)
    @property
    def __class__(self):
        return Node if _asker(1) == OWN else np.float64

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _exact_ufunc(self.program, ufunc, method, inputs, kwargs)

    # immutable: a copy is the value itself (a clone of the program would record the claim's
    # later steps in a program that is not judged)
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce_ex__(self, protocol):
        raise self._refuse(TypeError("a traced value cannot be pickled"))

    # np.float64 has v[()] (and IndexError for v[0]), a Python number has no items at all
    def __getitem__(self, key):
        raise self._refuse(TypeError("a traced scalar has no entries: numpy's numbers disagree on "
                                     "v[()] (np.float64 has it, a Python float has not)"))

    def __getattr__(self, name):  # only for attributes a node does not have
        if name.startswith("__"):  # numpy and copy probe __array__, __deepcopy__, ...
            raise AttributeError(name)
        raise attribute_refused(self, name, self.program)

    def sqrt(self):
        return self.program.emit(["sqrt", self.index])

    def tanh(self):
        return self.program.emit(["tanh", self.index])

    def exp(self):
        return self.program.emit(["exp", self.index])

    def log(self):
        return self.program.emit(["log", self.index])

    def arccos(self):
        return self.program.emit(["acos", self.index])

    # x.max()/x.min() of a numpy number is the number (a reduction): only the binary
    # form, which xp.maximum/xp.minimum use, is traced
    def max(self, other=None):
        if other is None:
            raise attribute_refused(self, "max", self.program)
        return self._bin("max", other)

    def guard(self, condition):
        """This value where `condition` ≥ 0, else absent (see the program format)."""
        return self._bin("guard", condition)

    def min(self, other=None):
        if other is None:
            raise attribute_refused(self, "min", self.program)
        return self._bin("min", other)


# isinstance(v, numbers.Real) is True for every number numpy gives a claim (np.float64, a
# Python float, a Fraction): a traced scalar answers the same (its conversions are refusals)
numbers.Real.register(Node)


# ---------------------------------------------------------------- what only floats answer

OWN, NUMPY, CLAIM = "own", "numpy", "claim"
_HERE = os.path.dirname(os.path.abspath(__file__))
_CLAIMS = os.path.join(os.path.dirname(_HERE), "claims")
_MACHINERY = frozenset(os.path.join(_CLAIMS, name) for name in
                       ("xp.py", "object_xp.py", "dual.py", "moments.py", "decide.py", "exists.py"))
_FRACTIONS = os.path.abspath(fractions.__file__)
_NUMPY = os.path.dirname(os.path.abspath(np.__file__)) + os.sep
_ABC = frozenset(os.path.abspath(f) for f in (__import__("abc").__file__, __import__("_py_abc").__file__))
_ASKERS: dict = {}  # code object -> OWN | NUMPY | CLAIM


def _asker(depth: int) -> str:
    """Who asks, `depth` frames above the caller (past abc's __instancecheck__): bnproof's
    own machinery or Fraction's operators (OWN), numpy's own Python code (NUMPY), or the
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
                OWN if path in _MACHINERY or path == _FRACTIONS or os.path.dirname(path) == _HERE else
                NUMPY if path.startswith(_NUMPY) else CLAIM)
        if len(_ASKERS) < 100_000:
            _ASKERS[code] = kind
    return kind


# numpy's ufuncs whose object loops call an operator or method the traced values implement
# as numpy's float64 does (or refuse themselves: a comparison, a float exponent)
_EXACT = frozenset({np.add, np.subtract, np.multiply, np.true_divide, np.negative, np.positive,
                    np.power, np.matmul, np.absolute, np.sqrt, np.exp, np.log, np.arccos, np.tanh,
                    np.maximum, np.minimum, np.equal, np.not_equal, np.less, np.less_equal,
                    np.greater, np.greater_equal})


def _is_exact(ufunc) -> bool:
    """An exact ufunc, or one made by np.frompyfunc/np.vectorize (its only loop runs a
    Python function of the claim's on each entry)."""
    if ufunc in _EXACT:
        return True
    try:
        return set(ufunc.types) == {"O" * ufunc.nin + "->" + "O" * ufunc.nout}
    except (AttributeError, TypeError):
        return False


def _exact_ufunc(program: "Program | None", ufunc, method: str, inputs, kwargs):
    """A ufunc on traced values: an exact one on plain object arrays (results of the
    claim's arrays are TracedArrays again); any other a recorded refusal, where numpy
    would raise a TypeError the claim could catch."""
    if not _is_exact(ufunc):
        name = getattr(ufunc, "__name__", "ufunc")
        raise refuse(TypeError(f"numpy.{name} of a traced value: numpy has no exact reading of it (on "
                               "object arrays it raises TypeError, on float64 arrays it gives a number; "
                               "use xp)"), program)
    out = kwargs.get("out")
    if out is not None:
        kwargs["out"] = tuple(_plain(o) for o in out)
    result = getattr(ufunc, method)(*(_plain(x) for x in inputs), **kwargs)
    if out is not None:
        return out[0] if len(out) == 1 else out
    return tuple(map(traced_array, result)) if isinstance(result, tuple) else traced_array(result)


def _plain(x):
    if type(x) is TracedArray:
        return np.ndarray.view(x, np.ndarray)
    if type(x) is Node:  # a 0-d object array: no override is left, numpy's object loop runs
        box = np.empty((), dtype=object)
        box[()] = x
        return box
    return x


def traced_array(x):
    """x as a TracedArray when it is a plain object array (anything else as it is)."""
    if type(x) is np.ndarray and x.dtype == object:
        return x.view(TracedArray)
    return x


def _program_of(array: np.ndarray) -> "Program | None":
    program = active()
    if program is None:
        for v in np.ndarray.view(array, np.ndarray).flat[:1000]:
            if type(v) is Node:
                return v.program
    return program


_DTYPE = np.ndarray.dtype


class TracedArray(np.ndarray):
    """numpy's object array of traced values, as a claim holds it: the same array (shape,
    indexing, broadcasting, copies), except that the claim's own ``dtype`` question and
    numpy's inexact ufuncs are refusals (see the module docstring)."""

    @property
    def dtype(self):
        if _asker(1) != CLAIM:
            return _DTYPE.__get__(self)
        raise refuse(TypeError("the dtype of an array of traced values (numpy's object dtype, where "
                               "numpy's own arrays of the claim are float64): a claim that asks it may "
                               "take another branch than numpy does"), _program_of(self))

    def tobytes(self, *args, **kwargs):
        raise refuse(TypeError("the bytes of an array of traced values"), _program_of(self))

    def view(self, *args, **kwargs):
        wanted = kwargs.get("dtype", args[0] if args else None)
        if wanted is not None and not (isinstance(wanted, type) and issubclass(wanted, np.ndarray)) \
                and _asker(1) == CLAIM:
            raise refuse(TypeError("a view of an array of traced values as another dtype"), _program_of(self))
        return super().view(*args, **kwargs)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _exact_ufunc(_program_of(self), ufunc, method, inputs, kwargs)

    # printed as numpy prints it: the class's name is no text a claim could branch on
    def __repr__(self):
        return repr(np.ndarray.view(self, np.ndarray))

    def __str__(self):
        return str(np.ndarray.view(self, np.ndarray))
