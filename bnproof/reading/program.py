"""The certificate program format, read in the reference algebra.

An interpreter of the fixed-size program format (program/trace.py's
docstring), written apart from program/evaluate.py: each step is the
reference's own operation on values.py's exact values, and only the steps
the requested outputs read are evaluated (their cone), as the engine does.
An undefined step in that cone makes the output undefined (a poisoned
value, never a number); the symbolic-size steps ("m", "sum", "ones", …) are
not part of this format.
"""

from __future__ import annotations

import math
import numbers

import symengine as se

from .instances import constant_text, exact_number
from .session import Session, scope
from .values import _ADD, _DIV, _MUL, _SUB, ABSENT, UNDEFINED, Value, _unary, arith, branch, constant, guard, \
    poison, power, symbolic_constant

MAX_STEPS = 1_000_000
MAX_POW = 64  # as the tracer emits and the checker accepts
BINARY = {"add": _ADD, "sub": _SUB, "mul": _MUL, "div": _DIV}
UNARY = {"neg": "neg", "sqrt": "sqrt", "abs": "abs", "exp": "exp", "log": "log", "acos": "acos",
         "tanh": "tanh"}


def _index(x, below: int) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < below:
        raise ValueError(f"a step refers to value {x!r}, not an earlier step")
    return x


def _operands(step: list, i: int) -> list:
    op = step[0]
    if op in BINARY or op in ("max", "min", "guard"):
        if len(step) != 3:
            raise ValueError(f"step {i}: {op} takes two operands")
        return [_index(step[1], i), _index(step[2], i)]
    if op in UNARY or op == "pow":
        if len(step) != (3 if op == "pow" else 2):
            raise ValueError(f"step {i}: malformed {op}")
        return [_index(step[1], i)]
    if op in ("input", "const", "pi"):
        return []
    raise ValueError(f"step {i}: unknown operation {op!r}")


def _cone(steps: list, outputs: list) -> list:
    needed, stack = set(), list(outputs)
    while stack:
        i = stack.pop()
        if i in needed:
            continue
        needed.add(i)
        step = steps[i]
        if not isinstance(step, list) or not step or not isinstance(step[0], str):
            raise ValueError(f"step {i} is not a list starting with an operation")
        stack.extend(_operands(step, i))
    return sorted(needed)


def _input(instance: dict, step: list) -> Value:
    name, index = step[1], step[2:]
    if not isinstance(name, str) or name not in instance:
        raise ValueError(f"the instance has no input {name!r}")
    value = instance[name]
    for k in index:
        if isinstance(k, bool) or not isinstance(k, int) or not isinstance(value, (list, tuple)) \
                or not 0 <= k < len(value):
            raise ValueError(f"input {name}{list(index)} is not in the instance")
        value = value[k]
    if isinstance(value, (list, tuple)):
        raise ValueError(f"input {name}{list(index)} is not a number of the instance")
    return constant(exact_number(value))


def _step(step: list, values: dict, instance: dict) -> Value:
    op = step[0]
    if op == "input":
        return _input(instance, step)
    if op == "const":
        if len(step) != 2:
            raise ValueError("malformed const")
        return constant(constant_text(step[1]))
    if op == "pi":
        return symbolic_constant(se.pi, math.pi)
    if op in BINARY:
        return arith(BINARY[op], values[step[1]], values[step[2]])
    if op in UNARY:
        return _unary(values[step[1]], UNARY[op])
    if op == "pow":
        k = step[2]
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not 0 <= k <= MAX_POW:
            raise ValueError(f"pow takes an integer exponent 0..{MAX_POW}, got {k!r}")
        return power(values[step[1]], int(k))
    if op in ("max", "min"):
        return branch(values[step[1]], values[step[2]], op == "max")
    if op == "guard":
        return guard(values[step[1]], values[step[2]])
    raise ValueError(f"unknown operation {op!r}")  # pragma: no cover - _cone refused it


PIECEWISE = frozenset({"abs", "max", "min", "guard"})


def piecewise_steps(steps: list, outputs: list) -> int:
    """How many steps of abs, max, min and guard the outputs read (their cone)."""
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise ValueError(f"a program is a list of at most {MAX_STEPS} steps")
    return sum(steps[i][0] in PIECEWISE for i in _cone(steps, [_index(o, len(steps)) for o in outputs]))


def program_values(steps: list, outputs: list, instance: dict, session: Session | None = None) -> list:
    """The values of `outputs` (step indices) at `instance`, each a Value (poisoned where
    undefined or inconclusive).  Malformed programs raise ValueError."""
    if not isinstance(steps, list) or len(steps) > MAX_STEPS:
        raise ValueError(f"a program is a list of at most {MAX_STEPS} steps")
    outputs = [_index(o, len(steps)) for o in outputs]
    session = session or Session()
    with scope(session):
        values: dict = {}
        for i in _cone(steps, outputs):
            values[i] = _step(steps[i], values, instance)
        out = []
        for o in outputs:
            v = values[o]
            if v.bad is not None and v.bad[0] == ABSENT:  # an absent output is undefined
                v = poison(UNDEFINED, f"the output is absent: {v.bad[1]}")
            out.append(v)
        return out


def program_value(steps: list, output, instance: dict) -> Value | list:
    """The value of step `output` (an index, or a list of indices: then a list) at
    `instance` (name -> nested lists of exact numbers), in the reference algebra."""
    if isinstance(output, (list, tuple)):
        return program_values(steps, list(output), instance)
    return program_values(steps, [output], instance)[0]
