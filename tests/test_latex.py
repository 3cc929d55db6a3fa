"""`bnproof latex`: the documents compile with a real LaTeX engine, without errors or
overfull boxes, and the numbers in the PDF are the exact values.

Expected values come from the paper (Example 3.2 of Dannemann & Junike) and
from hand derivations below, not from the code under test.  pdflatex and
pdftotext must be installed (.ci/run installs them); a missing engine fails.
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.certificate.io import seal
from bnproof.claims.api import all_claims
from bnproof.errors import ExitCode
from bnproof.program.evaluate import run as run_program
from bnproof.render.latex import Document
from bnproof.render.latex_text import safe_statement
from latex_support import generated, run_latex

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATES = sorted((ROOT / "certificates").rglob("*.json"))
BIG = {"X": [[1, 2, 0, 1, 3], [2, 1, 1, 0, 1], [0, 1, 3, 1, 2], [1, 1, 1, 2, 0], [3, 0, 1, 1, 1],
             [1, 2, 2, 1, 1], [2, 2, 1, 3, 1]],
       "y": ["1/3", "2/7", 3, 4, 5, 6, 8], "W0": [1, "1/2", 1, 1, "22/7"], "gamma": "3/2",
       "beta": "1/5", "loss": "mean", "name": "a_b & 100% {odd} $name\\ é"}


def bnproof(*args, cwd=None):
    """The real command, in a fresh process."""
    return subprocess.run([sys.executable, "-m", "bnproof", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT)


def engine(name):
    path = shutil.which(name)
    assert path, f"{name} is not installed: .ci/run installs it (texlive, poppler-utils)"
    return path


def compile_pdf(tex: Path, overfull_ok: bool = False) -> str:
    """Compile with pdflatex (no shell escape); return the PDF's text.  Fails on any
    error or (unless overfull_ok: the caller reads the log) overfull box."""
    proc = subprocess.run([engine("pdflatex"), "-interaction=nonstopmode", "-halt-on-error",
                           "-no-shell-escape", tex.name], cwd=tex.parent, capture_output=True,
                          text=True, errors="replace")
    log = tex.with_suffix(".log").read_text(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    assert not re.search(r"^! ", log, re.M), log[-3000:]
    assert overfull_ok or "Overfull \\hbox" not in log, re.findall(r"Overfull \\hbox.*\n.*\n.*", log)
    text = subprocess.run([engine("pdftotext"), "-raw", tex.with_suffix(".pdf").name, "-"],
                          cwd=tex.parent, capture_output=True, text=True, check=True).stdout
    return unicodedata.normalize("NFKC", text).replace("\u2212", "-")


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def write_doc(tmp_path, *args, name="doc.tex"):
    """`bnproof latex ARGS -o FILE`, in-process (latex_support)."""
    out = tmp_path / name
    proc = run_latex(*args, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    return out


# -- Example 3.2, by hand ----------------------------------------------------------

X = [(1, 1), (1, 2), (2, 3)]
Y = [2, 5, 13]
W0 = (1, 3)


def bn_loss(w1, w2):
    """Ĉ(w) as printed in Example 3.2."""
    z = [w1 * a + w2 * b for a, b in X]
    mu = sum(z) / 3
    sigma = math.sqrt(sum((v - mu) ** 2 for v in z) / 3)
    return sum(((v - mu) / sigma - y) ** 2 for v, y in zip(z, Y))


def test_lemma_document_compiles_and_shows_the_papers_numbers(committed_pdfs):
    text = committed_pdfs["lemma-4.5"]
    if isinstance(text, AssertionError):
        raise text
    flat = squeezed(text)
    # W* = (1, 3); the BN optima 3 w1 = 5 w2, w1 > 0; the closest one (35/17, 21/17)
    t = Fraction(W0[0] * 5 + W0[1] * 3, 5 * 5 + 3 * 3)
    closest = (5 * t, 3 * t)
    lhs = (W0[0] - closest[0]) ** 2 + (W0[1] - closest[1]) ** 2
    assert (t, closest, lhs) == (Fraction(7, 17), (Fraction(35, 17), Fraction(21, 17)),
                                 Fraction(72, 17))
    assert "W*=(1,3)" in flat.replace("∗", "*")
    assert "3w1=5w2" in flat
    assert f"LHS={lhs.numerator}/{lhs.denominator}≈{float(lhs):.5f}" in flat
    assert "RHS=0;" in flat  # W0 = W*: the bound is 0
    assert f"residual=-{lhs.numerator}/{lhs.denominator}" in flat
    # ∇Ĉ(W*) by central differences of the paper's Ĉ: (−0.34, 0.11) to two decimals
    h = 1e-6
    grad = [(bn_loss(1 + h, 3) - bn_loss(1 - h, 3)) / (2 * h),
            (bn_loss(1, 3 + h) - bn_loss(1, 3 - h)) / (2 * h)]
    assert [round(g, 2) for g in grad] == [-0.34, 0.11]
    assert f"({grad[0]:.4f},{grad[1]:.4f})" in flat
    # the order of the derivation (issue 5)
    headings = ["The claim", "Setting and definitions", "The instance", "closed form",
                "global minimum", "Fact C.1", "a ray", "The inequality", "Summary"]
    positions = [text.index(h) for h in headings]
    assert positions == sorted(positions)
    assert "Lemma4.5isfalse" in flat


FRONT = re.compile(r"^\\(?:title|author|date)\{.*$", re.M)
MARK = "BNPROOFDOCUMENT"
# article.cls's \maketitle disarms itself and \title, \author, \date once used: kept under
# other names, to arm them again for each document set in one file
ARMS = {a: "bnpkept" + a.replace("@", "at") for a in
        ("maketitle", "@maketitle", "title", "author", "date", "and", "thanks")}


def compile_pdfs(folder: Path, documents: dict) -> dict:
    """{name: the PDF text of the whole document, or the AssertionError compile_pdf gave it}.

    A pdflatex run costs about 0.15 s before it reads a line, and the committed
    certificates are 22 documents with one preamble (the frame's): they are set in one
    file, each from \\clearpage with its counters at their start and its title armed
    again, typeset as on its own.  A \\typeout marker in the log, with the count of pages
    shipped so far, gives each document its part of the log (its overfull boxes) and its
    pages of the PDF's text.  A document whose preamble is another, or all of them when
    the file fails as a whole, are compiled alone, as compile_pdf does."""
    split = {}
    for name, text in documents.items():
        head, _, rest = text.partition("\\begin{document}")
        code = "\n".join(line for line in head.splitlines() if not line.startswith("%"))  # its provenance
        split[name] = (FRONT.sub("", code).strip(), "\n".join(FRONT.findall(code)),
                       rest.rpartition("\\end{document}")[0])
    preamble = next(iter(split.values()))[0]
    together = [name for name, (head, _, _) in split.items() if head == preamble]
    out = {name: _alone(folder / f"alone{k}.tex", name, text)
           for k, (name, text) in enumerate(documents.items()) if name not in together}
    kept = "".join(f"\\let\\{copy}\\{a}" for a, copy in ARMS.items())
    armed = "".join(f"\\let\\{a}\\{copy}" for a, copy in ARMS.items())
    marker = f"\\clearpage\\typeout{{{MARK} \\arabic{{totalpages}}}}"
    body = "".join(f"{marker}\\makeatletter{armed}\\makeatother\\setcounter{{page}}{{1}}"
                   f"\\setcounter{{section}}{{0}}\\setcounter{{equation}}{{0}}\\setcounter{{footnote}}{{0}}\n"
                   f"{split[name][1]}\n{split[name][2]}\n" for name in together)
    tex = folder / "together.tex"
    tex.write_text(f"{preamble}\n\\makeatletter{kept}\\makeatother\n\\begin{{document}}\n{body}"
                   f"{marker}\n\\end{{document}}\n")
    try:
        pages = compile_pdf(tex, overfull_ok=True).split("\f")
    except AssertionError:
        return {**out, **{name: _alone(folder / f"alone{k}.tex", name, documents[name])
                          for k, name in enumerate(together)}}
    logs = re.split(rf"^{MARK} (\d+)$", tex.with_suffix(".log").read_text(errors="replace"), flags=re.M)
    starts = [int(n) for n in logs[1::2]]
    assert len(starts) == len(together) + 1 and starts == sorted(starts), "a document's marker is lost"
    for name, log, first, last in zip(together, logs[2::2], starts, starts[1:]):
        wide = re.findall(r"Overfull \\hbox.*\n.*\n.*", log)
        out[name] = AssertionError(f"{name}: {wide}") if wide else "\f".join(pages[first:last])
    return out


def _alone(tex: Path, name, text: str):
    tex.write_text(text)
    try:
        return compile_pdf(tex)
    except AssertionError as failed:
        return AssertionError(f"{name}: {failed}")


@pytest.fixture(scope="module")
def committed_pdfs(tmp_path_factory):
    """The PDF text of the Lemma's document on its own instance, and of each committed
    certificate's (compile_pdfs), by "lemma-4.5" and by path."""
    # each document's text as generated() shares it within the test process: the proofs'
    # whole documents and the Lemma's are read by test_latex_paste_ready too (about 0.35 s
    # each to make); writing with -o is test_stdout_is_the_document_and_output_is_written_atomically's
    documents = {"lemma-4.5": generated("lemma-4.5")}
    documents.update({path: generated(str(path)) for path in CERTIFICATES})
    return compile_pdfs(tmp_path_factory.mktemp("committed"), documents)


@pytest.mark.parametrize("path", CERTIFICATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_committed_certificate_compiles_with_its_residual(committed_pdfs, path):
    doc = json.loads(path.read_text())
    text = committed_pdfs[path]
    if isinstance(text, AssertionError):
        raise text
    flat = squeezed(text)
    if doc.get("kind") == "proof":  # a derivation for every m (tests/test_latex_proof.py)
        if doc["proof"].get("method") == "every-d":  # sums over the batch and the features (test_every_d.py)
            assert "Sumsoverthebatchandthefeatures" in flat and "foreverymandeveryd" in flat
        else:
            assert "Theresidualinnormalform" in flat and "foreverym" in flat
        assert doc["claim"]["id"].split("/")[-1] in flat
        return
    if "program" in doc:
        # the residual, enclosed by the program's own interval evaluation
        inst = doc["instance"]

        def inputs(name, index):
            value = inst[name]
            for i in index:
                value = value[i]
            return Fraction(value)

        value = run_program(doc["program"]["steps"], inputs, 256)[doc["program"]["residual"]]
        residual = (value.lo + value.hi) / 2
        assert "Thecounterexample" in flat and "Theviolatedresidual" in flat
        assert "theclaimisrefuted" in flat
        rational = residual.limit_denominator(10**6)
        if abs(rational - residual) < Fraction(1, 10**50):  # exactly rational: shown as p/q
            sign = "-" if rational < 0 else ""
            den = "" if rational.denominator == 1 else str(rational.denominator)
            assert f"residual={sign}{abs(rational.numerator)}{den}" in flat
        else:  # irrational: the exact surd, then ten significant digits
            assert f"≈{float(residual):.10g}"[:9] in flat
        assert doc["claim"]["id"].split("/")[-1] in flat
    else:  # a version 2 certificate states no lhs or residual: the engine's, on its instance
        from bnproof.claims import lemma45
        from bnproof.instance import instance_from_json

        keys = ("X", "Y", "W0", "gamma", "beta", "loss")
        for neuron in lemma45.analyse(instance_from_json({k: doc["instance"][k] for k in keys})).neurons:
            assert f"LHS={neuron.lhs}" in flat
            assert f"residual={neuron.residual}" in flat


def test_a_large_instance_breaks_its_formulas(tmp_path):
    data = tmp_path / "big.json"
    data.write_text(json.dumps(BIG))
    text = compile_pdf(write_doc(tmp_path, "lemma-4.5", "--data", str(data)))
    assert "& 100% {odd}" in text and "$name\\ é" in text  # OT1's \\_ has no text form


def test_every_printed_statement_is_safe_and_compiles(tmp_path):
    doc = Document("statements")
    for claim in all_claims():
        doc.para(claim.id.replace("_", ""))
        doc.display(safe_statement(claim.statement))
    tex = tmp_path / "statements.tex"
    tex.write_text(doc.render(fragment=False))
    compile_pdf(tex)


def test_a_fragment_inputs_into_a_document(tmp_path):
    write_doc(tmp_path, "lemma-4.5", "--fragment", name="fragment.tex")
    fragment = (tmp_path / "fragment.tex").read_text()
    assert "\\documentclass" not in fragment and "\\begin{document}" not in fragment
    main = tmp_path / "main.tex"
    main.write_text("\\documentclass{article}\n\\usepackage[a4paper,margin=2.5cm]{geometry}\n"
                    "\\usepackage{amsmath,amssymb}\n\\begin{document}\n\\input{fragment}\n"
                    "\\end{document}\n")
    assert "72/17" in squeezed(compile_pdf(main))


def test_stdout_is_the_document_and_output_is_written_atomically(tmp_path):
    # the real command in a fresh process: what the in-process runs of these tests print
    # (latex_support) is its output byte for byte
    proc = subprocess.run([sys.executable, "-m", "bnproof", "latex", "santurkar2018/theorem-4.1"],
                          capture_output=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(b"%") and proc.stdout.rstrip().endswith(b"\\end{document}")
    assert generated("santurkar2018/theorem-4.1").encode() == proc.stdout
    out = write_doc(tmp_path, "santurkar2018/theorem-4.1", name="t.tex")
    assert out.read_bytes() == proc.stdout
    assert sorted(os.listdir(tmp_path)) == ["t.tex"]


def one_line_error(proc, code, fragment):
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], proc.stderr


def test_bad_input_is_one_line(tmp_path):
    # in-process through bnproof.cli.main (latex_support): its one-line errors and exit codes
    one_line_error(run_latex("no-such-claim"), ExitCode.BAD_INPUT, "no certificate")
    one_line_error(run_latex(str(tmp_path / "missing.json")), ExitCode.BAD_INPUT,
                   "no such file")
    one_line_error(run_latex("santurkar2018/theorem-4.1", "--data", "x.json"),
                   ExitCode.BAD_INPUT, "--data applies to lemma-4.5 only")
    bad = tmp_path / "bad.json"
    bad.write_text('{"X": [[1, 1], [1, 1]], "y": [1, 2], "W0": [1, 1]}')
    proc = run_latex("lemma-4.5", "--data", str(bad), "-o", str(tmp_path / "x.tex"))
    one_line_error(proc, ExitCode.DEGENERATE, "σ = 0")
    assert not (tmp_path / "x.tex").exists()


def test_a_tampered_certificate_is_rejected(tmp_path):
    doc = json.loads((ROOT / "certificates/santurkar2018/theorem-4.1.json").read_text())
    doc["instance"]["gamma"] = "2"  # the digest no longer matches
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    # a real process: its exit code and one line on stderr, no traceback
    one_line_error(bnproof("latex", str(path)), ExitCode.REJECTED, "checker rejected")


@pytest.mark.parametrize("statement", [r"x \leq y \input{/etc/passwd}", r"x \write18{ls}",
                                       "x ^^5cinput y", r"\left( x", "x # y", r"\catcode`x"])
def test_an_untrusted_statement_is_not_run_as_latex(tmp_path, statement):
    doc = json.loads((ROOT / "certificates/santurkar2018/theorem-4.1.json").read_text())
    doc = {k: v for k, v in doc.items() if k != "digest"}
    doc["claim"] = {**doc["claim"], "id": "my/claim", "statement": statement}
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(seal(doc)))  # a validly sealed certificate of another claim
    proc = run_latex(str(path), "-o", str(tmp_path / "evil.tex"))
    one_line_error(proc, ExitCode.BAD_INPUT, "statement")
    assert not (tmp_path / "evil.tex").exists()
