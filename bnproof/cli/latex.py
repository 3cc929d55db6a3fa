"""`bnproof latex`: a derivation or a refutation as a LaTeX document."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import BadInput, BnproofError, ExitCode
from .application import EPILOG, app

LEMMA = "lemma-4.5"


class CertificateRejected(BnproofError):
    exit_code = ExitCode.REJECTED


@app.command(epilog=EPILOG)
def latex(
    claim: str = typer.Argument(..., help="lemma-4.5, a certificate file (CERT.json), or the id "
                                "of a claim with a committed certificate."),
    data: Optional[Path] = typer.Option(
        None, "--data", help="Instance as JSON for lemma-4.5 (the format of `verify --data`). "
        "Default: Example 3.2 of Dannemann & Junike (2025)."),
    out: Optional[Path] = typer.Option(None, "-o", "--out",
                                       help="Write the document here (default: standard output)."),
    fragment: bool = typer.Option(False, "--fragment",
                                  help="A fragment for \\input, without preamble."),
) -> None:
    """Write a LaTeX document (amsmath, compiles with pdflatex) from the exact engine.

    For lemma-4.5: the setting, the instance, closed forms, the gradient by Fact C.1,
    W*, the BN optimum ray, and the inequality evaluated.  For a certificate of a
    refuted claim: the claim as printed, the counterexample and the violated residual.
    Certificates are checked by the independent checker first."""
    document = _build(claim, data)
    text = document.render(fragment)
    if out is None:
        typer.echo(text, nl=False)
        return
    from ..atomic import write_text_atomic

    write_text_atomic(out, text)
    typer.echo(f"wrote {out}", err=True)


def _build(claim: str, data: Optional[Path]):
    if not Path(claim).is_file():
        from ..claims.api import named

        paper = named(claim)  # an alias (theorem-c.1) names the same claim as its id
        if paper is not None:
            claim = LEMMA if LEMMA in paper.aliases else paper.id
    if claim == LEMMA and not Path(claim).is_file():
        from ..claims import lemma45
        from ..instance import example_3_2, load_instance
        from ..render.latex_lemma45 import document

        instance = example_3_2() if data is None else load_instance(data)
        return document(lemma45.analyse(instance))
    if data is not None:
        raise BadInput("--data applies to lemma-4.5 only; a certificate carries its own instance")
    return _from_certificate(_certificate_path(claim))


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


def _from_certificate(path: Path):
    from ..checker import check_document
    from ..checker.parse import read
    from ..checker import Rejected

    try:
        doc = read(path)
        line = check_document(doc)
    except Rejected as err:
        raise CertificateRejected(f"{path}: the checker rejected the certificate: {err}") from None
    except RecursionError:
        raise CertificateRejected(f"{path}: the checker rejected the certificate: nested too "
                                  "deeply") from None
    if "program" in doc:
        from ..render.latex_program import document

        return document(doc, f"ACCEPTED {path.name}: {line}", path.name)
    from ..claims import lemma45
    from ..instance import instance_from_json
    from ..render.latex_lemma45 import document

    inst = doc["instance"]
    data = {"X": inst["X"], "Y": inst["Y"], "W0": inst["W0"], "gamma": inst["gamma"],
            "beta": inst["beta"], "loss": inst["loss"], "name": f"the instance of {path.name}"}
    return document(lemma45.analyse(instance_from_json(data)))
