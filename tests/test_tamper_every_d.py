"""The tamper campaign's proof oracle on programs of method "every-d" (tensors with axes
of length m or d, bnproof/checker/every_d.py): it runs them itself at a few (m, d)
(tests/proof_oracle.py), so a mutant the checker accepts although its claim is false
is seen.  True programs hold; programs made false by one length, axis or broadcast
are seen as false (and the checker rejects them); an undefined step is never a value."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import tamper
from bnproof.checker import Rejected, check_document

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "certificates/santurkar2018/observation-4.3.proof.json"
X, W = ["input", "X"], ["input", "w"]

# the programs bnproof writes for docs/examples/every_d.py's true claims (symbolic_m/every_d.py)
KOHLER_VARIANCE = [X, W, ["dot", 0, 1, 1, 0], ["sum", 2, 0], ["m"], ["div", 3, 4], ["sub", 2, 5],
                   ["pow", 6, 2], ["sum", 7, 0], ["div", 8, 4], ["sum", 0, 0], ["div", 10, 4],
                   ["expand", 11, ["m", "d"], [1]], ["sub", 0, 12], ["transpose", 13],
                   ["dot", 14, 13, 1, 0], ["div", 15, 4], ["dot", 1, 16, 0, 0], ["dot", 17, 1, 0, 0],
                   ["sub", 9, 18]]
MEAN_SQUARED_DISTANCE = [X, ["m"], ["expand", 0, ["m", "m", "d"], [0, 2]],
                         ["expand", 0, ["m", "m", "d"], [1, 2]], ["sub", 2, 3], ["pow", 4, 2],
                         ["sum", 5, 2], ["sum", 6, 1], ["sum", 7, 0], ["pow", 1, 2], ["div", 8, 9],
                         ["const", "2"], ["div", 11, 1], ["sum", 0, 0], ["div", 13, 1],
                         ["expand", 14, ["m", "d"], [1]], ["sub", 0, 15], ["pow", 16, 2], ["sum", 17, 1],
                         ["sum", 18, 0], ["mul", 12, 19], ["sub", 10, 20]]
# Σ_i Σ_k x_i·x_k = ‖Σ_i x_i‖², the pairs as a broadcast (m, m, d)
PAIRS = [X, ["expand", 0, ["m", "m", "d"], [0, 2]], ["expand", 0, ["m", "m", "d"], [1, 2]],
         ["mul", 1, 2], ["sum", 3, 2], ["sum", 4, 1], ["sum", 5, 0], ["sum", 0, 0], ["dot", 7, 7, 0, 0],
         ["sub", 6, 8]]
# tr(XᵀX) = tr(XXᵀ), the diagonals taken with the identities of d and of m
TRACES = [X, ["dot", 0, 0, 0, 0], ["eye", "d"], ["mul", 1, 2], ["sum", 3, 0], ["sum", 4, 0],
          ["dot", 0, 0, 1, 1], ["eye", "m"], ["mul", 6, 7], ["sum", 8, 0], ["sum", 9, 0], ["sub", 5, 10]]


def _committed() -> dict:
    return json.loads(COMMITTED.read_text(encoding="utf-8"))


def _with(steps, hypotheses=()) -> dict:
    """The committed certificate (claim with X (m, d) and w (d,)) with another program."""
    doc = _committed()
    doc["program"].update(steps=copy.deepcopy(steps), residual=len(steps) - 1, hypotheses=list(hypotheses))
    return doc


def _changed(steps, k, step) -> list:
    out = copy.deepcopy(steps)
    out[k] = step
    return out


def test_the_oracle_holds_on_the_committed_every_d_certificate():
    doc = _committed()
    assert doc["proof"] == {"method": "every-d"}
    assert tamper.proof_holds(doc)


@pytest.mark.parametrize("steps", [KOHLER_VARIANCE, MEAN_SQUARED_DISTANCE, PAIRS, TRACES],
                         ids=["kohler-variance", "mean-squared-distance", "pairs", "traces"])
def test_the_oracle_holds_on_true_every_d_programs(steps):
    doc = _with(steps)
    check_document(tamper.seal(doc))  # the checker proves them too
    assert tamper.proof_holds(doc)


FALSE = {
    # Observation 4.3 with β = m for β = μ
    "beta-m": _changed(_committed()["program"]["steps"], 13, ["add", 12, 4]),
    # tr(I_d) = m: false only where m != d (so the oracle must try such sizes)
    "trace-d-for-m": [["eye", "d"], ["sum", 0, 0], ["sum", 1, 0], ["m"], ["sub", 2, 3]],
    # Σ_jk (XᵀX)_jk = Σ_ik (XXᵀ)_ik: the dots over the wrong axes
    "dot-axes": [X, ["dot", 0, 0, 0, 0], ["sum", 1, 0], ["sum", 2, 0], ["dot", 0, 0, 1, 1], ["sum", 4, 0],
                 ["sum", 5, 0], ["sub", 3, 6]],
    # the pairs with one broadcast twice: m Σ_i ‖x_i‖² for ‖Σ_i x_i‖²
    "broadcast-twice": _changed(PAIRS, 3, ["mul", 1, 1]),
    # tr(XᵀX) against the sum of all of XXᵀ: one identity's diagonal dropped
    "diagonal-dropped": _changed(TRACES, 8, ["mul", 6, 6]),
    # the variance of Xw against wᵀ(XᵀX/m)w: the column means taken as 0
    "uncentred": _changed(KOHLER_VARIANCE, 11, ["sub", 10, 10]),
    # the pairs x_i − x_k broadcast along one axis twice: all 0
    "expand-positions": _changed(MEAN_SQUARED_DISTANCE, 3, ["expand", 0, ["m", "m", "d"], [0, 2]]),
    # Σ_j (Σ_i X_ij)² = Σ_i (Σ_j X_ij)²: a sum over the other axis
    "sum-axis": [X, ["sum", 0, 0], ["pow", 1, 2], ["sum", 2, 0], ["sum", 0, 1], ["pow", 4, 2], ["sum", 5, 0],
                 ["sub", 3, 6]],
}


@pytest.mark.parametrize("name", sorted(FALSE))
def test_the_oracle_sees_a_false_every_d_program(name):
    doc = _with(FALSE[name])
    assert not tamper.proof_holds(doc)
    with pytest.raises(Rejected):  # and the checker does not prove it
        check_document(tamper.seal(doc))


def test_an_undefined_step_is_never_a_value():
    """sqrt(sqrt(S)⁴) = S wherever sqrt(S) is defined (S = Σ_ij X_ij >= 0); at S < 0 a root of
    a negative number read as a complex value would make it false (sqrt(4) = 2 != S)."""
    steps = [X, W, ["dot", 0, 1, 1, 0], ["sum", 0, 0], ["sum", 3, 0], ["sqrt", 4], ["pow", 5, 4],
             ["sqrt", 6], ["sub", 7, 4]]
    assert tamper.proof_holds(_with(steps))
    # and the same with S replaced by −S² − 1 < 0 everywhere: never defined, never false
    negative = steps[:5] + [["pow", 4, 2], ["const", "1"], ["add", 5, 6], ["neg", 7], ["sqrt", 8],
                            ["pow", 9, 4], ["sqrt", 10], ["sub", 11, 8]]
    assert tamper.proof_holds(_with(negative))
    # a division by 0 likewise: 1/(S − S) is never defined
    zero = steps[:5] + [["sub", 4, 4], ["const", "1"], ["div", 6, 5], ["sub", 7, 6]]
    assert tamper.proof_holds(_with(zero))


def test_the_hypotheses_and_a_batch_of_one_are_read():
    """(m − 2)(m − 3) = 0 is false only at m = 1 among the sizes tried; with the hypothesis
    m − 3/2 > 0 it holds there."""
    steps = [["m"], ["const", "2"], ["sub", 0, 1], ["const", "3"], ["sub", 0, 3], ["mul", 2, 4]]
    assert not tamper.proof_holds(_with(steps))
    hypothesis = steps + [["const", "3/2"], ["sub", 0, 6]]
    doc = _with(hypothesis, hypotheses=[7])
    doc["program"]["residual"] = 5
    assert tamper.proof_holds(doc)


@pytest.mark.parametrize("kind", [["identity"], {"identity": 1}, None, 3])
def test_a_claim_kind_of_another_type_is_a_rejection_not_a_crash(kind):
    """Found by the campaign (2000 mutants, seed 1: claim.kind and claim.variables swapped):
    a list as the claim's kind made the every-d checker raise TypeError (unhashable)."""
    doc = _committed()
    doc["claim"]["kind"] = kind
    with pytest.raises(Rejected):
        check_document(tamper.seal(doc))


def _squares(steps, residual, terms, extra=()) -> dict:
    """An inequality proved as a sum of squares (proof.squares, checker/every_d_squares.py)."""
    doc = _with(steps)
    doc["claim"]["kind"] = doc["program"]["kind"] = "inequality"
    doc["program"]["residual"] = residual
    doc["proof"] = {"method": "every-d", "squares": {"steps": list(extra), "terms": terms}}
    return doc


# Σ_ij (X − μ)²_ij · m + Σ_i ((X − μ)w)_i² >= 0: m·Σ T∘T + 1·Σ U∘U
CENTRED = [X, W, ["m"], ["sum", 0, 0], ["div", 3, 2], ["expand", 4, ["m", "d"], [1]], ["sub", 0, 5],
           ["pow", 6, 2], ["sum", 7, 1], ["sum", 8, 0], ["dot", 6, 1, 1, 0], ["pow", 10, 2], ["sum", 11, 0],
           ["mul", 9, 2], ["add", 13, 12], ["const", "1"]]


def test_the_oracle_holds_on_an_every_d_sum_of_squares():
    doc = _squares(CENTRED, 14, [[2, 6], [15, 10]])
    assert "as a sum of 2 squares" in check_document(tamper.seal(doc))
    assert tamper.proof_holds(doc)


def test_a_forged_sum_of_squares_is_rejected_and_seen_false():
    """Observation 4.3's program with the residual −1, "proved" >= 0 by one square with
    coefficient 1: the checker must compare the residual with the squares' sum (a
    working-tree edit that skipped that comparison accepted it), and the oracle sees −1 < 0."""
    doc = _committed()
    n = len(doc["program"]["steps"])  # its residual (0) plus -1: its divisions stay read
    steps = doc["program"]["steps"] + [["const", "-1"], ["add", doc["program"]["residual"], n]]
    forged = _squares(steps, len(steps) - 1, [[len(steps), 0]], extra=[["const", "1"]])
    forged["program"]["hypotheses"] = doc["program"]["hypotheses"]
    assert not tamper.proof_holds(forged)
    with pytest.raises(Rejected, match="squares"):
        check_document(tamper.seal(forged))
