"""Sampling on the set an equality hypothesis defines (Claim.equalities).

A random draw almost never meets "f(x) == 0".  After an instance is drawn, each
equality is solved for one entry of a variable in which it is affine: f is
evaluated exactly at t = 0 and t = 1, and the secant root t* = −f(0)/(f(1) − f(0))
is tried.  This is a heuristic only: the instance is kept only if every equality
is then EXACTLY 0 (decided by the exact engine), and the exact decision checks
the equalities again anyway, so a wrong solve costs coverage, never soundness.
"""

from __future__ import annotations

import copy
from fractions import Fraction

import numpy as np

from ..claims.api import Claim
from ..claims.decide import lookup, sizes_of, trace
from ..program.evaluate import Evaluator

MAX_WORK = 10**9  # per evaluation: solving is a heuristic and must stay cheap


def _exact_value(steps, instance: dict, step: int) -> Fraction | None:
    """The exact rational value of a step, or None (irrational, undefined, undecided)."""
    try:
        s = Evaluator(steps, lookup(instance), MAX_WORK).sign(step)
    except ArithmeticError:
        return None
    value = s.value
    return value.lo if s.sign is not None and value is not None and value.exact else None


def _entries(claim: Claim, instance: dict) -> list:
    out = []
    for v in claim.variables:
        if v.domain == "symmetric":  # one entry moves two: left alone
            continue
        shape = np.shape(instance[v.name])
        for index in np.ndindex(*shape):
            out.append((v, index))
    return out


def _set(instance: dict, name: str, index: tuple, value: Fraction) -> None:
    if not index:
        instance[name] = value
        return
    target = instance[name]
    for i in index[:-1]:
        target = target[i]
    target[index[-1]] = value


def _allowed(domain: str, value: Fraction) -> bool:
    return not (domain == "nonzero" and value == 0 or domain == "positive" and value <= 0)


def _secant(steps, moved: dict, e: int, var, index: tuple, before) -> Fraction | None:
    """The root of the equality's step e along one entry, if it is affine there (else
    None); the entry is left at `before`."""
    f = []
    for t in (Fraction(0), Fraction(1)):
        _set(moved, var.name, index, t)
        f.append(_exact_value(steps, moved, e))
    _set(moved, var.name, index, before)
    if None in f or f[0] == f[1]:
        return None
    return -f[0] / (f[1] - f[0])


def on_constraints(claim: Claim, instance: dict, nearest: bool = False, keep=()) -> dict:
    """The instance moved onto the claim's equality set, when the secant finds it;
    else the instance unchanged (the exact decision will put it outside the claim).

    By default each equality is solved for the first entry where the secant works.
    With `nearest` (a float candidate already near the set, rationalized: the JAX
    search), for the entry whose root is closest to its value, among those no earlier
    equality moved: the instance moves least, so the violation the floats saw stays.
    `keep`: (name, index) entries never moved (the one a shrinker just simplified)."""
    if not getattr(claim, "equalities", ()):
        return instance
    try:
        traced = _traced(claim, tuple(sorted(sizes_of(claim, instance).items())))
    except Exception:  # the claim's own code fails at these sizes: nothing to solve
        return instance
    steps = traced.steps
    moved = copy.deepcopy({k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in instance.items()})
    kept = {(name, tuple(index)) for name, index in keep}
    used: set = set()  # entries an earlier equality moved (avoided with `nearest`)
    for e in traced.equalities:
        if _exact_value(steps, moved, e) == 0:
            continue
        tries = [(var, index, None) for var, index in _entries(claim, moved)
                 if (var.name, index) not in kept and not (nearest and (var.name, index) in used)]
        if nearest:
            tries = [(var, index, root) for var, index, _ in tries
                     for root in [_secant(steps, moved, e, var, index, _get(moved, var.name, index))]
                     if root is not None]
            tries.sort(key=lambda t: abs(t[2] - Fraction(_get(moved, t[0].name, t[1]))))
        for var, index, root in tries:
            before = _get(moved, var.name, index)
            root = root if nearest else _secant(steps, moved, e, var, index, before)
            if root is None:
                continue
            _set(moved, var.name, index, root)
            if _allowed(var.domain, root) and _exact_value(steps, moved, e) == 0:
                used.add((var.name, index))
                break
            _set(moved, var.name, index, before)
    if all(_exact_value(steps, moved, e) == 0 for e in traced.equalities):
        return moved
    return instance


def _get(instance: dict, name: str, index: tuple):
    value = instance[name]
    for i in index:
        value = value[i]
    return value


_CACHE: dict = {}


def _traced(claim: Claim, sizes: tuple):
    # the claim is kept with its trace: an id is reused once its object is freed, and
    # another claim's trace would then solve the wrong equalities
    key = (id(claim), sizes)
    if key not in _CACHE or _CACHE[key][0] is not claim:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = (claim, trace(claim, dict(sizes)))
    return _CACHE[key][1]
