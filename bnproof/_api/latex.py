"""`bnproof.latex`: a derivation or a refutation as a LaTeX document."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import BadInput, BnproofError, ExitCode

LEMMA = "lemma-4.5"


class CertificateRejected(BnproofError):
    exit_code = ExitCode.REJECTED


def latex(claim_or_cert="lemma-4.5", *, data=None, fragment: bool = False,
          level: str | None = None, source=None) -> str:
    """LaTeX (amsmath; compiles with pdflatex) from the exact engine.

    `claim_or_cert` is "lemma-4.5" (or its Claim; `data` as for verify), a
    certificate file, the id of a claim with a committed certificate, or a
    result: of `bnproof.verify`, of `bnproof.prove` (the derivation of what it
    proved; one section per fixed size where it was proved at several), or of
    `bnproof.fuzz` whose claim was refuted (the counterexample) or proved for
    every m (the derivation).  Certificates are accepted by the independent
    checker first.  fragment=True leaves out
    the preamble, title and \\section, for \\input into a paper; `level` is the
    top heading (section, subsection, subsubsection or paragraph; default
    subsection for a fragment).  Every display is labelled bnproof:ID:eqN.
    `source` is the Claim a certificate file is of (a user's claim; a paper claim
    is found by its id, and a FuzzResult keeps the claim it was run on): the
    counterexample is then written in the claim's `symbols`, its hypotheses are
    named and its `quantities` shown.  Returns the document's text."""
    return build(claim_or_cert, data, source).render(fragment, level)


def build(claim, data=None, source=None):
    """The Document (render/latex.py) for what `latex` takes."""
    from ..claims.api import Claim
    from .prove import ProveResult
    from .results import FuzzResult, VerifyResult

    if isinstance(claim, VerifyResult):
        from ..render.latex_lemma45 import document

        return document(claim.report)
    if isinstance(claim, ProveResult):
        return _proved(claim, source)
    if isinstance(claim, FuzzResult):
        if claim.certificate is None and claim.proof is not None and claim.proof.covered:
            return _proved(claim.proof, source)
        if claim.certificate is None:
            why = f"; its proof for every m: {claim.proof.text}" if claim.proof is not None else ""
            raise BadInput(f"{claim.claim_id} was neither refuted nor proved ({claim.verdict}{why}): there "
                           "is no certificate to write as LaTeX")
        import json

        name = claim.certificate_path.name if claim.certificate_path else f"{claim.claim_id}.json"
        # the result keeps the claim it was run on: its symbols, hypothesis names and quantities
        return _from_document(json.loads(claim.certificate), name,
                              source=source if source is not None else claim.claim, given=source is not None)
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

    return _from_document(_checked(path, lambda: read(path)), path.name, path, source, given=source is not None)


def _proved(result, source=None):
    """The derivation of a ProveResult's proof certificates (held in memory, each accepted
    by the checker when it was made, and again here), bound to the claim it was made for
    as `bnproof latex --claim` binds a certificate file: one document, and where it was
    proved at several fixed sizes, a section for each (render/latex_proof.py writes each)."""
    import json

    from ..symbolic_m.survivor import path_for

    if not result.covered or not result.certificate_texts:
        raise BadInput(f"{result.claim_id} was not proved ({result.status}: {result.text}): there is no "
                       "derivation to write as LaTeX")
    claim = source if source is not None else result.claim
    paths = [Path(p) for p in result.certificate_paths]
    documents = []
    for k, text in enumerate(result.certificate_texts):
        doc = json.loads(text)
        path = paths[k] if k < len(paths) else None
        name = path.name if path is not None else path_for(result.claim_id, doc["fixed"], Path()).name
        documents.append((doc["fixed"], _from_document(doc, name, path, claim, given=True)))
    return documents[0][1] if len(documents) == 1 else _sections(documents, result.claim_id)


def _sections(documents: list, claim_id: str):
    """Several derivations, (fixed sizes, Document) each, as one document: each a section of
    its own (render/latex.Document.include), headed by its fixed sizes."""
    from ..render.latex import Document, tt

    out = Document(rf"Proof of {tt(claim_id)} for every batch size", key=claim_id,
                   provenance="\n".join(doc.provenance for _, doc in documents))
    for fixed, doc in documents:
        out.include(doc, "For every $m$ at " + ", ".join(f"${k} = {v}$" for k, v in sorted(fixed.items())))
    return out


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
    from .files import refuse_special

    path = Path(claim)
    refuse_special(path)  # a FIFO named as the certificate: refused, not read as an id
    if path.is_file():
        return path
    if claim.endswith(".json"):
        raise BadInput(f"cannot read {claim}: no such file")
    from ..claims.api import proofs_root

    committed = proofs_root().parent / "certificates" / f"{claim}.json"
    if ".." not in Path(claim).parts and committed.is_file():
        return committed
    if ".." not in Path(claim).parts:  # a proved claim: its proof certificate(s)
        folder, stem = committed.parent, Path(claim).name
        proofs = sorted(folder.glob(f"{stem}.proof.json")) + sorted(folder.glob(f"{stem}.*.proof.json")) \
            if folder.is_dir() else []
        if len(proofs) == 1:
            return proofs[0]
        if proofs:
            raise BadInput(f"{claim} has a proof certificate for each fixed size: give one of "
                           + ", ".join(str(p.relative_to(folder.parent.parent)) for p in proofs))
    from ..claims.api import all_claims, named
    from ..claims.suggest import did_you_mean, names_of

    near = "" if named(claim) is not None else did_you_mean(claim, names_of(all_claims()))
    raise BadInput(f"no certificate for {claim!r}: give lemma-4.5, a certificate file, or the id "
                   f"of a claim with a committed certificate (run `bnproof fuzz` to find one){near}")


def _from_document(doc, name: str, path: Path | None = None, source=None, given: bool = False):
    """`given`: the caller named `source` as the claim the certificate is of, so the document
    writes that claim refuted only if the certificate is bound to it as `check --claim` binds
    (its program the claim's, and the claim's own code refuting it without the tracer)."""
    from ..checker import check_document

    line = _checked(path or name, lambda: check_document(doc))
    if given and doc.get("kind") != "proof" and ("program" in doc or "nonexistence" in doc):
        _bound(doc, _source(doc, source), path or name)
    if "nonexistence" in doc:  # an existential claim: no witness at the instance
        from ..certificate.exists import confirm_line
        from ..render.latex_exists import document

        # the checker takes an smt certificate's "unsat" on its word: as `bnproof check` does,
        # the installed solvers are asked again before a document calls it a refutation
        accepted, line = confirm_line(True, f"ACCEPTED {name}: {line}", doc)
        if not accepted:
            raise CertificateRejected(f"{path or name}: {line.partition(': ')[2]}")
        return document(doc, line, name)
    if doc.get("verdict") == "witnessed":  # evidence found by a search: nothing to derive
        raise BadInput(f"{path or name} is a witness certificate (an existential claim's witnesses, "
                       "evidence and not a proof): bnproof latex writes refutations and proofs; "
                       "bnproof check confirms it")
    if doc.get("kind") == "proof":
        return _proof(doc, f"ACCEPTED {name}: {line}", name, path, source)
    if "program" in doc:
        from ..claims.sizes import sizes_difference
        from ..render.latex_program import document

        claim = _source(doc, source)
        why = None if source is None else sizes_difference(claim, doc["sizes"])
        if why is not None:  # a refutation at sizes the claim given does not declare is none of its
            raise CertificateRejected(f"{path or name}: {why}")
        return document(doc, f"ACCEPTED {name}: {line}", name, claim)
    from ..claims import lemma45
    from ..instance import instance_from_json
    from ..render.latex_lemma45 import document

    inst = doc["instance"]
    data = {"X": inst["X"], "Y": inst["Y"], "W0": inst["W0"], "gamma": inst["gamma"],
            "beta": inst["beta"], "loss": inst["loss"], "name": f"the instance of {name}"}
    return document(lemma45.analyse(instance_from_json(data)))


def _bound(doc: dict, claim, where) -> None:
    from .judgement import bind

    bound, why = bind([claim], "the claim given", doc)
    if not bound:
        raise CertificateRejected(f"{where}: {why}")


def _proof(doc: dict, line: str, name: str, path, source):
    """A proof for every m, bound to its claim as `bnproof check` binds it (the claim given,
    else the committed claim of its id): a derivation is printed under the claim's
    statement only if the program is that claim's."""
    from .judgement import bind_proof
    from ..render.latex_proof import document

    claim = _source(doc, source)
    bound, why = bind_proof(None if claim is None or source is None else [claim], "the claim given", doc)
    if not bound:
        raise CertificateRejected(f"{path or name}: {why}")
    if "exists" in doc["claim"]:  # through a hint: the derivation is of the program with it substituted
        from ..checker.exists_hint import unmarked
        from ..symbolic_m.exists_hint import substituted

        hint, doc = unmarked(doc)[0]["hint"], unmarked(doc)[1]
        claim = None if claim is None else substituted(claim, hint)
    if doc["proof"].get("method") == "moments-n":  # expectations over i.i.d. draws: their own derivation
        from ..render.latex_moments_n import document as moments_document

        return moments_document(doc, line + (f"; {why}" if why else ""), name, claim)
    if doc["proof"].get("method") == "every-d":  # every m and every d: its own program format
        from ..render.latex_every_d import document as every_d_document

        return every_d_document(doc, line + (f"; {why}" if why else ""), name, claim)
    return document(doc, line + (f"; {why}" if why else ""), name, claim)


def _source(doc: dict, given=None):
    """The claim a certificate is of (for its symbols and hypothesis names): the one given,
    else the paper claim of its id; only when it states the claim exactly as printed."""
    from ..claims.api import named

    claim = given if given is not None else named(doc["claim"]["id"])
    if claim is None:
        return None
    if claim.id != doc["claim"]["id"] or claim.statement != doc["claim"]["statement"]:
        if given is not None:
            raise BadInput(f"the certificate is of {doc['claim']['id']!r} as printed there, not of "
                           f"the claim {claim.id!r} given with it")
        return None
    return claim


def claim_in(claim_file, certificate):
    """The claim of `claim_file` that the certificate file names (for `latex --claim`)."""
    import json

    from ..claims.api import load_file

    path = _certificate_path(str(certificate))
    try:
        claim_id = json.loads(path.read_text(encoding="utf-8"))["claim"]["id"]
    except (OSError, ValueError, KeyError, TypeError):
        raise BadInput(f"--claim applies to a certificate file; cannot read {path}'s claim id") from None
    claims = [c for c in load_file(str(claim_file)) if c.id == claim_id]
    if not claims:
        raise BadInput(f"{claim_file} defines no claim {claim_id}")
    return claims[0]
