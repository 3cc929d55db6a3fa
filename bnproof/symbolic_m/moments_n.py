"""Expectations over a batch of n i.i.d. draws, with n symbolic (docs/claims.md,
"Proofs for every m": expectations).

A claim with a Law X and a batch size m (the length of a batch vector of the claim,
read only through ``y.shape[0]``) is traced once with m a symbol n.  In
``xp.expect(f, X, n)`` f runs on a batch B of symbolic length: B is "the sample" x,
an elementwise value is a polynomial in x whose coefficients may hold batch sums,
and ``xp.sum`` maps x^k to the power sum P_k = Σ_b X_b^k (x⁰ to n).  A batch of a
fixed integer size N is N sample symbols s_0 … s_{N−1} (B[i] is s_i).  The
expectation of a product of power sums expands over the set partitions π of its
factors: E[Π_j P_{k_j}] = Σ_π n(n−1)…(n−|π|+1) · Π_{blocks β} μ_{Σ_{j∈β} k_j}
(the index tuples grouped by which of them coincide; distinct draws are independent),
and E[Π s_i^{a_i}] = Π μ_{a_i}.  μ_k = E[X^k] are symbols: the law is any law whose
moments exist (every finite-support Law among them), so a residual that reduces to 0
as a rational function of n and the μ_k is 0 for every batch size and every law.

Values are fractions num/den of python-flint fmpq_mpoly; a denominator holds only
n and the moments (dividing by a value that depends on the draws is not a
polynomial, and is outside the fragment).  Every operation is recorded as a step
of a program (the certificate's), which the checker (checker/moments_n.py) replays
with its own algebra.
"""

from __future__ import annotations

import numbers
import re
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
from flint import fmpq, fmpq_mpoly_ctx

from .fragment import OutsideFragment, poison, tracing

MAX_MOMENT = 24  # the highest moment E[X^k] (and power sum) a program may reach
MAX_FIXED_DRAWS = 16  # draws of a batch of fixed size
MAX_FACTORS = 10  # power-sum factors of one monomial (Bell(10) set partitions)
MAX_STEPS = 20_000

MAX_INPUTS = 16  # scalar inputs of the claim beside its law (constants of every expectation)

# deterministic symbols first (m, the moments, the scalar inputs), then what depends on the draws
NAMES = (("m",) + tuple(f"mu{k}" for k in range(1, MAX_MOMENT + 1)) + tuple(f"c{i}" for i in range(MAX_INPUTS))
         + tuple(f"P{k}" for k in range(1, MAX_MOMENT + 1)) + ("x",)
         + tuple(f"s{i}" for i in range(MAX_FIXED_DRAWS)))
CTX = fmpq_mpoly_ctx.get(NAMES, "lex")
GEN = dict(zip(NAMES, CTX.gens()))
INDEX = {name: i for i, name in enumerate(NAMES)}
MU0, P0, X, S0 = INDEX["mu1"], INDEX["P1"], INDEX["x"], INDEX["s0"]


def outside(what: str, rec=None):
    reason = f"uses {what}"
    poison(reason, rec)
    raise OutsideFragment(reason)


def _const(c: Fraction):
    return CTX.from_dict({(0,) * len(NAMES): fmpq(c.numerator, c.denominator)}) if c else CTX.from_dict({})


ONE = _const(Fraction(1))


def _random(p) -> bool:
    """Does p depend on the draws (a power sum, the sample x, a fixed draw)?"""
    return any(any(e for e in mono[P0:]) for mono in p.monoms())


class Recorder:
    """The program's steps, and the refusals the trace met (a claim may catch one)."""

    def __init__(self):
        self.steps: list = []
        self.refusals: list = []
        self.batches = 0

    def poison(self, reason: str) -> None:
        self.refusals.append(reason)

    def emit(self, step: list) -> int:
        if len(self.steps) >= MAX_STEPS:
            outside(f"a program of more than {MAX_STEPS} steps", self)
        self.steps.append(step)
        return len(self.steps) - 1


class Val:
    """A scalar or (for a batch of symbolic length) an elementwise batch value: num/den,
    the batch it depends on (None: deterministic), and its step."""

    __slots__ = ("rec", "index", "num", "den", "batch", "vector")
    __array_priority__ = 100

    def __init__(self, rec, index, num, den=ONE, batch=None, vector=False):
        self.rec, self.index, self.num, self.den, self.batch, self.vector = rec, index, num, den, batch, vector

    # ------------------------------------------------------------ arithmetic
    def _lift(self, other):
        if isinstance(other, Val):
            if other.rec is not self.rec:
                outside("a value from another trace", self.rec)
            return other
        if isinstance(other, (bool, np.bool_)) or not isinstance(other, (numbers.Integral, Fraction)):
            return None
        c = Fraction(int(other)) if isinstance(other, numbers.Integral) else other
        return Val(self.rec, self.rec.emit(["const", str(c)]), _const(c))

    def _batch(self, other) -> object:
        if self.batch is not None and other.batch is not None and self.batch != other.batch:
            outside("a value of one expectation's batch in another's", self.rec)
        return self.batch if self.batch is not None else other.batch

    def _op(self, other, op, swap=False):
        if isinstance(other, np.ndarray):  # a batch of fixed size: entry by entry, as numpy would
            if other.dtype != object:
                outside("a numpy array of numbers beside a traced value", self.rec)
            out = np.empty(other.shape, dtype=object)
            for k in np.ndindex(other.shape):
                out[k] = self._op(other[k], op, swap)
            return out
        o = self._lift(other)
        if o is None:
            outside(f"an operand of type {type(other).__name__}", self.rec)
        a, b = (o, self) if swap else (self, o)
        batch = a._batch(b)
        if batch is not None and batch != self.rec.inside:
            outside("a value of an expectation's batch outside that expectation", self.rec)
        vector = a.vector or b.vector
        if op == "add" or op == "sub":
            sign = 1 if op == "add" else -1
            num, den = a.num * b.den + sign * b.num * a.den, a.den * b.den
        elif op == "mul":
            num, den = a.num * b.num, a.den * b.den
        else:  # div: by a deterministic value only (a quotient of draws is no polynomial)
            if b.batch is not None and _random(b.num):
                outside("a division by a value that depends on the draws (not a polynomial)", self.rec)
            if b.num.is_zero():
                outside("a division by a value that is formally 0", self.rec)
            num, den = a.num * b.den, a.den * b.num
        return Val(a.rec, a.rec.emit([op, a.index, b.index]), num, den, batch, vector)._checked()

    def _checked(self):
        if self.num.total_degree() > 4 * MAX_MOMENT:
            outside("a polynomial of degree above the moment limit", self.rec)
        return self

    def __add__(self, o): return self._op(o, "add")
    def __radd__(self, o): return self._op(o, "add", swap=True)
    def __sub__(self, o): return self._op(o, "sub")
    def __rsub__(self, o): return self._op(o, "sub", swap=True)
    def __mul__(self, o): return self._op(o, "mul")
    def __rmul__(self, o): return self._op(o, "mul", swap=True)
    def __truediv__(self, o): return self._op(o, "div")
    def __rtruediv__(self, o): return self._op(o, "div", swap=True)

    def __neg__(self):
        return Val(self.rec, self.rec.emit(["neg", self.index]), -self.num, self.den, self.batch, self.vector)

    def __pos__(self):
        return self

    def __pow__(self, k):
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or not 0 <= k <= MAX_MOMENT:
            outside(f"a power other than an integer 0..{MAX_MOMENT}", self.rec)
        k = int(k)
        return Val(self.rec, self.rec.emit(["pow", self.index, k]), self.num ** k, self.den ** k,
                   self.batch, self.vector)._checked()

    @property
    def shape(self):
        if self.vector:
            return (self.rec.n,)
        outside("the shape of a scalar", self.rec)

    def __getitem__(self, key):
        outside("an entry of a batch of symbolic length", self.rec)

    def __len__(self):
        outside("len() of a batch of symbolic length", self.rec)

    def __iter__(self):
        outside("iteration over a batch of symbolic length", self.rec)

    def __bool__(self):
        outside("a truth value of a traced value", self.rec)

    def __eq__(self, other):
        outside("a comparison of traced values", self.rec)

    __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __eq__
    __hash__ = object.__hash__

    def __float__(self):
        outside("float() of a traced value", self.rec)

    __int__ = __index__ = __float__


class SymLaw:
    """A Law as the claim's functions receive it: only its moments are known."""

    def __init__(self, rec, name):
        self.rec, self.name = rec, name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        outside(f"the law's {attr} (only expectations of the law are in the fragment)", self.rec)


class BatchLength:
    """A batch vector of the claim that gives the batch size: only its length is read."""

    def __init__(self, rec, name):
        self.rec, self.name = rec, name

    @property
    def shape(self):
        return (self.rec.n,)

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        outside(f"{self.name}.{attr} (an input vector read other than by its length)", self.rec)

    def _refuse(self, *args):
        outside(f"the entries of {self.name} (an input vector read other than by its length)", self.rec)

    __getitem__ = __len__ = __iter__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __pow__ = __neg__ = __bool__ = __float__ = _refuse


# ---------------------------------------------------------------- expectation (set partitions)

def _set_partitions(items: list):
    """Every set partition of items, as lists of blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _set_partitions(rest):
        yield [[first]] + partition
        for i in range(len(partition)):
            yield partition[:i] + [[first] + partition[i]] + partition[i + 1:]


def _moment(k: int, rec):
    if k > MAX_MOMENT:
        outside(f"a moment E[X^{k}] above E[X^{MAX_MOMENT}]", rec)
    return GEN[f"mu{k}"]


def expectation(num, rec):
    """E[num] for num a polynomial in power sums P_k (a batch of n draws) and draws s_i
    (a batch of fixed size), coefficients in n and the moments."""
    n = GEN["m"]
    out = CTX.from_dict({})
    for mono, c in zip(num.monoms(), num.coeffs()):
        if mono[X]:
            outside("an expectation of a batch vector (take xp.sum or xp.mean of it)", rec)
        factors = [k + 1 for k in range(MAX_MOMENT) for _ in range(mono[P0 + k])]
        if len(factors) > MAX_FACTORS:
            outside(f"a product of more than {MAX_FACTORS} batch sums", rec)
        term = CTX.from_dict({mono[:P0] + (0,) * (len(NAMES) - P0): c})
        for i in range(MAX_FIXED_DRAWS):
            if mono[S0 + i]:
                term = term * _moment(mono[S0 + i], rec)
        total = CTX.from_dict({})
        for partition in _set_partitions(factors):
            piece = ONE
            for j in range(len(partition)):
                piece = piece * (n - j)
            for block in partition:
                piece = piece * _moment(sum(block), rec)
            total = total + piece
        out = out + term * total
    return out


# ---------------------------------------------------------------- the namespace

def namespace(rec: Recorder) -> SimpleNamespace:
    def lift(x):
        if isinstance(x, Val):
            return x
        if isinstance(x, BatchLength):
            x._refuse()
        if isinstance(x, np.ndarray):
            outside("an array where a scalar is expected", rec)
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Integral, Fraction)):
            outside(f"a value of type {type(x).__name__}", rec)
        c = Fraction(x)
        return Val(rec, rec.emit(["const", str(c)]), _const(c))

    def total(x, axis=None):
        if axis not in (None, 0):
            outside("a sum over an axis other than the batch's", rec)
        if isinstance(x, np.ndarray):  # a batch of fixed size: its draws added in order
            if x.ndim != 1 or x.shape[0] == 0:
                outside("a sum of an array that is not one batch", rec)
            out = x[0]
            for v in x[1:]:
                out = out + v
            return lift(out)
        x = lift(x)
        if not x.vector:
            outside("a sum of a scalar", rec)
        num = x.num
        out = CTX.from_dict({})
        for mono, c in zip(num.monoms(), num.coeffs()):
            k = mono[X]
            rest = list(mono)
            rest[X] = 0
            if k:
                if k > MAX_MOMENT:
                    outside(f"a power sum above P{MAX_MOMENT}", rec)
                rest[P0 + k - 1] += 1
                out = out + CTX.from_dict({tuple(rest): c})
            else:
                out = out + CTX.from_dict({tuple(rest): c}) * GEN["m"]
        return Val(rec, rec.emit(["sum", x.index]), out, x.den, x.batch)

    def length(x):
        if isinstance(x, np.ndarray):
            return x.shape[0]
        return rec.n

    def mean(x, axis=None):
        return total(x, axis) / length(x)

    def q(p, r=1):
        return lift(p) / lift(r)

    def expect_of(f, law, n, args, second):
        if not isinstance(law, SymLaw):
            outside("an expectation over something that is not a Law of the claim", rec)
        if rec.inside:
            outside("nested expectations", rec)
        rec.batches += 1
        batch = rec.batches
        if isinstance(n, Val) and n.index == rec.n.index:
            sample = Val(rec, rec.emit(["batch", law.name, "n"]), GEN["x"], ONE, batch, vector=True)
            draws = sample
        elif isinstance(n, numbers.Integral) and not isinstance(n, (bool, np.bool_)) and 1 <= n <= MAX_FIXED_DRAWS:
            b = rec.emit(["batch", law.name, int(n)])
            draws = np.empty(int(n), dtype=object)
            for i in range(int(n)):
                draws[i] = Val(rec, rec.emit(["draw", b, i]), GEN[f"s{i}"], ONE, batch)
        else:
            outside("a number of draws that is neither the batch size m nor an integer "
                    f"1..{MAX_FIXED_DRAWS}", rec)
        def e(v):
            return Val(rec, rec.emit(["expect", v.index]), expectation(v.num, rec), v.den)

        rec.inside = batch  # the batch whose values may be combined (False: none)
        try:
            value = lift(f(xp, draws, *args))
            if value.batch not in (None, batch):
                outside("a value of another expectation's batch", rec)
            if value.vector:
                outside("an expectation of a batch vector (take xp.sum or xp.mean of it)", rec)
            first = e(value)
            square = e(value * value) if second else None
        finally:
            rec.inside = False
        return square - first * first if second else first

    def expect(f, law, n, *args):
        return expect_of(f, law, n, args, False)

    def var(f, law, n, *args):
        return expect_of(f, law, n, args, True)

    def refused(name):
        def function(*args, **kwargs):
            outside(f"xp.{name} (outside the expectations fragment)", rec)
        return function

    xp = _Namespace(sum=total, mean=mean, q=q, expect=expect, var=var, kind="moments-n")
    xp._refused = refused
    return xp


class _Namespace(SimpleNamespace):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self.__dict__["_refused"](name)


# ---------------------------------------------------------------- tracing a claim

def law_names(claim) -> list[str]:
    names = [v.name for v in claim.variables]
    return [n[: -len("_support")] for n in names
            if n.endswith("_support") and n[: -len("_support")] + "_weights" in names]


def uses_laws(claim) -> bool:
    return bool(law_names(claim)) and hasattr(claim.residual, "__wrapped__")


def program_for(claim) -> dict:
    """The claim's residual as a moments-n program; OutsideFragment with the reason for a
    claim outside this fragment.  Deterministic: the same claim gives the same JSON."""
    laws = law_names(claim)
    if not uses_laws(claim):
        outside("no Law variable")
    if "m" not in claim.sizes:
        outside("no batch size named m")
    if claim.hypotheses or claim.equalities or claim.exists:
        outside("hypotheses, equalities or existential variables with expectations")
    if claim.kind != "identity":
        outside("an inequality over expectations (only identities are proved for every n)")
    if len(laws) > 1:  # the moments μ_k are one law's: E[X] − E[Y] would read as 0
        outside("more than one Law (the moments μ_k are those of one law)")
    rec = Recorder()
    rec.inside = False
    values, lengths = {}, []
    law_vars = {f"{n}{s}" for n in laws for s in ("_support", "_weights")}
    with tracing(rec):
        rec.n = Val(rec, rec.emit(["n"]), GEN["m"])
        inputs = []
        for v in claim.variables:
            if v.name in law_vars:
                continue
            if tuple(v.shape) == () and v.domain in ("real", "positive", "nonzero"):
                if len(inputs) == MAX_INPUTS:
                    outside(f"more than {MAX_INPUTS} scalar inputs beside a law")
                values[v.name] = Val(rec, rec.emit(["input", v.name]), GEN[f"c{len(inputs)}"])
                inputs.append([v.name, v.domain])
            elif tuple(v.shape) == ("m",):
                values[v.name] = BatchLength(rec, v.name)
                lengths.append(v.name)
            else:
                outside(f"an input {v.name} of shape {tuple(v.shape)} beside a law")
        for name in laws:
            values[name] = SymLaw(rec, name)
        try:
            residual = claim.residual.__wrapped__(namespace(rec), **values)
            residual = residual if isinstance(residual, Val) else namespace(rec).q(residual)
        except (KeyboardInterrupt, MemoryError):
            raise
        except OutsideFragment as err:
            raise OutsideFragment(rec.refusals[0] if rec.refusals else err.reason) from None
        except Exception as err:
            reason = rec.refusals[0] if rec.refusals else (
                f"uses an operation the expectations tracer does not model ({type(err).__name__}: {err})")
            raise OutsideFragment(reason) from None
        if rec.refusals:
            raise OutsideFragment(rec.refusals[0])
    if residual.batch is not None:
        outside("a residual that is a value of an expectation's batch (outside that expectation)")
    steps, index = _prune(rec.steps, residual.index)
    program = {"laws": laws, "lengths": lengths, "inputs": inputs, "steps": steps,
               "residual": index, "kind": claim.kind}
    return program, residual


def _prune(steps: list, residual: int) -> tuple[list, int]:
    """The steps the residual reads, renumbered in their order: the checker rejects a step
    nothing reads (its definedness would be a hidden hypothesis; checker/live_steps.py), and
    ["n"] is emitted whether or not the claim reads it."""
    count = {"add": 2, "sub": 2, "mul": 2, "div": 2, "neg": 1, "pow": 1, "sum": 1, "expect": 1,
             "draw": 1}
    live = [False] * len(steps)
    live[residual] = True
    for k in range(len(steps) - 1, -1, -1):
        if live[k]:
            for j in steps[k][1:1 + count.get(steps[k][0], 0)]:
                live[j] = True
    new, out = {}, []
    for k, step in enumerate(steps):
        if live[k]:
            new[k] = len(out)
            n = count.get(step[0], 0)
            out.append([step[0], *(new[j] for j in step[1:1 + n]), *step[1 + n:]])
    return out, new[residual]


def text_of(value: Val, inputs: list = (), claim=None) -> str:
    """The normal form in m, the moments μ_k and the scalar inputs, as text (for messages);
    an input in the symbol the claim declares for it, else a Greek name as its letter."""
    from ..claims.symbols import greek_name
    from .show import names_of

    num, den = value.num, value.den
    g = num.gcd(den)
    if not g.is_zero() and g.total_degree() > 0:
        num, den = num / g, den / g
    lead = den.leading_coefficient() if hasattr(den, "leading_coefficient") else 1
    declared = names_of(claim) if claim is not None else {}
    names = [declared[name][0] if name in declared else greek_name(name) or name for name, _ in inputs]

    def shown(p) -> str:
        text = str(p).replace("mu", "μ")
        return re.sub(r"\bc(\d+)\b", lambda hit: names[int(hit.group(1))], text)

    num, den = shown(num / lead), shown(den / lead)
    return num if den == "1" else f"({num}) / ({den})"
