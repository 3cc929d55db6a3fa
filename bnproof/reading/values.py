"""Exact scalar values for the reference reading: entries of genuine numpy object arrays.

A ``Value`` wraps a symengine expression.  Outside any gradient it is a
number (a rational, or an expression in radicals and transcendental
constants); inside ``xp.grad`` it also carries the symbols that gradient (and
any enclosing one) seeded its argument with, and it is read "at the point":
every active symbol at 0.

Semantics (the claim's own code runs unchanged, with numpy's):
  * + − × ÷ with ints, Fractions and values are exact; a Python float or
    complex operand, and float()/int()/complex() of a value, are refused
    (errors.Refused): the claim mixes an exact value with a float;
  * ``**`` takes integers only; a negative power is a division;
  * a division by a value proved 0 at the point, or the root of one proved
    < 0, does not raise: it makes a poisoned value, undefined when read (a
    sign, a truth value, the residual), as numpy's inf/nan would be.  So a
    dead 1/0 that nothing reads leaves the reading defined, as the exact
    engine evaluates only the cone of what it decides; a value that cannot
    be decided within the limits is poisoned the same way, as inconclusive;
  * comparisons and bool() are decided rigorously at the point: a claim that
    branches in Python takes the branch numpy would take.  A tie decided on
    values that carry a gradient's symbols is a kink of that gradient: the
    derivatives along those symbols are undefined (``Session.branch_kinks``);
  * abs, max, min (and relu) take the branch of the sign at the point; at a
    tie the value is exact but the operands' symbols become kinks (``kinks``):
    no derivative along them, as in the dual engine (a tie is a kink even
    where both slopes agree);
  * √0 with a radicand that carries symbols, and arccos at ±1 likewise;
  * ``guard(v, g)``: v where g ≥ 0, else an absent value that min ignores and
    every other operation turns undefined;
  * ``isinstance`` answers as for numpy's float64 (``v.__class__`` is
    np.float64: a float, a numbers.Real, an np.floating, never an int), so a
    helper that asks takes numpy's branch; ``type(v)`` cannot be made to lie,
    and the float readings (floats.py) are the check on it;
  * what else the claim's own code asks of a value in Python (a comparison or
    truth value, a hash, str/repr/format) is answered as numpy's numbers would
    answer it, and noted (``Session.observe``): no traced program records such
    a question, so agreement at a few instances says nothing of the others;
  * what only floats answer is refused (errors.Refused, recorded whatever the
    claim catches): float(), np.float64(v), an attribute np.float64 has and a
    value has not (``v.dtype``, ``v.is_integer()``, ...), and numpy's ufuncs with
    no exact meaning (np.isnan(v), np.sin(v), ...; arrays.py: the same for the
    arrays a claim holds, and their ``dtype``).

Every value carries its size as a tree (nodes, a rational counted by its
64-bit words: symengine's diff, subs and expand walk the tree, not the shared
graph) and its depth, as bounds made exact by measuring when they grow; a
value beyond MAX_SIZE, MAX_WORDS or MAX_DEPTH is poisoned as inconclusive, so
that symengine's recursive algorithms never see a deeper expression (a depth
of 10⁴ crashed them) nor walk an exponential tree (x ↦ x² + x forty times).

With ``Session.track`` a value also carries a float approximation ``f`` and a
rounding magnitude ``k`` (a first-order bound on float64's error in units of
the unit roundoff, accumulated operation by operation): floats.py compares
JAX's value with the exact one within a multiple of it.
"""

from __future__ import annotations

import fractions
import math
import numbers
import sys
from fractions import Fraction

import numpy as np
import symengine as se

from . import radicals, signs
from .arrays import CLAIM, SCALARS, array_ufunc, asker
from .errors import Inconclusive, Refused, Undefined
from .session import current

EMPTY = frozenset()
CHECK_SIZE = 50_000  # size bound beyond which a value is measured
CHECK_DEPTH = 200  # depth bound beyond which a value is measured
MAX_SIZE = 500_000  # nodes of a value's expression as a tree (a rational: its 64-bit words)
MAX_WORDS = 20_000  # 64-bit words of a rational value (1.28 million bits)
MAX_DEPTH = 1_500  # symengine recurses; 10^4 crashed it (printing) on this machine's 8 MiB stack
MAX_POWER = 4096  # |k| for x**k
MIN_NORMAL = 2.0**-1022  # float64's smallest normal number: below it, rounding is absolute
UNDERFLOW = "float64 underflows here (a value below 2^-1022)"
FRAGILE = 2.0**-30  # floats: a decision this close to a tie, relative to its magnitude k
UNDEFINED, INCONCLUSIVE, ABSENT = "undefined", "inconclusive", "absent"
FLOAT_MIX = "the claim mixes an exact value with a float"
_FRACTIONS = fractions.__file__
TEXT = "the text of a value (str, repr, format, print)"
HASHED = "a value hashed (a set member or dict key)"
COMPARED = "a comparison or truth value of a value (a Python branch on it)"
# what numpy's float64 (or a Python float) has and a value has not: a claim that reads it
# would take a branch of its own (getattr(v, "dtype", None)), so it is refused
NUMBER_ATTRIBUTES = frozenset(name for kind in (np.float64, float) for name in dir(kind)
                              if not name.startswith("_"))


class Value:
    __slots__ = ("e", "tags", "kinks", "bad", "w", "d", "m", "md", "f", "k")
    # a scalar as numpy's float64 presents itself: introspection reads as it would there
    shape = ()
    ndim = 0
    size = 1

    def __init__(self, e, tags=EMPTY, kinks=EMPTY, bad=None, w=1, d=1, f=0.0, k=0.0):
        self.e, self.tags, self.kinks, self.bad = e, tags, kinks, bad
        self.w, self.d, self.m, self.md = w, d, 0, 0
        self.f, self.k = f, k

    # ------------------------------------------------------------ the public reading

    @property
    def is_defined(self) -> bool:
        return self.bad is None

    @property
    def why(self) -> str | None:
        """Why the value is not defined (None when it is)."""
        return None if self.bad is None else self.bad[1]

    @property
    def expr(self):
        """The symengine expression (None when undefined)."""
        return self.e

    def sign(self) -> int:
        """The sign at the point, proved; raises Undefined or Inconclusive."""
        return read_sign(self)

    def fraction(self) -> Fraction | None:
        """The value as a Fraction when it is rational, else None."""
        if self.bad is not None or not signs.is_rational(self.e):
            return None
        if type(self.e).__name__ in ("Rational", "Half"):
            num, den = self.e.get_num_den()
            return Fraction(int(num), int(den))
        return Fraction(int(self.e))

    # isinstance asks this when the class is not Value itself (so the reading's own
    # isinstance(v, Value) is unchanged): a helper's isinstance(v, float), (v, np.floating)
    # or (v, numbers.Real) then takes the branch numpy's float64 takes, not one of its own
    # that no other reading would take.  Fraction's operators are the exception: asked by
    # them a value is no float, so Fraction(1, 3) * v defers to v and stays exact (as it
    # does in the tracers)
    @property
    def __class__(self):
        if sys._getframe(1).f_code.co_filename == _FRACTIONS:
            return Value
        return np.float64

    def __repr__(self):
        current().observe(TEXT)
        if self.bad is not None:
            return f"<{self.bad[0]}: {self.bad[1]}>"
        return f"Value({text(self.e)})"

    def __str__(self):
        current().observe(TEXT)
        return repr(self) if self.bad is not None else text(self.e)

    def __format__(self, spec):
        return format(str(self), spec)

    # numpy's ufuncs: the exact ones run on numpy's object loop, any other is refused
    # (numpy would raise a TypeError the claim could catch: arrays.py)
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return array_ufunc(ufunc, method, inputs, kwargs)

    def __getattr__(self, name):  # only for attributes a value does not have
        if name.startswith("__") or name not in NUMBER_ATTRIBUTES or asker(1) != CLAIM:
            raise AttributeError(f"'Value' object has no attribute {name!r}")
        current().stop(Refused(f"the attribute .{name} of an exact value (numpy's float64 has it, a "
                               "value has not: a claim that reads it would take a branch of its own)"))

    # ------------------------------------------------------------ arithmetic

    def __add__(self, o):
        return _binary(self, o, _ADD)

    def __radd__(self, o):
        return _binary(self, o, _ADD, swap=True)

    def __sub__(self, o):
        return _binary(self, o, _SUB)

    def __rsub__(self, o):
        return _binary(self, o, _SUB, swap=True)

    def __mul__(self, o):
        return _binary(self, o, _MUL)

    def __rmul__(self, o):
        return _binary(self, o, _MUL, swap=True)

    def __truediv__(self, o):
        return _binary(self, o, _DIV)

    def __rtruediv__(self, o):
        return _binary(self, o, _DIV, swap=True)

    def __neg__(self):
        return _unary(self, "neg")

    def __pos__(self):
        return self

    def __pow__(self, k, modulo=None):
        if modulo is not None:
            return NotImplemented
        if type(k) is not Value and isinstance(k, (float, complex, np.floating, np.complexfloating)):
            current().stop(Refused(f"{FLOAT_MIX} (a float exponent)"))
        if isinstance(k, Fraction) and k.denominator == 1:
            k = k.numerator
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
            if isinstance(k, np.ndarray):
                return NotImplemented
            current().stop(Refused("`**` takes integer exponents only (use xp.sqrt for roots)"))
        return power(self, int(k))

    def __rpow__(self, base):
        if isinstance(base, np.ndarray):
            return NotImplemented
        current().stop(Refused("`**` takes integer exponents only, not a value of the claim"))

    def __abs__(self):
        return _unary(self, "abs")

    # numpy's ufuncs on object arrays call these methods of their entries
    def sqrt(self):
        return _unary(self, "sqrt")

    def exp(self):
        return _unary(self, "exp")

    def log(self):
        return _unary(self, "log")

    def arccos(self):
        return _unary(self, "acos")

    def tanh(self):
        return _unary(self, "tanh")

    def conjugate(self):
        return self

    @property
    def real(self):
        return self

    @property
    def T(self):
        return self

    def item(self):
        return self

    # ------------------------------------------------------------ comparisons, truth

    def __lt__(self, o):
        return _compare(self, o, lambda s: s < 0)

    def __le__(self, o):
        return _compare(self, o, lambda s: s <= 0)

    def __gt__(self, o):
        return _compare(self, o, lambda s: s > 0)

    def __ge__(self, o):
        return _compare(self, o, lambda s: s >= 0)

    def __eq__(self, o):
        return _compare(self, o, lambda s: s == 0)

    def __ne__(self, o):
        return _compare(self, o, lambda s: s != 0)

    def __bool__(self):
        return _compare(self, 0, lambda s: s != 0)

    def __hash__(self):
        # equal values must hash alike: a rational hashes as its Fraction; other values have
        # no canonical form to hash, so they are unhashable (as numpy arrays are)
        current().observe(HASHED)
        q = self.fraction() if not self.tags else None
        if q is None:
            raise TypeError("an irrational value of the reference reading is unhashable")
        return hash(q)

    # ------------------------------------------------------------ conversions: refused

    def __float__(self):
        current().stop(Refused(f"{FLOAT_MIX} (float() of a value)"))

    def __int__(self):
        current().stop(Refused("int() of an exact value (the reference keeps values exact)"))

    def __complex__(self):
        current().stop(Refused(f"{FLOAT_MIX} (complex() of a value)"))

    def __index__(self):
        current().stop(Refused("an exact value used as an index or size"))

    # values are immutable: a copy is the value itself (a deepcopy of an input stays the input)
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        raise TypeError("values of the reference reading are not pickled")


SCALARS.add(Value)


def text(e, limit: int = 200) -> str:
    """e for a message: expanded when that is cheap, cut at `limit` characters, and never
    printed whole when large (printing walks the tree)."""
    if e is None:
        return "undefined"
    if not signs.is_rational(e):
        size = signs.measure(e)[0]
        if size > 20 * limit:
            return f"<an expression of {size} nodes>"
        if size < 2000:
            e = signs.canonical(radicals.normalize(e).expand())
    s = str(e)
    return s if len(s) <= limit else s[:limit - 1] + "…"


# ---------------------------------------------------------------- construction


def constant(q) -> Value:
    """An exact int or Fraction (or an instances.Algebraic entry) as a value (poisoned beyond
    MAX_WORDS: a hostile instance's million-digit entry is refused before any arithmetic on it)."""
    from .instances import Algebraic

    if isinstance(q, Algebraic):
        size, depth = signs.measure(q.e)
        if size > MAX_SIZE or depth > MAX_DEPTH:
            return poison(INCONCLUSIVE, f"an algebraic entry of {size} nodes")
        # floats read the entry rounded once (float(q): within an ulp, not half of one as a
        # rational's), so its rounding magnitude is 2|x|
        f = float(q)
        return Value(q.e, w=size, d=depth, f=f, k=2 * abs(f))
    q = Fraction(q)
    words = 1 + (abs(q.numerator).bit_length() + q.denominator.bit_length()) // 64
    if words > MAX_WORDS:
        return poison(INCONCLUSIVE, f"a number of more than {64 * MAX_WORDS} bits")
    e = se.Integer(q.numerator) if q.denominator == 1 else se.Rational(q.numerator, q.denominator)
    f = _float(q)
    if q and abs(f) < MIN_NORMAL:
        _underflow(current())
    return Value(e, w=words, f=f, k=abs(f))


def symbolic_constant(e, f: float) -> Value:
    return Value(e, f=f, k=abs(f))


def poison(kind: str, reason: str) -> Value:
    return Value(None, bad=(kind, reason))


def lift(x):
    """x as a Value, or None for what is not a number (the caller returns NotImplemented).
    Floats and complex numbers are refused, whatever the claim does with the refusal."""
    if isinstance(x, Value):
        return x
    if isinstance(x, (bool, np.bool_)):
        return constant(int(x))
    if isinstance(x, (int, np.integer)):
        return constant(int(x))
    if isinstance(x, Fraction):
        return constant(x)
    if isinstance(x, (float, complex, np.floating, np.complexfloating)):
        current().stop(Refused(f"{FLOAT_MIX} ({type(x).__name__} {x!r})"))
    if isinstance(x, np.ndarray) and x.shape == () and x.dtype == object:
        return lift(x[()])
    return None


def _float(q) -> float:
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


# ---------------------------------------------------------------- bookkeeping


def _merge(a, b):
    if not a:
        return b
    if not b or a is b:
        return a
    return a | b


def _bad_of(*values) -> Value | None:
    """The poisoned operand an operation passes on: an absent value read by anything but
    min is undefined."""
    for v in values:
        if v.bad is not None:
            if v.bad[0] == ABSENT:
                return poison(UNDEFINED, "an operation on an absent value (a guard whose condition fails)")
            return v
    return None


def _checked(v: Value, last_w: int, last_d: int) -> Value:
    """v within the caps, else poisoned.  Its bounds are made exact by measuring when they
    grow large: the size when it has doubled since the last measurement of an operand,
    the depth when it has grown by CHECK_DEPTH (a long sum's bound grows by one a term,
    its flattened expression does not), so measuring stays a small part of the work."""
    if (v.w > CHECK_SIZE and v.w > 2 * last_w) or (v.d > CHECK_DEPTH and v.d > last_d + CHECK_DEPTH) \
            or v.w > MAX_SIZE or v.d > MAX_DEPTH:
        v.w, v.d = signs.measure(v.e)  # iterative: safe at any depth
        v.m, v.md = v.w, v.d
        if v.w > MAX_SIZE:
            return poison(INCONCLUSIVE, f"an expression over the size cap ({v.w} > {MAX_SIZE} nodes)")
        if v.d > MAX_DEPTH:
            return poison(INCONCLUSIVE, f"an expression deeper than the cap of {MAX_DEPTH}")
    else:
        v.m, v.md = last_w, last_d
    return v


def _make(s, e, tags, kinks, w, d, f=0.0, k=0.0, last_w=0, last_d=0) -> Value:
    """A new value, charged to session s as one operation; a rational gets its exact size
    (its words), and its arithmetic is charged as work."""
    s.ops += 1
    if s.ops > s.max_ops:
        s.charge(0)  # raises, with the reason
    if w > 64 and type(e) in signs.RATIONAL_TYPES:  # below, a bound that costs nothing to keep
        w, d = signs.words(e), 1
        if w > MAX_WORDS:
            return poison(INCONCLUSIVE, f"a rational of more than {64 * MAX_WORDS} bits")
        s.spend(w)
    if k > s.scale:  # with track: the largest magnitude of the run (floats.py's bound)
        s.scale = k
    if f and abs(f) < MIN_NORMAL:  # subnormal, wherever it was made (a derivative too)
        _underflow(s)
    return _checked(Value(e, tags, kinks, None, w, d, f, k), last_w, last_d)


# ---------------------------------------------------------------- arithmetic


_ADD, _SUB, _MUL, _DIV = range(4)


def _binary(a: Value, o, op: int, swap: bool = False):
    b = lift(o)
    if b is None:
        return NotImplemented
    if swap:
        a, b = b, a
    return arith(op, a, b)


def arith(op: int, a: Value, b: Value) -> Value:
    s = current()
    bad = _bad_of(a, b)
    if bad is not None:
        s.charge(1)
        return bad
    tags = a.tags | b.tags if a.tags or b.tags else EMPTY
    if tags:
        s.check_tags(tags)
    if op == _DIV:
        try:
            if s.sign(b.e, b.w) == 0:
                s.charge(1)
                return poison(UNDEFINED, "a division by 0")
        except Inconclusive as err:
            return poison(INCONCLUSIVE, f"whether a divisor is 0: {err.reason}")
    x, y = a.e, b.e
    e = x + y if op == _ADD else x - y if op == _SUB else x * y if op == _MUL else x / y
    f = k = 0.0
    if s.track:
        f, k = _track_binary(op, a, b)
        # a product or quotient of nonzero floats that is 0 or subnormal lost its digits
        if op in (_MUL, _DIV) and abs(f) < MIN_NORMAL and a.f != 0 and (b.f != 0 or op == _DIV):
            _underflow(s)
    # x/y is x·y⁻¹, and y⁻¹ of a product is a product of powers
    size = a.w + b.w + 1 if op != _DIV else a.w + 2 * b.w + 2
    return _make(s, e, tags, _merge(a.kinks, b.kinks), size, (a.d if a.d > b.d else b.d) + 2, f, k,
                 a.m if a.m > b.m else b.m, a.md if a.md > b.md else b.md)


def _track_binary(op, a, b):
    fa, fb, ka, kb = a.f, b.f, a.k, b.k
    try:
        if op == _ADD:
            f = fa + fb
            return f, ka + kb + abs(f)
        if op == _SUB:
            f = fa - fb
            return f, ka + kb + abs(f)
        if op == _MUL:
            f = fa * fb
            return f, ka * abs(fb) + kb * abs(fa) + abs(f)
        f = fa / fb
        return f, ka / abs(fb) + kb * abs(fa) / (fb * fb) + abs(f)
    except (ZeroDivisionError, OverflowError):
        return math.nan, math.inf


def power(a: Value, k: int) -> Value:
    s = current()
    if a.bad is not None:
        s.charge(1)
        return _bad_of(a)
    rational = signs.is_rational(a.e)
    if abs(k) > MAX_POWER or rational and signs.words(a.e) * abs(k) > MAX_WORDS:
        return poison(INCONCLUSIVE, f"a power beyond ±{MAX_POWER}, or of more than {64 * MAX_WORDS} bits")
    s.check_tags(a.tags)
    if k < 0:
        try:
            if s.sign(a.e, a.w) == 0:
                return poison(UNDEFINED, "a negative power of 0 (a division by 0)")
        except Inconclusive as err:
            return poison(INCONCLUSIVE, f"whether a base is 0: {err.reason}")
    f = kk = 0.0
    if s.track:
        try:
            f = a.f**k
            kk = abs(k) * abs(a.f) ** (k - 1) * a.k + abs(f) if k else 0.0
        except (ZeroDivisionError, OverflowError):
            f, kk = math.nan, math.inf
        if a.f != 0 and abs(f) < MIN_NORMAL:
            _underflow(s)
    # a rational's words grow k-fold; otherwise one Pow node, or a power of each factor
    size = signs.words(a.e) * max(abs(k), 1) + 1 if rational else 2 * a.w + 2
    return _make(s, a.e**k, a.tags, a.kinks, size, a.d + 2, f, kk, a.m, a.md)


def _unary(a: Value, op: str) -> Value:
    s = current()
    if a.bad is not None:
        s.charge(1)
        return _bad_of(a)
    s.check_tags(a.tags)
    kinks = a.kinks
    e = a.e
    try:
        if op == "neg":
            e = -e
        elif op == "abs":
            sg = s.sign(e, a.w)
            s.piecewise += 1
            if sg == 0:
                kinks = _merge(kinks, _symbols(e))
            e = -e if sg < 0 else e
            if s.track and a.tags:
                _fragile(s, a.f, a.k, "|x| near its kink")
        elif op == "sqrt":
            sg = s.sign(e, a.w)
            if sg < 0:
                return poison(UNDEFINED, "the square root of a negative number")
            if sg == 0:
                kinks = _merge(kinks, _symbols(e))  # √ has no derivative at 0
            e = radicals.root(Value(e).fraction()) if signs.is_rational(e) else se.sqrt(e)
        elif op == "exp":
            e = se.exp(e)
        elif op == "log":
            if s.sign(e, a.w) <= 0:
                return poison(UNDEFINED, "the logarithm of a number ≤ 0")
            e = se.log(e)
        elif op == "acos":
            above, below = s.sign(e - 1, a.w), s.sign(e + 1, a.w)
            if above > 0 or below < 0:
                return poison(UNDEFINED, "arccos of a number outside [−1, 1]")
            if above == 0 or below == 0:
                kinks = _merge(kinks, _symbols(e))  # no derivative at ±1
            e = se.acos(e)
        elif op == "tanh":
            e = se.tanh(e)
        else:  # pragma: no cover - the callers name the operations
            raise ValueError(op)
    except Inconclusive as err:
        return poison(INCONCLUSIVE, err.reason)
    f = k = 0.0
    if s.track:
        f, k = _track_unary(op, a)
        if f != 0 and abs(f) < MIN_NORMAL or op == "exp" and f == 0:
            _underflow(s)
    # −x of a sum negates each term; the other functions add a node or two
    return _make(s, e, a.tags, kinks, 2 * a.w + 1 if op in ("neg", "abs") else a.w + 2, a.d + 2, f, k, a.m, a.md)


def _track_unary(op, a):
    x, k = a.f, a.k
    try:
        if op == "neg":
            return -x, k
        if op == "abs":
            return abs(x), k
        if op == "sqrt":
            f = math.sqrt(x)
            return f, (k / (2 * f) if k else 0.0) + f
        if op == "exp":
            f = math.exp(x)
            return f, f * k + f
        if op == "log":
            f = math.log(x)
            return f, k / abs(x) + abs(f)
        if op == "acos":
            f = math.acos(x)
            return f, (k / math.sqrt(1 - x * x) if k else 0.0) + f
        f = math.tanh(x)
        return f, (1 - f * f) * k + abs(f)
    except (ValueError, ZeroDivisionError, OverflowError):
        return math.nan, math.inf


def _symbols(e) -> frozenset:
    return frozenset(e.free_symbols)


def _underflow(s) -> None:
    """Below float64's normal range the rounding error is absolute, not relative: the
    bound of floats.py (relative to the magnitudes) does not hold (c = −10⁻⁴⁰⁰ is 0.0 in
    floats, and c³ is not −0.0 + a relative error), so floats can neither confirm nor
    contradict the exact value.  Not silent: a claim may make such a value on purpose to
    switch the float check off (tiny/tiny where its code branches on numpy's types), so a
    verdict the float check cannot reach is withheld (undecided), never exit 7."""
    if s.track and UNDERFLOW not in s.fragile:
        s.fragile.append(UNDERFLOW)


def _fragile(s, f: float, k: float, what: str) -> None:
    if not abs(f) > FRAGILE * k:
        s.fragile.append(what)


# ---------------------------------------------------------------- branches


def branch(a: Value, b: Value, take_larger: bool) -> Value:
    """max(a, b) (min when not take_larger): the branch of the sign of a − b at the point.
    At a tie the value is exact, and both operands' symbols become kinks (no derivative
    along them).  min ignores an absent operand."""
    s = current()
    if not take_larger:
        a_absent = a.bad is not None and a.bad[0] == ABSENT
        b_absent = b.bad is not None and b.bad[0] == ABSENT
        if a_absent and (b_absent or b.bad is None):
            return b
        if b_absent and a.bad is None:
            return a
    bad = _bad_of(a, b)
    if bad is not None:
        s.charge(1)
        return bad
    s.check_tags(_merge(a.tags, b.tags))
    try:
        sg = s.sign(a.e - b.e, a.w + b.w)
    except Inconclusive as err:
        return poison(INCONCLUSIVE, f"which of two values is larger: {err.reason}")
    s.charge(1)
    s.piecewise += 1
    if s.track and (a.tags or b.tags):
        _fragile(s, a.f - b.f, a.k + b.k, "a max/min near a tie inside a gradient")
    chosen = a if (sg >= 0) == take_larger else b
    kinks = chosen.kinks if sg != 0 else \
        _merge(_merge(a.kinks, b.kinks), _merge(_symbols(a.e), _symbols(b.e)))
    # a new value, as numpy's maximum makes one: `xp.maximum(a, b) is a` must not tell a
    # claim which operand is larger when no other reading would
    v = Value(chosen.e, chosen.tags, kinks, None, chosen.w, chosen.d, chosen.f, chosen.k)
    v.m, v.md = chosen.m, chosen.md
    return v


def guard(v: Value, g: Value) -> Value:
    """v where g ≥ 0 at the point, else absent."""
    s = current()
    bad = _bad_of(g)
    if bad is not None:
        return bad
    s.check_tags(g.tags)
    try:
        sg = s.sign(g.e, g.w)
    except Inconclusive as err:
        return poison(INCONCLUSIVE, f"a guard's condition: {err.reason}")
    s.piecewise += 1
    if sg == 0 and _symbols(g.e):
        s.branch_kinks.update(_symbols(g.e))
    if s.track:
        # the float backend keeps a candidate whose condition is ≥ −1e-9 (FLOAT_GUARD_SLACK)
        if not abs(g.f) > 1e-9 + FRAGILE * g.k:
            s.fragile.append("a guard's condition near 0")
    if sg < 0:
        return poison(ABSENT, "no candidate of a min over guarded values qualifies (the set is empty)")
    return v


def _compare(a: Value, o, test):
    b = lift(o)
    if b is None:
        return NotImplemented
    s = current()
    s.observe(COMPARED)
    for v in (a, b):
        if v.bad is not None:
            kind, why = v.bad
            err = Inconclusive(f"a branch read an undecided value: {why}") if kind == INCONCLUSIVE else \
                Undefined(f"a branch read an undefined value: {why}")
            s.stop(err)
    s.check_tags(_merge(a.tags, b.tags))
    try:
        sg = s.sign(a.e - b.e, a.w + b.w)
    except Inconclusive as err:
        s.stop(Inconclusive(f"a comparison: {err.reason}"))
    if sg == 0:
        symbols = _merge(_symbols(a.e), _symbols(b.e))
        s.branch_kinks.update(symbols)
    if s.track:
        _fragile(s, a.f - b.f, a.k + b.k, "a comparison near a tie")
    s.charge(1)
    return test(sg)


def read_sign(v: Value) -> int:
    """The sign of a value that is read (a hypothesis, the residual): a poisoned value
    raises what it stands for."""
    if v.bad is not None:
        kind, why = v.bad
        raise Undefined(why) if kind in (UNDEFINED, ABSENT) else Inconclusive(why)
    s = current()
    s.check_tags(v.tags)
    return s.sign(v.e, v.w)
