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
from .trace import BATCH, batch_name, no_batch_reason, other_sizes

SURVIVING = ("survived", "verified-exactly")
BUDGET = "time budget exhausted"  # why a proof was cut short by its time budget
# statuses beside prove.py's: the attempts were stopped by the time budget before proving
# anything; they failed themselves (a bug, the process died), so nothing is known; none was made
BUDGET_STATUS, UNDECIDED, NOT_ATTEMPTED = "budget", "undecided", "not-attempted"
STATUSES = (PROVED, PROVED_PARTLY, NOT_PROVED, OUTSIDE, UNDECIDED, BUDGET_STATUS, NOT_ATTEMPTED)
KEYS = ("status", "text", "fixed", "covered", "certificates", "blocked_by", "normal_form", "normal_form_text",
        "hint")  # the proof object's, in this order (docs/cli.md, "The proof object")


def summary(claim, attempts: list, paths: list, stopped: str | None = None) -> dict:
    """The proof object of `prove --json` (less "claim"), of fuzz's "proof" and of the record:
    {"status", "text", "fixed", "covered", "certificates", "blocked_by", "normal_form",
    "normal_form_text", "hint"}.  `fixed` lists the fixed sizes attempted, `covered` those
    (each a dict, {} when m is the only size) at which the claim is proved for every m;
    `stopped` says why the attempts ended early (BUDGET, or a failure of the attempt itself),
    if they did.  Where an attempt failed: the construct that blocked it (blocked.py), its
    residual's normal form where it is not 0 (LaTeX, and Unicode as `prove` prints it), and
    the change with which it would be proved (hints.py), where one was found."""
    result = _summary(claim, attempts, paths, stopped)
    return {key: result[key] for key in KEYS}


def _summary(claim, attempts: list, paths: list, stopped: str | None = None) -> dict:
    """summary, its keys in any order."""
    from . import blocked

    covered = [dict(a.fixed) for a in attempts if a.proved]
    if len(attempts) == 1 and attempts[0].proved and (attempts[0].proof or {}).get("method") == "every-d":
        from .every_d import PROVED_TEXT  # one proof, nothing fixed: covered is [{}]
        said = ", with equality (the residual is identically 0)" if attempts[0].equality else ""
        return {"fixed": [{}], "covered": [{}], "certificates": [str(p) for p in paths], "blocked_by": None,
                "normal_form": "0", "normal_form_text": "0", "hint": None, "status": PROVED,
                "text": PROVED_TEXT + said}
    failed = next((a for a in attempts if not a.proved), None)
    certificates = [str(p) for p in paths]
    last = attempts[-1] if attempts else None  # the failed one, where one failed: the list ends there
    out = {"fixed": [dict(a.fixed) for a in attempts], "covered": covered, "certificates": [],
           "blocked_by": None, "normal_form": (last and last.normal_form_latex) or None,
           "normal_form_text": (last and last.normal_form) or None, "hint": None}
    if failed is not None:
        reason = failed.reason
        if covered:  # where it was proved still counts, and is said
            reason += f" (proved for every {batch_name(claim) or BATCH}{at_fixed(covered)} only)"
        if failed.fixed and len(plan(claim)) > 1 and reason.startswith("not proved: "):
            reason = f"not proved{at_fixed([failed.fixed])}: " + reason[len("not proved: "):]
        return {**out, "status": failed.status, "text": reason, "blocked_by": blocked.construct(failed),
                "hint": getattr(failed, "hint", None) or None}
    if not covered:
        why = stopped or "no fixed size could be attempted"
        return {**out, "status": BUDGET_STATUS if stopped == BUDGET else UNDECIDED, "text": f"not proved: {why}",
                "blocked_by": why}
    proved = f"for every {batch_name(claim) or BATCH}" + at_fixed(covered)  # the claim's own name of it
    equal = [a for a in attempts if a.equality]
    if equal:  # on the set of the claim's equalities, for a substitution
        on_set = any((a.proof or {}).get("method") == "substitution" for a in equal)
        # only where it is: (d − 1)·Σw² is 0 at d = 1 and > 0 beyond, proved ≥ 0 there otherwise
        where = "" if len(equal) == len(attempts) else at_fixed([dict(a.fixed) for a in equal])
        proved += (f", with equality{where} (the residual is 0 where the claim's equalities hold)" if on_set
                   else f", with equality{where} (the residual is identically 0)")
    out = {**out, "certificates": certificates}
    if claim.exists:  # proved through a hint (exists_hint.py): the hint is the witness everywhere
        proved += " (witness: the claim's hint)"
    if len(covered) == declared_combinations(claim) and stopped is None:
        return {**out, "status": PROVED, "text": "proved " + proved}
    rest = _rest(claim, covered)
    rest += f" not proved: {stopped}" if stopped else " not attempted"
    many = f"more fixed sizes are declared than are attempted (at most {len(plan(claim))})"
    return {**out, "status": PROVED_PARTLY, "text": f"proved for part of the range: {proved}; {rest}",
            "blocked_by": stopped or many}


def not_attempted(why: str) -> dict:
    """The proof object of a claim for which no proof for every m was attempted, and why."""
    return {key: None for key in KEYS} | {"status": NOT_ATTEMPTED, "text": f"not attempted: {why}", "fixed": [],
                                          "covered": [], "certificates": []}


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


def attempts_within(claim, deadline: float | None, on_attempt=None, on_hint=None) -> tuple[list, str | None]:
    """(attempts, why they stopped early or None): prove_claim, kept to `deadline`
    (time.monotonic()) between fixed sizes.  A failure of the attempt itself is never a
    proof and never ends the caller: it is the reason.  Where the last attempt was not
    proved, what would prove it is looked for while time is left (hints.py): it becomes
    that attempt's `hint`, and on_hint(hint) hears of it.  It comes after on_attempt has
    heard of the failed attempt, so that a process killed while looking loses no verdict."""
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
    if attempts and not attempts[-1].proved:
        from .hints import hint

        attempts[-1].hint = hint(claim, attempts[-1], deadline) or ""
        if attempts[-1].hint and on_hint is not None:
            on_hint(attempts[-1].hint)
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
    return outcome.verdict in SURVIVING and batch_name(claim) is not None


def prove_survivor(claim, outcome, directory: Path | None, deadline: float | None = None) -> dict | None:
    """For a surviving claim with a batch size m: the attempt's summary (outcome.proof), and
    when it is proved, or proved for part of the range, its line first among the outcome's
    notes (the report's lines); None for any other claim, whose outcome.proof then says why
    none was attempted.  The attempts made in the search's own process
    (outcome.proof_attempts, under its time budget) are taken as they are; otherwise they
    are made here, until `deadline`, and kept there (for bnproof.latex of a proof)."""
    if not due(claim, outcome):
        outcome.proof = not_attempted(_why_not(claim, outcome))
        return None
    if outcome.proof_attempts is not None:
        attempts, stopped = outcome.proof_attempts, outcome.proof_stopped
    else:
        attempts, stopped = attempts_within(claim, deadline)
        outcome.proof_attempts, outcome.proof_stopped = attempts, stopped
    try:
        paths = write(claim, attempts, directory)
    except OSError:
        paths = []
    result = summary(claim, attempts, paths, stopped)
    if result["status"] in (PROVED, PROVED_PARTLY):
        outcome.notes.insert(0, line(result))
    outcome.proof = result
    return result


def unasked(outcome) -> None:
    """outcome.proof for a search run without proofs (--no-prove, prove=False)."""
    outcome.proof = not_attempted("proofs were not asked for (--no-prove)")


def _why_not(claim, outcome) -> str:
    if outcome.verdict not in SURVIVING:
        return f"the search's verdict is {outcome.verdict}"
    why = no_batch_reason(claim)
    if why.startswith("several"):
        return f"the claim has {why}"
    return f"the claim has no batch size {BATCH} (a proof for every {BATCH} needs one)"


def detail_lines(result: dict, indent: str = "  ") -> list[str]:
    """Below the line of a proof not made (`prove`, and fuzz's report): the construct that
    blocked it, its normal form in Unicode where the text does not already show it, and
    the hint; each only where it says something the text does not."""
    if result["status"] in (PROVED, PROVED_PARTLY, NOT_ATTEMPTED):
        return []
    text, out = result["text"], []
    if result.get("blocked_by") and result["blocked_by"] not in text:
        out.append(f"{indent}blocked by: {result['blocked_by']}")
    form = result.get("normal_form_text")
    if form and form not in text:
        out.append(f"{indent}normal form: {form}")
    if result.get("hint"):
        out.append(f"{indent}hint: {result['hint']}")
    return out


def report_lines(result: dict | None, verdict: str) -> list[str]:
    """fuzz's lines for a proof for every m that was not made (a proof made is the first of
    the notes): a failed attempt, never silent, and a claim that survived but for which
    none was attempted (no batch size m); nothing for a claim the search refuted or could
    not decide, one verified exactly at every size it declares, nor where proofs were not
    asked for."""
    if result is None or result["status"] in (PROVED, PROVED_PARTLY):
        return []
    if result["status"] == NOT_ATTEMPTED:
        if verdict != "survived" or "not asked" in result["text"]:
            return []
        return [f"proof for every {BATCH}: {result['text']}"]
    return [f"proof for every {BATCH}: {result['text']}", *detail_lines(result)]


def record_field(result: dict) -> dict | None:
    """The "proof" field of a claim's entry in proofs/verdicts.json: the proof object of an
    attempt (proved, for part of the range, or not, with what blocked it and the hint), less
    its normal forms (the text carries them where it matters) and the sizes attempted; None
    where none was attempted."""
    if result["status"] == NOT_ATTEMPTED:
        return None
    return {key: (list(value) if isinstance(value, list) else value) for key, value in result.items()
            if key not in ("fixed", "normal_form", "normal_form_text") and (value or key in RECORDED)}


RECORDED = ("status", "text", "covered", "certificates")  # kept in a record even when empty
