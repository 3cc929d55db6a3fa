"""`bnproof.prove`: a proof for every batch size m, as a function."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .claims import one


@dataclass(frozen=True)
class ProveResult:
    """The outcome of `bnproof.prove` on one claim.

    status is "proved", "proved-partly", "not-proved" or "outside-fragment"; `text`
    is the line `bnproof prove` prints ("proved for every m at d = 1, 2, 3", "proved
    for part of the range: for every m at d = 1, 2, 3; d = 4..8 not attempted", "not
    in the provable fragment: uses relu", "not proved: normal form …", "not proved:
    time budget exhausted"); "proved" means proved at every fixed size the claim
    declares (each size but m), "proved-partly" at `covered` only.  fixed lists the
    fixed sizes attempted, covered those proved (each a dict; [{}] for a claim whose
    only size is m); normal_form / normal_form_latex show the residual's normal form
    where it is not 0; certificate is the proof certificate's JSON (of the last fixed
    size), already accepted by the independent checker, and certificate_paths where
    they were written, one per fixed size proved (empty unless out_dir was given)."""

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
    covered: list = field(default_factory=list)

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    @property
    def exit_code(self) -> int:
        """0 proved; 10 (undecided) proved for part of the range only, not proved or outside
        the fragment."""
        from ..errors import ExitCode

        return int(ExitCode.OK if self.proved else ExitCode.UNDECIDED)

    def to_json(self) -> dict:
        """This claim's object in the list `bnproof prove --json` prints."""
        return {"claim": self.claim_id, "status": self.status, "text": self.text,
                "fixed": self.fixed, "covered": self.covered, "normal_form": self.normal_form_latex,
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
        if self.covered:  # proved, or proved for part of the range: the text says where
            rows.append(r"&\text{" + self.text.replace("_", r"\_") + "}")
        elif self.normal_form_latex:
            rows.append(r"&\text{not proved; normal form of the residual:}")
            rows.append("&\\quad " + self.normal_form_latex)
        else:
            rows.append(r"&\text{" + self.text.replace("_", r"\_") + "}")
        return display.aligned(rows)


def prove(claim, *, out_dir: str | Path | None = None, time_budget: float | None = None,
          isolate: bool = False) -> ProveResult:
    """Prove one claim for every batch size m (docs/claims.md, "Proofs for every m").

    `claim` is a Claim, a claim id or alias, or a claim file that defines one claim.
    A claim with other sizes (d) is proved at each of them in its range (every
    combination when there are at most six, else the smallest three of each: then
    "proved for part of the range" at best).  Nothing is written unless out_dir is
    given: the certificates then go to OUT_DIR/<claim id>.proof.json
    (OUT_DIR/<claim id>.d2.proof.json at d = 2).  `time_budget` (seconds) bounds the
    attempts: in this process it is kept between fixed sizes; `isolate=True` runs
    them in a worker process killed when it is spent, as `bnproof prove` does (the
    claim must come from a file), so that a claim whose code never returns ends "not
    proved: time budget exhausted".  Never claims more than is established: a claim
    outside the fragment or without a proof is reported as such."""
    import time

    from ..errors import BadInput
    from ..symbolic_m.survivor import attempts_within

    c = one(claim)
    if time_budget is not None and (isinstance(time_budget, bool) or not isinstance(time_budget, (int, float))
                                    or not time_budget >= 0.1):
        raise BadInput(f"time_budget must be a number of seconds >= 0.1, got {time_budget!r}")
    if isolate:
        if not c.path:
            raise BadInput(f"isolate=True runs the proof in a worker process that loads the claim from its "
                           f"file, and {c.id} was not loaded from a file: pass isolate=False")
        from ..search.worker import Supervisor, digest

        with Supervisor() as supervisor:
            attempts, stopped = supervisor.prove(c, float(time_budget or DEFAULT_BUDGET), digest(c.path))
    else:
        deadline = None if time_budget is None else time.monotonic() + float(time_budget)
        attempts, stopped = attempts_within(c, deadline)
    return concluded(c, attempts, stopped, out_dir)


DEFAULT_BUDGET = 60.0  # seconds per claim for `bnproof prove` and prove(isolate=True)


def concluded(c, attempts: list, stopped: str | None, out_dir) -> ProveResult:
    """The ProveResult of a claim's attempts: the verdict of `bnproof prove` and
    `bnproof.prove` is decided here (symbolic_m/survivor.py: summary), and the
    certificates of what was proved are written."""
    from ..symbolic_m import survivor

    paths = survivor.write(c, attempts, Path(out_dir) if out_dir is not None else None)
    summary = survivor.summary(c, attempts, paths, stopped)
    last = attempts[-1] if attempts else None
    document = None
    if summary["covered"] and last is not None and last.proved:
        from ..certificate.io import pretty

        document = pretty(last.document) + "\n"
    return ProveResult(claim_id=c.id, statement=c.statement, status=summary["status"], text=summary["text"],
                       fixed=[a.fixed for a in attempts], normal_form=last.normal_form if last else "",
                       normal_form_latex=last.normal_form_latex if last else "", certificate=document,
                       certificate_paths=paths, claim=c, covered=summary["covered"])
