"""Expectations and variances over i.i.d. batches, by moment algebra.

``xp.expect(f, law, n, *args)`` is E[f(xp, X, *args)] where X is a batch of n
independent draws from a discrete ``Law`` (claims/law.py); ``xp.var`` is
E[f²] − E[f]².  Enumerating the kⁿ batches would make a program exponential in
n (a 3-point law at n = 6 is 729 copies of f: it once blew up an XLA compile),
so f is instead run once on polynomials in the n·d sample coordinates,
expanded, and each monomial replaced by the product over samples of the law's
moments E[Π_j X_j^{α_j}] = Σ_k p_k Π_j s_kj^{α_j} (the draws are independent
and identically distributed).  Monomials whose per-sample exponent patterns
form the same multiset have the same expectation, so their coefficients are
summed first: the program grows with the number of such multisets, not with
the batch.

The code is written once for every backend: a polynomial's coefficients are
exact rationals (flint's fmpq, the exact engine's scalar) while they are known
constants (so cancellations happen here, exactly, and the program stays small),
otherwise the backend's own scalars (trace nodes, SymPy numbers, JAX tracers,
numpy floats), combined only with the backend's arithmetic.  The polynomial
itself stays an insertion-ordered dict, not flint's fmpq_mpoly: the order in
which monomials first appear is the order of the expectation's program steps,
so it is in every certificate, and flint keeps its terms in a monomial order
instead.  The moments are computed from the law's support and probabilities
with the same arithmetic, so in the trace they are ordinary program steps that
the exact engine decides and the checker re-executes.

Only polynomials in the samples have an expectation computed this way: a
square root, absolute value, max/min or division whose argument depends on
the samples raises NotPolynomial (bad input, not an internal error).
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from fractions import Fraction

import numpy as np
from flint import fmpq

from ..errors import BadInput
from ..exact.monomials import mono_mul  # sparse monomials ((var, exponent), ...), sorted
from ..program.trace import MAX_POWER, refuse
from .object_xp import object_namespace

MAX_PRODUCTS = 2_000_000  # monomial products per expectation: a hostile batch stops here
MAX_SAMPLES = 10_000
MAX_COORDINATES = 100_000  # n × the entries of one draw


class NotPolynomial(BadInput, ValueError):
    """f used a non-polynomial operation on a value that depends on the samples."""


class ExpansionTooLarge(BadInput, ValueError):
    """The polynomial expansion would exceed MAX_PRODUCTS monomial products."""


def _is_exact(c) -> bool:
    return type(c) is fmpq


def _exact(x):
    """x as an fmpq if it is a plain exact number, else None."""
    if isinstance(x, (bool, np.bool_)):
        raise refuse(TypeError("a truth value is not a number"))
    if type(x) is fmpq:
        return x
    if isinstance(x, Fraction):
        return fmpq(x.numerator, x.denominator)
    if isinstance(x, (int, np.integer)):
        return fmpq(int(x))
    return None


class Ring:
    """Coefficient arithmetic: fmpqs among themselves, the backend's own arithmetic
    as soon as a backend scalar is involved (an fmpq is lifted by `lift`)."""

    def __init__(self, lift):
        self.lift = lift
        self.products = 0

    def coefficient(self, x):
        exact = _exact(x)
        return exact if exact is not None else x

    def backend(self, c):
        return self.lift(c) if _is_exact(c) else c

    def add(self, a, b):
        if _is_exact(a) and _is_exact(b):
            return a + b
        if _is_exact(a) and a == 0:
            return b
        if _is_exact(b) and b == 0:
            return a
        return self.backend(a) + self.backend(b)

    def mul(self, a, b):
        if _is_exact(a) and _is_exact(b):
            return a * b
        if _is_exact(b):
            a, b = b, a
        if _is_exact(a):
            if a == 1:
                return b
            if a == -1:
                return -b
        return self.backend(a) * self.backend(b)

    def neg(self, a):
        return -a

    def div(self, a, b):
        if _is_exact(a) and _is_exact(b) and b != 0:
            return a / b
        if _is_exact(b) and b == 1:
            return a
        # a division by an exact 0 is left to the backend: the trace records it, and the
        # exact engine finds it undefined (the instance is outside the claim)
        return self.backend(a) / self.backend(b)

    def charge(self, count: int) -> None:
        self.products += count
        if self.products > MAX_PRODUCTS:
            raise refuse(ExpansionTooLarge(f"xp.expect: the polynomial expansion of f exceeds "
                                           f"{MAX_PRODUCTS} monomial products (fewer samples or a "
                                           "lower degree)"))


class Poly:
    """A polynomial in the sample coordinates: {monomial: coefficient}, a monomial being a
    sorted tuple of (coordinate, exponent) pairs, () for the constant term."""

    __slots__ = ("terms", "ring")
    __array_ufunc__ = None  # numpy defers to our reflected operators (scalars of every backend do)

    def __init__(self, terms: dict, ring: Ring):
        self.terms, self.ring = terms, ring

    @classmethod
    def constant(cls, x, ring: Ring) -> "Poly":
        c = ring.coefficient(x)
        return cls({(): c} if not (_is_exact(c) and c == 0) else {}, ring)

    @classmethod
    def coordinate(cls, index: int, ring: Ring) -> "Poly":
        return cls({((index, 1),): fmpq(1)}, ring)

    def is_constant(self) -> bool:
        return all(m == () for m in self.terms)

    def constant_value(self):
        return self.terms.get((), fmpq(0))

    # ------------------------------------------------------------ operands

    def _other(self, other):
        """A Poly for a scalar operand; an object array for an array operand (applied
        elementwise by numpy); None for what is not a number."""
        if isinstance(other, Poly):
            return _same_ring(other, self.ring)
        if isinstance(other, np.ndarray):
            return other if other.dtype == object else lift_array(other, self.ring)
        shape = _shape(other)
        if shape:  # a JAX array, say captured by f from outside: lifted entry by entry
            return lift_array(other, self.ring)
        if isinstance(other, (str, bytes, bool, np.bool_)) or other is None:
            return None
        return Poly.constant(other, self.ring)

    def _binary(self, other, op, swap=False):
        other = self._other(other)
        if other is None:
            return NotImplemented
        if isinstance(other, np.ndarray):
            box = np.empty((), dtype=object)
            box[()] = self
            return op(other, box) if swap else op(box, other)
        return op(other, self) if swap else op(self, other)

    # ------------------------------------------------------------ arithmetic

    def _add(self, other: "Poly", sign: int = 1) -> "Poly":
        ring = self.ring
        terms = dict(self.terms)
        for m, c in other.terms.items():
            c = c if sign == 1 else ring.neg(c)
            terms[m] = ring.add(terms[m], c) if m in terms else c
            if _is_exact(terms[m]) and terms[m] == 0:
                del terms[m]
        return Poly(terms, ring)

    def _mul(self, other: "Poly") -> "Poly":
        ring = self.ring
        ring.charge(len(self.terms) * len(other.terms))
        terms: dict = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in other.terms.items():
                m, c = mono_mul(m1, m2), ring.mul(c1, c2)
                terms[m] = ring.add(terms[m], c) if m in terms else c
        out = Poly({m: c for m, c in terms.items() if not (_is_exact(c) and c == 0)}, ring)
        return out if out.terms else _defined_zero(ring, self, other)

    def _div(self, other: "Poly") -> "Poly":
        if not other.is_constant():
            raise refuse(NotPolynomial("xp.expect: f is not a polynomial in the samples: it divides by a "
                                       "value that depends on them"))
        d = other.constant_value()
        if not self.terms and not (_is_exact(d) and d != 0):
            # 0 / d is still a division: where d = 0 it has no value, and dropping it
            # would turn an undefined expectation into 0
            return Poly({(): self.ring.div(fmpq(0), d)}, self.ring)
        return Poly({m: self.ring.div(c, d) for m, c in self.terms.items()}, self.ring)

    def __add__(self, o):
        return self._binary(o, lambda a, b: a._add(b) if isinstance(a, Poly) else a + b)

    def __radd__(self, o):
        return self._binary(o, lambda a, b: a._add(b) if isinstance(a, Poly) else a + b, swap=True)

    def __sub__(self, o):
        return self._binary(o, lambda a, b: a._add(b, -1) if isinstance(a, Poly) else a - b)

    def __rsub__(self, o):
        return self._binary(o, lambda a, b: a._add(b, -1) if isinstance(a, Poly) else a - b, swap=True)

    def __mul__(self, o):
        return self._binary(o, lambda a, b: a._mul(b) if isinstance(a, Poly) else a * b)

    def __rmul__(self, o):
        return self._binary(o, lambda a, b: a._mul(b) if isinstance(a, Poly) else a * b, swap=True)

    def __truediv__(self, o):
        return self._binary(o, lambda a, b: a._div(b) if isinstance(a, Poly) else a / b)

    def __rtruediv__(self, o):
        return self._binary(o, lambda a, b: a._div(b) if isinstance(a, Poly) else a / b, swap=True)

    def __neg__(self):
        return Poly({m: self.ring.neg(c) for m, c in self.terms.items()}, self.ring)

    def __pos__(self):
        return self

    def __pow__(self, k):
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or not -64 <= k <= 64:
            raise refuse(TypeError("xp.expect: only integer powers -64..64 are expanded; use xp.sqrt for "
                                   "roots"))
        k = int(k)
        if k < 0:
            return Poly.constant(1, self.ring)._div(self) ** -k
        result, base = Poly.constant(1, self.ring), self
        while k:  # by squaring: a few products instead of k
            if k & 1:
                result = result._mul(base)
            k >>= 1
            if k:
                base = base._mul(base)
        return result

    def __bool__(self):
        raise refuse(TypeError("xp.expect: a value of f has no truth value: use xp.maximum/xp.minimum/"
                               "xp.abs, not if/and/or"))

    def __eq__(self, other):
        raise refuse(TypeError("xp.expect: values of f cannot be compared with ==/!="))

    __ne__ = __eq__
    __hash__ = object.__hash__


def _shape(x) -> tuple:
    """The shape of an array of any backend (a JAX array's too), () for a scalar: asked of
    the type first, since asking a traced scalar for numpy's attributes is a refusal."""
    return tuple(getattr(x, "shape", ())) if hasattr(type(x), "shape") else ()


def _power(x, k: int):
    """x**k (an array elementwise, or a backend scalar) with no single power above the
    tracer's MAX_POWER: a moment E[X^65] of a claim that wrote X^64·X must not need a
    power step the claim never wrote, and one the tracer refuses."""
    if k <= MAX_POWER:
        return x if k == 1 else x**k
    high, low = divmod(k, MAX_POWER)
    out = _power(x**MAX_POWER, high)
    return out if low == 0 else out * _power(x, low)


def _defined_zero(ring: Ring, *factors: Poly) -> Poly:
    """The zero polynomial of a product, keeping the domain of the factors' backend
    coefficients (a traced 1/c, say): 0 · (1/c) has no value where c = 0, and a
    product that forgot its factors would give it the value 0."""
    carried = [c for p in factors for c in p.terms.values() if not _is_exact(c)]
    if not carried:
        return Poly({}, ring)
    total = carried[0]
    for c in carried[1:]:
        total = ring.add(total, c)
    return Poly({(): ring.mul(fmpq(0), total)}, ring)


def lift_array(a, ring: Ring) -> np.ndarray:
    """An array of backend scalars (numpy, object, or JAX) as an object array of constants."""
    shape = tuple(int(n) for n in np.shape(a))
    out = np.empty(shape, dtype=object)
    for index in np.ndindex(*shape):
        entry = a[index]  # a[()] for a 0-d array too: its entry, never the array itself
        out[index] = _same_ring(entry, ring) if isinstance(entry, Poly) else Poly.constant(entry, ring)
    return out


def _same_ring(p: Poly, ring: Ring) -> Poly:
    # a polynomial kept from another expectation names that batch's coordinates: mixed
    # with this batch's, it would silently read as the same samples
    if p.ring is not ring:
        raise refuse(BadInput("xp.expect: f used a value of another expectation's batch"))
    return p


def _lift(x, ring: Ring):
    from .law import Distribution

    if isinstance(x, Poly):
        return _same_ring(x, ring)
    if isinstance(x, Distribution):  # a second law is not drawn in this batch: say so, do not guess
        raise refuse(BadInput(f"xp.expect: an argument of f is the law {x.name}, but an expectation draws "
                              "from one law only; for independent laws take E[g(X)] and E[h(Y)] "
                              "separately and multiply"))
    if isinstance(x, np.ndarray) or _shape(x):
        return lift_array(x, ring)
    if isinstance(x, (str, bytes, bool, np.bool_)) or x is None:
        raise refuse(TypeError(f"xp.expect: an argument of f must be a number or an array, got "
                               f"{type(x).__name__}"))
    return Poly.constant(x, ring)


# ---------------------------------------------------------------- the namespace f runs in


class _Backend:
    """What expect needs from the claim's namespace (the one the law was made in): how to
    lift an exact constant, sum an array, make an array, and its elementwise functions
    (applied to constants only)."""

    def __init__(self, xp):
        self.xp = xp
        self.lift = lambda c: xp.q(int(c.p), int(c.q))  # the backend takes Python ints, not fmpz
        self.total, self.asarray = xp.sum, xp.asarray


# the outer namespace's elementwise functions that are not polynomials, by the name the
# object namespace's constructor gives them, with the name the claim's xp has
NON_POLYNOMIAL = {"sqrt": ("sqrt", "a square root"), "absolute": ("abs", "an absolute value"),
                  "maximum": ("maximum", "a maximum"), "minimum": ("minimum", "a minimum"),
                  "tanh": ("tanh", "tanh")}
TRANSCENDENTAL = {"exp": "an exponential", "log": "a logarithm", "arccos": "an arc cosine"}


def _polynomial_xp(backend: _Backend, ring: Ring):
    """The claim's namespace over polynomials: the object namespace of xp.py with Poly
    constants, and the non-polynomial functions allowed on constants only."""
    def constant_only(outer_name, what):
        def apply(*args):
            polys = [_lift(a, ring) for a in args]
            if not all(p.is_constant() for p in polys):
                raise refuse(NotPolynomial(f"xp.expect: f is not a polynomial in the samples: it takes "
                                           f"{what} of a value that depends on them"))
            value = getattr(backend.xp, outer_name)(*(ring.backend(p.constant_value()) for p in polys))
            if isinstance(value, np.ndarray) and value.shape == ():
                value = value[()]
            return Poly.constant(value, ring)
        return apply

    functions = {name: constant_only(*spec) for name, spec in NON_POLYNOMIAL.items()}
    transcendental = {name: constant_only(name, what) for name, what in TRANSCENDENTAL.items()}
    transcendental["pi"] = lambda: Poly.constant(backend.xp.pi, ring)
    xp = object_namespace("moments", number=lambda x: Poly.constant(Fraction(x), ring), **functions,
                           transcendental=transcendental, guard=constant_only("guard", "a guard"))

    def nested(*args):
        raise refuse(BadInput("xp.expect: f cannot take an expectation itself (nested expectations)"))

    xp.expect = xp.var = nested
    return xp


# ---------------------------------------------------------------- moments


def _pattern(monomial: tuple, per_sample: int) -> tuple:
    """The multiset of the samples' exponent vectors (samples absent from it left out)."""
    by_sample: dict = {}
    for v, e in monomial:
        i, j = divmod(v, per_sample)
        by_sample.setdefault(i, [0] * per_sample)[j] += e
    return tuple(sorted(tuple(x) for x in by_sample.values()))


class _Moments:
    """E[Π_j X_j^{α_j}] = Σ_k p_k Π_j s_kj^{α_j} for one draw, cached by α."""

    def __init__(self, law, backend: _Backend, ring: Ring, per_sample: int):
        self.backend, self.ring, self.per_sample = backend, ring, per_sample
        points = int(law.support.shape[0])
        self.support = law.support.reshape((points, per_sample))
        self.p = law.probabilities
        self.cache = law.moments  # shared by every expectation of this law in one evaluation

    def of(self, alpha: tuple):
        if alpha not in self.cache:
            column = self.p
            for j, e in enumerate(alpha):
                if e:
                    s = self.support[:, j]
                    column = column * _power(s, e)
            self.cache[alpha] = self.backend.total(column)
        return self.cache[alpha]

    def of_pattern(self, pattern: tuple):
        ring, value = self.ring, fmpq(1)
        for alpha, count in sorted(Counter(pattern).items()):
            if any(alpha):  # the zero pattern's moment Σ p_k is 1 wherever p is defined
                m = self.of(alpha)
                value = ring.mul(value, _power(m, count))
        return value

    def expectation(self, poly: Poly):
        """Monomials whose patterns are the same multiset have the same expectation:
        their coefficients are summed first, exactly where they are fmpqs."""
        ring = self.ring
        grouped: dict = {}
        for m, c in poly.terms.items():
            key = _pattern(m, self.per_sample)
            grouped[key] = ring.add(grouped[key], c) if key in grouped else c
        total = fmpq(0)
        for key, c in grouped.items():
            if not (_is_exact(c) and c == 0):
                total = ring.add(total, ring.mul(c, self.of_pattern(key)))
        return ring.backend(total)


def _checked(law, n):
    from .law import Distribution

    if not isinstance(law, Distribution) or law.xp is None:
        raise refuse(BadInput(f"xp.expect: the law must be a Law variable of the claim, got "
                              f"{type(law).__name__}"))
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or not 1 <= n <= MAX_SAMPLES:
        raise refuse(BadInput(f"xp.expect: the number of samples must be an integer from 1 to "
                              f"{MAX_SAMPLES}, got {n!r}"))
    if int(n) * math.prod(law.shape) > MAX_COORDINATES:  # refused before any polynomial is made
        raise refuse(ExpansionTooLarge(f"xp.expect: {n} samples of shape {law.shape} are more than "
                                       f"{MAX_COORDINATES} coordinates"))
    return int(n)


def _polynomials(f, law, n, args):
    """f run on the batch's coordinates: (its value as Polys, the moments, the ring)."""
    n = _checked(law, n)
    backend = _Backend(law.xp)
    ring = Ring(backend.lift)
    shape = tuple(law.shape)
    per_sample = math.prod(shape)
    batch = np.empty((n, *shape), dtype=object)
    for flat, index in enumerate(np.ndindex(n, *shape)):
        batch[index] = Poly.coordinate(flat, ring)
    value = f(_polynomial_xp(backend, ring), batch, *(_lift(a, ring) for a in args))
    return value, _Moments(law, backend, ring, per_sample), ring, backend


def _each(value, ring, one, backend):
    """`one` applied to f's value: a scalar, or every entry of an array."""
    value = _lift(value, ring)
    if isinstance(value, np.ndarray) and value.shape != ():
        flat = [one(_lift(x, ring)) for x in value.reshape(-1)]
        return backend.asarray(flat).reshape(value.shape)
    return one(_lift(value[()], ring) if isinstance(value, np.ndarray) else value)


def expect(f, law, n, *args):
    """E[f(xp, X, *args)], X an (n, *shape) batch of n i.i.d. draws from law (a Law
    variable of the claim), computed exactly by moments: f must be a polynomial in X."""
    value, moments, ring, backend = _polynomials(f, law, n, args)
    return _each(value, ring, moments.expectation, backend)


def var(f, law, n, *args):
    """Var[f(xp, X, *args)] = E[f²] − E[f]², X as in expect."""
    value, moments, ring, backend = _polynomials(f, law, n, args)

    def one(p):
        first = moments.expectation(p)
        return moments.expectation(p._mul(p)) - first * first

    return _each(value, ring, one, backend)
