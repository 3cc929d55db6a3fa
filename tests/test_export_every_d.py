"""`bnproof export CERT.proof.json --m N --d N` for every-d certificates
(certificate/smtlib_every_d.py): the tensor program written out at (m, d) by the exporter's
own instantiation, confirmed by z3 (and cvc5 where quick), a near-miss program answering
sat, and --d refused, one line, exit 3, where it does not apply or is out of range."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from bnproof.certificate.smtlib import CertificateRejected
from bnproof.certificate.smtlib_proof import proof_smt
from bnproof.certificate.solvers import solve
from bnproof.checker import Rejected, check_document
from bnproof.claims.api import load_file
from bnproof.errors import BadInput, ExitCode
from tests.tamper import seal
from tests.test_latex import one_line_error
from tests.test_smtlib import export_here

ROOT = Path(__file__).resolve().parents[1]
OBSERVATION = ROOT / "certificates/santurkar2018/observation-4.3.proof.json"
FIXED_M = ROOT / "certificates/dannemann2025/remark-2.7/corrected.proof.json"
GALLERY = ROOT / "docs/examples/every_d.py"
# the gallery's true claims, two of them proved by squares (kohler-nonnegative, norm-grows)
PROVED = ("same-activations", "kohler-variance", "mean-squared-distance", "centroid",
          "kohler-nonnegative", "norm-grows")


def observation():
    return json.loads(OBSERVATION.read_text())


def beta_dropped():
    """Observation 4.3 with γ·ŷ for γ·ŷ + β (step 13 the identity on step 12), resealed."""
    doc = observation()
    assert doc["program"]["steps"][13] == ["add", 12, 5]  # γ·ŷ + β, β = μ (step 5)
    doc["program"]["steps"][13] = ["pow", 12, 1]
    return seal(doc)


@pytest.mark.parametrize("md", [(2, 1), (2, 2), (3, 2)])
def test_the_committed_every_d_proof_is_confirmed_by_z3(md):
    assert solve(proof_smt(observation(), *md), "z3", timeout=300) == "unsat"


@pytest.mark.parametrize("md", [(2, 1), (2, 2)])
def test_cvc5_confirms_the_committed_every_d_proof(md):
    assert solve(proof_smt(observation(), *md), "cvc5", timeout=300) == "unsat"


def test_what_is_asserted_at_m_and_d():
    text = proof_smt(observation(), 2, 2)
    assert text.startswith("; bnproof proof certificate santurkar2018/observation-4.3 (")
    assert "at m = 2, d = 2" in text.splitlines()[0]
    # the entries the shapes give at (m, d): X (m, d), w (d,); at (3, 1) other counts
    assert text.count("; X[") == 4 and "; X[1][1]" in text and text.count("; w[") == 2
    other = proof_smt(observation(), 3, 1)
    assert other.count("; X[") == 3 and other.count("; w[") == 1 and "; X[2][0]" in other
    # every division's divisor, the root's radicand, the hypothesis σ² > 0: asserted
    assert text.count("divisor nonzero") == 3 and "radicand nonnegative" in text
    assert "hypothesis 0 > 0" in text
    last = [line for line in text.splitlines() if line.startswith("(assert")][-1]
    assert last.startswith("(assert (not (= v")  # an identity: residual != 0


@pytest.mark.parametrize("name", PROVED)
def test_the_gallery_proofs_are_confirmed_at_two_d(name):
    from bnproof.symbolic_m.every_d import attempt

    claim = next(c for c in load_file(GALLERY) if c.id.endswith("/" + name))
    a = attempt(claim)
    assert a.proved, a.reason
    assert a.document["proof"]["method"] == "every-d"
    for md in [(2, 1), (2, 2)]:
        assert solve(proof_smt(a.document, *md), "z3", timeout=300) == "unsat", md


@pytest.mark.parametrize("md", [(2, 1), (2, 2), (3, 2)])
def test_a_near_miss_program_answers_sat(md):
    # exported although the checker rejects its proof: the solver judges the program alone
    doc = beta_dropped()
    with pytest.raises(Rejected):
        check_document(doc)
    assert solve(proof_smt(doc, *md), "z3", timeout=300) == "sat"


def test_the_exporter_does_not_use_the_checkers_instantiation(monkeypatch):
    from bnproof.checker import every_d

    def refuse(*_):
        raise AssertionError("the checker's instantiation was used")

    monkeypatch.setattr(every_d, "instantiate", refuse)
    assert "(check-sat)" in proof_smt(observation(), 2, 2)


def test_bad_d_and_broken_every_d_documents(monkeypatch):
    from bnproof.certificate import smtlib_every_d

    doc = observation()
    with pytest.raises(BadInput, match="--d"):
        proof_smt(doc, 2)  # an every-d proof needs d
    for d in (0, -1, 65, 10**9, "2", 2.0, True):
        with pytest.raises(BadInput, match="--d must be"):
            proof_smt(doc, 2, d)
    with pytest.raises(BadInput, match="--m"):
        proof_smt(doc, 0, 2)
    with pytest.raises(BadInput, match="--d applies"):  # d where there is none to set
        proof_smt(json.loads(FIXED_M.read_text()), 2, 1)
    broken = copy.deepcopy(doc)
    broken["program"]["steps"][5] = ["div", 3, 6]  # a forward reference, resealed
    with pytest.raises(CertificateRejected, match="earlier step"):
        proof_smt(seal(broken), 2, 1)
    with pytest.raises(CertificateRejected, match="digest"):
        proof_smt({**doc, "digest": "sha256:" + "0" * 64}, 2, 1)

    # in range but too large to write out: refused from the axes, before any entry is built
    def built(*_):
        raise AssertionError("an entry was built")

    monkeypatch.setattr(smtlib_every_d, "MAX_OPERANDS", 1000)
    monkeypatch.setattr(smtlib_every_d._Writer, "step", built)
    with pytest.raises(BadInput, match="too large"):
        proof_smt(doc, 64, 64)


# --- the command (in this process, tests.test_smtlib.export_here) ----------------------

def test_the_command_states_an_every_d_proof_at_m_and_d(tmp_path):
    out = tmp_path / "o.smt2"
    proc = export_here(OBSERVATION, "--m", "2", "--d", "2", "--solve", "z3", "--timeout", "300",
                       "-o", out, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "holds at m = 2, d = 2" in proc.stdout
    assert out.read_text() == proof_smt(observation(), 2, 2)
    near = tmp_path / "near.proof.json"
    near.write_text(json.dumps(beta_dropped()))
    # under the committed claim's id, a program that is not the claim's is refused (exit 6)
    one_line_error(export_here(near, "--m", "2", "--d", "1", cwd=tmp_path), ExitCode.REJECTED, "not the one")


def test_d_is_required_for_every_d_and_refused_elsewhere(tmp_path):
    one_line_error(export_here(OBSERVATION, cwd=tmp_path), ExitCode.BAD_INPUT, "--d")
    one_line_error(export_here(OBSERVATION, "--m", "2", cwd=tmp_path), ExitCode.BAD_INPUT, "--d")
    one_line_error(export_here(FIXED_M, "--m", "2", "--d", "1", cwd=tmp_path), ExitCode.BAD_INPUT,
                   "--d applies")
    one_line_error(export_here(ROOT / "certificates/santurkar2018/theorem-4.1.json", "--d", "2", cwd=tmp_path),
                   ExitCode.BAD_INPUT, "--d applies")


@pytest.mark.parametrize("d", ["0", "-1", "65", str(10**9), str(10**40)])
def test_a_hostile_d_is_one_line_exit_3(d, tmp_path):
    one_line_error(export_here(OBSERVATION, "--m", "2", "--d", d, cwd=tmp_path), ExitCode.BAD_INPUT, "--d")


def test_the_export_reads_the_statement_as_the_checker_does():
    """The exporter states what the checker's read_statement (checker/every_d.py) reads, not a
    laxer copy of it: a conditioned step that neither the residual nor a hypothesis reads,
    and a claim whose texts are not strings, are refused by both, with the checker's words."""
    unread = observation()
    unread["program"]["steps"].append(["div", 3, 4])  # Σ/m, read by nothing
    untexted = observation()
    untexted["claim"]["source"] = 5
    for doc, words in ((seal(unread), "read by neither the residual nor a hypothesis"),
                       (seal(untexted), "source and statement must be strings")):
        with pytest.raises(Rejected, match=words):
            check_document(doc)
        with pytest.raises(CertificateRejected, match=words):
            proof_smt(doc, 2, 1)
