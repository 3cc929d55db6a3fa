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


# ------------------------------------------------------------ algebraic instances on the set
#
# The second reading's gate (symbolic_m/crosscheck.py) needs generic instances ON the set
# even where no rational one exists (γ = σ: σ is irrational on rational y) or where no
# entry solves a quadratic equality alone (Σy = 0 and Σy² = m: moving one entry breaks the
# other).  Equality j is solved for an entry x_j, with the equalities before it solved again
# along theirs at every probe of x_j (a chain): f(t) = eq_j along that curve is sampled
# exactly by the reading (bnproof.reading, symengine values) at t = 1, 2, 3 and read as
# a t² + b t + c; its root in closed form over Q(√…) (−c/b, or (−b ± √(b² − 4ac))/(2a)
# with b² − 4ac > 0 PROVED) becomes the entry, an Algebraic.  All of this is a heuristic
# for drawing; what decides is the reading's exact verdict at the result: every declared
# domain, every hypothesis > 0 and every equality exactly 0 (signs.sign, with its exact
# zero test), or the instance is dropped.

PROBES = (1, 2, 3)  # positive and nonzero: a probe stays in every declared domain
ENTRIES_PER_VARIABLE = 4  # entries of an array a solve may move: bounded work, and two suffice
SCALES = (1, Fraction(1, 4), Fraction(1, 16), Fraction(1, 64), Fraction(1, 256))


class NotOnSet(ValueError):
    """No instance on the set could be drawn; the message says why (the last failure)."""


def _equality_value(claim: Claim, instance: dict, j: int):
    """Equality j's exact value at the instance (a symengine expression), or None: the
    claim's own function j alone, in the reading's namespace (its residual is not read
    while solving: a Hessian's would cost O(m³) per probe)."""
    from ..reading import ReadingStop
    from ..reading.instances import array_of, outside_domains
    from ..reading.namespace import reference
    from ..reading.read import _inputs, run
    from ..reading.session import Session, scope

    try:
        arrays = {v.name: array_of(instance[v.name]) for v in claim.variables}
        if outside_domains(claim, arrays) is not None:
            return None
        session = Session()
        with scope(session):
            outcome = run(session, claim.equalities[j], reference(), _inputs(arrays))
    except ReadingStop:
        return None
    except (ValueError, TypeError, KeyError):
        return None
    if outcome.entries is None or len(outcome.entries) != 1 or outcome.entries[0].bad is not None:
        return None
    return outcome.entries[0].e


def _sign(e):
    from ..reading import ReadingStop
    from ..reading import signs

    try:
        return signs.sign(e)
    except ReadingStop:
        return None


def _closed_form(e):
    """e as an instance entry: a Fraction when rational, else an Algebraic."""
    from ..reading import signs
    from ..reading.instances import Algebraic

    e = e.expand()
    if signs.is_rational(e):
        num, den = (e.get_num_den() if type(e).__name__ in ("Rational", "Half") else (e, 1))
        return Fraction(int(num), int(den))
    return Algebraic(e)


def _roots(values: list) -> list:
    """The real roots of the polynomial of degree ≤ 2 through (PROBES[i], values[i]), in
    closed form; [] when it is constant or its discriminant is not proved > 0."""
    import symengine as se

    f1, f2, f3 = values
    a = ((f3 - f2) - (f2 - f1)) / 2
    b = (f2 - f1) - 3 * a
    c = f1 - a - b
    sa = _sign(a.expand())
    if sa is None:
        return []
    if sa == 0:
        return [-c / b] if _sign(b.expand()) not in (None, 0) else []
    disc = (b * b - 4 * a * c).expand()
    if _sign(disc) != 1:
        return []
    root = se.sqrt(disc)
    return [(-b + root) / (2 * a), (-b - root) / (2 * a)]


def _value_along(claim: Claim, base: dict, chain: list, j: int, entry, t, depth: int = 0):
    """Equality j at `base` with `entry` at t and each (k, entry_k) of `chain` re-solved in
    order (the first root that zeroes it exactly); None where one cannot be."""
    trial = copy.deepcopy(base)
    _set(trial, entry[0], entry[1], t)
    for k, (other, index) in enumerate(chain):
        root = _solve(claim, trial, chain[:k], other, (index[0], index[1]))
        if root is None:
            return None
        _set(trial, index[0], index[1], root)
    return _equality_value(claim, trial, j)


def _solve(claim: Claim, base: dict, chain: list, j: int, entry):
    """A root of equality j along `entry` (with `chain` kept on the set), exactly zero
    there, as an instance entry; None when none is found."""
    values = []
    for t in PROBES:
        v = _value_along(claim, base, chain, j, entry, Fraction(t))
        if v is None:
            return None
        values.append(v)
    for root in _roots(values):
        candidate = _closed_form(root)
        v = _value_along(claim, base, chain, j, entry, candidate)
        if v is not None and _sign(v) == 0:
            return candidate
    return None


def _candidates(claim: Claim, instance: dict) -> list:
    """(name, index) of every entry a solve may move: scalar inputs first (γ = σ fixes γ),
    then the entries of arrays (a symmetric matrix's entry moves two: left alone)."""
    scalars, arrays = [], []
    for v in claim.variables:
        if v.domain == "symmetric":
            continue
        shape = np.shape(np.asarray(instance[v.name], dtype=object))
        for index in list(np.ndindex(*shape))[:ENTRIES_PER_VARIABLE]:
            (arrays if shape else scalars).append((v.name, tuple(index)))
    return scalars + arrays


def _scaled(instance: dict, s: Fraction) -> dict:
    return {k: (np.asarray(v, dtype=object) * s).tolist() if np.ndim(v) else Fraction(v) * s
            for k, v in instance.items()}


def on_set_exactly(claim: Claim, instance: dict) -> dict:
    """The instance (scaled by a power of 2 where a quadratic needs small entries) moved onto
    the claim's equality set by the chain of exact solves above, and checked by the reading's
    exact verdict; raises NotOnSet with the reason when no scale and no choice of entries
    gives one.  Bounded: |SCALES| × (entries per equality) solves."""
    from ..reading import HOLDS, REFUTED, read

    n = len(getattr(claim, "equalities", ()))
    why = "no equality could be solved in closed form along an entry"
    for s in SCALES:
        base = _scaled(instance, s)
        chain: list = []
        for j in range(n):
            value = _equality_value(claim, base, j) if not chain else None
            if value is not None and _sign(value) == 0:
                continue
            used = {entry for _, entry in chain}
            for entry in _candidates(claim, base):
                if entry in used:
                    continue
                root = _solve(claim, base, chain, j, entry)
                if root is None:
                    continue
                moved = copy.deepcopy(base)
                _set(moved, entry[0], entry[1], root)
                for k, (other, index) in enumerate(chain):
                    again = _solve(claim, moved, chain[:k], other, index)
                    if again is None:
                        break
                    _set(moved, index[0], index[1], again)
                else:
                    chain.append((j, entry))
                    base = moved
                    break
            else:
                why = f"equality {j + 1} could not be solved in closed form along any entry (scale {s})"
                break
        else:
            verdict = read(claim, base)
            if verdict.verdict in (HOLDS, REFUTED):  # domains, hypotheses > 0, equalities = 0: proved
                return base
            why = f"the instance solved at scale {s} is not on the claim's set: {verdict.detail}"
    raise NotOnSet(why)
