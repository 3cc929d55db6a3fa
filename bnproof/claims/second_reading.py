"""No verdict without the second reading: the gate every reported verdict passes.

The engine, the checker and the SMT judges all judge the program the tracer made
of a claim's Python code; when the tracer misreads the code, all three agree on a
wrong verdict.  bnproof.reading reads the claim again, independently of the
tracer and of the dual numbers (the claim's own code on numpy object arrays of
exact values, gradients by symbolic differentiation).  Each function here asks
it about one verdict and answers in one of three ways:

  * None: the readings agree, the verdict may be reported;
  * a reason (str): the second reading could not confirm it (a construct it
    cannot read, a cap reached), so the verdict is not reported: undecided;
  * errors.Disagreement raised (exit 7): the readings differ, a bug of the
    tracer or of the engine, never a verdict.
"""

from __future__ import annotations

from ..errors import Disagreement

FIXED_SIZE_INSTANCES = 2  # generic instances a fixed-size proof is compared at


def settle(confirmation, what: str) -> str | None:
    from .. import reading

    if confirmation.status == reading.AGREES:
        return None
    if confirmation.status == reading.DISAGREES:
        raise Disagreement(f"internal disagreement: {what}: the traced program and the claim's own "
                           f"code read independently differ ({confirmation.detail})")
    return f"the second reading could not confirm {what}: {confirmation.detail}"


def instance_verdict(claim, instance: dict, decision, witness: dict | None = None,
                     floats: bool = True) -> str | None:
    """The engine's decision at an instance (a refutation's counterexample, the data of
    `verify --data`) against the reference reading, then against numpy's float64 reading
    (always: it needs no JAX) and JAX float64 (floats)."""
    from .. import reading

    why = settle(reading.confirm(claim, instance, decision, witness),
                  f"the verdict {decision.verdict} of {claim.id}")
    if why is not None or decision.verdict not in ("refuted", "holds"):
        return why
    # floats only flag a gross difference; a float check with no number to compare (silent)
    # withholds nothing, one whose floats computed a number the exact reading's operations do
    # not explain withholds the verdict (fails closed: reading/floats.py).  numpy's is the
    # semantics the claim is written in: a claim that branches on type(v) or dtype reads
    # alike in every exact reading and otherwise under numpy
    checks = [("numpy float64", reading.confirm_numpy)] + ([("JAX float64", reading.confirm_floats)]
                                                            if floats else [])
    for name, check in checks:
        result = check(claim, instance, witness=witness)
        if result.status == reading.DISAGREES:
            raise Disagreement(f"internal disagreement: {name} and the exact reading of {claim.id} "
                               f"differ ({result.detail})")
        if result.status == reading.INCONCLUSIVE and not result.silent:
            return (f"the second reading could not confirm the verdict {decision.verdict} of {claim.id}: "
                    f"{name}: {result.detail}")
    return None


def witness_verdict(claim, instance: dict, witness: dict) -> str | None:
    """An existential claim holds at `instance` by the engine's `witness`: the claim's own
    code at that witness must hold too."""
    from .. import reading

    read = reading.read(claim, instance, witness)
    if read.verdict == reading.HOLDS:
        return None
    if read.verdict == reading.UNDECIDED:
        return f"the second reading could not confirm the witness of {claim.id}: {read.detail}"
    raise Disagreement(f"internal disagreement: the engine's witness of {claim.id} makes the traced "
                       f"program hold, but the claim's own code read independently is {read.verdict} "
                       f"there ({read.detail})")


def program_of(traced) -> dict:
    program = {"steps": traced.steps, "residual": traced.residual,
               "hypotheses": list(traced.hypotheses)}
    if traced.equalities:
        program["equalities"] = list(traced.equalities)
    return program


def fixed_size_proof(claim, sizes: dict, traced, avoid=(), seed: int = 0) -> str | None:
    """A proof at fixed sizes is a proof about the traced program: at generic instances
    of those sizes (never the witness) the program must be the claim's own code."""
    from .. import reading

    # a claim without variables has one instance, its witness too
    instances = reading.generic_instances(claim, sizes, FIXED_SIZE_INSTANCES, seed=seed,
                                          avoid=avoid if claim.variables else ())
    sizes_text = ", ".join(f"{k} = {v}" for k, v in sorted(sizes.items()))
    return settle(reading.confirm_program(claim, program_of(traced), instances),
                   f"the proof of {claim.id} at {sizes_text}")


def certificate_program(claim, program: dict, instances, everywhere: bool = True) -> str | None:
    """A certificate's fixed-size program against the claim (check --claim).  everywhere:
    the certificate's conclusion reaches beyond the instances compared (no witness for
    any value of the existential variables); a refutation's is its own instance, where
    the claim's own code is read in full, so it may pass everywhere=False (see
    reading.confirm_program)."""
    from .. import reading

    return settle(reading.confirm_program(claim, program, instances, everywhere=everywhere),
                   f"the certificate's program of {claim.id}")
