"""One LaTeX composition layer (issue 25): every document bnproof writes (a refutation, an
existential refutation, a proof for every m, every m and d, over i.i.d. draws, at several
fixed sizes, a fragment, a paper's report in one and two columns) escapes text through
one function (render/latex_text.escape), lays out every display through one breaker
(render/latex_break) and gets its frame from one builder (render/latex.frame).

Two guards.  The behavioural one: a claim whose source holds every LaTeX special
(# $ % & _ { } ~ ^ \\) is written in every kind of document, each compiled with pdflatex,
and the source must come out of the PDF as written; a module that printed the source
without the escaper fails to compile, or loses the text after its '%' to a comment.  The
structural one: no render module but the escaper's replaces a special by a control
sequence, none but the frame builder writes a preamble or a document environment, and
none but the breaker opens a display environment."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
from pathlib import Path

import pytest

import bnproof
from bnproof._api.report import PaperReport
from bnproof.claims.api import load_file
from test_latex import compile_pdfs, engine

ROOT = Path(__file__).resolve().parents[1]
RENDER = ROOT / "bnproof" / "render"
EXAMPLES = ROOT / "docs" / "examples"

# every LaTeX special, a control word that would read a file, and a label the report reads
SOURCE = r"Doe & Roe #1 (100% sure_{x}~^ \input{x} $a$), Lemma 2.3, p. 4"
# what pdftotext must find (it reads \_ as a space, and ~ and ^ as accents)
SHOWN = ("Doe & Roe #1 (100% sure", "{x}", r"\input{x} $a$)", "Lemma 2.3")


def _claim(file: str, name: str):
    claim = next(c for c in load_file(str(EXAMPLES / file)) if c.id.endswith("/" + name))
    return dataclasses.replace(claim, source=SOURCE)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A refutation, an existential refutation and a proof for every m (fuzz results, as a
    report holds them), a proof for every m and d, and one over i.i.d. draws at three
    fixed sizes (prove results), all of claims whose source is SOURCE."""
    out = tmp_path_factory.mktemp("certificates")
    fuzzed = [bnproof.fuzz(_claim(f, n), seed=0, max_examples=60, time_budget=120, jax=False, out_dir=out)
              for f, n in (("basics.py", "entry-below-one"), ("existential.py", "inverse-exists"),
                           ("basics.py", "sum-zero"))]
    assert [r.verdict for r in fuzzed[:2]] == ["refuted", "refuted"]
    assert fuzzed[2].proof is not None and fuzzed[2].proof.covered
    proved = [bnproof.prove(_claim(f, n), out_dir=out)
              for f, n in (("every_d.py", "kohler-variance"), ("every_n_moments.py", "variance-of-the-mean"))]
    assert all(p.proved for p in proved)
    return fuzzed, proved


def _pdf_text(folder: Path, name: str, text: str) -> str:
    tex = folder / f"{name}.tex"
    tex.write_text(text)
    proc = subprocess.run([engine("pdflatex"), "-interaction=nonstopmode", "-halt-on-error",
                           "-no-shell-escape", tex.name], cwd=folder, capture_output=True,
                          text=True, errors="replace")
    assert proc.returncode == 0, (name, tex.with_suffix(".log").read_text(errors="replace")[-2000:])
    return subprocess.run(["pdftotext", tex.with_suffix(".pdf").name, "-"], cwd=folder,
                          capture_output=True, text=True, check=True).stdout


def _host(fragment: str) -> str:
    return ("\\documentclass{article}\n\\usepackage{amsmath,amssymb,array}\n\\begin{document}\n"
            + fragment + "\n\\end{document}\n")


def documents(results) -> tuple[dict, dict]:
    """(whole documents, fragments), each by name."""
    fuzzed, proved = results
    whole, fragments = {}, {}
    for r in [*fuzzed, *proved]:
        key = r.claim_id.rsplit("/", 1)[1]
        whole[key] = bnproof.latex(r)
        fragments[key + "-fragment"] = bnproof.latex(r, fragment=True, level="paragraph")
    report = PaperReport(targets=[], seed=0, time_budget=120, jax=False, results=list(fuzzed))
    whole["report"] = report.latex()
    whole["report-two-columns"] = report.latex(columns=2)
    fragments["report-fragment"] = report.latex(fragment=True)
    return whole, fragments


MARK = "PIECEMARK"


def _hosted_pdf_texts(folder: Path, fragments: dict) -> dict:
    """{name: the PDF text of the fragment in _host}: all in one host document, each after
    a marker paragraph on a page of its own (one pdflatex run instead of six, about 0.2 s
    each), the PDF's text split at the markers.  If that document fails, or a marker is
    lost (a fragment swallowed what follows it), each is compiled alone, so that the
    failure names its fragment."""
    body = "".join(f"\\clearpage\n\\noindent {MARK}{k}\\par\n{text}\n" for k, text in enumerate(fragments.values()))
    try:
        text = _pdf_text(folder, "fragments", _host(body))
    except AssertionError:
        text = ""
    parts = re.split(rf"{MARK}(\d+)", text)
    found = dict(zip(parts[1::2], parts[2::2]))
    if list(found) != [str(k) for k in range(len(fragments))]:
        return {name: _pdf_text(folder, name, _host(t)) for name, t in fragments.items()}
    return {name: found[str(k)] for k, name in enumerate(fragments)}


def test_a_source_with_every_latex_special_compiles_and_reads_as_written(results, tmp_path):
    whole, fragments = documents(results)
    assert (len(whole), len(fragments)) == (7, 6)
    # the whole documents sharing a preamble in one pdflatex run (test_latex.compile_pdfs:
    # each as on its own, and also without an overfull box): 3 runs instead of 7
    pdf = compile_pdfs(tmp_path, whole)
    pdf.update(_hosted_pdf_texts(tmp_path, fragments))
    for name, text in {**whole, **fragments}.items():
        if isinstance(pdf[name], AssertionError):
            raise pdf[name]
        shown = " ".join(pdf[name].split())
        assert all(piece in shown for piece in SHOWN), (name, shown[:600])
        assert "\\input{x}" not in text  # only ever as \textbackslash{}input\{x\}


# -- the structural guard ------------------------------------------------------------

ESCAPER, FRAME, BREAKER = "latex_text.py", "latex.py", "latex_break.py"
SPECIALS = set("#$%&_{}~^\\")
PREAMBLE = re.compile(r"\\documentclass|\\begin\{document\}|\\maketitle|\\usepackage")
DISPLAY = re.compile(r"\\begin\{(?:equation|align|multline|gather|flalign|eqnarray|dmath)\*?\}")
# render modules that write no LaTeX document (each reads or writes another language)
NOT_LATEX = {"plot.py": "matplotlib's mathtext, which escapes $ its own way",
             "statement_text.py": "LaTeX read back into terminal text",
             "markup.py": "rich's markup for the terminal"}


def _strings(tree) -> list[str]:
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _escapes(tree) -> list[str]:
    """Calls that replace a LaTeX special by a control sequence (x.replace("_", r"\\_")), and
    tables from specials to control sequences: an escaper."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace" \
                and len(node.args) == 2 and all(isinstance(a, ast.Constant) for a in node.args) \
                and node.args[0].value in SPECIALS and "\\" in str(node.args[1].value):
            found.append(ast.unparse(node))
        if isinstance(node, ast.Dict) and sum(isinstance(k, ast.Constant) and k.value in SPECIALS
                                              for k in node.keys) >= 3:
            found.append(ast.unparse(node)[:80])
    return found


def render_modules() -> dict:
    return {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(RENDER.glob("*.py"))
            if p.name not in NOT_LATEX}


def test_one_escaper():
    modules = render_modules()
    assert _escapes(modules[ESCAPER]), "the escaper itself is no longer recognised: the guard is blind"
    escapers = {name: found for name, tree in modules.items() if name != ESCAPER and (found := _escapes(tree))}
    assert not escapers, f"a second escaper: {escapers} (use latex_text.escape or mathit)"


def test_one_frame():
    modules = render_modules()
    assert any(PREAMBLE.search(s) for s in _strings(modules[FRAME]))
    frames = {name for name, tree in modules.items() if name != FRAME
              and any(PREAMBLE.search(s) for s in _strings(tree))}
    assert not frames, f"a second document frame in {frames} (use latex.frame)"


def test_one_breaker():
    modules = render_modules()
    assert any(DISPLAY.search(s) for s in _strings(modules[BREAKER]))
    displays = {name for name, tree in modules.items() if name != BREAKER
                and any(DISPLAY.search(s) for s in _strings(tree))}
    assert not displays, f"a display environment outside the breaker in {displays} (use latex_break)"


def test_the_guard_sees_a_copy(tmp_path):
    """The guard is not blind: each kind of copy, in a module of its own, is found."""
    copies = {"escape": 'def name(n):\n    return r"\\mathit{" + n.replace("_", r"\\_") + "}"\n',
              "frame": 'HEAD = r"\\documentclass{article}"\n',
              "display": 'def show(f):\n    return "\\\\begin{equation*}" + f + "\\\\end{equation*}"\n'}
    trees = {k: ast.parse(v) for k, v in copies.items()}
    assert _escapes(trees["escape"])
    assert any(PREAMBLE.search(s) for s in _strings(trees["frame"]))
    assert any(DISPLAY.search(s) for s in _strings(trees["display"]))


API = ROOT / "bnproof" / "_api"
MESSAGE = "oops a_b 100% &d #e $f {g} h\\i ^j ~k r\u2081 \u2264 \u03c3\u2026"


def _mathjax_text_arguments(latex: str) -> list[str]:
    r"""Each \text{...} argument as MathJax reads it (braces counted, a backslash skipping
    the next character): inside one, MathJax reads no control sequence and a '$' opens math."""
    out = []
    for start in [m.end() for m in re.finditer(r"\\text\{", latex)]:
        depth, i = 1, start
        while depth:
            assert i < len(latex), "an unclosed \\text{"
            ch = latex[i]
            i += 2 if ch == "\\" else 1
            depth += {"{": 1, "}": -1}.get(ch, 0)
        out.append(latex[start:i - 1])
    return out


def test_a_prove_results_jupyter_latex_holds_any_text(tmp_path):
    """ProveResult._repr_latex_ of a claim whose id and whose code's error message hold every
    LaTeX special: every \\text{} argument is plain for MathJax (no backslash, no '$'), and
    pdflatex typesets it and shows the message (the text went through latex_text.math_words,
    not replace("_", r"\\_"), which left '%' a comment and '\\_' a backslash in MathJax)."""
    from bnproof.claims import Claim, Var

    def residual(xp, y):
        raise ValueError(MESSAGE)

    claim = Claim(id="me/a_b%c&d#e$f{g}h\\i^j~k", source=SOURCE, statement="x = x", kind="identity",
                  variables=(Var("y", ("m",)),), residual=residual, sizes={"m": (2, 4)})
    result = bnproof.prove(claim)
    assert MESSAGE in result.text
    latex = result._repr_latex_()
    for argument in _mathjax_text_arguments(latex):
        assert "\\" not in argument and "$" not in argument, argument
    wide = _host(latex).replace("\\begin{document}", "\\usepackage[paperwidth=150cm,textwidth=140cm]{geometry}"
                                                     "\n\\begin{document}")  # one line, as Jupyter's
    shown = _pdf_text(tmp_path, "repr", wide)
    assert "oops a" in shown and "100%" in shown and "#e $f {g} h" in shown, shown


def test_no_escaper_in_the_api():
    """The Jupyter displays (_api/) escape through render/latex_text too (math_tt, math_words)."""
    escapers = {p.name: found for p in sorted(API.glob("*.py"))
                if (found := _escapes(ast.parse(p.read_text(encoding="utf-8"))))}
    assert not escapers, f"an escaper in _api/: {escapers} (use latex_text)"


def test_a_document_includes_another_as_a_section():
    """Document.include (the one composition layer; _api/latex._sections for a proof at several
    fixed sizes): the included document's headings one level down, its labels its own, and its
    long values at its end, under its own heading, not dropped."""
    from bnproof.render.latex import Document

    part = Document("part", key="me/x-d2")
    part.section("Inner")
    part.display("x = 1")
    part.longs.add("x", 10**80 + 1)
    whole = Document("whole", key="me/x")
    whole.include(part, "For every $m$ at $d = 2$")
    text = whole.render(fragment=False)
    assert "\\section{For every $m$ at $d = 2$}" in text and "\\subsection{Inner}" in text
    assert "\\subsection*{Long exact values}" in text and "100000000" in text
    assert whole.labels == part.labels == ["bnproof:me-x-d2:eq1"] and "\\label{bnproof:me-x-d2:eq1}" in text
