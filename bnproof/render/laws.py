"""A law's counterexample as the distribution it is, not as its two variables.

A claim's ``Law("X", …)`` is searched, decided and certified as two ordinary
variables, X_support (the points) and X_weights (positive weights, normalised by
the claim's program: probabilities = weights / sum), so a counterexample holds
both.  A reader wants the law: each value with its probability, P(X = 1) = 1/4,
P(X = 0) = 3/4.  Equal support points are one value, their probabilities added.
Only a claim's own laws are shown so (claims/law.py marks them); variables that
merely end in _support are shown as they are.
"""

from __future__ import annotations

from fractions import Fraction

from ..claims.law import SUFFIXES, law_names


def grouped(claim, values: dict) -> list[tuple[str, object, bool]]:
    """(name, value, is_law) in the order of `values`: each law's two variables replaced,
    at the place of the first, by (law name, [(point, probability), …], True)."""
    laws = {n for n in law_names(claim)
            if n + SUFFIXES[0] in values and n + SUFFIXES[1] in values}
    parts = {n + s: n for n in laws for s in SUFFIXES}
    out, done = [], set()
    for name, value in values.items():
        law = parts.get(name)
        if law is None:
            out.append((name, value, False))
        elif law not in done:
            done.add(law)
            out.append((law, points(values[law + SUFFIXES[0]], values[law + SUFFIXES[1]]), True))
    return out


def points(support, weights) -> list[tuple[object, Fraction]]:
    """[(value, probability)]: the support's values in their order, equal ones merged."""
    weights = [Fraction(w) for w in weights]
    total = sum(weights)
    merged: dict = {}
    for value, w in zip(support, weights):
        key = _key(value)
        previous = merged.get(key, (value, Fraction(0)))
        merged[key] = (previous[0], previous[1] + w / total)
    return list(merged.values())


def _key(value):
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    return Fraction(value)


def text(name: str, law: list, show, m=lambda t: t) -> str:
    """'P(X = 1) = 1/4, P(X = 0) = 3/4'; show: a value as text, m: the typesetting."""
    return ", ".join(f"P({name} = {m(show(value))}) = {m(str(p))}" for value, p in law)
