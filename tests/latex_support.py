"""`bnproof latex` for the LaTeX tests (test_latex*.py), run in this process through the
command line's own entry point, bnproof.cli.main: the same argument parsing, one-line
errors, exit codes and echoed text as `python -m bnproof latex`, without starting an
interpreter and importing SymPy for every document (about a second each).

The text of an input that stays the same for the whole run (lemma-4.5 on its own
instance, a committed certificate or claim id) is generated once per test process and
shared by every test that reads it; anything naming a file of a test's own (tmp_path) is
generated afresh.  A few tests still run the real command in a fresh process and assert
that its output equals the in-process text byte for byte (test_latex.py,
test_latex_paper.py, test_latex_proof.py), so the two cannot drift apart."""

from __future__ import annotations

import contextlib
import functools
import io
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "certificates"
WARNING = re.compile(r"^.*(?:Warning|Overfull|Underfull|undefined).*$", re.M | re.I)


def run_latex(*args) -> subprocess.CompletedProcess:
    """`bnproof latex ARGS` in this process, as a CompletedProcess (returncode, stdout,
    stderr) like the real command's."""
    from bnproof.cli import main

    argv = ["latex", *map(str, args)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as done:
            code = done.code
        else:
            raise AssertionError("bnproof.cli.main returned instead of exiting")
    return subprocess.CompletedProcess(["bnproof", *argv], 0 if code is None else code,
                                       out.getvalue(), err.getvalue())


def succeeded(*args) -> str:
    """The stdout of `bnproof latex ARGS`, which must succeed (generated afresh)."""
    proc = run_latex(*args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _committed(arg: str) -> bool:
    """Not a file of a test's own: an option, a claim id, or a file under certificates/."""
    path = Path(arg)
    return not path.exists() or path.resolve().is_relative_to(COMMITTED)


@functools.cache
def _generated(*args: str) -> str:
    return succeeded(*args)


def generated(*args) -> str:
    """The stdout of `bnproof latex ARGS`: once per test process when every argument is
    committed (see _committed), afresh otherwise.  Never with -o (it writes a file)."""
    args = tuple(map(str, args))
    assert "-o" not in args and "--out" not in args
    return _generated(*args) if all(map(_committed, args)) else succeeded(*args)


def fragment(*args) -> str:
    """`bnproof latex ARGS --fragment`'s text (see generated)."""
    return generated(*args, "--fragment")


def compile_full(tmp_path: Path, text: str) -> str:
    """A whole document compiled twice with pdflatex; its log, asserting it has no warning."""
    tex = tmp_path / "doc.tex"
    tex.write_text(text)
    log = pdflatex(tex)
    problems = WARNING.findall(log)
    assert not problems, problems
    return log


def pdflatex(tex: Path, runs: int = 2) -> str:
    """`tex` compiled `runs` times (twice: labels settle) with pdflatex, no shell escape,
    in its folder; its log, asserting the last run succeeded."""
    from test_latex import engine

    for _ in range(runs):
        proc = subprocess.run([engine("pdflatex"), "-interaction=nonstopmode", "-halt-on-error",
                               "-no-shell-escape", tex.name], cwd=tex.parent, capture_output=True,
                              text=True, errors="replace")
    log = tex.with_suffix(".log").read_text(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    return log

_PIECE = "bnproof-test: piece "


def compile_apart(tmp_path: Path, preamble: str, pieces: dict) -> dict:
    """Each piece (a fragment) typeset as if alone in its own `preamble` document, all in
    one pdflatex document compiled twice: {name: the warnings (Warning, Overfull,
    Underfull, undefined) of its own pages, and of the document's end}.

    A pdflatex run costs about 0.15 s before it reads a line, and the LaTeX tests ran it
    twice per document.  Here each piece starts on a fresh page (\\clearpage) with the
    page, section and equation counters at their start, as in a document of its own, and
    ends with \\clearpage, so that a page it leaves short (an Underfull \\vbox at
    shipout) is reported before the next piece's marker in the log: what lies between
    its marker and the next is its own.  What LaTeX reports only at the document's end
    (a label defined twice, a reference undefined) is given to every piece."""
    body = []
    for k, (name, text) in enumerate(pieces.items()):
        (tmp_path / f"piece{k}.tex").write_text(text)
        body.append(f"\\clearpage\\typeout{{{_PIECE}{k}}}\\setcounter{{page}}{{1}}"
                    f"\\setcounter{{section}}{{0}}\\setcounter{{equation}}{{0}}\n"
                    f"\\section{{Host}}\n\\input{{piece{k}}}\n")
    tex = tmp_path / "apart.tex"
    tex.write_text(preamble + "\\begin{document}\n" + "".join(body)
                   + f"\\clearpage\\typeout{{{_PIECE}end}}\n\\end{{document}}\n")
    log = pdflatex(tex)
    parts = log.split(_PIECE)
    assert len(parts) == len(pieces) + 2, "a piece's marker is missing from the log"
    end = WARNING.findall(parts[-1].split("\n", 1)[1])
    return {name: WARNING.findall(part.split("\n", 1)[1]) + end
            for name, part in zip(pieces, parts[1:-1])}
