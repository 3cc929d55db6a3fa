"""Exact arithmetic with square roots, for the prover and the exact zero test.

A value is a fraction N/D of polynomials over Q (python-flint ``fmpq_mpoly``)
in named inputs x₁…xₙ and one generator rₖ per distinct square root.  The
root of a radicand P = Np/Dp (cancelled, Dp monic) is written √P = r/Dp with
the relation r² = Np·Dp: r stands for Dp·√P, so the relation is polynomial
(no denominators to clear) and holds wherever P is defined (Dp ≠ 0 there).
The same radicand gives the same generator, so σ computed twice is one root.
A rational radicand q > 0 is split first: √q = s·√p₁···√pⱼ·√C over the small
primes of its squarefree part (principal roots of positive numbers multiply),
so √6 − √2·√3 and √8 − 2√2 are 0 by the relations alone.

Normal form.  Generators are ordered lex with each new root above every
earlier root and every input; the radicand of rₖ only involves earlier
roots and inputs, so the leading monomial of rₖ² − Rₖ is rₖ².  Leading
monomials that are pairwise coprime make {rₖ² − Rₖ} a Gröbner basis, so
dividing by each relation from the last root to the first leaves the unique
remainder of degree ≤ 1 in every root: N lies in the ideal of the relations
exactly when its normal form is the zero polynomial.

Soundness (why a value's fraction equals the program's value at a point).
Take any point where every operation of the program is defined, with each
root generator set to its actual value there (so the relations hold).  By
induction over the steps, each step's N/D evaluates to the step's value and
D is nonzero there: a sum, difference or product has denominator Da·Db; a
quotient a/b has denominator Da·Nb, and Nb ≠ 0 because b ≠ 0 at the point
(the division is defined) and b = Nb/Db; a root has denominator Dp ≠ 0.
Replacing rₖ² by Rₖ changes no value at the point (the relation holds there).
Cancelling a gcd G of N and D is a polynomial identity N = G·N', D = G·D':
D ≠ 0 at the point forces G ≠ 0 and D' ≠ 0 there, so N'/D' is the same
number.  Hence a step whose numerator reduces to the zero polynomial is 0 at
every point where the program is defined; nothing is claimed elsewhere.
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import fmpq, fmpq_mpoly_ctx


class Vacuous(ArithmeticError):
    """An operation that is undefined at every point: a division by the zero
    function, or the square root of a negative constant."""


class TooMuchWork(ArithmeticError):
    """The field's work limit was reached (checked before each product, reduction and
    cancellation; forks share one limit)."""


MAX_CANCEL_TERMS = 2_000_000  # a gcd is cancelled only when no quotient can have more terms
PASS = 4096  # work units per term of a pass over a polynomial (its Python-level overhead)


class _Budget:
    __slots__ = ("work", "max_work")

    def __init__(self, max_work: int | None):
        self.work, self.max_work = 0, max_work


class Value:
    """N/D, both in normal form, D with leading coefficient 1, gcd-cancelled unless that
    could cost more than MAX_CANCEL_TERMS terms (cancelling is never needed for
    soundness); bits bounds the size of every coefficient (numerator and denominator)."""

    __slots__ = ("n", "d", "bits")

    def __init__(self, n, d, bits: int | None = None):
        self.n, self.d = n, d
        self.bits = _bits(n, d) if bits is None else bits

    def is_zero(self) -> bool:
        return self.n.is_zero()

    def rational(self) -> Fraction | None:
        """The value if it is a rational constant, else None."""
        if not (self.n.is_constant() and self.d.is_constant()):
            return None
        return _fraction(_constant(self.n)) / _fraction(_constant(self.d))


def _constant(p) -> fmpq:
    coeffs = p.coeffs()
    return coeffs[0] if coeffs else fmpq(0)


def _fraction(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def _bits(*polys) -> int:
    """The largest size (numerator bits + denominator bits) of a coefficient."""
    return max((int(c.p).bit_length() + int(c.q).bit_length() for p in polys for c in p.coeffs()),
               default=1)


class Radicals:
    """The field of values of one program: inputs, roots and their relations.

    ``fork()`` gives an independent copy (the prover's case split explores
    branches that may create different roots); values are immutable and may
    be shared between forks.

    Work is counted, never timed: each product is charged terms × terms × bits²
    before it is formed, each pass over a polynomial (a sum, a negation, a
    normalization, the text of a radicand or a sign key) terms × (PASS + bits),
    a reduction by a relation like the product it replaces, and a gcd
    cancellation the dense bound of its quotients; TooMuchWork stops the field
    at ``max_work``, one limit shared by all of its forks."""

    def __init__(self, inputs: list[str] | tuple[str, ...] = (), capacity: int = 2,
                 max_work: int | None = None):
        self.inputs = tuple(inputs)
        self.relations: list[tuple[int, object]] = []  # (root number k, Rₖ), in creation order
        self.relation_bits: dict[int, int] = {}  # k -> coefficient size of Rₖ
        self.roots: dict[tuple[str, str], int] = {}  # radicand (N, D) as text -> root number
        self.budget = _Budget(max_work)  # shared by every fork: one limit for a whole case split
        self._grow(max(1, capacity))

    @property
    def work(self) -> int:
        return self.budget.work

    @work.setter
    def work(self, value: int) -> None:
        self.budget.work = value

    @property
    def max_work(self) -> int | None:
        return self.budget.max_work  # None: no limit

    @max_work.setter
    def max_work(self, value: int | None) -> None:
        self.budget.max_work = value

    def _grow(self, capacity: int) -> None:
        self.capacity = capacity
        names = [f"r{k}" for k in reversed(range(capacity))] + [f"x{j}" for j in range(len(self.inputs))]
        self.ctx = fmpq_mpoly_ctx.get(tuple(names), "lex")
        gens = self.ctx.gens()
        self._root_gens = list(reversed(gens[:capacity]))
        self._input_gens = gens[capacity:]
        self.relations = [(k, self._here(r)) for k, r in self.relations]

    def fork(self) -> "Radicals":
        """An independent field with the same roots so far, sharing this one's work limit."""
        other = object.__new__(Radicals)
        other.inputs, other.budget = self.inputs, self.budget
        other.capacity, other.ctx = self.capacity, self.ctx
        other._root_gens, other._input_gens = self._root_gens, self._input_gens
        other.relations, other.roots = list(self.relations), dict(self.roots)
        other.relation_bits = dict(self.relation_bits)
        return other

    # -- work -----------------------------------------------------------------

    def _charge_cost(self, cost: int) -> None:
        if self.max_work is not None and self.work + cost > self.max_work:
            raise TooMuchWork("the work limit of exact arithmetic is reached")
        self.work += cost

    def _charge_product(self, a, b, bits: int, times: int = 1) -> None:
        self._charge_cost(len(a) * len(b) * times * bits * bits)

    def _charge_pass(self, terms: int, bits: int) -> None:
        self._charge_cost(terms * (PASS + bits))

    def _measure(self, *polys) -> int:
        """_bits(polys), the pass it takes charged first (as one of PASS per term)."""
        self._charge_cost(PASS * sum(len(p) for p in polys))
        return _bits(*polys)

    # -- construction -------------------------------------------------------

    def _here(self, p):
        return p if p.context() is self.ctx else p.project_to_context(self.ctx)

    def const(self, x) -> Value:
        x = Fraction(x)
        bits = x.numerator.bit_length() + x.denominator.bit_length()
        return Value(self.ctx.constant(fmpq(x.numerator, x.denominator)), self.ctx.constant(1), bits)

    def input(self, j: int) -> Value:
        return Value(self._input_gens[j], self.ctx.constant(1), 2)

    def root_gen(self, k: int):
        return self._root_gens[k]

    def make(self, n, d) -> Value:
        """The normal form of n/d; d must not reduce to 0 (Vacuous otherwise)."""
        n, d = self._here(n), self._here(d)
        bits = self._measure(n, d)
        n, d = self.reduce(n, bits), self.reduce(d, bits)
        if d.is_zero():
            raise Vacuous("division by a quantity that is identically zero")
        if n.is_zero():
            return Value(n, self.ctx.constant(1), 1)
        if not d.is_constant():
            n, d = self._cancel(n, d)
        lc = d.leading_coefficient()
        if lc != 1:
            self._charge_pass(len(n) + len(d), 2 * self._measure(n, d))
            n, d = n * (1 / lc), d * (1 / lc)
        return Value(n, d, self._measure(n, d))

    def _cancel(self, n, d):
        """n/d with their gcd cancelled, when that is cheap enough to bound.

        An exact quotient can have far more terms than its dividend ((x^N − 1)/(x − 1)),
        but never more than the dense bound Π(degᵢ + 1) over the dividend's variables:
        above MAX_CANCEL_TERMS the gcd is not cancelled (n/d is the same value
        uncancelled).  The gcd is charged the dense bound (a dense algorithm's size) and
        a pass over the operands, the quotients a pass each."""
        dense = sum(math.prod(int(e) + 1 for e in p.degrees() if e) for p in (n, d))
        if dense > MAX_CANCEL_TERMS:
            return n, d
        bits = self._measure(n, d)
        self._charge_cost(16 * dense + (len(n) + len(d)) * (PASS + bits * bits))
        g = n.gcd(d)
        if g.is_one():
            return n, d
        n, d = n / g, d / g
        self._charge_cost(PASS * (len(n) + len(d)))
        return n, d

    def reduce(self, p, bits: int | None = None):
        """The remainder of p modulo the relations, from the last root to the first
        (bits: a bound on p's coefficient sizes, measured when not given)."""
        for k, r in reversed(self.relations):
            gen = self._root_gens[k]
            degree = int(p.degrees()[self.capacity - 1 - k])
            if degree >= 2:
                if bits is None:
                    bits = self._measure(p)
                bits += self.relation_bits[k] * (degree // 2) + 1  # a bound after the division
                self._charge_product(p, r, bits, degree // 2)  # each r² replaced by Rₖ
                p = divmod(p, gen * gen - r)[1]
        return p

    # -- arithmetic ---------------------------------------------------------

    def _pair(self, a: Value, b: Value):
        return self._here(a.n), self._here(a.d), self._here(b.n), self._here(b.d)

    def add(self, a: Value, b: Value) -> Value:
        an, ad, bn, bd = self._pair(a, b)
        bits = max(a.bits, b.bits)
        self._charge_pass(len(an) + len(ad) + len(bn) + len(bd), bits)
        if ad == bd:
            return self.make(an + bn, ad)
        self._charge_product(an, bd, bits)
        self._charge_product(bn, ad, bits)
        self._charge_product(ad, bd, bits)
        return self.make(an * bd + bn * ad, ad * bd)

    def sub(self, a: Value, b: Value) -> Value:
        return self.add(a, self.neg(b))

    def neg(self, a: Value) -> Value:
        self._charge_pass(len(a.n), a.bits)
        return Value(-self._here(a.n), self._here(a.d), a.bits)

    def mul(self, a: Value, b: Value) -> Value:
        an, ad, bn, bd = self._pair(a, b)
        bits = max(a.bits, b.bits)
        self._charge_product(an, bn, bits)
        self._charge_product(ad, bd, bits)
        return self.make(an * bn, ad * bd)

    def div(self, a: Value, b: Value) -> Value:
        if b.is_zero():
            raise Vacuous("division by a quantity that is identically zero")
        an, ad, bn, bd = self._pair(a, b)
        bits = max(a.bits, b.bits)
        self._charge_product(an, bd, bits)
        self._charge_product(ad, bn, bits)
        return self.make(an * bd, ad * bn)

    def pow(self, a: Value, k: int) -> Value:
        result = self.const(1)
        for _ in range(k):  # one reduction per factor keeps degrees in the roots ≤ 1
            result = self.mul(result, a)
        return result

    def sqrt(self, a: Value) -> Value:
        """√a as r/Dp with a root generator r, r² = Np·Dp; a rational square stays rational."""
        if a.is_zero():
            return a
        q = a.rational()
        if q is not None:
            if q < 0:
                raise Vacuous("square root of a negative constant")
            root = _rational_sqrt(q)
            if root is not None:
                return self.const(root)
            return self._rational_root(q)
        k = self._root(a)  # may grow the context: read the generator after it
        return self.make(self._root_gens[k], self._here(a.d))

    def _rational_root(self, q: Fraction) -> Value:
        """√q for a rational q > 0 that is not a square, as s·√p₁···√pⱼ·√C: one generator
        per small prime of q's squarefree part (and one for a cofactor C without small
        primes), so √2·√3 − √6 and √8 − 2√2 reduce to 0.  Principal roots of positive
        numbers multiply, so this is the value itself, not a choice of signs."""
        self._charge_pass(len(SMALL_PRIMES), q.numerator.bit_length() + q.denominator.bit_length())
        scale, primes, cofactor = _squarefree(q.numerator * q.denominator)
        value = self.const(Fraction(scale, q.denominator))
        for factor in primes + ([cofactor] if cofactor > 1 else []):
            k = self._root(self.const(factor))  # may grow the context: read the generator after it
            value = self.mul(value, self.make(self._root_gens[k], self.ctx.constant(1)))
        return value

    def _root(self, a: Value) -> int:
        """The number of the generator of √a (created with its relation if new)."""
        n, d = self._here(a.n), self._here(a.d)
        self._charge_pass(len(n) + len(d), a.bits)  # the text of the radicand
        key = (str(n), str(d))
        k = self.roots.get(key)
        if k is None:
            k = len(self.roots)
            if k >= self.capacity:
                self._grow(2 * self.capacity)
                n, d = self._here(n), self._here(d)
            self._charge_product(n, d, a.bits)
            relation = self.reduce(n * d, 2 * a.bits + 1)
            self.roots[key] = k
            self.relations.append((k, relation))
            self.relation_bits[k] = self._measure(relation)
        return k

    def sign_key(self, a: Value) -> tuple[str | None, int]:
        """(key, s): the sign of a is s times the sign of the polynomial named key;
        key None when a is constant (then s is its sign)."""
        n, d = self._here(a.n), self._here(a.d)
        self._charge_product(n, d, a.bits)
        p = self.reduce(n * d, 2 * a.bits + 1)
        if p.is_constant():
            c = _constant(p)
            return None, (c > 0) - (c < 0)
        bits = self._measure(p)
        self._charge_pass(2 * len(p), 2 * bits)  # normalized, then its text
        lc = p.leading_coefficient()
        return str(p * (1 / lc)), 1 if lc > 0 else -1


SMALL_PRIMES = tuple(p for p in range(2, 1000) if all(p % k for k in range(2, int(p**0.5) + 1)))


def _squarefree(n: int) -> tuple[int, list[int], int]:
    """n = scale² · Π primes · cofactor for n ≥ 1: the primes below 1000 that divide n to
    an odd power, and a cofactor without such primes (1, or a non-square; a square
    cofactor goes into the scale)."""
    from math import isqrt

    scale, primes = 1, []
    for p in SMALL_PRIMES:
        if n % p:
            continue
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        scale *= p ** (e // 2)
        if e % 2:
            primes.append(p)
    root = isqrt(n)
    if root * root == n:
        return scale * root, primes, 1
    return scale, primes, n


def _rational_sqrt(x: Fraction) -> Fraction | None:
    from math import isqrt

    p, q = isqrt(x.numerator), isqrt(x.denominator)
    if p * p == x.numerator and q * q == x.denominator:
        return Fraction(p, q)
    return None
