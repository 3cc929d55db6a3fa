"""Rigorous signs in the reference reading (bnproof/reading/signs.py): balls, symengine's
expansion, SymPy's exact zero test, and inconclusive where none of them decides."""

from __future__ import annotations

from fractions import Fraction

import pytest
import symengine as se

from bnproof import reading
from bnproof.claims import Claim, Var
from bnproof.claims import xp as namespaces
from bnproof.reading import signs
from bnproof.reading.errors import Inconclusive
from bnproof.reading.radicals import root


def claim_of(residual, kind="identity") -> Claim:
    return Claim(id="test/signs", source="test", statement="x", residual=residual,
                 variables=(Var("y", (2,)),), kind=kind)


def test_rational_and_ball_signs():
    assert signs.sign(se.Rational(-3, 7)) == -1
    assert signs.sign(se.sqrt(2) - se.Rational(141421, 100000)) == 1
    assert signs.sign(se.pi - se.Rational(355, 113)) == -1  # 2.7·10⁻⁷ apart
    assert signs.sign(se.exp(se.Integer(1)) - se.E) == 0  # symengine's own e¹ = e


def test_the_exact_zero_test_decides_what_balls_and_expansion_cannot():
    denested = se.sqrt(2 + se.sqrt(3)) - (se.sqrt(6) + se.sqrt(2)) / 2  # exactly 0
    assert signs.sign(denested) == 0
    assert signs.sign(denested + se.Rational(1, 10**2000)) == 1  # ~10⁻²⁰⁰⁰: 6644 bits


def test_a_transcendental_tie_is_inconclusive_never_a_sign():
    with pytest.raises(Inconclusive):
        signs.sign(se.exp(se.log(se.Integer(3))) - 3)
    with pytest.raises(Inconclusive):
        signs.sign(2 * se.acos(se.Rational(1, 3)) - se.acos(se.Rational(-7, 9)))  # cos 2θ = 2cos²θ − 1


def test_the_zero_test_has_a_cap():
    radicals = sum((se.sqrt(p) for p in (2, 3, 5, 7, 11, 13, 17)), se.Integer(0))
    tie = se.sqrt(radicals**2) - radicals  # 0, but √(x²) stays a radical of a sum of 7 radicals
    with pytest.raises(Inconclusive, match="cap"):
        signs.sign(tie)


def test_radicands_in_normal_form():
    assert root(Fraction(824, 225)) == se.Rational(2, 15) * se.sqrt(2) * se.sqrt(103)
    assert root(Fraction(6)) * root(Fraction(2)) == 2 * se.sqrt(3)
    assert root(Fraction(75)) == 5 * se.sqrt(3) and root(Fraction(0)) == 0 and root(Fraction(9, 4)) == se.Rational(3, 2)


def test_expansion_is_rebuilt_canonically():
    """symengine 0.15's expand returned (1/2)*0 + (1/2)*9 for this sum of squares: a
    non-canonical term; the reading rebuilds it and decides 9/2."""
    s2 = se.sqrt(2)
    a = -s2 * (1 + 2 * s2 * (-1 + s2) - s2 * (-1 - s2 / 2)) + 6 * (-1 + s2) - (2 * (-1 + s2) + 2 * (-1 - s2 / 2) - s2)
    b = s2 / 2 * (1 + 2 * s2 * (-1 + s2) - s2 * (-1 - s2 / 2)) - (2 * (-1 + s2) + 2 * (-1 - s2 / 2) - s2) - 3 * s2
    e = a**2 / 2 + b**2 / 2
    assert signs.canonical(e.expand()) == se.Rational(9, 2)
    assert signs.sign(e - se.Rational(9, 2)) == 0


def test_identities_through_the_exact_zero_test_read_as_holds():
    r = reading.read(claim_of(lambda xp, y: xp.sqrt(2 + xp.sqrt(y[0])) - (xp.sqrt(xp.q(6)) + xp.sqrt(y[1])) / 2),
                     {"y": [3, 2]})
    assert r.verdict == "holds" and r.sign == 0


def test_the_namespace_has_every_name_of_the_other_backends():
    ours = set(vars(reading.reference()))
    for other in (namespaces.floating(), namespaces.trace(__import__("bnproof.program.trace",
                                                                     fromlist=["Program"]).Program())):
        names = set(vars(other)) - {"make_pi"}
        assert names <= ours, names - ours
    assert reading.reference().kind == "reference"
