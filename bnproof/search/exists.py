"""The search of `bnproof fuzz` for an existential claim ("for every x there is p").

Hypothesis and JAX search for a violation of one inequality; here a violation is
an instance x with NO witness, which only an exact argument shows.  So the
search is simpler: seeded random small rationals for the universal variables,
each instance decided by claims/exists.py (a witness confirmed exactly, or no
witness proved by a Farkas certificate or by z3 and cvc5), the first instance
without a witness certified by the independent checker, in memory, before it is
reported.  Witnesses found are evidence, never a proof of the claim: a survival
reads "witnesses found for N instances (seed S)"."""

from __future__ import annotations

import json
import random
import time
from fractions import Fraction

import numpy as np

from ..certificate.io import CheckerRefused, pretty
from ..checker import Rejected, check_document
from ..claims.api import Claim
from ..claims.exists import NO_WITNESS, OUTSIDE, UNDECIDED, WITNESS, decide_inner, trace
from ..claims.second_reading import witness_verdict
from .certify import Refutation
from .coverage import Coverage
from .fuzz import BUDGET, REFUTED, SURVIVED, VACUOUS, Outcome, short_error
from .space import size_grid

SHOWN_WITNESSES = 3
INTEGERS = (-3, 3)


def draw(claim: Claim, sizes: dict, rng: random.Random) -> dict:
    """Small integers, and now and then a fraction p/q with q <= 4: exact values whose
    zeros and coincidences (where witnesses tend to vanish) are common."""
    def entry(domain):
        x = Fraction(rng.randint(*INTEGERS), rng.choice((1, 1, 1, 2, 3, 4)))
        if domain == "positive":
            return abs(x) or Fraction(1)
        if domain == "nonzero":
            return x or Fraction(rng.choice((-1, 1)))
        return x

    out = {}
    for v in claim.variables:
        shape = claim.shape_of(v, sizes)
        arr = np.empty(shape, dtype=object)
        for index in np.ndindex(*shape):
            arr[index] = entry(v.domain)
        if v.domain == "symmetric":
            arr = np.array([[arr[min(i, j), max(i, j)] for j in range(shape[1])] for i in range(shape[0])],
                           dtype=object)
        out[v.name] = arr.tolist() if shape else arr[()]
    return out


def _certified(claim, instance, sizes, traced, inner) -> tuple[Refutation | None, str | None]:
    from ..certificate.exists import build

    try:
        text = pretty(build(claim, instance, sizes, traced, inner)) + "\n"
        established = check_document(json.loads(text))  # the text to be written, checked again
    except CheckerRefused as err:
        return None, str(err).partition("so it is not written: ")[2] or str(err)
    except Rejected as err:
        return None, str(err)
    why = _second_reading(claim, instance, sizes, traced)
    if why is not None:
        return None, why
    how = ("a Farkas certificate" if inner.method == "farkas"
           else "z3 and cvc5 (not checked by the bnproof kernel)")
    what = ("no witness: Farkas multipliers y = (" + ", ".join(map(str, inner.multipliers)) + ")"
            if inner.method == "farkas" else "no witness: z3 and cvc5 answer unsat")
    return Refutation(instance, how, text, established, what, None), None


def _second_reading(claim, instance: dict, sizes: dict, traced) -> str | None:
    """"No witness" is a theorem about the traced program: at the instance, with generic
    values of the existential variables, the claim's own code read without the tracer
    must compute the same residuals and hypotheses (claims/second_reading.py; exit 7 when
    it does not)."""
    from .. import reading
    from ..claims.second_reading import certificate_program

    generic = reading.generic_instances(claim, sizes, 2, with_exists=True)
    points = [{**g, **instance} for g in generic]  # the counterexample's x, generic p
    program = {"steps": traced.steps, "residual": list(traced.residuals),
               "hypotheses": list(traced.hypotheses)}
    return certificate_program(claim, program, points)


def search(claim: Claim, seed: int = 0, max_examples: int = 200, time_budget: float = 20.0,
           sizes: dict | None = None, report=None, **_ignored) -> Outcome:
    """fuzz() for a claim with existential variables (the same Outcome)."""
    report = report or (lambda kind, payload: None)
    start = time.monotonic()
    deadline = start + time_budget
    grid = size_grid(claim, sizes)
    traced = {}
    rng = random.Random(seed)
    coverage, witnesses, undecided, rejection = Coverage(), [], [], None
    outcome = Outcome(claim, SURVIVED, seed, 0.0, coverage)
    try:
        trace(claim, grid[0])  # the claim's own mistakes (a hypothesis that reads p) first
    except Exception as err:  # noqa: BLE001 - the claim's code: undecided, with the reason
        from ..errors import claim_error

        blamed = claim_error(err, claim)  # the claim's own mistake: bad input, with file:line
        if blamed is not None:
            raise blamed from None
        outcome.verdict, outcome.reason = UNDECIDED, f"the claim cannot be traced: {short_error(err)}"
        outcome.seconds = time.monotonic() - start
        return outcome
    seen = set()
    for k in range(max_examples):
        if time.monotonic() > deadline:
            outcome.stopped = BUDGET
            break
        s = grid[k % len(grid)]
        instance = draw(claim, s, rng)
        key = (tuple(sorted(s.items())), repr(instance))
        if key in seen:  # small integers repeat: the count is of distinct instances
            continue
        seen.add(key)
        key_sizes = tuple(sorted(s.items()))
        if key_sizes not in traced:
            traced[key_sizes] = trace(claim, s)
        inner = decide_inner(claim, traced[key_sizes], instance, s,
                             solver_seconds=max(1.0, min(20.0, deadline - time.monotonic())))
        inside = inner.verdict != OUTSIDE
        coverage.add(s, 1, int(inside), int(inside))
        report("coverage", coverage)
        if inner.verdict == WITNESS:
            # a witness is the traced program's; reported as confirmed only if the claim's own
            # code holds there too (exit 7 on a disagreement), else the instance is undecided
            why = witness_verdict(claim, instance, inner.witness)
            if why is not None:
                undecided.append(why)
                report("undecided", len(undecided))
                continue
            witnesses.append((instance, inner.witness))
        elif inner.verdict == UNDECIDED:
            undecided.append(inner.detail)
            report("undecided", len(undecided))
        elif inner.verdict == NO_WITNESS:
            found, why = _certified(claim, instance, s, traced[key_sizes], inner)
            if found is not None:
                outcome.refutation, outcome.first_seconds = found, time.monotonic() - start
                report("refutation", found)
                break
            rejection = why
    outcome.phases = {"exists": coverage.total().drawn}
    outcome.undecided_candidates = len(undecided)
    outcome.verdict, outcome.reason = _conclude(outcome, coverage, witnesses, undecided, rejection, seed)
    if witnesses and outcome.verdict == SURVIVED:
        outcome.notes.extend(_shown(claim, w) for w in witnesses[:SHOWN_WITNESSES])
    outcome.seconds = time.monotonic() - start
    return outcome


def _conclude(outcome, coverage, witnesses, undecided, rejection, seed) -> tuple[str, str | None]:
    if outcome.refutation is not None:
        return REFUTED, None
    if rejection is not None:
        return UNDECIDED, f"an instance without a witness was found but the checker cannot certify it: {rejection}"
    if undecided:
        return UNDECIDED, (f"{len(undecided)} instance{'s' if len(undecided) > 1 else ''}: whether a witness "
                           f"exists could not be decided ({undecided[0]})")
    total = coverage.total()
    if total.drawn == 0:
        return UNDECIDED, ("the time budget ran out before any instance was evaluated"
                           if outcome.stopped == BUDGET else "no instance was evaluated")
    if total.met == 0:
        return VACUOUS, "no instance met the hypotheses"
    return SURVIVED, f"witnesses found for {len(witnesses)} instances (seed {seed}): evidence, not a proof"


def _shown(claim: Claim, found: tuple) -> str:
    instance, witness = found
    x = ", ".join(f"{v.name} = {_text(instance[v.name])}" for v in claim.variables)
    p = ", ".join(f"{v.name} = {_text(witness[v.name])}" for v in claim.exists)
    return f"witness: at {x}: {p} (confirmed exactly)"


def _text(value) -> str:
    if isinstance(value, list):
        return "(" + ", ".join(_text(v) for v in value) + ")"
    return str(value)
