"""Red team for issue 14's speed work: what was made faster must say exactly what
the slow route said.  exact_text against SymPy's printer, markup against rich,
pivots against an exact Fraction elimination written here."""

from __future__ import annotations

import io
import math
from fractions import Fraction

import flint
import pytest
import sympy
from hypothesis import HealthCheck, given, settings, strategies as st
from rich.console import Console

from bnproof.exact import pivots
from bnproof.exact.surd import Surd
from bnproof.render import exact_text, markup, report

fmpq = flint.fmpq


def fq(x) -> flint.fmpq:
    x = Fraction(x)
    return fmpq(x.numerator, x.denominator)


def surd(a, b, r) -> Surd:
    return Surd(fq(a), fq(b), fq(r))


# -- exact_text: the text SymPy prints, or Unsupported (then the report asks SymPy) --

def agrees_with_sympy(value) -> bool:
    """exact_text's text equals SymPy's, or exact_text declines; never a crash."""
    try:
        text = exact_text.number(value)
    except exact_text.Unsupported:
        return report.s(value) == sympy.sstr(value.to_sympy())  # the report's fallback
    return text == sympy.sstr(value.to_sympy())


def test_terms_beyond_the_float_range_are_no_crash():
    # float(10**400) raises OverflowError; it was not Unsupported, so the report crashed
    for a, b in [(10 ** 400, 1), (-1, 10 ** 400), (10 ** 400, -(10 ** 401)), (Fraction(1, 3), -(10 ** 400))]:
        assert agrees_with_sympy(surd(a, b, 2)), (a, b)


def test_subnormal_terms_ordered_as_sympy_orders_them():
    # a = (2.5 + 2⁻⁶⁰)·2⁻¹⁰⁷⁴ is 3·2⁻¹⁰⁷⁴ as Python rounds it but 2·2⁻¹⁰⁷⁴ as SymPy's
    # complex() rounds it (53 bits, then the subnormal): equal to √3·2⁻¹⁰⁷⁴'s float
    a = (Fraction(5, 2) + Fraction(1, 2 ** 60)) / 2 ** 1074
    assert agrees_with_sympy(surd(a, Fraction(1, 2 ** 1074), 3))


def _pell(n: int):
    x, y = 1, 1
    for _ in range(n):
        x, y = x + 2 * y, x + y
    return x, y  # x² − 2y² = ±1: x/y within 1/y² of √2


@pytest.mark.parametrize("n", [10, 25, 26, 27, 28, 40, 80])
@pytest.mark.parametrize("sa, sb", [(1, 1), (1, -1), (-1, 1), (-1, -1)])
def test_near_ties_with_pell_numbers(n, sa, sb):
    x, y = _pell(n)
    for a, b in [(Fraction(sa * x, y), sb), (Fraction(sa * 7 * x, 5 * y), Fraction(sb * 7, 5)),
                 (sa * x, sb * y)]:
        assert agrees_with_sympy(surd(a, b, 2)), (n, a, b)


PRIMES = [2, 3, 5, 7, 32749, 32771, 65537, 2 ** 31 - 1]
huge = st.integers(min_value=-(10 ** 40), max_value=10 ** 40)
rationals = st.one_of(
    st.sampled_from([Fraction(0), Fraction(1), Fraction(-1), Fraction(1, 1), Fraction(-1, 1)]),
    st.builds(Fraction, huge, st.integers(min_value=1, max_value=10 ** 40)),
    st.builds(lambda e, s: Fraction(s * 10 ** e), st.integers(0, 330), st.sampled_from([1, -1])),
    st.builds(lambda e, s: Fraction(s, 10 ** e), st.integers(0, 330), st.sampled_from([1, -1])),
)
radicands = st.one_of(
    st.builds(lambda ps, k: math.prod(ps) * k * k, st.lists(st.sampled_from(PRIMES), min_size=1, max_size=4),
              st.integers(1, 40)),
    st.builds(lambda p, q: Fraction(p, q), st.integers(1, 10 ** 6), st.integers(1, 10 ** 6)),
    st.builds(lambda e: 3 * 2 ** e, st.integers(0, 300)),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rationals, rationals.filter(lambda b: b != 0), radicands)
def test_numbers_print_as_sympy_prints_them(a, b, r):
    assert agrees_with_sympy(surd(a, b, r))


# -- markup: what rich prints when not on a terminal --------------------------------

def rich_prints(lines) -> str:
    out = io.StringIO()
    console = Console(file=out, highlight=False, soft_wrap=True, force_terminal=False, force_jupyter=False)
    for line in lines:
        console.print(line)
    return out.getvalue()


HOSTILE = [
    "a [/] b", "[bold]a[/][/]", "[/]", "[bold red]x[/] [bold green]y", "[bold]", "]", "[", "[[bold]x",
    "x" * 5000, "宽字符" * 300, "emoji 😀 [bold]x[/]", "trail   ", "   lead", "a\u00a0b", "[bold]]", "a::b",
    ":x", "[1]", "[B]x[/B]", "e\u0301", "\U0001F468\u200d\U0001F469", "ok]", "[=]", "[bold]a[bold]b[/][/]",
    "Setting: x\\[/]y", "x:y:z", "\x1b[31mred", "tab\tx", "[link=http://x]y[/link]", "[@click]x", "[#fff]x",
]


@pytest.mark.parametrize("line", HOSTILE)
def test_markup_prints_as_rich_or_defers(line, capsys, monkeypatch):
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    try:
        want = rich_prints([line])
    except Exception as err:  # noqa: BLE001 - rich refuses the line: plain() must not print it
        assert markup.plain(line) is None, (line, err)
        return
    markup.print_lines([line])
    assert capsys.readouterr().out == want


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("ab [/]\\:#@=😀宽\u0301") + ["[bold]", "[/]", "[bold red]"]),
               max_size=20).map("".join))
def test_escaped_text_prints_verbatim_through_rich(text):
    # escape() keeps a user's text verbatim in a line of markup, whichever way it is printed
    line = f"[bold]Setting[/]: {markup.escape(text)} — end"
    assert rich_prints([line]) == f"Setting: {text} — end\n"
    plain = markup.plain(line)
    assert plain is None or plain == f"Setting: {text} — end"


# -- pivots: certified signs and lazy values against an exact Fraction elimination --

def fraction_pivots(rows) -> list:
    """LU pivots without exchanges, up to the first that is not positive, in Fractions."""
    a = [[Fraction(x) for x in row] for row in rows]
    n, out = len(a), []
    for k in range(n):
        p = a[k][k]
        out.append(p)
        if p <= 0:
            break
        for i in range(k + 1, n):
            f = a[i][k] / p
            for j in range(k, n):
                a[i][j] -= f * a[k][j]
    return out


def positive_definite(rows) -> bool:
    ps = fraction_pivots(rows)
    return len(ps) == len(rows) and all(p > 0 for p in ps)


def check_rational(rows):
    got = pivots.ldl_pivots(fmpq_mat_of(rows))
    want = fraction_pivots(rows)
    assert got.signs == [(p > 0) - (p < 0) for p in want]
    assert [Fraction(int(p.p), int(p.q)) for p in got] == want


def fmpq_mat_of(rows):
    return flint.fmpq_mat([[fq(x) for x in row] for row in rows])


def hilbert(n, shift=Fraction(0)):
    return [[Fraction(1, i + j + 1) - (shift if i == j else 0) for j in range(n)] for i in range(n)]


def test_hilbert_matrices_and_their_tiny_shifts():
    for n in (2, 5, 9, 14):
        check_rational(hilbert(n))  # positive definite, last pivot about 4^-2n tiny
    h = hilbert(12)
    smallest = fraction_pivots(h)[-1]
    # shifted down past definiteness by a hair: the last pivot is exactly the difference
    for delta in (smallest / 2, smallest, smallest * 2, smallest + Fraction(1, 10 ** 200)):
        shifted = [row[:] for row in h]
        shifted[-1][-1] -= delta
        check_rational(shifted)
    zero = [row[:] for row in h]
    zero[-1][-1] -= smallest  # exactly singular: last pivot exactly 0, never "positive definite"
    got = pivots.ldl_pivots(fmpq_mat_of(zero))
    assert got.signs[-1] == 0 and not positive_definite(zero)


def test_one_minus_ten_to_the_minus_200():
    e = Fraction(1, 10 ** 200)
    for rows in ([[1, 1 - e], [1 - e, 1]], [[1, 1], [1, 1 - e]], [[1, 1], [1, 1 + e]], [[1, 1], [1, 1]],
                 [[e, 1], [1, 1 / e + e]], [[e, 1], [1, 1 / e - e]], [[e * e, e], [e, 1]]):
        check_rational(rows)


def test_first_row_exchange_and_zero_leading_entries():
    for rows in ([[0, 1], [1, 0]], [[0, 0], [0, 1]], [[1, 2, 3], [2, 4, 5], [3, 5, 6]],
                 [[2, 1, 1], [1, 2, 1], [1, 1, 0]], [[1, 1, 0], [1, 1, 0], [0, 0, 1]], [[-1]], [[0]]):
        check_rational(rows)


def test_non_symmetric_input_gives_its_own_lu_pivots():
    for rows in ([[1, 5], [-5, 1]], [[2, 100], [0, 1]], [[1, 2], [3, 4]], [[4, -9, 2], [1, 3, 7], [0, 5, 1]]):
        check_rational(rows)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.data())
def test_rational_pivots_against_fractions(n, data):
    entry = st.one_of(st.integers(-3, 3), st.builds(Fraction, huge, st.integers(1, 10 ** 40)),
                      st.sampled_from([Fraction(1, 10 ** 200), Fraction(-1, 10 ** 200), 10 ** 200]))
    rows = [[data.draw(entry) for _ in range(n)] for _ in range(n)]
    if data.draw(st.booleans()):  # symmetric, and often a Gram matrix (positive semidefinite)
        rows = [[rows[min(i, j)][max(i, j)] for j in range(n)] for i in range(n)]
    if data.draw(st.booleans()):
        rows = [[sum(Fraction(rows[k][i]) * rows[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    check_rational(rows)


def surd_sign(a: Fraction, b: Fraction, r: int) -> int:
    """Sign of a + b√r decided by integers alone: compare a² with b²r."""
    sa, sb = (a > 0) - (a < 0), (b > 0) - (b < 0)
    if sb == 0 or sa == sb:
        return sa
    if sa == 0:
        return sb
    return sa if a * a > b * b * r else sb


def surd_fraction_pivots(a_rows, b_rows, r) -> list:
    """The same elimination over Q(√r), pairs of Fractions."""
    n = len(a_rows)
    A = [[(Fraction(x), Fraction(y)) for x, y in zip(ra, rb)] for ra, rb in zip(a_rows, b_rows)]

    def mul(x, y):
        return (x[0] * y[0] + x[1] * y[1] * r, x[0] * y[1] + x[1] * y[0])

    def inv(x):
        norm = x[0] * x[0] - r * x[1] * x[1]
        return (x[0] / norm, -x[1] / norm)

    out = []
    for k in range(n):
        p = A[k][k]
        out.append(p)
        if surd_sign(*p, r) <= 0:
            break
        ip = inv(p)
        for i in range(k + 1, n):
            f = mul(A[i][k], ip)
            for j in range(k, n):
                t = mul(f, A[k][j])
                A[i][j] = (A[i][j][0] - t[0], A[i][j][1] - t[1])
    return out


def check_field(a_rows, b_rows, r):
    got = pivots.ldl_pivots(Surd(fmpq_mat_of(a_rows), fmpq_mat_of(b_rows), r))
    want = surd_fraction_pivots(a_rows, b_rows, r)
    assert [p.sign() for p in got] == [surd_sign(*p, r) for p in want]
    assert [(Fraction(int(p.a.p), int(p.a.q)), Fraction(int(p.b.p), int(p.b.q))) for p in got] == want


def test_pell_near_cancellation():
    # x − y√2 with x² − 2y² = ±1: |x − y√2| = 1/(x + y√2), about 10^-60 from 30-digit parts
    for n in (5, 40, 41, 80):
        x, y = _pell(n)
        sign = 1 if x * x - 2 * y * y == 1 else -1
        for rows_a, rows_b in [([[x]], [[-y]]), ([[x, 1], [1, x]], [[-y, 0], [0, -y]]),
                               ([[1, 0], [0, x]], [[0, 0], [0, -y]]), ([[x, x], [x, 2 * x]], [[-y, -y], [-y, -y]])]:
            check_field(rows_a, rows_b, 2)
        assert pivots.ldl_pivots(Surd(fmpq_mat_of([[x]]), fmpq_mat_of([[-y]]), 2)).signs == [sign]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.sampled_from([2, 3, 5, 74, 65537 * 2]), st.data())
def test_field_pivots_against_fractions(n, r, data):
    entry = st.one_of(st.integers(-3, 3), st.builds(Fraction, huge, st.integers(1, 10 ** 20)))
    a = [[data.draw(entry) for _ in range(n)] for _ in range(n)]
    b = [[data.draw(entry) for _ in range(n)] for _ in range(n)]
    check_field(a, b, r)
