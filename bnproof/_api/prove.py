"""`bnproof.prove`: a proof for every batch size m, as a function."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .claims import one


@dataclass(frozen=True)
class ProveResult:
    """The outcome of `bnproof.prove` on one claim, and the proof for every m that
    `bnproof.fuzz` attempted for a claim that survived (`FuzzResult.proof`).

    status is "proved", "proved-partly", "not-proved", "outside-fragment", "undecided"
    (the attempt itself failed, or its process died: nothing is known), "budget" (the
    time budget ran out before any fixed size was proved) or, on a FuzzResult only,
    "not-attempted" (`text` says why: the claim was refuted, it has no batch size m, ...).
    `text` is the line `bnproof prove` prints ("proved for every m at d = 1, 2, 3",
    "proved for part of the range: for every m at d = 1, 2, 3; d = 4..8 not attempted",
    "not in the provable fragment: uses relu", "not proved: normal form …", "not proved:
    time budget exhausted"); "proved" means proved at every fixed size the claim declares
    (each size but m), "proved-partly" at `covered` only.  fixed lists the fixed sizes
    attempted, covered those proved (each a dict; [{}] for a claim whose only size is m).
    Where it was not proved: blocked_by names the construct that stopped it ("relu", "the
    residual's normal form is not 0: in the roots r₁ and r₂, which do not cancel"),
    normal_form (Unicode) / normal_form_latex show the residual's normal form ("" where
    there is none), and hint is a change with which the claim is proved ("declare c
    positive: …"), where the prover found one, else None.  certificate is the proof
    certificate's JSON (of the last fixed size), already accepted by the independent
    checker, certificate_texts that of each fixed size proved, and certificate_paths where
    they were written (empty unless out_dir was given).  `bnproof.latex(result)` writes
    the derivation of what was proved."""

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
    blocked_by: str | None = None
    hint: str | None = None
    certificate_texts: tuple = field(default=(), repr=False)

    @classmethod
    def of(cls, claim, proof: dict, attempts: list, paths: list) -> "ProveResult":
        """From a proof object (symbolic_m/survivor.py: summary or not_attempted), the
        attempts it summarises and the certificates written."""
        from ..certificate.io import pretty

        texts = tuple(pretty(a.document) + "\n" for a in attempts if a.proved and a.document is not None) \
            if proof["covered"] else ()
        last = attempts[-1] if attempts else None
        return cls(claim_id=claim.id, statement=claim.statement, status=proof["status"], text=proof["text"],
                   fixed=list(proof["fixed"]), normal_form=proof["normal_form_text"] or "",
                   normal_form_latex=proof["normal_form"] or "",
                   certificate=texts[-1] if texts and last is not None and last.proved else None,
                   certificate_paths=list(paths), claim=claim, covered=list(proof["covered"]),
                   blocked_by=proof["blocked_by"], hint=proof["hint"], certificate_texts=texts)

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    @property
    def exit_code(self) -> int:
        """0 proved; 10 (undecided) proved for part of the range only, or not proved."""
        from ..errors import ExitCode

        return int(ExitCode.OK if self.proved else ExitCode.UNDECIDED)

    def proof_json(self) -> dict:
        """The proof object: what `to_json()` gives less "claim", and FuzzResult's "proof"."""
        return {"status": self.status, "text": self.text, "fixed": self.fixed, "covered": self.covered,
                "certificates": [str(p) for p in self.certificate_paths], "blocked_by": self.blocked_by,
                "normal_form": self.normal_form_latex or None, "normal_form_text": self.normal_form or None,
                "hint": self.hint}

    def to_json(self) -> dict:
        """This claim's object in the list `bnproof prove --json` prints."""
        return {"claim": self.claim_id, **self.proof_json()}

    def line(self) -> str:
        from ..symbolic_m.survivor import line

        return f"{self.claim_id}: " + line({"text": self.text, "certificates": [
            str(p) for p in self.certificate_paths]})

    def lines(self) -> list[str]:
        """What `bnproof prove` prints for this claim: its line, and where it was not proved,
        what blocked it, the normal form in Unicode (where the line does not show it) and
        the hint."""
        from ..symbolic_m.survivor import detail_lines

        return [self.line(), *detail_lines(self.proof_json())]

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_latex_(self) -> str:
        from ..render.latex_text import math_words
        from . import display

        rows = [r"&\text{" + self.status + r":}\ " + display.math_text(self.claim_id)]
        statement = display.statement_latex(self.statement)
        if statement is not None:
            rows.append(r"&\text{claim: }\ " + statement)
        # the normal form where one blocked the proof; else the text (a proof's says where)
        if not self.covered and self.normal_form_latex and self.normal_form_latex != "0":
            rows.append(r"&\text{not proved; normal form of the residual:}")
            rows.append("&\\quad " + self.normal_form_latex)
        else:
            rows.append("&" + math_words(self.text))
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
    from ..search.space import _check_claim_sizes

    _check_claim_sizes(c)  # bad input, as for fuzz and `bnproof prove`: never "not proved" of a claim
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
    return ProveResult.of(c, survivor.summary(c, attempts, paths, stopped), attempts, paths)
