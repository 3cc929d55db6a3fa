"""`bnproof export CERT.proof.json --m N`: a claim proved for every m, stated at one m as
SMT-LIB for z3 and cvc5 (hypotheses, domains and every side condition asserted with the
claim's negation, so unsat confirms the claim at that m and a false one answers sat).

The solvers are slow on the papers' identities at m = 3 (z3 takes about 15 s on Theorem
4.1, cvc5 times out on most of them even at m = 2), so the committed certificates are
confirmed by z3 at m = 2 and by both solvers where they answer quickly; the hand-built
certificates (Cauchy-Schwarz, the variance identity) are confirmed by both at m = 2 and 3."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from bnproof.certificate.smtlib import CertificateRejected
from bnproof.certificate.smtlib_proof import proof_smt
from bnproof.certificate.solvers import solve
from bnproof.errors import BadInput, ExitCode
from tests.tamper import seal
from tests.test_checker_proof import Y, ProgramBuilder, cauchy, certificate, claim, theorem_41
from tests.test_latex import bnproof, one_line_error
from tests.test_redteam_proof import only_at_two
from tests.test_smtlib import export_here

ROOT = Path(__file__).resolve().parents[1]
PROOFS = sorted((ROOT / "certificates").rglob("*.proof.json"))
QUICK = ["dannemann2025/remark-2.7/corrected", "santurkar2018/observation-4.3.d1"]  # cvc5 answers these


def load(name):
    return json.loads((ROOT / "certificates" / f"{name}.proof.json").read_text())


def variance_identity():
    """S[(y - mu)^2] = S[y^2] - m mu^2: an identity with divisions by m only."""
    b = ProgramBuilder(Y)
    y, m = b.input("y"), b.m()
    mu = b.div(b.sum(y), m)
    r = b.sub(b.sum(b.pow(b.sub(y, mu), 2)), b.sub(b.sum(b.mul(y, y)), b.mul(m, b.pow(mu, 2))))
    return certificate(b.program(r), body=claim(names=("y",)), witness={"m": 2, "inputs": {"y": ["0", "1"]}})


def test_there_are_committed_proof_certificates():
    assert len(PROOFS) >= 8


@pytest.mark.parametrize("path", PROOFS, ids=lambda p: str(p.relative_to(ROOT / "certificates")))
def test_every_committed_proof_is_confirmed_by_z3_at_m_2(path):
    doc = json.loads(path.read_text())
    # an every-d proof is stated at a feature count d too: at d = 1 and d = 2
    every_d = type(doc.get("proof")) is dict and doc["proof"].get("method") == "every-d"
    for d in (1, 2) if every_d else (None,):
        assert solve(proof_smt(doc, 2, d), "z3", timeout=300) == "unsat", d


@pytest.mark.parametrize("name", QUICK + ["santurkar2018/observation-4.3.d3"])
def test_z3_confirms_at_m_3(name):
    assert solve(proof_smt(load(name), 3), "z3", timeout=300) == "unsat"


@pytest.mark.parametrize("name", QUICK)
def test_cvc5_confirms_committed_proofs_at_m_2(name):
    assert solve(proof_smt(load(name), 2), "cvc5", timeout=300) == "unsat"


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
@pytest.mark.parametrize("m", [2, 3])
@pytest.mark.parametrize("make", [variance_identity, cauchy, lambda: cauchy(strict=True)],
                         ids=["variance-identity", "cauchy", "cauchy-strict"])
def test_both_solvers_confirm_at_m_2_and_3(make, m, solver):
    assert solve(proof_smt(make(), m), solver, timeout=300) == "unsat"


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
@pytest.mark.parametrize("last", ["1/sqrt(m)", "2/m"])
def test_a_near_miss_answers_sat(last, solver):
    # exported although the checker rejects its proof: the solver judges the program alone
    doc = certificate(theorem_41(last))
    assert solve(proof_smt(doc, 2), solver, timeout=300) == "sat"


def test_the_near_misses_differ_from_a_claim_the_solver_confirms():
    # the control of the test above, the same for each of its cases (it was solved in each):
    # the program they alter answers unsat, so their sat is the altered term's
    assert solve(proof_smt(certificate(theorem_41()), 2), "z3", timeout=300) == "unsat"


def test_the_answer_is_at_the_given_m():
    doc = only_at_two()
    assert solve(proof_smt(doc, 2), "z3", timeout=300) == "unsat"
    assert solve(proof_smt(doc, 3), "z3", timeout=300) == "sat"


def test_what_is_asserted():
    text = proof_smt(certificate(theorem_41()), 2)
    assert "(set-logic QF_NRA)" in text and text.count("(check-sat)") == 1
    assert "; gamma" in text and "gamma nonzero" in text  # the scalar's domain, assumed
    assert "hypothesis 0 > 0" in text and "radicand nonnegative" in text and "divisor nonzero" in text
    last = [line for line in text.splitlines() if line.startswith("(assert")][-1]
    assert last.startswith("(assert (not (= v")  # residual != 0: the identity's negation
    assert "(assert (< v" in proof_smt(cauchy(), 2)  # an inequality: residual < 0
    assert "(assert (<= v" in proof_smt(cauchy(strict=True), 2)  # strict: residual <= 0
    # two entries of y at m = 2, three at m = 3, and the symmetric H's entries shared
    assert text.count("; y[") == 2 and proof_smt(certificate(theorem_41()), 3).count("; y[") == 3
    h = proof_smt(load("santurkar2018/theorem-4.2"), 3)
    assert h.count("; H[") == 6 and "; H[1][0]" not in h


def test_bad_m_and_broken_documents():
    doc = certificate(theorem_41())
    for m in (0, 65, "2"):
        with pytest.raises(BadInput, match="--m"):
            proof_smt(doc, m)
    broken = copy.deepcopy(doc)
    broken["program"]["steps"][5] = ["div", 5, 4]  # a forward reference, resealed
    with pytest.raises(CertificateRejected, match="earlier step"):
        proof_smt(seal(broken), 2)
    with pytest.raises(CertificateRejected, match="digest"):
        proof_smt({**doc, "digest": "sha256:" + "0" * 64}, 2)
    refuted = {**copy.deepcopy(doc), "claim": {**doc["claim"], "id": "santurkar2018/theorem-4.1"}}
    with pytest.raises(CertificateRejected, match="refute"):
        proof_smt(seal(refuted), 2)


# --- the command ----------------------------------------------------------------------

# in this process (tests.test_smtlib.export_here: bnproof.cli.main, as the console script),
# but for the one real process of test_the_command_writes_and_solves

def test_a_proof_needs_m_and_nothing_else_takes_it(tmp_path):
    proof = ROOT / "certificates/dannemann2025/remark-2.7/corrected.proof.json"
    one_line_error(export_here(proof, cwd=tmp_path), ExitCode.BAD_INPUT, "--m")
    one_line_error(export_here(ROOT / "certificates/santurkar2018/theorem-4.1.json", "--m", "2", cwd=tmp_path),
                   ExitCode.BAD_INPUT, "--m applies to a proof certificate")
    one_line_error(export_here(proof, "--m", "0", cwd=tmp_path), ExitCode.BAD_INPUT, "--m")


def test_the_command_writes_and_solves(tmp_path):
    proof = ROOT / "certificates/dannemann2025/remark-2.7/corrected.proof.json"
    out = tmp_path / "r.smt2"
    proc = export_here(proof, "--m", "3", "-o", out, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == proof_smt(json.loads(proof.read_text()), 3)
    # a real process: a proof exported at m and solved, exit code 0
    proc = bnproof("export", str(proof), "--m", "2", "--solve", "z3", "--timeout", "300")
    assert proc.returncode == 0 and "holds at m = 2" in proc.stderr, proc.stderr  # the SMT-LIB on stdout
    assert proc.stdout.startswith("; bnproof proof certificate")
    near = tmp_path / "near.proof.json"
    near.write_text(json.dumps(certificate(theorem_41("2/m"))))
    proc = export_here(near, "--m", "2", "--solve", "z3", "--timeout", "300", cwd=tmp_path)
    assert proc.returncode == ExitCode.REJECTED and "answered sat" in proc.stderr


def test_a_paper_claims_certificate_must_carry_the_claims_program(tmp_path):
    # a sealed proof under a committed claim's id whose program is not the tracer's: refused,
    # as bnproof check refuses it (otherwise the file would state another claim at m)
    doc = load("santurkar2018/theorem-4.1/as-derived")
    k = next(i for i, s in enumerate(doc["program"]["steps"]) if s[0] == "const")
    doc["program"]["steps"][k] = ["const", "2"]
    forged = tmp_path / "forged.proof.json"
    forged.write_text(json.dumps(seal(doc)))
    one_line_error(export_here(forged, "--m", "2", cwd=tmp_path), ExitCode.REJECTED, "not the one")
