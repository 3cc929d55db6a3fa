"""A violation counts only once the independent checker accepts its certificate.

The exact engine confirms a violation; the certificate of it is then built in
memory, written out as the text that would go on disk, read back and checked
by `checker.check_document` (once: the text, not also the document it came
from).  A violation the checker cannot certify (say an exact zero it cannot
decide) is remembered as a reason, never reported as a refutation: the search
goes on looking for one it can certify.

Two steps, because they cost very different amounts: `refutes` is the exact
decision alone (milliseconds), `certify` builds and checks the certificate
(the checker re-runs the program in stdlib Fractions, up to a second at
m = 256).  Shrinkers walk through exactly refuted instances with `refutes` and
certify only what they would report (`simplest_certified`); `confirm` is both.
A certified violation is reported only when the second reading of the claim
(claims/second_reading.py) refutes it too.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, replace
from fractions import Fraction

from ..certificate.io import pretty
from ..certificate.program import sealed
from ..checker import Rejected, check_document
from ..claims.api import Claim
from ..claims.decide import HOLDS, REFUTED, UNDECIDED, Decision, decide, lookup, sizes_of, trace
from ..claims.second_reading import instance_verdict
from .space import valid_exact

# Programs longer than this are shown unsimplified (expanding surds grows with the program).
MAX_SIMPLIFY_STEPS = 5000
APPROX_BITS = 4096  # working precision for the residual's float, at most (as the checker's)
MAX_WRITTEN_BITS = 1 << 17  # a number of the residual written out (Python writes 4300 digits at most)
# Instances where floats nominated a violation and the exact engine says the claim holds,
# read a second time, per search: a count, not a share of the time, so a seed gives one
# search.  Floats read the claim's own code, the engine the tracer's program: where they
# differ, the tracer may have misread a branch the generic instances of a proof avoid (a
# tie, y0 = y1), so the first few such instances are where a misreading shows.
MAX_SECOND_LOOKS = 4


@dataclass(frozen=True)
class Refutation:
    """A certified counterexample, as plain data (it crosses process boundaries)."""

    instance: dict  # nested lists of Fractions
    decided_by: str  # how the exact engine decided the residual's sign
    document: str  # the certificate exactly as it is to be written, accepted by the checker
    established: str  # what the checker established
    residual_text: str | None = None
    residual_float: float | None = None


def _frozen(value):
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else Fraction(value)


class Judge:
    """Exact confirmation plus certification, remembered per instance (shrinkers
    revisit instances).  `rejection` keeps the last reason the checker gave;
    `verdict(instance)` the exact verdict of an instance already judged;
    `on_undecided(count)` hears each time the exact engine cannot decide one."""

    def __init__(self, claim: Claim, on_undecided=None, floats: bool = True):
        self.claim = claim
        self.floats = floats  # the second reading's JAX float64 check too
        self.rejection: str | None = None
        self.undecided = 0  # nominated instances the exact engine could not decide
        self.on_undecided = on_undecided
        self._traced: dict = {}
        self._decided: dict = {}  # key -> the REFUTED decision, or None
        self._certified: dict = {}  # key -> Refutation, or None (the checker refused it)
        self._verdicts: dict = {}
        self.samples: list[dict] = []  # a few instances floats put inside, to decide exactly
        self.second_looks = 0  # instances read again by second_look, at most MAX_SECOND_LOOKS
        self._holding: tuple | None = None  # (key, decision) of the last instance decided to hold

    def traced(self, sizes: dict):
        key = tuple(sorted(sizes.items()))
        if key not in self._traced:
            self._traced[key] = trace(self.claim, sizes)
        return self._traced[key]

    @staticmethod
    def _key(instance: dict) -> tuple:
        return tuple(sorted((k, _frozen(v)) for k, v in instance.items()))

    def confirm(self, instance: dict) -> Refutation | None:
        """The certified refutation at this instance, or None."""
        return self.certify(instance) if self.refutes(instance) else None

    def refutes(self, instance: dict) -> Decision | None:
        """The exact decision if it refutes the claim here (not yet certified), else None."""
        key = self._key(instance)
        if key not in self._decided:
            self._decided[key] = self._decide(instance, key)
        return self._decided[key]

    def certify(self, instance: dict) -> Refutation | None:
        """The certificate of an instance `refutes` confirmed, once the checker accepts it."""
        key = self._key(instance)
        decision = self.refutes(instance)
        if decision is None:
            return None
        if key not in self._certified:
            self._certified[key] = self._certify(instance, decision)
        return self._certified[key]

    def confirm_nominated(self, instance: dict) -> Refutation | None:
        """`confirm` for an instance floats nominated as a violation: where the exact
        engine says the claim holds instead, the first MAX_SECOND_LOOKS such instances
        are read a second time (claims.second_reading.instance_verdict), so that a
        disagreement there is errors.Disagreement (exit 7), not an instance dropped."""
        found = self.confirm(instance)
        if found is None:
            self.second_look(instance)
        return found

    def second_look(self, instance: dict) -> None:
        held, self._holding = self._holding, None
        if held is None or held[0] != self._key(instance) or self.second_looks >= MAX_SECOND_LOOKS:
            return  # decided before (and looked at then, if nominated then) or the looks are spent
        decision = held[1]
        self.second_looks += 1
        instance_verdict(self.claim, instance, decision, floats=self.floats)  # None or a reason: holds stands

    def verdict(self, instance: dict) -> str | None:
        """The exact verdict of an instance `confirm` judged (None: outside its domain)."""
        return self._verdicts.get(self._key(instance))

    def _decide(self, instance: dict, key: tuple) -> Decision | None:
        claim = self.claim
        if not all(valid_exact(v, instance[v.name]) for v in claim.variables):
            return None
        decision = decide(claim, instance, traced=self.traced(sizes_of(claim, instance)))
        self._verdicts[key] = decision.verdict
        self._holding = (key, decision) if decision.verdict == HOLDS else None
        if decision.verdict == UNDECIDED:
            self.undecided += 1
            if self.on_undecided:
                self.on_undecided(self.undecided)
        return decision if decision.verdict == REFUTED else None

    def _certify(self, instance: dict, decision: Decision) -> Refutation | None:
        claim = self.claim
        try:
            # the text to be written is what the checker judges
            text = pretty(sealed(claim, instance, self.traced(sizes_of(claim, instance)))) + "\n"
            established = check_document(json.loads(text))
        except Rejected as err:
            self.rejection = str(err)
            return None
        except (RecursionError, MemoryError) as err:  # the checker's own last resorts
            self.rejection = f"the checker ran out of {'stack' if isinstance(err, RecursionError) else 'memory'}"
            return None
        # the checker judged the traced program; the claim's own code, read without the
        # tracer, must refute too (errors.Disagreement, exit 7, when it reads otherwise)
        why = instance_verdict(claim, instance, decision, floats=self.floats)
        if why is not None:
            self.rejection = why
            return None
        how = decision.residual.how if decision.residual is not None else decision.detail
        return Refutation(instance, how, text, established)

    def simplest_certified(self, refuted: list, deadline: float | None = None) -> Refutation | None:
        """The first instance of `refuted` (exactly refuted instances, simplest first)
        whose certificate the checker accepts; None if none is (or the monotonic
        deadline passes first: the caller keeps the certified one it had)."""
        for instance in refuted:
            if deadline is not None and time.monotonic() > deadline:
                return None
            found = self.certify(instance)
            if found:
                return found
        return None


def _writable(steps: list, inputs, output: int) -> bool:
    """Whether SymPy can write the residual out without numbers beyond MAX_WRITTEN_BITS:
    the decision reads signs from bounded balls, while SymPy computes every rational
    exactly (an instance entry 10^400 under two powers of 64 is a number of 10^8 digits,
    hours of SymPy).  Rationals are computed, and a product's or power's size bounded
    from its operands' before it is; other values are bounded by their operands' sizes."""
    from ..program.evaluate import cone, operands

    def size(x: Fraction) -> int:
        return x.numerator.bit_length() + x.denominator.bit_length()

    exact: dict[int, Fraction] = {}  # rational values
    bits: dict[int, int] = {}  # a bound on each value's size
    for i in cone(steps, [output % len(steps)]):
        step, op = steps[i], steps[i][0]
        xs = operands(step)
        if op in ("input", "const"):
            exact[i] = Fraction(step[1]) if op == "const" else Fraction(inputs(step[1], step[2:]))
            bits[i] = size(exact[i])
        elif op == "pi":
            bits[i] = 1
        else:
            a = bits[xs[0]]
            b = bits[xs[1]] if len(xs) > 1 else 0
            bits[i] = {"mul": a + b, "div": a + b, "pow": a * (step[2] if op == "pow" else 1),
                       "add": a + b + 1, "sub": a + b + 1}.get(op, max(a, b) + 1)
            if bits[i] > MAX_WRITTEN_BITS:
                return False
            if all(j in exact for j in xs) and op in ("add", "sub", "mul", "div", "neg", "pow"):
                x, y = exact[xs[0]], exact[xs[1]] if len(xs) > 1 else None
                if op == "div" and y == 0:
                    continue  # undefined: left to the decision's own words
                exact[i] = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
                            "div": lambda: x / y, "neg": lambda: -x, "pow": lambda: x ** step[2]}[op]()
                bits[i] = size(exact[i])
    return True


def described(claim: Claim, refutation: Refutation) -> Refutation:
    """The refutation with its residual written out (SymPy) and as a float."""
    if refutation.residual_text is not None:
        return refutation
    import sympy

    from ..program.evaluate import to_sympy

    instance = refutation.instance
    try:
        traced = trace(claim, sizes_of(claim, instance))
        if not _writable(traced.steps, lookup(instance), traced.residual):
            return replace(refutation, residual_text=f"(not written out: its numbers pass {MAX_WRITTEN_BITS} bits)")
        expr = to_sympy(traced.steps, lookup(instance), traced.residual)
        if len(traced.steps) <= MAX_SIMPLIFY_STEPS:
            # sums of surds: expand, rationalize denominators, collect
            expr = sympy.expand(sympy.radsimp(sympy.expand(expr)))
        # strict: a value that cancels past the working precision raises instead of coming
        # back as noise (sqrt(10**100 + 1) - 10**50 - 10**-50/2 read 1.6e-114, not -1.25e-151)
        try:
            approx = float(expr.evalf(30, strict=True, maxn=APPROX_BITS))
        except sympy.core.evalf.PrecisionExhausted:
            approx = math.nan
        # beyond the float range there is no float to show (and JSON has no Infinity)
        return replace(refutation, residual_text=sympy.sstr(expr),
                       residual_float=approx if math.isfinite(approx) else None)
    except Exception as err:  # noqa: BLE001 - only the display fails; the certificate stands
        return replace(refutation, residual_text=f"(not written out: {type(err).__name__}; see the certificate)")
