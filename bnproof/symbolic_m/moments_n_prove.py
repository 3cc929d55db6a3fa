"""A proof for every batch size of a claim about expectations over i.i.d. draws
(moments_n.py traces it; checker/moments_n.py replays the certificate).

Proved: the residual's normal form is 0 as a rational function of n and the
moments E[X^k].  Before it is reported, the program evaluated by the checker's
algebra at n = 2, 3, 4, 5, 7 over generic laws must equal the claim's own code
read by bnproof.reading (which enumerates the batches): the second reading.
"""

from __future__ import annotations

import copy
from fractions import Fraction

from .fragment import OutsideFragment
from .moments_n import program_for, text_of
from .attempts import NOT_PROVED, OUTSIDE, PROVED, Attempt, at_fixed

SIZES = (2, 3, 4, 5, 7)  # as crosscheck.SIZES: past the small n a claim's Python could hide
# ... and every n the claim declares (`type(n) is int`, `n is 6`: crosscheck.py), up to
# MAX_DECLARED_N: the reading enumerates k^n batches of a k-point law, so a larger
# declared range withholds the proof with the reason rather than compare at part of it
MAX_DECLARED_N = 8
WITNESS_SIZES = (2, 3, 4, 5, 6)
READ_POINTS = 3  # 3^7 = 2187 batches at n = 7: within the reading's cap of 4096
# The program of a claim is the same at every law size k (the tracer refuses what depends on
# k), so prove_claim's attempts at k = 1, 2, … share one trace, and the attempts whose second
# reading is read at the same sizes (read_at caps k) share its answer: id(claim) -> (claim,
# its traced program or refusal, {reading sizes: answer}, the fixed sizes attempted).  The
# claim is kept and compared, since a freed claim's id is reused; an attempt at sizes
# already attempted is a new proof (prove_claim visits each once), which traces and reads
# the claim afresh.
_SHARED: dict = {}
_SHARED_CLAIMS = 8


def _shared(claim, fixed: dict) -> tuple:
    entry = _SHARED.get(id(claim))
    here = tuple(sorted(fixed.items()))
    if entry is None or entry[0] is not claim or here in entry[3]:
        if len(_SHARED) >= _SHARED_CLAIMS:
            _SHARED.clear()
        try:
            traced = program_for(claim)
        except OutsideFragment as err:
            traced = err
        entry = _SHARED[id(claim)] = (claim, traced, {}, set())
    entry[3].add(here)
    return entry


def attempt(claim, fixed: dict, certify: bool = True) -> Attempt:
    _, traced, readings, _ = _shared(claim, fixed)
    if isinstance(traced, OutsideFragment):
        return Attempt(OUTSIDE, f"not in the provable fragment: {traced.reason}", fixed)
    program, residual = copy.deepcopy(traced[0]), traced[1]  # an Attempt's program is its own
    if not residual.num.is_zero():
        text = text_of(residual, program["inputs"], claim)
        return Attempt(NOT_PROVED, f"not proved: normal form {text} (in m and the moments μ_k = E[X^k])",
                       fixed, program, normal_form=text, normal_form_latex=text)
    proof = {"method": "moments-n"}
    from ..checker.parse import Rejected

    try:
        witness = _witness(claim, program, fixed)
    except Rejected as err:  # beyond the checker's limits (its work limit): no certificate it accepts
        return Attempt(NOT_PROVED, f"not proved: the checker refuses the program: {err}", fixed, program, proof)
    if witness is None:
        return Attempt(NOT_PROVED, "not proved: no batch size n where every division of the program is "
                                   "defined (the proof could be vacuous)", fixed, program, proof)
    at = read_at(claim, program, fixed)
    key = tuple(sorted(at.items()))
    if key not in readings:
        readings[key] = gate(claim, at, program)
    why = readings[key]
    if why is not None:
        return Attempt(NOT_PROVED, f"not proved: {why}", fixed, program, proof)
    result = Attempt(PROVED, "proved for every m" + at_fixed([fixed]), fixed, program, proof, witness,
                     normal_form="0", normal_form_latex="0")
    if certify:
        from ..certificate import proof as certificate
        from ..certificate.io import CheckerRefused
        try:
            result.document = certificate.build(claim, program, proof, witness, fixed)
        except CheckerRefused as err:
            return Attempt(NOT_PROVED, f"not proved: {err}", fixed, program, proof, witness)
    return result


def read_at(claim, program: dict, fixed: dict) -> dict:
    """The fixed sizes the second reading reads the claim at: a law's number of points
    capped at READ_POINTS (within its range).  The program is the same at every number of
    points (the tracer refuses the law's support, probabilities and points, and a refusal
    the claim catches still poisons the trace), and the reading enumerates k^n batches,
    over its cap at k = 4, n = 7."""
    out = dict(fixed)
    for law in program["laws"]:
        size = next(v for v in claim.variables if v.name == law + "_support").shape[0]
        if isinstance(size, str) and size in out:
            out[size] = max(claim.sizes[size][0], min(out[size], READ_POINTS))
    return out


def _law_shape(claim, fixed: dict, law: str) -> int:
    var = next(v for v in claim.variables if v.name == law + "_support")
    size = var.shape[0]
    return size if isinstance(size, int) else fixed.get(size, claim.sizes[size][0])


def _witness(claim, program: dict, fixed: dict) -> dict | None:
    """The smallest n of the claim's range at which the program is defined on the law with
    support 0, 1, …, k−1 and equal weights."""
    from ..checker.moments_n import value_at

    law = program["laws"][0]
    k = _law_shape(claim, fixed, law)
    support, weights = [Fraction(i) for i in range(k)], [Fraction(1)] * k
    lo, hi = claim.sizes["m"]
    for value in (1, 2, 3):  # every scalar input at this value (each domain allows it)
        scalars = {name: Fraction(value) for name, _ in program["inputs"]}
        for n in WITNESS_SIZES:
            if lo <= n <= hi and value_at(program, program["laws"], n, support, weights, scalars) is not None:
                inputs = {law + "_support": support, law + "_weights": weights, **scalars}
                inputs.update({name: [Fraction(0)] * n for name in program["lengths"]})
                return {"m": n, "inputs": inputs}
    return None


def second_reading(claim, fixed: dict, program: dict, seed: int = 0):
    from .. import reading
    from ..checker.moments_n import value_at
    from ..checker.parse import Rejected

    from .crosscheck import _declared

    law = program["laws"][0]
    declared = _declared(claim, "m")
    if len(declared) and declared[-1] > MAX_DECLARED_N:
        return reading.Confirmation(reading.INCONCLUSIVE, (
            f"{claim.id} declares n up to {declared[-1]}, and the second reading compares at n <= "
            f"{MAX_DECLARED_N} only: a branch of its code on a size beyond (type(n) is int, n is N), "
            "which no traced size can refuse, would go unseen"))
    sizes = sorted(set(SIZES) | set(declared))
    compared = 0
    for n in sizes:
        try:
            instances = reading.generic_instances(claim, {**fixed, "m": n}, 1, seed=seed)
        except ValueError as err:
            return reading.Confirmation(reading.INCONCLUSIVE, f"at n = {n}: {err}")
        for instance in instances:
            support = [Fraction(x) for x in instance[law + "_support"]]
            weights = [Fraction(x) for x in instance[law + "_weights"]]
            scalars = {name: Fraction(instance[name]) for name, _ in program["inputs"]}
            try:
                ours = value_at(program, program["laws"], n, support, weights, scalars)
            except Rejected as err:
                return reading.Confirmation(reading.INCONCLUSIVE, f"at n = {n}: {err}")
            read = reading.read(claim, instance)
            if read.verdict == reading.UNDECIDED or read.value is None:
                return reading.Confirmation(reading.INCONCLUSIVE, f"at n = {n}: {read.detail}")
            try:
                theirs = read.value.fraction()
            except Exception as err:  # an irrational or unreadable value: not comparable here
                return reading.Confirmation(reading.INCONCLUSIVE, f"at n = {n}: {type(err).__name__}")
            if ours is None or theirs != ours:
                return reading.Confirmation(reading.DISAGREES, f"at n = {n}: the program gives {ours}, the "
                                                               f"claim's own code {theirs}")
            compared += 1
    return reading.Confirmation(reading.AGREES, f"the program equals the claim at {compared} generic "
                                                f"instances, n = {', '.join(map(str, sizes))}", compared)


def gate(claim, fixed: dict, program: dict) -> str | None:
    from ..claims.second_reading import settle

    at = "".join(f" at {k} = {v}" for k, v in sorted(fixed.items()))
    return settle(second_reading(claim, fixed, program), f"the proof of {claim.id} for every n{at}")


def bind_difference(claim, doc: dict, where: str, second_reading) -> str | None:
    """`bnproof check --claim`'s binding of a moments-n certificate: the program this tracer
    gives for the claim, byte for byte, then the second reading (via `second_reading`)."""
    try:
        traced, _ = program_for(claim)
    except Exception as err:  # noqa: BLE001 - outside the fragment, or the user's code raised
        return f"{claim.id} in {where} has no expectations program: {err}"
    if traced != doc["program"]:
        return f"the program is not the one {where} gives for {claim.id} (a proof of another program)"
    return second_reading(lambda: gate(claim, read_at(claim, traced, doc["fixed"]), doc["program"]))
