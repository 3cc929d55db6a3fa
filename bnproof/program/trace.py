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
"""

from __future__ import annotations

from fractions import Fraction

TRANSCENDENTAL = frozenset({"exp", "log", "acos", "tanh", "pi"})
OPS = {"input", "const", "add", "sub", "mul", "div", "neg", "sqrt", "abs", "max", "min", "pow",
       "guard", *TRANSCENDENTAL}
MAX_STEPS = 1_000_000  # a hostile size stops the trace here, before memory runs out


def is_algebraic(steps: list, indices) -> bool:
    """Whether none of these steps is transcendental (so Q(√r) arithmetic applies)."""
    return not any(steps[i][0] in TRANSCENDENTAL for i in indices)


class ProgramTooLarge(ValueError):
    """The traced program would exceed MAX_STEPS steps."""


class Program:
    def __init__(self, max_steps: int = MAX_STEPS):
        self.steps: list[list] = []
        self._consts: dict[Fraction, int] = {}
        self._pi: int | None = None
        self.max_steps = max_steps

    def reserve(self, count: int) -> None:
        """Refuse, before anything is allocated, `count` more steps beyond the limit."""
        if len(self.steps) + count > self.max_steps:
            raise ProgramTooLarge(f"the traced program would exceed {self.max_steps} steps")

    def emit(self, step: list) -> "Node":
        self.reserve(1)
        self.steps.append(step)
        return Node(self, len(self.steps) - 1)

    def const(self, value) -> "Node":
        if isinstance(value, (bool, float, complex, str)):  # never a silent binary fraction or parse
            raise TypeError(f"cannot trace the constant {value!r} (use exact numbers: int or Fraction)")
        value = Fraction(value)
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


class Node:
    """One value of a program; arithmetic on nodes emits steps."""

    __slots__ = ("program", "index")

    def __init__(self, program: Program, index: int):
        self.program, self.index = program, index

    def _lift(self, other) -> "Node":
        if isinstance(other, Node):
            return other
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return self.program.const(other)
        raise TypeError(f"cannot mix a traced value with {type(other).__name__} "
                        "(use exact numbers: int or Fraction)")

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
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= 64:
            raise TypeError("only integer powers 0..64 are traced; use xp.sqrt for roots")
        return self.program.emit(["pow", self.index, k])

    def __abs__(self):
        return self.program.emit(["abs", self.index])

    def __bool__(self):
        raise TypeError("a traced value has no truth value: use xp.maximum/xp.minimum/xp.abs, "
                        "not if/and/or, so that the program stays straight-line")

    # Python's default == compares identity, not value: `x == y` on two inputs would be False
    # at x = y = 1 and silently fix a branch of the program.  Comparisons are refused, like
    # truth values (<, <=, >, >= are undefined already).
    def __eq__(self, other):
        raise TypeError("a traced value cannot be compared with ==/!=: use xp.maximum/xp.minimum/"
                        "xp.abs, so that the program stays straight-line")

    __ne__ = __eq__
    __hash__ = object.__hash__

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

    def max(self, other):
        return self._bin("max", other)

    def guard(self, condition):
        """This value where `condition` ≥ 0, else absent (see the program format)."""
        return self._bin("guard", condition)

    def min(self, other):
        return self._bin("min", other)
