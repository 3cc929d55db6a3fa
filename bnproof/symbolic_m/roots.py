"""Square roots normalised against the declared signs (docs/claims.md, "Proofs for
every m"): √(c²·V) and √V are one root times c when c > 0, so BN(c·y) = BN(y).

A radicand n/d with a monomial d is written k · Π aᵉ · n₁ (k a positive rational,
n₁ a primitive polynomial with no monomial factor, e the net exponent of a scalar
input a in n's monomial content and in d), and
    √(n/d) = outside · √(inside) · Π √a,
with what leaves the root chosen by what is known of each scalar input's sign:
  * a > 0 (declared positive, or a hypothesis that is a itself): a^⌊e/2⌋ leaves, and
    an odd remainder becomes its own root √a (so √(c·V) = √c·√V);
  * a < 0 (a hypothesis that is −a): (−a)^⌊e/2⌋ leaves, the remainder stays inside;
  * a of unknown sign: only a^(2⌊e/4⌋) leaves (√(s⁴V) = s²√V, but √(s²V) = |s|√V is
    kept whole: abs is outside the fragment);
  * a batch sum Σw of a monomial w in vectors declared positive is > 0 and leaves as a
    positive input does (√((Σy)²) = Σy);
  * a root r, and a batch sum Σw of a square monomial w (Σv² ≥ 0), are ≥ 0: a^⌊e/2⌋
    leaves (√(V/r₁²) = √V/r₁; where e < 0 the atom divides, so it is > 0 wherever the
    program is defined); an odd remainder stays inside for a root (NONNEG) and is its
    own root for Σw (SQUARES: √(V·Σv²) = √(Σv²)·√V, the principal root being
    multiplicative where one factor is a real ≥ 0; so √(V·r₁²) = r₁·√V once r₁² is
    its radicand Σv²);
    m and other batch sums never leave (σ stays the atom the decomposition searches
    with);
and k = s²·t leaves as s (t with no square of a small prime, or a square).  A
denominator's factor that is not a monomial stays inside as it is.

Soundness: outside² · inside · Π a equals the radicand as rational functions, and
outside ≥ 0 wherever the program is defined and the hypotheses hold, so the product is
the root wherever the radicand is ≥ 0 (where a = 0, both sides are 0).  The inside is a
function of the radicand's normal form (unique where the denominator is a monomial), so
two radicands that differ by such a square reach one root symbol; equal radicands
written otherwise reach two, which can cost a proof, never make one.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, isqrt

from . import poly as P

# primes whose squares leave a rational content (a larger square factor stays inside:
# canonical still, since the split is a function of the number)
_PRIMES = [p for p in range(2, 1000) if all(p % q for q in range(2, isqrt(p) + 1))]

# sign_of's answers for an atom that is ≥ 0 but may be 0: a root (NONNEG: an even power
# leaves, an odd one stays inside, √r being no root of the fragment), a batch sum of a
# square monomial (SQUARES: an even power leaves, an odd one becomes its own root, as for
# a > 0: √(s·B) = √s·√B for a real s ≥ 0, so √(V·Σy²) = ‖y‖·√V)
NONNEG, SQUARES = 2, 3


def sign_facts(program: dict) -> dict[str, int]:
    """The sign each scalar input has by its domain or a hypothesis: +1 (declared
    positive, or a hypothesis that is the input itself), −1 (a hypothesis that is its
    negation), 0 (unknown).  Contradictory hypotheses give 0: the claim is vacuous, and
    its witness is never found."""
    steps = program["steps"]
    signs = {name: (1 if domain == "positive" else 0)
             for name, typ, domain in program["inputs"] if typ == "scalar"}
    said: dict[str, set] = {}
    for h in program["hypotheses"]:
        step = steps[h]
        sign = 1
        if step[0] == "neg":
            step, sign = steps[step[1]], -1
        if step[0] == "input" and step[1] in signs:
            said.setdefault(step[1], set()).add(sign)
    for name, found in said.items():
        if len(found) == 1 and signs[name] == 0:
            signs[name] = found.pop()
        elif len(found) > 1 or signs[name] not in found:
            signs[name] = 0
    # a vector declared positive, keyed apart from the scalars: a batch sum of a monomial in
    # such vectors alone is > 0 (m ≥ 1 positive terms), so it may leave a root
    signs.update({("vector", name): 1 for name, typ, domain in program["inputs"]
                  if typ == "vector" and domain == "positive"})
    return signs


def square_part(k: int) -> tuple[int, int]:
    """(s, t) with k = s²·t, k > 0: squares of small primes and a square t taken out."""
    s = 1
    for p in _PRIMES:
        if p * p > k:
            break
        while k % (p * p) == 0:
            k //= p * p
            s *= p
    r = isqrt(k)
    if r * r == k:
        return s * r, 1
    return s, k


def content(n) -> Fraction:
    """The positive rational c with n/c integral and primitive."""
    num = den = 0
    for c in n.f.coeffs():
        p, q = int(c.p), int(c.q)
        num = gcd(num, p)
        den = den * q // gcd(den, q) if den else q
    return Fraction(num, den)


def split(n, d, sign_of) -> tuple | None:
    """√(n/d) as (outside n, outside d, inside n, inside d, atoms split into their own
    root), or None for a zero radicand.  sign_of(atom) is +1, −1, 0 (a scalar input of
    unknown sign) or None (an atom that never leaves the root).  A denominator's part that
    is not a monomial stays inside, as it is."""
    n, d = P.poly(n), P.poly(d)
    if not n or not d:
        return None
    mu, delta = P.common_monomial(n), P.common_monomial(d)
    g, h = content(n), content(d)
    k = g / h
    n1 = P.divide_monomial(n, mu, g)
    d1 = P.divide_monomial(d, delta, h)
    if d1 == P.const(-1):
        n1, d1 = P.scale(n1, -1), P.ONE
    net = dict(mu)
    for v, e in delta:
        net[v] = net.get(v, 0) - e
    out_up, out_down, in_up, in_down, own = {}, {}, {}, {}, []
    flip = 1
    for v, e in sorted(net.items()):
        s = sign_of(v)
        if s is None:
            q, rest = 0, e
        elif s in (NONNEG, SQUARES):
            # a ≥ 0: √(a^(2q)·B) = a^q·√B; q < 0 only where a divides, so a > 0 there
            q = e // 2
            rest = e - 2 * q
            if rest and s == SQUARES:
                own.append(v)
                rest = 0
        elif s == 0:
            q = 2 * (e // 4)
            rest = e - 2 * q
        else:
            q = e // 2
            rest = e - 2 * q
            if s < 0 and q % 2:
                flip = -flip
            if rest and s > 0:
                own.append(v)
                rest = 0
        if q > 0:
            out_up[v] = q
        elif q < 0:
            out_down[v] = -q
        if rest > 0:
            in_up[v] = rest
        elif rest < 0:
            in_down[v] = -rest
    sq, t = square_part(k.numerator * k.denominator)
    outside_n = P.monomial(_mono(out_up), Fraction(flip * sq, k.denominator))
    outside_d = P.monomial(_mono(out_down))
    inside_n = P.mul(P.scale(n1, t), P.monomial(_mono(in_up)))
    inside_d = P.mul(d1, P.monomial(_mono(in_down)))
    return outside_n, outside_d, inside_n, inside_d, own


def _mono(exponents: dict) -> tuple:
    return tuple(sorted((v, e) for v, e in exponents.items() if e))
