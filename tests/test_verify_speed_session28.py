"""Issue 24 §6, a certified `verify --data` at the price of an uncertified one:
the checker's ranks modulo a prime first (exact elimination only where that
rank is deficient), its Gram matrix by packed integers, and exact_text's square
roots decided without SymPy, so that `verify --data --no-crosscheck` never
imports it.  Nothing here depends on the machine's speed."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from fractions import Fraction
from operator import mul

import flint
import pytest

from bnproof.checker import Rejected, algebra, check_document
from bnproof.checker import lemma as checker_lemma
from bnproof.render import exact_text as et
from tamper import seal

P = (1 << 61) - 1  # the checker's prime (algebra.PRIME)
BIG = 10 ** 9


def exact_rank(rows) -> int:
    return len(algebra.echelon(rows, algebra.Budget(10 ** 18), "test")[1])


def rank(rows) -> int:
    return algebra.rank(rows, algebra.Budget(10 ** 18), "test")


# -- ranks: modulo a prime for the lower bound, exactly where that is not enough ----------

def test_a_determinant_that_is_a_multiple_of_the_prime_still_gets_the_exact_rank():
    # each is nonsingular over the integers but singular mod p: the modular rank alone
    # would call it deficient
    assert algebra.PRIME == P
    half = (P + 1) // 2
    for rows in ([[P, 0], [0, 1]],
                 [[2, 1, 0], [1, half, 0], [0, 0, 1]],  # det = 2·(p+1)/2 − 1 = p, positive definite
                 [[3 * P, P], [P, 2 * P]]):
        assert algebra.rank_mod(rows, P, algebra.Budget(10 ** 18), "test") < len(rows)
        assert rank(rows) == exact_rank(rows) == len(rows)


def test_a_singular_matrix_is_never_called_full_rank():
    rng = random.Random(28)
    for _ in range(60):
        n = rng.randint(2, 9)
        rows = [[rng.randint(-BIG, BIG) for _ in range(n)] for _ in range(n - 1)]
        a, b = rng.randint(-5, 5), rng.randint(-5, 5)
        rows.insert(rng.randrange(n), [a * x + b * y for x, y in zip(rows[0], rows[-1])])
        assert rank(rows) == exact_rank(rows) < n
        G = algebra.gram_int(rows)  # the Gram matrix of the dependent rows
        assert rank(G) == exact_rank(G) == exact_rank(rows)


def test_random_ranks_equal_the_exact_ones():
    rng = random.Random(5)
    for _ in range(200):
        r, c = rng.randint(1, 7), rng.randint(1, 7)
        span = rng.choice([1, 3, BIG, P])
        rows = [[rng.randint(-span, span) for _ in range(c)] for _ in range(r)]
        if rng.random() < 0.3:  # force a dependent row
            rows.append([2 * x - y for x, y in zip(rows[0], rows[-1])])
        assert rank(rows) == exact_rank(rows), rows


def test_a_full_rank_mod_p_needs_no_exact_elimination(monkeypatch):
    def refuse(*args):
        raise AssertionError("exact elimination of a matrix whose rank mod p is full")

    monkeypatch.setattr(algebra, "echelon", refuse)
    rng = random.Random(2)
    X = [[Fraction(rng.randint(-5, 5)) for _ in range(64)] for _ in range(200)]
    batch = checker_lemma.Batch(X, algebra.Budget(10 ** 15))
    assert batch.rank == batch.rank_c == 64


def test_the_gram_matrix_equals_the_sums_of_products():
    rng = random.Random(9)
    for _ in range(300):
        m, d = rng.randint(1, 40), rng.randint(1, 9)
        span = rng.choice([0, 1, 5, 2 ** 62 - 1, 2 ** 62, BIG ** 4])  # packed, and not
        cols = [[rng.randint(-span, span) for _ in range(m)] for _ in range(d)]
        assert algebra.gram_int(cols) == [[sum(map(mul, u, v)) for v in cols] for u in cols]


# -- the checker on certificates whose ranks are hard modulo the prime ----------------------

def _certificate(data: dict) -> dict:
    from bnproof.certificate import lemma45 as certificate
    from bnproof.claims import lemma45
    from bnproof.instance import instance_from_json

    return certificate.unchecked(lemma45.analyse(instance_from_json(data)))


# a column that is p times a small one: X^T X and Xc^T Xc are singular mod p, not over Q
MULTIPLE_OF_P = {"X": [[0, 1], [P, 0], [2 * P, 3], [-P, 1]], "y": [1, 0, 2, 1], "W0": [1, 1]}


def test_an_honest_certificate_singular_mod_p_is_accepted():
    doc = _certificate(MULTIPLE_OF_P)
    assert doc["witnesses"]["kernel"] == []
    assert check_document(doc).startswith("lemma-4.5 ")


def test_a_forged_kernel_is_rejected_where_the_rank_is_full_but_not_mod_p():
    # one kernel vector claims rank Xc = 1 (it is 2); resealed, so only the arithmetic can tell
    doc = _certificate(MULTIPLE_OF_P)
    doc["witnesses"]["kernel"] = [["1", "0"]]
    with pytest.raises(Rejected, match="kernel vector 0 is not in ker Xc"):
        check_document(seal(doc))


def test_a_dropped_kernel_vector_is_rejected():
    # a constant column: ker Xc has dimension 1; a certificate that states none claims
    # rank Xc = d, and the exact rank, deficient mod p too, refuses it
    rng = random.Random(4)
    X = [[rng.randint(-5, 5), 7, rng.randint(-5, 5)] for _ in range(9)]
    doc = _certificate({"X": X, "y": [rng.randint(-5, 5) for _ in range(9)], "W0": [1, 2, 3]})
    assert len(doc["witnesses"]["kernel"]) == 1 and check_document(doc)
    doc["witnesses"]["kernel"] = []
    with pytest.raises(Rejected, match="0 kernel vectors, but dim ker Xc = 1"):
        check_document(seal(doc))


# -- square roots: the old decisions where the old code decided, and now every one ------

def _old_integer_sqrt(n: int):
    """render/exact_text before this change: small primes through the product tree, then
    None (SymPy would be asked) unless the rest is 1 or a prime."""
    root = math.isqrt(n)
    if root * root == n:
        return root, 1
    outside, inside, rest = 1, 1, n
    for p in et._small_factors(n):
        e = 0
        while rest % p == 0:
            rest //= p
            e += 1
        outside *= p ** (e // 2)
        inside *= p ** (e % 2)
    if rest > 1 and not flint.fmpz(rest).is_prime():
        return None
    return outside, inside * rest


def test_square_root_decisions_equal_the_old_ones_where_both_decide():
    primes = et._small_primes()[0]
    big = [32771, 32779, 65537, 1_000_003, 2 ** 31 - 1, P]
    rng = random.Random(28)
    cases = list(range(1, 2000))
    for _ in range(2500):
        n = 1
        for _ in range(rng.randint(0, 6)):
            n *= rng.choice(primes[:15] + primes[-30:]) ** rng.randint(1, 3)
        n *= rng.choice([1, rng.choice(big), rng.choice(big) ** 2, rng.choice(big) * rng.choice(big),
                         rng.choice(big) ** 2 * rng.choice(big), rng.getrandbits(rng.randint(1, 300)) | 1])
        cases.append(n)
    both = declined = 0
    for n in cases:
        old, (k, s) = _old_integer_sqrt(n), et._integer_sqrt(n)
        assert k * k * s == n, n  # exact, always
        if old is not None:
            both += 1
            assert (k, s) == old, n
        else:  # the old code asked SymPy; now the rest stays under the root, or its square root comes out
            declined += 1
            assert all(s % (p * p) for p in et._small_factors(s)), n
    assert both > 2500 and declined > 500


def test_a_rest_above_the_bound_is_decided_without_sympy():
    # the old code declined each of these (SymPy then wrote the text)
    n = 3 * 32771 ** 2 * 65537  # a square SymPy's trial division cannot see: left under the root
    assert _old_integer_sqrt(n) is None and et._integer_sqrt(n) == (1, n)
    n = 12 * (32771 * 65537) ** 2  # a square rest comes out whole
    assert _old_integer_sqrt(n) is None and et._integer_sqrt(n) == (2 * 32771 * 65537, 3)
    # a perfect power above the bound, as SymPy's perfect-power test writes it
    for n, want in [(32771 ** 3, (32771, 32771)), (8 * 32771 ** 5, (2 * 32771 ** 2, 2 * 32771)),
                    ((32771 * 65537) ** 3 * 5, (32771 * 65537, 5 * 32771 * 65537))]:
        assert _old_integer_sqrt(n) is None and et._integer_sqrt(n) == want
    # a 1700-bit radicand's kind: a composite rest without small factors
    rest = (2 ** 607 - 1) * (2 ** 521 - 1)
    assert et.sqrt_parts(Fraction(50 * rest, 9)) == (Fraction(5, 3), 2 * rest)


# -- verify --data without SymPy -------------------------------------------------------------

def test_verify_data_without_the_crosscheck_never_imports_sympy(tmp_path):
    # m = 12, d = 3, seed 0 of bench/common.random_instance: ∇Ĉ(W*)'s radicands have a
    # composite rest above 2^15 (49 and 41 bits), which the report once handed to SymPy
    rng = random.Random(0)
    X = [[rng.randint(-5, 5) for _ in range(3)] for _ in range(12)]
    y = [rng.randint(-5, 5) for _ in range(12)]
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"X": X, "y": y, "W0": [rng.randint(1, 5) for _ in range(3)]}))
    code = ("import sys\n"
            "from bnproof.cli import main\n"
            f"sys.argv = ['bnproof', 'verify', 'lemma-4.5', '--data', {str(data)!r}, '--json',\n"
            f"            '--no-crosscheck', '--out', {str(tmp_path / 'cert.json')!r}]\n"
            "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
            "print('\\nEXIT', code, sorted({m.split('.')[0] for m in sys.modules} & {'sympy', 'mpmath'}))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    *report, last = proc.stdout.rstrip("\n").split("\n")
    assert last in ("EXIT 0 []", "EXIT 1 []"), (last, proc.stderr[-2000:])
    texts = json.dumps(json.loads("\n".join(report)))
    radicands = {int(t.split(")")[0]) for t in texts.split("sqrt(")[1:] if t.split(")")[0].isdigit()}
    assert any(_old_integer_sqrt(r) is None for r in radicands)  # the case that needed SymPy
