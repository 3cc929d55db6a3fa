"""Where a claim's certificates go: certificates/<id>.json, for an id that the
checker accepts and that is a safe path (below fuzz.py and exists.py, which
both write there)."""

from __future__ import annotations

import re
from pathlib import Path

from ..claims.api import Claim
from ..errors import BadInput


# The checker's rule for a claim id (one clean line of printable ASCII, no spaces),
# plus what makes it a safe path under certificates/: parts separated by
# single slashes, none empty, "." or "..", no backslash.
CHECKER_ID = re.compile(r"[!-~]{1,100}")


def id_problem(claim_id) -> str | None:
    """Why this id cannot name a certificate (None if it can)."""
    if not isinstance(claim_id, str) or not CHECKER_ID.fullmatch(claim_id):
        return "a claim id is 1 to 100 printable ASCII characters without spaces (the certificate's rule)"
    if "\\" in claim_id or any(part in ("", ".", "..") for part in claim_id.split("/")):
        return ("a claim id names its certificate file under certificates/: parts separated by single "
                "slashes, none empty, '.' or '..', and no backslash")
    return None


def check_apart(claims) -> None:
    """BadInput where two claims' certificate files can have one name: <id>.<size><n>.proof.json
    of one claim is <id>.proof.json (<id>.json) of a claim named <id>.<size><n>, and the later
    would overwrite the certificate the earlier's verdict names."""
    ids = {c.id for c in claims}
    for cid in sorted(ids):
        for k, ch in enumerate(cid):
            if ch == "." and cid[:k] in ids:
                raise BadInput(f"claims {cid[:k]!r} and {cid!r}: their certificate files can have the "
                               f"same name ({cid}.proof.json); rename one")


def check_id(claim: Claim) -> None:
    problem = id_problem(claim.id)
    if problem:
        where = f" in {claim.path}" if claim.path else ""
        raise BadInput(f"claim id {claim.id!r}{where} cannot be used: {problem}")


def certificate_path(claim: Claim) -> Path:
    """certificates/<id>.json, relative to the working folder; never outside it."""
    check_id(claim)
    return Path("certificates") / f"{claim.id}.json"
