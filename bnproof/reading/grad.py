"""xp.grad in the reference reading: symbolic differentiation with fresh symbols.

Each call seeds every entry of its argument with a fresh symbol of its own
(x + δ), runs the function, differentiates the result symbolically
(symengine's diff) along each of its symbols and puts only its own symbols
back to 0.  A function that reads an enclosing gradient's variable sees that
gradient's symbol, not this one's, so nested gradients never confuse their
perturbations (class 1 of issue 22): there is nothing to tag, each
derivative is taken along its own symbol.

A derivative along a symbol on which a kink was met (a tie of abs, max, min,
relu, a √ of 0, arccos at ±1, or a Python branch decided at a tie) is
undefined, as in the dual engine; the other partial derivatives are not
affected.
"""

from __future__ import annotations

import math

import numpy as np
import symengine as se

from . import radicals, signs
from .arrays import exact_array
from .errors import Refused
from .session import current
from .values import ABSENT, UNDEFINED, Value, _make, lift, poison


def gradient(fn, x):
    """∇fn(x) for a scalar function fn of an array x (any shape, 0-d included), with
    x's shape, as jax.grad gives it."""
    s = current()
    arr = np.asarray(x, dtype=object)
    indices = list(np.ndindex(arr.shape))
    base = []
    for k in indices:
        v = lift(arr[k])
        if v is None:
            raise TypeError(f"xp.grad: the argument must hold numbers, got {type(arr[k]).__name__}")
        base.append(v)
    tag = s.new_tag()
    symbols = tuple(se.Dummy(f"d{tag}_{i}") for i in range(len(indices)))
    s.push(tag, symbols)
    try:
        seeded = np.empty(arr.shape, dtype=object)
        for k, v, t in zip(indices, base, symbols):
            seeded[k] = _seed(v, t, tag)
        value = _scalar(fn(exact_array(seeded)))
        return _derivatives(s, value, arr.shape, indices, symbols, tag)
    finally:
        s.pop(tag)


def _seed(v: Value, t, tag: int) -> Value:
    if v.bad is not None:
        return v
    seeded = Value(v.e + t, v.tags | {tag}, v.kinks, None, v.w + 2, v.d + 1, v.f, v.k)
    seeded.m, seeded.md = v.m, v.md
    return seeded


def _scalar(out) -> Value:
    if isinstance(out, np.ndarray):
        if out.size != 1:
            raise TypeError(f"xp.grad needs a scalar function, got shape {out.shape}")
        out = out.reshape(()).item()
    v = lift(out)
    if v is None:
        raise TypeError(f"xp.grad needs a scalar function of the array's entries, got {type(out).__name__}")
    return v


def _derivatives(s, value: Value, shape, indices, symbols, tag) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    if value.bad is not None:
        bad = value if value.bad[0] != ABSENT else poison(UNDEFINED, "the derivative of an absent value")
        for k in indices:
            out[k] = bad
        return out
    if value.tags and not value.tags <= s.active.keys():
        s.stop(Refused("xp.grad: the function returned a value of a gradient that has returned"))
    own = {t: se.Integer(0) for t in symbols}
    tags = value.tags - {tag}
    kinks = value.kinks - own.keys() if value.kinks else value.kinks
    free = value.e.free_symbols
    for k, t in zip(indices, symbols):
        if t in value.kinks or t in s.branch_kinks:
            out[k] = poison(UNDEFINED, "no derivative at a kink (a tie of abs/max/min/relu, √0, "
                                       "arccos at ±1, or a branch taken at a tie)")
            continue
        if t not in free:
            out[k] = _make(s, se.Integer(0), tags, kinks, 1, 1)
            continue
        s.spend(2 * value.w)  # diff and subs walk the tree
        d = value.e.diff(t)
        if not signs.is_rational(d):
            d = radicals.normalize(d.subs(own))
        f = k_ = 0.0
        if s.track:
            f, k_ = magnitude(d)
            k_ += value.k
        out[k] = _make(s, d, tags, kinks, 4 * value.w + 4, 3 * value.d + 3, f, k_)
    return out


def magnitude(e) -> tuple[float, float]:
    """(float value, rounding magnitude) of an expression at the point (every symbol at
    0), by the rules values.py applies operation by operation, for a derivative whose
    operations were not seen one by one."""
    value: dict = {}
    for x in signs.nodes(e):
        name = type(x).__name__
        args = x.args
        try:
            if name in signs.RATIONAL:
                f = float(x)
                value[x] = (f, abs(f))
            elif x.is_Symbol:
                value[x] = (0.0, 0.0)
            elif name == "Add":
                f = math.fsum(value[a][0] for a in args)
                value[x] = (f, sum(value[a][1] for a in args) + abs(f) * len(args))
            elif name == "Mul":
                fs = [value[a][0] for a in args]
                f = math.prod(fs)
                k = sum(value[a][1] * abs(math.prod(fs[:i] + fs[i + 1:])) for i, a in enumerate(args))
                value[x] = (f, k + abs(f) * len(args))
            elif name == "Pow" and type(args[0]).__name__ == "Exp1":
                a, ka = value[args[1]]
                f = math.exp(a)
                value[x] = (f, f * ka + f)
            elif name == "Pow":
                b, kb = value[args[0]]
                p = float(args[1])
                f = b**p
                value[x] = (f, abs(p) * abs(b) ** (p - 1) * kb + abs(f) if kb else abs(f))
            elif name == "log":
                a, ka = value[args[0]]
                f = math.log(a)
                value[x] = (f, ka / abs(a) + abs(f))
            elif name == "acos":
                a, ka = value[args[0]]
                f = math.acos(a)
                value[x] = (f, (ka / math.sqrt(1 - a * a) if ka else 0.0) + f)
            elif name == "tanh":
                a, ka = value[args[0]]
                f = math.tanh(a)
                value[x] = (f, (1 - f * f) * ka + abs(f))
            elif name == "Pi":
                value[x] = (math.pi, math.pi)
            elif name == "Exp1":
                value[x] = (math.e, math.e)
            else:
                return math.nan, math.inf
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            return math.nan, math.inf
        if isinstance(value[x][0], complex):
            return math.nan, math.inf
    return value[e]
