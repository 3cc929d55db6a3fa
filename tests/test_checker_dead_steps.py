"""A proof certificate's program has no step with a condition of its own (a division, a
root, a negative power, a gradient) that its statement does not read
(bnproof/checker/live_steps.py; docs/certificates.md, "Proof certificates").

A proof assumes "every step defined".  A step read by neither the residual nor a
hypothesis (nor an equality) would still count there, a hypothesis the statement does not
show: an unread y_hat = (y - mu) / sigma made sigma nonzero, hence sigma > 0, and a forged
certificate of the false "sigma(y) > 0" was accepted.  Each forgery below starts from a
certificate bnproof wrote (tests/redteam_session28/, or the prover run here), adds unread
steps, is sealed again (tests/tamper.py) and must be rejected for that step; bnproof's own
proofs (every committed certificate here, every gallery proof in tests/test_gallery.py) have
no such step."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.claims.api import load_file
from tamper import seal

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "tests" / "redteam_session28"
DEAD = "read by neither the residual nor a hypothesis, yet it has a condition"
MOMENTS = ROOT / "docs" / "examples" / "every_n_moments.py"


def load(name: str) -> dict:
    return json.loads((HERE / f"{name}.proof.json").read_text(encoding="utf-8"))


def sigma_positive(unread: list, proof_steps: list = ()) -> dict:
    """"sigma(y) > 0" (false: a constant batch has sigma = 0), written over the program of
    the gallery's mean-square proof: steps 0..8 compute sigma, the residual; `unread` are
    appended after them; the proof is the single term sigma."""
    doc = copy.deepcopy(load("mean-square"))
    doc["claim"].update(id="gallery/every_m_inequalities/sigma-positive", kind="strict-inequality",
                        statement="\\sigma(y) > 0", source="a forgery: false for a constant batch")
    doc["program"].update(kind="inequality", strict=True, residual=8, steps=[
        ["input", "y"], ["m"], ["sum", 0], ["div", 2, 1], ["sub", 0, 3], ["mul", 4, 4],
        ["sum", 5], ["div", 6, 1], ["sqrt", 7], *unread])
    doc["proof"] = {"method": "nonnegative", "steps": list(proof_steps), "denominator": [],
                    "terms": [{"coefficient": "1", "factors": [8]}]}
    doc["witness"] = {"m": 2, "inputs": {"y": ["0", "1"]}}
    return seal(doc)


def test_the_forged_claim_is_false():
    """Decided here with Fractions, not by the checker: at y = (1, 1) sigma is 0."""
    y = [Fraction(1), Fraction(1)]
    mu = sum(y) / len(y)
    assert sum((v - mu) ** 2 for v in y) / len(y) == 0


def test_sigma_positive_with_an_unread_division_by_sigma_is_rejected():
    with pytest.raises(Rejected, match=r"program\.steps\[9\]: " + DEAD):
        check_document(sigma_positive([["div", 4, 8]]))


def test_an_unread_root_read_only_by_the_proof_proves_nothing():
    """sum(y) - 1 >= 0 (false at y = 0) "proved" as sqrt(R) * sqrt(R), sqrt(R) a program step
    the residual does not read: "every step defined" would assume R >= 0.  Accepted before."""
    doc = load("mean-square")
    doc["program"].update(residual=3, steps=[["input", "y"], ["sum", 0], ["const", "1"], ["sub", 1, 2],
                                             ["sqrt", 3]])
    doc["proof"] = {"method": "nonnegative", "steps": [], "denominator": [],
                    "terms": [{"coefficient": "1", "factors": [4, 4]}]}
    doc["witness"] = {"m": 2, "inputs": {"y": ["2", "0"]}}
    with pytest.raises(Rejected, match=r"program\.steps\[4\]: " + DEAD):
        check_document(seal(doc))


def test_an_unread_step_anywhere_in_the_program_is_rejected():
    """Not only the last step: an unread step before the residual, nothing after it."""
    doc = load("mean-square")
    steps = doc["program"]["steps"]
    doc["program"]["steps"] = [*steps[:8], ["div", 0, 6], steps[8]]
    doc["program"]["residual"] = 9
    doc["proof"]["steps"] = [[op, *(a + 1 if type(a) is int and a >= 8 and op != "pow" else a
                                    for a in args)] for op, *args in doc["proof"]["steps"]]
    doc["proof"]["terms"][0]["factors"] = [2, 14]
    with pytest.raises(Rejected, match=r"program\.steps\[8\]: " + DEAD):
        check_document(seal(doc))


def test_an_unread_step_without_a_condition_is_left_alone():
    """An unread sum assumes nothing (defined wherever its operands are): still accepted."""
    doc = load("mean-square")
    doc["program"]["steps"].append(["sum", 0])
    doc["proof"]["steps"] = [[op, *(a + 1 if type(a) is int and a >= 9 and op != "pow" else a
                                    for a in args)] for op, *args in doc["proof"]["steps"]]
    doc["proof"]["terms"][0]["factors"] = [2, 14]
    assert "proved for every m" in check_document(seal(doc))


def test_a_proof_step_dividing_by_sigma_is_no_back_door():
    """Guard (rejected before this change too): proof steps must be defined wherever the
    program is, so a proof step sigma / sigma does not make sigma > 0."""
    with pytest.raises(Rejected, match=r"proof step 9: divides by step 8, which is not manifestly > 0"):
        check_document(sigma_positive([], proof_steps=[["div", 8, 8]]))


def test_every_d_squares_of_an_unread_root_prove_nothing():
    """|w|^2 - 1 >= 0 (false at w = 0) "proved" as 1 * (sqrt R)^2, sqrt R a program step
    the residual does not read (the squares' own steps may not take roots; the program's
    could).  Accepted before."""
    doc = load("kohler-nonnegative")
    doc["program"].update(residual=5, steps=[["input", "X"], ["input", "w"], ["pow", 1, 2], ["sum", 2, 0],
                                             ["const", "1"], ["sub", 3, 4], ["sqrt", 5]])
    doc["proof"] = {"method": "every-d", "squares": {"steps": [["const", "1"]], "terms": [[7, 6]]}}
    doc["witness"]["inputs"]["w"] = ["2"]
    with pytest.raises(Rejected, match=r"program\.steps\[6\]: " + DEAD):
        check_document(seal(doc))


def test_every_d_with_an_unread_division_is_rejected():
    """w^T S w >= 0 with an unread step dividing by w.w (a hidden w != 0)."""
    doc = load("kohler-nonnegative")
    doc["program"]["steps"] += [["dot", 1, 1, 0, 0], ["div", 13, 14]]
    # the squares' own steps follow the program's: 14.. moves to 16..
    doc["proof"]["squares"] = {"steps": [["dot", 6, 1, 1, 0], ["const", "1"], ["m"], ["div", 17, 18]],
                               "terms": [[19, 16]]}
    doc["witness"]["inputs"]["w"] = ["1"]
    with pytest.raises(Rejected, match=r"program\.steps\[15\]: " + DEAD):
        check_document(seal(doc))


def test_a_hint_proof_with_an_unread_step_is_rejected():
    """A hint proof proves its definedness obligations (unread steps' too), so an unread
    step hid no hypothesis there; it is rejected by the same rule, read off the same
    program, so that no reader of a proof's steps has to know which are read."""
    doc = load("inverse-defined")
    doc["program"]["steps"].append(["div", 0, 1])  # y / sum(y): sum(y) is an obligation already
    with pytest.raises(Rejected, match=r"program\.steps\[7\]: " + DEAD):
        check_document(seal(doc))


def test_moments_n_with_an_unread_division_is_rejected():
    """Bessel's correction with an unread step dividing by E[X] (a hidden E[X] != 0)."""
    claim = next(c for c in load_file(MOMENTS) if c.id.endswith("/bessel"))
    from bnproof.symbolic_m.prove import attempt

    doc = copy.deepcopy(attempt(claim, {"k": 1}).document)
    program = doc["program"]
    mean = next(k for k, s in enumerate(program["steps"])
                if s[0] == "expect" and program["steps"][s[1]][0] == "draw")
    program["steps"].append(["div", program["residual"], mean])
    doc["witness"]["inputs"].update(X_support=["1"], batch=["1", "1"])
    with pytest.raises(Rejected, match=r"program\.steps\[\d+\]: " + DEAD):
        check_document(seal(doc))


@pytest.mark.parametrize("path", sorted((ROOT / "certificates").rglob("*.proof.json")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_proof_certificates_are_still_accepted(path):
    assert "proved for every" in check_document(json.loads(path.read_text(encoding="utf-8")))


# Every gallery proof is written without an unread step and accepted: tests/test_gallery.py
# (test_every_gallery_proof_is_written_and_accepted), beside the gallery's own search, whose
# proofs for every m it reads instead of proving each claim a second time.
