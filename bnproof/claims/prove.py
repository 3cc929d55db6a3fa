"""Prove an identity claim at fixed sizes: its residual is 0 wherever it is defined.

The claim is traced into its straight-line program (``decide.trace``) and the
program is replayed over exact rational functions (``program.radicals``): one
generator per input entry, one per distinct square root r with r² = Np·Dp.
The residual is proved ≡ 0 when its numerator reduces to the zero
polynomial; the soundness argument (cancellations are polynomial identities,
reductions only use relations that hold at the point) is in the docstring of
``bnproof.program.radicals``.  No SymPy assumptions are involved.

Piecewise steps (abs, max, min; relu and leaky_relu trace to max) are split
into cases: each is replaced by one of its branches, chosen by the sign of its
operand (abs a) or difference (max/min a − b).  Steps whose discriminants are
the same polynomial up to a constant factor share the choice, since at a point
that polynomial has one sign (at 0 both branches agree, so either is right).
At any point where the program is defined, the actual evaluation follows one
explored combination, so the identity is proved only if every combination
reduces to 0.  A branch that divides by the zero function, or takes the root
of a negative constant, is undefined wherever it applies and proves nothing
either way, so it is skipped.  At most ``MAX_CASES`` combinations are tried.

A proof of "0 wherever defined" is vacuous if the claim is defined nowhere,
so "proved" also requires one exact witness at that size: an instance of
small rationals (seeded deterministically) on which ``decide`` finds the
hypotheses true and the residual defined and 0.  And since the proof is about
the traced program, the claim's own code, read without the tracer
(claims/second_reading.py), must compute the same values at generic instances of
that size: otherwise there is no proof (a reason), or exit 7 on a disagreement.

Only the field operations, integer powers, square roots and the piecewise
steps are in the fragment; a transcendental step (exp, log, acos, tanh, π) is
not algebraic, so the claim is reported outside it before any field
arithmetic, never replayed as if it were algebraic.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..program.evaluate import MAX_WORK, cone
from ..program.radicals import Radicals, TooMuchWork, Vacuous
from ..program.trace import is_algebraic
from .api import Claim
from .decide import HOLDS, Traced, decide, trace
from .second_reading import fixed_size_proof

PROVED, NOT_PROVED, OUTSIDE_FRAGMENT = "proved", "not-proved", "outside-fragment"
MAX_CASES = 256  # branch combinations of the case split
MAX_PROOF_WORK = 10**11  # the field's work units (see radicals.Radicals), all cases together
MAX_GRID = 64  # sizes tried by verified_sizes
WITNESS_TRIES = 8
PIECEWISE = {"abs", "max", "min"}
FIELD = {"input", "const", "add", "sub", "mul", "div", "neg", "pow", "sqrt"}


@dataclass(frozen=True)
class ProofResult:
    status: str  # proved | not-proved | outside-fragment
    reason: str  # one line
    sizes: dict
    witness: dict | None = None  # an exact instance on which the claim is defined and holds
    cases: int = 0  # branch combinations explored
    work: int = 0  # the exact arithmetic's work units spent (all cases together)

    @property
    def proved(self) -> bool:
        return self.status == PROVED


class _TooManyCases(Exception):
    pass


class _NotZero(Exception):
    pass


class _CaseSplit:
    def __init__(self, steps: list, cone: list[int], inputs: dict, output: int, max_cases: int):
        self.steps, self.cone, self.inputs, self.output = steps, cone, inputs, output
        self.max_cases = max_cases
        self.cases = 1  # leaves of the case tree so far
        self.vacuous = 0  # leaves on which the program is defined nowhere
        self.piecewise = sum(steps[i][0] in PIECEWISE for i in cone)

    def explore(self, position: int, values: dict, field: Radicals, signs: dict) -> None:
        steps = self.steps
        for where in range(position, len(self.cone)):
            i = self.cone[where]
            step = steps[i]
            op = step[0]
            try:
                if op not in PIECEWISE:
                    values[i] = self._field_step(step, values, field)
                    continue
                a = values[step[1]]
                b = values[step[2]] if op != "abs" else None
                key, s = field.sign_key(a if op == "abs" else field.sub(a, b))
            except Vacuous:
                self.vacuous += 1
                return
            if key is None or key in signs:  # the sign is known on this branch
                values[i] = _branch(op, a, b, s * signs[key] if key else (s or 1), field)
                continue
            self.cases += 1
            if self.cases > self.max_cases:
                raise _TooManyCases
            field._charge_cost(2 * len(values))  # the copies of the values below
            for choice in (1, -1):  # the discriminant ≥ 0, then ≤ 0
                sub = dict(values)
                sub[i] = _branch(op, a, b, choice, field)
                self.explore(where + 1, sub, field.fork(), {**signs, key: choice * s})
            return
        if not values[self.output].is_zero():
            raise _NotZero

    def _field_step(self, step, values, field: Radicals):
        op = step[0]
        if op == "input":
            return field.input(self.inputs[(step[1], *step[2:])])
        if op == "const":
            return field.const(Fraction(step[1]))
        a = values[step[1]]
        if op == "neg":
            return field.neg(a)
        if op == "sqrt":
            return field.sqrt(a)
        if op == "pow":
            return field.pow(a, step[2])
        b = values[step[2]]
        return {"add": field.add, "sub": field.sub, "mul": field.mul, "div": field.div}[op](a, b)


def _branch(op: str, a, b, choice: int, field: Radicals):
    """The branch a piecewise step takes where its discriminant has sign `choice`."""
    if op == "abs":
        return a if choice > 0 else field.neg(a)
    if op == "max":
        return a if choice > 0 else b
    return b if choice > 0 else a  # min


def prove_at(claim: Claim, sizes: dict, max_cases: int = MAX_CASES,
             max_work: int = MAX_PROOF_WORK) -> ProofResult:
    """Prove claim's residual ≡ 0 at these sizes wherever it is defined, with a witness.
    Raises only errors.Disagreement (exit 7: the traced program is not the claim's own
    code, read independently): whatever else stops the proof (the case or work limit, the
    claim's own code, a second reading that cannot confirm) is NOT_PROVED with the reason."""
    field = None

    def result(status, reason, **extra):
        return ProofResult(status, reason, dict(sizes), work=field.work if field else 0, **extra)

    if claim.kind != "identity":
        return result(NOT_PROVED, "only identities are proved at fixed sizes")
    try:
        traced = trace(claim, sizes)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # the claim's own code failed at these sizes (even sys.exit)
        return result(NOT_PROVED, f"the residual could not be traced: {type(err).__name__}: {err}")
    steps = traced.steps
    needed = cone(steps, [traced.residual])
    outside = sorted({steps[i][0] for i in needed} - FIELD - PIECEWISE)
    if outside:
        algebraic = "" if is_algebraic(steps, needed) else " (not algebraic)"
        return result(OUTSIDE_FRAGMENT,
                      f"outside the provable fragment{algebraic}: uses {', '.join(outside)}")
    inputs = {}
    for i in needed:
        if steps[i][0] == "input":
            inputs.setdefault((steps[i][1], *steps[i][2:]), len(inputs))
    split = _CaseSplit(steps, needed, inputs, traced.residual, max_cases)
    field = Radicals([f"{k[0]}{list(k[1:])}" for k in inputs], max_work=max_work)
    try:
        split.explore(0, {}, field, {})
    except TooMuchWork:
        return result(NOT_PROVED, f"not proved: the work limit of exact arithmetic ({max_work:.0e}) "
                                  "is reached", cases=split.cases)
    except (RecursionError, MemoryError) as err:
        return result(NOT_PROVED, f"not proved: the prover ran out of "
                                  f"{'stack' if isinstance(err, RecursionError) else 'memory'}",
                      cases=split.cases)
    except _TooManyCases:
        return result(NOT_PROVED, f"not proved: {split.piecewise} piecewise operations exceed the "
                                  f"case-split limit ({max_cases} cases)", cases=split.cases)
    except _NotZero:
        return result(NOT_PROVED, "not proved: the residual does not reduce to 0"
                      + (f" (in one of {split.cases} cases)" if split.cases > 1 else ""),
                      cases=split.cases)
    except KeyboardInterrupt:
        raise
    except BaseException as err:  # a bug is never a proof, and never escapes
        return result(NOT_PROVED, f"not proved: {type(err).__name__}: {err}", cases=split.cases)
    if split.vacuous == split.cases:
        return result(NOT_PROVED, "not proved: the residual is defined nowhere "
                                  "(a division by zero or the root of a negative constant)",
                      cases=split.cases)
    witness = find_witness(claim, sizes, traced)
    if witness is None:
        return result(NOT_PROVED, "not proved: no instance where the claim is defined was found",
                      cases=split.cases)
    cases = f" in {split.cases} cases" if split.cases > 1 else ""
    # the proof is about the traced program: it is the claim's only if the claim's own code,
    # read without the tracer, computes the same values (errors.Disagreement, exit 7, if not)
    why = fixed_size_proof(claim, sizes, traced, avoid=[witness])
    if why is not None:
        return result(NOT_PROVED, f"not proved: {why}", cases=split.cases)
    return result(PROVED, f"proved: the residual reduces to 0{cases} wherever it is defined, "
                          "and a witness instance is inside the claim's domain",
                  witness=witness, cases=split.cases)


def _entry(rng: random.Random, domain: str) -> Fraction:
    while True:
        x = Fraction(rng.randint(-9, 9), rng.choice((1, 2, 3)))
        if domain == "positive":
            x = abs(x)
        if x != 0 or domain == "real" or domain == "symmetric":
            return x


def _random_instance(claim: Claim, sizes: dict, rng: random.Random) -> dict:
    instance = {}
    for v in claim.variables:
        shape = claim.shape_of(v, sizes)
        if not shape:
            instance[v.name] = _entry(rng, v.domain)
            continue
        cells = {}
        for index in itertools.product(*(range(n) for n in shape)):
            key = tuple(sorted(index)) if v.domain == "symmetric" else index
            cells[index] = cells.get(key) if key in cells else _entry(rng, v.domain)

        def nest(prefix):
            if len(prefix) == len(shape):
                return cells[prefix]
            return [nest(prefix + (k,)) for k in range(shape[len(prefix)])]

        instance[v.name] = nest(())
    return instance


def find_witness(claim: Claim, sizes: dict, traced: Traced | None = None,
                 tries: int = WITNESS_TRIES, max_work: int = MAX_WORK) -> dict | None:
    """An exact instance at these sizes on which the claim is decided to hold, or None;
    the tries share one decision's work limit."""
    rng = random.Random(f"{claim.id} {sorted(sizes.items())}")  # seeded by the claim and sizes
    traced = traced or trace(claim, sizes)
    left = max_work
    for _ in range(tries):
        if left <= 0:
            break
        instance = _random_instance(claim, sizes, rng)
        decision = decide(claim, instance, traced, max_work=left)
        if decision.verdict == HOLDS:
            return instance
        left -= max(decision.work, 1)
    return None


def identity_holds(claim: Claim, sizes: dict) -> bool:
    """Kept for callers of the old prover: True only when prove_at proves it."""
    return prove_at(claim, sizes).proved


def verified_sizes(claim: Claim, max_work: int = MAX_PROOF_WORK) -> list[dict]:
    """The sizes in claim.exact_sizes at which the identity is proved: at most MAX_GRID
    of them are tried, in order, sharing one work limit; malformed ranges prove nothing."""
    ranges = claim.exact_sizes or {}
    try:
        names = sorted(ranges)
        bounds = [ranges[n] for n in names]
        if not all(len(b) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in b)
                   for b in bounds):
            return []
    except (TypeError, ValueError):
        return []
    if any(lo > hi for lo, hi in bounds):
        return []
    proved, left = [], max_work
    for combo in itertools.islice(_grid(bounds), MAX_GRID):
        if left <= 0:
            break
        sizes = dict(zip(names, combo))
        result = prove_at(claim, sizes, max_work=left)
        left -= result.work
        if result.proved:
            proved.append(sizes)
    return proved


def _grid(bounds: list) -> Iterator[tuple]:
    """The size combinations in order, lazily (itertools.product would first build every
    range in full); every range is nonempty, so each combination comes after finite work."""
    if not bounds:
        yield ()
        return
    lo, hi = bounds[0]
    for value in range(lo, hi + 1):
        for rest in _grid(bounds[1:]):
            yield (value, *rest)
