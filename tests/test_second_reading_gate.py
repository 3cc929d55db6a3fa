"""No verdict without the second reading (issue 22): every verdict the engine reaches on
a traced program is reported only when the claim's own code, read without the tracer
(bnproof.reading), agrees; a disagreement is exit 7, never a verdict.

The attacks: claims whose code takes another branch under the tracer than under numpy
(here through xp.kind, which names the backend: the crudest form of every misreading the
review found), and forged programs.  Each test fails when its gate is removed."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bnproof import reading
from bnproof.claims import Claim, Var
from bnproof.claims.decide import decide
from bnproof.claims.prove import prove_at
from bnproof.errors import Disagreement
from bnproof.search.certify import Judge


def _traced_only(xp, value):
    """`value` where the tracer runs the claim, 0 elsewhere: a claim that reads its backend."""
    return value if xp.kind == "trace" else 0


# TRUE everywhere under numpy (y0² ≥ 0); the tracer reads y0² − 1, refuted at y0 = 0.
SQUARE = Claim(id="gate/square", source="test", statement=r"y_0^2 \ge 0",
               variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
               residual=lambda xp, y: y[0] * y[0] + _traced_only(xp, -1))

# FALSE under numpy (y0 ≠ 0 at almost every instance); the tracer reads 0: "proved".
ZERO = Claim(id="gate/zero", source="test", statement="y_0 = 0", kind="identity",
             variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, exact_sizes={"m": (2, 3)},
             residual=lambda xp, y: y[0] - _traced_only(xp, y[0]))

HONEST = Claim(id="gate/honest", source="test", statement=r"y_0^2 \ge 0",
               variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
               residual=lambda xp, y: y[0] * y[0] - 1)


def test_a_refutation_the_claim_does_not_make_is_a_disagreement():
    instance = {"y": [Fraction(0), Fraction(1)]}
    assert decide(SQUARE, instance).verdict == "refuted"  # the traced program alone refutes
    with pytest.raises(Disagreement, match="differ"):
        Judge(SQUARE, floats=False).confirm(instance)


def test_an_honest_refutation_passes_the_gate():
    found = Judge(HONEST, floats=False).confirm({"y": [Fraction(0), Fraction(1)]})
    assert found is not None and "refuted" in found.established


def test_the_gate_reads_the_counterexample_not_a_witness():
    """The reading must happen at the very instance refuted: at y0 = 2 both agree."""
    instance = {"y": [Fraction(2), Fraction(1)]}
    assert decide(SQUARE, instance).verdict == "holds"
    assert Judge(SQUARE, floats=False).confirm(instance) is None


def test_a_fixed_size_proof_of_another_program_is_a_disagreement():
    with pytest.raises(Disagreement, match="proof of gate/zero at m = 2"):
        prove_at(ZERO, {"m": 2})


def test_an_honest_fixed_size_proof_is_proved():
    bn = Claim(id="gate/bn-mean-zero", source="test", statement="", kind="identity",
               variables=(Var("y", ("m",)),), sizes={"m": (2, 4)},
               hypotheses=(lambda xp, y: xp.mean((y - xp.mean(y)) ** 2),),
               residual=lambda xp, y: xp.sum((y - xp.mean(y)) / xp.sqrt(xp.mean((y - xp.mean(y)) ** 2))))
    assert prove_at(bn, {"m": 3}).proved


def test_an_inconclusive_second_reading_withholds_the_proof(monkeypatch):
    inconclusive = reading.Confirmation(reading.INCONCLUSIVE, "a construct it cannot read")
    monkeypatch.setattr(reading, "confirm_program", lambda *a, **k: inconclusive)
    bn = Claim(id="gate/centred", source="test", statement="", kind="identity",
               variables=(Var("y", ("m",)),), sizes={"m": (2, 4)},
               residual=lambda xp, y: xp.sum(y - xp.mean(y)))
    result = prove_at(bn, {"m": 3})
    assert not result.proved and "could not confirm" in result.reason


# ------------------------------------------------------------ proofs for every m


def _every_m_program(claim, fixed=None):
    from bnproof.symbolic_m.trace import program_for

    return program_for(claim, fixed or {})


CENTRED = Claim(id="gate/centred-sum", source="test", statement=r"\sum (y - \mu) = 0", kind="identity",
                variables=(Var("y", ("m",)), Var("c", ())), sizes={"m": (2, 6)},
                residual=lambda xp, y, c: xp.sum(y - xp.mean(y)) * c)


def test_an_every_m_program_equal_to_the_claim_agrees():
    from bnproof.symbolic_m.crosscheck import second_reading

    result = second_reading(CENTRED, {}, _every_m_program(CENTRED))
    assert result.status == reading.AGREES and result.compared >= 5


def test_a_forged_every_m_program_disagrees():
    """One constant changed in the symbolic-length program (mean over m becomes over m + 0,
    an input swapped for a constant...): the claim's own code reads otherwise."""
    from bnproof.symbolic_m.crosscheck import gate, second_reading

    program = json.loads(json.dumps(_every_m_program(CENTRED)))
    residual = program["residual"]
    program["steps"].append(["const", "2"])
    program["steps"].append(["mul", residual, len(program["steps"]) - 1])
    program["residual"] = len(program["steps"]) - 1  # 2·Σ(y − μ)·c: still ≡ 0 ...
    assert second_reading(CENTRED, {}, program).status == reading.AGREES  # ... so it agrees (0 = 0)
    program["steps"].append(["input", "c"])
    program["steps"].append(["add", program["residual"], len(program["steps"]) - 1])
    program["residual"] = len(program["steps"]) - 1  # + c: another function of the instance
    assert second_reading(CENTRED, {}, program).status == reading.DISAGREES
    with pytest.raises(Disagreement, match="for every m"):
        gate(CENTRED, {}, program)


def test_every_m_is_compared_beyond_the_small_sizes():
    """A misreading that shows only from m = 7 on (the review's threshold) is caught."""
    from bnproof.symbolic_m import crosscheck

    assert max(crosscheck.SIZES) >= 7 and min(crosscheck.SIZES) == 2


def test_columns_and_fixed_entries_are_renamed_to_the_claims_inputs():
    from bnproof.symbolic_m.crosscheck import claim_steps

    steps = [["input", "X:1", 4], ["input", "w:0"], ["input", "W:1:2"], ["input", "y", 3], ["input", "g"]]
    assert claim_steps(steps) == [["input", "X", 4, 1], ["input", "w", 0], ["input", "W", 1, 2],
                                  ["input", "y", 3], ["input", "g"]]


# ------------------------------------------------------------ existential claims


# TRUE: p = x is a witness.  The tracer reads the residual 1, which no p makes 0.
EXISTS = Claim(id="gate/exists", source="test", statement=r"\exists p: p = x", kind="identity",
               variables=(Var("x", ()),), exists=(Var("p", ()),),
               residual=lambda xp, x, p: p - x + _traced_only(xp, x - p + 1))


def test_no_witness_for_another_program_is_a_disagreement():
    from bnproof.search.exists import search

    with pytest.raises(Disagreement, match="certificate's program of gate/exists"):
        search(EXISTS, max_examples=5, time_budget=30)


def test_an_honest_existential_refutation_passes_the_gate():
    from bnproof.search.exists import search

    inverse = Claim(id="gate/inverse", source="test", statement=r"\exists p: p x = 1", kind="identity",
                    variables=(Var("x", ()),), exists=(Var("p", ()),), residual=lambda xp, x, p: p * x - 1)
    outcome = search(inverse, max_examples=40, time_budget=60)
    assert outcome.verdict == "refuted" and outcome.refutation.instance == {"x": 0}
