"""`bnproof.latex`: a derivation or a refutation as a LaTeX document."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import BadInput, BnproofError, ExitCode

LEMMA = "lemma-4.5"


class CertificateRejected(BnproofError):
    exit_code = ExitCode.REJECTED


def latex(claim_or_cert="lemma-4.5", *, data=None, fragment: bool = False,
          level: str | None = None) -> str:
    """LaTeX (amsmath; compiles with pdflatex) from the exact engine.

    `claim_or_cert` is "lemma-4.5" (or its Claim; `data` as for verify), a
    certificate file, the id of a claim with a committed certificate, or a
    result of `bnproof.fuzz` (a refutation) or `bnproof.verify`.  Certificates
    are accepted by the independent checker first.  fragment=True leaves out
    the preamble, title and \\section, for \\input into a paper; `level` is the
    top heading (section, subsection, subsubsection or paragraph; default
    subsection for a fragment).  Every display is labelled bnproof:ID:eqN.
    Returns the document's text."""
    return build(claim_or_cert, data).render(fragment, level)


def build(claim, data=None):
    """The Document (render/latex.py) for what `latex` takes."""
    from ..claims.api import Claim
    from .results import FuzzResult, VerifyResult

    if isinstance(claim, VerifyResult):
        from ..render.latex_lemma45 import document

        return document(claim.report)
    if isinstance(claim, FuzzResult):
        if claim.certificate is None:
            raise BadInput(f"{claim.claim_id} was not refuted ({claim.verdict}): there is no certificate "
                           "to write as LaTeX")
        import json

        name = claim.certificate_path.name if claim.certificate_path else f"{claim.claim_id}.json"
        return _from_document(json.loads(claim.certificate), name)
    if isinstance(claim, Claim):
        claim = LEMMA if LEMMA in claim.aliases else claim.id
    if isinstance(claim, os.PathLike):
        claim = os.fspath(claim)
    if not isinstance(claim, str):
        raise BadInput(f"latex takes lemma-4.5, a certificate file, a claim id or a result, "
                       f"not {type(claim).__name__}")
    if not Path(claim).is_file():
        from ..claims.api import named

        paper = named(claim)  # an alias (theorem-c.1) names the same claim as its id
        if paper is not None:
            claim = LEMMA if LEMMA in paper.aliases else paper.id
    if claim == LEMMA and not Path(claim).is_file():
        from ..claims import lemma45
        from ..render.latex_lemma45 import document
        from .verify import instance_of

        return document(lemma45.analyse(instance_of(data, certifiable=False)))
    if data is not None:
        raise BadInput("--data applies to lemma-4.5 only; a certificate carries its own instance")
    path = _certificate_path(claim)
    from ..checker.parse import read

    return _from_document(_checked(path, lambda: read(path)), path.name, path)


def _checked(where, step):
    """step(), with the checker's refusal as a one-line CertificateRejected."""
    from ..checker import Rejected

    try:
        return step()
    except Rejected as err:
        raise CertificateRejected(f"{where}: the checker rejected the certificate: {err}") from None
    except RecursionError:
        raise CertificateRejected(f"{where}: the checker rejected the certificate: nested too "
                                  "deeply") from None


def _certificate_path(claim: str) -> Path:
    path = Path(claim)
    if path.is_file():
        return path
    if claim.endswith(".json"):
        raise BadInput(f"cannot read {claim}: no such file")
    from ..claims.api import proofs_root

    committed = proofs_root().parent / "certificates" / f"{claim}.json"
    if ".." not in Path(claim).parts and committed.is_file():
        return committed
    raise BadInput(f"no certificate for {claim!r}: give lemma-4.5, a certificate file, or the id "
                   "of a claim with a committed certificate (run `bnproof fuzz` to find one)")


def _from_document(doc, name: str, path: Path | None = None):
    from ..checker import check_document

    line = _checked(path or name, lambda: check_document(doc))
    if "nonexistence" in doc:  # an existential claim: no witness at the instance
        from ..certificate.exists import confirm_line
        from ..render.latex_exists import document

        # the checker takes an smt certificate's "unsat" on its word: as `bnproof check` does,
        # the installed solvers are asked again before a document calls it a refutation
        accepted, line = confirm_line(True, f"ACCEPTED {name}: {line}", doc)
        if not accepted:
            raise CertificateRejected(f"{path or name}: {line.partition(': ')[2]}")
        return document(doc, line, name)
    if "program" in doc:
        from ..render.latex_program import document

        return document(doc, f"ACCEPTED {name}: {line}", name)
    from ..claims import lemma45
    from ..instance import instance_from_json
    from ..render.latex_lemma45 import document

    inst = doc["instance"]
    data = {"X": inst["X"], "Y": inst["Y"], "W0": inst["W0"], "gamma": inst["gamma"],
            "beta": inst["beta"], "loss": inst["loss"], "name": f"the instance of {name}"}
    return document(lemma45.analyse(instance_from_json(data)))
