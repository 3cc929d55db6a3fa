"""`bnproof latex`: a derivation or a refutation as a LaTeX document."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .application import EPILOG, app


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
                                  help="A fragment for \\input into a paper: no preamble, "
                                  "title or \\section; headings start at --level."),
    claim_file: Optional[Path] = typer.Option(
        None, "--claim", metavar="FILE.py",
        help="For a certificate of your own claim: the claim file it is of, bound as `check --claim` "
        "binds it (its claim, sizes and program those the file gives, and the claim's own code, read "
        "again without the tracer, agreeing; else rejected, exit 6); the counterexample is written in "
        "the claim's symbols and its hypotheses are named."),
    level: Optional[str] = typer.Option(
        None, "--level", metavar="LEVEL",
        help="The top heading: section, subsection, subsubsection or paragraph (unnumbered, "
        "run-in). Default: section for a document, subsection for a fragment."),
) -> None:
    """Write a LaTeX document (amsmath, compiles with pdflatex) from the exact engine.

    For lemma-4.5: the setting, the instance, closed forms, the gradient by Fact C.1,
    W*, the BN optimum ray, and the inequality evaluated.  For a certificate of a
    refuted claim: the claim as printed, the counterexample and the violated residual.
    Certificates are checked by the independent checker first, and with --claim
    bound to the claim file as check --claim binds them.  Every display is
    numbered and labelled bnproof:CLAIM-ID:eqN; how the document was checked is in
    comments at its top."""
    from .._api.latex import build

    source = None
    if claim_file is not None:
        from .._api.latex import claim_in

        source = claim_in(claim_file, claim)
    document = build(claim, data, source)
    text = document.render(fragment, level)
    if out is None:
        typer.echo(text, nl=False)
        return
    from ..atomic import write_text_atomic

    write_text_atomic(out, text)
    typer.echo(f"wrote {out}", err=True)
