"""Search for a manifestly nonnegative decomposition of a residual's normal form.

Strategy (Gram–Schmidt against the batch's structural vectors): where σ = r is
the root of the variance of an input vector y, ŷ = (y − μ)/r, and 1 and ŷ are
orthogonal with ‖1‖² = ‖ŷ‖² = m.  Every other input vector x whose sums in the
normal form are S[x], S[x∘y], S[x∘x] is written x = a·1 + b·ŷ + p with p ⊥ 1, ŷ:
    S[x] = m a,  S[x∘y] = S[y]·a + m r b,  S[x∘x] = ‖p‖² + m a² + m b²,
and S[y∘y] = m r² + S[y]²/m.  A hypothesis value t > 0 then replaces one of its
monomials (γ² = r² − t, say).  The result is accepted only if every monomial has
a positive coefficient and every variable of odd degree is ≥ 0 by its form
(m, r, ‖p‖², a hypothesis, a positive input).  Whatever this search does, the
decomposition is proved only by the zero test of residual·Π denominator − Σ terms
(prove.py), which the independent checker repeats: a wrong substitution here can
cost a proof, never make one.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import poly as P
from .algebra import Algebra, Scalar

MAX_CHOICES = 64


@dataclass
class Coordinates:
    """The fresh variables of the decomposition and what each one is."""

    y: str  # the structural input vector
    r: int  # its σ, a root atom
    names: dict  # fresh variable -> ("a" | "b" | "P", x) | ("t", k)


def variance_root(alg: Algebra, y_name: str) -> int | None:
    """The root atom r with r² = S[y∘y]/m − S[y]²/m² (the biased variance of y), if any."""
    g = alg._gen.get(("in", y_name))
    if g is None:
        return None
    s1 = alg._atom.get(("S", alg.key(((g, 1),)), ((g, 1),)))
    s2 = alg._atom.get(("S", alg.key(((g, 2),)), ((g, 2),)))
    if s1 is None or s2 is None:
        return None
    m = alg.m
    target = alg.sub(alg.div(alg.var(s2), alg.var(m)),
                     alg.div(alg.mul(alg.var(s1), alg.var(s1)), alg.mul(alg.var(m), alg.var(m))))
    for r, (rn, rd) in alg.roots.items():
        if alg.sub(Scalar(rn, rd), target).is_zero():
            return r
    return None


def _sum_atom(alg: Algebra, mono: tuple):
    return alg._atom.get(("S", alg.key(mono), mono))


def substitutions(alg: Algebra, y_name: str, r: int, others: list[str], fresh) -> dict | None:
    """atom -> (polynomial in fresh variables, power of m it was multiplied by)."""
    gy = alg._gen[("in", y_name)]
    s1 = _sum_atom(alg, ((gy, 1),))
    s2 = _sum_atom(alg, ((gy, 2),))
    m = P.var(alg.m)
    subs = {s2: (P.add(P.mul(P.mul(m, m), P.mul(P.var(r), P.var(r))), P.mul(P.var(s1), P.var(s1))), 1)}
    for x in others:
        gx = alg._gen[("in", x)]
        a, b, p = fresh(("a", x)), fresh(("b", x)), fresh(("P", x))
        one = _sum_atom(alg, ((gx, 1),))
        cross = _sum_atom(alg, tuple(sorted(((gx, 1), (gy, 1)))))
        square = _sum_atom(alg, ((gx, 2),))
        if one is not None:
            subs[one] = (P.mul(m, P.var(a)), 0)
        if cross is not None:
            subs[cross] = (P.add(P.mul(P.var(s1), P.var(a)), P.mul(m, P.mul(P.var(r), P.var(b)))), 0)
        if square is not None:
            subs[square] = (P.add(P.var(p), P.mul(m, P.add(P.mul(P.var(a), P.var(a)),
                                                         P.mul(P.var(b), P.var(b))))), 0)
    return subs


def substitute(p, subs: dict, m_var: int) -> tuple:
    """p with atoms replaced, times m^k (k returned) so that it stays a polynomial."""
    terms = [(P.sparse(exps), c) for exps, c in p.f.terms()]
    top = max((sum(e * subs[v][1] for v, e in mono if v in subs) for mono, _ in terms), default=0)
    out = P.ZERO
    cache: dict = {}
    for mono, c in terms:
        kept = [(v, e) for v, e in mono if v not in subs]
        shift = top - sum(e * subs[v][1] for v, e in mono if v in subs)
        if shift:
            kept.append((m_var, shift))
        term = P.monomial(tuple(kept), c)
        for v, e in mono:
            if v in subs:
                if (v, e) not in cache:
                    cache[(v, e)] = P.power(subs[v][0], e)
                term = P.mul(term, cache[(v, e)])
        out = P.add(out, term)
    return out, top


def manifest(p, nonnegative: set) -> bool:
    """Every coefficient > 0 and every variable of odd degree ≥ 0 by its form."""
    if not p:
        return False
    for exps, c in p.f.terms():
        if c <= 0:
            return False
        if any(e % 2 and v not in nonnegative for v, e in P.sparse(exps)):
            return False
    return True


def eliminate(p, mono: tuple, replacement):
    """p modulo mono = replacement: every occurrence of the monomial is rewritten."""
    out = P.ZERO
    for exps, c in p.f.terms():
        rest = dict(P.sparse(exps))
        k = min(rest.get(v, 0) // e for v, e in mono) if mono else 0
        for v, e in mono:
            rest[v] = rest.get(v, 0) - k * e
        rest_mono = tuple(sorted((v, e) for v, e in rest.items() if e))
        out = P.add(out, P.mul(P.monomial(rest_mono, c), P.power(replacement, k)))
    return out
