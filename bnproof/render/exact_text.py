"""Exact values and Lemma 4.5's closed forms in SymPy's printed form, without SymPy.

The report and `--json` show exact values as SymPy's `str()` writes them
("-54*sqrt(74)/1369", "sqrt(2*w1**2 + 6*w1*w2 + 6*w2**2)/3").  Importing
SymPy costs more than the whole exact derivation, so this module writes the
same strings from the engine's own numbers: rationals, a + b√r, and
polynomials of degree ≤ 2 in the weights.

It reproduces SymPy's choices where they show in the text: the order of an
Add's terms (`as_ordered_terms`: monomials in lexicographic order over the
names sorted as strings, so w10 comes before w2; numbers by value; the
"2 - 3*x" special case), the reduction of √n (SymPy factors n only by trial
division up to 2¹⁵, so a square factor above that can stay inside the root;
beyond the bound this module decides by a rule of its own, see _integer_sqrt,
which keeps every text exact), the content that `factor` pulls out, and how a
product prints (numerator, then "/" and a parenthesised denominator).  Where
it cannot be sure of SymPy's text (two terms whose order SymPy takes from
nearly equal floats, a σ(w) with one term, which SymPy writes with Abs), it
raises Unsupported and the caller asks SymPy itself; tests/test_exact_text.py
compares the two on many instances.  Nothing here parses text.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter

# SymPy's Integer._eval_power factors √n by trial division up to this bound.
TRIAL_LIMIT = 1 << 15
# A loss is written out as a sum, one term per sample, up to this batch size
# (exact.symbolic's bound too; a test holds them equal).
MAX_TERMS_SHOWN = 12


class Unsupported(Exception):
    """A value or form whose SymPy text this module does not reproduce for sure."""


def fraction(x) -> Fraction:
    """An fmpq, int or Fraction as a Fraction."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    p, q = int(x.p), int(x.q)
    return Fraction(p) if q == 1 else Fraction(p, q)  # an integer needs no gcd


def rational(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


# -- square roots ---------------------------------------------------------------

@lru_cache(maxsize=1)
def _small_primes() -> tuple[list[int], list[list[int]]]:
    """The primes up to TRIAL_LIMIT and their product tree (leaves first)."""
    sieve = bytearray([1]) * (TRIAL_LIMIT + 1)
    sieve[0] = sieve[1] = 0
    for p in range(2, math.isqrt(TRIAL_LIMIT) + 1):
        if sieve[p]:
            sieve[p * p::p] = bytes(len(range(p * p, TRIAL_LIMIT + 1, p)))
    level = [p for p in range(TRIAL_LIMIT + 1) if sieve[p]]
    tree = [level]
    while len(level) > 1:
        level = [math.prod(level[i:i + 2]) for i in range(0, len(level), 2)]
        tree.append(level)
    return tree[0], tree


def _small_factors(n: int) -> list[int]:
    """The primes up to TRIAL_LIMIT that divide n, ascending: the product tree is
    descended only where a gcd shows a factor, a few gcds per prime found, where
    dividing by every odd number up to the bound took 20 ms for a 3400-bit n."""
    primes, tree = _small_primes()
    found, todo = [], [(len(tree) - 1, 0, n)]
    while todo:
        depth, i, rest = todo.pop()
        g = math.gcd(rest, tree[depth][i])
        if g == 1:
            continue
        if depth == 0:
            found.append(primes[i])
            continue
        below = tree[depth - 1]
        todo.extend((depth - 1, j, g) for j in (2 * i + 1, 2 * i) if j < len(below))
    return sorted(found)


@lru_cache(maxsize=256)  # the 64 entries of a d = 64 gradient share one radicand
def _integer_sqrt(n: int) -> tuple[int, int]:
    """(k, s) with √n = k√s, n > 0: the primes up to TRIAL_LIMIT taken out, as
    SymPy's trial division takes them; the rest of n (no prime factor up to the
    bound) written b^e with e as large as can be, as SymPy's perfect-power tests
    write it, and b^(e // 2) taken out.

    Where b is 1 or a prime, s is squarefree: k√s is the reduced form, the one
    SymPy writes.  A composite b (above TRIAL_LIMIT², such as the 1700-bit
    radicands of a 1000 × 64 instance) is not split further, since a square
    factor in it can only be found by factoring it: k√s is still √n exactly, and
    it is the text SymPy writes unless its own search beyond the bound (Pollard's
    methods for a few steps, a factor cache that depends on what the process
    factored before) finds a prime above the bound more than once in b.  The
    text is so a function of n alone, and needs no SymPy and no primality test
    (a prime b and an unsplit one are written alike)."""
    root = math.isqrt(n)
    if root * root == n:
        return root, 1
    outside, inside, rest = 1, 1, n
    for p in _small_factors(n):
        e = 0
        while rest % p == 0:
            rest //= p
            e += 1
        outside *= p ** (e // 2)
        inside *= p ** (e % 2)
    base, e = _power(rest)
    return outside * base ** (e // 2), inside * base ** (e % 2)


def _power(n: int) -> tuple[int, int]:
    """(b, e) with n = b^e, e as large as can be, for n >= 1 without a prime factor up
    to TRIAL_LIMIT: so b > TRIAL_LIMIT where n > 1, and e < n.bit_length() / 15."""
    import flint

    base, e = flint.fmpz(n), 1
    while base > 1 and base.is_perfect_power():
        k = next((k for k in _small_primes()[0] if k <= base.bit_length() // 15 and base.root(k) ** k == base),
                 None)
        if k is None:  # never for such an n; guards the loop all the same
            break
        base, e = base.root(k), e * k
    return int(base), e


def sqrt_parts(r: Fraction) -> tuple[Fraction, int]:
    """(c, s) with √r = c√s, s a squarefree integer (1 when √r is rational), r > 0:
    SymPy writes √(p/q) as √p·√q/q and merges the roots into one."""
    kp, sp = _integer_sqrt(r.numerator)
    kq, sq = _integer_sqrt(r.denominator)
    return Fraction(kp * kq, r.denominator), sp * sq


def _float_sqrt(n: int) -> float:
    """√n rounded to the nearest float, as SymPy's evalf gives it."""
    return _nearest(Fraction(n), 1)


def _nearest(t: Fraction, sign: int, a: Fraction = Fraction(0)) -> float:
    """a + sign·√t (t ≥ 0) to the nearest float."""
    return float(_close(t, sign, a))


def _close(t: Fraction, sign: int, a: Fraction = Fraction(0)) -> Fraction:
    """a + sign·√t (t ≥ 0) within a relative 2⁻⁹⁹: each root to 2⁻¹⁰⁰ relative
    precision, and a cancelling sum through its conjugate, (a² − t)/(a − sign·√t)."""
    if t == 0:
        return a

    def root(x: Fraction) -> Fraction:  # √x within a relative 2⁻¹⁰⁰
        shift = max(0, 100 - (x.numerator.bit_length() - x.denominator.bit_length()) // 2)
        return Fraction(math.isqrt((x.numerator << (2 * shift)) // x.denominator), 1 << shift)

    if a == 0 or (a > 0) == (sign > 0):
        return a + sign * root(t)
    return (a * a - t) / (a - sign * root(t))


def close(value) -> Fraction:
    """An exact scalar (Fraction, fmpq or Surd a + b√r) as a rational within a
    relative 2⁻⁹⁹ of it (itself when it is rational)."""
    if hasattr(value, "r"):
        a, b, r = fraction(value.a), fraction(value.b), fraction(value.r)
        if b == 0:
            return a
        return _close(b * b * r, 1 if b > 0 else -1, a)
    return fraction(value)


def to_float(value) -> float:
    """An exact scalar (Fraction, fmpq or Surd a + b√r) as the nearest float;
    OverflowError beyond the float range (see approximation)."""
    return float(close(value))


def _is_float(q: Fraction) -> float | None:
    """q as the nearest float where that float says what q is: finite, and not a
    nonzero q flushed to 0 or to a subnormal's few bits; else None."""
    try:
        f = float(q)
    except OverflowError:
        return None
    if q != 0 and abs(f) < sys.float_info.min:
        return None
    return f


def approximation(value, digits: int = 17) -> float | str:
    """An exact scalar approximated for JSON: the nearest float, or where no float
    can say it (beyond ±1.8e308, or below the normal range) the decimal in
    scientific form, `digits` significant digits, computed from the exact value
    ("1.2345678901234567e+320")."""
    q = close(value)
    f = _is_float(q)
    return f if f is not None else scientific(q, digits)


def approx_text(value, spec: str = ".6g") -> str:
    """An exact scalar approximated for people: format(float, spec) where a float
    holds it (with 6 significant digits, not a long row of them, past 10¹⁵), else
    scientific form from the exact value."""
    q = close(value)
    f = _is_float(q)
    if f is None:
        return scientific(q, 6)
    if spec.endswith("f") and abs(f) >= 1e15:
        spec = ".6g"
    return format(f, spec)


def scientific(q: Fraction, digits: int) -> str:
    """q in scientific form with `digits` significant digits (trailing zeros
    dropped, as Python's "g" writes them: 1.5e+320), by integer arithmetic."""
    if q == 0:
        return "0"
    sign, q = ("-" if q < 0 else ""), abs(q)
    e = (q.numerator.bit_length() - q.denominator.bit_length()) * 30103 // 100000  # ≈ log10
    while q >= Fraction(10) ** (e + 1):
        e += 1
    while q < Fraction(10) ** e:
        e -= 1
    n = round(q / Fraction(10) ** (e - digits + 1))  # digits digits, the last rounded
    if n == 10 ** digits:
        n, e = n // 10, e + 1
    text = str(n)
    tail = text[1:].rstrip("0")
    return f"{sign}{text[0]}{'.' + tail if tail else ''}e{'+' if e >= 0 else '-'}{abs(e):02d}"


def number(value) -> str:
    """An exact scalar as SymPy prints it: "-72/17", "201 - 118*sqrt(74)/37"."""
    if not hasattr(value, "r"):
        return rational(fraction(value))
    a, b = fraction(value.a), fraction(value.b)
    if b == 0:
        return rational(a)
    c, s = sqrt_parts(fraction(value.r))
    c *= b
    if s == 1:
        return rational(a + c)
    term = _mul(c, [f"sqrt({s})"], [])
    if a == 0:
        return term
    # Add(a, c·√s): a positive number before a negative multiple reads "a - k*sqrt(s)";
    # otherwise SymPy orders the two numbers by their float values.
    if a > 0 and c < 0:
        return _joined([rational(a), term])
    fa, fc = _sort_floats(a, c, s)
    return _joined([rational(a), term] if fa < fc else [term, rational(a)])


def _sort_floats(a: Fraction, c: Fraction, s: int) -> tuple[float, float]:
    """The floats SymPy sorts a and c·√s by (complex(a), complex(c)·complex(√s)),
    where this module computes the same ones.  Not where a float overflows, nor
    below the normal range (SymPy rounds there twice: to 53 bits, then to the
    subnormal), nor where the two lie within a few ulps (√s's last bit may differ)."""
    try:
        fa, fcoeff, fc = float(a), float(c), float(c) * _float_sqrt(s)
    except OverflowError:
        raise Unsupported("a term beyond the float range") from None
    if not all(math.isfinite(x) and abs(x) >= sys.float_info.min for x in (fa, fcoeff, fc)):
        raise Unsupported("a term beyond or below the normal float range")
    if abs(fa - fc) <= 4 * math.ulp(max(abs(fa), abs(fc))):
        raise Unsupported("two terms SymPy orders by equal or nearly equal floats")
    return fa, fc


# -- products and sums, as SymPy's StrPrinter writes them -------------------------

def _mul(coeff: Fraction, numerator: list[str], denominator: list[str]) -> str:
    """coeff·Π numerator / Π denominator; the pieces already parenthesised."""
    sign = "-" if coeff < 0 else ""
    c = abs(coeff)
    top = ([str(c.numerator)] if c.numerator != 1 else []) + numerator or ["1"]
    bottom = ([str(c.denominator)] if c.denominator != 1 else []) + denominator
    text = sign + "*".join(top)
    if not bottom:
        return text
    return text + "/" + (bottom[0] if len(bottom) == 1 else "(" + "*".join(bottom) + ")")


def _joined(terms: list[str]) -> str:
    """An Add's printed terms, in order: "a - b + c"."""
    out = []
    for t in terms:
        out += ["-", t[1:]] if t.startswith("-") else ["+", t]
    first = out.pop(0)
    return ("-" if first == "-" else "") + " ".join(out)


# A polynomial: {exponents (one per weight w1, …, wd): Fraction coefficient}.

def _names(d: int) -> list[str]:
    return list(_name_tuple(d))


# Both cached: a d = 64 loss has 2080 monomials, each written with every weight's name
# and SymPy's order of them, which took half of the closed forms' time.
@lru_cache(maxsize=8)
def _name_tuple(d: int) -> tuple[str, ...]:
    return tuple(f"w{i + 1}" for i in range(d))


@lru_cache(maxsize=8)
def _string_order(d: int) -> tuple[int, ...]:
    """The weights in the order SymPy sorts symbols: by name as a string."""
    return tuple(sorted(range(d), key=lambda i: f"w{i + 1}"))


@lru_cache(maxsize=4096)  # a d = 64 report writes the 2080 quadratic monomials twice
def _monomial(exps: tuple[int, ...]) -> tuple[str, ...]:
    names = _name_tuple(len(exps))
    return tuple(names[i] if exps[i] == 1 else f"{names[i]}**{exps[i]}"
                 for i in _string_order(len(exps)) if exps[i])


def _term(coeff: Fraction, exps: tuple[int, ...]) -> str:
    factors = _monomial(exps)
    return _mul(coeff, list(factors), []) if factors else rational(coeff)


def poly_text(poly: dict) -> str:
    """A polynomial as SymPy prints the expanded expression."""
    terms = [(e, c) for e, c in poly.items() if c != 0]
    if not terms:
        return "0"
    if len(terms) == 2:
        const = [t for t in terms if not any(t[0])]
        other = [t for t in terms if any(t[0])]
        # as_ordered_terms' special case: Add(positive number, Mul(negative number, x)),
        # where the Mul has exactly those two factors
        if const and const[0][1] > 0 and other[0][1] < 0 and sum(1 for x in other[0][0] if x) == 1:
            return _joined([rational(const[0][1]), _term(other[0][1], other[0][0])])
    exponents = itemgetter(*_string_order(len(terms[0][0])))  # a tuple, or one int when d = 1
    terms.sort(key=lambda t: exponents(t[0]), reverse=True)
    return _joined([_term(c, e) for e, c in terms])


def _is_sum(poly: dict) -> bool:
    return sum(1 for c in poly.values() if c != 0) > 1


def _linear(coeffs: list[Fraction], constant: Fraction = Fraction(0)) -> dict:
    d = len(coeffs)
    out = {tuple(int(k == i) for k in range(d)): c for i, c in enumerate(coeffs) if c != 0}
    if constant != 0:
        out[(0,) * d] = constant
    return out


def _quadratic(rows: list[list[Fraction]]) -> dict:
    """Σ rows[i][k]·wᵢw_k, each pair i ≤ k once."""
    out = {}
    for i, k, e in _pairs(len(rows)):
        c = rows[i][i] if i == k else rows[i][k] + rows[k][i]
        if c != 0:
            out[e] = c
    return out


@lru_cache(maxsize=8)
def _pairs(d: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """(i, k, the exponents of wᵢw_k) for i ≤ k: 2080 tuples at d = 64, built once."""
    out = []
    for i in range(d):
        for k in range(i, d):
            e = [0] * d
            e[i] += 1
            e[k] += 1
            out.append((i, k, tuple(e)))
    return out


def _squared(poly: dict) -> str:
    """(p)**2 as SymPy evaluates it: a number or a single term is squared out."""
    terms = {e: c for e, c in poly.items() if c != 0}
    if not terms:
        return "0"
    if len(terms) == 1:
        (e, c), = terms.items()
        return poly_text({tuple(2 * x for x in e): c * c})
    return f"({poly_text(terms)})**2"


def _content(coeffs: list[Fraction]) -> Fraction:
    """gcd of the numerators over lcm of the denominators (positive), as SymPy's QQ."""
    num, den = 0, 1
    for c in coeffs:
        num = math.gcd(num, c.numerator)
        den = den * c.denominator // math.gcd(den, c.denominator)
    return Fraction(num, den)


# -- the closed forms of one neuron -----------------------------------------------

@dataclass(frozen=True)
class FormsText:
    """Lemma 4.5's closed forms in the weights w1, …, wd, as the report prints them."""

    w: list[str]
    mu: str
    sigma: str
    loss: str  # C(w), expanded
    loss_terms: list[str] | None  # C(w) = s·Σ terms, one per sample, when the batch is short
    bn_loss_terms: list[str] | None  # Ĉ(w) = s·Σ terms, when short
    bn_loss_reduced: str  # Ĉ(w) = s·K − s·2γ⟨c, w⟩/σ(w), its constant first


def closed_forms_text(neuron, max_terms: int) -> FormsText:
    """The texts exact.symbolic.closed_forms gives through SymPy's printer."""
    from ..exact.linalg import rows_of

    d, m = neuron.d, neuron.m
    s, gamma, beta = fraction(neuron.scale), fraction(neuron.gamma), fraction(neuron.beta)
    mean = [fraction(v) for v in neuron.x_mean.entries()]
    scaled, den = _integral(neuron.gram_c)
    var = _quadratic(scaled)  # den·m·σ(w)², integers
    if len(var) < 2:
        raise Unsupported("σ(w) with fewer than two terms (SymPy writes |w_i|)")
    g = math.gcd(*var.values())
    k, radical = sqrt_parts(Fraction(g, den * m))  # the content of σ(w)²
    radicand = {e: c // g * radical for e, c in var.items()}  # σ(w)² over its content
    root = f"sqrt({poly_text(radicand)})"
    sigma = _mul(k, [root], [])

    loss_terms = bn_terms = None
    if m <= max_terms:  # only a short batch is written sample by sample: X and y themselves
        X = [[fraction(x) for x in row] for row in rows_of(neuron.X)]
        y = [fraction(v) for v in neuron.y.entries()]
        loss_terms = [_squared(_linear(row, -yi)) for row, yi in zip(X, y)]
        bn_terms = [_bn_term(row, mean, k, gamma, beta - yi, root) for row, yi in zip(X, y)]
    # the rest from the neuron's moments (Xᵀy, ‖y‖², Σy, Xcᵀyc), exactly the sums over
    # the samples they stand for, never from the m×d batch: at m = 1000, d = 64 these
    # sums in Fractions took longer than the whole exact derivation
    xty = [fraction(v) for v in neuron.x_targets.entries()]
    y_sum, y_norm2 = fraction(neuron.target_sum), fraction(neuron.target_norm2)
    scaled, den = _integral(neuron.gram)
    loss = _quadratic(scaled if den == 1 else [[Fraction(x, den) for x in row] for row in scaled])
    for e, c in _linear([-2 * v for v in xty], y_norm2).items():
        loss[e] = loss.get(e, Fraction(0)) + c
    if s != 1:
        loss = {e: s * c for e, c in loss.items() if c != 0}
    c_vec = [fraction(v) for v in neuron.centred_cross.entries()]
    K = gamma * gamma * m + y_norm2 - 2 * beta * y_sum + m * beta * beta  # Σ(yᵢ − β)²
    inner = [2 * gamma * v / k * s for v in c_vec]
    reduced = _constant_first(s * K, _over_root(_linear(inner), root, -1))
    return FormsText(_names(d), poly_text(_linear(mean)), sigma, poly_text(loss), loss_terms, bn_terms,
                     reduced)


def _integral(matrix) -> tuple[list[list[int]], int]:
    """(rows, q) with matrix = rows/q in integers, from flint at once: a d = 64 Gram
    matrix's 4096 entries each made a Fraction (a gcd each) took longer."""
    num, den = matrix.numer_denom()
    return [[int(x) for x in row] for row in num.tolist()], int(den)


def _over_root(poly: dict, root: str, sign: int) -> str | None:
    """sign·poly/root as SymPy prints it (poly linear, no constant), or None for 0.
    A sum stays in parentheses with the sign outside; one term keeps its coefficient."""
    terms = {e: c for e, c in poly.items() if c != 0}
    if not terms:
        return None
    if len(terms) == 1:
        (e, c), = terms.items()
        return _mul(sign * c, list(_monomial(e)), [root])
    return _mul(Fraction(sign), [f"({poly_text(terms)})"], [root])


def _constant_first(const: Fraction, rest: str | None) -> str:
    """report.constant_first's text: "201 - (38*w1 + 66*w2)/sqrt(…)"."""
    text = "0" if rest is None else rest
    if const == 0:
        return text
    return f"{rational(const)} - {text[1:]}" if text.startswith("-") else f"{rational(const)} + {text}"


def _bn_term(row, mean, k, gamma, shift, root) -> str:
    """(γ·factor((z_i − μ)/k)/root + β − y_i)**2, as SymPy evaluates and prints it."""
    centred = [(x - mu) / k for x, mu in zip(row, mean)]
    nonzero = [(i, c) for i, c in enumerate(centred) if c != 0]
    d = len(row)
    if gamma == 0 or not nonzero:
        return rational(shift * shift)
    if len(nonzero) == 1:
        (i, c), = nonzero
        coeff, numerator = gamma * c, list(_monomial(tuple(int(j == i) for j in range(d))))
        squared = ([f"{numerator[0]}**2"], coeff * coeff)
    else:
        # factor() pulls out the content, signed so that the first weight (in index
        # order) has a positive coefficient; ±1 leaves the sum as it was, and γ
        # then multiplies into it term by term
        content = _content([c for _, c in nonzero])
        if centred[nonzero[0][0]] < 0:
            content = -content
        if abs(content) == 1:
            coeff, prim = Fraction(1), [gamma * c for c in centred]
        else:
            coeff, prim = gamma * content, [c / content for c in centred]
        numerator = [f"({poly_text(_linear(prim))})"]
        squared = ([f"{numerator[0]}**2"], coeff * coeff)
    if shift == 0:  # (T)**2 with T a product: squared factor by factor, σ² in the denominator
        inside = root[len("sqrt("):-1]
        return _mul(squared[1], squared[0], [f"({inside})"])
    term = _mul(coeff, numerator, [root])
    return f"({_joined([term, rational(shift)])})**2"
