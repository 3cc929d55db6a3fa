"""Exact values of programs whose irrational steps are square roots of rationals, in a
multiquadratic field Q(√g_1, ..., √g_k), where "= 0" and the sign are decided by algebra:
intervals can never exclude an exact 0 such as Σ ŷ_b² − m with σ = √(σ²).

An element is a dict {S: c_S} from bit masks S over the generators to nonzero Fractions,
the value Σ_S c_S √n_S with n_S = Π_{i∈S} g_i.  The generators are pairwise coprime
integers > 1, none a perfect square, and then the representation is unique, so a value
is 0 exactly when its dict is empty (and rational exactly when only S = 0 is left):

  * n_S is a square only for S = ∅ (coprime factors of a square are squares, and no g_i
    is one), and n_S n_T = n_{S△T} (Π_{i∈S∩T} g_i)², so distinct S, T give n_S, n_T in
    distinct classes modulo squares: n_S = s_S² f_S with pairwise distinct square-free f_S;
  * square roots of distinct square-free positive integers are linearly independent over
    Q (Besicovitch 1940), so Σ_S c_S s_S √f_S = 0 forces every c_S = 0.
  * Hence also [Q(√g_1..√g_k) : Q(√g_1..√g_{k-1})] = 2, so √g_k ↦ −√g_k is a field
    automorphism, x·conj(x) ≠ 0 for x ≠ 0, and inverses are found one generator at a time.

√q for a rational q = a/b > 0 that is no square is √(ab)/b; ab joins the generators by
coprime refinement (a pair x, y with g = gcd(x, y) > 1 becomes x/g, g, y/g until all are
pairwise coprime; perfect squares drop out, their roots being rational) and every stored
value is rewritten over the refined generators, so no factoring is needed.  The sign of a
nonzero element: each √n_S enclosed by isqrt(n_S·4^b)/2^b, b doubling until the sum
excludes 0, which ends because the value is not 0.

Not handled (the value is None: the caller's intervals decide, or the fact stays
undecided; never a value): square roots of irrational values (√(3 + 2√2) = 1 + √2 stays
None), transcendental steps except at their rational points, more than MAX_GENERATORS
generators, radicands beyond MAX_RADICAND_BITS bits, coordinates beyond the checker's size
limit, a sign not found by MAX_SIGN_BITS, more than MAX_TERMS coordinate operations in all.
Big-number work is charged on the checker's work counter.

This is the checker's one representation of exact algebraic values: a program's steps
(Field, below) and the formulas' residuals (Number, root(), sign(): Q(√r) is the case
k = 1) both live here.  It is written for the checker alone (coprime refinement in place
of the producer's flint root relations), so a mistake in bnproof's exact algebra is not
repeated in the judge of its output."""

from fractions import Fraction
from math import gcd, isqrt

MAX_GENERATORS, MAX_RADICAND_BITS, MAX_SIGN_BITS = 12, 4096, 1 << 17
MAX_TERMS, MAX_REFINE = 2_000_000, 4096  # interpreter-level operations: a time bound
ABSENT = object()  # a guarded value whose condition is < 0


def rational_sqrt(q: Fraction) -> Fraction | None:
    """sqrt(q) if q >= 0 is the square of a rational, else None (q is in lowest
    terms, so it is a square exactly when numerator and denominator are)."""
    if q < 0:
        return None
    a, b = isqrt(q.numerator), isqrt(q.denominator)
    return Fraction(a, b) if a * a == q.numerator and b * b == q.denominator else None


class GiveUp(Exception):
    """Beyond the field's limits: this value and every later one are None."""


def bits(x: dict) -> int:
    return max((max(abs(c.numerator), c.denominator).bit_length() for c in x.values()), default=1)


def square(n: int) -> bool:
    return isqrt(n) ** 2 == n


def coprime(nums: list, spend) -> list | None:
    """Pairwise coprime integers > 1 of which each of nums (> 1) is a product of powers;
    spend(terms, bits) is charged the gcds of each round."""
    base, rounds = set(nums), 0
    while True:
        ordered = sorted(base)
        spend(len(ordered) ** 2, ordered[-1].bit_length())
        pair = next(((x, y) for i, x in enumerate(ordered) for y in ordered[i + 1:] if gcd(x, y) > 1), None)
        if pair is None:
            return ordered
        rounds += 1
        if rounds > MAX_REFINE:
            return None
        x, y = pair
        g = gcd(x, y)
        base = (base - {x, y}) | {x // g, g, y // g}
        base.discard(1)


def express(x: int, base: list, spend) -> dict:
    """The exponent of each base element in x (pairwise coprime base: unique)."""
    out = {}
    for p in base:
        spend(1, x.bit_length())
        while x % p == 0:
            spend(1, x.bit_length())
            x //= p
            out[p] = out.get(p, 0) + 1
    assert x == 1, "coprime() covers its inputs"
    return out


class Field:
    """The exact values of the steps of a checked program (lazily, over the cone of a
    requested step), with `charge(units)` the checker's work counter and `rational_at`
    the points where a transcendental step is rational."""

    def __init__(self, ops: list, charge, max_bits: int, rational_at: dict, terms: int = MAX_TERMS):
        self.ops, self.charge, self.max_bits, self.rational_at = ops, charge, max_bits, rational_at
        self.gens, self.memo, self.signs, self.prods = [], {}, {}, {}
        self.terms, self.dead = terms, False

    def spend(self, terms: int, bit_length: int) -> None:
        self.terms -= terms
        if self.terms < 0:
            raise GiveUp
        self.charge(terms * bit_length * bit_length)

    def value(self, j: int):
        """Step j's element, ABSENT, or None (not in the field, or beyond its limits)."""
        if j not in self.memo:
            todo, stack = set(), [j]
            while stack:
                i = stack.pop()
                if i not in self.memo and i not in todo:
                    todo.add(i)
                    stack.extend(self.ops[i][1])
            for i in sorted(todo):  # operands precede their step
                try:
                    self.memo[i] = None if self.dead else self.step(i)
                except GiveUp:
                    self.dead, self.memo[i] = True, None
        return self.memo[j]

    def sign(self, j: int, minus=0) -> int | None:
        """The exact sign of step j's value minus a rational, or None."""
        if (j, minus) not in self.signs:
            x = self.value(j)
            try:
                self.signs[j, minus] = None if x is None or x is ABSENT else \
                    self.sign_of(self.add(x, self.constant(-minus)) if minus else x)
            except GiveUp:
                self.dead, self.signs[j, minus] = True, None
        return self.signs[j, minus]

    def equals(self, j: int, ours) -> bool | None:
        """Whether step j equals ours (a Fraction or a Number) exactly; None if either
        is not in the field."""
        try:
            if self.value(j) is None or self.value(j) is ABSENT:
                return None
            e = self.constant(ours) if type(ours) is not Number else {}
            for c, n in ours.terms() if type(ours) is Number else ():  # Σ c √n, each √n here
                r = self.root(Fraction(n))
                if r is None:
                    return None
                e = self.add(e, self.mul(r, self.constant(c)))
            return not self.add(self.memo[j], self.neg(e))  # root() may have moved memo[j]
        except GiveUp:
            self.dead = True
            return None

    def step(self, i: int):
        op, ix, n = self.ops[i]
        if op == "const":
            return self.constant(n)
        xs = [self.memo[j] for j in ix]
        if op == "guard":
            v, g = xs
            if v is None or g is None or g is ABSENT:
                return None
            if v is ABSENT:
                return ABSENT
            s = self.sign_of(g)
            return None if s is None else v if s >= 0 else ABSENT
        if op == "min" and any(x is ABSENT for x in xs):
            return xs[1] if xs[0] is ABSENT else xs[0]
        if any(x is None or x is ABSENT for x in xs):
            return None
        out = self.arithmetic(op, xs, n)
        return None if out is None or bits(out) > self.max_bits else out

    def arithmetic(self, op: str, xs: list, n):
        if not xs:  # π
            return None
        x = xs[0]
        if op in ("add", "sub"):
            return self.add(x, xs[1] if op == "add" else self.neg(xs[1]))
        if op == "neg":
            return self.neg(x)
        if op == "mul":
            return self.mul(x, xs[1])
        if op == "div":
            return self.mul(x, self.inverse(xs[1])) if xs[1] else None
        if op == "pow":
            out = {0: Fraction(1)}
            for _ in range(n):
                out = self.mul(out, x)
            return out
        if op in ("abs", "max", "min"):
            s = self.sign_of(x if op == "abs" else self.add(x, self.neg(xs[1])))
            if s is None:
                return None
            return (x if s >= 0 else self.neg(x)) if op == "abs" else x if (s >= 0) == (op == "max") else xs[1]
        rational = None if set(x) - {0} else x.get(0, Fraction(0))
        if rational is None:  # √ of an irrational, or a transcendental of one
            return None
        if op == "sqrt":
            return None if rational < 0 else self.root(rational) if rational else {}
        if op in self.rational_at and rational == self.rational_at[op][0]:
            return self.constant(self.rational_at[op][1])
        return None  # π, or a transcendental value at any other rational

    def add(self, x: dict, y: dict) -> dict:
        self.spend(len(x) + len(y), max(bits(x), bits(y)))
        out = dict(x)
        for s, c in y.items():
            out[s] = out.get(s, 0) + c
        return {s: c for s, c in out.items() if c}

    @staticmethod
    def constant(q) -> dict:
        return {0: Fraction(q)} if q else {}

    @staticmethod
    def neg(x: dict) -> dict:
        return {s: -c for s, c in x.items()}

    def prod(self, mask: int) -> int:
        if mask not in self.prods:
            p = 1
            for i, g in enumerate(self.gens):
                if mask >> i & 1:
                    p *= g
            self.prods[mask] = p
        return self.prods[mask]

    def mul(self, x: dict, y: dict) -> dict:
        self.spend(len(x) * len(y), bits(x) + bits(y) + self.prod((1 << len(self.gens)) - 1).bit_length())
        out = {}
        for s, a in x.items():
            for t, b in y.items():
                c = a * b * self.prod(s & t) if s & t else a * b
                out[s ^ t] = out.get(s ^ t, 0) + c
        return {s: c for s, c in out.items() if c}

    def inverse(self, x: dict) -> dict:
        """1/x for x != 0: x = a + b √g_t for the last generator t in x, and
        1/x = (a − b √g_t) / (a² − g_t b²), the denominator free of g_t and nonzero."""
        used = 0
        for s in x:
            used |= s
        if not used:
            return {0: 1 / x[0]}
        t = 1 << used.bit_length() - 1
        conj = {s: -c if s & t else c for s, c in x.items()}
        return self.mul(conj, self.inverse(self.mul(x, conj)))

    def sign_of(self, x: dict) -> int | None:
        if set(x) <= {0}:
            c = x.get(0, 0)
            return (c > 0) - (c < 0)
        if len(self.gens) == 1:  # a + b √g: when the signs differ, the larger of a², b² g wins
            a, b = x.get(0, Fraction(0)), x[1]
            sa, sb = (a > 0) - (a < 0), (b > 0) - (b < 0)
            self.spend(1, 2 * bits(x) + self.gens[0].bit_length())
            return (sa or sb) if sa * sb >= 0 else sa if a * a > b * b * self.gens[0] else sb
        terms = [(c.numerator, c.denominator, self.prod(s)) for s, c in x.items()]
        b = 64
        while b <= MAX_SIGN_BITS:
            self.spend(len(terms), bits(x) + 2 * b + max(n for _, _, n in terms).bit_length())
            lo = hi = 0
            for p, q, n in terms:  # r <= √n 2^b < r + 1, equality when exact
                r = isqrt(n << 2 * b)
                ends = (p * r, p * r) if r * r == n << 2 * b else (p * r, p * (r + 1))
                lo += min(ends) // q
                hi += -(-max(ends) // q)
            if lo > 0 or hi < 0:
                return 1 if lo > 0 else -1
            b *= 2
        return None

    def root(self, q: Fraction) -> dict | None:
        """√q for a rational q > 0, refining the generators (and rewriting every stored
        value over them) when q's radicand shares a factor with one."""
        r = rational_sqrt(q)
        if r is not None:
            return {0: r}
        n = q.numerator * q.denominator  # √(a/b) = √(ab)/b, and ab is no square
        if n.bit_length() > MAX_RADICAND_BITS:
            return None
        base = coprime(self.gens + [n], self.spend)
        if base is None:
            return None
        kept = [g for g in self.gens if g in base]  # old indices stay where they can
        new = kept + [p for p in base if p not in kept and not square(p)]
        if len(new) > MAX_GENERATORS:
            return None

        def rewrite(x: int) -> tuple:  # √x = c √(Π_{i∈mask} new_i)
            c, mask = Fraction(1), 0
            for p, e in express(x, base, self.spend).items():
                if square(p):
                    c *= isqrt(p) ** e
                else:
                    c *= p ** (e // 2)
                    mask |= (e % 2) << new.index(p)
            return c, mask

        if len(kept) < len(self.gens):  # a generator split: every stored value moves
            maps = [rewrite(g) for g in self.gens]
            self.spend(sum(len(v) for v in self.memo.values() if type(v) is dict), 64)
            self.memo = {j: v if type(v) is not dict else self.remap(v, maps)
                         for j, v in self.memo.items()}
        self.gens, self.prods = new, {}
        c, mask = rewrite(n)
        return {mask: c / q.denominator}

    @staticmethod
    def remap(x: dict, maps: list) -> dict:
        """Masks over the old generators to masks over the new: distinct old generators
        rewrite to disjoint nonempty masks, so distinct masks stay distinct."""
        out = {}
        for s, v in x.items():
            mask, c = 0, v
            for i, (ci, mi) in enumerate(maps):
                if s >> i & 1:
                    mask, c = mask | mi, c * ci
            out[mask] = c
        return out


class Number:
    """An element of a Field that is not a program's (one made by root() below), with
    the arithmetic of Fractions: a formula is written as it is printed, and a value
    whose irrational part cancels is a Fraction again.  Values over other generators never
    meet (a formula takes its roots of one radicand, by design)."""

    __slots__ = ("field", "x")

    def __init__(self, field: Field, x: dict):
        self.field, self.x = field, x

    def terms(self) -> list:
        """[(c, n)]: the value Σ c √n, each n a product of the field's generators."""
        return [(c, self.field.prod(s)) for s, c in sorted(self.x.items())]

    def _of(self, o) -> dict:
        if type(o) is Number:
            if o.field.gens != self.field.gens:  # the same generators: the same masks
                raise ValueError("values of two different fields")
            return o.x
        return self.field.constant(o)

    def _make(self, x: dict):
        return Number(self.field, x) if set(x) - {0} else x.get(0, Fraction(0))

    def __add__(self, o):
        return self._make(self.field.add(self.x, self._of(o)))

    def __sub__(self, o):
        return self._make(self.field.add(self.x, self.field.neg(self._of(o))))

    def __rsub__(self, o):
        return self._make(self.field.add(self._of(o), self.field.neg(self.x)))

    def __mul__(self, o):
        return self._make(self.field.mul(self.x, self._of(o)))

    def __truediv__(self, o):
        o = self._of(o)
        if not o:
            raise ZeroDivisionError("division by an exact 0")
        return self._make(self.field.mul(self.x, self.field.inverse(o)))

    def __rtruediv__(self, o):
        return self._make(self.field.mul(self._of(o), self.field.inverse(self.x)))

    def __neg__(self):
        return Number(self.field, self.field.neg(self.x))

    __radd__, __rmul__ = __add__, __mul__


def root(r: Fraction):
    """sqrt(r) for r > 0: a Fraction when r is a rational square, else a Number in a
    field of its own, Q(√(ab)) for r = a/b in lowest terms (ab is no square, a and b being
    coprime and not both squares), √r = √(ab)/b.  A formula's work is bounded before it
    starts (formulas.py), so this field has no term or radicand limit of its own."""
    r = Fraction(r)
    q = rational_sqrt(r)
    if q is not None:
        return q
    field = Field([], lambda units: None, 0, {}, terms=float("inf"))  # no steps: no max_bits
    field.gens = [r.numerator * r.denominator]
    return Number(field, {1: Fraction(1, r.denominator)})


def sign(x) -> int:
    """The exact sign of a Fraction or a Number."""
    if type(x) is Number:
        s = x.field.sign_of(x.x)
        if s is None:
            raise ValueError("a sign beyond the field's limits")
        return s
    return (x > 0) - (x < 0)
