"""The certificate of a refutation of any claim (format version 2): the claim with its
declared variables, the sizes, the exact instance and the residual as a straight-line
program over it (docs/certificates.md).  Built only if the checker accepts it."""

from __future__ import annotations

import json
from fractions import Fraction

from .. import __version__
from ..claims.api import Claim
from ..claims.decide import Traced, sizes_of
from .io import FORMAT, VERSION, checked, seal

SIGN = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}


def _exact(value):
    value = value.tolist() if hasattr(value, "tolist") else value  # numpy arrays and scalars
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    return str(Fraction(value))


def claim_object(claim: Claim) -> dict:
    """What "refuted" means, as the certificate binds it: the strictness folded into the kind."""
    kind = "strict-inequality" if claim.kind == "inequality" and claim.strict else claim.kind
    return {"id": claim.id, "source": claim.source, "statement": claim.statement, "kind": kind,
            "variables": [{"name": v.name, "shape": list(v.shape), "domain": v.domain}
                          for v in claim.variables]}


def program_of(traced: Traced) -> dict:
    # through JSON: numpy integers and tuples become plain JSON values
    program = {"steps": traced.steps, "residual": traced.residual,
               "hypotheses": list(traced.hypotheses)}
    if traced.equalities:  # only then: the programs of claims without equalities are unchanged
        program["equalities"] = list(traced.equalities)
    return json.loads(json.dumps(program, default=int))


def build(claim: Claim, instance: dict, traced: Traced) -> dict:
    """The sealed certificate; CheckerRefused if the independent checker rejects it."""
    obligations = [{"fact": "hypothesis", "value": h, "sign": "positive"} for h in traced.hypotheses]
    obligations += [{"fact": "equality", "value": e, "sign": "zero"} for e in traced.equalities]
    body = claim_object(claim)
    obligations.append({"fact": "residual", "value": traced.residual, "sign": SIGN[body["kind"]]})
    used = {s for v in claim.variables for s in v.shape if not isinstance(s, int)}
    sizes = {k: int(n) for k, n in sizes_of(claim, instance).items() if k in used}
    return checked(seal({
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "claim": body,
        "sizes": sizes,
        "instance": {v.name: _exact(instance[v.name]) for v in claim.variables},
        "program": program_of(traced),
        "obligations": json.loads(json.dumps(obligations, default=int)),
        "verdict": "refuted",
    }))
