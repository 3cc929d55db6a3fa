"""The symbolic-length program against the claim itself, at concrete instances.

The checker replays the traced program faithfully, but whether that program IS the
claim's residual under numpy's semantics rests on the tracer (values.py,
namespace.py): a broadcasting rule or an axis read otherwise gives a proof of another
statement.  So before a proof is certified, the program instantiated at the witness's
m (the checker's instantiate) and the claim's own fixed-size trace (the exact engine's)
are evaluated on the same instance by the checker's exact evaluator, and their
residuals and hypotheses must be exactly equal.  A point never proves agreement; a
disagreement refutes it, and then there is no proof."""

from __future__ import annotations

from fractions import Fraction

import numpy as np


def disagreement(claim, fixed: dict, program: dict, m: int, program_values: dict,
                 instance: dict) -> str | None:
    """Why the program and the claim differ at this instance (program_values keyed by the
    program's input names, instance by the claim's variables), or None if every residual
    and hypothesis value agrees exactly."""
    from ..certificate.program import program_of
    from ..checker import program as fixed_program
    from ..checker.instantiate import instantiate
    from ..checker.parse import Rejected
    from ..checker.symbolic_program import read_inputs, read_steps
    from ..claims.decide import trace

    try:
        inputs = read_inputs(program["inputs"])
        types: list = []
        ops = read_steps(program["steps"], inputs, types, "program.steps")
        steps, vals = instantiate(inputs, ops, types, m)
        ours = fixed_program.parse_steps(steps, _values(program_values))
        theirs = program_of(trace(claim, {**fixed, "m": m}))
        exact = fixed_program.parse_steps(theirs["steps"], _values(instance))
    except Rejected as err:
        return f"the program could not be compared with the claim at m = {m}: {err}"
    except Exception as err:  # noqa: BLE001 - the claim is the user's code: no comparison, no proof
        return f"the program could not be compared with the claim at m = {m}: {type(err).__name__}: {err}"
    if len(theirs["hypotheses"]) != len(program["hypotheses"]):
        return (f"the program has {len(program['hypotheses'])} hypotheses, the claim "
                f"{len(theirs['hypotheses'])} at m = {m}")
    shift = len(ours)
    combined = ours + [(op, tuple(j + shift for j in args), n) for op, args, n in exact]
    pairs = [("the residual", vals[program["residual"]], theirs["residual"])]
    pairs += [(f"hypothesis {k}", vals[h], theirs["hypotheses"][k])
              for k, h in enumerate(program["hypotheses"])]
    facts = []
    for name, a, b in pairs:
        combined.append(("sub", (a, b + shift), None))
        facts.append((name, len(combined) - 1, "zero"))
    try:
        fixed_program.evaluate(combined, facts)
    except Rejected as err:
        return (f"the traced program is not the claim's at m = {m} on an exact instance "
                f"({err}): the symbolic-length backend reads the claim otherwise than numpy")
    return None


def _values(values: dict) -> dict:
    """Exact Fractions in nested lists, as the checker's evaluator looks inputs up."""
    def exact(v):
        if isinstance(v, (list, tuple, np.ndarray)):
            return [exact(x) for x in (v.tolist() if isinstance(v, np.ndarray) else v)]
        return Fraction(v)
    return {name: exact(v) for name, v in values.items()}
