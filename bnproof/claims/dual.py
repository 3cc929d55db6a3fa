"""Forward-mode derivatives with dual numbers a + b·ε (ε² = 0).

Exact backends have no autodiff; duals give claims an independent, exact
derivative (no closed form involved) over any number type: program nodes,
SymPy numbers, Fractions."""

from __future__ import annotations

import numpy as np


class Dual:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b

    @staticmethod
    def _split(x):
        return (x.a, x.b) if isinstance(x, Dual) else (x, 0)

    def __add__(self, o):
        oa, ob = self._split(o)
        return Dual(self.a + oa, self.b + ob)

    __radd__ = __add__

    def __sub__(self, o):
        oa, ob = self._split(o)
        return Dual(self.a - oa, self.b - ob)

    def __rsub__(self, o):
        oa, ob = self._split(o)
        return Dual(oa - self.a, ob - self.b)

    def __mul__(self, o):
        oa, ob = self._split(o)
        return Dual(self.a * oa, self.a * ob + self.b * oa)

    __rmul__ = __mul__

    def __truediv__(self, o):
        oa, ob = self._split(o)
        return Dual(self.a / oa, (self.b * oa - self.a * ob) / (oa * oa))

    def __rtruediv__(self, o):
        oa, ob = self._split(o)
        return Dual(oa / self.a, (ob * self.a - oa * self.b) / (self.a * self.a))

    def __neg__(self):
        return Dual(-self.a, -self.b)

    def __pow__(self, k: int):
        if k == 0:
            return Dual(self.a**0, 0 * self.b)
        return Dual(self.a**k, self.a ** (k - 1) * k * self.b)

    def sqrt(self, sqrt=np.sqrt):
        root = sqrt(self.a)
        return Dual(root, self.b / (root * 2))


def gradient(fn, x: np.ndarray) -> np.ndarray:
    """∇fn(x) for a scalar fn of a 1-d object array, one forward pass per entry."""
    out = np.empty(len(x), dtype=object)
    for k in range(len(x)):
        seeded = np.array([Dual(v, int(i == k)) for i, v in enumerate(x)], dtype=object)
        value = fn(seeded)
        value = value.reshape(()).item() if isinstance(value, np.ndarray) else value
        out[k] = value.b if isinstance(value, Dual) else 0 * x[k]
    return out
