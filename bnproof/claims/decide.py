"""Decide a claim exactly on one instance: trace its residual and hypotheses
into a program, then decide their signs rigorously."""

from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import ClaimError
from ..program.evaluate import MAX_WORK, DomainError, Evaluator, Sign
from ..program.trace import Node, Program, TraceRefused, traced_array
from . import xp as namespaces
from .api import Claim
from .naming import hypothesis_label

REFUTED, HOLDS, OUTSIDE, UNDECIDED = "refuted", "holds", "outside-hypotheses", "undecided"


@dataclass(frozen=True)
class Traced:
    steps: list
    residual: int  # index of the residual's value
    hypotheses: tuple[int, ...]
    equalities: tuple[int, ...] = ()  # each must be exactly 0 (Claim.equalities)
    labels: tuple[str, ...] = ()  # how a message names each hypothesis entry (naming.hypothesis_label)

    def label(self, k: int) -> str:
        return self.labels[k] if k < len(self.labels) else f"hypothesis {k + 1}"


def _inputs(program: Program, var, shape) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    for index in itertools.product(*(range(n) for n in shape)):
        key = index
        if var.domain == "symmetric":  # one input per unordered pair keeps H symmetric
            key = tuple(sorted(index))
        out[index] = program.emit(["input", var.name, *key])
    return traced_array(out) if shape else out[()]  # its dtype and numpy's inexact ufuncs refuse


class BadOutput(ClaimError, ValueError):
    """A function of the claim returned what no instance can give a value to (a residual
    that is a vector, a float, a truth value): the claim's mistake, with its file:line."""


class NotAScalar(BadOutput):
    """The residual is an array of several entries: no instance can make it a verdict, so
    decide() lets it through as bad input instead of calling every instance undecided."""


def where(fn, claim=None) -> str:
    """file:line of a claim's function (through a Law's wrapper), for BadOutput; the
    claim file as the user typed it when the claim is given (as a loading error names it)."""
    fn = getattr(fn, "__wrapped__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return repr(fn)
    from .blame import as_typed

    file = code.co_filename if claim is None else as_typed(code.co_filename, claim)
    return f"{file}:{code.co_firstlineno}"


def _node(program: Program, value, fn=None, what: str = "a residual or hypothesis", claim=None) -> Node:
    """The program's node for a value a claim's function returned.  A value that is not
    an exact scalar is the claim's mistake (BadOutput, naming `fn`'s file:line when
    given); a traced value the tracer refused to make (a dual that escaped its gradient,
    a node of another program) is a refusal, and a poisoned program is never used."""
    program.check()
    if isinstance(value, np.ndarray):
        if value.size != 1:
            raise _bad(fn, f"{what} must be a scalar, got shape {value.shape}", NotAScalar, claim)
        value = value.reshape(()).item()
    if isinstance(value, Node):
        if value.program is not program:
            program.refuse(TypeError(f"{what} is a value of another trace (a copy of the program recorder?)"))
            program.check()
        return value
    from .dual import Dual

    if isinstance(value, Dual):  # a derivative's perturbation kept outside its xp.grad
        program.refuse(TypeError(f"{what} still carries a perturbation of xp.grad (a value of the "
                                 "function being differentiated, kept outside it)"))
        program.check()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Rational):
        # a float, a string ("1" would parse), a truth value: not an exact number the claim computed
        raise _bad(fn, f"{what} must be an exact number, got {type(value).__name__} "
                       "(use exact numbers: int or Fraction)", claim=claim)
    return program.const(value)


def _bad(fn, message: str, kind=BadOutput, claim=None) -> BadOutput:
    return kind(f"{where(fn, claim)}: {message}" if fn is not None else message)


def trace(claim: Claim, sizes: dict) -> Traced:
    program = Program()
    for v in claim.variables:  # refuse a hostile size before any array is allocated
        shape = claim.shape_of(v, sizes)
        if any(not isinstance(n, numbers.Integral) or isinstance(n, (bool, np.bool_)) or n < 0
               for n in shape):
            raise ValueError(f"{v.name}: sizes must be integers >= 0, got {shape}")
        program.reserve(math.prod(int(n) for n in shape))
    xp = namespaces.trace(program)
    values = {v.name: _inputs(program, v, claim.shape_of(v, sizes)) for v in claim.variables}
    with program:  # refusals with no traced value at hand are recorded on this program
        residual = _node(program, claim.residual(xp, **values), claim.residual,
                         f"claim {claim.id}: the residual", claim)
        hyps, labels = [], []
        for number, h in enumerate(claim.hypotheses, 1):  # an array: every entry must be > 0
            value = h(xp, **values)
            entries = value.ravel() if isinstance(value, np.ndarray) else [value]
            hyps.extend(_node(program, e, h, f"claim {claim.id}: a hypothesis", claim).index for e in entries)
            labels.extend(hypothesis_label(number, h, i, len(entries)) for i in range(1, len(entries) + 1))
        equalities = []
        for e in getattr(claim, "equalities", ()):  # every entry must be exactly 0
            value = e(xp, **values)
            entries = value.ravel() if isinstance(value, np.ndarray) else [value]
            equalities.extend(_node(program, x, e, f"claim {claim.id}: an equality", claim).index
                              for x in entries)
    # whatever the claim's code caught: a refusal means the program is not what numpy runs
    program.check()
    return Traced(program.steps, residual.index, tuple(hyps), tuple(equalities), tuple(labels))


def sizes_of(claim: Claim, instance: dict) -> dict:
    sizes = {}
    for v in claim.variables:
        shape = np.shape(instance[v.name])
        if len(shape) != len(v.shape):
            raise ValueError(f"{v.name} should have {len(v.shape)} dimensions, got {len(shape)}")
        for s, n in zip(v.shape, shape):
            if isinstance(s, int):
                if s != n:
                    raise ValueError(f"{v.name} should have size {s}, got {n}")
            elif sizes.setdefault(s, n) != n:
                raise ValueError(f"size {s} is {sizes[s]} in one variable and {n} in {v.name}")
    return sizes


MAX_EXPONENT_DIGITS = 5  # "1e99999" is read; "1e999999999" would build a billion-digit integer


def exact_number(x) -> Fraction:
    """An instance entry as a Fraction: a number, or text such as "-3/7" or "1.5e-3" whose
    decimal exponent has at most MAX_EXPONENT_DIGITS digits (Fraction alone would expand
    any exponent, unbounded work before any limit is charged)."""
    if isinstance(x, str):
        exponent = x.strip().lower().partition("e")[2].lstrip("+-")
        if len(exponent.lstrip("0")) > MAX_EXPONENT_DIGITS:
            raise ValueError(f"the exponent of {x[:40]!r} is too large")
    return Fraction(x)


def lookup(instance: dict):
    def get(name, index):
        value = instance[name]
        for i in index:
            value = value[i]
        return exact_number(value)

    return get


@dataclass(frozen=True)
class Decision:
    verdict: str  # refuted | holds | outside-hypotheses | undecided
    residual: Sign | None
    detail: str = ""
    work: int = 0  # bit-operations charged by the exact engine (hypotheses and residual)


def outside_domains(claim: Claim, instance: dict) -> str | None:
    """Why the instance is outside a declared domain (an entry of a nonzero variable
    is 0, of a positive one ≤ 0, a symmetric matrix is not symmetric), or None."""
    for v in claim.variables:
        value = np.asarray(instance[v.name], dtype=object)
        entries = [exact_number(x) for x in value.reshape(-1)]
        which = v.name if value.ndim == 0 else f"an entry of {v.name}"  # a scalar has no entries
        if v.domain == "positive" and any(x <= 0 for x in entries):
            return f"{which} is not positive"
        if v.domain == "nonzero" and any(x == 0 for x in entries):
            return f"{which} is 0"
        if v.domain == "symmetric":
            n = value.shape[0]
            if any(exact_number(value[i, j]) != exact_number(value[j, i])
                   for i in range(n) for j in range(i + 1, n)):
                return f"{v.name} is not symmetric"
    return None


def decide(claim: Claim, instance: dict, traced: Traced | None = None,
           max_work: int = MAX_WORK) -> Decision:
    """Exact verdict of the claim on an instance of exact rationals.

    Never raises (short of KeyboardInterrupt, and NotAScalar: a claim whose residual
    is not a scalar is the user's to fix): whatever cannot be decided, for whatever
    reason, is UNDECIDED with the reason (a refusal of the tracer that the claim
    caught: "outside the fragment: <reason>").  An entry outside its
    variable's declared domain, a hypothesis proved ≤ 0, or an operation proved
    undefined, puts the instance outside the claim; a hypothesis whose sign is
    undecided leaves the verdict undecided.  All of it within max_work."""
    evaluator = None

    def decision(verdict, residual, detail):
        return Decision(verdict, residual, detail, evaluator.work if evaluator else 0)

    try:
        sizes = sizes_of(claim, instance)
        why = outside_domains(claim, instance)
        if why is not None:
            return decision(OUTSIDE, None, f"outside the claim's declared domains: {why}")
        traced = traced or trace(claim, sizes)
        evaluator = Evaluator(traced.steps, lookup(instance), max_work)
        for k, h in enumerate(traced.hypotheses):
            sign = evaluator.sign(h)
            if sign.sign is None:
                return decision(UNDECIDED, None, f"{traced.label(k)}: {sign.how}")
            if sign.sign != 1:
                return decision(OUTSIDE, None, f"{traced.label(k)} is not > 0 ({sign.how})")
        for k, e in enumerate(traced.equalities):  # exactly 0: never "within rounding of 0"
            sign = evaluator.sign(e)
            if sign.sign is None:
                return decision(UNDECIDED, None, f"equality {k + 1}: {sign.how}")
            if sign.sign != 0:
                return decision(OUTSIDE, None, f"equality {k + 1} is not exactly 0 ({sign.how})")
        sign = evaluator.sign(traced.residual)
    except DomainError as err:
        return decision(OUTSIDE, None, f"outside the claim's domain: {err}")
    except TraceRefused as err:
        return decision(UNDECIDED, None, f"outside the fragment: {err.reason}")
    except (KeyboardInterrupt, NotAScalar):  # NotAScalar: the claim's mistake, bad input (exit 3)
        raise
    except BaseException as err:  # a bug or a hostile claim (even sys.exit): never a verdict it did not earn
        return decision(UNDECIDED, None, f"undecided: {type(err).__name__}: {err}")
    if sign.sign is None:
        return decision(UNDECIDED, sign, sign.how)
    return decision(HOLDS if claim.holds(sign.sign) else REFUTED, sign, sign.how)


def exact_instance(instance: dict) -> dict:
    """Nested lists of Fractions from floats, ints, Fractions or strings."""

    def conv(x):
        if isinstance(x, (list, tuple, np.ndarray)):
            return [conv(e) for e in x]
        return exact_number(x)

    return {k: conv(v) for k, v in instance.items()}
