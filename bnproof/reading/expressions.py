"""Walking symengine expressions: their distinct subexpressions, children first
(iteratively, never by recursion), and which of them are rationals.  The floor
below signs.py and radicals.py, which both walk expressions."""

from __future__ import annotations

import symengine as se

RATIONAL = frozenset({"Integer", "One", "Zero", "NegativeOne", "Rational", "Half"})
RATIONAL_TYPES = frozenset(type(x) for x in (se.Integer(2), se.Integer(1), se.Integer(0), se.Integer(-1),
                                             se.Rational(1, 3), se.Rational(1, 2)))


def is_rational(e) -> bool:
    return type(e) in RATIONAL_TYPES


def nodes(e, known=()):
    """Every distinct subexpression of e, children before parents (iterative); those in
    `known` (and below them) are left out."""
    seen, order, stack = set(), [], [(e, False)]
    while stack:
        x, done = stack.pop()
        if done:
            order.append(x)
            continue
        if x in seen or x in known:
            continue
        seen.add(x)
        stack.append((x, True))
        stack.extend((a, False) for a in x.args if a not in seen and a not in known)
    return order
