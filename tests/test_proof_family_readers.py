"""The every-m and every-d proof certificates share their readers (issue 25:
checker/proof.py, symbolic_program.py and instantiate.py read and write out for
every_d.py too), but each family keeps its own operations, input types, claim
keys, witness sizes and limits: a construct only one family's reader accepts is
still rejected in the other's certificate, where the shared reader stops it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.checker import every_d, symbolic_program
from tamper import seal

ROOT = Path(__file__).resolve().parents[1]
EVERY_D = ROOT / "certificates/santurkar2018/observation-4.3.proof.json"  # X (m, d), w (d,)
EVERY_M = ROOT / "certificates/santurkar2018/theorem-4.1/as-derived.proof.json"  # y, g (m,), gamma


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _rejected(doc: dict, match: str) -> None:
    with pytest.raises(Rejected, match=match):
        check_document(seal(doc))


def _with_step(path: Path, step: list) -> dict:
    """The committed certificate with one more step, read by nothing (no condition of its
    own, so only the reader of its operation can stop it)."""
    doc = _load(path)
    doc["program"]["steps"].append(step)
    return doc


def test_the_committed_certificates_of_both_families_are_accepted():
    assert "proved for every m and every d" in check_document(_load(EVERY_D))
    assert "proved for every m:" in check_document(_load(EVERY_M))


@pytest.mark.parametrize("step", [["ones"], ["outer", 1, 1], ["matmul", 0, 1], ["grad", 16, 1]])
def test_an_every_m_operation_in_an_every_d_program_is_not_a_known_operation(step):
    _rejected(_with_step(EVERY_D, step), r"program\.steps\[18\]: expected a list that starts with a known operation")


def test_the_every_m_identity_in_an_every_d_program_has_the_every_d_arity():
    _rejected(_with_step(EVERY_D, ["eye"]), r"program\.steps\[18\]: eye takes 1 arguments, got 0")


@pytest.mark.parametrize("step", [["d"], ["dot", 0, 0, 0, 0], ["expand", 0, ["m"], [0]]])
def test_an_every_d_operation_in_an_every_m_program_is_not_a_known_operation(step):
    _rejected(_with_step(EVERY_M, step), r"program\.steps\[39\]: expected a list that starts with a known operation")


def test_the_every_d_identity_in_an_every_m_program_has_the_every_m_arity():
    _rejected(_with_step(EVERY_M, ["eye", "m"]), r"program\.steps\[39\]: eye takes 0 arguments, got 1")


def test_equality_hypotheses_are_an_every_m_construct_only():
    doc = _load(EVERY_D)
    doc["claim"]["equalities"] = 1
    doc["program"]["equalities"] = [doc["program"]["residual"]]
    _rejected(doc, "claim: unexpected key 'equalities'")


def test_each_family_reads_its_own_input_types_and_domains():
    assert every_d.read_inputs([["w", "feature", "real"], ["X", "matrix", "real"]]) == \
        [("w", "feature", "real"), ("X", "matrix", "real")]
    assert symbolic_program.read_inputs([["y", "vector", "positive"], ["H", "matrix", "symmetric"]]) == \
        [("y", "V", "positive"), ("H", "M", "symmetric")]
    for item in (["y", "vector", "positive"], ["H", "matrix", "symmetric"], ["s", "scalar", "symmetric"]):
        with pytest.raises(Rejected, match="not a type and domain"):
            every_d.read_inputs([item])
    with pytest.raises(Rejected, match="not a type and domain"):
        symbolic_program.read_inputs([["w", "feature", "real"]])


def test_each_family_has_its_own_witness_sizes():
    doc = _load(EVERY_M)
    doc["witness"]["d"] = 2
    _rejected(doc, "witness: unexpected key 'd'")
    doc = _load(EVERY_D)
    del doc["witness"]["d"]
    _rejected(doc, "witness: missing key 'd'")
    doc = _load(EVERY_D)
    doc["witness"]["d"] = 17  # every-d's witness: d <= 16
    _rejected(doc, r"witness\.d: m and d must be integers from 1 to 32 and 16")
    doc = _load(EVERY_M)
    doc["witness"]["m"] = 33
    _rejected(doc, r"witness\.m: m must be an integer from 1 to 32")


def test_an_every_d_residual_is_a_step_of_no_axes():
    doc = _load(EVERY_D)
    doc["program"]["residual"] = 0  # X itself, (m, d)
    _rejected(doc, r"program\.residual: step 0 is not a scalar")
    doc = _load(EVERY_D)
    doc["program"]["hypotheses"] = [1]  # w, (d,)
    _rejected(doc, r"program\.hypotheses\[0\]: step 1 is not a scalar")


def test_an_every_d_program_is_written_out_within_its_own_step_limit():
    """Twenty-five products of (m, m, d) tensors at m = 32, d = 16: 409,600 scalar steps,
    over every-d's 400,000 though within the every-m writer's 1,000,000 (and within
    every-d's 2,000,000 entries), so only every-d's own limit stops it."""
    inputs = every_d.read_inputs([["X", "matrix", "real"]])
    steps = [["input", "X"], ["expand", 0, ["m", "m", "d"], [0, 2]]] + [["mul", 1, 1]] * 25
    ops = every_d.read_steps(steps, inputs)
    with pytest.raises(Rejected, match="the program at m = 32, d = 16 has more than 400000 scalar steps"):
        every_d.instantiate(inputs, ops, 32, 16)
    assert len(every_d.instantiate(inputs, ops[:-1], 32, 16)[0]) < 400_000



@pytest.mark.parametrize("family", ["every-m", "every-d"])
def test_a_negative_power_is_written_out_as_a_division(family):
    """The shared writer (instantiate.write) writes s^-2 as 1 / s^2, so the witness's
    evaluation asks s != 0 as the program's definedness does: a base 0 is rejected."""
    from fractions import Fraction

    from bnproof.checker import program as fixed
    from bnproof.checker.instantiate import instantiate

    steps = [["input", "s"], ["pow", 0, -2]]
    if family == "every-m":
        inputs, types = symbolic_program.read_inputs([["s", "scalar", "real"]]), []
        written, scalars = instantiate(inputs, symbolic_program.read_steps(steps, inputs, types, "steps"), types, 2)
    else:
        inputs = every_d.read_inputs([["s", "scalar", "real"]])
        written, scalars = every_d.instantiate(inputs, every_d.read_steps(steps, inputs), 2, 3)
    assert fixed.run(fixed.parse_steps(written, {"s": Fraction(2)}), 64, [0])[scalars[1]] == Fraction(1, 4)
    with pytest.raises(Rejected, match="division by zero"):
        fixed.evaluate(fixed.parse_steps(written, {"s": Fraction(0)}), [])
