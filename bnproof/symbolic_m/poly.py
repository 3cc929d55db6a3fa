"""Sparse polynomials over Q in numbered variables, on python-flint (fmpq_mpoly).

A Poly holds flint's polynomial `f`; the prover's modules read terms from it directly
(`f.terms()`: flint's dense exponent vectors and fmpq coefficients, in flint's order).
Where they need the prover's own monomial (a sorted tuple of (variable, exponent)) or a
Fraction, `sparse` and `fraction` convert one term, and `ordered` lists the terms in the
prover's order (sorted monomials: the order in which proofs list them).  A function here takes
a dict {monomial: coefficient} as well as a Poly, so that one-term polynomials are
written by hand.

Variable v is flint's generator x{v}.  A polynomial lives in the smallest context of
16·4^k variables that holds its variables (an exponent vector's cost grows with the
context), and two operands meet in the larger one; a lifted copy is kept, since the
same few polynomials (1, m) meet every context.
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq, fmpq_mpoly_ctx

from ..exact.monomials import mono_mul  # noqa: F401 - callers take it from here

SMALLEST, GROWTH = 16, 4  # contexts of 16, 64, 256, … variables
_CONTEXTS: dict[int, object] = {}
_SPARSE: dict = {}  # dense exponent vector -> monomial (a few hundred distinct ones per proof)
_VARS: dict = {}


def _context(nvars: int):
    size = SMALLEST
    while size < nvars:
        size *= GROWTH
    ctx = _CONTEXTS.get(size)
    if ctx is None:
        ctx = _CONTEXTS[size] = fmpq_mpoly_ctx.get(("x", size), "lex")
    return ctx


class Poly:
    """A polynomial: flint's `f` (immutable) in the context poly.py chose for it.  Not a
    dict: it equals only a Poly, and its terms are read from `f`."""

    __slots__ = ("f", "_lifted")

    def __init__(self, f):
        self.f = f
        self._lifted = None

    def in_context(self, ctx):
        """f in the larger context ctx (variables keep their numbers)."""
        if self.f.context() is ctx:
            return self.f
        lifted = self._lifted
        if lifted is None:
            lifted = self._lifted = {}
        got = lifted.get(ctx)
        if got is None:
            n = self.f.context().nvars()
            got = lifted[ctx] = self.f.compose(*ctx.gens()[:n], ctx=ctx)
        return got

    def __len__(self) -> int:
        return len(self.f)

    def __bool__(self) -> bool:
        return not self.f.is_zero()

    def __eq__(self, other) -> bool:
        if type(other) is not Poly:
            return NotImplemented
        a, b = _pair(self, other)
        return a == b

    def __hash__(self) -> int:  # equal to a Poly equal to it, whatever its context
        return hash(frozen(self))

    def __reduce__(self):  # flint's polynomials do not pickle; a worker process may send one
        return (poly, (dict(frozen(self)),))

    def __repr__(self) -> str:
        return f"Poly({self.f})"


def sparse(exps: tuple) -> tuple:
    """flint's dense exponent vector as the prover's monomial: the sorted ((variable,
    exponent), …) of its nonzero exponents (kept: a proof meets a few hundred)."""
    mono = _SPARSE.get(exps)
    if mono is None:
        if len(_SPARSE) > 100_000:
            _SPARSE.clear()
        mono = _SPARSE[exps] = tuple((v, int(e)) for v, e in enumerate(exps) if e)
    return mono


def _q(c) -> fmpq:
    """A coefficient (int, Fraction or flint's fmpq) as an fmpq."""
    if type(c) is fmpq:
        return c
    c = Fraction(c)
    return fmpq(c.numerator, c.denominator)


def fraction(c) -> Fraction:
    """flint's fmpq as a Fraction (the two do not mix in arithmetic)."""
    return Fraction(int(c.p), int(c.q))


def poly(p) -> Poly:
    """p as a Poly: a Poly as it is, a dict {monomial: coefficient} (zero coefficients
    dropped, a monomial's variables in any order) read into flint."""
    if type(p) is Poly:
        return p
    top = -1
    for mono in p:
        for v, _ in mono:
            if v > top:
                top = v
    ctx = _context(top + 1)
    n = ctx.nvars()
    dense: dict = {}
    for mono, c in p.items():
        exps = [0] * n
        for v, e in mono:
            exps[v] += e
        key = tuple(exps)
        dense[key] = dense.get(key, 0) + _q(c)
    return Poly(ctx.from_dict({k: c for k, c in dense.items() if c}))


def _pair(p, q) -> tuple:
    """p's and q's flint polynomials in one context (the larger)."""
    p, q = poly(p), poly(q)
    a, b = p.f, q.f
    ca, cb = a.context(), b.context()
    if ca is cb:
        return a, b
    if ca.nvars() < cb.nvars():
        return p.in_context(cb), b
    return a, q.in_context(ca)


ONE = Poly(_context(1).constant(1))
ZERO = Poly(_context(1).from_dict({}))


def const(c) -> Poly:
    c = _q(c)
    return Poly(_context(1).constant(c)) if c else ZERO


def var(v: int) -> Poly:
    got = _VARS.get(v)
    if got is None:
        got = _VARS[v] = Poly(_context(v + 1).gens()[v])
    return got


def monomial(mono: tuple, c=1) -> Poly:
    """c · mono."""
    return poly({mono: c}) if c else ZERO


def add(p, q, sign: int = 1) -> Poly:
    a, b = _pair(p, q)
    return Poly(a + b if sign > 0 else a - b)


def scale(p, c) -> Poly:
    c = _q(c)
    if not c:
        return ZERO
    return Poly(poly(p).f * c)


def mul(p, q) -> Poly:
    a, b = _pair(p, q)
    return Poly(a * b)


def power(p, k: int) -> Poly:
    return Poly(poly(p).f ** k)


def is_monomial(p) -> bool:
    return len(p) == 1


def common_monomial(p, q=None) -> tuple:
    """The monomial dividing every term of p (and of q), p nonzero: the least exponent of
    each variable."""
    if q is None:
        t = poly(p).f.term_content()
    else:
        a, b = _pair(p, q)
        t = a.term_content().gcd(b.term_content())
    ((exps, _),) = t.terms()
    return sparse(exps)


def mono_div(a: tuple, b: tuple) -> tuple:
    out = dict(a)
    for v, e in b:
        out[v] -= e
    return tuple(sorted((v, e) for v, e in out.items() if e))


def divide_monomial(p, mono: tuple, c=1) -> Poly:
    """p / (c · mono), mono a common factor of p's monomials (the division is exact)."""
    c = _q(c)
    p = poly(p)
    if not mono and c == 1:
        return p
    a, b = _pair(p, monomial(mono, c))
    return Poly(a / b)


def cancel_monomial(n, d) -> tuple[Poly, Poly]:
    """(n/(c·μ), d/(c·μ)) for d = c·ν a monomial and μ the greatest monomial dividing n and ν:
    d becomes a monic monomial.  n nonzero."""
    a, b = _pair(n, d)
    common = a.term_content().gcd(b)  # monic
    divisor = common * b.leading_coefficient()
    return Poly(a / divisor), Poly(b / divisor)


def derivative(p, v: int) -> Poly:
    f = poly(p).f
    if v >= f.context().nvars():
        return ZERO
    return Poly(f.derivative(v))


def variables(p) -> set:
    f = poly(p).f
    return set() if f.is_zero() else {v for v, e in enumerate(f.degrees()) if e}


def ordered(p) -> list:
    """p's terms as (monomial, Fraction) pairs, sorted by monomial: the order in which a
    proof lists them, and a key independent of p's context (frozen)."""
    return sorted((sparse(e), fraction(c)) for e, c in poly(p).f.terms())


def frozen(p) -> tuple:
    return tuple(ordered(p))


def is_constant(p) -> bool:
    return poly(p).f.is_constant()


def monomial_lcm(a, b) -> Poly:
    """The monic least common multiple of two monomials c·μ and c'·ν."""
    x, y = _pair(a, b)
    out = x * y / x.gcd(y)
    return Poly(out / out.leading_coefficient())


def quotient(p, q) -> Poly:
    """p / q, q dividing p (a monomial's multiple by a monomial, here): the division is exact."""
    a, b = _pair(p, q)
    return Poly(a / b)


def coefficients_in(p, v: int) -> list:
    """[c_0, c_1, …] with p = Σ c_k · x_v^k and no c_k in x_v."""
    f = poly(p).f
    if v >= f.context().nvars():
        return [poly(p)] if not f.is_zero() else []
    out = []
    k, factorial = 0, 1
    while not f.is_zero():
        out.append(Poly(f.subs({v: fmpq(0)}) / factorial))
        f = f.derivative(v)
        k += 1
        factorial *= k
    return out
