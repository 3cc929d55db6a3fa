"""The checker cannot be hung: files that are not regular files, the a-priori work bound
of exact linear algebra (counted, not timed), the budget charged during elimination,
rendering that is linear and capped, and writers that never write what the checker
rejects."""

from __future__ import annotations

import json
import os
import random
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.checker import Rejected, check_document, check_file
from bnproof.checker import lemma as checker_lemma
from bnproof.checker.algebra import Budget, echelon, rank, solve
from bnproof.checker.parse import (MAX_LEMMA_WORK, MAX_WITNESS_DIGITS, instance_bits, lemma_work,
                                   witness_bits)
from bnproof.checker.program import MAX_LINES, render

from test_checker import FACTS, example, seal
from test_checker_program import certificate

ROOT = Path(__file__).resolve().parents[1]


# --- files that are not regular files --------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "cert.json"
    os.mkfifo(fifo)  # opening it for reading would block until someone writes
    assert check_file(fifo) == (False, f"REJECTED {fifo}: cannot read file: not a regular file")


def test_a_device_is_refused(tmp_path):
    if not os.path.exists(os.devnull) or os.name != "posix":
        pytest.skip("no /dev/null")
    assert check_file(os.devnull) == (False, f"REJECTED {os.devnull}: cannot read file: not a regular file")


# --- the work of exact linear algebra, bounded before it starts -------------------

def test_the_a_priori_work_of_a_tiny_batch_by_hand():
    # m = 3, d = 2, 4-bit numbers, no kernel, 1 neuron, witnesses of 0 bits: with
    # op(b) = b^2 + 10^5, g1 = 2*4 + 2 = 10, g2 = 2*4 + 2*2 + 2 = 14:
    # Gram 2*3*2*2 op(4) = 24 * 100016; each elimination 3*1*2 op(g) with the first pivot
    # (two entries of the second row) and none with the second; the neuron 3*2 op(8) +
    # 2*2*2 op(14)
    want = 24 * 100016 + 6 * 100100 + 6 * 100196 + 6 * 100064 + 8 * 100196
    assert lemma_work(3, 2, 4, 1, 0, 0, 0) == want


def test_the_data_of_verify_with_d_64_is_within_the_limits():
    # 1000 rows of small integers (0..9: 4 bits) with d = 64: the a-priori work is within
    # the cap and every witness the engine needs is shorter than the checker allows
    assert lemma_work(1000, 64, 4) <= MAX_LEMMA_WORK
    assert witness_bits(1000, 64, 4) <= MAX_WITNESS_DIGITS * 3
    # the bound grows faster than linearly in d: d = 300 is refused before any work
    assert lemma_work(1000, 300, 4) > MAX_LEMMA_WORK
    assert lemma_work(1000, 64, 4, n=2) > lemma_work(1000, 64, 4)


def test_instance_bits_counts_every_distinct_denominator():
    q = [Fraction(1, 3), Fraction(2, 3), Fraction(5, 7), Fraction(-9)]
    # the lcm 21 makes all integers: 7, 14, 15, -189 need at most 8 bits; the bound is
    # 4 (for 9) + 2 (for 3) + 3 (for 7) = 9
    assert instance_bits(q) == 9
    assert instance_bits([Fraction(1, 2)] * 1000) == 1 + 2  # repeated denominators count once


def _wide_lemma(m: int, d: int, digits: int) -> dict:
    """A structurally valid Lemma 4.5 certificate with an m x d batch of `digits`-digit numbers."""
    rng = random.Random(0)
    number = lambda: str(rng.randrange(10 ** (digits - 1), 10 ** digits))  # noqa: E731
    doc = example()
    doc["instance"].update(X=[[number() for _ in range(d)] for _ in range(m)], Y=[["1"]] * m,
                           W0=[["1"] * d])
    doc["witnesses"] = {"kernel": [], "neurons": [{"W_star": ["0"] * d, "verdict": "refuted",
                                                   "bn_optimum": {"kind": "ray", "direction": ["1"] * d,
                                                                  "projection": ["0"] * d}}]}
    doc["obligations"] = [{"neuron": 0, "fact": f} for f in FACTS]
    return seal(doc)


def test_a_large_lemma_certificate_is_refused_before_any_arithmetic(monkeypatch):
    def no_work(*args):
        raise AssertionError("arithmetic started")
    monkeypatch.setattr(checker_lemma, "Batch", no_work)
    # 201 x 200 of 30-digit numbers: 40,000 numbers to read, an elimination of ~10^15 units
    with pytest.raises(Rejected, match=r"too much arithmetic: .* work units a priori, more than "
                                       r"the checker's limit 3e\+13"):
        check_document(_wide_lemma(201, 200, 30))


def test_the_limit_is_the_one_the_writer_is_told(monkeypatch):
    # the same instance passes once the cap is above lemma_work of its counts
    doc = _wide_lemma(4, 3, 2)
    X = [[Fraction(x) for x in row] for row in doc["instance"]["X"]]
    # the witnesses are 0 and 1: numerator and denominator together at most 2 bits
    needed = lemma_work(4, 3, instance_bits([x for row in X for x in row] + [Fraction(1)]), 1,
                        witness=2, kernel=0, kernel_bits=0)
    monkeypatch.setattr(checker_lemma, "MAX_LEMMA_WORK", needed - 1)
    with pytest.raises(Rejected, match="a priori"):
        check_document(doc)
    monkeypatch.setattr(checker_lemma, "MAX_LEMMA_WORK", needed)
    with pytest.raises(Rejected) as info:  # past the bound: the witnesses are simply wrong
        check_document(doc)
    assert "a priori" not in str(info.value)


def test_elimination_charges_as_it_goes():
    rng = random.Random(0)
    rows = [[rng.randrange(10 ** 20) for _ in range(12)] for _ in range(12)]
    assert rank(rows, Budget(10 ** 12), "test") == 12
    with pytest.raises(Rejected, match="too much arithmetic in test"):
        echelon(rows, Budget(10 ** 6), "test")


def test_fraction_free_elimination_is_exact():
    # [[2, 1], [4, 3]] x = (3, 7): x = (1, 1); a singular system has no solution
    assert solve([[2, 1], [4, 3]], [3, 7], Budget(10 ** 9), "t") == [1, 1]
    assert all(type(x) is Fraction for x in solve([[3]], [1], Budget(10 ** 9), "t"))  # 1/3, not 0.33
    assert solve([[1, 2], [2, 4]], [1, 2], Budget(10 ** 9), "t") is None
    # ranks of rank-deficient and wide matrices: row 3 = row 1 + row 2
    assert rank([[1, 2, 3], [4, 5, 6], [5, 7, 9]], Budget(10 ** 9), "t") == 2
    assert rank([[0, 0, 1], [0, 0, 2]], Budget(10 ** 9), "t") == 1


# --- rendering: linear and capped --------------------------------------------------

def test_show_program_is_linear_and_capped():
    # a chain of 5000 additions: inlined, its residual line alone was ~40,000 characters
    # and the text grew quadratically with the chain
    steps = [["const", "1"]] + [["add", k, 0] for k in range(5000)]
    lines = render({"steps": steps, "residual": 5000, "hypotheses": [0] * 300})
    assert len(lines) <= MAX_LINES + 1
    assert max(map(len, lines)) <= 200
    assert any("lines left out" in line for line in lines)
    assert lines[-1].startswith("residual: (") and lines[-2] == "hypothesis: 1 > 0"


def test_show_program_keeps_short_programs_whole():
    lines = render({"steps": [["input", "x"], ["const", "2"], ["mul", 0, 1], ["neg", 2]],
                    "residual": 3, "hypotheses": [0]})
    assert lines == ["hypothesis: x > 0", "residual: neg((x * 2))"]


def test_show_program_on_a_large_accepted_certificate(tmp_path):
    steps = [["const", "-1"]] + [["add", k, 0] for k in range(20000)]
    path = tmp_path / "chain.json"
    path.write_text(json.dumps(certificate(steps, 20000)), encoding="utf-8")
    ok, text = check_file(path, show_program=True)
    assert ok and len(text.splitlines()) <= MAX_LINES + 2 and len(text) < 100_000


# --- writers never write what the checker rejects -------------------------------------

def test_a_program_certificate_the_checker_rejects_is_not_built():
    from bnproof.certificate.io import CheckerRefused
    from bnproof.certificate.program import build
    from bnproof.claims.api import Claim, Var
    from bnproof.claims.decide import sizes_of, trace

    # 3^(64^3) has 415,000 bits: the engine may hold it, the checker refuses it
    claim = Claim(id="me/huge", source="a test", statement="x^{64^3} < 0",
                  variables=(Var("x", ()),), residual=lambda xp, x: -((x ** 64) ** 64) ** 64)
    instance = {"x": Fraction(3)}
    with pytest.raises(CheckerRefused, match="the checker rejects the certificate built for me/huge, "
                                             "so it is not written: a number beyond 100000 bits"):
        build(claim, instance, trace(claim, sizes_of(claim, instance)))


def test_a_lemma_certificate_the_checker_rejects_is_not_built(monkeypatch):
    from bnproof.certificate.io import CheckerRefused
    from bnproof.certificate.lemma45 import build
    from bnproof.claims import lemma45
    from bnproof.instance import example_3_2

    report = lemma45.analyse(example_3_2())
    assert build(report)["verdict"] == "refuted"
    monkeypatch.setattr(checker_lemma, "MAX_LEMMA_WORK", 10)
    with pytest.raises(CheckerRefused, match="lemma-4.5, so it is not written: too much arithmetic"):
        build(report)


@pytest.mark.parametrize("seed, constant_column", [(1, False), (2, False), (3, True), (4, True)])
def test_engine_witnesses_are_within_the_bound_the_writer_is_told(seed, constant_column):
    # random batches, some with a constant column (ker Xc = that axis): every witness the
    # engine writes is shorter than witness_bits of the instance's counts
    from bnproof.certificate.lemma45 import build
    from bnproof.claims import lemma45
    from bnproof.instance import instance_from_json

    rng = random.Random(seed)
    m, d = 14, 6
    X = [[rng.randint(-9, 9) for _ in range(d)] for _ in range(m)]
    if constant_column:
        for row in X:
            row[2] = 5
    data = {"X": X, "Y": [[rng.randint(-9, 9) for _ in range(2)] for _ in range(m)],
            "W0": [[rng.randint(-3, 3) for _ in range(d)] for _ in range(2)],
            "gamma": [1, -2], "beta": [0, 0]}
    doc = build(lemma45.analyse(instance_from_json(data)))
    assert len(doc["witnesses"]["kernel"]) == (1 if constant_column else 0)
    bound = witness_bits(m, d, 4)  # entries of at most 9 in absolute value: 4 bits
    numbers = [x for v in doc["witnesses"]["kernel"] for x in v]
    for n in doc["witnesses"]["neurons"]:
        numbers += n["W_star"] + n["bn_optimum"].get("direction", []) + n["bn_optimum"].get("projection", [])
    assert max(sum(abs(int(p)).bit_length() for p in x.split("/")) for x in numbers) <= bound


def test_a_large_paper_instance_is_refused_before_the_formula_runs(monkeypatch):
    # Theorem 4.1 on m = 3000 with distinct 40-digit denominators: the sum of the batch
    # alone would carry a denominator of 400,000 bits; refused from the counts, unrun
    from bnproof.checker import formulas

    pin, _, work = formulas.FORMULAS["santurkar2018/theorem-4.1"]

    def unrun(values, budget):
        raise AssertionError("the formula ran")
    monkeypatch.setitem(formulas.FORMULAS, "santurkar2018/theorem-4.1", (pin, unrun, work))
    path = ROOT / "certificates" / "santurkar2018" / "theorem-4.1.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    m, primes = 3000, [10 ** 39 + k for k in range(1, 3001)]
    doc["sizes"] = {"m": m}
    doc["instance"]["y"] = [f"1/{p}" for p in primes]
    doc["instance"]["g"] = ["1"] * m
    with pytest.raises(Rejected, match=r"too much arithmetic for the formula of santurkar2018/theorem-4.1: "
                                       r".* work units a priori"):
        check_document(seal(doc))


def test_lemma_refusal_tells_the_writer_before_any_work():
    from bnproof.checker.parse import lemma_refusal

    rng = random.Random(5)
    small = lambda m, d: [[Fraction(rng.randint(0, 9)) for _ in range(d)] for _ in range(m)]  # noqa: E731
    assert lemma_refusal(small(1000, 64), small(1000, 1), small(1, 64)) is None
    assert "work units, more than the checker's limit" in lemma_refusal(small(400, 200), small(400, 1),
                                                                       small(1, 200))
    assert "longer than the checker's 4000 characters" in lemma_refusal(small(300, 300), small(300, 1),
                                                                        small(1, 300))
    assert "longer than 2000 characters" in lemma_refusal(small(3, 2), small(3, 1), small(1, 2),
                                                          [Fraction(10) ** 2000])
    assert "d and n <= 1000" in lemma_refusal(small(2, 1001), small(2, 1), small(1, 1001))


def test_moments_n_polynomials_share_the_normal_form_s_exponent_limit():
    """moments_n.py multiplies with symbolic_length.py's polynomials (issue 25), and with
    them comes the limit on an exponent: (n^24)^24 = n^576 is refused, not built."""
    from bnproof.checker import moments_n
    from bnproof.checker.symbolic_length import MAX_EXPONENT

    assert MAX_EXPONENT < 576
    assert moments_n.p_pow(moments_n.p_pow(moments_n.p_var("n"), 24), 21) == {(("n", 504),): 1}
    with pytest.raises(Rejected, match=f"an exponent beyond {MAX_EXPONENT}"):
        moments_n.p_pow(moments_n.p_pow(moments_n.p_var("n"), 24), 24)
