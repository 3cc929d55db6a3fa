"""`bnproof.prove`: a proof for every batch size m, as a function."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .claims import one


@dataclass(frozen=True)
class ProveResult:
    """The outcome of `bnproof.prove` on one claim.

    status is "proved", "not-proved" or "outside-fragment"; `text` is the line
    `bnproof prove` prints ("proved for every m at d = 1, 2, 3", "not in the
    provable fragment: uses relu", "not proved: normal form …"); fixed lists the
    fixed sizes attempted; normal_form / normal_form_latex show the residual's
    normal form where it is not 0; certificate is the proof certificate's JSON
    (of the last fixed size), already accepted by the independent checker, and
    certificate_paths where they were written, one per fixed size (empty unless
    out_dir was given)."""

    claim_id: str
    statement: str
    status: str
    text: str
    fixed: list
    normal_form: str
    normal_form_latex: str
    certificate: str | None = field(repr=False)
    certificate_paths: list
    claim: object = field(repr=False, compare=False)

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    @property
    def exit_code(self) -> int:
        """0 proved; 10 (undecided) not proved or outside the fragment."""
        from ..errors import ExitCode

        return int(ExitCode.OK if self.proved else ExitCode.UNDECIDED)

    def to_json(self) -> dict:
        """This claim's object in the list `bnproof prove --json` prints."""
        return {"claim": self.claim_id, "status": self.status, "text": self.text,
                "fixed": self.fixed, "normal_form": self.normal_form_latex,
                "certificates": [str(p) for p in self.certificate_paths]}

    def line(self) -> str:
        from ..symbolic_m.survivor import line

        return f"{self.claim_id}: " + line({"text": self.text, "certificates": [
            str(p) for p in self.certificate_paths]})

    def __str__(self) -> str:
        return self.line()

    def _repr_latex_(self) -> str:
        from . import display

        rows = [r"&\text{" + self.status + r":}\ " + display.math_text(self.claim_id)]
        statement = display.statement_latex(self.statement)
        if statement is not None:
            rows.append(r"&\text{claim: }\ " + statement)
        if self.proved:
            rows.append(r"&\text{" + self.text.replace("_", r"\_") + "}")
        elif self.normal_form_latex:
            rows.append(r"&\text{not proved; normal form of the residual:}")
            rows.append("&\\quad " + self.normal_form_latex)
        else:
            rows.append(r"&\text{" + self.text.replace("_", r"\_") + "}")
        return display.aligned(rows)


def prove(claim, *, out_dir: str | Path | None = None) -> ProveResult:
    """Prove one claim for every batch size m (docs/claims.md, "Proofs for every m").

    `claim` is a Claim, a claim id or alias, or a claim file that defines one claim.
    A claim with other sizes (d) is proved at each of them in its range (at most
    three).  Nothing is written unless out_dir is given: the certificates then go
    to OUT_DIR/<claim id>.proof.json (OUT_DIR/<claim id>.d2.proof.json at d = 2).  Never claims more than is established: a
    claim outside the fragment or without a proof is reported as such."""
    from ..symbolic_m import survivor
    from ..symbolic_m.prove import prove_claim

    c = one(claim)
    attempts = prove_claim(c)
    paths = survivor.write(c, attempts, Path(out_dir) if out_dir is not None else None)
    summary = survivor.summary(c, attempts, paths)
    last = attempts[-1]
    document = None
    if summary["status"] == "proved":
        from ..certificate.io import pretty

        document = pretty(last.document) + "\n"
    return ProveResult(claim_id=c.id, statement=c.statement, status=summary["status"], text=summary["text"],
                       fixed=[a.fixed for a in attempts], normal_form=last.normal_form,
                       normal_form_latex=last.normal_form_latex, certificate=document,
                       certificate_paths=paths, claim=c)
