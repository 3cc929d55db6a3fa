"""The checker's reading of long rows of instance numbers (checker/parse.py numbers():
each distinct string read once, new integers checked by one match of the joined row)
accepts exactly what reading entry by entry with rational() accepts, with the same
message naming the same entry, wherever a bad entry sits in a row or a matrix."""

import random
from fractions import Fraction

import pytest

from bnproof.checker import parse
from bnproof.checker.parse import MAX_DIGITS, Rejected, rational, tensor

BAD = ["1e5", "0x10", " 1", "1 ", "1_000", "01", "007", "-0", "+1", "1.0", "1.5", "\u0663", "1\u0663",
       "1\uff10", "1,2", ",", "", "1/1", "2/4", "-", "1\n", "\n1", "1/0", "0/1", "1/-2", "--1", "1-", "1,",
       ",1", "7" * (MAX_DIGITS + 1), "9" * 10**6]
NOT_STRINGS = [1, 0, -3, 1.5, True, False, None, [1], ["1e5"], {"a": "1"}, {}]


def by_entry(value, path, depth=0):
    """parse.tensor before numbers(): every entry by rational(), in order."""
    if type(value) is not list:
        return rational(value, path)
    if depth == parse.MAX_DEPTH:
        raise Rejected(f"{path}: lists nested deeper than {parse.MAX_DEPTH} levels")
    try:
        return [rational(x, path) for x in value]
    except Rejected:
        return [by_entry(x, f"{path}[{i}]", depth + 1) for i, x in enumerate(value)]


def outcome(read, value):
    try:
        return "accepted", read(value, "instance.X")
    except Rejected as exc:
        return "rejected", str(exc)


def matrix(rng, rows=6, cols=5):
    pool = ["0", "1", "-1", "12", "-5", "3/7", "-22/9", "9" * MAX_DIGITS, "-" + "8" * (MAX_DIGITS - 1)]
    return [[rng.choice(pool) for _ in range(cols)] for _ in range(rows)]


@pytest.mark.parametrize("bad", BAD + NOT_STRINGS, ids=repr)
def test_a_bad_entry_is_rejected_with_the_message_of_reading_entry_by_entry(bad):
    rng = random.Random(7)
    for _ in range(12):
        X = matrix(rng)
        i, j = rng.randrange(len(X)), rng.randrange(len(X[0]))
        X[i][j] = bad  # anywhere: first row or later, after its row's values were read once
        got, want = outcome(tensor, X), outcome(by_entry, X)
        assert got[0] == "rejected" and got == want, (bad, i, j)
        assert f"instance.X[{i}][{j}]" in got[1]


@pytest.mark.parametrize("bad", ["1e5", "01", "1_000", " 1", "1,2", "7" * (MAX_DIGITS + 1)], ids=repr)
def test_a_bad_entry_beside_copies_of_good_ones_is_rejected(bad):
    # a row of integers that were all read before: only the bad string is new
    X = [["1", "2", "3"], ["3", "2", "1"], ["1", bad, "2"]]
    assert outcome(tensor, X) == outcome(by_entry, X)
    assert "instance.X[2][1]" in outcome(tensor, X)[1]


def test_a_comma_inside_an_entry_cannot_pass_as_two_integers():
    # "1,2" and "3" joined read "1,2,3" (or "3,1,2"): three integers from two entries
    for X in ([["1,2", "3"]], [["3", "1,2"]], [["1,2"]], [["1", "2"], ["1,2", "1"]]):
        assert outcome(tensor, X)[0] == "rejected"
        assert "not a canonical rational: '1,2'" in outcome(tensor, X)[1]


def test_the_longest_accepted_number_and_one_digit_more():
    edge = "9" * MAX_DIGITS
    assert tensor([[edge, "1"]], "X") == [[Fraction(int(edge)), Fraction(1)]]
    assert "longer than 2000 characters" in outcome(tensor, [["1", edge + "9"]])[1]
    assert "longer than 2000 characters" in outcome(tensor, [["-" + edge]])[1]


def test_valid_matrices_read_as_entry_by_entry():
    rng = random.Random(3)
    for _ in range(50):
        X = matrix(rng, rng.randint(1, 8), rng.randint(1, 8))
        got = tensor(X, "X")
        assert got == by_entry(X, "X")
        assert all(type(x) is Fraction for row in got for x in row)


def test_nested_and_scalar_values_read_as_before():
    assert tensor("3/4", "x") == Fraction(3, 4)
    assert tensor([], "x") == []
    assert tensor([["1"], [["2"]]], "x") == [[Fraction(1)], [[Fraction(2)]]]
    for mixed in ([["1", ["2"]], ["3", []]], [["1", "2"], ["1/2", ["-3", ["4"]]]]):
        assert tensor(mixed, "x") == by_entry(mixed, "x")
    deep = "1"
    for _ in range(parse.MAX_DEPTH + 1):
        deep = [deep]
    assert "nested deeper" in outcome(tensor, deep)[1]


def test_flat_and_instance_bits_of_shared_values():
    # the reading shares one Fraction per distinct string: flat still lists every entry
    X = tensor([["1", "2/3"], ["1", "-40000/7"]], "X")
    assert X[0][0] is X[1][0]
    assert parse.flat(X) == [Fraction(1), Fraction(2, 3), Fraction(1), Fraction(-40000, 7)]
    # the longest numerator (40000: 16 bits) plus the bits of each distinct denominator 3, 7
    assert parse.instance_bits(parse.flat(X)) == 16 + 2 + 3
