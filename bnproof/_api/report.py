"""`bnproof.report`: every claim of a paper searched, proved where it can be, in one result.

A referee reads a paper as a whole; this runs `fuzz` (with its proof for every m)
on each claim in the paper's order and keeps the FuzzResults.  The documents
(Markdown, LaTeX, JSON) are written by render/paper_report.py from these results
and from the per-claim LaTeX that `bnproof latex` writes; nothing is judged here
that `fuzz` does not judge.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BadInput
from ..render.report_keys import LABEL as _LABEL, verdict_key

@dataclass
class PaperReport:
    """The results of one `report` run, in the paper's order.

    results holds one FuzzResult per finished claim; pending names the claims not
    reached (an interrupted run keeps what it finished, and says which are missing).
    seed and time_budget are the options every claim was searched with."""

    targets: list
    seed: int
    time_budget: float
    jax: bool
    results: list = field(default_factory=list)
    pending: list = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    def counts(self) -> dict:
        out: dict = {}
        for r in self.results:
            key = verdict_key(r)
            out[key] = out.get(key, 0) + 1
        return out

    def to_json(self, timings: bool = True) -> dict:
        from ..render.paper_report import to_json

        return to_json(self, timings)

    def markdown(self, timings: bool = True) -> str:
        from ..render.paper_report import markdown

        return markdown(self, timings)

    def latex(self, columns: int = 1, fragment: bool = False) -> str:
        from ..render.paper_report import latex
        from .latex import build  # each refuted or proved claim's derivation: `bnproof latex`'s own

        return latex(self, columns, fragment, document=build)


def paper_order(claims: list) -> list:
    """Claims sorted as the paper numbers them (Theorem 4.1 before Lemma 4.5 before
    Fact C.1, appendices after the body), a label's variants after it in the order
    given; claims whose source names no label keep their place after the labelled."""
    def key(pair):
        index, claim = pair
        found = _LABEL.search(getattr(claim, "source", "") or "")
        if found is None:
            return (2, (), index)
        letter, numbers = found.group(2).upper(), tuple(int(n) for n in found.group(3).split("."))
        return (1 if letter else 0, (letter, numbers), index)

    return [c for _, c in sorted(enumerate(claims), key=key)]


def claims_of(targets) -> list:
    """The claims a report covers: each target an id prefix (santurkar2018), a claim id,
    a claim file, or a folder of claim files (its *.py, sorted); each id once."""
    from ..claims.api import load_file, resolve

    if isinstance(targets, (str, Path)):
        targets = [targets]
    if not targets:
        raise BadInput("report needs a paper: an id prefix (santurkar2018), a folder of claim files, "
                       "or claim files")
    found = []
    for target in targets:
        path = Path(target)
        if path.is_dir():
            files = sorted(p for p in path.glob("*.py") if not p.name.startswith("_"))
            if not files:
                raise BadInput(f"{target}: the folder has no claim files (*.py)")
            for f in files:
                found.extend(load_file(str(f)))
        else:
            found.extend(resolve(str(target)))
    claims, seen = [], {}
    for c in found:
        if c.id in seen:
            if seen[c.id] == c:
                continue
            raise BadInput(f"two claims have the id {c.id!r}: each id names one section of the report")
        seen[c.id] = c
        claims.append(c)
    from ..search.fuzz import check_apart

    check_apart(claims)
    return paper_order(claims)


def report(targets, *, seed: int = 0, time_budget: float = 20.0, jax: bool = True,
           out_dir: str | Path = "bnproof-out", on_claim=None, on_progress=None) -> PaperReport:
    """Search and prove every claim of a paper, as `bnproof fuzz` does one: each in a
    worker process under its own time budget (seconds), the certificates written to
    OUT_DIR/<claim id>.json (refutations) and OUT_DIR/<claim id>.proof.json (proofs).

    on_claim(index, count, claim) is called before each claim; on_progress(claim,
    coverage, seconds_left) while one is searched.  Ctrl-C (KeyboardInterrupt) keeps
    what is finished: the report is returned with `interrupted` set and the claims
    not reached in `pending`.  The same seed gives the same report."""
    from ..render import fuzz as render_fuzz
    from ..search import fuzz as search
    from ..search.worker import Supervisor, digest
    from ..symbolic_m.survivor import prove_survivor
    from .fuzz import _check_options
    from .results import FuzzResult

    claims = claims_of(targets)
    _check_options(seed, time_budget, 1, 1, None)
    for c in claims:
        search.check_id(c)
    directory = Path(out_dir)
    paper = PaperReport(targets=[str(t) for t in ([targets] if isinstance(targets, (str, Path)) else targets)],
                        seed=seed, time_budget=float(time_budget), jax=bool(jax))
    options = {"seed": seed, "max_examples": 200, "batch": 2048, "time_budget": float(time_budget),
               "sizes": {}, "use_jax": bool(jax), "prove": True}
    start = time.perf_counter()
    paper.pending = [c.id for c in claims]
    try:
        with Supervisor(warm_jax=bool(jax)) as supervisor:
            for index, c in enumerate(claims):
                if on_claim is not None:
                    on_claim(index, len(claims), c)
                outcome = supervisor.run(
                    c, options, on_refutation=None,
                    on_progress=(lambda cov, left, c=c: on_progress(c, cov, left)) if on_progress else None,
                    digest=digest(c.path) if c.path else None)
                path = None
                if outcome.refutation is not None and outcome.verdict == search.REFUTED:
                    try:
                        path = Path(render_fuzz.write_certificate(c, outcome.refutation, directory))
                    except OSError as err:  # refuted means a certificate on disk
                        outcome.verdict, outcome.reason = search.UNDECIDED, (
                            "a counterexample was found and certified, but its certificate could not "
                            f"be written: {err.filename or directory}: {err.strerror or err}")
                # the worker made the attempts under the claim's budget; none is made here
                prove_survivor(c, outcome, directory, deadline=time.monotonic())
                paper.results.append(FuzzResult.of(outcome, path))
                paper.pending.pop(0)
    except KeyboardInterrupt:
        paper.interrupted = True
    paper.seconds = time.perf_counter() - start
    return paper
