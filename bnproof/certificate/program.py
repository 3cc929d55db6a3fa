"""The certificate of a refutation of any claim: the exact instance and the
residual as a straight-line program over it (docs/certificates.md)."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from .. import __version__
from ..claims.api import Claim
from ..claims.decide import Traced
from .io import FORMAT, VERSION, canonical_bytes, seal


def _exact(value):
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return str(Fraction(value))


def program_digest(program: dict) -> str:
    return "sha256:" + hashlib.sha256(canonical_bytes(program)).hexdigest()


def build(claim: Claim, instance: dict, traced: Traced) -> dict:
    program = {"steps": traced.steps, "residual": traced.residual,
               "hypotheses": list(traced.hypotheses)}
    obligations = [{"fact": "hypothesis", "value": h, "sign": "positive"} for h in traced.hypotheses]
    kind = "strict-inequality" if claim.kind == "inequality" and claim.strict else claim.kind
    sign = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}[kind]
    obligations.append({"fact": "residual", "value": traced.residual, "sign": sign})
    return seal({
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "claim": {"id": claim.id, "source": claim.source, "statement": claim.statement,
                  "kind": kind},
        "instance": {k: _exact(v) for k, v in instance.items()},
        "program": json.loads(json.dumps(program)),
        "obligations": obligations,
        "verdict": "refuted",
    })
