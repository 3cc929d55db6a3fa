"""The every-m prover's polynomials on python-flint (symbolic_m/poly.py, algebra.py; issue 25):
what a careless port would get wrong.  A Poly's terms, read from flint (P.ordered), must be
what the dict it replaced held (Fraction coefficients, int exponents, sorted sparse
monomials); a Poly is not a dict and never equals one; it must stay exact with huge
numerators and denominators, cancel to exactly zero, meet an operand whose variables live
in another flint context or arrive in another order, and be equal and hash equal to every
polynomial equal to it (the prover keys atoms and caches by polynomials)."""

import json
import pickle
from collections.abc import Mapping
from fractions import Fraction

import pytest

from bnproof.symbolic_m import poly as P
from bnproof.symbolic_m.algebra import Algebra, Scalar

HUGE = Fraction(10**45 + 7, 3**60)
TINY = Fraction(-(2**127 - 1), 10**50 + 3)


def _reference_mul(p: dict, q: dict) -> dict:
    """The product the hand-written code computed, term by term in Fractions."""
    out: dict = {}
    for ma, ca in p.items():
        for mb, cb in q.items():
            exps = dict(ma)
            for v, e in mb:
                exps[v] = exps.get(v, 0) + e
            mono = tuple(sorted(exps.items()))
            out[mono] = out.get(mono, 0) + ca * cb
    return {m: c for m, c in out.items() if c}


def test_huge_rationals_stay_exact_and_read_as_fractions_with_int_exponents():
    p = {((0, 2), (7, 1)): HUGE, ((3, 1),): TINY, (): Fraction(1, 7)}
    q = {((7, 3),): TINY, ((0, 1), (3, 2)): HUGE, ((40, 1),): Fraction(5)}
    got = P.mul(p, q)
    assert dict(P.ordered(got)) == _reference_mul(p, q)
    for mono, c in P.ordered(got):
        assert type(c) is Fraction  # not flint's fmpq: callers do Fraction arithmetic and str()
        assert mono == tuple(sorted(mono)) and all(type(v) is int and type(e) is int and e > 0
                                                   for v, e in mono)
    json.dumps([[list(map(list, m)), str(c)] for m, c in P.ordered(got)])  # no fmpz reaches JSON
    assert P.power(p, 3) == P.mul(P.mul(p, p), p)
    assert P.scale(got, HUGE) == P.poly({m: c * HUGE for m, c in _reference_mul(p, q).items()})


def test_cancellation_is_exactly_zero():
    p = P.add(P.mul({((1, 1),): HUGE}, P.var(2)), {((2, 1), (1, 1)): TINY})
    q = P.add(P.mul(p, P.var(33)), P.mul(P.var(33), p), -1)
    assert not q and len(q) == 0 and q == P.ZERO and P.ordered(q) == [] and P.variables(q) == set()
    almost = P.add(P.const(HUGE), P.const(HUGE - Fraction(1, 10**60)), -1)
    assert P.ordered(almost) == [((), Fraction(1, 10**60))]  # one part in 10^60 is not zero
    alg = Algebra()
    x = alg.var(alg.atom(("in", "x")))
    big = alg.mul(alg.const(HUGE), x)
    assert alg.sub(big, alg.mul(x, alg.const(HUGE))).is_zero()
    assert not alg.sub(big, alg.mul(x, alg.const(HUGE + Fraction(1, 10**90)))).is_zero()


def test_operands_in_other_contexts_and_variable_orders():
    low = P.var(1)  # the smallest context
    high = P.var(70)  # a larger one
    mixed = P.mul(low, high)
    assert P.ordered(mixed) == [(((1, 1), (70, 1)), 1)]
    # a hand-built monomial may list its variables in any order
    assert P.add(mixed, {((70, 1), (1, 1)): Fraction(-1)}) == P.ZERO
    assert P.ordered(P.mul({((5, 1), (0, 2)): 2}, low)) == [(((0, 2), (1, 1), (5, 1)), 2)]
    # the same polynomial built in two contexts is one value
    small = P.add(P.var(0), P.const(1))
    lifted = P.quotient(P.mul(small, high), high)
    assert small.f.context() is not lifted.f.context()
    assert small == lifted and lifted == small and hash(small) == hash(lifted)
    assert P.derivative(small, 90) == P.ZERO and P.derivative(lifted, 0) == P.ONE
    assert [P.ordered(c) for c in P.coefficients_in(P.power(P.add(P.var(3), P.var(0)), 2), 3)] == \
        [[(((0, 2),), 1)], [(((0, 1),), 2)], [((), 1)]]


def test_equal_polynomials_are_one_dict_key_and_pickle():
    a = P.mul(P.add(P.var(2), P.const(Fraction(1, 3))), P.var(9))
    b = P.poly({((9, 1),): Fraction(1, 3), ((2, 1), (9, 1)): 1})
    c = P.poly({((2, 1), (9, 1)): 1, ((9, 1),): Fraction(2, 6)})
    table = {a: "first"}
    table[b] = "second"
    assert len(table) == 1 and table[c] == "second"
    assert P.frozen(a) == P.frozen(b) == P.frozen(c)
    assert a != P.add(a, P.const(Fraction(1, 10**40)))
    back = pickle.loads(pickle.dumps(a))
    assert back == a and hash(back) == hash(a)


def test_normal_form_cancels_a_monomial_denominator_to_a_monic_one():
    alg = Algebra()
    m, x = alg.var(alg.m), alg.var(alg.atom(("in", "x")))
    value = alg.div(alg.mul(alg.mul(m, m), alg.add(x, alg.const(1))), alg.mul(alg.const(HUGE), m))
    assert value.d == P.ONE  # m²(x + 1)/(HUGE·m): the common m cancels, the constant moves up
    assert dict(P.ordered(value.n)) == {((0, 1), (1, 1)): 1 / HUGE, ((0, 1),): 1 / HUGE}
    halved = alg.div(x, alg.mul(alg.const(HUGE), alg.mul(m, m)))
    assert P.ordered(halved.d) == [(((0, 2),), 1)] and P.ordered(halved.n) == [(((1, 1),), 1 / HUGE)]
    # two monomial denominators meet over their lcm and cancel exactly
    total = alg.total([alg.div(x, alg.mul(alg.const(3), m)), alg.div(alg.neg(x), alg.mul(alg.const(3), m))])
    assert total.is_zero()


def test_a_root_squared_becomes_its_radicand():
    alg = Algebra()
    x = alg.var(alg.atom(("in", "x")))
    radicand = alg.add(alg.mul(x, x), alg.const(HUGE))
    r = alg.sqrt(radicand)
    assert len(alg.roots) == 1
    assert alg.sub(alg.mul(r, r), radicand).is_zero()
    cube = alg.mul(alg.mul(r, r), r)
    assert alg.sub(cube, alg.mul(radicand, r)).is_zero()
    # (r + x)(r + 1) = R + (x + 1)·r + x: the odd power of r beside the square stays
    product = alg.mul(alg.add(r, x), alg.add(r, alg.const(1)))
    expected = alg.add(alg.add(radicand, alg.mul(alg.add(x, alg.const(1)), r)), x)
    assert alg.sub(product, expected).is_zero() and not product.is_zero()
    # a quotient by a root's radicand: r²/(x² + HUGE) is 1
    assert alg.sub(alg.div(alg.mul(r, r), radicand), alg.const(1)).is_zero()
    assert isinstance(alg.const(0), Scalar) and alg.const(0).is_zero()


def test_a_poly_is_read_through_flint_not_as_a_dict():
    """The dict view is gone: a Poly is no Mapping, equals no dict, and has no items to read;
    terms come from flint (f.terms(), in flint's order) and P.ordered (the prover's order)."""
    p = P.add(P.mul(P.var(3), P.var(0)), P.const(Fraction(-2, 3)))
    assert not isinstance(p, Mapping)
    assert p != {((0, 1), (3, 1)): 1, (): Fraction(-2, 3)} and p == P.poly({((0, 1), (3, 1)): 1, (): Fraction(-2, 3)})
    for name in ("items", "keys", "values", "get", "__getitem__", "__iter__", "__contains__"):
        assert not hasattr(p, name), name
    with pytest.raises(TypeError):
        list(p)
    assert [P.sparse(e) for e, _ in p.f.terms()] == [((0, 1), (3, 1)), ()]  # flint's lex order
    assert P.ordered(p) == [((), Fraction(-2, 3)), (((0, 1), (3, 1)), 1)]
    assert all(type(c) is Fraction for _, c in P.ordered(p))


def test_the_readers_primitives_on_flint():
    """common_monomial (flint's term content), the content of a radicand (roots.py) and the
    lead coefficient that _radicand_inverse scales by (the prover's greatest monomial, not
    flint's leading term) read the same numbers the dict readers did."""
    from bnproof.symbolic_m import roots as R
    from bnproof.symbolic_m.algebra import _lead

    p = P.poly({((0, 2), (5, 1)): Fraction(-6, 35), ((0, 1), (5, 3)): Fraction(4, 15), ((0, 1), (2, 1), (5, 1)): 2})
    assert P.common_monomial(p) == ((0, 1), (5, 1))
    assert P.common_monomial(p, P.poly({((5, 2),): 3})) == ((5, 1),)
    assert R.content(p) == Fraction(2, 105)  # gcd(6, 4, 2) / lcm(35, 15, 1)
    q = P.poly({((1, 1),): 5, ((0, 1), (2, 1)): 7})
    assert _lead(q) == 5  # the greatest sorted monomial is ((1, 1),)
    assert q.f.leading_coefficient() == 7  # flint's lex order leads with x0·x2
