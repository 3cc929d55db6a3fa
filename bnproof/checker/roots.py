"""Square roots in the checker's normal form (docs/certificates.md, "Proof
certificates"): squares leave a radicand where the sign of what leaves is known.

A radicand N/D is k * prod a^e * N1 * (the factors of D that are not atoms): k a
positive rational, N1 a primitive polynomial with no monomial factor, e the net
exponent of atom a in N's monomial content and D's atom factors.  Then
    sqrt(N/D) = outside * sqrt(inside) * prod sqrt(a),
where for a scalar input a:
  - declared positive, or a hypothesis that is a itself (a > 0): a^floor(e/2) leaves,
    and an odd remainder is its own root sqrt(a);
  - a hypothesis that is -a (a < 0): (-a)^floor(e/2) leaves, the remainder stays;
  - otherwise (sign unknown): a^(2 floor(e/4)) leaves, an even power whatever a's sign;
  - a root symbol, or a batch sum of a square monomial (>= 0 by what it is):
    a^floor(e/2) leaves (sqrt(V/r^2) = sqrt(V)/r: where e < 0 the atom divides, so it
    is nonzero wherever the program is defined); an odd remainder stays inside for a
    root and is its own root sqrt(a) for the sum (sqrt(s B) = sqrt(s) sqrt(B), s >= 0);
m and other batch sums stay inside; and k = s^2 t leaves as s.

Why this is sound: outside^2 * inside * prod a is the radicand as rational functions, and
outside >= 0 wherever the hypotheses hold (each factor that leaves is a positive
number, a power of an input of known sign taken with that sign, or an even power), so
wherever the radicand is >= 0 the product is its root (where an a that leaves is 0, both
sides are 0).  The sign facts are read here from the program itself, never from the
proof: a certificate cannot assert one."""

from fractions import Fraction
from math import gcd, isqrt, lcm

PRIMES = [p for p in range(2, 1000) if all(p % q for q in range(2, isqrt(p) + 1))]
# atoms >= 0 that may be 0: a root symbol (NONNEG: an even power leaves, an odd one stays
# inside) and a batch sum of a square monomial (SQUARES: an odd power is its own root, as
# for a > 0, since sqrt(s B) = sqrt(s) sqrt(B) for a real s >= 0)
NONNEG, SQUARES = 2, 3


def sign_facts(inputs: list, ops: list, hypotheses: list) -> dict:
    """name -> +1 (domain positive, or a hypothesis step that is the input), -1 (a
    hypothesis step that is its negation), 0 (unknown) for every scalar input.  Two
    hypotheses of opposite signs, or one against the domain, leave it unknown."""
    signs = {name: (1 if domain == "positive" else 0) for name, kind, domain in inputs if kind == "S"}
    said = {}
    for h in hypotheses:
        op, args, literal = ops[h]
        sign = 1
        if op == "neg":
            (j,) = args
            op, args, literal = ops[j]
            sign = -1
        if op == "input" and literal in signs:
            said.setdefault(literal, set()).add(sign)
    for name, found in said.items():
        if found == {1} and signs[name] >= 0:
            signs[name] = 1
        elif found == {-1} and signs[name] == 0:
            signs[name] = -1
        else:
            signs[name] = 0
    # a vector declared positive (its generator ("v", name)): a batch sum of a monomial in
    # such vectors alone has m >= 1 positive terms, so it is > 0 (split)
    signs.update({("v", name): 1 for name, kind, domain in inputs if kind == "V" and domain == "positive"})
    return signs


def sign_of(a: tuple, signs: dict):
    """+1, -1, 0 (unknown) for a scalar input by sign_facts; +1 for a batch sum of a
    monomial in vectors declared positive; NONNEG for a root symbol and SQUARES for a
    batch sum of a monomial whose exponents are all even (>= 0 by what they are); None
    otherwise.  Read
    from the atom and the program's own sign facts, never from the proof."""
    if a[0] == "s":
        return signs.get(a[1])
    if a[0] == "r":
        return NONNEG
    if a[0] == "S" and a[1]:
        if all(signs.get(g) == 1 for g, _ in a[1]):
            return 1
        if all(e % 2 == 0 for _, e in a[1]):
            return SQUARES
    return None


def squares_out(k: int) -> tuple:
    """(s, t) with k = s^2 t (k > 0): the squares of small primes, or a square t, out."""
    s = 1
    for p in PRIMES:
        if p * p > k:
            break
        while k % (p * p) == 0:
            k //= p * p
            s *= p
    r = isqrt(k)
    return (s * r, 1) if r * r == k else (s, k)


def atom_of(factor: tuple):
    """The atom a factor of D is, if it is one (the factor a with coefficient 1)."""
    if len(factor) == 1:
        mono, c = factor[0]
        if c == 1 and len(mono) == 1 and mono[0][1] == 1:
            return mono[0][0]
    return None


def split(num: dict, den: dict, signs: dict) -> tuple:
    """(outside, inside, own): outside a scalar (N, D), inside the radicand left under
    the root, own the atoms (of positive inputs, of sums of squares) that become their own roots."""
    mu = content(num)
    g = Fraction(gcd(*(x.numerator for x in num.values())), lcm(*(x.denominator for x in num.values())))
    n1 = {strip(mono, mu): x / g for mono, x in num.items()}
    net, other = dict(mu), {}
    for factor, e in den.items():
        a = atom_of(factor)
        if a is None:
            other[factor] = e
        else:
            net[a] = net.get(a, 0) - e
    out_up, out_down, in_up, in_down, own, flip = {}, {}, {}, {}, [], 1
    for a, e in sorted(net.items()):
        s = sign_of(a, signs)
        if s is None:
            q = 0
        elif s in (NONNEG, SQUARES):
            q = e // 2  # e < 0 only where a divides: a > 0 there
        elif s == 0:
            q = 2 * (e // 4)
        else:
            q = e // 2
        rest = e - 2 * q
        if s == -1 and q % 2:
            flip = -flip
        if s in (1, SQUARES) and rest:
            own.append(a)
            rest = 0
        (out_up if q > 0 else out_down)[a] = abs(q)
        (in_up if rest > 0 else in_down)[a] = abs(rest)
    sq, t = squares_out(g.numerator * g.denominator)
    outside = ({monomial(out_up): Fraction(flip * sq, g.denominator)}, atoms(out_down))
    inside_num = {mono_times(mono, in_up): t * x for mono, x in n1.items()}
    inside_den = dict(other)
    for factor, e in atoms(in_down).items():
        inside_den[factor] = inside_den.get(factor, 0) + e
    return outside, (inside_num, inside_den), own


def content(num: dict) -> dict:
    """The monomial content of a nonzero polynomial: each atom's least exponent in its
    monomials (an atom missing from one monomial, here the first, has none)."""
    mu = {a: min(dict(mono).get(a, 0) for mono in num) for a, _ in next(iter(num))}
    return {a: e for a, e in mu.items() if e}


def strip(mono: tuple, mu: dict) -> tuple:
    """A monomial divided by the content mu."""
    return tuple((a, n - mu.get(a, 0)) for a, n in mono if n != mu.get(a, 0))


def monomial(exponents: dict) -> tuple:
    return tuple(sorted((a, e) for a, e in exponents.items() if e))


def mono_times(mono: tuple, exponents: dict) -> tuple:
    out = dict(mono)
    for a, e in exponents.items():
        out[a] = out.get(a, 0) + e
    return monomial(out)


def atoms(exponents: dict) -> dict:
    """D's factors for a product of atoms."""
    return {((((a, 1),), Fraction(1)),): e for a, e in exponents.items() if e}
