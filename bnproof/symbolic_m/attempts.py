"""What a proof attempt for every m says (Attempt, and the verdicts' names), and the
witness that makes a proof not vacuous.  Below prove.py, which dispatches a claim
to the provers of expectations (moments_n_prove.py) and of every d (every_d.py),
all of which answer with an Attempt."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..claims.api import Claim
from .trace import batch_name

PROVED, NOT_PROVED, OUTSIDE = "proved", "not-proved", "outside-fragment"
PROVED_PARTLY = "proved-partly"  # proved for every m at some of the declared fixed sizes, not all
WITNESS_TRIES = 8


@dataclass
class Attempt:
    """One proof attempt at one choice of the fixed sizes."""

    status: str
    reason: str
    fixed: dict
    program: dict | None = None
    proof: dict | None = None
    witness: dict | None = None
    normal_form: str = ""  # Unicode
    normal_form_latex: str = ""
    document: dict | None = None  # the sealed certificate, once the checker accepted it
    equality: bool = False  # an inequality proved with equality (its residual is 0)
    hint: str = ""  # not proved: what would prove it (hints.py, set by survivor.attempts_within)

    @property
    def proved(self) -> bool:
        return self.status == PROVED


def at_fixed(fixed_list: list[dict]) -> str:
    if not fixed_list or not fixed_list[0]:
        return ""
    names = sorted(fixed_list[0])
    if len(names) == 1:
        return f" at {names[0]} = " + ", ".join(str(f[names[0]]) for f in fixed_list)
    return " at " + "; ".join(", ".join(f"{n} = {f[n]}" for n in names) for f in fixed_list)


def find_witness(claim: Claim, fixed: dict, program: dict) -> dict | None:
    """An exact instance at the smallest m of the claim's range (at least 2) where the fixed-size
    engine decides the claim holds (so every hypothesis > 0 and the residual is defined), in the
    program's input names (spec: "witness")."""
    found = find_instance(claim, fixed)
    return None if found is None else {"m": found[0], "inputs": program_inputs(claim, program, found[1])}


def find_instance(claim: Claim, fixed: dict, start: int | None = None, count: int = 3):
    """(m, instance in the claim's variables) at the first of `count` batch sizes from `start`
    (the claim's smallest, at least 2) within its range where the fixed-size engine finds
    one on which the claim holds; None if there is none."""
    from ..claims.prove import find_witness as fixed_size_witness

    batch = batch_name(claim)
    lo, hi = claim.sizes[batch]
    start = max(lo, 2) if start is None else start
    for m in range(start, min(hi, start + count - 1) + 1):
        sizes = {**fixed, batch: m}
        try:
            instance = fixed_size_witness(claim, sizes, tries=WITNESS_TRIES)
        except Exception:  # the fixed-size engine could not trace it: no witness, never a crash
            instance = None
        if instance is not None:
            return m, instance
    return None


def program_inputs(claim: Claim, program: dict, instance: dict) -> dict:
    out = {}
    batch = batch_name(claim)
    names = {n for n, _, _ in program["inputs"]}
    for var in claim.variables:
        value = instance[var.name]
        if var.name in names:
            out[var.name] = _exact(value)
            continue
        import numpy as np
        array = np.asarray(value, dtype=object)
        for k in np.ndindex(array.shape[1:] if var.shape and batch == var.shape[0] else array.shape):
            if var.shape and var.shape[0] == batch:
                out[":".join([var.name, *map(str, k)])] = _exact(array[(slice(None), *k)].tolist())
            else:
                out[":".join([var.name, *map(str, k)])] = _exact(array[k])
    return {k: v for k, v in out.items() if k in names}


def _exact(value):
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    return str(Fraction(value))
