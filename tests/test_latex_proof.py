"""`bnproof latex` of a proof certificate (proved for every m): the derivation a paper can
include, printed from the checker's normal forms.  Every committed proof certificate
pastes into a plain and a two-column article without a warning; the key lines are there
(the claim, S[w] as a sum over the batch, the relation for the root, the two sides, the
cancellation, "= 0" or the nonnegative terms); the body speaks as a paper does."""

from __future__ import annotations

import json
import subprocess

import pytest

from bnproof.errors import ExitCode
from latex_support import fragment, generated, run_latex
from test_latex import CERTIFICATES, ROOT, bnproof, engine, one_line_error
from test_latex_paper import assert_every_display_is_labelled, body_of, labels
from tests.tamper import seal
from tests.test_checker_proof import certificate, theorem_41

PROOFS = sorted((ROOT / "certificates").rglob("*.proof.json"))


@pytest.fixture(scope="module")
def fragments():
    # in-process, once per test process (latex_support): the other LaTeX tests share them
    return {path: fragment(str(path)) for path in PROOFS}


def test_every_committed_proof_pastes_into_one_paper_and_fits_two_columns(fragments):
    # compiled by test_latex_paper, with every other committed certificate, into one paper
    # without a warning (test_every_committed_certificate_pastes_into_one_paper_without_warnings)
    # and into a two-column article without an overfull box (test_fragments_fit_a_two_column_article):
    # their certificates are every committed one, proofs included, so the proofs alone were
    # the same fragments compiled a second time (three pdflatex runs)
    assert len(fragments) >= 8
    assert set(PROOFS) <= set(CERTIFICATES)
    every = [label for text in fragments.values() for label in labels(text)]
    assert len(every) == len(set(every))


def test_the_key_lines_of_theorem_41(fragments):
    text = fragments[ROOT / "certificates/santurkar2018/theorem-4.1/as-derived.proof.json"]
    body = body_of(text)
    assert_every_display_is_labelled(text, "santurkar2018-theorem-4.1-as-derived")
    assert r"\frac{\gamma^2}{\sigma_j^2}" in body  # the statement as printed
    assert r"S[w] = \sum_{i=1}^m w_i" in body and r"S[g\,y] &= \sum_{i=1}^m g_i\,y_i" in body
    # the root is sigma, with its relation sigma^2 = (m S[y^2] - S[y]^2)/m^2
    assert r"\sigma^2 &= \frac{1}{m^{2}}\,\left(m\,S[y^{2}] - S[y]^{2}\right)" in body
    assert r"$y$ is $y_j$" in body  # the statement's symbols
    assert "T_1 &= " in body and "T_2 &= " in body and "R = T_1 - T_2 = 0" in body
    assert r"\gamma \neq 0" in body and "h_{1}" in body  # the assumptions
    conclusion = body[body.index("Conclusion"):]
    assert "R = 0" in conclusion and "for every $m$" in conclusion
    for voice in ("checker", "ACCEPTED", "certificate", "bnproof "):
        assert voice not in body, voice
    assert "ACCEPTED" in text and "proved for every m" in text  # provenance: a comment


def test_a_vector_difference_and_the_nonnegative_method(fragments):
    c1 = body_of(fragments[ROOT / "certificates/santurkar2018/fact-c.1.proof.json"])
    assert "a difference of two terms" in c1 and "D = 0" in c1 and "D = T_1 - T_2" in c1
    assert r"\mathbf{1}" in c1 and r"\sigma_{A}" in c1  # the ones vector; A's deviation
    part2 = body_of(fragments[ROOT / "certificates/santurkar2018/theorem-4.2/part-2/corrected.proof.json"])
    assert "A sum of nonnegative terms" in part2 and r"\text{a square root}" in part2
    assert r"\text{a hypothesis}" in part2 and r"R \ge 0" in part2[part2.index("Conclusion"):]
    h = body_of(fragments[ROOT / "certificates/santurkar2018/theorem-4.2.proof.json"])
    assert "(H g)" in h.replace(r"H\,", "H ") or r"(Hg)" in h
    assert "with equality" in h


def test_a_claim_id_finds_its_proof_and_the_level_applies():
    text = fragment("santurkar2018/theorem-4.1/as-derived", "--level", "subsubsection")
    assert "\\subsubsection{The claim}" in text and "\\subsection" not in text.replace("\\subsubsection", "")
    one_line_error(run_latex("santurkar2018/observation-4.3"), ExitCode.BAD_INPUT,
                   "proof certificate for each fixed size")


def test_a_whole_document_compiles(tmp_path):
    # the real command in a fresh process; the in-process text (latex_support) is its file
    # byte for byte
    proc = bnproof("latex", str(PROOFS[0]), "-o", str(tmp_path / "d.tex"))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "d.tex").read_bytes() == generated(str(PROOFS[0])).encode()
    text = (tmp_path / "d.tex").read_text()
    assert text.count("\\documentclass") == 1 and "\\section{The claim}" in text
    subprocess.run([engine("pdflatex"), "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                    "d.tex"], cwd=tmp_path, capture_output=True)
    assert (tmp_path / "d.pdf").is_file()


def test_forged_proofs_get_no_derivation(tmp_path):
    # a near miss whose proof the checker rejects, and a paper claim's id over another program
    near = tmp_path / "near.proof.json"
    near.write_text(json.dumps(certificate(theorem_41("1/sqrt(m)"))))
    one_line_error(run_latex(str(near)), ExitCode.REJECTED, "not 0")
    doc = json.loads((ROOT / "certificates/santurkar2018/theorem-4.1/as-derived.proof.json").read_text())
    k = next(i for i, s in enumerate(doc["program"]["steps"]) if s[0] == "const")
    doc["program"]["steps"][k] = ["const", "2"]
    forged = tmp_path / "forged.proof.json"
    forged.write_text(json.dumps(seal(doc)))
    one_line_error(run_latex(str(forged)), ExitCode.REJECTED, "rejected")


def test_a_users_proof_is_written_in_its_own_names(tmp_path):
    path = tmp_path / "mine.proof.json"
    path.write_text(json.dumps(certificate(theorem_41())))
    text = body_of(fragment(str(path)))
    assert r"\gamma \neq 0" in text and "In the notation of the statement" not in text
    assert "R = 0" in text
