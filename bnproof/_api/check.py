"""`bnproof.check`: the independent checker's verdict on a certificate file."""

from __future__ import annotations

import os
from pathlib import Path


def check(path, *, claim=None, show_program: bool = False):
    """Re-verify a certificate file with the independent checker (standard
    library only; it trusts nothing else in bnproof).  With `claim` (a claim
    file, or a Claim object), an accepted program certificate must also bind
    that claim: its source, statement, kind, variables and program must be the
    ones the claim gives, as with `bnproof check --claim`.  Returns a
    CheckResult: accepted, the line `bnproof check` prints, and what the
    certificate establishes or why it was rejected.  A file that is no
    certificate at all (missing, unreadable, empty or binary) raises BadInput,
    as `bnproof check` exits 3 on it (6 is for a certificate it rejects)."""
    from .judgement import judged, unreadable
    from ..errors import BadInput
    from .results import CheckResult

    path = os.fspath(path)
    why = unreadable(Path(path))
    if why is not None:
        raise BadInput(why)
    claims = source = None
    if claim is not None:
        from .claims import load

        claims = load(claim)  # a broken claim file is bad input, before any check
        source = Path(os.fspath(claim)) if isinstance(claim, (str, os.PathLike)) else Path(
            claims[0].path or claims[0].id)
    accepted, line = judged(path, claims, source, show_program)
    name = path if path.isprintable() else ascii(path)  # as the checker names it
    first = line.partition("\n")[0]
    said = first.partition(f"{'ACCEPTED' if accepted else 'REJECTED'} {name}: ")[2] or first
    return CheckResult(path, accepted, line, said if accepted else None, None if accepted else said)
