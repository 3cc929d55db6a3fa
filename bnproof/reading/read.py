"""The reference verdict of a claim on an exact instance.

The claim's functions run in the reference namespace (namespace.py) on
object arrays of exact values, in the order the tracer calls them (the
residual, then the hypotheses, then the equalities).  Then, as the engine
decides: the declared domains, each hypothesis (every entry > 0), each
equality (every entry exactly 0), the residual's sign against the claim's
kind.  What the claim raises is its own code's doing (undecided, with the
exception); a stop of the reference that the claim caught still decides
(session.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .arrays import exact_array
from .errors import Inconclusive, ReadingStop, Refused, Undefined
from .instances import array_of, outside_domains, sizes_of
from .namespace import reference
from .session import Session, scope
from . import signs as signs_module
from .values import MIN_NORMAL, UNDERFLOW, Value, constant, lift, read_sign, text

REFUTED, HOLDS, OUTSIDE, UNDECIDED = "refuted", "holds", "outside-hypotheses", "undecided"


@dataclass(frozen=True)
class Reading:
    """The reference's verdict.  `value` is the residual's exact value where it has one
    (None otherwise, and for an array residual: then `values` has every entry)."""

    verdict: str  # refuted | holds | outside-hypotheses | undecided (as claims/decide.py)
    value: Value | None
    detail: str
    sign: int | None = None
    values: tuple = ()
    magnitude: float | None = None  # with track: the residual's rounding magnitude (values.py)
    fragile: tuple = field(default=(), compare=False)  # with track: decisions floats may not follow


@dataclass
class Outcome:
    """One function of the claim, run: its entries, or why it has none."""

    entries: list | None
    stop: ReadingStop | None = None
    error: str | None = None  # the claim's own exception
    fragile: tuple = ()  # with track: decisions floats may not follow
    scale: float = 0.0  # with track: the largest rounding magnitude of a value the run made
    observed: tuple = ()  # what the claim's code asked of values in Python (Session.observe)
    piecewise: int = 0  # decisions of abs, max, min and guard the run took


def _inputs(arrays: dict) -> dict:
    out = {}
    for name, a in arrays.items():
        values = np.empty(a.shape, dtype=object)
        for k in np.ndindex(a.shape):
            values[k] = constant(a[k])
        out[name] = exact_array(values) if a.shape else values[()]
    return out


def run(session: Session, fn, xp, kwargs: dict) -> Outcome:
    """fn(xp, **kwargs) with every stop it raised recorded, whatever it caught."""
    session.stops, session.scale = [], 0.0
    session.fragile = [UNDERFLOW] if session.track and _underflows(kwargs) else []
    session.branch_kinks = set()
    session.observed, session.piecewise = [], 0
    session.running = True
    try:
        out = fn(xp, **kwargs)
    except KeyboardInterrupt:
        raise
    except ReadingStop as err:
        return _noted(session, Outcome(None, session.stops[0] if session.stops else err))
    except BaseException as err:  # the claim's own code (even sys.exit): never a verdict
        if session.stops:  # it turned a stop of ours into its own exception
            return _noted(session, Outcome(None, session.stops[0]))
        return _noted(session, Outcome(None, error=f"the claim's code raised {type(err).__name__}: {err}"))
    finally:
        session.running = False
    if session.stops:
        return _noted(session, Outcome(None, session.stops[0]))
    try:
        return _noted(session, Outcome(_entries(out), fragile=tuple(session.fragile), scale=session.scale))
    except ReadingStop as err:
        return _noted(session, Outcome(None, err))
    except (TypeError, ValueError) as err:
        return _noted(session, Outcome(None, error=str(err)))


def _underflows(kwargs: dict) -> bool:
    """An input that float64 holds only as 0 or a subnormal number (x = −10⁻⁴⁰⁰): floats
    read another instance, and their error there is not relative (values._underflow)."""
    for x in kwargs.values():
        for v in (x.ravel() if isinstance(x, np.ndarray) else [x]):
            if isinstance(v, Value) and v.bad is None and abs(v.f) < MIN_NORMAL and not v.e.is_zero:
                return True
    return False


def _noted(session: Session, outcome: Outcome) -> Outcome:
    outcome.observed, outcome.piecewise = tuple(session.observed), session.piecewise
    return outcome


def _entries(out) -> list:
    items = list(np.asarray(out, dtype=object).reshape(-1)) if isinstance(out, (np.ndarray, list, tuple)) \
        else [out]
    entries = []
    for x in items:
        if isinstance(x, (bool, np.bool_)):
            raise TypeError("a value of the claim is a truth value, not an exact number")
        v = lift(x)
        if v is None:
            raise TypeError(f"a value of the claim must be an exact number, got {type(x).__name__}")
        if v.tags:
            raise Refused("a value of the claim still carries a perturbation of xp.grad "
                          "(a value of a differentiated function, kept outside it)")
        entries.append(v)
    return entries


def _why(outcome: Outcome, what: str) -> tuple[str, str]:
    if outcome.error is not None:
        return UNDECIDED, f"{what}: {outcome.error}"
    stop = outcome.stop
    if isinstance(stop, Undefined):
        return OUTSIDE, f"outside the claim's domain ({what}): {stop.reason}"
    if isinstance(stop, Refused):
        return UNDECIDED, f"the reference refuses {what}: {stop.reason}"
    return UNDECIDED, f"{what}: inconclusive: {stop.reason}"


def _sign(v: Value, what: str):
    """(sign, None) or (None, (verdict, detail))."""
    try:
        return read_sign(v), None
    except Undefined as err:
        return None, (OUTSIDE, f"outside the claim's domain ({what}): {err.reason}")
    except Inconclusive as err:
        return None, (UNDECIDED, f"{what}: inconclusive: {err.reason}")
    except Refused as err:
        return None, (UNDECIDED, f"the reference refuses {what}: {err.reason}")


def evaluate(claim, instance: dict, witness: dict | None = None, *, session: Session | None = None):
    """(residual, hypotheses, equalities) as Outcomes, or a Reading when the instance
    itself is out of bounds (missing values, wrong shapes, a declared domain)."""
    variables = tuple(claim.variables)
    exists = tuple(getattr(claim, "exists", ()))
    merged = dict(instance)
    if exists and witness is not None:
        merged.update(witness)
        variables = variables + exists
    sizes_of(claim, merged, variables)
    arrays = {v.name: array_of(merged[v.name]) for v in variables}
    why = outside_domains(claim, arrays)
    if why is not None:
        return Reading(OUTSIDE, None, f"outside the claim's declared domains: {why}")
    session = session or Session()
    with scope(session):
        xp = reference()
        kwargs = _inputs(arrays)
        residual = run(session, claim.residual, xp, kwargs)
        hypotheses = [run(session, h, xp, kwargs) for h in claim.hypotheses]
        equalities = [run(session, e, xp, kwargs) for e in getattr(claim, "equalities", ())]
    return residual, hypotheses, equalities


def read(claim, instance: dict, witness: dict | None = None, *, track: bool = False,
         session: Session | None = None) -> Reading:
    """The reference verdict of `claim` on an exact `instance` (name -> nested lists of
    exact numbers).  For an existential claim, at the values `witness` gives its
    existential variables (without one: undecided).  Never raises, short of
    KeyboardInterrupt."""
    session = session or Session(track=track)
    try:
        if getattr(claim, "exists", ()) and witness is None:
            return Reading(UNDECIDED, None, "the reference reads an existential claim only at given values "
                                            "of its existential variables")
        parts = evaluate(claim, instance, witness, session=session)
        if isinstance(parts, Reading):
            return parts
        with scope(session):
            return _verdict(claim, session, *parts)
    except KeyboardInterrupt:
        raise
    except ReadingStop as err:
        return Reading(UNDECIDED, None, f"inconclusive: {err.reason}")
    except BaseException as err:  # a malformed instance, or a bug: never a verdict it did not earn
        return Reading(UNDECIDED, None, f"the reference could not read the instance: {type(err).__name__}: {err}")


def describe(v: Value, sign: int) -> str:
    """A value for a one-line message: 0 when it is 0, its closed form when short, else an
    approximation marked ≈ (for reading only: every decision is exact)."""
    if sign == 0:
        return "0"
    shown = text(v.e, 80)
    if len(shown) < 80 and not shown.startswith("<"):
        return shown
    return f"≈ {signs_module.ball(v.e, 64).mid().str(6, radius=False)}"


def _stopped(verdict: str, detail: str) -> Reading:
    return Reading(verdict, None, detail)


def _hypothesis(number: int, function) -> str:
    """'hypothesis 2 (its name)', by the name claims.hypothesis gave it, read as the
    attribute it is (the reading imports nothing of the claims but their format)."""
    seen = 0
    while function is not None and seen < 16:  # a Law's wrapper chain, never a cycle
        name = getattr(function, "bnproof_name", None)
        if isinstance(name, str):
            return f"hypothesis {number} ({name})"
        function, seen = getattr(function, "__wrapped__", None), seen + 1
    return f"hypothesis {number}"


def _verdict(claim, session: Session, residual: Outcome, hypotheses: list, equalities: list) -> Reading:
    conditions = [(_hypothesis(k + 1, f), h, 1, "is not > 0")
                  for k, (f, h) in enumerate(zip(claim.hypotheses, hypotheses))]
    conditions += [(f"equality {k + 1}", e, 0, "is not exactly 0") for k, e in enumerate(equalities)]
    for what, outcome, wanted, otherwise in conditions:
        if outcome.entries is None:
            return _stopped(*_why(outcome, what))
        for v in outcome.entries:
            sign, stop = _sign(v, what)
            if stop is not None:
                return _stopped(*stop)
            if sign != wanted:
                return Reading(OUTSIDE, None, f"{what} {otherwise}")
    if residual.entries is None:
        return _stopped(*_why(residual, "the residual"))
    existential = bool(getattr(claim, "exists", ()))
    if len(residual.entries) != 1 and not existential:
        return Reading(UNDECIDED, None, f"the residual must be a scalar, got {len(residual.entries)} entries")
    signs = []
    for v in residual.entries:
        sign, stop = _sign(v, "the residual")
        if stop is not None:
            return _stopped(*stop)
        signs.append(sign)
    holds = all(claim.holds(s) for s in signs)
    verdict = HOLDS if holds else REFUTED
    scalar = len(residual.entries) == 1
    value = residual.entries[0] if scalar else None
    sign = signs[0] if scalar else None
    detail = f"residual = {describe(value, sign)}" if scalar else f"{len(signs)} residual entries, " + (
        "every one holds" if holds else "one fails")
    magnitude = max([residual.scale] + [v.k for v in residual.entries]) if session.track else None
    return Reading(verdict, value, detail, sign, tuple(residual.entries), magnitude, residual.fragile)
