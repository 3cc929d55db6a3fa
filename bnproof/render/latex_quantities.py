"""The quantities a claim names (Claim.quantities: LHS, RHS, μ, σ, ŷ, …), evaluated
exactly on a refutation's counterexample for the referee's report.

Each function is traced with the claim language's exact namespace, as the
residual is, and the trace is evaluated on the certificate's instance by the
exact evaluator; nothing is read from text as code (the functions come from
the claim object the user gave, never from the certificate)."""

from __future__ import annotations


import numpy as np
import sympy

from ..claims import xp as namespaces
from ..claims.decide import _inputs as input_array, _node as node
from ..program.evaluate import to_sympy, tree_sizes
from ..program.trace import Program


def evaluate(claim, instance: dict, lookup, max_tree: int) -> list[tuple[str, list | None]]:
    """[(LaTeX name, exact entries or None where too large or undefined)] in the claim's order;
    a scalar quantity has one entry."""
    sizes = _sizes(claim, instance)
    return [(name, _entries(claim, sizes, function, lookup, max_tree))
            for name, function in getattr(claim, "quantities", {}).items()]


def sides_sign(claim, instance: dict, lookup) -> int | None:
    """The sign of LHS − RHS (the claim's quantities of those names, scalars), decided
    exactly by the engine (an exact zero test, never a rounded comparison); None when
    undecided, undefined or not two scalars."""
    from ..program.evaluate import DomainError, decide_sign

    functions = getattr(claim, "quantities", {})
    lhs, rhs = functions.get("LHS"), functions.get("RHS")
    if lhs is None or rhs is None:
        return None
    program = Program()
    xp = namespaces.trace(program)
    values = {v.name: input_array(program, v, claim.shape_of(v, _sizes(claim, instance)))
              for v in claim.variables}
    try:
        gap = lhs(xp, **values) - rhs(xp, **values)
        if isinstance(gap, np.ndarray):
            return None
        index = node(program, gap).index
        return decide_sign(program.steps, lookup, index).sign
    except (ValueError, TypeError, ArithmeticError, DomainError):
        return None


def entry_counts(claim, instance: dict, functions) -> list[int] | None:
    """How many scalar entries each function (a hypothesis) has at the instance's sizes,
    traced as the certificate's program was; None when one cannot be traced."""
    try:
        sizes = _sizes(claim, instance)
    except (KeyError, TypeError, ValueError):
        return None
    counts = []
    for function in functions:
        program = Program()
        xp = namespaces.trace(program)
        values = {v.name: input_array(program, v, claim.shape_of(v, sizes)) for v in claim.variables}
        try:
            value = function(xp, **values)
        except (ValueError, TypeError, ArithmeticError):
            return None
        counts.append(value.size if isinstance(value, np.ndarray) else 1)
    return counts


def _sizes(claim, instance: dict) -> dict:
    sizes = {}
    for v in claim.variables:
        shape = np.shape(np.array(instance[v.name], dtype=object))
        for name, n in zip(v.shape, shape):
            if not isinstance(name, int):
                sizes[name] = n
    return sizes


def _entries(claim, sizes, function, lookup, max_tree):
    program = Program()
    xp = namespaces.trace(program)
    values = {v.name: input_array(program, v, claim.shape_of(v, sizes)) for v in claim.variables}
    try:
        value = function(xp, **values)
        items = value.ravel() if isinstance(value, np.ndarray) else [value]
        indices = [node(program, item).index for item in items]
    except (ValueError, TypeError, ArithmeticError):
        return None
    if _tree(program.steps, indices) > max_tree:
        return None
    try:
        return [sympy.radsimp(sympy.expand(to_sympy(program.steps[: i + 1], lookup, i)))
                for i in indices]
    except (ValueError, TypeError, ArithmeticError, KeyError, IndexError):
        return None  # undefined on this instance (a guard left it absent, a division by 0)


def _tree(steps: list, indices: list) -> int:
    sizes = tree_sizes(steps)
    return sum(sizes[i] for i in indices) if indices else 0
