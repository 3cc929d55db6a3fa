"""Turn a numeric candidate into an exact counterexample, or drop it.

Rationalize to small denominators, decide exactly, and only then shrink:
fewer samples, then simpler numbers, each step kept only if the exact
verdict is still "refuted" (and, in `bnproof fuzz`, the certificate of it is
accepted by the checker: `accept` is then `certify.Judge.confirm`).  Zero
false refutations is the rule.
"""

from __future__ import annotations

import copy
import time
from fractions import Fraction
from typing import Callable

from ..claims.api import Claim
from ..claims.decide import REFUTED, Decision, decide, sizes_of
from .equalities import on_constraints
from .space import to_exact, valid_exact

DENOMINATORS = (1, 2, 4, 10, 100, 1000, 10**4, 10**6)


def confirm(claim: Claim, instance: dict) -> Decision | None:
    """The exact decision if the instance is in the domain and refutes the claim."""
    for v in claim.variables:
        if not valid_exact(v, instance[v.name]):
            return None
    decision = decide(claim, instance)
    return decision if decision.verdict == REFUTED else None


def exactify(candidate: dict, accept: Callable, claim: Claim | None = None) -> tuple[dict, object] | None:
    """The first rationalization of a float candidate that `accept` confirms.  For a
    claim with equality hypotheses, the rationalized candidate is first moved back onto
    the equality set exactly (rounding left it off), along the entries that move least."""
    for bound in DENOMINATORS:
        instance = {k: to_exact(v, bound) for k, v in candidate.items()}
        if claim is not None and claim.equalities:
            instance = on_constraints(claim, instance, nearest=True)
        found = accept(instance)
        if found:
            return instance, found
    return None


def _axes(claim: Claim, size: str) -> dict:
    return {v.name: [i for i, s in enumerate(v.shape) if s == size] for v in claim.variables}


def _drop(value, axes: list[int], index: int, depth: int = 0):
    if not isinstance(value, list):
        return value
    kept = [e for i, e in enumerate(value) if not (depth in axes and i == index)]
    return [_drop(e, axes, index, depth + 1) for e in kept]


def _simpler(x: Fraction) -> list[Fraction]:
    """Candidates in order of preference: 0, ±1, then halfway to 0, one step
    towards 0, the positive twin, and coarser denominators."""
    sign = (x > 0) - (x < 0)
    options = [Fraction(0), Fraction(sign), Fraction(int(x / 2)), Fraction(round(x)), Fraction(int(x)),
               x - sign, -x, x.limit_denominator(max(1, x.denominator // 2))]
    if x.denominator > 1:
        options.append(Fraction(round(x * 2), 2))
    return [o for o in dict.fromkeys(options) if _smaller(o, x)]


def _smaller(new: Fraction, old: Fraction) -> bool:
    """A strict order, so that greedy shrinking terminates."""
    def key(v):
        return (v.denominator, abs(v.numerator), v < 0)
    return key(new) < key(old)


def _paths(value, prefix=()):
    if isinstance(value, list):
        for i, e in enumerate(value):
            yield from _paths(e, prefix + (i,))
    else:
        yield prefix


def _get(value, path):
    for i in path:
        value = value[i]
    return value


def _set(value, path, new):
    if not path:
        return new
    value = copy.deepcopy(value)
    target = value
    for i in path[:-1]:
        target = target[i]
    target[path[-1]] = new
    return value


def complexity(instance: dict) -> tuple:
    numbers = [_get(v, p) for v in instance.values() for p in _paths(v)]
    return (len(numbers), sum(abs(x.numerator) + x.denominator for x in numbers))


def shrink(claim: Claim, instance: dict, decision, accept: Callable | None = None, budget: int = 400,
           deadline: float | None = None, on_improve: Callable | None = None):
    """Greedy shrinking; every accepted step is confirmed by `accept` (by default
    the exact decision).  Stops after `budget` tries or at the monotonic
    `deadline`, keeping the simplest refutation so far; `on_improve(instance,
    found)` hears of each step, so that a run cut short loses nothing."""
    accept = accept or (lambda trial: confirm(claim, trial))
    tries = 0
    improved = True

    def out_of_time():
        return deadline is not None and time.monotonic() > deadline

    def improve(trial, found):
        if on_improve:
            on_improve(trial, found)
        return trial, found, True

    while improved and tries < budget and not out_of_time():
        improved = False
        for size, (lo, _) in claim.sizes.items():  # fewer samples first
            axes = _axes(claim, size)
            current = sizes_of(claim, instance).get(size)
            if current is None or current <= lo:
                continue
            for index in range(current):
                if out_of_time():
                    break
                tries += 1
                smaller = {n: _drop(instance[n], axes[n], index) for n in instance}
                found = accept(smaller)
                if found:
                    instance, decision, improved = improve(smaller, found)
                    break
        for name in list(instance):  # then simpler numbers
            for path in list(_paths(instance[name])):
                for option in _simpler(_get(instance[name], path)):
                    if tries >= budget or out_of_time():
                        break
                    tries += 1
                    trial = {**instance, name: _set(instance[name], path, option)}
                    var = next(v for v in claim.variables if v.name == name)
                    if var.domain == "symmetric" and len(path) == 2:
                        trial[name] = _set(trial[name], path[::-1], option)
                    if claim.equalities:  # back onto the equality set by another entry, if simpler
                        trial = on_constraints(claim, trial, nearest=True, keep=[(name, path)])
                        if complexity(trial) >= complexity(instance):  # strictly simpler: it ends
                            continue
                    found = accept(trial)
                    if found:
                        instance, decision, improved = improve(trial, found)
                        break
    return instance, decision
