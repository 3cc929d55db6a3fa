"""`bnproof fuzz`: search a claim's instance space for an exact counterexample.

Order: claims with no free variables are decided once, exactly.  Otherwise
Hypothesis searches first (exact rationals, shrinking through exact
confirmations), then batched random search and gradient descent in JAX;
every numeric candidate is exactified before it counts.  "Survived" is never
called a proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..claims.api import Claim
from ..claims.decide import HOLDS, REFUTED, Decision, decide, sizes_of, trace
from . import hypothesis_search
from .exactify import complexity, exactify, shrink
from .space import size_grid

SURVIVED, VERIFIED = "survived", "verified-exactly"


@dataclass
class Outcome:
    claim: Claim
    verdict: str  # refuted | survived | verified-exactly
    instances: int
    seed: int
    seconds: float
    counterexample: dict | None = None
    decision: Decision | None = None
    phases: dict = field(default_factory=dict)
    proved_sizes: list = field(default_factory=list)  # identities proved with symbols
    first_seconds: float | None = None  # to the first exactly confirmed violation, before shrinking

    @property
    def exact_note(self) -> str | None:
        if not self.proved_sizes:
            return None
        bounds = ", ".join(f"{k} ≤ {max(s[k] for s in self.proved_sizes)}"
                           for k in sorted(self.proved_sizes[0]))
        return f"verified exactly for {bounds}" if bounds else "verified exactly"


def fuzz(claim: Claim, seed: int = 0, max_examples: int = 200, batch: int = 2048,
         time_budget: float = 20.0, sizes: dict | None = None, database: Path | None = None,
         use_jax: bool = True, prove: bool = False, progress=None) -> Outcome:
    start = time.monotonic()
    deadline = start + time_budget
    if not claim.variables:
        decision = decide(claim, {})
        verdict = REFUTED if decision.verdict == REFUTED else (
            VERIFIED if decision.verdict == HOLDS else decision.verdict)
        return Outcome(claim, verdict, 1, seed, time.monotonic() - start, {} if verdict == REFUTED
                       else None, decision)
    grid = size_grid(claim, sizes)
    found, count, first = hypothesis_search.search(claim, grid, seed, max_examples, database,
                                                   deadline, progress)
    phases = {"hypothesis": count}
    total = count
    if found is None and use_jax:
        found, n = _jax_search(claim, grid, seed, batch, deadline, progress)
        first = time.monotonic() if found else None
        phases["jax"] = n
        total += n
    if found is None:
        proved = []
        if prove and claim.kind == "identity" and claim.exact_sizes:
            from ..claims.prove import verified_sizes

            proved = verified_sizes(claim)
        complete = bool(proved) and len(proved) == _count(claim.exact_sizes)
        return Outcome(claim, VERIFIED if complete else SURVIVED, total, seed,
                       time.monotonic() - start, phases=phases, proved_sizes=proved)
    instance, decision = shrink(claim, *found)
    return Outcome(claim, REFUTED, total, seed, time.monotonic() - start, instance, decision,
                   phases, first_seconds=first - start)


def _jax_search(claim: Claim, grid: list[dict], seed: int, batch: int, deadline: float, progress):
    from .batched import BatchedResidual, candidates
    from .space import random_batch

    rng = np.random.default_rng(seed)
    count, best = 0, None
    for sizes in grid:
        if time.monotonic() > deadline:
            break
        kernel = BatchedResidual(claim, sizes)
        values = random_batch(claim, sizes, batch, rng)
        scores = kernel.scores(values)
        count += batch
        threshold = 1e-9 if claim.strict else -1e-9
        picks = candidates(scores, values, 8, threshold)
        if not picks:  # push the most promising ones downhill
            order = np.argsort(scores, kind="stable")[:64]
            start = {k: np.asarray(v)[order] for k, v in values.items()}
            moved = kernel.descend(start)
            count += len(order) * 40
            picks = candidates(kernel.scores(moved), moved, 8, threshold)
        if progress:
            progress(batch)
        for candidate in picks:
            hit = exactify(claim, candidate)
            if hit and (best is None or complexity(hit[0]) < complexity(best[0])):
                best = hit
        if best:
            break
    return best, count


def _count(ranges: dict) -> int:
    total = 1
    for lo, hi in ranges.values():
        total *= hi - lo + 1
    return total


def certificate_path(claim: Claim) -> Path:
    return Path("certificates") / f"{claim.id}.json"


def traced_for(claim: Claim, instance: dict):
    return trace(claim, sizes_of(claim, instance))
