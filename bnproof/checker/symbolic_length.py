"""The algebra of a symbolic-length program (docs/certificates.md, "Proof certificates"):
values of a program whose vectors have an unknown length m, in normal form.

A scalar is N/D: N a polynomial in scalar atoms with Fraction coefficients (a dict from
monomials to coefficients), D a product of polynomial factors with exponents.  The atoms
are m, the scalar inputs, the sums S[w] of vector monomials w (S[1] = m) and root symbols
r_k, with r_k^2 replaced by its radicand wherever it appears, so N never holds r_k^2.  A
vector is a dict from vector monomials (products of generators: the vector inputs, and
H(w) for a matrix input H and a monomial w) to scalars; a matrix is a I + sum b_H H +
sum outer(u, w).  N/D is 0 when N is the zero polynomial: then the value is 0 wherever
every division is by a nonzero value and every radicand is >= 0 (the normal form equals
the value there, step by step).  A root's radicand first gives up the squares whose sign
is known (roots.py): sqrt(c^2 V) = c sqrt(V) for an input c declared positive.  The
converse is not claimed: a nonzero N says nothing.

Every polynomial operation is charged against a work bound, every polynomial, vector
and matrix against a size bound, so a hostile program is rejected, never run forever.

The normal form is the checker's own, written apart from the prover's that it judges
(symbolic_m/poly.py, program/radicals.py on python-flint): nothing is imported from
there.  Two elementary steps are the same ideas on both sides, a product over
integers after scaling by the lcm of the denominators (multiply) and the squares of
small primes taken out of a radicand (roots.squares_out); each is a few lines."""

from fractions import Fraction

from .algebra import integral
from .parse import Rejected
from .roots import atom_of, atoms, content, split, strip
from .surds import bits, rational_sqrt

# MAX_WORK: term products (about 5 us each with Fraction coefficients, so at most about
# 5 s); the papers' claims need at most 14,000 (Theorem C.1's residual)
MAX_TERMS, MAX_WORK, MAX_EXPONENT = 20_000, 10**6, 512
MAX_COEFFICIENT_BITS, MAX_ROOTS, MAX_OUTERS, MAX_NESTING = 8192, 64, 256, 8
M = ("m",)
ONE = ()  # the empty monomial


class Algebra:
    """Normal forms for one program: the root symbols met so far and the work spent."""

    def __init__(self, symmetric: set, signs: dict | None = None):
        self.symmetric = symmetric  # names of the matrix inputs declared symmetric
        self.signs = signs or {}  # scalar input -> +1, -1, 0 (roots.sign_facts)
        self.radicands = []  # r_k^2 = radicands[k], a scalar with no r_j for j >= k
        self.work, self.limit = 0, MAX_WORK
        self.root_grads = {}
        # a batch sum S[w] read as another value: one an equality hypothesis fixes
        # (substitution.py), the same wherever the sum is met
        self.replaced = {}

    # --- polynomials: {monomial: Fraction}, a monomial a sorted tuple of (atom, exponent)

    def charge(self, units: int) -> None:
        self.work += units
        if self.work > self.limit:
            raise Rejected("too much algebra (the checker's work limit for normal forms)")

    def sized(self, p: dict) -> dict:
        if len(p) > MAX_TERMS:
            raise Rejected(f"a normal form with more than {MAX_TERMS} terms (the checker's limit)")
        return p

    def padd(self, a: dict, b: dict, c=1) -> dict:
        return self.padd_into(dict(a), b, c)

    def padd_into(self, out: dict, b: dict, c=1) -> dict:
        """padd(out, b, c), changing out: a sum of many terms in linear time, not quadratic."""
        self.charge(len(b) + 1)
        return self.sized(add_into(out, b, c))

    def pmul(self, a: dict, b: dict) -> dict:
        # a product of coefficients costs more as they grow: one unit per 128 bits
        ba, bb = bits(a), bits(b)
        self.charge(len(a) * len(b) * (1 + (ba + bb) // 128) + 1)
        # a factor 1 (most products here: expand, normal): the other factor, as multiply
        # would make it, at a dict copy's cost
        if len(a) == 1 and a.get(ONE) == 1 and type(a[ONE]) is Fraction:
            a, b, ba = b, a, bb
        if len(b) == 1 and b.get(ONE) == 1 and type(b[ONE]) is Fraction:
            out, top = {mono: x if type(x) is Fraction else Fraction(x) for mono, x in a.items() if x}, ba
        else:
            out = multiply(a, b)
            top = bits(out)
        if top > MAX_COEFFICIENT_BITS:
            raise Rejected(f"a coefficient beyond {MAX_COEFFICIENT_BITS} bits (the checker's limit)")
        return self.sized(out)

    def ppow(self, a: dict, k: int) -> dict:
        out = {ONE: Fraction(1)}
        for _ in range(k):
            out = self.pmul(out, a)
        return out

    # --- scalars: (N, D), D a dict {factor: exponent}, a factor a polynomial as a sorted tuple

    def const(self, q) -> tuple:
        q = Fraction(q)
        return ({ONE: q} if q else {}), {}

    def atom(self, a) -> tuple:
        return {((a, 1),): Fraction(1)}, {}

    def expand(self, den: dict) -> dict:
        out = {ONE: Fraction(1)}
        for factor, e in den.items():
            out = self.pmul(out, self.ppow(dict(factor), e))
        return out

    def normal(self, num: dict, den: dict) -> tuple:
        """r_k^2 replaced by its radicand (later roots first: a radicand holds only earlier
        ones), then common atom powers of N and D cancelled."""
        den = dict(den)
        for k in range(len(self.radicands) - 1, -1, -1):
            r = ("r", k)
            most = max((dict(mono).get(r, 0) // 2 for mono in num), default=0)
            if not most:
                continue
            rn, rd = self.radicands[k]
            rn_powers, rd_powers = [{ONE: Fraction(1)}], [{ONE: Fraction(1)}]
            for _ in range(most):
                rn_powers.append(self.pmul(rn_powers[-1], rn))
                rd_powers.append(self.pmul(rd_powers[-1], self.expand(rd)))
            out, factors = {}, {}
            for mono, x in num.items():
                e = dict(mono).get(r, 0)
                q = e // 2
                rest = tuple((a, n if a != r else e % 2) for a, n in mono if a != r or e % 2)
                if q in factors:  # the same product again: charged again, not computed again
                    product, units = factors[q]
                    self.charge(units)
                else:
                    before = self.work
                    product = self.pmul(rn_powers[q], rd_powers[most - q])
                    factors[q] = product, self.work - before
                self.padd_into(out, self.pmul({rest: x}, product))
            num = out
            for factor, e in rd.items():
                den[factor] = den.get(factor, 0) + e * most
        # cancel atoms that divide every term of N and are factors of D
        for factor in list(den):
            atom = atom_of(factor)
            if atom is not None:
                common = min((dict(mono).get(atom, 0) for mono in num), default=0)
                c = min(common, den[factor])
                if c:
                    num = {strip(mono, {atom: c}): x for mono, x in num.items()}
                    den[factor] -= c
                    if not den[factor]:
                        del den[factor]
        return (num, den) if num else ({}, {})

    def add(self, a: tuple, b: tuple, c=1) -> tuple:
        (na, da), (nb, db) = a, b
        if not na:
            return ({k: c * x for k, x in nb.items()}, dict(db)) if nb else ({}, {})
        if not nb:
            return a
        lcm = {f: max(da.get(f, 0), db.get(f, 0)) for f in {*da, *db}}
        left = self.pmul(na, self.expand({f: e - da.get(f, 0) for f, e in lcm.items()}))
        right = self.pmul(nb, self.expand({f: e - db.get(f, 0) for f, e in lcm.items()}))
        return self.normal(self.padd(left, right, c), lcm)

    def mul(self, a: tuple, b: tuple) -> tuple:
        (na, da), (nb, db) = a, b
        den = dict(da)
        for f, e in db.items():
            den[f] = den.get(f, 0) + e
        return self.normal(self.pmul(na, nb), den)

    def is_zero(self, a: tuple) -> bool:
        return not a[0]

    def inverse(self, a: tuple, where: str) -> tuple:
        num, den = a
        if not num:
            raise Rejected(f"{where}: division by a scalar whose normal form is 0 (undefined everywhere)")
        # the factor is normalised: its monomial content split into atoms, its leading
        # coefficient 1, so that equal divisors give equal factors
        c = num[max(num)]
        mu = content(num)
        rest = {strip(mono, mu): x / c for mono, x in num.items()}
        factors = atoms(mu)
        if list(rest) != [ONE]:
            factors[tuple(sorted(rest.items()))] = 1
        return self.normal(self.pmul(self.expand(den), {ONE: 1 / c}), factors)

    def power(self, a: tuple, k: int, where: str) -> tuple:
        if k < 0:
            return self.power(self.inverse(a, where), -k, where)
        out = self.const(1)
        for _ in range(k):
            out = self.mul(out, a)
        return out

    def sqrt(self, a: tuple, where: str) -> tuple:
        num, den = a
        if not num:
            return a
        if not den and list(num) == [ONE]:
            q = num[ONE]
            if q < 0:
                raise Rejected(f"{where}: square root of a negative constant")
            root = rational_sqrt(q)
            if root is not None:
                return self.const(root)
        (out_num, out_den), inside, own = split(num, den, self.signs)
        out = self.normal(out_num, out_den)
        for atom_ in own:
            out = self.mul(out, self.root(self.atom(atom_)))
        inside = self.normal(*inside)
        if inside != self.const(1):
            out = self.mul(out, self.root(inside))
        return out

    def root(self, a: tuple) -> tuple:
        """The root symbol of radicand a: an earlier one whose radicand equals it, or new."""
        for k, r in enumerate(self.radicands):
            if self.is_zero(self.add(a, r, -1)):
                return self.atom(("r", k))
        if len(self.radicands) >= MAX_ROOTS:
            raise Rejected(f"more than {MAX_ROOTS} square roots (the checker's limit)")
        self.radicands.append(a)
        return self.atom(("r", len(self.radicands) - 1))

    # --- vectors: {vector monomial: scalar}; a vector monomial a sorted tuple of (generator, exponent)

    def vadd(self, u: dict, v: dict, c=1) -> dict:
        out = dict(u)
        for w, s in v.items():
            t = self.add(out[w], s, c) if w in out else (self.add(self.const(0), s, c))
            if self.is_zero(t):
                out.pop(w, None)
            else:
                out[w] = t
        if len(out) > MAX_TERMS:
            raise Rejected(f"a vector with more than {MAX_TERMS} monomials (the checker's limit)")
        return out

    def vscale(self, v: dict, s: tuple) -> dict:
        if self.is_zero(s):
            return {}
        return {w: t for w, x in v.items() if not self.is_zero(t := self.mul(x, s))}

    def vmul(self, u: dict, v: dict) -> dict:
        out = {}
        for wu, x in u.items():
            for wv, y in v.items():
                w, t = mono_mul(wu, wv), self.mul(x, y)
                out[w] = self.add(out[w], t) if w in out else t
        if len(out) > MAX_TERMS:
            raise Rejected(f"a vector with more than {MAX_TERMS} monomials (the checker's limit)")
        return {w: t for w, t in out.items() if not self.is_zero(t)}

    def total(self, v: dict) -> tuple:
        """sum(v): each monomial w becomes its atom S[w] (S[1] = m)."""
        out = self.const(0)
        for w, x in v.items():
            key = M if w == ONE else ("S", self.canonical(w))
            value = self.replaced.get(key)
            out = self.add(out, self.mul(x, self.atom(key) if value is None else (dict(value[0]), dict(value[1]))))
        return out

    def dot(self, u: dict, v: dict) -> tuple:
        return self.total(self.vmul(u, v))

    def canonical(self, w: tuple) -> tuple:
        """The sum atom's monomial, by the symmetry of H: S[u∘H(v)] = S[v∘H(u)]."""
        best = w
        for g, e in w:
            if e == 1 and g[0] == "H" and g[1] in self.symmetric:
                best = min(best, mono_mul(g[2], ((("H", g[1], mono_without(w, g)), 1),)))
        return best

    def apply(self, name: str, v: dict) -> dict:
        """H v, linearly: each monomial w becomes the generator H(w)."""
        out = {}
        for w, x in v.items():
            if nesting(w) >= MAX_NESTING:
                raise Rejected(f"H applied more than {MAX_NESTING} times in a row (the checker's limit)")
            out = self.vadd(out, {((("H", name, w), 1),): x})
        return out

    # --- derivatives: with respect to a vector input x (generator ("v", name)) the gradient,
    # a vector; with respect to a scalar input x (the atom ("s", name)) the same rules give
    # a vector of one monomial, ONE (a scalar times the ones vector), and that is the derivative

    def derivative(self, a: tuple, x: tuple) -> tuple:
        return self.grad(a, x).get(ONE, self.const(0))

    def grad(self, a: tuple, x: tuple) -> dict:
        """d(N/D)/dx = dN/D - (N/D) sum e dF/F over D's factors F^e; an atom's derivative is
        1 for x itself, d(radicand)/(2 r) for a root r, that of its monomial for a sum S[w]
        (grad_sum: none for a scalar x, as vector monomials hold no scalar input), and 0 for
        m and the other scalar inputs."""
        num, den = a
        out = {}
        for mono, c in num.items():
            for atom_, e in mono:
                d = self.grad_atom(atom_, x)
                if d:
                    coeff = ({strip(mono, {atom_: 1}): c * e}, {})
                    out = self.vadd(out, self.vscale(d, coeff))
        out = self.vscale(out, ({ONE: Fraction(1)}, den))
        for factor, e in den.items():
            f = (dict(factor), {})
            df = self.grad(f, x)
            if df:
                scale = self.mul(a, self.mul(self.const(-e), self.inverse(f, "gradient")))
                out = self.vadd(out, self.vscale(df, scale))
        return out

    def grad_atom(self, a: tuple, x: tuple) -> dict:
        if a == x:
            return {ONE: self.const(1)}
        if a[0] == "S":
            return self.grad_sum(a[1], x)
        if a[0] == "r":
            k = a[1]
            if (k, x) not in self.root_grads:
                d = self.grad(self.radicands[k], x)
                half = self.inverse(self.mul(self.const(2), self.atom(a)), "gradient of a root")
                self.root_grads[(k, x)] = self.vscale(d, half)
            return self.root_grads[(k, x)]
        return {}

    def grad_sum(self, w: tuple, x: tuple, inside: bool = False) -> dict:
        """The gradient of S[w] (inside: of w itself, entry by entry, within an H): by the
        product rule over w's generators; an H(u) with u depending on x contributes
        H(w / H(u)) ∘ du/dx (H symmetric), where u holds no such H(v) itself."""
        out = {}
        for g, e in w:
            rest = mono_without(w, g)
            if g == x:
                out = self.vadd(out, {mono_mul(rest, ((x, e - 1),) if e > 1 else ONE): self.const(e)})
            elif g[0] == "H" and depends(g[2], x):
                if inside:
                    raise Rejected("grad: H applied to a vector that depends on the variable, inside "
                                   "another H (outside this checker's fragment)")
                if e != 1 or g[1] not in self.symmetric:
                    raise Rejected("grad: a power of H(u), or a non-symmetric H, depends on the "
                                   "variable (outside this checker's fragment)")
                out = self.vadd(out, self.vmul({((("H", g[1], rest), 1),): self.const(1)},
                                               self.grad_sum(g[2], x, True)))
        return out


# --- polynomials over Fractions, {monomial: coefficient}, for every module that has them
# (moments_n.py too); each caller charges its work and bounds the sizes

def add_into(out: dict, b: dict, c=1) -> dict:
    """out + c b, changing out: a sum of many terms in linear time, not quadratic."""
    for mono, x in b.items():
        y = out.get(mono, 0) + c * x
        if y:
            out[mono] = y
        else:
            out.pop(mono, None)
    return out


def multiply(a: dict, b: dict) -> dict:
    """a b over integers (each factor times the lcm of its denominators), one Fraction per
    term of the product at the end: a Fraction's arithmetic reduces by a gcd at every step."""
    (ia, da), (ib, db) = integral(a.values()), integral(b.values())
    acc = {}
    get = acc.get
    for ma, x in zip(a, ia):
        for mb, y in zip(b, ib):
            mono = mono_mul(ma, mb)
            acc[mono] = get(mono, 0) + x * y
    d = da * db
    return {mono: Fraction(z, d) for mono, z in acc.items() if z}


# --- monomials ---------------------------------------------------------------------

def mono_mul(a: tuple, b: tuple) -> tuple:
    if not a:
        return b
    if not b:
        return a
    out = dict(a)
    for g, e in b:
        out[g] = out.get(g, 0) + e
        if out[g] > MAX_EXPONENT:
            raise Rejected(f"an exponent beyond {MAX_EXPONENT} in a normal form (the checker's limit)")
    return tuple(sorted(out.items()))


def mono_without(w: tuple, g) -> tuple:
    return tuple((h, e) for h, e in w if h != g)


def depends(w: tuple, x) -> bool:
    return any(g == x or g[0] == "H" and depends(g[2], x) for g, _ in w)


def nesting(w: tuple) -> int:
    return max((1 + nesting(g[2]) for g, _ in w if g[0] == "H"), default=0)
