"""What a proof for every m establishes, in one place: `summary` is the verdict of
`bnproof prove`, `bnproof.prove` and the proof attempt `fuzz` makes for a claim
that survives its search.  A proof covers the fixed sizes (every size but m) at
which it was made; it is "proved" only when those are every combination the
claim declares, "proved for part of the range" when it was proved wherever it was
attempted but not attempted everywhere (too many sizes, or the time budget),
and otherwise "not proved" with the reason.  Also the certificates it writes
beside the refutation certificates."""

from __future__ import annotations

import time
from pathlib import Path

from .prove import NOT_PROVED, OUTSIDE, PROVED, PROVED_PARTLY, at_fixed, declared_combinations, plan, prove_claim
from .trace import BATCH, other_sizes

SURVIVING = ("survived", "verified-exactly")
BUDGET = "time budget exhausted"  # why a proof was cut short by its time budget


def summary(claim, attempts: list, paths: list, stopped: str | None = None) -> dict:
    """What the record and --json carry: {"status", "text", "covered", "certificates"}.
    `covered` lists the fixed sizes (each a dict, {} when m is the only size) at which
    the claim is proved for every m; `stopped` says why the attempts ended early (BUDGET,
    or a failure of the attempt itself), if they did."""
    covered = [dict(a.fixed) for a in attempts if a.proved]
    failed = next((a for a in attempts if not a.proved), None)
    certificates = [str(p) for p in paths]
    if failed is not None:
        reason = failed.reason
        if covered:  # where it was proved still counts, and is said
            reason += f" (proved for every m{at_fixed(covered)} only)"
        if failed.fixed and len(plan(claim)) > 1 and reason.startswith("not proved: "):
            reason = f"not proved{at_fixed([failed.fixed])}: " + reason[len("not proved: "):]
        return {"status": failed.status, "text": reason, "covered": covered, "certificates": []}
    if not covered:
        why = stopped or "no fixed size could be attempted"
        return {"status": NOT_PROVED, "text": f"not proved: {why}", "covered": [], "certificates": []}
    proved = "for every m" + at_fixed(covered)
    if any(a.equality for a in attempts):
        proved += ", with equality (the residual is identically 0)"
    if len(covered) == declared_combinations(claim) and stopped is None:
        return {"status": PROVED, "text": "proved " + proved, "covered": covered, "certificates": certificates}
    rest = _rest(claim, covered)
    rest += f" not proved: {stopped}" if stopped else " not attempted"
    return {"status": PROVED_PARTLY, "text": f"proved for part of the range: {proved}; {rest}",
            "covered": covered, "certificates": certificates}


def _rest(claim, covered: list) -> str:
    """The declared fixed sizes a proof does not cover, in words: "d = 4..6",
    "d = 2, 5", or "the other 7 combinations of d = 1..3, k = 1..3"."""
    names = other_sizes(claim)
    ranges = {n: claim.sizes[n] for n in names}
    if len(names) == 1:
        (name,) = names
        lo, hi = ranges[name]
        done = sorted({c[name] for c in covered})
        runs, start = [], lo
        for v in done + [hi + 1]:  # the gaps between the covered values, as runs
            if v > start:
                runs.append(str(start) if v - 1 == start else f"{start}..{v - 1}")
            start = max(start, v + 1)
        return f"{name} = {', '.join(runs)}"
    left = declared_combinations(claim) - len(covered)
    spans = ", ".join(f"{n} = {lo}..{hi}" if lo != hi else f"{n} = {lo}" for n, (lo, hi) in ranges.items())
    return f"the other {left} combination{'s' if left != 1 else ''} of {spans}"


def line(result: dict) -> str:
    """The report's line: the summary's text, and where its certificates are."""
    paths = result["certificates"]
    if not paths:
        return result["text"]
    return f"{result['text']} (certificate{'s' if len(paths) > 1 else ''} {', '.join(paths)})"


def path_for(claim_id: str, fixed: dict, directory: Path) -> Path:
    """DIR/<id>.proof.json, or DIR/<id>.d2.proof.json at fixed sizes (one file per size)."""
    tag = "".join(f".{k}{v}" for k, v in sorted(fixed.items()))
    return Path(directory) / f"{claim_id}{tag}.proof.json"


def write(claim, attempts: list, directory: Path | None) -> list:
    """Each proved attempt's certificate (each accepted by the checker), written only into
    a directory that was asked for, and only when no attempt failed: each certificate
    states its own fixed sizes, so those of a proof for part of the range say no more
    than they prove."""
    from ..certificate import proof as certificate

    if directory is None or not attempts or not all(a.proved for a in attempts):
        return []
    return [certificate.write(path_for(claim.id, a.fixed, directory), a.document) for a in attempts]


def attempts_within(claim, deadline: float | None, on_attempt=None) -> tuple[list, str | None]:
    """(attempts, why they stopped early or None): prove_claim, kept to `deadline`
    (time.monotonic()) between fixed sizes.  A failure of the attempt itself is never a
    proof and never ends the caller: it is the reason."""
    attempts: list = []

    def heard(a) -> None:
        attempts.append(a)
        if on_attempt is not None:
            on_attempt(a)

    from ..errors import Disagreement

    try:
        prove_claim(claim, deadline=deadline, on_attempt=heard)
    except (KeyboardInterrupt, MemoryError, Disagreement):  # a disagreement is a bug: exit 7
        raise
    except Exception as err:  # noqa: BLE001 - a bug in the attempt is never a proof, and never ends fuzz
        return attempts, f"the attempt failed: {type(err).__name__}: {err}"
    if attempts and attempts[0].status == OUTSIDE:
        _not_a_scalar(claim)
    return attempts, cut(claim, attempts, deadline)


def _not_a_scalar(claim) -> None:
    """A residual that is a vector is the claim's mistake (bad input with file:line, as
    fuzz and verify say), not a construct outside the provable fragment: where the
    first attempt found the claim outside the fragment, it is traced once at the
    smallest declared sizes by the fixed-size tracer, which names the line."""
    from ..claims.decide import NotAScalar, trace

    if claim.exists:
        return
    try:
        trace(claim, {name: lo for name, (lo, _) in claim.sizes.items()})
    except NotAScalar:
        raise
    except Exception:  # noqa: BLE001 - anything else is the attempt's to report, with its reason
        return


def cut(claim, attempts: list, deadline: float | None) -> str | None:
    """BUDGET when the attempts stopped before the plan's end without a failure, the
    deadline passed (prove_claim's only other way to stop), else None."""
    if len(attempts) < len(plan(claim)) and all(a.proved for a in attempts) and deadline is not None \
            and time.monotonic() > deadline:
        return BUDGET
    return None


def due(claim, outcome) -> bool:
    """Whether fuzz attempts a proof for every m for this outcome: a claim that survived,
    with a batch size m."""
    return outcome.verdict in SURVIVING and BATCH in claim.sizes


def prove_survivor(claim, outcome, directory: Path | None, deadline: float | None = None) -> dict | None:
    """For a surviving claim with a batch size m: the attempt's summary (outcome.proof), and
    when it is proved, or proved for part of the range, its line first among the outcome's
    notes (the report's lines); None for any other claim.  The attempts made in the search's
    own process (outcome.proof_attempts, under its time budget) are taken as they are;
    otherwise they are made here, until `deadline`."""
    if not due(claim, outcome):
        return None
    if outcome.proof_attempts is not None:
        attempts, stopped = outcome.proof_attempts, outcome.proof_stopped
    else:
        attempts, stopped = attempts_within(claim, deadline)
    try:
        paths = write(claim, attempts, directory)
    except OSError:
        paths = []
    result = summary(claim, attempts, paths, stopped)
    if result["status"] in (PROVED, PROVED_PARTLY):  # a claim not proved keeps its report as it was
        outcome.notes.insert(0, line(result))
    outcome.proof = result
    return result


def record_field(result: dict) -> dict | None:
    """The "proof" field of a claim's entry in proofs/verdicts.json: a proof, or a proof for
    part of the range (with its status and the sizes it covers); None otherwise."""
    if result["status"] not in (PROVED, PROVED_PARTLY):
        return None
    return {"status": result["status"], "text": result["text"], "covered": list(result["covered"]),
            "certificates": list(result["certificates"])}
