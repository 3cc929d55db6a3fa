"""Witness certificates: the witnesses an existential claim's search found, for
the independent checker to confirm (checker/exists_witnesses.py;
docs/certificates.md, "Witness certificates").  Built only where the checker
accepts them; `difference` binds one to a claim file, as `check --claim` does
for refutations: the claim object, each part's program and hint programs those
the file gives, and every witness read a second time in the claim's own code."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .. import __version__
from ..claims.api import Claim
from .exists import bound_claim, claim_object, program_of
from .io import FORMAT, VERSION, checked, seal
from .program import _exact


@dataclass
class Part:
    sizes: dict
    traced: object  # claims.exists.ExistsTraced
    entries: list = field(default_factory=list)  # (instance, witness or None, hint number or None)


def _used_sizes(claim: Claim, sizes: dict) -> dict:
    used = {s for v in claim.variables + claim.exists for s in v.shape if not isinstance(s, int)}
    return {k: int(n) for k, n in sizes.items() if k in used}


def _hints(traced) -> list:
    return [None if h is None else json.loads(json.dumps({"steps": h.steps, "outputs": list(h.outputs)},
                                                         default=int))
            for h in traced.hints]


def _entry(claim: Claim, instance: dict, witness: dict | None, hint: int | None) -> dict:
    out = {"instance": {v.name: _exact(instance[v.name]) for v in claim.variables}}
    if hint is not None:
        out["hint"] = hint
    else:
        out["witness"] = {v.name: _exact(witness[v.name]) for v in claim.exists}
    return out


def document(claim: Claim, parts: list) -> dict:
    """The sealed certificate of the parts' witnesses (not yet checked)."""
    return seal({
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "claim": claim_object(claim),
        "parts": [{"sizes": _used_sizes(claim, p.sizes), "program": program_of(p.traced),
                   "hints": _hints(p.traced),
                   "witnessed": [_entry(claim, *e) for e in p.entries]} for p in parts if p.entries],
        "verdict": "witnessed",
    })


def build(claim: Claim, parts: list) -> dict:
    """The sealed certificate; CheckerRefused if the independent checker rejects it."""
    return checked(document(claim, parts))


def rejection(claim: Claim, sizes: dict, traced, instance: dict, witness: dict | None,
              hint: int | None) -> str | None:
    """Whether the checker confirms this one witness: None, or its reason not to."""
    from ..checker import Rejected, check_document

    doc = json.loads(json.dumps(document(claim, [Part(sizes, traced, [(instance, witness, hint)])])))
    try:
        check_document(doc)
    except Rejected as err:
        return str(err)
    except RecursionError:
        return "nested too deeply"
    return None


def bind(claims: list, claim_file, doc: dict) -> tuple[bool, str]:
    """`check --claim` of an accepted witness certificate: (bound, what was compared or why not)."""
    why = difference(claims, claim_file, doc)
    if why is not None:
        return False, why
    return True, (f"the claim, its programs and hints are those of {claim_file}, and its own code read "
                  "without the tracer holds at every witness")


def difference(claims: list, claim_file, doc: dict) -> str | None:
    """The first difference between an accepted witness certificate and the claim of its id
    in the claim file, or None: the claim object, each part's program and hints as the file
    traces them at the part's sizes, and each witness held by the claim's own code read
    without the tracer (claims/second_reading.py: exit 7 where the readings differ)."""
    from ..claims.exists import trace
    from ..claims.exists_hints import reading
    from ..claims.second_reading import witness_verdict
    from ..errors import Disagreement

    claim, why = bound_claim(claims, claim_file, doc)
    if why is not None:
        return why
    from ..claims.sizes import sizes_difference

    for n, part in enumerate(doc["parts"]):
        why = sizes_difference(claim, part["sizes"], f"part {n} is at")
        if why is not None:  # before any tracing: an instance outside the statement is none of it
            return why
        try:
            traced = trace(claim, part["sizes"])
        except Exception as err:  # noqa: BLE001 - the claim file is the user's code
            return f"{claim.id} in {claim_file} cannot be traced at sizes {part['sizes']}: {err}"
        if program_of(traced) != part["program"]:
            return f"part {n}: the program differs from the one {claim_file} gives"
        if _hints(traced) != part["hints"]:
            return f"part {n}: the hint programs differ from those {claim_file} gives"
        for entry in part["witnessed"]:
            try:
                if "hint" in entry:
                    why = reading(claim, entry["hint"], entry["instance"], part["sizes"])
                else:
                    why = witness_verdict(claim, entry["instance"], entry["witness"])
            except Disagreement as err:
                return str(err)
            if why is not None:
                return why
    return None
