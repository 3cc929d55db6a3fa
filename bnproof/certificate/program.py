"""The certificate of a refutation of any claim (format version 2): the claim with its
declared variables, the sizes, the exact instance and the residual as a straight-line
program over it (docs/certificates.md).  Built only if the checker accepts it."""

from __future__ import annotations

import json
from fractions import Fraction

from .. import __version__
from ..claims.api import Claim
from ..claims.decide import Traced, lookup, sizes_of
from ..program.evaluate import cone, decide_sign
from ..program.trace import is_algebraic
from .io import FORMAT, VERSION, checked, seal

SIGN = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}


def _exact(value):
    value = value.tolist() if hasattr(value, "tolist") else value  # numpy arrays and scalars
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    return str(Fraction(value))


def claim_object(claim: Claim, equalities: int = 0) -> dict:
    """What "refuted" means, as the certificate binds it: the strictness folded into the kind,
    and the number of scalar equality hypotheses at the certificate's sizes (only when there
    are any, so that every other certificate is byte-identical to what it was): the checker
    then requires program.equalities to have exactly that many, each an exact-0 obligation."""
    kind = "strict-inequality" if claim.kind == "inequality" and claim.strict else claim.kind
    body = {"id": claim.id, "source": claim.source, "statement": claim.statement, "kind": kind,
            "variables": [{"name": v.name, "shape": list(v.shape), "domain": v.domain}
                          for v in claim.variables]}
    if equalities:
        body["equalities"] = int(equalities)
    return body


def program_of(traced: Traced) -> dict:
    # through JSON: numpy integers and tuples become plain JSON values
    program = {"steps": traced.steps, "residual": traced.residual,
               "hypotheses": list(traced.hypotheses)}
    if traced.equalities:  # only then: the programs of claims without equalities are unchanged
        program["equalities"] = list(traced.equalities)
    return json.loads(json.dumps(program, default=int))


def _enclosure(traced: Traced, instance: dict) -> dict | None:
    """The engine's ball of a residual with transcendental steps (not algebraic, so decided
    only by a ball): {"bits": precision, "lo", "hi"}, for the reader and for the checker to
    compare with its own enclosure.  None for an algebraic residual, or one not decided by a
    bounded ball (certificates of algebraic claims stay byte-identical)."""
    steps, residual = traced.steps, traced.residual
    if is_algebraic(steps, cone(steps, [residual])):
        return None
    sign = decide_sign(steps, lookup(instance), residual)
    value = sign.value
    if sign.bits is None or value is None or value.lo is None or value.hi is None:
        return None
    return {"bits": sign.bits, "lo": str(value.lo), "hi": str(value.hi)}


def build(claim: Claim, instance: dict, traced: Traced) -> dict:
    """The sealed certificate; CheckerRefused if the independent checker rejects it."""
    return checked(sealed(claim, instance, traced))


def sealed(claim: Claim, instance: dict, traced: Traced) -> dict:
    """The sealed certificate, not yet checked: for a caller that checks the text it
    writes (search/certify.py), so that one document is not checked twice."""
    obligations = [{"fact": "hypothesis", "value": h, "sign": "positive"} for h in traced.hypotheses]
    obligations += [{"fact": "equality", "value": e, "sign": "zero"} for e in traced.equalities]
    body = claim_object(claim, len(traced.equalities))
    obligations.append({"fact": "residual", "value": traced.residual, "sign": SIGN[body["kind"]]})
    stated = _enclosure(traced, instance)
    if stated is not None:
        obligations[-1]["enclosure"] = stated
    used = {s for v in claim.variables for s in v.shape if not isinstance(s, int)}
    sizes = {k: int(n) for k, n in sizes_of(claim, instance).items() if k in used}
    return seal({
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "claim": body,
        "sizes": sizes,
        "instance": {v.name: _exact(instance[v.name]) for v in claim.variables},
        "program": program_of(traced),
        "obligations": json.loads(json.dumps(obligations, default=int)),
        "verdict": "refuted",
    })
