"""SMT-LIB 2 export of a certificate, for z3 and cvc5 as a second, independent judge
(docs/certificates.md, "SMT-LIB export").

The file defines one real per value (a term, or a declared real with its defining
equations where the value is a square root), and asserts
the negation of the conjunction of every fact the certificate claims.  Each
definition can be satisfied whatever the values before it (divisions and square
roots are guarded by their side conditions, which are facts), and where those side
conditions hold it pins its value down uniquely.  So `unsat` says: in every model of
the definitions every fact holds, i.e. the facts are true of the certificate's exact
values.  Numbers are exact rationals `(/ p q)`; nothing is rounded.

The certificate is read with the independent checker's strict parsing (never
evaluated): a file that is not JSON is BadInput (exit 3); a malformed document, a
broken seal or claim binding is CertificateRejected (exit 6).  Whether the facts
hold is left to the solver."""

from __future__ import annotations

from ..checker.parse import read
from ..errors import BadInput
from .smtlib_exists import exists_smt
from .smtlib_lemma45 import lemma_smt
from .smtlib_program import program_smt
from .smtlib_terms import CertificateRejected, literal, stage


# --- dispatch ------------------------------------------------------------------

def document_smt(doc) -> str:
    """The SMT-LIB 2 text for a parsed certificate document."""
    if type(doc) is not dict:
        raise CertificateRejected("certificate: the document is not a JSON object")
    if doc.get("verdict") == "witnessed" and "parts" in doc:  # witnesses, confirmed by the checker itself
        raise BadInput("a witness certificate (an existential claim's witnesses) has no SMT-LIB "
                       "export: its every fact is an exact evaluation, which bnproof check confirms")
    if "nonexistence" in doc:  # as the checker dispatches it: an existential claim
        return exists_smt(doc)
    if "program" in doc and "witnesses" not in doc:
        return program_smt(doc)
    return lemma_smt(doc)


def file_smt(path) -> str:
    """The SMT-LIB 2 text for a certificate file (read strictly, never evaluated)."""
    return document_smt(stage(read, BadInput, path, what=f"{path}:"))  # the file named: which one failed


__all__ = ["CertificateRejected", "document_smt", "file_smt", "literal", "stage"]
