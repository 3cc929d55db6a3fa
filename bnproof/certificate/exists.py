"""The certificate that an existential claim fails at an instance: no witness
exists there (docs/certificates.md, "Existential certificates").  Built only if
the independent checker accepts it; `rerun` asks z3 and cvc5 again about the
query of an "smt" certificate, which the checker itself does not judge."""

from __future__ import annotations

import json

from .. import __version__
from ..checker.existential import SOLVERS, TRUST
from ..claims.api import Claim
from ..claims.exists import ExistsTraced, Inner, kind_of
from .io import FORMAT, VERSION, checked, seal
from .program import _exact
from .solvers import PACKAGES


def claim_object(claim: Claim) -> dict:
    def declared(variables):
        return [{"name": v.name, "shape": list(v.shape), "domain": v.domain} for v in variables]

    return {"id": claim.id, "source": claim.source, "statement": claim.statement,
            "kind": kind_of(claim), "variables": declared(claim.variables), "exists": declared(claim.exists)}


def program_of(traced: ExistsTraced) -> dict:
    return json.loads(json.dumps({"steps": traced.steps, "residuals": list(traced.residuals),
                                  "hypotheses": list(traced.hypotheses)}, default=int))


def nonexistence(inner: Inner) -> dict:
    if inner.method == "farkas":
        return {"method": "farkas", "multipliers": [str(y) for y in inner.multipliers]}
    return {"method": "smt", "query": inner.query, "answers": dict(SOLVERS), "trust": TRUST}


def build(claim: Claim, instance: dict, sizes: dict, traced: ExistsTraced, inner: Inner) -> dict:
    """The sealed certificate; CheckerRefused if the independent checker rejects it."""
    used = {s for v in claim.variables + claim.exists for s in v.shape if not isinstance(s, int)}
    return checked(seal({
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "claim": claim_object(claim),
        "sizes": {k: int(n) for k, n in sizes.items() if k in used},
        "instance": {v.name: _exact(instance[v.name]) for v in claim.variables},
        "program": program_of(traced),
        "nonexistence": nonexistence(inner),
        "verdict": "refuted",
    }))


# what to install for the re-run: the packages and extra `bnproof export --solve` names
INSTALL = (f"to re-run them, pip install {' or '.join(PACKAGES.values())}, or pip install "
           '"bnproof[smt]", which brings z3 and cvc5')


def rerun(doc: dict, timeout: float = 60.0) -> tuple[bool, str]:
    """For an accepted "smt" certificate: (confirmed, what the installed solvers say).
    Confirmed only if every installed solver answers unsat; with none installed,
    the recorded answers stand, and the text says so."""
    from .solvers import SOLVERS as NAMES, available, solve

    method = doc.get("nonexistence", {})
    if method.get("method") != "smt":
        return True, ""
    answers = {}
    for name in NAMES:
        if available(name):
            try:
                answers[name] = solve(method["query"], name, timeout)
            except RuntimeError as err:
                answers[name] = f"failed ({err})"
    if not answers:
        return True, f"no solver installed here to re-run; the recorded answers stand ({INSTALL})"
    text = ", ".join(f"{k} {v}" for k, v in answers.items())
    ok = all(v == "unsat" for v in answers.values())
    return ok, f"re-run: {text}" if ok else f"re-run: {text}: non-existence NOT confirmed"


def confirm_line(accepted: bool, line: str, doc: dict | None) -> tuple[bool, str]:
    """`bnproof check`'s verdict on an accepted "smt" certificate: the solvers re-run
    where installed, their answers appended; a solver that does not say unsat rejects."""
    if not accepted or doc is None or doc.get("nonexistence", {}).get("method") != "smt":
        return accepted, line
    ok, said = rerun(doc)
    head, sep, tail = line.partition("\n")
    if ok:
        return True, f"{head}; {said}{sep}{tail}"
    name = head.partition(": ")[0].removeprefix("ACCEPTED ")
    return False, f"REJECTED {name}: {said}"


def bound_claim(claims: list, claim_file, doc: dict) -> tuple:
    """(the claim of the certificate's id in the claim file, None), or (None, why not): it
    must exist, have existential variables and be the certificate's claim object."""
    claim = next((c for c in claims if c.id == doc["claim"]["id"]), None)
    if claim is None:
        return None, f"{claim_file} defines no claim {doc['claim']['id']}"
    if not claim.exists:
        return None, f"{claim.id} in {claim_file} has no existential variables"
    if claim_object(claim) != doc["claim"]:
        return None, f"the claim (source, statement, kind or variables) differs from {claim.id} in {claim_file}"
    return claim, None


def difference(claims: list, claim_file, doc: dict) -> str | None:
    """The first difference between an accepted existential certificate and the claim of
    its id in the claim file (claim object, then the program traced at its sizes), or None."""
    from ..claims.exists import trace

    claim, why = bound_claim(claims, claim_file, doc)
    if why is not None:
        return why
    try:
        traced = program_of(trace(claim, doc["sizes"]))
    except Exception as err:  # noqa: BLE001 - the claim file is the user's code
        return f"{claim.id} in {claim_file} cannot be traced at sizes {doc['sizes']}: {err}"
    if traced != doc["program"]:
        return f"the program differs from the one {claim_file} gives"
    return None
