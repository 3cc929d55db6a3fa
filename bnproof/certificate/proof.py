"""The certificate of a proof for every batch size m (docs/certificates.md, "Proof
certificates"): the claim object of refutation certificates, the symbolic-length
program, the fixed sizes, the proof (method "zero", or "nonnegative" with its steps,
terms and denominator) and a witness instance at a small m.  Same envelope, digest
and seal as every certificate; built only if the independent checker accepts it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from .. import __version__
from .io import FORMAT, VERSION, checked, seal, write_atomic
from .program import claim_object


def _exact(value):
    value = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    return str(Fraction(value))


def document(claim: dict, program: dict, proof: dict, witness: dict, fixed: dict | None = None) -> dict:
    """The sealed document for a claim object (claim_object's shape), not yet checked."""
    plain = json.loads(json.dumps({"program": program, "proof": proof}, default=int))
    return seal({
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "kind": "proof",
        "claim": claim,
        "program": plain["program"],
        "fixed": {str(k): int(v) for k, v in (fixed or {}).items()},
        "proof": plain["proof"],
        "witness": {"m": int(witness["m"]),
                    "inputs": {str(k): _exact(v) for k, v in witness["inputs"].items()}},
    })


def build(claim, program: dict, proof: dict, witness: dict, fixed: dict | None = None) -> dict:
    """The sealed certificate of a Claim (or a claim object) proved for every m;
    CheckerRefused (exit 6) if the independent checker rejects it."""
    body = claim if isinstance(claim, dict) else claim_object(claim, len(program.get("equalities", ())))
    return checked(document(body, program, proof, witness, fixed))


def path_for(claim_id: str, root: str | Path = "certificates") -> Path:
    """Where a claim's proof certificate is committed: certificates/<id>.proof.json."""
    return Path(root) / f"{claim_id}.proof.json"


def write(path: str | Path, doc: dict) -> Path:
    return write_atomic(path, doc)


def write_proof_certificate(path, claim, program: dict, fixed: dict, proof: dict, witness: dict) -> Path:
    """build() then write(): the signature agreed with the engine (the shared spec)."""
    return write(path, build(claim, program, proof, witness, fixed))
