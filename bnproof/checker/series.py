"""Rigorous enclosures of exp, log, arccos, tanh and π with integers only.

Each ``*_bounds(X, b)`` takes a point x = X/2^b (X an integer) and returns
integers (L, U) with L/2^b <= f(x) <= U/2^b.  Inside, values are fixed-point
integers at W > b bits (an integer P stands for P/2^W).  Every floor adds an
error below one unit of 2^-W; each series below states how many units its
result may be off in all ("E"), proved in its docstring, and the enclosure
is widened by that much before it is rounded outward to the grid 2^-b.

Work stays bounded: series arguments are reduced to [0, 1/2] (atan, atanh)
or to |r| <= 2^-8 (exp), so a series at W bits takes at most W/2 + 1 terms;
exp refuses |x| > MAX_EXP_ARG (ValueError), and the caller charges
``work(b)`` for every evaluation.  Only the standard library is used.
"""

from functools import lru_cache
from math import isqrt

MAX_EXP_ARG = 4096  # e^4096 < 2^5910: the largest exp the checker computes
GUARD = 48  # extra bits of the fixed-point work over the output grid


def work(b: int) -> int:
    """A bound, in bit-operations, on one transcendental step at grid 2^-b: two
    endpoints, each at most two series of W/2 + 1 products of W-bit numbers."""
    w = b + GUARD + 64
    return 4 * w ** 3


def _down(p: int, w: int, b: int) -> int:
    return p >> (w - b)


def _up(p: int, w: int, b: int) -> int:
    return -((-p) >> (w - b))


def _odd_series(num: int, den: int, w: int, sign: int) -> tuple:
    """sum_n sign^n z^(2n+1)/(2n+1) (atan for sign -1, atanh for +1) at z = num/den in
    [0, 1/2], as (S, E): |value * 2^W - S| <= E.  Units of 2^-W: rounding z to Z/2^W
    moves the value by <= 4/3 * 1 (its derivative is <= 4/3 on [0, 1/2]); z2 is within 1
    of Z^2/2^W; by induction the power p_n is within 2 of P_n = (Z/2^W)^(2n+1) * 2^W
    (one step adds 2 * 1/4 + P_n/2^W * 1 + 1 <= 1/2 + 1/2 + 1); a term p_n // (2n+1)
    is within 2/(2n+1) + 1 <= 3; the loop stops at p_N = 0, so P_N < 2 and the rest
    of the series is below 2 * (1 + 1/4 + 1/16 + ...) < 3.  E = 3N + 3 + 2."""
    if not 0 <= 2 * num <= den:
        raise ValueError("series argument outside [0, 1/2]")
    z = (num << w) // den
    z2 = z * z >> w
    p, total, n = z, 0, 0
    while p:
        term = p // (2 * n + 1)
        total += -term if sign < 0 and n % 2 else term
        p = p * z2 >> w
        n += 1
    return total, 3 * n + 6


@lru_cache(maxsize=16)
def _pi(w: int) -> tuple:
    """π = 16 atan(1/5) - 4 atan(1/239) (Machin), as (S, E) at W."""
    a, ea = _odd_series(1, 5, w, -1)
    c, ec = _odd_series(1, 239, w, -1)
    return 16 * a - 4 * c, 16 * ea + 4 * ec


@lru_cache(maxsize=16)
def _ln2(w: int) -> tuple:
    """log 2 = 2 atanh(1/3), as (S, E) at W."""
    s, e = _odd_series(1, 3, w, 1)
    return 2 * s, 2 * e


def _atan(num: int, den: int, w: int) -> tuple:
    """atan(u), u = num/den >= 0, as (S, E) at W, reduced to a series argument <= 1/2:
    u <= 1/2 directly; u in (1/2, 2]: π/4 + atan((u - 1)/(u + 1)), |(u - 1)/(u + 1)| <= 1/3;
    u > 2: π/2 - atan(1/u).  π/4 and π/2 by a shift: one more unit, and π's error / 4 or / 2."""
    pi, epi = _pi(w)
    if 2 * num <= den:
        return _odd_series(num, den, w, -1)
    if num <= 2 * den:
        s, e = _odd_series(abs(num - den), num + den, w, -1)
        return (pi >> 2) + (s if num >= den else -s), e + epi // 4 + 2
    s, e = _odd_series(den, num, w, -1)
    return (pi >> 1) - s, e + epi // 2 + 2


def pi_bounds(b: int) -> tuple:
    w = b + GUARD
    s, e = _pi(w)
    return _down(s - e, w, b), _up(s + e, w, b)


def exp_bounds(x: int, b: int) -> tuple:
    """e^x, |x| <= MAX_EXP_ARG: e^x = (e^r)^(2^s), r = x/2^s exact with |r| <= 2^-8.
    Taylor at W bits: t_0 = 2^W, t_n = floor(t_(n-1) * r / n) is within 2 of the exact
    term (an error shrinks by |r|/n <= 1/256, each floor adds < 1); the loop stops at
    the first |t_N| <= 1, so the exact terms from N on are below 3 * (1 + 1/256 + ...)
    < 4, and E = 2N + 8.  Each squaring rounds its lower end down and upper end up."""
    if abs(x) > MAX_EXP_ARG << b:
        raise ValueError(f"exp of an argument beyond ±{MAX_EXP_ARG}")
    s = max(0, abs(x).bit_length() - b + 8)
    w = b + s + GUARD
    r = x << (w - b - s)  # r/2^W = x/2^(b+s) exactly
    t, total, n = 1 << w, 0, 0
    while abs(t) > 1:
        total += t
        n += 1
        t = t * r // (n << w)
    lo, hi = total - (2 * n + 8), total + (2 * n + 8)
    for _ in range(s):
        lo, hi = lo * lo >> w, -((-hi * hi) >> w)
    return _down(lo, w, b), _up(hi, w, b)


def log_bounds(x: int, b: int) -> tuple:
    """log x, x > 0: x = 2^k m with m = x/2^e in [1, 2), so log x = k log 2 + 2 atanh(z),
    z = (m - 1)/(m + 1) in [0, 1/3)."""
    if x <= 0:
        raise ValueError("log of a number <= 0")
    e = x.bit_length() - 1
    k = e - b
    w = b + abs(k).bit_length() + GUARD
    s, err = _odd_series(x - (1 << e), x + (1 << e), w, 1)
    l2, e2 = _ln2(w)
    p, err = 2 * s + k * l2, 2 * err + abs(k) * e2
    return _down(p - err, w, b), _up(p + err, w, b)


def acos_bounds(x: int, b: int) -> tuple:
    """arccos x, -1 <= x <= 1: arccos x = 2 atan(t), t = sqrt((1 - x)/(1 + x)), t enclosed
    by integer square roots of t^2, exact rational; arccos(-1) = π, arccos(1) = 0."""
    one = 1 << b
    if not -one <= x <= one:
        raise ValueError("arccos of a number outside [-1, 1]")
    if x == one:
        return 0, 0
    if x == -one:
        return pi_bounds(b)
    w = b + GUARD
    num, den = (one - x) << (2 * w), one + x  # (t * 2^W)^2 = num/den
    lo_sq, hi_sq = num // den, -(-num // den)
    t_lo, t_hi = isqrt(lo_sq), isqrt(hi_sq)
    t_hi += t_hi * t_hi < hi_sq
    a, ea = _atan(t_lo, 1 << w, w)
    c, ec = _atan(t_hi, 1 << w, w)
    return _down(2 * (a - ea), w, b), _up(2 * (c + ec), w, b)


def tanh_bounds(x: int, b: int) -> tuple:
    """tanh x = (e^(2x) - 1)/(e^(2x) + 1), increasing in e^(2x), odd.  For x > 2048 and
    b <= 5000: 1 - 2e^(-2x) > 1 - 2^-5900, so [1 - 2^-b, 1] encloses it without exp."""
    if x < 0:
        lo, hi = tanh_bounds(-x, b)
        return -hi, -lo
    if b <= 5000 and x > (MAX_EXP_ARG // 2) << b:
        return (1 << b) - 1, 1 << b
    g = b + 8
    one = 1 << g
    lo, hi = exp_bounds(x << 9, g)  # e^(2x) on the grid 2^-g
    return ((lo - one) << b) // (lo + one), -((-(hi - one) << b) // (hi + one))


BOUNDS = {"exp": exp_bounds, "log": log_bounds, "acos": acos_bounds, "tanh": tanh_bounds}
