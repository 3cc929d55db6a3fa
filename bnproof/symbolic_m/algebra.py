"""The normal form of a symbolic-length program (spec §2): scalars are quotients
of polynomials in atoms (m, scalar inputs, batch sums S[w], bilinear forms
S[u∘H(w)], roots r with r² = radicand), vectors are Σ scalar · monomial in the
vector generators (inputs and H(w)), matrices α I + β H + Σ outer(u, w).

Soundness of the zero test (sufficient, never necessary): every rewrite is an
identity of rational functions, or the relation r² = radicand, which holds at
every point where r is defined; a cancelled common monomial factor is nonzero
wherever the quotient was defined.  So a numerator that reduces to the zero
polynomial is 0 at every m and every point where the program is defined.
Two equal radicands written differently get two root symbols: that can only
make a true identity fail to reduce, never make a false one reduce.  Squares whose
sign is known leave a radicand first (roots.py: √(c²V) = c·√V for c > 0).
The polynomials are poly.py's, on python-flint.
"""

from __future__ import annotations

from fractions import Fraction

from . import poly as P
from . import roots as R
from .fragment import NotDefined, OutsideFragment

MAX_TERMS = 20_000  # a normal form this large is "not proved", never a hang


class TooLarge(Exception):
    pass


class Scalar:
    __slots__ = ("n", "d")

    def __init__(self, n: dict, d: dict):
        self.n, self.d = n, d

    def is_zero(self) -> bool:
        return not self.n


class Vector:
    __slots__ = ("terms",)

    def __init__(self, terms: dict):
        self.terms = terms  # vector monomial -> Scalar (nonzero)


class Matrix:
    __slots__ = ("alpha", "beta", "outers")

    def __init__(self, alpha: Scalar, beta: Scalar, outers: list):
        self.alpha, self.beta, self.outers = alpha, beta, outers


class Algebra:
    """Atoms, roots and generators of one program (and its proof steps)."""

    def __init__(self):
        self.atoms: list[tuple] = []  # descriptors: ("m",), ("in", name), ("S", key), ("r", key)
        self._atom: dict = {}
        self.roots: dict[int, tuple] = {}  # atom -> (Rn, Rd): r² = Rn/Rd
        self.gens: list[tuple] = []  # ("in", name) | ("H", monomial)
        self._gen: dict = {}
        self._grad_cache: dict = {}
        self.signs: dict[str, int] = {}  # scalar input -> +1, −1, 0 (roots.sign_facts)
        self.m = self.atom(("m",))
        # a batch sum's atom read as another value: one an equality hypothesis fixes
        # (equalities.py), the same wherever the sum is met
        self.replaced: dict[int, Scalar] = {}

    # ---------- atoms and generators
    def atom(self, desc: tuple) -> int:
        if desc not in self._atom:
            self._atom[desc] = len(self.atoms)
            self.atoms.append(desc)
        return self._atom[desc]

    def gen(self, desc: tuple) -> int:
        if desc not in self._gen:
            self._gen[desc] = len(self.gens)
            self.gens.append(desc)
        return self._gen[desc]

    def key(self, mono: tuple) -> tuple:
        """A vector monomial's structural name (independent of creation order)."""
        return tuple(sorted((self._gen_key(g), e) for g, e in mono))

    def _gen_key(self, g: int) -> tuple:
        desc = self.gens[g]
        return desc if desc[0] == "in" else ("H", self.key(desc[1]))

    # ---------- scalars
    def const(self, c) -> Scalar:
        return Scalar(P.const(c), P.ONE)

    def var(self, a: int) -> Scalar:
        return Scalar(P.var(a), P.ONE)

    def normal(self, n, d) -> Scalar:
        n, multiplier = self.reduce(n)
        if not n:
            return Scalar(P.ZERO, P.ONE)
        d = P.mul(d, multiplier)
        if len(n) > MAX_TERMS or len(d) > MAX_TERMS:
            raise TooLarge(f"a normal form of more than {MAX_TERMS} terms")
        if P.is_monomial(d):
            n, d = P.cancel_monomial(n, d)
        elif n == d:
            return self.const(1)
        return Scalar(n, d)

    def reduce(self, p) -> tuple:
        """p · multiplier with every r² replaced by its radicand (p, multiplier polynomials,
        the multiplier a power of radicands' denominators, nonzero wherever the roots are
        defined)."""
        p = P.poly(p)
        multiplier = P.ONE
        if not self.roots:
            return p, multiplier
        for r in sorted((v for v in P.variables(p) if v in self.roots), reverse=True):
            c = P.coefficients_in(p, r)  # p = Σ c_k r^k
            top = (len(c) - 1) // 2
            if not top:
                continue
            rn, rd = self.roots[r]
            powers_n, powers_d = [P.ONE], [P.ONE]
            for _ in range(top):
                powers_n.append(P.mul(powers_n[-1], rn))
                powers_d.append(P.mul(powers_d[-1], rd))
            out = P.ZERO  # r^(2q) · (c_2q + c_(2q+1) r) = Rn^q Rd^(top−q) (…) / Rd^top
            for q in range(top + 1):
                rest = c[2 * q]
                if 2 * q + 1 < len(c):
                    rest = P.add(rest, P.mul(c[2 * q + 1], P.var(r)))
                if rest:
                    out = P.add(out, P.mul(P.mul(rest, powers_d[top - q]), powers_n[q]))
            p = out
            multiplier = P.mul(multiplier, powers_d[top])
        return p, multiplier

    def add(self, a: Scalar, b: Scalar, sign: int = 1) -> Scalar:
        if a.d == b.d:
            return self.normal(P.add(a.n, b.n, sign), a.d)
        if P.is_monomial(a.d) and P.is_monomial(b.d):  # over the monomials' lcm
            lcm = P.monomial_lcm(a.d, b.d)
            na = P.mul(a.n, P.quotient(lcm, a.d))
            nb = P.mul(b.n, P.quotient(lcm, b.d))
            return self.normal(P.add(na, nb, sign), lcm)
        return self.normal(P.add(P.mul(a.n, b.d), P.mul(b.n, a.d), sign), P.mul(a.d, b.d))

    def sub(self, a, b):
        return self.add(a, b, -1)

    def neg(self, a: Scalar) -> Scalar:
        return Scalar(P.scale(a.n, -1), a.d)

    def mul(self, a: Scalar, b: Scalar) -> Scalar:
        return self.normal(P.mul(a.n, b.n), P.mul(a.d, b.d))

    def div(self, a: Scalar, b: Scalar) -> Scalar:
        if b.is_zero():
            raise NotDefined("a division by a scalar that is formally 0")
        inverse = self._radicand_inverse(b)
        if inverse is not None:
            return self.mul(a, inverse)
        return self.normal(P.mul(a.n, b.d), P.mul(a.d, b.n))

    def _radicand_inverse(self, b: Scalar):
        """1/b with a monomial denominator when b's numerator is c·μ·Rⁱ for a radicand R of a
        root r (then R = r²·Rd, Rd a monomial): keeps denominators such as σ² monomial."""
        if P.is_monomial(b.n) or not self.roots:
            return None
        content, lead = P.common_monomial(b.n), _lead(b.n)
        q = P.divide_monomial(b.n, content, lead)
        for r, (rn, rd) in self.roots.items():
            r_content, r_lead = P.common_monomial(rn), _lead(rn)
            base = P.divide_monomial(rn, r_content, r_lead)
            power = base
            for j in range(1, 5):
                if len(power) > len(q):
                    break
                if power == q:  # b.n = lead·content·(rn/(r_lead·r_content))^j, rn = r²·rd
                    num = P.mul(b.d, P.power(P.monomial(r_content, r_lead), j))
                    den = P.mul(P.monomial(content, lead), P.power(P.mul(P.var(r), P.mul(P.var(r), rd)), j))
                    return self.normal(num, den)
                power = P.mul(power, base)
        return None

    def pow(self, a: Scalar, k: int) -> Scalar:
        if k < 0:
            return self.div(self.const(1), self.pow(a, -k))
        out = self.const(1)
        for _ in range(k):
            out = self.mul(out, a)
        return out

    def sqrt(self, a: Scalar) -> Scalar:
        if a.is_zero():
            return a
        if P.is_constant(a.n) and P.is_constant(a.d):  # a rational constant
            value = P.fraction(a.n.f.leading_coefficient()) / P.fraction(a.d.f.leading_coefficient())
            if value < 0:
                raise NotDefined("the square root of a negative constant")
            root = _rational_sqrt(value)
            if root is not None:
                return self.const(root)
        parts = R.split(a.n, a.d, self.sign_of)
        if parts is None:
            return self._root(a.n, a.d)
        out_n, out_d, in_n, in_d, own = parts
        out = self.normal(out_n, out_d)
        for v in own:
            out = self.mul(out, self._root(P.var(v), P.ONE))
        if in_n != P.ONE or in_d != P.ONE:
            out = self.mul(out, self._root(in_n, in_d))
        return out

    def _root(self, n, d) -> Scalar:
        r = self.atom(("r", P.frozen(n), P.frozen(d)))
        self.roots.setdefault(r, (P.poly(n), P.poly(d)))
        return self.var(r)

    def sign_of(self, v: int):
        """What roots.split may take out of a root: a scalar input's sign (+1, −1, 0 for
        unknown), R.NONNEG for a root, R.SQUARES for Σ of a square monomial, or None."""
        desc = self.atoms[v]
        if desc[0] == "r":  # a root is ≥ 0 by definition
            return R.NONNEG
        if desc[0] == "S":  # Σw > 0 for w a monomial in vectors declared positive alone
            gens = [self.gens[g] for g, _ in desc[2]]
            positive = gens and all(d[0] == "in" and self.signs.get(("vector", d[1])) == 1 for d in gens)
            if positive:
                return 1
            return R.SQUARES if desc[2] and all(e % 2 == 0 for _, e in desc[2]) else None
        if desc[0] != "in" or desc[1] not in self.signs:
            return None
        return self.signs[desc[1]]

    # ---------- vectors
    def vec_add(self, u: Vector, w: Vector, sign: int = 1) -> Vector:
        out = dict(u.terms)
        for mono, c in w.terms.items():
            s = self.add(out[mono], c, sign) if mono in out else (c if sign > 0 else self.neg(c))
            if s.is_zero():
                out.pop(mono, None)
            else:
                out[mono] = s
        return Vector(out)

    def vec_scale(self, v: Vector, c: Scalar) -> Vector:
        if c.is_zero():
            return Vector({})
        return Vector({mono: x for mono, x in ((k, self.mul(x, c)) for k, x in v.terms.items())
                       if not x.is_zero()})

    def vec_mul(self, u: Vector, w: Vector) -> Vector:
        out: dict = {}
        for ma, ca in u.terms.items():
            for mb, cb in w.terms.items():
                mono = P.mono_mul(ma, mb)
                term = self.mul(ca, cb)
                out[mono] = self.add(out[mono], term) if mono in out else term
        return Vector({k: x for k, x in out.items() if not x.is_zero()})

    def vec_pow(self, v: Vector, k: int) -> Vector:
        out = Vector({(): self.const(1)})
        for _ in range(k):
            out = self.vec_mul(out, v)
        return out

    def sum_atom(self, mono: tuple) -> Scalar:
        if not mono:
            return self.var(self.m)
        hs = [(g, e) for g, e in mono if self.gens[g][0] == "H"]
        if len(hs) == 1 and hs[0][1] == 1:  # S[u∘H(w)] = S[w∘H(u)]: one name for both
            g = hs[0][0]
            u = tuple(x for x in mono if x[0] != g)
            w = self.gens[g][1]
            other = P.mono_mul(w, ((self.gen(("H", u)), 1),))
            if self.key(other) < self.key(mono):
                mono = other
        atom = self.atom(("S", self.key(mono), mono))
        value = self.replaced.get(atom)
        return self.var(atom) if value is None else value

    def vec_sum(self, v: Vector) -> Scalar:
        return self.total([self.mul(c, self.sum_atom(mono)) for mono, c in v.terms.items()])

    def total(self, scalars: list) -> Scalar:
        """Σ scalars with one normalisation (over the lcm when every denominator is a monomial)."""
        if not scalars:
            return self.const(0)
        if len(scalars) == 1 or not all(P.is_monomial(s.d) for s in scalars):
            out = scalars[0]
            for s in scalars[1:]:
                out = self.add(out, s)
            return out
        lcm = P.ONE
        for s in scalars:
            lcm = P.monomial_lcm(lcm, s.d)
        n = P.ZERO
        for s in scalars:
            n = P.add(n, P.mul(s.n, P.quotient(lcm, s.d)))
        return self.normal(n, lcm)

    def dot(self, u: Vector, w: Vector) -> Scalar:
        return self.vec_sum(self.vec_mul(u, w))

    def apply_h(self, v: Vector) -> Vector:
        return Vector({((self.gen(("H", mono)), 1),): c for mono, c in v.terms.items()})

    def ones(self) -> Vector:
        return Vector({(): self.const(1)})

    # ---------- matrices
    def mat_add(self, a: Matrix, b: Matrix, sign: int = 1) -> Matrix:
        outers = a.outers + [(u if sign > 0 else self.vec_scale(u, self.const(-1)), w)
                             for u, w in b.outers]
        return Matrix(self.add(a.alpha, b.alpha, sign), self.add(a.beta, b.beta, sign), outers)

    def mat_scale(self, a: Matrix, c: Scalar) -> Matrix:
        return Matrix(self.mul(a.alpha, c), self.mul(a.beta, c),
                      [(self.vec_scale(u, c), w) for u, w in a.outers])

    def mat_all(self, c: Scalar) -> Matrix:
        """c · 11ᵀ (a scalar broadcast over a matrix)."""
        return Matrix(self.const(0), self.const(0), [(self.vec_scale(self.ones(), c), self.ones())])

    def mat_vec(self, a: Matrix, v: Vector) -> Vector:
        out = self.vec_scale(v, a.alpha)
        if not a.beta.is_zero():
            out = self.vec_add(out, self.vec_scale(self.apply_h(v), a.beta))
        for u, w in a.outers:
            out = self.vec_add(out, self.vec_scale(u, self.dot(w, v)))
        return out

    def transpose(self, a: Matrix) -> Matrix:
        return Matrix(a.alpha, a.beta, [(w, u) for u, w in a.outers])

    def mat_mat(self, a: Matrix, b: Matrix) -> Matrix:
        if not a.beta.is_zero() and not b.beta.is_zero():
            raise OutsideFragment("uses H @ H (a product of the symmetric input with itself)")
        alpha = self.mul(a.alpha, b.alpha)
        beta = self.add(self.mul(a.alpha, b.beta), self.mul(a.beta, b.alpha))
        outers = []
        for u, w in b.outers:  # a @ u wᵀ = (a u) wᵀ
            outers.append((self.mat_vec(a, u), w))
        for u, w in a.outers:  # u wᵀ (α' I + β' H) = u (α' w + β' H w)ᵀ
            right = self.vec_scale(w, b.alpha)
            if not b.beta.is_zero():
                right = self.vec_add(right, self.vec_scale(self.apply_h(w), b.beta))
            outers.append((u, right))
        return Matrix(alpha, beta, [(u, w) for u, w in outers if u.terms and w.terms])

    # ---------- derivatives
    def grad(self, f: Scalar, x: int) -> Vector:
        """∇ₓ f for a vector generator x (an input), by the chain rule over f's atoms."""
        out = Vector({})
        for a in sorted(P.variables(f.n) | P.variables(f.d)):
            g_atom = self.atom_grad(a, x)
            if not g_atom.terms:
                continue
            dn, dd = P.derivative(f.n, a), P.derivative(f.d, a)
            partial = self.normal(P.add(P.mul(dn, f.d), P.mul(f.n, dd), -1), P.mul(f.d, f.d))
            out = self.vec_add(out, self.vec_scale(g_atom, partial))
        return out

    def derivative(self, f: Scalar, x: int) -> Scalar:
        """∂f/∂x for a scalar input's atom x, by the chain rule over f's atoms: x itself,
        and a root through its radicand (∂r = ∂R/(2r)); m and a batch sum (a sum of
        vector monomials) do not depend on a scalar input."""
        out = self.const(0)
        for a in sorted(P.variables(f.n) | P.variables(f.d)):
            d_atom = self.atom_derivative(a, x)
            if d_atom.is_zero():
                continue
            dn, dd = P.derivative(f.n, a), P.derivative(f.d, a)
            if not dd:  # (the quotient rule's d² would carry a root's square in the denominator)
                partial = self.normal(dn, f.d)
            else:
                partial = self.normal(P.add(P.mul(dn, f.d), P.mul(f.n, dd), -1), P.mul(f.d, f.d))
            out = self.add(out, self.mul(partial, d_atom))
        return out

    def atom_derivative(self, a: int, x: int) -> Scalar:
        if a == x:
            return self.const(1)
        if self.atoms[a][0] != "r":
            return self.const(0)
        if (a, ("d", x)) not in self._grad_cache:
            rn, rd = self.roots[a]
            inner = self.derivative(Scalar(rn, rd), x)
            self._grad_cache[(a, ("d", x))] = self.mul(inner, self.div(self.const(Fraction(1, 2)), self.var(a)))
        return self._grad_cache[(a, ("d", x))]

    def atom_grad(self, a: int, x: int) -> Vector:
        if (a, x) in self._grad_cache:
            return self._grad_cache[(a, x)]
        desc = self.atoms[a]
        if desc[0] == "S":
            out = self._sum_grad(desc[2], x)
        elif desc[0] == "r":
            rn, rd = self.roots[a]
            inner = self.grad(Scalar(rn, rd), x)
            out = self.vec_scale(inner, self.div(self.const(Fraction(1, 2)), self.var(a)))
        else:
            out = Vector({})
        self._grad_cache[(a, x)] = out
        return out

    def _depends(self, mono: tuple, x: int) -> bool:
        return any(g == x or self.gens[g][0] == "H" and self._depends(self.gens[g][1], x)
                   for g, _ in mono)

    def _mono_derivative(self, mono: tuple, x: int) -> Vector:
        """∂(monomial)/∂x entrywise, for a monomial whose H-generators do not involve x."""
        here = dict(mono)
        e = here.get(x, 0)
        if not e:
            return Vector({})
        if e == 1:
            del here[x]
        else:
            here[x] = e - 1
        return Vector({tuple(sorted(here.items())): self.const(e)})

    def _sum_grad(self, mono: tuple, x: int) -> Vector:
        if not self._depends(mono, x):
            return Vector({})
        hs = [(g, e) for g, e in mono if self.gens[g][0] == "H"]
        if not any(self._depends(self.gens[g][1], x) for g, _ in hs):
            return self._mono_derivative(mono, x)
        if len(hs) != 1 or hs[0][1] != 1:
            raise OutsideFragment("uses a derivative through more than one application of H")
        g = hs[0][0]
        u = tuple(t for t in mono if t[0] != g)
        w = self.gens[g][1]
        if any(self.gens[k][0] == "H" for k, _ in u + w):
            raise OutsideFragment("uses a derivative through H applied to H")
        # ∇ S[u∘H(w)] = u'∘H(w) + w'∘H(u) (H symmetric)
        hw = Vector({((g, 1),): self.const(1)})
        hu = Vector({((self.gen(("H", u)), 1),): self.const(1)})
        return self.vec_add(self.vec_mul(self._mono_derivative(u, x), hw),
                            self.vec_mul(self._mono_derivative(w, x), hu))


def _lead(p):
    """The coefficient of p's greatest monomial in the prover's order (sorted (variable,
    exponent) tuples, not flint's): the scale _radicand_inverse divides both sides by."""
    return max(p.f.terms(), key=lambda term: P.sparse(term[0]))[1]


def _rational_sqrt(value: Fraction):
    if value < 0:
        return None
    from math import isqrt
    n, d = value.numerator, value.denominator
    rn, rd = isqrt(n), isqrt(d)
    return Fraction(rn, rd) if rn * rn == n and rd * rd == d else None
