"""Exact linear algebra over the integers and rationals with a work budget (Lemma 4.5's
and Observation 4.3's eliminations, ranks and Gram matrices).  Exact algebraic values,
Q(sqrt r) included, are surds.py's."""

from fractions import Fraction
from math import lcm
from operator import lshift, mul

from .parse import Rejected, op


class Budget:
    """Work units left (parse.op); eliminations charge as they go, so that a bound
    computed before the work is also enforced during it."""

    def __init__(self, units: int):
        self.left = units

    def charge(self, units: int, what: str) -> None:
        self.left -= units
        if self.left < 0:
            raise Rejected(f"too much arithmetic in {what} (the checker's work limit)")


def dot(u, v):
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def matvec(A, v) -> list:
    return [dot(row, v) for row in A]


def transpose(A) -> list:
    return [list(col) for col in zip(*A)]


def scale(values) -> int:
    """The lcm of the denominators: scale * x is an integer for every x."""
    return lcm(1, *{x.denominator for x in values})


def integral(v) -> tuple[list[int], int]:
    """(w, q) with v = w / q in integers, q the lcm of v's denominators: products of
    integers cost no gcds, so large witnesses are checked in integers."""
    q = scale(v)
    return [x.numerator * (q // x.denominator) for x in v], q


def imatvec(A, v) -> list[int]:
    return [sum(map(mul, row, v)) for row in A]


def gram_int(cols) -> list[list[int]]:
    """The integer Gram matrix of these columns."""
    top = max((abs(x) for col in cols for x in col), default=0)
    if top.bit_length() <= 62:  # small numbers: a Python product costs its overhead, not its digits
        return _gram_packed(cols, top)
    G = [[0] * len(cols) for _ in cols]
    for i, u in enumerate(cols):
        for j in range(i, len(cols)):
            G[i][j] = G[j][i] = sum(map(mul, u, cols[j]))  # each product once
    return G


def _gram_packed(cols, top: int) -> list[list[int]]:
    """The Gram matrix a row at a time: each sample's entries packed into one
    integer, k bits a column (Kronecker substitution), so that one sum over the
    samples, sum_s u_s * packed_s, holds every entry sum_s u_s v_js of the row in
    its k-bit field.  |entry| <= m * top^2 < 2^(k-1), so with 2^(k-1) added to
    every field none carries into the next, and each is read back exactly.  A
    third of the time of a sum of products per entry at m = 1000, d = 64; with
    large numbers it would multiply each by d times more digits."""
    k = (len(cols[0]) * top * top).bit_length() + 1 if cols else 1
    shifts = [k * j for j in range(len(cols))]
    packed = [sum(map(lshift, sample, shifts)) for sample in zip(*cols)]
    half, mask = 1 << (k - 1), (1 << k) - 1
    offset = sum(half << shift for shift in shifts)
    return [[((row >> shift) & mask) - half for shift in shifts]
            for row in (sum(map(mul, u, packed)) + offset for u in cols)]


def echelon(rows: list[list[int]], budget: Budget, what: str) -> tuple[list, list]:
    """Fraction-free Gaussian elimination (Bareiss) of integer rows: (the rows of an
    echelon form, the pivot column of each).  Every entry stays an integer minor of the
    input (Sylvester's identity), so each division by the previous pivot is exact."""
    rows, pivots, prev = [list(r) for r in rows], [], 1
    for col in range(len(rows[0]) if rows else 0):
        k = len(pivots)
        p = next((i for i in range(k, len(rows)) if rows[i][col]), None)
        if p is None:
            continue
        rows[k], rows[p] = rows[p], rows[k]
        top = rows[k]
        piv = top[col]
        # each update: two products and an exact division of numbers of about the size of
        # the pivot row's entries (all minors of one order), as parse.elimination_work counts
        bits = max(abs(x).bit_length() for x in top[col:])
        budget.charge(3 * (len(rows) - k - 1) * (len(top) - col) * op(bits), what)
        for i in range(k + 1, len(rows)):
            f = rows[i][col]
            rows[i] = rows[i][:col] + [(piv * a - f * b) // prev for a, b in zip(rows[i][col:], top[col:])]
        pivots.append(col)
        prev = piv
    return rows[:len(pivots)], pivots


# A Mersenne prime: residues fit 61 bits, their products two machine words.
PRIME = (1 << 61) - 1


def rank(rows: list[list[int]], budget: Budget, what: str) -> int:
    """The exact rank of an integer matrix, by elimination modulo PRIME first.
    rank mod p <= rank: a k x k minor that is nonzero mod p is a nonzero integer
    (a minor that is 0 over the integers is 0 mod p).  So when the rank mod p is
    full (as many as the rows or the columns), it is the rank, and the integers
    never grow.  Only a deficient rank mod p (a singular matrix, or p dividing
    every maximal minor) is settled by exact fraction-free elimination."""
    full = min(len(rows), len(rows[0]) if rows else 0)
    if rank_mod(rows, PRIME, budget, what) == full:
        return full
    return len(echelon(rows, budget, what)[1])


def rank_mod(rows: list[list[int]], p: int, budget: Budget, what: str) -> int:
    """The rank of the matrix mod the prime p, by Gaussian elimination over Z/p;
    each step drops the pivot row and column, so the rows shrink as it goes."""
    rest, r = [[x % p for x in row] for row in rows], 0
    while rest and rest[0]:
        i = next((i for i, row in enumerate(rest) if row[0]), None)
        if i is None:
            rest = [row[1:] for row in rest]
            continue
        top = rest.pop(i)
        # a product, a difference and a reduction per entry, on numbers below p^2
        budget.charge(3 * len(rest) * len(top) * op(2 * p.bit_length()), what)
        inv = pow(top[0], -1, p)
        rest = [[(a - f * b) % p for a, b in zip(row[1:], top[1:])] if (f := row[0] * inv % p) else row[1:]
                for row in rest]
        r += 1
    return r


def solve(A, b, budget: Budget, what: str) -> list | None:
    """x with A x = b for a square rational A, or None if A is singular."""
    n = len(A)
    # each row [A_i | b_i] times the lcm of its denominators: the same solutions
    U, pivots = echelon([integral(list(row) + [x])[0] for row, x in zip(A, b)], budget, what)
    if pivots != list(range(n)):
        return None
    budget.charge(n * n * op(max(abs(x).bit_length() for row in U for x in row)), what)
    x = [Fraction(0)] * n
    for i in reversed(range(n)):
        x[i] = (U[i][n] - sum(U[i][j] * x[j] for j in range(i + 1, n))) / Fraction(U[i][i])  # never int / int
    return x
