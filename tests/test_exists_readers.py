"""The one reading of existential claims and their programs that existential and witness
certificates share (checker/existential.py: read_claim, read_program), the hint
composition of witness certificates (exists_witnesses.py) and the smt query binding
(exists_query.py): forged certificates, sealed with a valid digest, that a careless
merge of the readers would accept."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from bnproof import __version__
from bnproof.checker import Rejected, check_document
from tamper import seal

FROZEN = Path(__file__).resolve().parent / "adversarial" / "frozen"

# for every x there is a 2 x 2 matrix P with P[0][1] = x and P[1][0] = -x
CLAIM = {"id": "t/off-diagonal", "source": "test", "statement": "P_{01} = x, P_{10} = -x", "kind": "identity",
         "variables": [{"name": "x", "shape": [], "domain": "real"}],
         "exists": [{"name": "P", "shape": [2, 2], "domain": "real"}]}
PROGRAM = {"steps": [["input", "x"], ["input", "P", 0, 0], ["input", "P", 0, 1], ["input", "P", 1, 0],
                     ["input", "P", 1, 1], ["sub", 2, 0], ["add", 3, 0]],
           "residuals": [5, 6], "hypotheses": []}
# the hint P = [[0, x], [-x, 0]]: its outputs are the entries of P, row-major
HINT = {"steps": [["input", "x"], ["neg", 0], ["const", "0"]], "outputs": [2, 0, 1, 2]}


def witnesses(outputs=(2, 0, 1, 2), witness=(("0", "3"), ("-3", "0"))) -> dict:
    return seal({
        "format": "bnproof-certificate", "version": 2, "bnproof_version": __version__, "claim": CLAIM,
        "verdict": "witnessed",
        "parts": [{"sizes": {}, "program": PROGRAM, "hints": [{**HINT, "outputs": list(outputs)}],
                   "witnessed": [{"instance": {"x": "2"}, "hint": 0},
                                 {"instance": {"x": "3"}, "witness": {"P": [list(r) for r in witness]}}]}]})


def test_the_honest_witnesses_of_a_matrix_are_accepted():
    assert "witnessed (a witness confirmed exactly at each of 2 instances" in check_document(witnesses())


def test_a_hint_whose_outputs_are_the_matrix_transposed_is_rejected():
    """Outputs column-major, [P00, P10, P01, P11]: P01 = -x, so P01 - x = -4 at x = 2.  A
    reader that numbered the existential entries in another order than row-major (or
    copied one output into every entry) would accept it, or reject the honest one."""
    with pytest.raises(Rejected, match=r"witnessed\[0\]: residual 0: the value of step \d+ is not zero"):
        check_document(witnesses(outputs=(2, 1, 0, 2)))


def test_a_witness_matrix_transposed_is_rejected():
    with pytest.raises(Rejected, match=r"witnessed\[1\]: residual 0: the value of step 5 is not zero"):
        check_document(witnesses(witness=(("0", "-3"), ("3", "0"))))


def farkas() -> dict:
    """for every x there is p with p * 0 - 1 = 0: none, and y = (1) shows it."""
    return seal({
        "format": "bnproof-certificate", "version": 2, "bnproof_version": __version__,
        "claim": {**CLAIM, "id": "t/none", "statement": "0 p = 1",
                  "exists": [{"name": "p", "shape": [], "domain": "real"}]},
        "sizes": {}, "instance": {"x": "2"},
        "program": {"steps": [["input", "x"], ["input", "p"], ["const", "0"], ["mul", 1, 2], ["const", "1"],
                              ["sub", 3, 4], ["pow", 1, 2], ["const", "1"], ["add", 6, 7]],
                    "residuals": [5], "hypotheses": []},
        "nonexistence": {"method": "farkas", "multipliers": ["1"]}, "verdict": "refuted"})


def test_the_farkas_certificate_is_accepted():
    assert "t/none refuted (no witness: a Farkas certificate, sum y_i b_i = -1" in check_document(farkas())


@pytest.mark.parametrize("kind", ["nonexistence", "witnesses"])
def test_a_hypothesis_that_reads_p_is_rejected_by_both_readers(kind):
    """p^2 + 1 > 0 holds for every p, and at p = 0 too: only the reader's degree analysis
    sees that the hypothesis reads p (a hypothesis on p would let the certificate choose
    the instances the claim speaks of).  Both kinds read the program through one reader."""
    if kind == "nonexistence":
        doc = farkas()
        doc["program"]["hypotheses"] = [8]
        where = "program"
    else:
        doc = witnesses()
        program = doc["parts"][0]["program"] = copy.deepcopy(PROGRAM)
        program["steps"] += [["pow", 1, 2], ["const", "1"], ["add", 7, 8]]
        program["hypotheses"] = [9]
        where = r"parts\[0\]\.program"
    with pytest.raises(Rejected, match=where + r": hypothesis 0 depends on an existential variable"):
        check_document(seal(doc))


@pytest.mark.parametrize("name", ["c5_dead_inverse.json", "c5_sigma_square.json"])
def test_the_checker_alone_rejects_a_query_that_is_not_the_program_s(name):
    """Certificates 7329b19 issued for true claims (tests/test_adversarial_classes.py): their
    queries asked every step to be defined, read or not.  The solvers' unsat is the
    certificate's word, but the query it answers is bound here: without --claim, without
    a solver, the checker rejects them, and only for that (exists_query.py says why)."""
    doc = json.loads((FROZEN / name).read_text(encoding="utf-8"))
    with pytest.raises(Rejected, match="^nonexistence.query: not the query of this program and instance$"):
        check_document(doc)


@pytest.mark.parametrize("hint, match", [
    ({"steps": [["input", "P", 0, 1]], "outputs": [0, 0, 0, 0]}, "input names 'P', not a variable of the instance"),
    ({**HINT, "outputs": [2, 0, 1]}, r"hints\[0\]\.outputs: expected 4 entries, got 3"),
])
def test_a_hint_no_witness_uses_is_read_all_the_same(hint, match):
    """Every byte of a part is read: a hint that reads p, or gives P three entries, is
    rejected though every entry is a plain witness (a reader that read a hint only on use
    would accept it)."""
    doc = witnesses()
    part = doc["parts"][0]
    part["hints"] = [hint]
    part["witnessed"] = [{"instance": {"x": "3"}, "witness": {"P": [["0", "3"], ["-3", "0"]]}}]
    with pytest.raises(Rejected, match=match):
        check_document(seal(doc))
