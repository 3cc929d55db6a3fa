"""A claim named the way every entry point takes it: a Claim object, the id or
alias of a paper's claim, or a claim file."""

from __future__ import annotations

import os

from ..errors import BadInput


def load(claim) -> list:
    """The claims `claim` names: [claim] for a Claim object, every claim of a
    claim file (FILE.py), or the paper's claims with this id, alias or id prefix
    (`bnproof list` shows them)."""
    from ..claims.api import Claim, resolve

    if isinstance(claim, Claim):
        return [claim]
    if isinstance(claim, os.PathLike):
        claim = os.fspath(claim)
    if not isinstance(claim, str) or not claim:
        raise BadInput(f"a claim is a Claim object, a claim id or alias, or a claim file, "
                       f"not {type(claim).__name__}")
    found = []
    for c in resolve(claim):
        if c not in found:  # one claim bound to two names is one claim
            found.append(c)
    return found


def one(claim):
    """The one claim `claim` names; BadInput when it names several (a file with
    several claims, a prefix such as santurkar2018)."""
    found = load(claim)
    ids = list(dict.fromkeys(c.id for c in found))
    if len(ids) < len(found):
        twice = next(i for i in ids if sum(c.id == i for c in found) > 1)
        raise BadInput(f"two claims have the id {twice!r} in {claim}: each id names one certificate")
    if len(ids) > 1:
        shown = ", ".join(ids[:4]) + (", …" if len(ids) > 4 else "")
        raise BadInput(f"{claim} names {len(ids)} claims ({shown}): pass one of them, "
                       f"e.g. bnproof.load({str(claim)!r})[0]")
    return found[0]
