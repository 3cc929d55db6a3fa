"""The Python API (docs/api.md): the same verdicts and exact values as the command
line, nothing written unless asked, and displays that show the exact
counterexample, safely.  Expected values come from the paper (Example 3.2 of
Dannemann & Junike) and from hand computations below, not from the code under test."""

import dataclasses
import html
import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import bnproof
from bnproof.errors import BadInput, ExitCode
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "claims" / "false_toy.py"


# the toy's search and shrinking end by themselves well within it, at any speed: results compared
# with each other, or with a shrunk counterexample, never depend on where a budget cut them
GENEROUS = 300


def cli(*args, cwd):
    """`bnproof ARGS`, in this process (tests/cli_runner.py); fuzz's worker is a process of its own."""
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(Path(cwd) / ".cache")})


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """The false toy claim fuzzed in-process with seed 1, in a folder of its own, nothing written."""
    folder = tmp_path_factory.mktemp("toy")
    here = os.getcwd()
    os.chdir(folder)
    try:
        result = bnproof.fuzz(str(TOY), seed=1, time_budget=GENEROUS)
    finally:
        os.chdir(here)
    return folder, result


def test_import_is_cheap():
    code = ("import sys, bnproof, bnproof.testing; heavy = {'jax', 'sympy', 'numpy', 'hypothesis', 'flint', 'typer', 'rich'}; "
            "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == "[]"


def test_fuzz_writes_nothing_and_keeps_the_certificate(toy):
    folder, result = toy
    assert sorted(os.listdir(folder)) == []  # not even Hypothesis's .hypothesis folder
    assert result.verdict == "refuted" and result.refuted and result.exit_code == ExitCode.REFUTED
    # with y = (1, 0, 0): mean 1/3, σ² = 2/9, ŷ_1 = (2/3)/(√2/3) = √2, so z_1 = √2 > 0 + |1|
    assert result.counterexample == {"y": [1, 0, 0], "gamma": 1, "beta": 0}
    assert all(isinstance(x, Fraction) for x in result.counterexample["y"])
    assert result.residual == "1 - sqrt(2)"
    assert result.certificate_path is None and result.certificate_check.startswith("ACCEPTED (in memory)")
    doc = json.loads(result.certificate)
    assert doc["instance"] == {"y": ["1", "0", "0"], "gamma": "1", "beta": "0"}


def test_fuzz_matches_the_command_line_for_the_same_seed(toy, tmp_path, monkeypatch):
    _, memory = toy
    proc = cli("fuzz", str(TOY), "--seed", "1", "--json", "--no-timings", "--time-budget", str(GENEROUS), cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    (theirs,) = json.loads(proc.stdout)  # a list, one object per claim
    assert ".hypothesis" not in os.listdir(tmp_path)  # Hypothesis's files go elsewhere, then away
    written = (tmp_path / theirs["certificate"]).read_text()
    shutil.rmtree(tmp_path / "bnproof-out")
    monkeypatch.chdir(tmp_path)
    ours = bnproof.fuzz(TOY, seed=1, out_dir="bnproof-out", time_budget=GENEROUS)
    assert ours.to_json(timings=False) == theirs
    assert ours.certificate_path == Path("bnproof-out/toy/bounded-bn-output.json")
    assert ours.certificate_path.read_text() == written == memory.certificate
    # and the LaTeX of the result is that of the command for its certificate
    latex = cli("latex", theirs["certificate"], cwd=tmp_path)
    assert latex.returncode == 0, latex.stderr
    assert bnproof.latex(ours) == latex.stdout


def test_the_callers_hypothesis_folder_is_restored(tmp_path):
    from hypothesis import configuration

    before = getattr(configuration, "__hypothesis_home_directory", None)
    configuration.set_hypothesis_home_dir(tmp_path / "mine")
    try:
        assert bnproof.fuzz(TOY, seed=1, jax=False, time_budget=GENEROUS).refuted
        assert getattr(configuration, "__hypothesis_home_directory") == tmp_path / "mine"
    finally:
        configuration.set_hypothesis_home_dir(before)
    assert not (tmp_path / "mine").exists()


def test_isolated_fuzz_gives_the_same_verdict(toy):
    _, memory = toy
    isolated = bnproof.fuzz(TOY, seed=1, isolate=True, jax=False, time_budget=GENEROUS)
    assert isolated.to_json(timings=False) == memory.to_json(timings=False)
    claim = bnproof.load(TOY)[0]
    with pytest.raises(BadInput, match="not loaded from a file"):
        bnproof.fuzz(dataclasses.replace(claim, path=None), isolate=True)


def test_displays_show_the_exact_counterexample(toy):
    _, result = toy
    latex = result._repr_latex_()
    assert latex.startswith("$$\\begin{aligned}") and latex.endswith("\\end{aligned}$$")
    assert r"y = \left(1, 0, 0\right)" in latex and r"\gamma = 1" in latex and r"\beta = 0" in latex
    assert r"\text{residual} = 1 - \sqrt{2}" in latex and "< 0" in latex
    page = result._repr_html_()
    # the mathematics, for Jupyter's MathJax (which typesets $$...$$ in HTML output), and as text
    assert '<div class="bnproof-math">$$\\begin{aligned}' in page and html.escape(latex) in page
    for row in ("<code>y</code></td><td><code>(1, 0, 0)</code>", "<code>gamma</code></td><td><code>1</code>",
                "<code>beta</code></td><td><code>0</code>", "1 − √2 ≈ −0.414214 &lt; 0"):
        assert row in page


def test_the_latex_display_is_valid_math_mode(toy, tmp_path):
    """pdflatex compiles it (.ci/run installs it), for a refutation and for verify."""
    _, result = toy
    lemma = bnproof.verify(crosscheck=False)
    body = "\n\n".join([result._repr_latex_(), lemma._repr_latex_()])
    tex = tmp_path / "display.tex"
    tex.write_text("\\documentclass{article}\\usepackage{amsmath,amssymb}\\begin{document}\n"
                   + body + "\n\\end{document}\n")
    proc = subprocess.run([shutil.which("pdflatex") or "pdflatex", "-interaction=nonstopmode",
                           "-halt-on-error", "-no-shell-escape", tex.name], cwd=tmp_path,
                          capture_output=True, text=True, errors="replace")
    assert proc.returncode == 0, proc.stdout[-2000:]


HOSTILE = r"\input{/etc/passwd} <script>alert(1)</script>"


def test_displays_escape_what_a_claim_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    claim = bnproof.load(TOY)[0]
    evil = dataclasses.replace(claim, id="x/<b>&y}{$", source="<script>alert(1)</script> & co",
                               statement=HOSTILE, path=None)
    result = bnproof.fuzz(evil, seed=1, jax=False, time_budget=GENEROUS)
    assert result.refuted
    page = result._repr_html_()
    assert "<script" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page and "\\input{/etc/passwd}" in page
    latex = result._repr_latex_()
    assert "\\input" not in latex and "<script" not in latex  # the statement is not formula notation
    assert r"\mathtt{x/{<}b{>}\&y\}\{\$}" in latex
    assert sorted(os.listdir(tmp_path)) == []


def test_fuzz_takes_one_claim_and_checks_its_options(tmp_path):
    controls = ROOT / "tests" / "claims" / "controls.py"
    with pytest.raises(BadInput, match=r"names 3 claims \(controls/bn-mean"):
        bnproof.fuzz(controls)
    assert [c.id for c in bnproof.load(controls)] == [
        "controls/bn-mean", "controls/bn-unit-variance", "controls/cauchy-schwarz"]
    for bad in ({"seed": -1}, {"time_budget": 0}, {"sizes": {"q": 2}}, {"sizes": {"m": "3"}}, {"batch": 0}):
        with pytest.raises(BadInput) as err:
            bnproof.fuzz(TOY, **bad)
        assert err.value.exit_code == ExitCode.BAD_INPUT
    with pytest.raises(BadInput, match="unknown claim"):
        bnproof.fuzz("no-such-claim")


def test_check_accepts_and_rejects_with_the_reason(tmp_path):
    good = bnproof.check(ROOT / "certificates" / "lemma-4.5.json")
    assert good and good.accepted and good.established == "lemma-4.5 refuted" and good.reason is None
    doc = json.loads((ROOT / "certificates" / "lemma-4.5.json").read_text())
    doc["instance"]["Y"][2] = ["14"]  # the digest no longer matches
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    bad = bnproof.check(tampered)
    assert not bad and bad.accepted is False and bad.established is None
    assert bad.reason == "digest mismatch: the document differs from the one that was sealed"
    proc = cli("check", str(tampered), cwd=tmp_path)
    assert proc.returncode == ExitCode.REJECTED
    assert proc.stdout.strip() == bad.line == f"REJECTED {tampered}: {bad.reason}"
    assert "REJECTED" in bad._repr_html_() and "digest mismatch" in bad._repr_html_()


def test_check_binds_a_claim_file(toy, tmp_path):
    _, result = toy
    cert = tmp_path / "toy.json"
    cert.write_text(result.certificate)
    bound = bnproof.check(cert, claim=TOY)
    assert bound.accepted and "the program are those" in bound.line
    other = bnproof.check(cert, claim=ROOT / "tests" / "claims" / "controls.py")
    assert not other.accepted and "defines no claim toy/bounded-bn-output" in other.reason


def test_verify_example_3_2_gives_the_papers_values():
    result = bnproof.verify()
    # by hand: W* = W0 = (1, 3), so RHS = ‖W0 − W*‖² − (‖W*‖² − ⟨W*, W0⟩)²/‖W*‖² = 0; the
    # closest BN optimum (35/17, 21/17) lies at ‖(1, 3) − (35/17, 21/17)‖² = (18² + 30²)/17² = 72/17
    lhs = (1 - Fraction(35, 17)) ** 2 + (3 - Fraction(21, 17)) ** 2
    assert lhs == Fraction(72, 17)
    assert (result.verdict, result.lhs, result.rhs, result.residual) == ("refuted", lhs, 0, -lhs)
    assert result.exit_code == ExitCode.REFUTED
    assert result.W_star == ("1", "3")
    assert result.closest_bn_optimum == ("35/17", "21/17")
    assert result.grad_bn_at_W_star == ("-54*sqrt(74)/1369", "18*sqrt(74)/1369")
    assert result.crosscheck["ok"] and result.certificate_path is None
    assert result.certificate_check == "ACCEPTED (in memory): lemma-4.5 refuted"
    # the certificate is, byte for byte, the committed one
    assert result.certificate == (ROOT / "certificates" / "lemma-4.5.json").read_text()
    latex = result._repr_latex_()
    assert r"\widehat W^* = \left(\frac{35}{17}, \frac{21}{17}\right)" in latex
    assert r"\frac{54 \sqrt{74}}{1369}" in latex and r"\text{LHS} = \|W_0-\widehat W^*\|^2 = \frac{72}{17}" in latex
    assert "<code>72/17</code>" in result._repr_html_() and "Dannemann &amp; Junike" in result._repr_html_()


def test_verify_matches_the_command_line(tmp_path):
    data = {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [5, 3], "gamma": "3/2"}
    (tmp_path / "mine.json").write_text(json.dumps(data))
    proc = cli("verify", "lemma-4.5", "--data", "mine.json", "--json", "--no-crosscheck", "--out", "c.json",
               cwd=tmp_path)
    assert proc.returncode == ExitCode.OK, proc.stderr
    theirs = json.loads(proc.stdout)
    os.remove(tmp_path / "c.json")
    ours = bnproof.verify("santurkar2018/lemma-4.5", tmp_path / "mine.json", crosscheck=False,
                          out=tmp_path / "c.json")
    assert {**ours.to_json(), "certificate": "c.json"} == theirs
    # floats are read as the decimals they print as: gamma 1.5 is 3/2
    floats = bnproof.verify(data={**data, "gamma": 1.5}, crosscheck=False)
    # by hand: W0 = (5, 3) lies on the BN optimum ray 3 w1 = 5 w2, so LHS = 0; RHS = 34 − 14²/10
    assert (floats.verdict, floats.lhs, floats.rhs) == ("holds", 0, Fraction(72, 5))
    assert floats.certificate.replace('"name": "user instance"', "") == ours.certificate.replace(
        '"name": "mine.json"', "")


@pytest.mark.parametrize("claim, data, fragment", [
    ("lemma-9.9", None, "unknown claim"),
    ("theorem-4.1", None, "has no built-in instance: give --data FILE"),
    ("lemma-4.5", {"X": [[1, 1]], "y": [2]}, "missing key 'W0'"),
    ("lemma-4.5", {"X": [[1, 1], [1, 2]], "y": [2, 5], "W0": [1, float("nan")]}, "not a finite number"),
    ("lemma-4.5", 42, "data is None, a dict or the path"),
])
def test_verify_refuses_bad_input_in_one_line(claim, data, fragment):
    with pytest.raises(BadInput) as err:
        bnproof.verify(claim, data, crosscheck=False)
    assert fragment in str(err.value) and "\n" not in str(err.value)
    assert err.value.exit_code == ExitCode.BAD_INPUT


def test_latex_takes_claims_certificates_and_results():
    from_file = bnproof.latex(ROOT / "certificates" / "santurkar2018" / "theorem-4.1.json", fragment=True)
    assert from_file == bnproof.latex("santurkar2018/theorem-4.1", fragment=True)
    assert not from_file.lstrip("%").startswith("\\documentclass") and "\\documentclass" not in from_file
    assert bnproof.latex("lemma-4.5") == bnproof.latex(bnproof.verify(crosscheck=False))
    assert re.search(r"\\frac\{72\}\{17\}", bnproof.latex())
