"""The symbolic-length program against the claim itself: the second reading.

The checker replays the traced program faithfully, but whether that program IS the
claim's residual under numpy's semantics rests on the tracer (values.py,
namespace.py): a broadcasting rule, a branch the claim took on an introspection, a
refusal it caught, each gives a proof of another statement.  So before a proof is
reported, the program instantiated at several batch sizes (the checker's
instantiate) is compared with the claim's own code read by bnproof.reading, which
shares nothing with the tracer: at random *generic* instances (no ties, no zeros,
full rank, never the witness), where a misreading shows, rather than at the
witness, where the hypotheses hold and degenerate readings often agree.  Every
residual and hypothesis value must be exactly equal.  Points never prove
agreement; one disagreement refutes it (exit 7, a bug of the tracer).
"""

from __future__ import annotations

from fractions import Fraction

# batch sizes the program is compared at: beyond the witness's small m, past the
# thresholds a claim's Python could hide (m ≥ 7 in the review's example).  m = 9 doubled
# the cost (a claim with an m × m Hessian reads in O(m³)) for a size the tracer itself
# cannot branch on: m is a traced value, and comparing it with a number is refused
SIZES = (2, 3, 4, 5, 7)
PER_SIZE = 1  # generic instances per batch size

# ... and at every size of the claim's declared range: `type(m) is int` and `m is 8` ask
# nothing of a traced size, so a branch on them is invisible to the tracer and shows only
# where the reading is compared at that very size (a point, m is 8, is missed by any
# sample).  A declared range past these caps is not compared at all its sizes: the proof
# is then withheld with the reason, never reported as compared where it was not
MAX_DECLARED = 12  # the largest declared m (or d) compared at
MAX_PAIRS = 48  # (m, d) pairs of a proof for every m and every d


def _declared(claim, name: str) -> range:
    # from 1: a size 0 is bad input (search/space.py), refused before any proof
    lo, hi = claim.sizes.get(name, (1, 0))
    return range(max(lo, 1), hi + 1)


def _beyond(claim, names) -> str | None:
    """Why the declared range cannot be compared at every size, or None."""
    for name in names:
        top = _declared(claim, name)
        if len(top) and top[-1] > MAX_DECLARED:
            return (f"{claim.id} declares {name} up to {top[-1]}, and the second reading compares "
                    f"at {name} <= {MAX_DECLARED} only: a branch of its code on a size beyond (type({name}) "
                    f"is int, {name} is N), which no traced size can refuse, would go unseen")
    return None


def sizes_every_m(claim) -> tuple:
    """SIZES and every batch size of the claim's declared range."""
    from .trace import batch_name

    return tuple(sorted(set(SIZES) | set(_declared(claim, batch_name(claim) or "m"))))


def claim_steps(steps: list) -> list:
    """The instantiated program with the claim's own input names: the symbolic program
    names a column j of a batch matrix X "X:j" and an entry k of a fixed-size array w
    "w:k"; the claim's instance has X[i][j] and w[k]."""
    out = []
    for step in steps:
        if step[0] == "input" and ":" in step[1]:
            base, *fixed = step[1].split(":")
            step = ["input", base, *step[2:], *(int(k) for k in fixed)]
        out.append(step)
    return out


def instantiated(program: dict, m: int) -> dict:
    """The symbolic-length program at batch size m, in the fixed-size certificate format
    with the claim's input names (the checker's instantiate; raises its Rejected)."""
    from ..checker.instantiate import instantiate
    from ..checker.symbolic_program import read_inputs, read_steps

    inputs = read_inputs(program["inputs"])
    types: list = []
    ops = read_steps(program["steps"], inputs, types, "program.steps")
    steps, vals = instantiate(inputs, ops, types, m)
    out = {"steps": claim_steps(steps), "residual": vals[program["residual"]],
           "hypotheses": [vals[h] for h in program["hypotheses"]]}
    if "equalities" in program:
        out["equalities"] = [vals[e] for e in program["equalities"]]
    return out


def on_the_set(claim, instances: list) -> list:
    """Generic instances moved onto the claim's equality set; ValueError when one cannot
    be, for then the proof, which holds only on the set, would be compared off it.  First
    each equality solved along one entry by a rational secant (search/equalities.py
    on_constraints); where that fails (no rational point: γ = σ; a quadratic such as
    Σy² = m beside Σy = 0), the entries solved in closed form over Q(√…) and the result
    admitted only when the reading proves it on the set (on_set_exactly): its entries are
    then algebraic, which the exact readings take as they are and the float reading
    rounded, within its bound."""
    if not claim.equalities:
        return instances
    from ..search.equalities import NotOnSet, on_constraints, on_set_exactly

    moved = []
    for instance in instances:
        rational = on_constraints(claim, instance)
        if rational is not instance:
            moved.append(rational)
            continue
        try:
            moved.append(on_set_exactly(claim, instance))
        except NotOnSet as err:
            raise ValueError(f"no generic instance on the set of the equality hypotheses could be drawn "
                             f"(no rational one by a secant; in closed form: {err})") from None
    return moved


def second_reading(claim, fixed: dict, program: dict, avoid=(), sizes=None, seed: int = 0):
    """The second reading's Confirmation (bnproof.reading: agrees | disagrees |
    inconclusive) of the program against the claim at generic instances of every batch
    size in `sizes` (sizes_every_m: inconclusive when the declared range is past
    MAX_DECLARED); the first disagreement or inconclusive size decides."""
    from .. import reading
    from ..checker.parse import Rejected

    from .trace import batch_name

    if sizes is None:
        why = _beyond(claim, [batch_name(claim) or "m"])
        if why is not None:
            return reading.Confirmation(reading.INCONCLUSIVE, why)
        sizes = sizes_every_m(claim)
    compared = 0
    for m in sizes:
        at = {**fixed, batch_name(claim) or "m": m}
        try:
            fixed_program = instantiated(program, m)
            instances = on_the_set(claim, reading.generic_instances(claim, at, PER_SIZE, seed=seed,
                                                                     avoid=avoid))
        except (Rejected, ValueError) as err:
            return reading.Confirmation(reading.INCONCLUSIVE, f"at m = {m}: {err}")
        result = reading.confirm_program(claim, fixed_program, instances)
        if result.status != reading.AGREES:
            return reading.Confirmation(result.status, f"at m = {m}: {result.detail}", compared)
        compared += result.compared
    return reading.Confirmation(reading.AGREES, f"the program equals the claim at {compared} generic "
                                                f"instances, m = {', '.join(map(str, sizes))}", compared)


def gate(claim, fixed: dict, program: dict, avoid=()) -> str | None:
    """claims.second_reading's answer for a proof for every m at these fixed sizes: None
    (agrees), a reason (cannot confirm), or errors.Disagreement raised."""
    from ..claims.second_reading import settle

    at = "".join(f" at {k} = {v}" for k, v in sorted(fixed.items()))
    return settle(second_reading(claim, fixed, program, avoid=avoid), f"the proof of {claim.id} for every m{at}")


# a proof for every m and every d (every_d.py) is compared at these (m, d): every d from
# 1 to 4, each batch size of SIZES, so that a claim's Python that branches on d (a
# refusal the tracer may have missed) shows at a d the witness is not at
SIZES_EVERY_D = ((2, 1), (3, 2), (4, 3), (5, 4), (7, 1), (2, 4), (3, 3))


def sizes_every_d(claim, batch: str, feature: str) -> tuple:
    """SIZES_EVERY_D and every (m, d) of the claim's declared ranges (a branch may be on
    both: m is 5 and d is 3)."""
    declared = {(m, d) for m in _declared(claim, batch) for d in _declared(claim, feature)}
    return SIZES_EVERY_D + tuple(sorted(declared - set(SIZES_EVERY_D)))


def second_reading_every_d(claim, program: dict, batch: str, feature: str, avoid=(), sizes=None,
                           seed: int = 0):
    """second_reading for a program of method "every-d": instantiated at each (m, d) by the
    checker (checker/every_d.py) and compared with the claim's own code there (sizes_every_d:
    inconclusive past MAX_DECLARED or MAX_PAIRS)."""
    from .. import reading
    from ..checker.every_d import instantiate, read_inputs, read_steps
    from ..checker.parse import Rejected

    if sizes is None:
        why = _beyond(claim, [batch, feature])
        pairs = len(_declared(claim, batch)) * len(_declared(claim, feature))
        if why is None and pairs > MAX_PAIRS:
            why = (f"{claim.id} declares {pairs} pairs ({batch}, {feature}), and the second reading "
                   f"compares at {MAX_PAIRS} at most: a branch of its code on a pair beyond would go unseen")
        if why is not None:
            return reading.Confirmation(reading.INCONCLUSIVE, why)
        sizes = sizes_every_d(claim, batch, feature)
    compared = 0
    for m, d in sizes:
        try:
            inputs = read_inputs(program["inputs"])
            ops = read_steps(program["steps"], inputs)
            steps, scalars = instantiate(inputs, ops, m, d)
            fixed_program = {"steps": steps, "residual": scalars[program["residual"]],
                             "hypotheses": [scalars[h] for h in program["hypotheses"]]}
            instances = reading.generic_instances(claim, {batch: m, feature: d}, PER_SIZE, seed=seed,
                                                  avoid=avoid)
        except (Rejected, ValueError) as err:
            return reading.Confirmation(reading.INCONCLUSIVE, f"at m = {m}, d = {d}: {err}")
        result = reading.confirm_program(claim, fixed_program, instances)
        if result.status != reading.AGREES:
            return reading.Confirmation(result.status, f"at m = {m}, d = {d}: {result.detail}", compared)
        compared += result.compared
    at = "; ".join(f"m = {m}, d = {d}" for m, d in sizes)
    return reading.Confirmation(reading.AGREES, f"the program equals the claim at {compared} generic "
                                                f"instances, {at}", compared)


def gate_every_d(claim, program: dict, batch: str, feature: str, avoid=()) -> str | None:
    """gate for a proof for every m and every d."""
    from ..claims.second_reading import settle

    return settle(second_reading_every_d(claim, program, batch, feature, avoid=avoid),
                  f"the proof of {claim.id} for every m and every d")
