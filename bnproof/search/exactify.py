"""Turn a numeric candidate into an exact counterexample, or drop it.

Rationalize to small denominators, decide exactly, and only then shrink:
fewer samples, then simpler numbers, each step kept only if the exact
verdict is still "refuted" (`accept`: in `bnproof fuzz`, `certify.Judge.refutes`,
and the instance shrinking ends with is then certified, walking back along
the steps to the last one the checker accepts).  Zero false refutations is
the rule.
"""

from __future__ import annotations

import copy
import itertools
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


def _drop(value, axes: list[int], indices: range, depth: int = 0):
    if not isinstance(value, list):
        return value
    kept = [e for i, e in enumerate(value) if not (depth in axes and i in indices)]
    return [_drop(e, axes, indices, depth + 1) for e in kept]


def _fewer_samples(claim: Claim, instance: dict, accept: Callable, spend: Callable, improve: Callable):
    """Drop samples in runs, the longest first, halving the run length when none can
    go (so 64 samples shrink to 2 in a handful of exact decisions, not 62), down to
    single samples; `improve` hears each accepted drop.  (instance, found) after the
    last accepted drop, or None."""
    result = None
    for size, (lo, _) in claim.sizes.items():
        axes = _axes(claim, size)
        current = sizes_of(claim, instance).get(size)
        if current is None or current <= lo:
            continue
        run = current - lo
        while run >= 1:
            start, dropped = 0, False
            while start + run <= current:
                if not spend():
                    return result
                smaller = {n: _drop(instance[n], axes[n], range(start, start + run)) for n in instance}
                found = accept(smaller)
                if found:
                    instance, result, dropped = smaller, (smaller, found), True
                    improve(smaller, found)
                    current -= run
                    break
                start += run
            if not dropped:
                run //= 2
            run = min(run, current - lo)
    return result


def _negated(value):
    return [_negated(v) for v in value] if isinstance(value, list) else -value


def _negatives(instance: dict) -> int:
    return sum(_get(v, p) < 0 for v in instance.values() for p in _paths(v))


def _fewer_negatives(claim: Claim, instance: dict, accept: Callable, spend: Callable, improve: Callable):
    """Negate whole variables at once (a claim symmetric under y → −y, γ → −γ has no
    simpler single-entry step from (−1, 0, 0), γ = −1 to (1, 0, 0), γ = 1); kept only
    if fewer entries are negative, so that it ends.  Every subset of up to three
    variables.  (instance, found) after the last accepted step, or None."""
    result = None
    names = [v.name for v in claim.variables if v.domain != "positive"]
    subsets = [c for r in range(1, min(3, len(names)) + 1) for c in itertools.combinations(names, r)]
    for subset in subsets:
        trial = {n: _negated(x) if n in subset else x for n, x in instance.items()}
        if _negatives(trial) >= _negatives(instance):
            continue
        if not spend():
            break
        found = accept(trial)
        if found:
            instance, result = trial, (trial, found)
            improve(trial, found)
    return result


# Values a reader takes in at a glance, tried first for every entry (the simplest first,
# in _smaller's order): a counterexample at c = 1/12000 that c = 2 also gives is reported
# at c = 2.  Few, as each is an exact decision: the integers up to 4, and halves, thirds
# and quarters below 1 and 2.
SIMPLE = tuple(Fraction(sign * n, d) for d, ns in ((1, (1, 2, 3, 4)), (2, (1, 3)), (3, (1, 2)), (4, (1, 3)))
               for n in ns for sign in (1, -1))
NEAREST = (1, 2, 3, 4, 10, 100, 1000)  # denominators of x's nearest fractions: a narrow window


def _simpler(x: Fraction) -> list[Fraction]:
    """Candidates, the simplest first (_smaller's order): 0, ±1, the small integers and
    the fractions of SIMPLE, the nearest fraction to x of each small denominator (a
    counterexample in a narrow window keeps its window), then halfway to 0, one step
    towards 0, the positive twin, and coarser denominators."""
    sign = (x > 0) - (x < 0)
    options = [Fraction(0), Fraction(sign), *SIMPLE, *(x.limit_denominator(d) for d in NEAREST),
               Fraction(int(x / 2)), Fraction(round(x)), Fraction(int(x)),
               x - sign, -x, x.limit_denominator(max(1, x.denominator // 2))]
    if x.denominator > 1:
        options.append(Fraction(round(x * 2), 2))
    kept = [o for o in dict.fromkeys(options) if _smaller(o, x)]
    return sorted(kept, key=_key)


def _key(v: Fraction) -> tuple:
    return (v.denominator, abs(v.numerator), v < 0)


def _smaller(new: Fraction, old: Fraction) -> bool:
    """A strict order, so that greedy shrinking terminates."""
    return _key(new) < _key(old)


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

    def spend():
        nonlocal tries
        if tries >= budget or out_of_time():
            return False
        tries += 1
        return True

    while improved and tries < budget and not out_of_time():
        improved = False
        fewer = _fewer_samples(claim, instance, accept, spend, improve)  # fewer samples first
        if fewer:
            (instance, decision), improved = fewer, True
        flipped = _fewer_negatives(claim, instance, accept, spend, improve)  # then fewer signs
        if flipped:
            (instance, decision), improved = flipped, True
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
