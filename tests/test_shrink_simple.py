"""Shrinking prefers small integers and simple fractions (issue 24): a counterexample
at c = 1/12000 that c = 2 also gives is reported at c = 2 or simpler, never at a
needless large denominator; every step it takes is still refuted exactly."""

from fractions import Fraction

import pytest

from bnproof.claims import Claim, Var
from bnproof.claims.decide import REFUTED
from bnproof.search.certify import Judge
from bnproof.search.exactify import _smaller, confirm, shrink


def key(x: Fraction) -> tuple:
    return (x.denominator, abs(x.numerator), x < 0)


# refuted (residual < 0) exactly for 0 < c < 1/1000 and for c > 3/2; it holds at c = 1,
# so the old candidates (0, ±1, coarser denominators) walked 1/12000 → 1/6000 → … and
# stopped near 1/1000, where c = 2 refutes too
TWO_WINDOWS = Claim(
    id="test/two-windows", source="a test", statement=r"c\,(c - \tfrac{1}{1000})(c - \tfrac32) \le 0",
    variables=(Var("c", (), "positive"),), sizes={},
    residual=lambda xp, c: -c * (c - xp.q(1, 1000)) * (c - xp.q(3, 2)),
)

# with a square root, as in the report that came with the issue: the residual at
# c = 1/12000 printed √2880000005
ROOTED = Claim(
    id="test/rooted", source="a test", statement=r"\sqrt{1 + 20 c^2}\,c\,(c - \tfrac{1}{1000})(c - \tfrac32) \le 0",
    variables=(Var("c", (), "positive"),), sizes={},
    residual=lambda xp, c: -xp.sqrt(1 + 20 * c * c) * c * (c - xp.q(1, 1000)) * (c - xp.q(3, 2)),
)

# refuted exactly for 0 < c < 1/1000 and for 2/5 < c < 3/5: no integer refutes it
HALF = Claim(
    id="test/half-window", source="a test",
    statement=r"c\,(c - \tfrac{1}{1000})(c - \tfrac25)(c - \tfrac35) \ge 0",
    variables=(Var("c", (), "positive"),), sizes={},
    residual=lambda xp, c: c * (c - xp.q(1, 1000)) * (c - xp.q(2, 5)) * (c - xp.q(3, 5)),
)


@pytest.mark.parametrize("claim", [TWO_WINDOWS, ROOTED])
def test_a_tiny_counterexample_shrinks_to_two_or_simpler(claim):
    start = {"c": Fraction(1, 12000)}
    first = confirm(claim, start)
    assert first is not None
    assert confirm(claim, {"c": Fraction(2)}) is not None  # c = 2 refutes too
    final, decision = shrink(claim, start, first)
    assert key(final["c"]) <= key(Fraction(2)), final
    assert decision.verdict == REFUTED and confirm(claim, final) is not None


def test_a_certified_shrink_ends_at_a_small_integer():
    judge = Judge(TWO_WINDOWS)
    start = {"c": Fraction(1, 12000)}
    steps = []
    final, _ = shrink(TWO_WINDOWS, start, judge.refutes(start), accept=judge.refutes,
                      on_improve=lambda i, d: steps.append(i))
    assert final == {"c": Fraction(2)}
    assert all(judge.refutes(s) is not None for s in steps)  # every step refuted exactly


def test_where_no_integer_refutes_a_simple_fraction_is_found():
    start = {"c": Fraction(1, 12000)}
    first = confirm(HALF, start)
    assert first is not None
    final, decision = shrink(HALF, start, first)
    assert final == {"c": Fraction(1, 2)} and confirm(HALF, final) is not None


def test_the_order_still_ends():
    # the candidates are strictly simpler, so greedy shrinking terminates
    from bnproof.search.exactify import _simpler

    for x in (Fraction(1, 12000), Fraction(7), Fraction(-5, 3), Fraction(66671, 200000), Fraction(0)):
        assert all(_smaller(o, x) for o in _simpler(x))
    assert Fraction(2) in _simpler(Fraction(1, 12000)) and Fraction(1, 2) in _simpler(Fraction(1, 12000))
