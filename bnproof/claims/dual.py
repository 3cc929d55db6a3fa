"""Forward-mode derivatives with dual numbers a + b·ε (ε² = 0).

Exact backends have no autodiff; duals give claims an independent, exact
derivative (no closed form involved) over any number type: program nodes,
SymPy numbers, Fractions, floats.

Kinks stay straight-line: no Python ``if`` on a value.  d|a| = b·a/|a| and
d max(a, c) = (b_a + b_c)/2 + (b_a − b_c)/2 · (a − c)/|a − c| (min likewise),
exact away from a kink; at a kink the derivative divides by exactly zero, so
an exact backend reports the instance outside the claim's domain instead of
inventing a one-sided derivative (floats raise ZeroDivisionError, which the
float screen counts as undefined; jax.grad returns a one-sided value there,
but it only nominates instances, and the exact engine decides them).  A tie
max(a, c) with a = c is treated as a kink even where both sides have the same
slope (max(x, x)): conservative, the instance is outside, never a wrong value.
A derivative that is the integer 0 (an entry that does not depend on the
variable being differentiated) stays 0, so a partial that does not cross a
kink is defined there.

exp, log, arccos and tanh carry b·exp(a), b/a, −b/√(1 − a²) and b·(1 − tanh²a);
sigmoid is 1/(1 + exp(−x)) in every backend, so it needs no rule of its own.
arccos has no derivative at ±1: the root is exactly 0 there, and the division
puts the instance outside the claim, as at a kink.

Nested gradients (perturbation confusion): every forward pass of ``gradient`` has a
tag of its own, newer than any alive.  A dual of tag t is a + b·ε_t whose parts a, b
may be duals of older tags only; an operand that is not a dual of the operation's
newest tag is a constant for it (its own parts belong to the outer passes).  A pass
takes the b-part of its own tag, so an inner gradient's derivative is never added to
an outer one's (untagged, ∂/∂γ(γ·∂/∂y(γ y)) came out 2y + γ, where it is 2y).  A
value of a pass that has ended (stored by the function and used later) is refused.

Every refusal here poisons the trace it happens in (program/trace.py ``refuse``)."""

from __future__ import annotations

import contextvars
import copy
import itertools

import numpy as np

from ..program.trace import Node, active, attribute_refused, refuse

_TAGS = itertools.count(1)  # a new tag for every forward pass, never reused
# the tags of the passes now running (outermost first)
_RUNNING: contextvars.ContextVar = contextvars.ContextVar("bnproof_dual_tags", default=())


def _program_of(x):
    """The program a dual's values are recorded in (its innermost primal's), else the active one."""
    while isinstance(x, Dual):
        x = x.a
    return x.program if isinstance(x, Node) else active()


class Dual:
    """a + b·ε_tag, ε² = 0; a and b may be duals of older tags (outer gradients)."""

    __slots__ = ("a", "b", "tag")

    def __init__(self, a, b, tag: int):
        self.a, self.b, self.tag = a, b, tag

    def _refuse(self, error: BaseException) -> BaseException:
        return refuse(error, _program_of(self))

    # Truth values, comparisons and hashes are the value's own: a traced value refuses them
    # (so a Python `if` cannot fix a branch of the program), a float answers by value.
    def __bool__(self):
        return bool(self.a)

    def __eq__(self, o):
        return self.a == _primal_of(o, self.tag)

    def __ne__(self, o):
        return self.a != _primal_of(o, self.tag)

    def __lt__(self, o):
        return self.a < _primal_of(o, self.tag)

    def __le__(self, o):
        return self.a <= _primal_of(o, self.tag)

    def __gt__(self, o):
        return self.a > _primal_of(o, self.tag)

    def __ge__(self, o):
        return self.a >= _primal_of(o, self.tag)

    def __hash__(self):
        return hash(self.a)

    # jax.grad refuses a Python number of a value being differentiated, and so do duals
    def _converted(self, *args):
        raise self._refuse(TypeError("a value being differentiated by xp.grad cannot be converted to a "
                                     "Python number (float, int, round, //, %)"))

    __float__ = __int__ = __complex__ = __round__ = __trunc__ = __floor__ = __ceil__ = _converted
    __mod__ = __rmod__ = __floordiv__ = __rfloordiv__ = __divmod__ = __rdivmod__ = _converted

    def __rpow__(self, base):
        raise self._refuse(TypeError("a value being differentiated by xp.grad cannot be an exponent"))

    def __getitem__(self, key):
        raise self._refuse(TypeError("a scalar being differentiated by xp.grad has no entries"))

    def __getattr__(self, name):  # only for attributes a dual does not have
        if name.startswith("__"):
            raise AttributeError(name)
        raise attribute_refused(self, name, _program_of(self))

    # immutable, as the numbers it stands for
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return Dual(copy.deepcopy(self.a, memo), copy.deepcopy(self.b, memo), self.tag)

    def __reduce_ex__(self, protocol):
        raise self._refuse(TypeError("a value being differentiated by xp.grad cannot be pickled"))

    def __add__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        t = _newest(self, o)
        (a, b), (c, e) = _parts(self, t), _parts(o, t)
        return Dual(a + c, _plus(b, e), t)

    __radd__ = __add__

    def __sub__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        t = _newest(self, o)
        (a, b), (c, e) = _parts(self, t), _parts(o, t)
        return Dual(a - c, _minus(b, e), t)

    def __rsub__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        t = _newest(self, o)
        (a, b), (c, e) = _parts(self, t), _parts(o, t)
        return Dual(c - a, _minus(e, b), t)

    def __mul__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        t = _newest(self, o)
        (a, b), (c, e) = _parts(self, t), _parts(o, t)
        return Dual(a * c, _plus(_times(a, e), _times(b, c)), t)

    __rmul__ = __mul__

    def __truediv__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        t = _newest(self, o)
        (a, b), (c, e) = _parts(self, t), _parts(o, t)
        top = _minus(_times(b, c), _times(a, e))
        return Dual(a / c, 0 if _is_zero(top) else top / (c * c), t)

    def __rtruediv__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        t = _newest(self, o)
        (a, b), (c, e) = _parts(self, t), _parts(o, t)
        top = _minus(_times(e, a), _times(c, b))
        return Dual(c / a, 0 if _is_zero(top) else top / (a * a), t)

    def __neg__(self):
        return Dual(-self.a, 0 if _is_zero(self.b) else -self.b, self.tag)

    def __pos__(self):
        return self

    def __pow__(self, k: int):
        if isinstance(k, Dual):
            raise self._refuse(TypeError("a value being differentiated by xp.grad cannot be an exponent"))
        if k == 0:
            return Dual(self.a**0, 0, self.tag)
        return Dual(self.a**k, _times(self.a ** (k - 1) * k, self.b), self.tag)

    # The functions below take the backend's function for the primal, itself extended to
    # duals (claims/xp.py): the primal of a nested dual is a dual of an older tag.
    def sqrt(self, sqrt=np.sqrt):
        root = sqrt(self.a)
        return Dual(root, 0 if _is_zero(self.b) else self.b / (root * 2), self.tag)

    def __abs__(self):
        return self.abs(abs)

    def abs(self, absolute):
        size = absolute(self.a)
        return Dual(size, 0 if _is_zero(self.b) else self.b * self.a / size, self.tag)

    def tanh(self, tanh):
        value = tanh(self.a)
        return Dual(value, 0 if _is_zero(self.b) else self.b * (1 - value * value), self.tag)

    def exp(self, exp):
        value = exp(self.a)
        return Dual(value, 0 if _is_zero(self.b) else self.b * value, self.tag)

    def log(self, log):
        return Dual(log(self.a), 0 if _is_zero(self.b) else self.b / self.a, self.tag)

    def arccos(self, arccos, sqrt):
        # -b/√(1 − a²): at a = ±1 the root is exactly 0 and the division puts the instance
        # outside the claim (arccos has no derivative at the ends of its domain)
        value = arccos(self.a)
        return Dual(value, 0 if _is_zero(self.b) else -self.b / sqrt(1 - self.a * self.a), self.tag)


def _tag(x) -> int:
    return x.tag if isinstance(x, Dual) else 0


def _newest(x, y) -> int:
    return max(_tag(x), _tag(y))


def _parts(x, tag: int):
    """(a, b) of x as a dual of `tag`: a dual of an older tag, or a plain value, is a
    constant there (b = 0), whole."""
    return (x.a, x.b) if isinstance(x, Dual) and x.tag == tag else (x, 0)


def _primal_of(x, tag: int):
    return x.a if isinstance(x, Dual) and x.tag == tag else x


def _is_zero(b) -> bool:
    """An exactly-zero derivative written as a plain integer (not a traced value)."""
    return type(b) is int and b == 0


def _plus(x, y):
    return y if _is_zero(x) else x if _is_zero(y) else x + y


def _minus(x, y):
    return x if _is_zero(y) else -y if _is_zero(x) else x - y


def _times(x, y):
    return 0 if _is_zero(x) or _is_zero(y) else x * y


def maximum(x, y, plain_max, absolute, half, sign: int = 1):
    """max(x, y) (min with sign = −1) where x or y may be a dual; the value is the
    backend's own max/min (extended to duals, for nested ones), the derivative the
    straight-line formula above (half is the backend's exact 1/2)."""
    t = _newest(x, y)
    (a, b), (c, e) = _parts(x, t), _parts(y, t)
    if _is_zero(b) and _is_zero(e):
        return Dual(plain_max(a, c), 0, t)
    diff = a - c
    slope = diff / absolute(diff)  # ±1, a division by exactly 0 at the kink
    return Dual(plain_max(a, c), (b + e) * half + (b - e) * half * slope * sign, t)


def _stale(value, running: set) -> int | None:
    """A tag in value (a dual, its parts, theirs) of no pass now running, or None."""
    stack = [value]
    while stack:
        x = stack.pop()
        if isinstance(x, Dual):
            if x.tag not in running:
                return x.tag
            stack += (x.a, x.b)
    return None


def gradient(fn, x) -> np.ndarray:
    """∇fn(x) for a scalar fn of an array x of any shape (0-d included), one forward pass
    per entry, each with a tag of its own; the gradient has x's shape, as jax.grad's does.
    Each entry is seeded on its own: seeding a whole row (the rows of a 2-d x taken as
    entries) gave directional derivatives along the row instead of partial derivatives."""
    x = np.asarray(x, dtype=object)
    out = np.empty(x.shape, dtype=object)
    outer = _RUNNING.get()
    for k in np.ndindex(x.shape):
        tag = next(_TAGS)
        seeded = np.empty(x.shape, dtype=object)
        for j in np.ndindex(x.shape):
            seeded[j] = Dual(x[j], int(j == k), tag)
        token = _RUNNING.set(outer + (tag,))
        try:
            value = fn(seeded)
        finally:
            _RUNNING.reset(token)
        out[k] = _derivative(value, tag, outer, x[k])
    return out


def _derivative(value, tag: int, outer: tuple, entry):
    """The b-part of this pass's tag in fn's value (0, as a backend number, if the value
    does not depend on the entry)."""
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise refuse(TypeError(f"xp.grad needs a scalar function, got shape {value.shape}"),
                         _program_of(value.reshape(-1)[0]) if value.size else None)
        value = value.reshape(()).item()
    if isinstance(value, Dual) and (isinstance(value.a, np.ndarray) or isinstance(value.b, np.ndarray)):
        raise refuse(TypeError("xp.grad needs a scalar function of the array's entries"), _program_of(value))
    stale = _stale(value, {*outer, tag})
    if stale is not None:
        raise refuse(TypeError("xp.grad: the function's value depends on a value of a gradient's pass "
                               "that has ended (kept by a function from an earlier call)"),
                     _program_of(value))
    b = value.b if isinstance(value, Dual) and value.tag == tag else 0
    return 0 * entry if _is_zero(b) else b
