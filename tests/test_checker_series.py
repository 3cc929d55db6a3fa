"""The checker's series (bnproof/checker/series.py): every enclosure contains the true
value, computed independently with mpmath at far higher precision, and is tight; work
stays bounded at hostile arguments; the edges of the domains are exact."""

import random

import mpmath
import pytest

from bnproof.checker import series

PREC = 12000  # far beyond the 4096-bit grid of the checker's last precision
FUNCTIONS = {"exp": mpmath.exp, "log": mpmath.log, "acos": mpmath.acos, "tanh": mpmath.tanh}


def encloses(name, x, b, slack=4):
    """series' (L, U) at x = X/2^b contains mpmath's value, and is at most `slack` units
    wide relative to the value's size (a tight enclosure, not merely a true one)."""
    lo, hi = series.BOUNDS[name](x, b)
    with mpmath.workprec(PREC):
        value = FUNCTIONS[name](mpmath.mpf(x) / mpmath.mpf(2) ** b)
        scale = mpmath.mpf(2) ** b
        assert lo / scale <= value <= hi / scale, (name, x, b, lo, hi)
        units = max(1, abs(value) * 2 ** -30)  # exp of large arguments: relative width
        assert hi - lo <= slack * units, (name, x, b, hi - lo)
    return lo, hi


@pytest.mark.parametrize("b", [64, 256, 1024, 4096])
def test_random_points_against_mpmath(b):
    rng = random.Random(b)
    for _ in range(6):
        x = rng.randint(-(1 << (b + 4)), 1 << (b + 4))  # |x| < 16
        encloses("exp", x, b)
        encloses("tanh", x, b)
        encloses("log", abs(x) + 1, b)
        encloses("acos", rng.randint(-(1 << b), 1 << b), b)


@pytest.mark.parametrize("b", [64, 1024])
def test_adversarial_points(b):
    one = 1 << b
    for x in (1, -1, one - 1, -one + 1, 3 * one // 4, one // 2, -one // 2):  # near and at the edges
        encloses("acos", x, b, slack=2 ** 40)  # arccos' is unbounded at ±1
    for x in (1, one - 1, one, one + 1, 1 << (b + 3000), 1 << (3 * b)):  # tiny, near 1, huge
        encloses("log", x, b)
    for x in (0, 1, -1, series.MAX_EXP_ARG << b, -(series.MAX_EXP_ARG << b), 700 * one):
        encloses("exp", x, b)
    for x in (0, 1, -1, 2048 * one, 2049 * one, -(1 << (b + 5000)), 1 << (b + 100000)):
        encloses("tanh", x, b)  # beyond 2048 tanh is 1 to 5900 bits: no exp is computed


def test_pi_and_exact_edges():
    for b in (64, 4096):
        lo, hi = series.pi_bounds(b)
        with mpmath.workprec(PREC):
            scale = mpmath.mpf(2) ** b
            assert lo / scale < +mpmath.pi < hi / scale and hi - lo <= 2
        assert series.acos_bounds(-(1 << b), b) == (lo, hi)  # arccos(-1) = π
    assert series.acos_bounds(1 << 64, 64) == (0, 0)  # arccos(1) = 0, exactly
    assert series.exp_bounds(0, 64)[0] <= 1 << 64 <= series.exp_bounds(0, 64)[1]
    lo, hi = series.acos_bounds(0, 256)  # arccos(0) = π/2, never separated from it
    plo, phi = series.pi_bounds(256)
    assert 2 * lo <= phi and 2 * hi >= plo


def test_against_flint_arb():
    from flint import arb, ctx

    with ctx.workprec(400):
        for p, q in ((1, 3), (-7, 5), (22, 7), (1, 1000)):
            b = 256
            x = (p << b) // q  # the grid point just below p/q
            value = arb(x) / arb(2) ** b
            for name, f in (("exp", value.exp), ("tanh", value.tanh)):
                lo, hi = series.BOUNDS[name](x, b)
                assert arb(lo) / arb(2) ** b <= f() <= arb(hi) / arb(2) ** b


def test_domains_and_limits_are_refused():
    with pytest.raises(ValueError):
        series.exp_bounds((series.MAX_EXP_ARG << 64) + 1, 64)  # e^(2^5000) would not fit
    with pytest.raises(ValueError):
        series.exp_bounds(1 << 5000, 64)
    with pytest.raises(ValueError):
        series.log_bounds(0, 64)
    with pytest.raises(ValueError):
        series.acos_bounds((1 << 64) + 1, 64)


def test_work_bound_grows_with_precision():
    assert series.work(4096) > 64 * series.work(1024) / 2 > series.work(64)
