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
puts the instance outside the claim, as at a kink."""

from __future__ import annotations

import numpy as np


class Dual:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b

    @staticmethod
    def _split(x):
        return (x.a, x.b) if isinstance(x, Dual) else (x, 0)

    # Truth values and ==/!= are the value's own: a traced value refuses them (so a Python
    # `if` cannot fix a branch of the program), a float answers by value.  Without these a
    # dual would be always true and equal only to itself.
    def __bool__(self):
        return bool(self.a)

    def __eq__(self, o):
        return self.a == self._split(o)[0]

    def __ne__(self, o):
        return self.a != self._split(o)[0]

    __hash__ = object.__hash__

    def __add__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        oa, ob = self._split(o)
        return Dual(self.a + oa, _plus(self.b, ob))

    __radd__ = __add__

    def __sub__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        oa, ob = self._split(o)
        return Dual(self.a - oa, _minus(self.b, ob))

    def __rsub__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        oa, ob = self._split(o)
        return Dual(oa - self.a, _minus(ob, self.b))

    def __mul__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        oa, ob = self._split(o)
        return Dual(self.a * oa, _plus(_times(self.a, ob), _times(self.b, oa)))

    __rmul__ = __mul__

    def __truediv__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        oa, ob = self._split(o)
        top = _minus(_times(self.b, oa), _times(self.a, ob))
        return Dual(self.a / oa, 0 if _is_zero(top) else top / (oa * oa))

    def __rtruediv__(self, o):
        if isinstance(o, np.ndarray):
            return NotImplemented  # elementwise, so each entry keeps its derivative
        oa, ob = self._split(o)
        top = _minus(_times(ob, self.a), _times(oa, self.b))
        return Dual(oa / self.a, 0 if _is_zero(top) else top / (self.a * self.a))

    def __neg__(self):
        return Dual(-self.a, 0 if _is_zero(self.b) else -self.b)

    def __pow__(self, k: int):
        if k == 0:
            return Dual(self.a**0, 0)
        return Dual(self.a**k, _times(self.a ** (k - 1) * k, self.b))

    def sqrt(self, sqrt=np.sqrt):
        root = sqrt(self.a)
        return Dual(root, 0 if _is_zero(self.b) else self.b / (root * 2))

    def __abs__(self):
        return self.abs(abs)

    def abs(self, absolute):
        size = absolute(self.a)
        return Dual(size, 0 if _is_zero(self.b) else self.b * self.a / size)

    def tanh(self, tanh):
        value = tanh(self.a)
        return Dual(value, 0 if _is_zero(self.b) else self.b * (1 - value * value))

    def exp(self, exp):
        value = exp(self.a)
        return Dual(value, 0 if _is_zero(self.b) else self.b * value)

    def log(self, log):
        return Dual(log(self.a), 0 if _is_zero(self.b) else self.b / self.a)

    def arccos(self, arccos, sqrt):
        # -b/√(1 − a²): at a = ±1 the root is exactly 0 and the division puts the instance
        # outside the claim (arccos has no derivative at the ends of its domain)
        value = arccos(self.a)
        return Dual(value, 0 if _is_zero(self.b) else -self.b / sqrt(1 - self.a * self.a))


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
    backend's own max/min, the derivative the straight-line formula above (half is
    the backend's exact 1/2)."""
    (a, b), (c, e) = Dual._split(x), Dual._split(y)
    if _is_zero(b) and _is_zero(e):
        return Dual(plain_max(a, c), 0)
    diff = a - c
    slope = diff / absolute(diff)  # ±1, a division by exactly 0 at the kink
    return Dual(plain_max(a, c), (b + e) * half + (b - e) * half * slope * sign)


def gradient(fn, x) -> np.ndarray:
    """∇fn(x) for a scalar fn of an array x of any shape (0-d included), one forward pass
    per entry; the gradient has x's shape, as jax.grad's does.  Each entry is seeded on
    its own: seeding a whole row (the rows of a 2-d x taken as entries) gave directional
    derivatives along the row instead of partial derivatives."""
    x = np.asarray(x, dtype=object)
    out = np.empty(x.shape, dtype=object)
    for k in np.ndindex(x.shape):
        seeded = np.empty(x.shape, dtype=object)
        for j in np.ndindex(x.shape):
            seeded[j] = Dual(x[j], int(j == k))
        value = fn(seeded)
        if isinstance(value, np.ndarray):
            if value.size != 1:
                raise TypeError(f"xp.grad needs a scalar function, got shape {value.shape}")
            value = value.reshape(()).item()
        b = value.b if isinstance(value, Dual) else 0
        if isinstance(b, np.ndarray) or isinstance(value, Dual) and isinstance(value.a, np.ndarray):
            raise TypeError("xp.grad needs a scalar function of the array's entries")
        out[k] = 0 * x[k] if _is_zero(b) else b
    return out
