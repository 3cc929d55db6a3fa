"""The proof attempt `fuzz` makes for a claim that survives its search: for every
m, with the proof certificate written beside the refutation certificates."""

from __future__ import annotations

from pathlib import Path

from .prove import PROVED, at_fixed, prove_claim

SURVIVING = ("survived", "verified-exactly")


def summary(claim, attempts: list, paths: list) -> dict:
    """What the record and --json carry: {"status", "text", "certificates"}."""
    last = attempts[-1]
    if all(a.proved for a in attempts):
        text = "proved for every m" + at_fixed([a.fixed for a in attempts])
        if any(a.equality for a in attempts):
            text += ", with equality (the residual is identically 0)"
        return {"status": PROVED, "text": text, "certificates": [str(p) for p in paths]}
    return {"status": last.status, "text": last.reason, "certificates": []}


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
    """Each attempt's certificate (each accepted by the checker), written only into a
    directory that was asked for and only when every fixed size is proved."""
    from ..certificate import proof as certificate

    if directory is None or not attempts or not all(a.proved for a in attempts):
        return []
    return [certificate.write(path_for(claim.id, a.fixed, directory), a.document) for a in attempts]


def prove_survivor(claim, outcome, directory: Path | None) -> dict | None:
    """For a surviving claim with a batch size m: the attempt's summary (outcome.proof), and
    when it is proved, its line first among the outcome's notes (the report's lines); None
    for any other claim."""
    if outcome.verdict not in SURVIVING or "m" not in claim.sizes:
        return None
    try:
        attempts = prove_claim(claim)
    except (KeyboardInterrupt, MemoryError):
        raise
    except Exception as err:  # noqa: BLE001 - a bug in the attempt is never a proof, and never ends fuzz
        outcome.proof = {"status": "not-proved", "text": f"not proved: the attempt failed: "
                         f"{type(err).__name__}: {err}", "certificates": []}
        return outcome.proof
    try:
        paths = write(claim, attempts, directory)
    except OSError:
        paths = []
    result = summary(claim, attempts, paths)
    if result["status"] == PROVED:  # a claim not proved keeps its report as it was
        outcome.notes.insert(0, line(result))
    outcome.proof = result
    return result


def record_field(result: dict) -> dict | None:
    """The "proof" field of a claim's entry in proofs/verdicts.json (only when proved)."""
    if result["status"] != PROVED:
        return None
    return {"text": result["text"], "certificates": list(result["certificates"])}
