"""`bnproof fuzz`: search a claim's instance space for an exact counterexample.

Order: claims with no free variables are decided once, exactly.  Otherwise
Hypothesis searches first (exact rationals, shrinking through certified
refutations), then batched random search and gradient descent in JAX; every
numeric candidate is exactified and certified before it counts.  For an
identity that survives, the prover then works at the claim's fixed sizes.

Every claim ends in one verdict (`conclude`): refuted (with a certificate the
checker accepted), survived (no counterexample among the instances that met
the hypotheses: evidence, never a proof), verified-exactly (the prover, or an
exact decision of a claim without variables), vacuous (no drawn instance met
the hypotheses, so nothing was tested) or undecided (with the reason).

`fuzz` runs in the calling process and keeps its time budget cooperatively;
`bnproof fuzz` runs it in a worker process (worker.py) that is killed when
the budget is spent, so that what cannot stop itself (an XLA compilation, a
symbolic proof, a residual that blocks) is bounded too.
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import numpy as np

from ..claims.api import Claim
from ..claims.blame import claim_error
from ..claims.decide import HOLDS, OUTSIDE, REFUTED, UNDECIDED, decide
from ..claims.second_reading import instance_verdict
from ..errors import BadInput, Disagreement
from . import hypothesis_search
from .certificate_names import certificate_path, check_apart, check_id, id_problem  # noqa: F401
from .certify import Judge, Refutation, described
from .coverage import Coverage
from .exactify import complexity, exactify, shrink
from .exists import search as search_exists
from .outcome import (BUDGET, SURVIVED, VACUOUS, VERDICTS, VERIFIED, Outcome, _sizes_text,  # noqa: F401
                      short_error)
from .space import size_grid

PROOF_SHARE = 0.5  # of the budget, kept for the prover when an identity is to be proved


def conclude(coverage: Coverage, refutation: Refutation | None, rejection: str | None,
             proved: list, proof_grid: list, stopped: str | None = None,
             failure: str | None = None, undecided: int = 0,
             exactly_inside: tuple[int, int] | None = None,
             declared: dict | None = None) -> tuple[str, str | None]:
    """(verdict, reason) from what a search established, however it ended.
    `undecided` counts instances that looked like violations in floats (or
    that floats could not place) but that the exact engine could not decide
    (say through tanh): the claim may well be false there, so it has not
    survived.  `exactly_inside` = (inside, decided): of a few instances floats
    put inside the claim, how many the exact engine puts inside; none of them
    means the floats' coverage is not to be believed (the claim may be
    defined nowhere), so the search is vacuous, not a survival.  `declared`: the claim's
    sizes; proofs at every size of the grid are the verdict verified-exactly only when
    the grid covers every declared size (as `prove`'s "proved"), else the search's
    verdict stands and the exact note says which part was proved."""
    if refutation is not None:
        return REFUTED, None
    if rejection is not None:  # the checker's, or the second reading's (claims/second_reading.py)
        withheld = "it is not reported" if rejection.startswith("the second reading") else \
            "the checker cannot certify it"
        return UNDECIDED, f"an exact violation was found but {withheld}: {rejection}"
    if failure is not None:
        return UNDECIDED, failure
    if proof_grid and len(proved) == len(proof_grid) and covers(proof_grid, declared or {}):
        return VERIFIED, None
    if undecided:
        return UNDECIDED, (f"{undecided} instance{'s' if undecided > 1 else ''} where floats could not "
                           "rule out a violation could not be decided exactly, so none is a "
                           "counterexample and the claim has not survived")
    total = coverage.total()
    if total.drawn == 0:
        return UNDECIDED, ("the time budget ran out before any instance was evaluated" if stopped == BUDGET
                           else "no instance was evaluated")
    if total.met == 0:
        return VACUOUS, "no instance met the hypotheses"
    if total.defined == 0:
        return VACUOUS, "no instance met the hypotheses with the residual defined"
    if exactly_inside is not None and exactly_inside[1] and not exactly_inside[0]:
        return VACUOUS, (f"floats put {total.defined} instances inside the claim, but none of the "
                         f"{exactly_inside[1]} decided exactly is (a hypothesis fails or the residual "
                         "is undefined in exact arithmetic)")
    return SURVIVED, None


def covers(grid: list[dict], declared: dict) -> bool:
    """Does the grid (a product of ranges) hold every size the claim declares?"""
    return all(set(range(lo, hi + 1)) <= {sizes.get(name) for sizes in grid}
               for name, (lo, hi) in declared.items())


def fuzz(claim: Claim, seed: int = 0, max_examples: int = 200, batch: int = 2048,
         time_budget: float = 20.0, sizes: dict | None = None,
         use_jax: bool = True, prove: bool = False, report=None) -> Outcome:
    """Search, shrink, certify and (for identities, with prove) prove.

    `report(kind, payload)`, if given, hears of progress as it happens:
    ("coverage", Coverage) as it grows, ("phases", {phase: instances}) as
    each phase ends, ("refutation", Refutation) for every certified
    counterexample (the first at once, then the shrunk one), ("proved",
    sizes), so that a caller that must stop the run loses nothing."""
    if getattr(claim, "exists", ()):  # "for every x there is p": a search of its own
        return search_exists(claim, seed, max_examples, time_budget, sizes, report, use_jax=use_jax)
    report = report or (lambda kind, payload: None)
    start = time.monotonic()
    deadline = start + time_budget
    judge = Judge(claim, on_undecided=lambda n: report("undecided", n), floats=use_jax)
    grid = size_grid(claim, sizes) if claim.variables else [{}]
    _traced(claim, judge, grid[0])  # the claim's own mistakes (a residual that is not a scalar) first
    if not claim.variables:
        return _decide_alone(claim, judge, seed, start, report)
    proof_grid = _proof_grid(claim) if prove and claim.kind == "identity" and claim.exact_sizes else []
    search_deadline = start + time_budget * (1 - PROOF_SHARE) if proof_grid else deadline
    coverage = Coverage()
    found, count, first = hypothesis_search.search(
        claim, grid, seed, max_examples, search_deadline, judge, coverage,
        on_found=lambda r: report("refutation", r), progress=lambda: report("coverage", coverage))
    phases = {"hypothesis": count}
    report("phases", phases)
    notes = []
    if found is None and use_jax and time.monotonic() < search_deadline:
        found, phases["jax"] = _jax_search(claim, grid, seed, batch, search_deadline, judge, coverage, report,
                                           notes)
        first = time.monotonic() if found else None
        report("phases", phases)
    stopped = BUDGET if time.monotonic() > search_deadline else None
    outcome = Outcome(claim, SURVIVED, seed, 0.0, coverage, phases, proof_grid=proof_grid, notes=notes)
    exactly = None
    if found is None and judge.samples and time.monotonic() < deadline:
        # a few instances the floats put inside, decided exactly: floats can misplace a
        # violation (a near-tie), so one refuted here is a counterexample like any other
        nominated, hear = judge.undecided, judge.on_undecided  # only nominated violations count
        judge.on_undecided = None
        for instance in judge.samples:
            found = found or judge.confirm(instance)
        judge.undecided, judge.on_undecided = nominated, hear
        if found is not None:
            first = time.monotonic()
            report("refutation", found)
        # undecided (say through tanh) is not known to be outside: only OUTSIDE (or a
        # domain violation, None) counts against the floats' coverage
        exactly = (sum(judge.verdict(i) not in (OUTSIDE, None) for i in judge.samples),
                   len(judge.samples))
    if found is not None:
        outcome.first_seconds = first - start
        found = _shrunk(claim, judge, found, deadline, report)
        outcome.shrunk_seconds = time.monotonic() - start
        stopped = BUDGET if time.monotonic() > deadline else stopped
        outcome.refutation = described(claim, found)
    else:
        for sizes_now in proof_grid:
            if time.monotonic() > deadline:
                stopped = BUDGET
                break
            proved, why = _prove_at(claim, sizes_now)
            if proved:
                outcome.proved_sizes.append(sizes_now)
                report("proved", sizes_now)
            elif why and not any(n.startswith("not proved at") for n in outcome.notes):
                outcome.notes.append(f"not proved at {_sizes_text(sizes_now)}: {why}")
    outcome.undecided_candidates = judge.undecided
    outcome.verdict, outcome.reason = conclude(coverage, outcome.refutation, judge.rejection,
                                               outcome.proved_sizes, proof_grid, stopped,
                                               undecided=judge.undecided, exactly_inside=exactly,
                                               declared=claim.sizes)
    outcome.stopped = stopped
    outcome.seconds = time.monotonic() - start
    return outcome


def _shrunk(claim: Claim, judge: Judge, found: Refutation, deadline: float, report) -> Refutation:
    """Shrink through exactly refuted instances, then certify the simplest: the last
    step (even past the deadline: one certification, as each step used to cost), else
    the step before it while time is left, else the certified `found` it started from."""
    steps = []
    shrink(claim, found.instance, found, accept=judge.refutes, deadline=deadline,
           on_improve=lambda instance, _: steps.append(instance))
    if not steps:
        return found
    final = judge.certify(steps[-1]) or judge.simplest_certified(steps[-2::-1], deadline)
    if final is None:
        return found
    report("refutation", final)
    return final


def _traced(claim: Claim, judge: Judge, sizes: dict) -> None:
    """Trace the claim once before any search: a claim that cannot be traced at all
    (its residual raises, takes the wrong arguments, uses a float or a Python if on a
    value) is the user's mistake, bad input with file:line, not an undecided search.
    A residual that fails only on some instances is traced fine and decided per
    instance (outside, or undecided)."""
    try:
        judge.traced(sizes)
    except Exception as err:
        blamed = claim_error(err, claim)
        if blamed is None:
            raise
        raise blamed from None


def _decide_alone(claim: Claim, judge: Judge, seed: int, start: float, report) -> Outcome:
    """A claim without variables: one exact decision, certified if it refutes."""
    decision = decide(claim, {})
    coverage = Coverage()
    coverage.add({}, 1, int(decision.verdict != OUTSIDE), int(decision.verdict != OUTSIDE))
    outcome = Outcome(claim, VERIFIED, seed, 0.0, coverage)
    if decision.verdict == REFUTED:
        found = judge.confirm({})
        if found:
            outcome.refutation = described(claim, found)
            report("refutation", outcome.refutation)
        outcome.verdict, outcome.reason = conclude(coverage, outcome.refutation, judge.rejection, [], [])
    elif decision.verdict == OUTSIDE:
        outcome.verdict, outcome.reason = VACUOUS, decision.detail
    elif decision.verdict != HOLDS:
        outcome.verdict, outcome.reason = UNDECIDED, decision.detail or "the exact engine could not decide"
    else:  # holds: reported only when the claim's own code, read without the tracer, holds too
        why = instance_verdict(claim, {}, decision, floats=judge.floats)
        if why is not None:
            outcome.verdict, outcome.reason = UNDECIDED, why
    outcome.seconds = time.monotonic() - start
    return outcome


def _proof_grid(claim: Claim) -> list[dict]:
    ranges = claim.exact_sizes or {}
    names = sorted(ranges)
    return [dict(zip(names, combo)) for combo in
            itertools.product(*(range(ranges[n][0], ranges[n][1] + 1) for n in names))]


def _prove_at(claim: Claim, sizes: dict) -> tuple[bool, str | None]:
    """(proved, why not); a failing prover proves nothing and stops nothing."""
    from ..claims import prove

    try:
        result = prove.prove_at(claim, sizes)
        return bool(result.proved), result.reason
    except Disagreement:  # the traced program is not the claim's: a bug, exit 7
        raise
    except Exception as err:  # noqa: BLE001 - reported as a note, never as a proof
        return False, f"the prover failed: {type(err).__name__}: {err}"


def _jax_search(claim: Claim, grid: list[dict], seed: int, batch: int, deadline: float,
                judge: Judge, coverage: Coverage, report, notes: list):
    """The certified counterexample it found (or None) and the instances it
    evaluated.  JAX is a second numeric search, after Hypothesis: if it fails
    on the claim's code (say a constant too large for a 64-bit integer), what
    was found so far stands and the failure is a note, not the verdict."""
    rng = np.random.default_rng(seed)
    state = {"count": 0, "best": None}
    try:
        _jax_sizes(claim, grid, batch, deadline, judge, coverage, report, rng, state)
    except Disagreement:  # the traced program is not the claim's: a bug, exit 7, never a note
        raise
    except Exception as err:  # noqa: BLE001 - the claim's code in JAX; Hypothesis's evidence stands
        notes.append(f"the JAX search stopped on an error: {short_error(err)}")
    return state["best"], state["count"]


def _jax_sizes(claim, grid, batch, deadline, judge, coverage, report, rng, state) -> None:
    from .batched import BatchedResidual, candidates
    from .space import random_batch

    for sizes in grid:
        if time.monotonic() > deadline:
            break
        kernel = BatchedResidual(claim, sizes)
        values = kernel.project(random_batch(claim, sizes, batch, rng))  # onto any equality set
        screened = kernel.screen(values)
        coverage.add(sizes, batch, *_float_tally(claim, values, screened, deadline))
        state["count"] += batch
        picks = candidates(screened.score, values, 8, kernel.nominated(values, screened))
        if not picks and time.monotonic() < deadline:
            # push the most promising downhill: toward the hypotheses, then down the residual
            order = screened.rank()[:64]
            moved = kernel.descend({k: np.asarray(v)[order] for k, v in values.items()}, deadline=deadline)
            after = kernel.screen(moved)
            coverage.add(sizes, len(order), *_float_tally(claim, moved, after, deadline))
            state["count"] += len(order)
            picks = candidates(after.score, moved, 8, kernel.nominated(moved, after))
        report("phases", {"jax": state["count"]})
        best = state["best"]
        for candidate in picks:
            if time.monotonic() > deadline:
                break
            hit = exactify(candidate, _nominated_at(judge, candidate), claim)
            if hit and (best is None or complexity(hit[0]) < complexity(best.instance)):
                best = state["best"] = hit[1]
                report("refutation", best)
        if best:
            break


def _nominated_at(judge: Judge, candidate: dict):
    """judge.confirm for the rationalizations of a float candidate floats nominated; the one
    that is the very point floats evaluated (small integers are exact floats) is, where the
    exact engine says the claim holds, read a second time (Judge.confirm_nominated)."""
    point = {name: np.vectorize(Fraction, otypes=[object])(np.asarray(v, dtype=float))
             for name, v in candidate.items()}

    def accept(instance: dict):
        same = all(np.array_equal(np.asarray(instance[name], dtype=object), exact) for name, exact in point.items())
        return judge.confirm_nominated(instance) if same else judge.confirm(instance)

    return accept


CROSS_CHECKS = 16  # instances per batch whose JAX screen is compared with the float screen


def _float_tally(claim: Claim, values: dict, screened, deadline: float) -> tuple[int, int]:
    """(met, defined) of a JAX batch, as the float screen (the one Hypothesis
    uses, with the exact engine's rules) would count them.  JAX differentiates
    through kinks (relu'(0), |x|'(0)) where the exact engine, and the float
    screen, find the residual undefined; so a few instances are screened
    again, and on any disagreement every one is, until the deadline (those
    left over count as not met)."""
    from ..claims.xp import floating
    from .screen import screen

    met, defined = screened.met, screened.defined
    n = len(met)
    xp = floating()

    def agrees(i: int) -> tuple[bool, bool, bool]:
        instance = {name: np.asarray(v)[i].tolist() for name, v in values.items()}
        try:
            s = screen(claim, instance, xp)
        except Exception:  # noqa: BLE001 - the float screen cannot judge it; JAX's word stands
            return bool(met[i]), bool(defined[i]), True
        return s.met, s.met and s.r is not None, s.met == bool(met[i]) and (s.r is not None) == bool(defined[i])

    sample = sorted(set(np.linspace(0, n - 1, min(n, CROSS_CHECKS)).astype(int).tolist()))
    if all(agrees(i)[2] for i in sample):
        return int(met.sum()), int(defined.sum())
    counted_met = counted_defined = 0
    for i in range(n):
        if time.monotonic() > deadline:
            break
        m, d, _ = agrees(i)
        counted_met += int(m)
        counted_defined += int(d)
    return counted_met, counted_defined
