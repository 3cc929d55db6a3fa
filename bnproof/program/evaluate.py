"""Exact evaluation of straight-line programs and rigorous sign decisions.

Values stay exact rationals while they are rational (a square root of a
rational square is rational), held as python-flint fmpq (C arithmetic, about
seven times faster than fractions.Fraction; what the engine reports is still a
Fraction).  Other values are enclosed in arb balls
(python-flint), whose arithmetic is rigorous: every ball contains the true
value.  A sign is read from a ball only when the ball excludes 0.

Side conditions come first.  A square root or a division is only evaluated
once its radicand is proved ≥ 0 or its divisor ≠ 0; an undefined operation
never becomes a value:
  * a radicand proved < 0, or a divisor proved = 0, is a DomainError (the
    instance is outside the claim's domain);
  * an operand whose ball still contains 0 gets an exact zero test.  Exactly
    0 means a DomainError for a division and the value 0 for a square root;
    nonzero means the precision is raised until its ball excludes 0.
The exact zero test only runs on an operand whose own side conditions are
already established (it comes earlier in the program), so it never sees an
undefined operation.  It replays that operand's subprogram over
Q(r₁, …, rₖ) with one generator per distinct square root
(``program.radicals``); abs, max and min take the branch given by the sign of
their operand (difference), itself decided exactly first.  A numerator that
reduces to the zero polynomial is a proof of 0.  Otherwise the generators are
eliminated one at a time (the product with the conjugate, F₀² − F₁²·R), which
gives a nonzero polynomial R(t) ∈ Q[t] with R(x) = 0.  Writing
R = tʲ·S with S(0) ≠ 0: j = 0 proves x ≠ 0, and every nonzero root of S has
|x| ≥ |s₀| / (|s₀| + max|sᵢ|) (Cauchy's bound for the reversed polynomial),
so a ball inside that bound proves x = 0 and a ball outside it decides the
sign.  The bound also says how much precision a nonzero value needs.

Transcendental steps (exp, log, acos, tanh, π) are enclosed in arb balls
too, after their side conditions: log needs its argument proved > 0, acos
needs it proved in [−1, 1] (an argument exactly ±1 is allowed, settled by the
exact zero test of x ∓ 1 when x is algebraic).  A value that depends on a
transcendental step is not algebraic, so no exact zero test applies to it: a
ball that keeps containing 0 up to ``MAX_TRANSCENDENTAL_BITS`` (or the work
limit) leaves the sign undecided, never 0 and never a sign.  exp of an
argument beyond ±``MAX_EXP_ARG`` is refused as undecided (bounded work).

Hostile programs are bounded by counts, not time: every step costs the square
of its bit size (a bound on its products and divisions), charged before it is
computed, and a decision stops at ``MAX_WORK`` bit-operations with an
undecided sign, never a value.  Nothing is ever rounded to a float.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from flint import arb, ctx, fmpq

from .radicals import Radicals, TooMuchWork, Vacuous
from .trace import TRANSCENDENTAL, is_algebraic

PRECISIONS = (64, 256, 1024, 4096)  # the first rungs; beyond 4096 bits ×4 while work allows
MAX_WORK = 10**12  # bit-operations per decision (see _charge)
ENDPOINT_BITS = 4096  # reported enclosures: endpoints on the grid 2^-4096, |endpoint| ≤ 2^4096
MAX_POW = 64  # ["pow", i, k] takes 0 ≤ k ≤ MAX_POW, as the tracer emits and the checker accepts
MAX_NORM_ROOTS = 10  # square roots eliminated by one exact zero test (degree ≤ 2^10)
UNARY = ("neg", "sqrt", "abs", "pow", "exp", "log", "acos", "tanh")
NULLARY = ("input", "const", "pi")
PIECEWISE = ("abs", "max", "min")
NOT_ALGEBRAIC = "not algebraic (a transcendental step): no exact zero test"
MAX_TRANSCENDENTAL_BITS = 65536  # a ball with 0 in it at this precision stays undecided
TRANSCENDENTAL_COST = 16  # a transcendental step at p bits is charged this many times p²
MAX_EXP_ARG = 4096  # exp(x) needs |x| ≤ this (e^4096 ≈ 2^5909): bounded work, as in the checker
ABSENT = object()  # the field value of a guard whose condition fails (+∞, which min ignores)
EMPTY = "no candidate of a min over guarded values qualifies (the set is empty)"


class DomainError(ArithmeticError):
    """The program divides by zero or takes the root of a negative number here."""


class Undecided(ArithmeticError):
    """No sign or value could be established (the message says why)."""


class _Refine(Exception):
    """A ball still contains 0 where it must not: raise the precision."""

    def __init__(self, bits: int = 0):
        super().__init__(bits)
        self.bits = bits  # absolute precision (bits after the point) the value needs


class _Retry(Exception):
    """A value turned out to be an exact rational: run the pass again with it."""


@dataclass(frozen=True)
class Interval:
    """lo ≤ value ≤ hi; an endpoint beyond ±2^ENDPOINT_BITS is None (unbounded)."""

    lo: Fraction | None
    hi: Fraction | None

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


@dataclass(frozen=True)
class Sign:
    """The sign of a program's output: -1, 0, 1, or None when undecided."""

    sign: int | None
    how: str  # "exact rational", "interval at N bits", "exact zero test", or why undecided
    value: Interval | None
    work: int = 0  # bit-operations charged while deciding
    bits: int | None = None  # the precision of the ball that decided it ("interval at N bits")


def _bits(x: fmpq) -> int:
    return max(x.height_bits(), 1)


def _fmpq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


def _fraction(x: fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def _rational_sqrt(x: fmpq) -> fmpq | None:
    num, den = int(x.p), int(x.q)
    p, q = isqrt(num), isqrt(den)
    if p * p == num and q * q == den:
        return fmpq(p, q)
    return None


def _endpoint(x: arb, upward: bool) -> Fraction | None:
    """The exact value of a ball's endpoint (radius 0), rounded outward onto the grid
    2^-ENDPOINT_BITS when it is finer, and None (unbounded) when its magnitude exceeds
    2^ENDPOINT_BITS: (√2 − 1)^(64⁶) is a 64-bit ball whose exact endpoints would take
    gigabytes."""
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    if man.bit_length() + exp > ENDPOINT_BITS:
        return None
    if exp >= 0:
        return Fraction(man << exp)
    if exp >= -ENDPOINT_BITS:
        return Fraction(man, 1 << -exp)
    shift = -exp - ENDPOINT_BITS  # man·2^exp = (man / 2^shift)·2^-ENDPOINT_BITS
    grid = -((-man) >> shift) if upward else man >> shift  # ceiling, floor
    return Fraction(grid, 1 << ENDPOINT_BITS)


def _interval(x) -> Interval:
    if isinstance(x, fmpq):
        x = _fraction(x)
        return Interval(x, x)
    return Interval(_endpoint(x.lower(), False), _endpoint(x.upper(), True))


def operands(step: list) -> list[int]:
    op = step[0]
    if op in NULLARY:
        return []
    return step[1:2] if op in UNARY else step[1:3]


def cone(steps: list, outputs) -> list[int]:
    """The steps the outputs depend on, in program order."""
    return _cone(steps, outputs, lambda i: operands(steps[i]))


def _cone(steps: list, outputs, operands_of) -> list[int]:
    needed, stack = set(outputs), list(outputs)
    while stack:
        for j in operands_of(stack.pop()):
            if j not in needed:
                needed.add(j)
                stack.append(j)
    return sorted(needed)


class _Shape:
    """Each step's operands, and the cone of each output asked for, computed once per
    evaluator rather than once per pass (a decision makes several passes)."""

    def __init__(self, steps: list):
        self.steps = steps
        self.operands = [tuple(operands(step)) for step in steps]
        self.cones: dict[int, list[int]] = {}
        for i, step in enumerate(steps):
            # as traced and as the checker reads it: a negative exponent looped forever on a
            # ball and escaped the work charge on a rational
            if step[0] == "pow" and (type(step[2]) is not int or not 0 <= step[2] <= MAX_POW):
                raise ValueError(f"step {i}: the exponent of pow must be an integer from 0 to {MAX_POW}, "
                                 f"not {step[2]!r}")

    def cone(self, output: int) -> list[int]:
        if output not in self.cones:
            self.cones[output] = _cone(self.steps, [output], self.operands.__getitem__)
        return self.cones[output]


class _AsFractions(Mapping):
    def __init__(self, rationals: dict):
        self._rationals = rationals

    def __getitem__(self, i):
        x = self._rationals[i]
        return None if x is None else _fraction(x)

    def __iter__(self):
        return iter(self._rationals)

    def __len__(self):
        return len(self._rationals)


class Evaluator:
    """Exact decisions on one program at one instance; shares what it learns
    (rational values, exact zeros, branch signs) across the signs it is asked."""

    def __init__(self, steps: list, inputs, max_work: int = MAX_WORK):
        self.steps, self.inputs, self.max_work = steps, inputs, max_work
        self.shape = _Shape(steps)
        self.work = 0
        self.rationals: dict[int, fmpq | None] = {}  # None: irrational (a root of a non-square)
        self.tests: dict[int, tuple] = {}  # step -> ("zero",) or ("nonzero"/"near", bound bits)
        self.field = Radicals(["t"], max_work=max_work)  # "t": the zero test's unknown
        self.reps: dict = {}  # step -> its value in the field
        self.branches: dict[int, int] = {}  # piecewise step -> sign of its discriminant
        self.branch_tests: dict = {}  # piecewise step (or (acos step, ±1)) -> its zero test
        self.algebraic: dict[int, bool] = {}  # step -> whether its cone has no transcendental step
        self.prec = PRECISIONS[0]  # of the pass under way
        self.absent: set[int] = set()  # guards whose condition is < 0, and what carries them

    @property
    def exact(self) -> Mapping:
        """Step -> its exact value as a Fraction (None: irrational), for readers outside."""
        return _AsFractions(self.rationals)

    # -- the public decisions ----------------------------------------------------

    def sign(self, output: int) -> Sign:
        """The sign of step `output`; DomainError if it is undefined here."""
        needed = self.shape.cone(output)
        prec, last = PRECISIONS[0], None
        while True:
            try:
                balls = self._forward(prec, needed)
                if output in self.absent:
                    raise DomainError(EMPTY)
                x = self.rationals.get(output)
                if x is not None:
                    return Sign((x > 0) - (x < 0), "exact rational", _interval(x), self.work)
                ball = balls[output]
                if not ball.is_finite():  # never read a sign from a non-finite enclosure
                    raise _Refine()
                last = _interval(ball)
                if ball > 0 or ball < 0:
                    return Sign(1 if ball > 0 else -1, f"interval at {prec} bits", last, self.work,
                                prec)
                if self._is_zero(output, balls):
                    return Sign(0, "exact zero test", Interval(Fraction(0), Fraction(0)), self.work)
                raise _Refine(self.tests[output][1])
            except _Retry:
                continue
            except _Refine as need:
                prec = self._next(prec, need.bits)
            except (Undecided, TooMuchWork) as why:
                return Sign(None, f"undecided: {why}" if isinstance(why, TooMuchWork) else str(why),
                            last, self.work)

    def values(self, bits: int) -> list[Interval]:
        """Every step's value at this precision (Undecided where it cannot say)."""
        while True:
            try:
                balls = self._forward(bits, range(len(self.steps)))
                break
            except _Retry:
                continue
            except _Refine:
                raise Undecided(f"a side condition is not decided at {bits} bits") from None
            except TooMuchWork as err:
                raise Undecided(str(err)) from None
        return [Interval(None, None) if i in self.absent else  # absent: +∞
                _interval(self.rationals[i]) if self.rationals.get(i) is not None else _interval(balls[i])
                for i in range(len(self.steps))]

    def branch_signs(self, output: int) -> dict[int, int]:
        """The sign of the discriminant (a, or a − b) of every abs/max/min step the
        output depends on, decided exactly; a step whose sign cannot be decided is absent."""
        needed = self.shape.cone(output)
        piecewise = [i for i in needed if self.steps[i][0] in PIECEWISE + ("guard",)]
        prec = PRECISIONS[0]
        try:
            while True:
                try:
                    balls = self._forward(prec, needed)
                    with ctx.workprec(prec):
                        for i in piecewise:  # a min with an absent operand has no branch
                            if not any(j in self.absent for j in operands(self.steps[i])):
                                self._discriminant(i, balls)
                    break
                except _Retry:
                    continue
                except _Refine as need:
                    prec = self._next(prec, need.bits)
        except (DomainError, Undecided, TooMuchWork):
            pass
        return dict(self.branches)

    # -- work ------------------------------------------------------------------

    def _charge(self, bits: int, times: int = 1) -> None:
        """Charged before the arithmetic is done: a hostile size stops here."""
        cost = bits * bits * times
        if self.work + cost > self.max_work:
            raise Undecided(f"undecided: the work limit ({self.max_work:.0e} bit-operations) "
                            f"is reached before {bits}-bit arithmetic")
        self.work += cost

    def _next(self, prec: int, bits: int) -> int:
        rungs = [p for p in PRECISIONS if p > prec]
        step = rungs[0] if rungs else prec * 4
        return max(step, bits + 64)

    # -- one pass at a precision ---------------------------------------------------

    def _forward(self, prec: int, needed) -> dict:
        """Balls of the needed steps at `prec` bits, side conditions first."""
        needed = list(needed)
        self._charge(prec, len(needed))  # the whole pass, before it starts
        self._charge(prec, TRANSCENDENTAL_COST * sum(self.steps[i][0] in TRANSCENDENTAL
                                                     for i in needed))
        self.prec = prec
        balls: dict[int, arb] = {}
        exact, absent, steps, operands_of = self.rationals, self.absent, self.steps, self.shape.operands
        with ctx.workprec(prec):
            for i in needed:
                if exact.get(i) is not None:
                    continue
                step = steps[i]
                op = step[0]
                args = operands_of[i]
                if op == "guard" or absent and any(j in absent for j in args):
                    self._guarded(i, step, balls)
                    continue
                if op == "input" or op == "const":
                    exact[i] = self._leaf(step)
                    continue
                if i not in exact and all(exact.get(j) is not None for j in args):
                    value = self._rational_step(i, step)
                    exact[i] = value
                    if value is not None:
                        continue
                balls[i] = self._ball_step(i, step, balls)
        return balls

    def _guarded(self, i: int, step, balls: dict) -> None:
        """A guard, or a step with an absent operand: absent, or a copy of the value
        that qualifies.  The guard's condition is decided exactly first (0 counts as ≥ 0)."""
        op, absent = step[0], self.absent
        if op == "guard":
            if step[2] in absent:
                raise DomainError(f"the condition of the guard at step {i} is absent")
            if step[1] in absent or self._discriminant(i, balls) < 0:
                absent.add(i)
                return
            source = step[1]
        elif op == "min":
            a, b = step[1], step[2]
            if a in absent and b in absent:
                absent.add(i)
                return
            source = b if a in absent else a
        else:  # +∞ is a value only for min to skip: arithmetic on it is undefined
            raise DomainError(f"step {i} ({op}) uses an absent guarded value: {EMPTY}")
        if self.rationals.get(source) is not None:
            self.rationals[i] = self.rationals[source]
        else:
            balls[i] = balls[source]

    def _leaf(self, step) -> fmpq:
        if step[0] == "const":
            return _fmpq(Fraction(step[1]))
        x = _fmpq(Fraction(self.inputs(step[1], step[2:])))
        self._charge(_bits(x))
        return x

    def _rational_step(self, i: int, step) -> fmpq | None:
        op = step[0]
        if op == "pi":
            return None
        args = self.shape.operands[i]
        a = self.rationals[args[0]]
        if op == "pow":
            self._charge(_bits(a) * max(step[2], 1))
            return a ** step[2]
        if len(args) == 1:
            self._charge(_bits(a) + 1)
            if op == "neg":
                return -a
            if op == "abs":
                return abs(a)
            if op == "sqrt":
                if a < 0:
                    raise DomainError(f"square root of a negative number at step {i}")
                return _rational_sqrt(a)  # None: irrational
            value = _rational_transcendental(i, op, _fraction(a))
            return None if value is None else _fmpq(value)
        b = self.rationals[args[1]]
        self._charge(_bits(a) + _bits(b) + 1)
        if op == "add":
            return a + b
        if op == "sub":
            return a - b
        if op == "mul":
            return a * b
        if op == "div":
            if b == 0:
                raise DomainError(f"division by zero at step {i}")
            return a / b
        if op == "max":
            return a if a >= b else b
        if op == "min":
            return a if a <= b else b
        raise KeyError(op)

    def _ball(self, j: int, balls: dict) -> arb:
        x = self.rationals.get(j)
        if x is None:
            return balls[j]
        self._charge(_bits(x))
        return arb(x)

    def _ball_step(self, i: int, step, balls: dict) -> arb:
        op = step[0]
        if op == "pi":
            return arb.pi()
        a = self._ball(step[1], balls)
        if op in TRANSCENDENTAL:
            return self._transcendental(i, step, a, balls)
        if op == "neg":
            return -a
        if op == "abs":
            return abs(a)
        if op == "pow":
            return _power(a, step[2])
        if op == "sqrt":
            if a < 0:
                raise DomainError(f"square root of a negative number at step {i}")
            if a >= 0:
                return a.sqrt()
            if self._is_zero(step[1], balls):  # straddles 0: exactly 0 has root 0
                self.rationals[i] = fmpq(0)
                raise _Retry
            raise _Refine(self.tests[step[1]][1])
        b = self._ball(step[2], balls)
        if op in ("max", "min") and (a > b or a < b):
            pick = step[1] if (a > b) == (op == "max") else step[2]
            if self.rationals.get(pick) is not None:  # the branch is proved: its value is exact
                self.rationals[i] = self.rationals[pick]
                return self._ball(pick, balls)
        if op == "div":
            if b.contains(0):
                if self._is_zero(step[2], balls):
                    raise DomainError(f"division by zero at step {i}")
                raise _Refine(self.tests[step[2]][1])
            return a / b
        return {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b,
                "max": lambda: a.max(b), "min": lambda: a.min(b)}[op]()

    def _transcendental(self, i: int, step, a: arb, balls: dict) -> arb:
        """exp, log, acos or tanh of a ball, side conditions first."""
        op = step[0]
        if not a.is_finite():
            raise _Refine()
        if op == "exp":
            if not (a >= -MAX_EXP_ARG and a <= MAX_EXP_ARG):
                raise Undecided(f"undecided: exp at step {i} of an argument not proved within "
                                f"±{MAX_EXP_ARG} (the work limit)")
            return a.exp()
        if op == "tanh":
            return a.tanh()
        if op == "log":
            if a < 0:
                raise DomainError(f"log of a negative number at step {i}")
            if a > 0:
                return a.log()
            if self._is_zero(step[1], balls):
                raise DomainError(f"log of 0 at step {i}")
            raise _Refine(self.tests[step[1]][1])
        if a < -1 or a > 1:
            raise DomainError(f"arccos of a number outside [-1, 1] at step {i}")
        if not a > -1 and self._on_edge(i, step[1], -1, a + 1, balls):
            return arb.pi()  # arccos(−1) = π
        if not a < 1 and self._on_edge(i, step[1], 1, a - 1, balls):
            self.rationals[i] = fmpq(0)  # arccos(1) = 0
            raise _Retry
        return a.acos()

    def _on_edge(self, i: int, j: int, edge: int, gap: arb, balls: dict) -> bool:
        """Whether the argument x (step j) of arccos at step i is exactly `edge` (±1): True
        if so; DomainError if x is beyond it; _Refine while the ball cannot tell."""
        if not self._is_algebraic(j):
            self._no_zero_test(j, edge)
        key = (i, edge)
        test = self.branch_tests.get(key)
        if test is None:
            rep = self.field.sub(self._rep(j, balls), self.field.const(Fraction(edge)))
            self._settle()
            test = self.branch_tests[key] = self._zero_test(rep)
        if test[0] == "zero" or test[0] == "near" and gap.abs_upper() < arb(test[2]):
            return True
        if test[0] == "rational":  # x − edge = q exactly
            if (test[1] > 0) if edge == 1 else (test[1] < 0):
                raise DomainError(f"arccos of a number outside [-1, 1] at step {i}")
            q = abs(test[1])
            raise _Refine(q.denominator.bit_length() - q.numerator.bit_length() + 8)
        raise _Refine(test[1])

    def _is_algebraic(self, j: int) -> bool:
        """Whether step j's value lies in Q(√r…): no transcendental step on its way back to
        the inputs, a step whose value is known to be rational counting as an input (a
        min(0, π) proved to be 0).  Only True is cached: more steps may turn out rational."""
        if self.algebraic.get(j):
            return True
        # a step known to be rational is an input here whatever its operation (log 1 = 0)
        if not is_algebraic(self.steps, [i for i in self._cone_to_exact(j) if self.rationals.get(i) is None]):
            return False
        self.algebraic[j] = True
        return True

    def _cone_to_exact(self, j: int) -> list[int]:
        """The steps j depends on, in program order, not looking behind a rational value."""
        seen, stack = {j}, [j]
        while stack:
            i = stack.pop()
            if self.rationals.get(i) is not None:
                continue
            for k in operands(self.steps[i]):
                if k not in seen:
                    seen.add(k)
                    stack.append(k)
        return sorted(seen)

    def _no_zero_test(self, j: int, edge: int = 0):
        """Step j is not algebraic and its ball contains `edge` (0, or ±1 for an argument of
        arccos): only more precision can separate them, up to MAX_TRANSCENDENTAL_BITS; then
        it may be exactly `edge`."""
        if self.prec >= MAX_TRANSCENDENTAL_BITS:
            raise Undecided(f"undecided: step {j} may be exactly {edge} (its ball contains "
                            f"{edge} at {self.prec} bits; {NOT_ALGEBRAIC})")
        raise _Refine()

    # -- exact zero tests -------------------------------------------------------------

    def _is_zero(self, j: int, balls: dict) -> bool:
        """Whether step j (side conditions established) is exactly 0.  Raises _Retry when
        it turns out rational, _Refine when nonzero or not yet separated at this precision."""
        ball = balls.get(j)
        if ball is not None and ball.is_zero():  # the ball [0 ± 0] encloses 0 alone (exp(1)·0)
            self.tests[j] = ("zero",)
            self.rationals[j] = fmpq(0)
            return True
        if not self._is_algebraic(j):
            self._no_zero_test(j)
        test = self.tests.get(j)
        if test is None:
            test = self.tests[j] = self._zero_test(self._rep(j, balls))
        if test[0] == "zero":
            self.rationals[j] = fmpq(0)
            return True
        if test[0] == "rational":
            self.rationals[j] = _fmpq(test[1])
            raise _Retry
        if test[0] == "near" and balls[j].abs_upper() < arb(test[2]):
            self.tests[j] = ("zero",)
            self.rationals[j] = fmpq(0)
            return True
        return False

    def _zero_test(self, rep) -> tuple:
        """("zero",), ("rational", q), ("nonzero", bits) or ("near", bits, bound): nonzero,
        or zero unless |x| ≥ bound, with bits the absolute precision that separates them."""
        q = rep.rational()
        if q is not None:
            return ("zero",) if q == 0 else ("rational", q)
        if rep.is_zero():
            return ("zero",)
        coeffs = self._norm(rep)
        low = min(coeffs)
        c0 = abs(coeffs[low])
        rest = max((abs(c) for k, c in coeffs.items() if k != low), default=Fraction(0))
        if low > 0 and rest == 0:  # R = c·t^j: the only root is 0
            return ("zero",)
        bound = c0 / (c0 + rest)
        bits = (bound.denominator.bit_length() - bound.numerator.bit_length()) + 2
        if low == 0:
            return ("nonzero", bits)
        return ("near", bits, fmpq(bound.numerator, bound.denominator))

    def _norm(self, rep) -> dict[int, Fraction]:
        """The coefficients {k: c_k} of a nonzero R(t) with R(x) = 0, x = N/D."""
        field = self.field
        t = field.input(0).n
        f = field.reduce(t * field._here(rep.d) - field._here(rep.n))
        eliminated = 0
        for k, r in reversed(field.relations):
            gen = field.root_gen(k)
            if f.degrees()[field.capacity - 1 - k] == 0:
                continue
            eliminated += 1
            if eliminated > MAX_NORM_ROOTS:
                raise Undecided(f"undecided: the exact zero test needs more than {MAX_NORM_ROOTS} "
                                "square roots")
            b, a = divmod(f, gen)
            self._charge_poly(a, b, r)
            f = field.reduce(a * a - b * b * r)
        if f.is_zero():
            raise Undecided("undecided: the exact zero test is inconclusive here")
        return {int(m[-1]): Fraction(int(c.p), int(c.q)) for m, c in zip(f.monoms(), f.coeffs())}

    def _charge_poly(self, *polys) -> None:
        terms = sum(len(p) for p in polys)
        bits = max((int(c.p).bit_length() + int(c.q).bit_length() for p in polys
                    for c in p.coeffs()), default=1)
        self._charge(bits, terms * terms)

    # -- the field representation of a step ---------------------------------------

    def _rep(self, j: int, balls: dict):
        if not self._is_algebraic(j):  # never treated as algebraic; callers check first
            raise Undecided(f"undecided: step {j} is {NOT_ALGEBRAIC}")
        field = self.field
        for i in self._cone_to_exact(j):
            if i in self.reps:
                continue
            x = self.rationals.get(i)
            if x is not None:
                self.reps[i] = field.const(_fraction(x))
                continue
            step = self.steps[i]
            op = step[0]
            if i in self.absent:
                self.reps[i] = ABSENT
                continue
            xs = [self.reps[k] for k in operands(step)]
            if op == "guard" or ABSENT in xs:  # present: the condition held (see _guarded)
                if op not in ("guard", "min"):
                    raise DomainError(f"step {i} ({op}) uses an absent guarded value")
                self.reps[i] = xs[1] if xs[0] is ABSENT else xs[0]
                continue
            try:
                if op in PIECEWISE:
                    sign = self._discriminant(i, balls)
                    self.reps[i] = _branch(op, xs, sign, field)
                elif op == "pow":
                    self.reps[i] = field.pow(xs[0], step[2])
                elif op in ("neg", "sqrt"):
                    self.reps[i] = getattr(field, op)(xs[0])
                else:
                    self.reps[i] = getattr(field, op)(*xs)
            except Vacuous as err:  # impossible once side conditions hold; never a value
                raise Undecided(f"undecided: inconsistent exact arithmetic at step {i} ({err})")
            except TooMuchWork as err:
                raise Undecided(f"undecided: {err}") from None
            except (_Refine, _Retry, Undecided, DomainError):
                raise
            except Exception as err:  # a bug in exact arithmetic is never a value, nor a crash
                raise Undecided(f"undecided: exact arithmetic failed at step {i} "
                                f"({type(err).__name__}: {err})") from None
            finally:
                self._settle()
        return self.reps[j]

    def _settle(self) -> None:
        """Move the field's work into the evaluator's count; both share one limit."""
        self.work += self.field.work
        self.field.work = 0
        self.field.max_work = max(0, self.max_work - self.work)
        if self.work > self.max_work:
            raise Undecided(f"undecided: the work limit ({self.max_work:.0e} bit-operations) "
                            "is reached in the exact zero test")

    def _discriminant(self, i: int, balls: dict) -> int:
        """The sign of a (abs) or a − b (max, min) at piecewise step i, decided exactly."""
        if i in self.branches:
            return self.branches[i]
        step = self.steps[i]
        if step[0] == "guard":  # its condition g, whatever its value
            d = self._value_ball(step[2], balls)
        else:
            a = self._value_ball(step[1], balls)
            d = a if step[0] == "abs" else a - self._value_ball(step[2], balls)
        if d > 0 or d < 0:
            sign = 1 if d > 0 else -1
        elif d.is_zero():  # the ball [0 ± 0]: its value is 0, transcendental steps or not
            sign = 0
        elif not all(self._is_algebraic(j) for j in
                     ([step[2]] if step[0] == "guard" else operands(step))):
            self._no_zero_test(i)
        else:
            field = self.field
            rep = self._rep(step[2] if step[0] == "guard" else step[1], balls)
            if step[0] in ("max", "min"):
                rep = field.sub(rep, self._rep(step[2], balls))
            test = self.branch_tests.get(i)
            if test is None:
                test = self.branch_tests[i] = self._zero_test(rep)
            if test[0] == "rational":
                sign = (test[1] > 0) - (test[1] < 0)
            elif test[0] == "zero" or test[0] == "near" and d.abs_upper() < arb(test[2]):
                sign = 0
            else:
                raise _Refine(test[1])
        self.branches[i] = sign
        return sign

    def _value_ball(self, j: int, balls: dict) -> arb:
        x = self.rationals.get(j)
        return arb(x) if x is not None else balls[j]


def _power(a: arb, k: int) -> arb:
    """a^k by squaring (python-flint's ** gives nan for a ball around 0)."""
    result, base = arb(1), a
    while k:
        if k & 1:
            result *= base
        base *= base
        k >>= 1
    return result


def _rational_transcendental(i: int, op: str, a: Fraction) -> Fraction | None:
    """A transcendental step of a rational: its value where rational (exp 0, log 1,
    arccos 1, tanh 0; by Lindemann–Weierstrass no other rational argument gives a
    rational), else None; DomainError outside its domain."""
    if op == "log" and a <= 0:
        raise DomainError(f"log of {'0' if a == 0 else 'a negative number'} at step {i}")
    if op == "acos" and abs(a) > 1:
        raise DomainError(f"arccos of a number outside [-1, 1] at step {i}")
    if op == "exp" and abs(a) > MAX_EXP_ARG:
        raise Undecided(f"undecided: exp at step {i} of an argument beyond ±{MAX_EXP_ARG} "
                        "(the work limit)")
    rational_at = {"exp": (0, 1), "log": (1, 0), "acos": (1, 0), "tanh": (0, 0)}.get(op)
    if rational_at is not None and a == rational_at[0]:
        return Fraction(rational_at[1])
    return None


def _branch(op: str, xs: list, sign: int, field: Radicals):
    if op == "abs":
        return xs[0] if sign >= 0 else field.neg(xs[0])
    if op == "max":
        return xs[0] if sign >= 0 else xs[1]
    return xs[1] if sign >= 0 else xs[0]


def decide_sign(steps: list, inputs, output: int = -1, max_work: int = MAX_WORK) -> Sign:
    """The sign of one output: DomainError if undefined, Sign(None, why) if undecided."""
    return Evaluator(steps, inputs, max_work).sign(output % len(steps))


def run(steps: list, inputs, bits: int) -> list[Interval]:
    """Every value of the program at `bits` bits (degenerate intervals where exact).
    DomainError where an operation is undefined, Undecided where a side condition
    cannot be settled at this precision."""
    return Evaluator(steps, inputs).values(bits)


def to_sympy(steps: list, inputs, output: int = -1):
    """The exact value of a step as a SymPy expression, for reports.  abs, max and
    min are resolved to the branch their exact sign decision takes (so no Max,
    Min or Abs reaches SymPy), unless that sign is undecided."""
    import sympy

    output = output % len(steps)
    signs = Evaluator(steps, inputs).branch_signs(output)
    values = {}
    for i in cone(steps, [output]):
        step = steps[i]
        op = step[0]
        if op == "pi":
            values[i] = sympy.pi
            continue
        if op in ("input", "const"):
            x = Fraction(step[1]) if op == "const" else Fraction(inputs(step[1], step[2:]))
            values[i] = sympy.Rational(x.numerator, x.denominator)
            continue
        xs = [values[j] for j in operands(step)]
        if op == "guard":  # absent is +∞, which sympy's Min ignores
            values[i] = (xs[0] if signs[i] >= 0 else sympy.oo) if i in signs else \
                sympy.Piecewise((xs[0], xs[1] >= 0), (sympy.oo, True))
            continue
        if op in PIECEWISE:
            values[i] = (_branch_sympy(op, xs, signs[i]) if i in signs else
                         {"abs": sympy.Abs, "max": sympy.Max, "min": sympy.Min}[op](*xs))
            continue
        values[i] = {
            "add": lambda: xs[0] + xs[1], "sub": lambda: xs[0] - xs[1], "mul": lambda: xs[0] * xs[1],
            "div": lambda: xs[0] / xs[1], "neg": lambda: -xs[0], "sqrt": lambda: sympy.sqrt(xs[0]),
            "pow": lambda: xs[0] ** step[2], "tanh": lambda: sympy.tanh(xs[0]),
            "exp": lambda: sympy.exp(xs[0]), "log": lambda: sympy.log(xs[0]),
            "acos": lambda: sympy.acos(xs[0]),
        }[op]()
    return values[output]


def _branch_sympy(op: str, xs: list, sign: int):
    if op == "abs":
        return xs[0] if sign >= 0 else -xs[0]
    if op == "max":
        return xs[0] if sign >= 0 else xs[1]
    return xs[1] if sign >= 0 else xs[0]


def tree_sizes(steps: list) -> list[int]:
    """Each step's expression-tree size, shared subexpressions counted each time (what a
    printed formula would repeat): how large a report's to_sympy of it would be."""
    sizes = []
    for step in steps:
        if step[0] in ("input", "const"):
            sizes.append(1)
        elif step[0] == "pow":
            sizes.append(sizes[step[1]] + 1)
        else:
            sizes.append(1 + sum(sizes[i] for i in step[1:3] if isinstance(i, int)))
    return sizes
