"""SMT-LIB 2 export of an existential certificate: the query "is there a witness?"
exactly as the checker regenerates it (checker/exists_query.py), so `unsat` from z3
or cvc5 confirms that no witness exists at the certificate's instance.

The query fixes the instance and asks for p; it does not state the instance's
domains or the hypotheses, which read x alone.  So the document is first checked
whole by the checker (a rejection is exit 6): those facts, and for a Farkas
certificate the multipliers, are decided exactly there, and the solver is the
second judge of the non-existence alone, for a Farkas certificate as for an "smt"
one (whose recorded query is this text)."""

from __future__ import annotations

from ..checker.existential import check_existential, read_existential
from ..checker.exists_query import query
from ..checker.parse import Rejected
from .smtlib_program import NotExportable
from .smtlib_terms import CertificateRejected, stage


def exists_smt(doc: dict) -> str:
    stage(check_existential, CertificateRejected, doc)
    claim, values, unknown, program, _, residuals, _, _ = read_existential(doc)
    try:
        return query(program["steps"], values, unknown, residuals, claim["kind"])
    except Rejected as exc:  # a transcendental step the claim reads (a Farkas certificate)
        raise NotExportable(f"not exported: {exc}; check this certificate with bnproof check "
                            "(the checker decides it alone)") from None
