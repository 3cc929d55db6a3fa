"""What `bnproof check` does once its command line is read: each file judged by
_api/judgement.py (the independent checker, then the binding to a claim file),
one line or one JSON entry each, and the exit code.  It imports no typer, so
that `bnproof check` can run without it (cli/fast.py)."""

from __future__ import annotations

from pathlib import Path

from .._api.judgement import (bind, bind_proof, difference, judged, proof_difference,  # noqa: F401
                              unreadable)
from ..errors import ExitCode
from .echo import echo


def run(files: list[Path], claim: Path | None, show_program: bool, as_json: bool) -> int:
    """Check each file; the exit code of `bnproof check`."""
    claims = None
    if claim is not None:
        from ..claims.api import load_file

        claims = load_file(claim)  # a broken claim file is bad input (exit 3)
    all_ok, bad_input, results = True, False, []
    for path in files:
        why = unreadable(path)
        if why is not None:
            bad_input = True
            echo(f"error: {why}" if str(path).isprintable() else f"error: {ascii(why)}", err=True)
            results.append({"path": str(path), "accepted": False, "established": None, "reason": why,
                            "line": None})
            continue
        accepted, line = judged(path, claims, claim, show_program)
        all_ok &= accepted
        if as_json:
            results.append(_as_json(path, accepted, line))
        else:
            echo(line)
    if as_json:
        import json

        echo(json.dumps(results, indent=2, ensure_ascii=False))
    # a rejected certificate is the stronger news; a file that is no certificate at all is bad input
    return ExitCode.REJECTED if not all_ok else ExitCode.BAD_INPUT if bad_input else ExitCode.OK


def _as_json(path: Path, accepted: bool, line: str) -> dict:
    """One certificate's entry of `check --json`: what it establishes, or why it was
    rejected, as the line says it after "ACCEPTED PATH: " or "REJECTED PATH: "."""
    text = str(path)
    name = text if text.isprintable() else ascii(text)  # as the checker names it
    first = line.partition("\n")[0]
    said = first.partition(f"{'ACCEPTED' if accepted else 'REJECTED'} {name}: ")[2] or first
    return {"path": text, "accepted": accepted, "established": said if accepted else None,
            "reason": None if accepted else said, "line": line}
