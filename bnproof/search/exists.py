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
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..certificate.io import CheckerRefused, pretty
from ..checker import Rejected, check_document
from ..certificate.exists_witnesses import Part, build, rejection
from ..claims import exists_budget as budget
from ..claims.api import Claim
from ..claims.exists import NO_WITNESS, OUTSIDE, UNDECIDED, WITNESS, decide_inner, trace
from ..claims.second_reading import witness_verdict
from .certify import Refutation
from .certificate_names import certificate_path
from .coverage import Coverage
from .outcome import BUDGET, REFUTED, SURVIVED, VACUOUS, Outcome, short_error
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
           sizes: dict | None = None, report=None, use_jax: bool = False, **_ignored) -> Outcome:
    """fuzz() for a claim with existential variables (the same Outcome)."""
    report = report or (lambda kind, payload: None)
    start = budget.clock()
    deadline = start + time_budget
    grid = size_grid(claim, sizes)
    rng = random.Random(seed)
    outcome = Outcome(claim, SURVIVED, seed, 0.0, Coverage())
    try:
        trace(claim, grid[0])  # the claim's own mistakes (a hypothesis that reads p) first
    except Exception as err:  # noqa: BLE001 - the claim's code: undecided, with the reason
        from ..claims.blame import claim_error

        blamed = claim_error(err, claim)  # the claim's own mistake: bad input, with file:line
        if blamed is not None:
            raise blamed from None
        outcome.verdict, outcome.reason = UNDECIDED, f"the claim cannot be traced: {short_error(err)}"
        outcome.seconds = budget.clock() - start
        return outcome
    state = _State(claim, seed, use_jax, deadline, report)
    seen = set()
    for k in range(max_examples):
        if budget.clock() > deadline:
            outcome.stopped = BUDGET
            break
        s = grid[k % len(grid)]
        instance = draw(claim, s, rng)
        key = (tuple(sorted(s.items())), repr(instance))
        if key in seen:  # small integers repeat: the count is of distinct instances
            continue
        seen.add(key)
        inside = state.decide(s, instance)
        outcome.coverage.add(s, 1, int(inside), int(inside))
        report("coverage", outcome.coverage)
        if state.refutation is not None:
            break
    else:
        state.retry()  # what is left of the budget goes to the instances left undecided
    if state.refutation is not None:
        outcome.refutation, outcome.first_seconds = state.refutation, budget.clock() - start
        report("refutation", state.refutation)
    outcome.phases = {"exists": outcome.coverage.total().drawn}
    outcome.undecided_candidates = len(state.undecided)
    outcome.verdict, outcome.reason = _conclude(outcome, outcome.coverage, state.witnesses,
                                                list(state.undecided.values()), state.rejection, seed)
    outcome.notes.extend(state.hint_notes)
    if outcome.verdict == SURVIVED and state.witnesses:
        _certify_witnesses(claim, state, outcome)
    if outcome.verdict == SURVIVED and state.witnesses:
        outcome.notes.extend(_shown(claim, w) for w in state.witnesses[:SHOWN_WITNESSES])
    if state.unknowns:
        outcome.notes.append(f"{state.unknowns} solver call{'s' if state.unknowns > 1 else ''} answered "
                             "unknown or ran out of its share of the time")
    outcome.seconds = budget.clock() - start
    return outcome


class _State:
    """What the search has learnt so far: the programs and numeric searches per size, the
    witnesses (with their certificate parts), the instances left undecided, a refutation."""

    def __init__(self, claim, seed, use_jax, deadline, report):
        self.claim, self.seed, self.use_jax, self.deadline, self.report = claim, seed, use_jax, deadline, report
        self.traced, self.numeric, self.parts = {}, {}, {}
        self.witnesses, self.undecided = [], {}  # undecided: (sizes key, repr) -> reason
        self.pending = {}  # the same key -> (sizes, instance), for the retry
        self.refutation, self.rejection, self.unknowns = None, None, 0
        self.hint_notes: list = []

    def _of(self, s: dict):
        key = tuple(sorted(s.items()))
        if key not in self.traced:
            from .witness_numeric import NumericWitness

            self.traced[key] = traced = trace(self.claim, s)
            self.numeric[key] = NumericWitness(self.claim, s, traced.coordinates, self.use_jax, self.seed)
            self.parts[key] = Part(s, traced)
            self.hint_notes.extend(n for n in traced.hint_notes if n not in self.hint_notes)
        return key, self.traced[key]

    def decide(self, s: dict, instance: dict, allowance=None) -> bool:
        """Decide one instance; whether it is inside the claim."""
        key, traced = self._of(s)
        allowance = allowance or budget.for_instance(self.deadline)
        inner = decide_inner(self.claim, traced, instance, s, allowance=allowance, numeric=self.numeric[key])
        self.unknowns += sum(e.answer not in ("sat", "unsat") for e in inner.events)
        where = (key, repr(instance))
        self.undecided.pop(where, None)
        if inner.verdict == WITNESS:
            why = self._witness(s, traced, instance, inner)
            if why is None:
                self.parts[key].entries.append((instance, inner.witness, inner.hint))
                self.witnesses.append((instance, inner.witness, inner.hint))
            else:
                self._undecided(where, s, instance, why)
        elif inner.verdict == UNDECIDED:
            self._undecided(where, s, instance, inner.detail)
        elif inner.verdict == NO_WITNESS:
            found, why = _certified(self.claim, instance, s, traced, inner)
            if found is not None:
                self.refutation = found
            else:
                self.rejection = why
        return inner.verdict != OUTSIDE

    def _undecided(self, where, s, instance, why: str) -> None:
        self.undecided[where] = why
        self.pending[where] = (s, instance)
        self.report("undecided", len(self.undecided))

    def _witness(self, s, traced, instance, inner) -> str | None:
        """A witness is the traced program's: reported only where the claim's own code holds
        there too (exit 7 on a disagreement) and the independent checker confirms it."""
        why = read_witness(self.claim, instance, s, inner)
        if why is not None:
            return why
        refused = rejection(self.claim, s, traced, instance, inner.witness, inner.hint)
        return None if refused is None else f"the checker does not confirm the witness: {refused}"

    def retry(self) -> None:
        """Once every instance has been drawn, the budget left is shared among those left
        undecided: an instance whose solvers answered unknown within a small share may be
        settled with a larger one."""
        waiting = list(self.pending.items())
        for n, (where, (s, instance)) in enumerate(waiting):
            if where not in self.undecided:
                continue
            left = self.deadline - budget.clock()
            if left < budget.MIN_INSTANCE:
                return
            self.decide(s, instance, budget.Allowance.of(
                min(budget.SOLVER_SECONDS, left / (len(waiting) - n)), self.deadline))
            if self.refutation is not None:
                return


def read_witness(claim: Claim, instance: dict, sizes: dict, inner) -> str | None:
    """The second reading of a witness (claims/second_reading.witness_verdict): the claim's
    own code at (x, p), or for a hint's program the claim's code with the hint's put in."""
    from ..claims.exists_hints import reading

    if inner.hint is not None:
        return reading(claim, inner.hint, instance, sizes)
    return witness_verdict(claim, instance, inner.witness)


def _certify_witnesses(claim, state: _State, outcome) -> None:
    """The witness certificate, as the text to be written, accepted by the checker again."""
    try:
        doc = build(claim, list(state.parts.values()))
        text = pretty(doc) + "\n"
        check_document(json.loads(text))
    except (CheckerRefused, Rejected) as err:
        outcome.verdict = UNDECIDED
        outcome.reason = f"the witnesses were found, but the checker does not confirm their certificate: {err}"
        return
    outcome.witnesses = text


def witnesses_path(claim: Claim, directory) -> Path:
    """DIR/<claim id>.witnesses.json, beside where its refutation's certificate would be."""
    name = certificate_path(claim).relative_to("certificates")
    return Path(directory) / name.with_name(name.name.removesuffix(".json") + ".witnesses.json")


def save_witnesses(claim: Claim, outcome, directory) -> Path | None:
    """Write a survival's witness certificate to DIR (the refutations' folder); the notes
    say where.  A failure to write is a note too: the verdict rests on the search, and
    the certificate only lets others check its witnesses."""
    from ..atomic import write_text_atomic

    if not outcome.witnesses or directory is None:
        return None
    path = witnesses_path(claim, directory)
    try:
        write_text_atomic(path, outcome.witnesses)
    except OSError as err:
        outcome.notes.append(f"the witness certificate could not be written: {path}: {err.strerror or err}")
        return None
    outcome.notes.append(f"witness certificate {path} (accepted by the checker: bnproof check {path})")
    return path


def _conclude(outcome, coverage, witnesses, undecided, rejection, seed) -> tuple[str, str | None]:
    if outcome.refutation is not None:
        return REFUTED, None
    if rejection is not None:  # the checker's, or the second reading's (claims/second_reading.py)
        withheld = "it is not reported" if rejection.startswith("the second reading") else \
            "the checker cannot certify it"
        return UNDECIDED, f"an instance without a witness was found but {withheld}: {rejection}"
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
    instance, witness, hint = found
    x = ", ".join(f"{v.name} = {_text(instance[v.name])}" for v in claim.variables)
    if hint is not None:
        return f"witness: at {x}: hint {hint + 1}'s values (confirmed exactly, and by the checker)"
    p = ", ".join(f"{v.name} = {_text(witness[v.name])}" for v in claim.exists)
    return f"witness: at {x}: {p} (confirmed exactly, and by the checker)"


def _text(value) -> str:
    if isinstance(value, list):
        return "(" + ", ".join(_text(v) for v in value) + ")"
    return str(value)
