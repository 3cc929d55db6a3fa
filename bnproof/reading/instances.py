"""Exact instances: parsing, sizes, declared domains, and generic instances.

Written here again rather than imported from claims/decide.py, which imports
the program evaluator: the reference reading shares no code with the engine
it checks beyond the claim format (claims/api.py)."""

from __future__ import annotations

import hashlib
import random
import re
from fractions import Fraction

import numpy as np
import symengine as se

MAX_EXPONENT_DIGITS = 5  # "1e99999" is read; "1e999999999" would build a billion-digit integer
MAX_TEXT = 100_000  # characters of one number written as text
MAX_ENTRIES = 100_000  # entries of an instance: a hostile size stops here
INTEGER = re.compile(r"[+-]?\d+(/\d+)?")


class Algebraic:
    """An instance entry that is a real algebraic number in closed form: a symengine
    expression in rationals, + − × ÷ and square roots, no free symbol (an entry solved from
    an equality hypothesis, γ = √(σ²): crosscheck.py).  Only the second reading takes one;
    its comparisons are proved (signs.sign: arb balls, then the exact zero test) and raise
    Inconclusive when undecided, never a guess; float() is its nearest float64 (the float
    readings then see the input rounded, as they see any rational one)."""

    __slots__ = ("e",)

    def __init__(self, e):
        from . import signs

        e = se.sympify(e) if not isinstance(e, se.Basic) else e
        if e.free_symbols or not signs.is_algebraic(e):
            raise ValueError("an algebraic entry has no free symbol and no transcendental constant")
        self.e = e

    def sign(self) -> int:
        from . import signs

        return signs.sign(self.e)

    def __float__(self) -> float:
        from . import signs

        return float(signs.ball(self.e, 128).mid())

    def _cmp(self, o, test) -> bool:
        from . import signs

        o = o.e if isinstance(o, Algebraic) else se.Rational(Fraction(o).numerator, Fraction(o).denominator)
        return test(signs.sign(self.e - o))

    def __lt__(self, o):
        return self._cmp(o, lambda s: s < 0)

    def __le__(self, o):
        return self._cmp(o, lambda s: s <= 0)

    def __gt__(self, o):
        return self._cmp(o, lambda s: s > 0)

    def __ge__(self, o):
        return self._cmp(o, lambda s: s >= 0)

    def __eq__(self, o):
        return self._cmp(o, lambda s: s == 0)

    def __ne__(self, o):
        return self._cmp(o, lambda s: s != 0)

    def __abs__(self):
        return Algebraic(-self.e) if self.sign() < 0 else self

    __hash__ = None

    def __copy__(self):  # immutable
        return self

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return f"Algebraic({self.e})"


def exact_number(x):
    """An instance entry as a Fraction: an int, a Fraction, a float (its exact binary value),
    or text such as "-3/7" or "1.5e-3" with a bounded exponent; an Algebraic stays itself."""
    if isinstance(x, Algebraic):
        return x
    if isinstance(x, (bool, np.bool_)):
        raise TypeError("a truth value is not a number of an instance")
    if isinstance(x, str):
        if len(x) > MAX_TEXT:
            raise ValueError(f"a number of {len(x)} characters is over the limit of {MAX_TEXT}")
        exponent = x.strip().lower().partition("e")[2].lstrip("+-")
        if len(exponent.lstrip("0")) > MAX_EXPONENT_DIGITS:
            raise ValueError(f"the exponent of {x[:40]!r} is too large")
    if isinstance(x, np.integer):
        x = int(x)
    return Fraction(x)


def constant_text(text: str) -> Fraction:
    """A program's ["const", "p/q"]: an integer or a quotient of integers, nothing else."""
    if not isinstance(text, str) or len(text) > MAX_TEXT or not INTEGER.fullmatch(text):
        raise ValueError(f"a program constant must be written p or p/q, got {str(text)[:40]!r}")
    return Fraction(text)


def array_of(entries, shape=None) -> np.ndarray:
    """Nested lists of numbers as an object array of Fractions (of `shape` when given)."""
    arr = np.asarray(entries, dtype=object)
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"expected shape {tuple(shape)}, got {arr.shape}")
    out = np.empty(arr.shape, dtype=object)
    for k in np.ndindex(arr.shape):
        out[k] = exact_number(arr[k])
    return out


def sizes_of(claim, instance: dict, variables=None) -> dict:
    """Each size name's value in the instance, checked consistent across variables."""
    sizes: dict = {}
    entries = 0
    for v in variables if variables is not None else claim.variables:
        if v.name not in instance:
            raise KeyError(f"the instance has no value for {v.name}")
        shape = np.shape(np.asarray(instance[v.name], dtype=object))
        entries += int(np.prod(shape, dtype=object))
        if entries > MAX_ENTRIES:
            raise ValueError(f"the instance has more than {MAX_ENTRIES} entries, over the reference's cap")
        if len(shape) != len(v.shape):
            raise ValueError(f"{v.name} should have {len(v.shape)} dimensions, got {len(shape)}")
        for s, n in zip(v.shape, shape):
            if isinstance(s, int):
                if s != n:
                    raise ValueError(f"{v.name} should have size {s}, got {n}")
            elif sizes.setdefault(s, n) != n:
                raise ValueError(f"size {s} is {sizes[s]} in one variable and {n} in {v.name}")
    return sizes


def outside_domains(claim, arrays: dict) -> str | None:
    """Why the instance is outside a declared domain, or None."""
    for v in claim.variables:
        value = arrays[v.name]
        entries = list(value.reshape(-1))
        which = v.name if value.ndim == 0 else f"an entry of {v.name}"  # a scalar has no entries
        if v.domain == "positive" and any(x <= 0 for x in entries):
            return f"{which} is not positive"
        if v.domain == "nonzero" and any(x == 0 for x in entries):
            return f"{which} is 0"
        if v.domain == "symmetric":
            n = value.shape[0]
            if any(value[i, j] != value[j, i] for i in range(n) for j in range(i + 1, n)):
                return f"{v.name} is not symmetric"
    return None


# ---------------------------------------------------------------- generic instances


PRIME = 2_147_483_647  # 2^31 − 1: products of two residues fit in int64


def _full_rank(a: np.ndarray) -> bool:
    """Whether the matrix of Fractions `a` has full rank, by its rank modulo PRIME: never
    above the rank over Q, so "full" is proved; an unlucky prime only costs a redraw.
    Elimination over Q let the entries' heights grow (a 120 × 120 matrix took minutes,
    in `check --claim` of a certificate at that size); residues stay one word."""
    rows, columns = a.shape
    if rows > columns:
        a, rows, columns = a.T, columns, rows
    m = np.empty((rows, columns), dtype=np.int64)
    for k in np.ndindex(a.shape):
        q = Fraction(a[k])
        if q.denominator % PRIME == 0:
            return False
        m[k] = q.numerator % PRIME * pow(q.denominator, -1, PRIME) % PRIME
    for r in range(rows):  # a pivot in every row, each in a new column
        nonzero = np.nonzero(m[r:, :])
        if nonzero[0].size == 0:
            return False
        column = int(nonzero[1].min())
        pivot = r + int(nonzero[0][nonzero[1] == column][0])
        m[[r, pivot]] = m[[pivot, r]]
        m[r] = m[r] * pow(int(m[r, column]), -1, PRIME) % PRIME
        factors = m[:, column].copy()
        factors[r] = 0
        m = (m - np.outer(factors, m[r]) % PRIME) % PRIME
    return True


def _rng(claim, sizes: dict, seed) -> random.Random:
    key = f"{seed}|{claim.id}|{sorted((str(k), int(v)) for k, v in sizes.items())}"
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))


def _draw(rng: random.Random, shape: tuple, domain: str, taken: set, height: int) -> np.ndarray:
    out = np.empty(shape, dtype=object)

    def fresh() -> Fraction:
        while True:
            x = Fraction(rng.randint(1, height), rng.randint(1, 6))
            if abs(x) not in taken:
                taken.add(abs(x))
                return x if domain == "positive" or rng.random() < 0.5 else -x

    for k in np.ndindex(shape):
        if domain == "symmetric" and k[0] > k[1]:
            out[k] = out[k[1], k[0]]
        else:
            out[k] = fresh()
    return out


def generic_instances(claim, sizes: dict, count: int, seed=0, avoid=(), with_exists: bool = False) -> list:
    """`count` deterministic random exact instances of the claim at `sizes` (size name ->
    integer): small-height rationals, no two entries equal or opposite and none 0 (no
    ties), in their declared domains, every 2-d non-symmetric variable of full rank, none
    equal to an instance of `avoid`.  With `with_exists`, the existential variables get
    values too (for confirm_program)."""
    variables = tuple(claim.variables) + (tuple(claim.exists) if with_exists else ())
    missing = sorted({s for v in variables for s in v.shape if not isinstance(s, int) and s not in sizes})
    if missing:
        raise ValueError(f"generic_instances needs a value of every size: {', '.join(missing)} missing")
    rng = _rng(claim, sizes, seed)
    shapes = {v.name: claim.shape_of(v, sizes) for v in variables}
    entries = sum(int(np.prod(s)) for s in shapes.values())
    height = max(9, 2 * entries)
    avoided = [{k: array_of(v) for k, v in a.items()} for a in avoid]
    out = []
    for _ in range(100 * max(count, 1)):
        if len(out) >= count:
            break
        taken: set = set()
        arrays = {v.name: _draw(rng, shapes[v.name], v.domain, taken, height) for v in variables}
        if any(a.ndim == 2 and v.domain != "symmetric" and 0 not in a.shape
               and not _full_rank(a) for v, a in ((v, arrays[v.name]) for v in variables)):
            continue
        if any(all(k in a and np.array_equal(a[k], arrays[k]) for k in arrays) for a in avoided):
            continue
        out.append({k: a.tolist() if a.shape else a[()] for k, a in arrays.items()})
    return out
