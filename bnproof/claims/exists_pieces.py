"""Case splits by activation pattern: a piecewise-linear existential claim, piece by piece.

Where p enters the residuals through relu/max/min/abs and is otherwise affine
(relu(w·x) = |x|), fixing which operand each such step takes (its activation
pattern) leaves an affine system in p, plus the pattern's own conditions
(a ≥ b where max(a, b) is taken to be a; a ≥ 0 where |a| is taken to be a).
With rational coefficients at x each piece is a linear program in exact
rationals, which z3's linear arithmetic decides completely: a rational point of
a piece is a candidate witness (confirmed on the claim's own program
afterwards, so a tie between two branches costs nothing).  The patterns tried
first are those of the points the numeric search and z3 proposed, then every
pattern, up to MAX_PATTERNS, each within its share of the instance's time.  A piece never proves that no witness exists:
only witnesses come from here."""

from __future__ import annotations

import itertools

from ..checker.exists_query import cone, lines
from ..checker.farkas import degree
from ..program.evaluate import DomainError, Evaluator
from .decide import lookup

SPLIT = ("abs", "max", "min")
MAX_PATTERNS = 64


def split_steps(traced) -> list[int]:
    """The live abs/max/min steps whose operands depend on p."""
    return [k for k, step in enumerate(traced.steps)
            if traced.live[k] and step[0] in SPLIT and any(traced.degrees[j] for j in step[1:])]


def piece(steps: list, pattern: dict) -> list:
    """The steps with each split step k replaced by the operand pattern[k] selects: for abs,
    0 keeps a and 1 negates it; for max/min, 0 takes a and 1 takes b (pow 1 is a copy)."""
    out = list(steps)
    for k, branch in pattern.items():
        op, *args = steps[k]
        if op == "abs":
            out[k] = ["pow", args[0], 1] if branch == 0 else ["neg", args[0]]
        else:
            out[k] = ["pow", args[branch], 1]
    return out


def conditions(steps: list, pattern: dict) -> list[tuple[int, int | None]]:
    """Each branch's condition as (i, j): value i − value j ≥ 0 (j None: value i ≥ 0;
    a negated abs operand is written (None, a) below, read as −a ≥ 0)."""
    out = []
    for k, branch in pattern.items():
        op, *args = steps[k]
        if op == "abs":
            out.append((args[0], None) if branch == 0 else (None, args[0]))
        elif op == "max":
            out.append((args[0], args[1]) if branch == 0 else (args[1], args[0]))
        else:  # min takes the smaller
            out.append((args[1], args[0]) if branch == 0 else (args[0], args[1]))
    return out


def applies(traced, unknown: set) -> bool:
    """Whether every piece is affine in p (and there is more than one)."""
    split = split_steps(traced)
    if not split:
        return False
    deg = degree(piece(traced.steps, {k: 0 for k in split}), unknown)
    return all(deg[r] <= 1 for r in traced.residuals)


def pattern_at(traced, instance: dict, witness: dict, split: list) -> dict | None:
    """The activation pattern of the claim's program at (x, p), decided exactly."""
    try:
        signs = {}
        evaluator = Evaluator(traced.steps, lookup({**instance, **witness}))
        for r in traced.residuals:
            signs.update(evaluator.branch_signs(r))
    except (DomainError, ArithmeticError):
        return None
    pattern = {}
    for k in split:
        if k not in signs:
            return None
        op, s = traced.steps[k][0], signs[k]
        # abs and max take a where the discriminant (a, or a − b) is ≥ 0; min where it is ≤ 0
        pattern[k] = (0 if s >= 0 else 1) if op in ("abs", "max") else (0 if s <= 0 else 1)
    return pattern


def patterns(split: list, first: list):
    """The given patterns, then every pattern, without repeats, at most MAX_PATTERNS."""
    seen = set()
    for pattern in itertools.chain(first, (dict(zip(split, bits))
                                           for bits in itertools.product((0, 1), repeat=len(split)))):
        key = tuple(pattern[k] for k in split)
        if key in seen:
            continue
        seen.add(key)
        yield pattern
        if len(seen) >= MAX_PATTERNS:
            return


def query(steps: list, instance: dict, unknown: set, residuals: list, kind: str, conds: list) -> str:
    """The question "is there a p in this piece?": the checker's query of the piece's
    program (its steps are the claim's with each split step a copy or a negation), with
    the pattern's conditions asserted too."""
    live = cone(steps, list(residuals) + [j for c in conds for j in c if j is not None])
    text = list(lines(steps, live, instance, unknown, list(residuals), kind))
    asserted = []
    for i, j in conds:
        if j is None:
            asserted.append(f"(assert (>= v{i} 0.0))")
        elif i is None:
            asserted.append(f"(assert (<= v{j} 0.0))")
        else:
            asserted.append(f"(assert (>= (- v{i} v{j}) 0.0))")
    return "".join(line + "\n" for line in text[:-1] + asserted + text[-1:])
