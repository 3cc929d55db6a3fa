"""Witness hints: a claim's own proposal of a witness, as a function of x.

`Claim(hints=(h, ...))`: each h(xp, **universal variables) returns the values of
the existential variables (a dict by name, or the value alone when there is one)
as exact arithmetic on x.  A hint is traced into a program of its own, over the
universal inputs only, so its value at an instance may be irrational (γ = σ(y)):
the witness is then that program, and the claim's program with each existential
input replaced by the hint's output (`compose`) is decided at x like any claim.
A hint proposes, it never decides: its witness is confirmed exactly like any
other, a hint that is undefined at x or fails there is no witness, and one that
cannot be traced is left out with a note, never a verdict."""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..program.evaluate import DomainError, Evaluator
from ..program.trace import Program
from . import xp as namespaces
from .decide import _inputs, _node, lookup


@dataclass(frozen=True)
class HintProgram:
    steps: list  # over the universal inputs only
    outputs: tuple  # one step per existential coordinate, in ExistsTraced.coordinates' order


def trace_hints(claim, sizes: dict, coordinates: tuple) -> tuple[list, list]:
    """(the hints that trace, a note for each that does not)."""
    programs, notes = [], []
    for n, hint in enumerate(getattr(claim, "hints", ())):
        try:
            programs.append(_trace_one(claim, sizes, coordinates, hint))
        except KeyboardInterrupt:
            raise
        except Exception as err:  # noqa: BLE001 - a hint only proposes: never fatal
            notes.append(f"hint {n + 1} could not be traced: {type(err).__name__}: {err}")
            programs.append(None)
    return programs, notes


def _trace_one(claim, sizes: dict, coordinates: tuple, hint) -> HintProgram:
    program = Program()
    for v in claim.variables:
        program.reserve(math.prod(int(n) for n in claim.shape_of(v, sizes)))
    xp = namespaces.trace(program)
    values = {v.name: _inputs(program, v, claim.shape_of(v, sizes)) for v in claim.variables}
    with program:
        out = hint(xp, **values)
        if not isinstance(out, dict):
            if len(claim.exists) != 1:
                raise ValueError("with several existential variables a hint returns a dict of their values")
            out = {claim.exists[0].name: out}
        names = {v.name for v in claim.exists}
        if set(out) != names:
            raise ValueError(f"a hint gives values of {sorted(out)}, the existential variables are {sorted(names)}")
        outputs = []
        for v in claim.exists:
            shape = claim.shape_of(v, sizes)
            value = np.asarray(out[v.name], dtype=object)
            if value.shape != tuple(shape):
                raise ValueError(f"a hint's value of {v.name} has shape {value.shape}, not {tuple(shape)}")
            for index in itertools.product(*(range(n) for n in shape)):
                outputs.append(_node(program, value[index], hint, f"hint value of {v.name}").index)
    program.check()
    assert len(outputs) == len(coordinates)
    return HintProgram(program.steps, tuple(outputs))


def compose(hint: HintProgram, steps: list, unknown: set, coordinates: tuple) -> tuple[list, int]:
    """The claim's program with each existential input replaced by a copy (pow 1) of the
    hint's output: (steps, offset of the claim's step k, which is offset + k)."""
    at = {c: o for c, o in zip(coordinates, hint.outputs)}
    offset = len(hint.steps)
    out = list(hint.steps)
    for step in steps:
        op = step[0]
        if op == "input" and step[1] in unknown:
            out.append(["pow", at[(step[1], tuple(step[2:]))], 1])
        elif op in ("input", "const", "pi"):
            out.append(list(step))
        elif op == "pow":
            out.append(["pow", step[1] + offset, step[2]])
        else:
            out.append([op, *(j + offset for j in step[1:])])
    return out, offset


def rational_values(hint: HintProgram, instance: dict) -> tuple[list | None, str | None]:
    """(the hint's values at x as Fractions, None) where each is rational; (None, None) where
    one is irrational; (None, why) where the hint is undefined or undecided at x."""
    evaluator = Evaluator(hint.steps, lookup(instance))
    values = []
    try:
        for o in hint.outputs:
            if evaluator.sign(o).sign is None:
                return None, "the hint's value could not be decided"
            values.append(evaluator.exact.get(o))
    except DomainError as err:
        return None, f"the hint is undefined here: {err}"
    if any(v is None for v in values):
        return None, None
    return [Fraction(v) for v in values], None


def composed_holds(claim, steps: list, residuals, instance: dict) -> bool:
    """Every residual of the composed program decided exactly with the wanted sign at x."""
    evaluator = Evaluator(steps, lookup(instance))
    try:
        signs = [evaluator.sign(r).sign for r in residuals]
    except DomainError:
        return False
    return all(s is not None and claim.holds(s) for s in signs)


def substituted(claim, n: int):
    """The claim with hint n put in for its existential variables: the residual and
    hypotheses ignore the existential values they are given and read the hint's instead.
    The second reading reads it (the claim's code and the hint's, without the tracer) at
    any values of the existential variables (`placeholder`)."""
    hint = claim.hints[n]
    exists = tuple(claim.exists)
    names = {v.name for v in exists}

    def split(xp, kwargs):
        universal = {k: v for k, v in kwargs.items() if k not in names}
        out = hint(xp, **universal)
        return universal, (out if isinstance(out, dict) else {exists[0].name: out})

    def residual(xp, **kwargs):
        universal, values = split(xp, kwargs)
        return claim.residual(xp, **universal, **values)

    def hypothesis(h):
        def read(xp, **kwargs):
            universal, values = split(xp, kwargs)
            return h(xp, **universal, **values)
        return read

    return dataclasses.replace(claim, residual=residual, hints=(),
                               hypotheses=tuple(hypothesis(h) for h in claim.hypotheses))


def placeholder(claim, sizes: dict) -> dict:
    """Zeros for the existential variables: values `substituted` ignores."""
    return {v.name: np.zeros(claim.shape_of(v, sizes), dtype=int).tolist() if v.shape else 0
            for v in claim.exists}


def sizes_at(claim, instance: dict) -> dict:
    """The sizes an instance of the universal variables fixes."""
    out = {}
    for v in claim.variables:
        shape = np.shape(np.asarray(instance[v.name], dtype=object))
        out.update({s: n for s, n in zip(v.shape, shape) if not isinstance(s, int)})
    return out


def reading(claim, n: int, instance: dict, sizes: dict | None = None) -> str | None:
    """The second reading of hint n's witness at x (claims/second_reading.witness_verdict:
    None, a reason it cannot confirm, or Disagreement, exit 7)."""
    from .second_reading import witness_verdict

    sizes = sizes_at(claim, instance) if sizes is None else sizes
    return witness_verdict(substituted(claim, n), instance, placeholder(claim, sizes))
