"""A claim traced at a symbolic batch size m: the symbolic-length program of
/work/notes/s6/symlen_format.md §1 (docs/claims.md, "Proofs for every m").

``program_for(claim, fixed)`` is what the checker's claim binding compares a
certificate's program with: deterministic, the same claim and fixed sizes give
the same JSON.  The batch size is the claim's size named "m", or else the one
size that is the first axis of its batch inputs (batch_name); every other size
is fixed (``fixed``, e.g. {"d": 2}).

A trace that met a refusal is never a program, even if the claim caught the
exception (fragment.py): program_for raises OutsideFragment with the first
refusal's reason once the claim returns.
"""

from __future__ import annotations

import numpy as np

from ..claims.api import Claim
from .fragment import OutsideFragment, outside, tracing
from .namespace import PROBE, PROBE_SCALAR, symbolic_length
from .values import Columns, Recorder, SymMatrix, SymScalar, SymVector, _exact, fixed_array, is_array

BATCH = "m"
MAX_FIXED = 64  # entries of one fixed-size input
VECTOR_DOMAINS = ("real", "positive", "nonzero")


def batch_name(claim: Claim) -> str | None:
    """The claim's batch size: "m" when it declares one; otherwise the one size that is the
    first axis of a variable and never a later axis of one (y of shape ("n",), X of shape
    ("n", "d"): n; c of shape ("d",) beside X: d is X's column count).  None when there is
    no such size, or several (y of shape ("n",) beside c of shape ("d",)): which one is the
    batch is then the claim's to say, by naming it m.  The checker reads the same size as
    the one its certificate's fixed sizes leave out (checker/proof.py: batch_size)."""
    if BATCH in claim.sizes:
        return BATCH
    later = {s for v in claim.variables for s in tuple(v.shape)[1:] if isinstance(s, str)}
    first = {v.shape[0] for v in claim.variables
             if v.shape and isinstance(v.shape[0], str) and v.shape[0] in claim.sizes}
    names = sorted(first - later)
    return names[0] if len(names) == 1 else None


def no_batch_reason(claim: Claim) -> str:
    """Why batch_name found no batch size, in the refusal's words."""
    later = {s for v in claim.variables for s in tuple(v.shape)[1:] if isinstance(s, str)}
    first = sorted({v.shape[0] for v in claim.variables if v.shape and isinstance(v.shape[0], str)
                    and v.shape[0] in claim.sizes} - later)
    if len(first) > 1:
        return (f"several sizes that could be the batch size ({', '.join(first)}: each is the first "
                "axis of a vector); name the batch size m")
    return ("no batch size (a size named m, or the one size that is the first axis of the "
            "claim's batch inputs)")


def other_sizes(claim: Claim) -> list[str]:
    batch = batch_name(claim)
    return sorted(n for n in claim.sizes if n != batch)


def _inputs(claim: Claim, rec: Recorder, fixed: dict) -> tuple[list, dict]:
    """The program's inputs and the values the residual is called with."""
    declared, values = [], {}
    batch = batch_name(claim)

    def scalar(name, domain):
        declared.append([name, "scalar", domain])
        return SymScalar(rec, rec.emit(["input", name]))

    def vector(name, domain="real"):
        declared.append([name, "vector", "positive" if domain == "positive" else "real"])
        return SymVector(rec, rec.emit(["input", name]))

    for var in claim.variables:
        shape = var.shape
        sizes = [fixed[s] if isinstance(s, str) and s != batch else s for s in shape]
        if any(isinstance(s, str) and s != batch for s in sizes):
            outside(f"a size of {var.name} that is not fixed")
        batch_axes = [k for k, s in enumerate(sizes) if s == batch]
        if var.domain == "symmetric" and sizes == [batch, batch]:
            declared.append([var.name, "matrix", "symmetric"])
            values[var.name] = SymMatrix(rec, rec.emit(["input", var.name]))
        elif not batch_axes:
            count = int(np.prod(sizes)) if sizes else 1
            if count > MAX_FIXED:
                outside(f"a fixed-size input {var.name} of {count} entries")
            if not sizes:
                values[var.name] = scalar(var.name, var.domain)
                continue
            array = np.empty(tuple(sizes), dtype=object)
            for k in np.ndindex(array.shape):
                domain = "real" if var.domain == "symmetric" else var.domain
                array[k] = scalar(":".join([var.name, *map(str, k)]), domain)
            if var.domain == "symmetric":
                for i, j in np.ndindex(array.shape):
                    if j < i:
                        array[i, j] = array[j, i]
            values[var.name] = fixed_array(array)  # its dtype and numpy's inexact ufuncs refuse
        # a vector's or (m, d) input's "positive" is kept (every entry > 0: a manifest sign,
        # forms.py and the checker's), "nonzero" dropped (the proof is then for every real
        # entry, so for every entry in the domain): the checker's rule too
        elif sizes == [batch] and var.domain in VECTOR_DOMAINS:
            values[var.name] = vector(var.name, var.domain)
        elif len(sizes) == 2 and sizes[0] == batch and isinstance(sizes[1], int) and var.domain in VECTOR_DOMAINS:
            if sizes[1] > MAX_FIXED:
                outside(f"an input {var.name} with {sizes[1]} columns")
            values[var.name] = Columns(rec, [vector(f"{var.name}:{j}", var.domain) for j in range(sizes[1])])
        else:
            outside(f"an input {var.name} of shape {tuple(var.shape)} with domain {var.domain}")
    return declared, values


def _scalars(value, rec: Recorder, what: str) -> list[SymScalar]:
    """A residual or hypothesis value as scalar steps (an array: one per entry)."""
    if isinstance(value, (SymVector, Columns)):
        outside(f"a {what} on every entry of a batch vector")
    if isinstance(value, SymMatrix):
        outside(f"a {what} that is a matrix")
    if isinstance(value, SymScalar):
        if value._rec is not rec:
            outside(f"a {what} from another trace (a value kept from an earlier run of the claim)")
        return [value]
    if _exact(value):
        return [rec.const(value)]
    if is_array(value):
        return [s for entry in value.reshape(-1) for s in _scalars(entry, rec, what)]
    outside(f"a {what} of type {type(value).__name__}")


def _prune(steps: list, roots: list[int]) -> tuple[list, dict]:
    """The steps the roots need, renumbered in their order."""
    needed, stack = set(), list(roots)
    while stack:
        i = stack.pop()
        if i in needed:
            continue
        needed.add(i)
        stack.extend(_operands(steps[i]))
    order = sorted(needed)
    new = {old: k for k, old in enumerate(order)}
    out = []
    for old in order:
        step = steps[old]
        ops = _operand_positions(step)
        out.append([new[x] if pos in ops else x for pos, x in enumerate(step)])
    return out, new


def _operand_positions(step: list) -> set[int]:
    op = step[0]
    if op in ("input", "const", "m", "ones", "eye"):
        return set()
    if op == "pow":
        return {1}
    return set(range(1, len(step)))


def _operands(step: list) -> list[int]:
    return [step[p] for p in sorted(_operand_positions(step))]


def program_for(claim: Claim, fixed: dict | None = None) -> dict:
    """The symbolic-length program of the claim at these fixed sizes; raises
    OutsideFragment (with its reason) for a claim outside the fragment."""
    fixed = dict(fixed or {})
    if batch_name(claim) is None:
        outside(no_batch_reason(claim))
    if claim.exists:
        outside("existential variables")
    if sorted(fixed) != other_sizes(claim):
        raise ValueError(f"claim {claim.id}: fixed sizes must be {other_sizes(claim)}")
    rec = Recorder()
    with tracing(rec):
        residual, hypotheses, equalities, declared = _run(claim, rec, fixed)
        if rec.refusals:  # the claim caught a refusal: its program is a branch numpy never takes
            raise OutsideFragment(rec.refusals[0])
    roots = [residual[0]._index] + [h._index for h in hypotheses] + [e._index for e in equalities]
    steps, new = _prune(rec.steps, roots)
    if any(s[0] == "input" and s[1] in (PROBE, PROBE_SCALAR) for s in steps):
        outside("a value of xp.grad's placeholder argument that the gradient's function kept "
                "(the argument escaped the function)")
    program = {
        "inputs": declared,
        "steps": steps,
        "residual": new[residual[0]._index],
        "hypotheses": [new[h._index] for h in hypotheses],
        "kind": claim.kind,
        "strict": bool(claim.strict),
    }
    if claim.equalities:  # only then: the programs of claims without equalities are unchanged
        program["equalities"] = [new[e._index] for e in equalities]
    return program


def _run(claim: Claim, rec: Recorder, fixed: dict) -> tuple[list, list, list, list]:
    """The residual's, hypotheses' and equalities' scalar steps (an equality: one per
    entry, each exactly 0 on the claim's instances) and the declared inputs; any exception is
    OutsideFragment, with the first refusal the trace met (the one the claim may have caught)."""
    try:
        declared, values = _inputs(claim, rec, fixed)
        xp = symbolic_length(rec)
        residual = _scalars(claim.residual(xp, **values), rec, "residual")
        hypotheses = [s for h in claim.hypotheses for s in _scalars(h(xp, **values), rec, "hypothesis")]
        equalities = [s for e in claim.equalities for s in _scalars(e(xp, **values), rec, "equality")]
    except (KeyboardInterrupt, MemoryError):
        raise
    except OutsideFragment as err:
        raise OutsideFragment(rec.refusals[0] if rec.refusals else err.reason) from None
    except RecursionError:
        reason = rec.refusals[0] if rec.refusals else "uses a program nested too deeply"
        raise OutsideFragment(reason) from None
    except Exception as err:  # an operation the backend does not model: never guessed
        reason = rec.refusals[0] if rec.refusals else (
            f"uses an operation the symbolic-length backend does not model ({type(err).__name__}: {err})")
        raise OutsideFragment(reason) from None
    if len(residual) != 1:
        outside("a residual that is not one scalar")
    return residual, hypotheses, equalities, declared


def fixed_sizes(claim: Claim, limit: int = 3) -> list[dict]:
    """The fixed sizes a proof for every m is attempted at: each other size over its
    range, at most `limit` values each (the claim's smallest)."""
    names = other_sizes(claim)
    combos = [{}]
    for name in names:
        lo, hi = claim.sizes[name]
        combos = [{**c, name: v} for c in combos for v in range(lo, min(hi, lo + limit - 1) + 1)]
    return combos
