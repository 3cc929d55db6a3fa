"""What a search concludes: its Outcome (the verdict, the coverage, the refutation or
proof found) and the verdicts' names.  Its own floor, below fuzz.py and exists.py
(the search of an existential claim), which fuzz.py dispatches to and which both
conclude with an Outcome."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..claims.api import Claim
from ..claims.decide import REFUTED, UNDECIDED
from .certify import Refutation
from .coverage import Coverage

SURVIVED, VERIFIED, VACUOUS = "survived", "verified-exactly", "vacuous"
VERDICTS = (REFUTED, SURVIVED, VERIFIED, VACUOUS, UNDECIDED)
BUDGET = "time budget"  # Outcome.stopped when the budget cut the run short


@dataclass
class Outcome:
    claim: Claim | None  # None while it crosses from the worker process
    verdict: str  # one of VERDICTS
    seed: int
    seconds: float
    coverage: Coverage = field(default_factory=Coverage)
    phases: dict = field(default_factory=dict)  # instances evaluated per search phase
    refutation: Refutation | None = None
    first_seconds: float | None = None  # to the first certified violation, before shrinking
    shrunk_seconds: float | None = None  # to the shrunk counterexample, certified (not yet written out)
    proved_sizes: list = field(default_factory=list)  # identities proved with symbols
    proof_grid: list = field(default_factory=list)  # the sizes the prover was to try
    reason: str | None = None  # why vacuous or undecided
    stopped: str | None = None  # what cut the run short (BUDGET), if anything
    undecided_candidates: int = 0  # nominated instances the exact engine could not decide
    notes: list = field(default_factory=list)  # one line each, e.g. why a size was not proved
    # the proof for every m of a claim that survived (symbolic_m/survivor.py): its summary once
    # made, and the attempts the search's process made under its budget (None: none made there)
    proof: dict | None = None
    proof_attempts: list | None = None
    proof_stopped: str | None = None  # why those attempts ended early, if they did
    # an existential claim that survived: the certificate of its witnesses (JSON text, accepted
    # by the independent checker; search/exists.py)
    witnesses: str | None = None

    @property
    def instances(self) -> int:
        return self.coverage.total().drawn

    @property
    def counterexample(self) -> dict | None:
        return self.refutation.instance if self.refutation else None

    @property
    def exact_note(self) -> str | None:
        """Which sizes the identity was proved at, exactly, and no more: every bound is
        written out ("2 ≤ m ≤ 6", never "m ≤ 6" that reads as m = 1 too), and where the
        proved sizes leave part of the claim's declared range, that range is named."""
        if not self.proved_sizes:
            return None
        if len(self.proved_sizes) == len(self.proof_grid):  # the whole grid: a product of ranges
            names = sorted(self.proved_sizes[0])
            spans = {k: (min(s[k] for s in self.proved_sizes), max(s[k] for s in self.proved_sizes))
                     for k in names}
            bounds = ", ".join(_range_text(k, *spans[k]) for k in names)
            if not bounds:
                return "verified exactly"
            declared = self.claim.sizes if self.claim is not None else {}
            short = [k for k in sorted(declared) if k not in spans or not (
                spans[k][0] <= declared[k][0] and declared[k][1] <= spans[k][1])]
            if not short:
                return f"verified exactly for {bounds}"
            claim_range = ", ".join(_range_text(k, *declared[k]) for k in sorted(declared))
            return f"verified exactly for {bounds} only, of {claim_range} declared"
        names = sorted(self.proved_sizes[0])
        if len(names) == 1:
            at = f"{names[0]} = " + ", ".join(str(s[names[0]]) for s in self.proved_sizes)
        else:
            at = "; ".join(_sizes_text(s) for s in self.proved_sizes)
        return f"verified exactly only at {at}"


def _range_text(name: str, lo: int, hi: int) -> str:
    """"m = 3", "2 ≤ m ≤ 6": both bounds, always."""
    return f"{name} = {lo}" if lo == hi else f"{lo} ≤ {name} ≤ {hi}"


def _sizes_text(sizes: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sorted(sizes.items()))


def short_error(err: BaseException, limit: int = 300) -> str:
    """"TypeError: message", cut to `limit` characters (some messages quote a
    thousand-digit integer)."""
    text = f"{type(err).__name__}: {err}"
    return text if len(text) <= limit else text[:limit - 3] + "..."
