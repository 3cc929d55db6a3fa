"""What a mathematician reads in a terminal: Unicode math (ASCII where the
terminal cannot show it), formulas wrapped between terms, `list` with whole
ids, progress lines that leave nothing behind, and pivots that name their
basis.

Commands run in this process (tests/cli_runner.py) with stdout and stderr
files of the encoding PYTHONIOENCODING would give; the interpreter's own
set-up of that encoding is tried once on a real process, and the terminal
tests run a real process on a pseudo-terminal."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from bnproof.render import unicode_math
from bnproof.render.unicode_math import math, wrap
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "claims" / "false_toy.py"


def run(*args, cwd, encoding="utf-8", columns="200", process=False):
    """`bnproof ARGS` (bytes out), in this process unless `process`: then in a
    fresh interpreter, which sets up its streams from PYTHONIOENCODING itself."""
    env = {"BNPROOF_CACHE_DIR": str(Path(cwd) / ".cache"), "PYTHONIOENCODING": encoding, "COLUMNS": columns}
    if process:
        return subprocess.run([sys.executable, "-m", "bnproof", *args], capture_output=True, cwd=cwd,
                              env=dict(os.environ, **env))
    return run_cli(*args, cwd=cwd, env=env, encoding=encoding, text=False)


# -- the formatter ----------------------------------------------------------

@pytest.mark.parametrize("printed, typeset", [
    ("-54*sqrt(74)/1369", "−54√74/1369"),
    ("1 - sqrt(2)", "1 − √2"),
    ("sqrt(2*w1**2 + 6*w1*w2 + 6*w2**2)/3", "√(2w₁² + 6w₁w₂ + 6w₂²)/3"),
    ("3*w1 = 5*w2, w1 > 0", "3w₁ = 5w₂, w₁ > 0"),
    ("x**(-2) + x**(1/3)", "x⁻² + x^(1/3)"),
    ("(1/3)*((w1 - 2)**2 + w12**2)", "(1/3)((w₁ − 2)² + w₁₂²)"),
    ("Abs(x) + exp(-3)", "|x| + exp(−3)"),
    ("(-1/2, 3)", "(−1/2, 3)"),
])
def test_math_typesets_sympy_printed_values(printed, typeset):
    assert math(printed) == typeset


def test_products_are_juxtaposed_only_where_they_cannot_be_misread():
    assert math("sqrt(74)*w1") == "√74·w₁"  # not √74w₁, which reads as √(74w₁)
    assert math("2*3") == "2·3"  # not 23
    assert math("a*b") == "a·b"  # not the name ab
    assert math("2*sqrt(3)*w1*w2") == "2√3·w₁w₂"


def test_unbalanced_text_is_shown_as_it_came():
    assert math("sqrt(2") == "sqrt(2"


def test_wrap_breaks_between_terms_and_aligns_under_the_formula():
    body = math("((-w1 - 3*w2)/sqrt(2*w1**2 + 6*w1*w2 + 6*w2**2) - 2)**2 + (-w1/sqrt(2*w1**2 + 6*w1*w2"
                " + 6*w2**2) - 5)**2 + ((2*w1 + 3*w2)/sqrt(2*w1**2 + 6*w1*w2 + 6*w2**2) - 13)**2")
    lines = wrap("  Ĉ(w) = ", body, 60)
    assert len(lines) == 3
    assert all(len(line) <= 60 for line in lines)
    assert all(line.startswith("         + ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == "Ĉ(w) = " + body


def test_wrap_never_breaks_inside_a_square_root_or_a_number():
    body = math("sqrt(123456789*w1**2 + 987654321*w2**2 + 55555555*w3**2) - 12345678901234567890/7")
    for columns in range(10, 80):
        lines = wrap("f = ", body, columns)
        assert " ".join(line.strip() for line in lines) == "f = " + body
        for line in lines:  # every √( that opens on a line closes on it
            assert line.count("(") == line.count(")"), (columns, lines)
        assert any("12345678901234567890/7" in line for line in lines)


def test_wrap_goes_inside_parentheses_only_when_the_outer_level_has_no_sum():
    body = math("(1/3)*((w1 + w2 - 2)**2 + (w1 + 2*w2 - 5)**2 + (2*w1 + 3*w2 - 13)**2)")
    lines = wrap("C(w) = ", body, 40)
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    short = wrap("x = ", math("1 - sqrt(2)"), 6)  # one term longer than the line stays whole
    assert short == ["x = 1", "    − √2"]


def test_ascii_lines_spell_out_the_symbols():
    line = unicode_math.ascii_line("  ∇²Ĉ(b)·b = 0 ✓; ⟨W0, W*⟩ ≤ 0 — σ(w) ≈ −0.5, w₁")
    assert line == "  Hess C^(b)*b = 0 ok; <W0, W*> <= 0 -- sigma(w) ~ -0.5, w1"
    assert line.isascii()


def test_unicode_ok_asks_the_stream_encoding():
    assert unicode_math.unicode_ok(io.TextIOWrapper(io.BytesIO(), encoding="utf-8"))
    assert not unicode_math.unicode_ok(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert not unicode_math.unicode_ok(io.TextIOWrapper(io.BytesIO(), encoding="latin-1"))


# -- verify's report ---------------------------------------------------------

def test_verify_report_is_typeset_and_json_keeps_sympy_strings(tmp_path):
    proc = run("verify", "lemma-4.5", "--no-crosscheck", "--out", str(tmp_path / "c.json"), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout.decode("utf-8")
    for text in ("∇Ĉ(W*) = (−54√74/1369, 18√74/1369) ≈ (−0.3393, 0.1131)", "μ(w) = 4w₁/3 + 2w₂",
                 "σ(w) = √(2w₁² + 6w₁w₂ + 6w₂²)/3", "min Ĉ = 201 − 2√194", "residual RHS − LHS = −72/17"):
        assert text in out
    assert "sqrt" not in out and "**" not in out and "*w" not in out
    data = json.loads(run("verify", "lemma-4.5", "--no-crosscheck", "--json", "--out",
                          str(tmp_path / "c.json"), cwd=tmp_path).stdout)
    assert data["grad_bn_at_W_star"] == ["-54*sqrt(74)/1369", "18*sqrt(74)/1369"]
    assert data["residual"] == "-72/17"


def test_verify_report_falls_back_to_ascii(tmp_path):
    proc = run("verify", "lemma-4.5", "--no-crosscheck", "--out", str(tmp_path / "c.json"), cwd=tmp_path,
               encoding="ascii", process=True)
    assert proc.returncode == 1, proc.stderr
    assert b"Traceback" not in proc.stderr and b"internal error" not in proc.stderr
    out = proc.stdout.decode("ascii")  # raises if anything else came out
    for text in ("grad C^(W*) = (-54*sqrt(74)/1369, 18*sqrt(74)/1369) ~ (-0.3393, 0.1131)",
                 "sigma(w) = sqrt(2*w1**2 + 6*w1*w2 + 6*w2**2)/3", "<W0, W*> = 10 > 0 ok",
                 "residual RHS - LHS = -72/17"):
        assert text in out
    assert "?" not in out  # every symbol of the report has an ASCII spelling


def test_verify_report_wraps_formulas_at_the_terminal_width(tmp_path):
    proc = run("verify", "lemma-4.5", "--no-crosscheck", "--out", str(tmp_path / "c.json"), cwd=tmp_path,
               columns="60")
    lines = proc.stdout.decode("utf-8").splitlines()
    start = lines.index(next(line for line in lines if line.startswith("  Ĉ(w) = ")))
    formula = lines[start:start + 3]
    assert all(len(line) <= 60 for line in formula)
    assert formula[1].startswith("         + ") and formula[2].startswith("         + ")


def _example():
    from bnproof.claims import lemma45
    from bnproof.instance import example_3_2
    from bnproof.render import report as render

    report = lemma45.analyse(example_3_2())
    return report, render.forms_for(report), render.Extras(None, None, None)


def test_pivots_across_the_ray_name_a_basis_that_reproduces_them():
    """A referee takes Q as printed and the Hessian at b, and gets the pivot."""
    from bnproof.exact.linalg import rows_of, to_fraction
    from bnproof.render import report as render

    report, forms, extras = _example()
    text = "\n".join(render.to_text(report, forms, extras, unicode=True, columns=200))
    assert "pivots 1734√194/235225 of Qᵀ∇²Ĉ(b)Q" in text and "Q = [−3/5; 1]" in text
    assert "(direction b = (5, 3))" in text
    printed_q = [Fraction(-3, 5), Fraction(1)]
    bn = report.neurons[0].bn
    H = [[to_fraction(x) for x in row] for row in rows_of(bn.hessian.b)]  # ∇²Ĉ(b) = H·√r
    quadratic = sum(printed_q[i] * H[i][k] * printed_q[k] for i in range(2) for k in range(2))
    (pivot,) = bn.pivots  # one direction across the ray when d = 2
    assert pivot.a == 0 and pivot.r == bn.hessian.r
    assert to_fraction(pivot.b) == quadratic


def test_standard_pivots_name_their_coordinates():
    from bnproof.render import report as render

    report, forms, extras = _example()
    text = "\n".join(render.to_text(report, forms, extras, unicode=True, columns=200))
    assert "(pivots 12, 1 of ∇²C in the coordinates w₁, w₂, symmetric elimination in that order)" in text


# -- fuzz's report -----------------------------------------------------------

def _refuted(residual: str, value: float):
    claim = SimpleNamespace(id="me/toy", source="my notes", variables=(1,), kind="inequality",
                            strict=False, reading="")  # a Claim always has a reading (maybe empty)
    total = SimpleNamespace(drawn=35, met=30, defined=30)
    outcome = SimpleNamespace(claim=claim, verdict="refuted", seed=1, seconds=1.0, first_seconds=None,
                              stopped=None, coverage=SimpleNamespace(total=lambda: total))
    result = {"counterexample": {"y": ["1", "-1/2"], "beta": "-3"}, "residual": residual,
              "residual_float": value, "decided_by": "exact rational", "certificate": "out/me/toy.json"}
    return outcome, result


def test_fuzz_report_typesets_the_counterexample_and_residual():
    from bnproof.render.fuzz import to_text

    lines = to_text(*_refuted("1 - sqrt(2)", -0.41421356), False, unicode=True, columns=200)
    assert "  y = (1, −1/2)" in lines and "  beta = −3" in lines
    assert "  residual = 1 − √2 ≈ −0.414214 < 0 (decided by exact rational)" in lines
    ascii_lines = to_text(*_refuted("1 - sqrt(2)", -0.41421356), False, unicode=False, columns=200)
    assert "  residual = 1 - sqrt(2) ~ -0.414214 < 0 (decided by exact rational)" in ascii_lines
    assert all(line.isascii() for line in ascii_lines)


def test_fuzz_report_wraps_a_long_residual_between_terms():
    from bnproof.render.fuzz import to_text

    residual = " + ".join(f"{k}*sqrt({k + 1})" for k in range(2, 30))
    lines = to_text(*_refuted(residual, 1.0), False, unicode=True, columns=70)
    at = next(i for i, line in enumerate(lines) if line.startswith("  residual = "))
    block = [lines[at]] + [line for line in lines[at + 1:] if line.startswith(" " * 13 + "+ ")]
    assert len(block) > 2 and all(len(line) <= 70 for line in block)
    assert all(re.fullmatch(r"\s+\+ \d+√\d+( \+ \d+√\d+)*.*", line) for line in block[1:])


def test_fuzz_command_prints_unicode_or_ascii(tmp_path):
    args = ("fuzz", str(TOY), "--seed", "1", "--no-timings", "--no-jax", "--time-budget", "300")  # shrunk in full
    typeset = run(*args, cwd=tmp_path).stdout.decode("utf-8")
    assert "  residual = 1 − √2 ≈ −0.414214 < 0" in typeset
    plain = run(*args, cwd=tmp_path, encoding="ascii")
    assert b"Traceback" not in plain.stderr
    assert "  residual = 1 - sqrt(2) ~ -0.414214 < 0" in plain.stdout.decode("ascii")


# -- list --------------------------------------------------------------------

def _rows():
    from bnproof.claims.api import all_claims
    from bnproof.render import fuzz

    return fuzz.listing(all_claims())


def test_list_piped_is_plain_with_one_whole_id_a_line(tmp_path):
    proc = run("list", cwd=ROOT, columns="")  # no width asked: one claim a line, for grep and cut
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 0
    assert not re.search(r"[\u2500-\u257f]|\x1b\[", out)  # no box drawing, no colour
    lines = out.splitlines()
    assert lines[0].split() == ["claim", "alias", "source", "verdict", "proof"]
    assert [line.split()[0] for line in lines[1:]] == [r["id"] for r in _rows()]
    # COLUMNS given: the width is kept, each claim a block whose first line is its whole id
    narrow = run("list", cwd=ROOT, columns="40").stdout.decode("utf-8")
    assert not re.search(r"[\u2500-\u257f]|\x1b\[", narrow)
    firsts = [line.split()[0] for line in narrow.splitlines() if not line.startswith(" ")]
    assert firsts == [r["id"] for r in _rows()]
    assert all(len(line) <= 40 or " " not in line.strip() for line in narrow.splitlines())


@pytest.mark.parametrize("columns", [50, 80, 100, 160])
def test_list_on_a_terminal_never_breaks_an_id(columns):
    from bnproof.cli.listing import _lines

    rows = _rows()
    lines = _lines(rows, terminal=True, columns=columns)
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(lines))
    for row in rows:
        assert re.search(rf"(^|\s){re.escape(row['id'])}(\s|$)", text, re.M), (columns, row["id"])
    # within the width, but for a single word that cannot be broken (a path)
    assert all(len(line) <= columns or " " not in line.strip() for line in text.splitlines())


# -- progress ----------------------------------------------------------------

class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_shows_the_budget_left_and_erases_itself(monkeypatch):
    from bnproof.render.fuzz import ProgressLine

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("COLUMNS", "200")
    total = SimpleNamespace(drawn=120, met=80)
    with ProgressLine(True) as line:
        line.show("me/toy", SimpleNamespace(total=lambda: total), 12.4, 30)
        drawn = err.getvalue()
    assert "12 s of 30 s left; me/toy: 120 instances, 80 met the hypotheses" in drawn
    assert drawn.startswith("\r") and drawn.endswith("\x1b[K")
    # on leaving, the line is erased: the next output starts at column 0 of a clean line
    assert err.getvalue() == drawn + "\r\x1b[K"


def test_progress_line_keeps_the_budget_left_on_a_narrow_terminal(monkeypatch):
    from bnproof.render.fuzz import ProgressLine

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("COLUMNS", "30")
    total = SimpleNamespace(drawn=120, met=80)
    with ProgressLine(True) as line:
        line.show("santurkar2018/observation-4.3/minima-preserved",
                  SimpleNamespace(total=lambda: total), 12.4, 30)
    frame = err.getvalue().split("\r")[1].removesuffix("\x1b[K")
    assert len(frame) < 30 and "12 s of 30 s left" in frame


def test_progress_line_is_silent_when_stderr_is_not_a_terminal(monkeypatch):
    from bnproof.render.fuzz import ProgressLine

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with ProgressLine(True) as line:
        line.show("me/toy", SimpleNamespace(total=lambda: SimpleNamespace(drawn=1, met=1)), 1, 2)
    assert err.getvalue() == ""


def test_verify_shows_each_long_step_on_a_terminal_only(monkeypatch):
    """run() announces every long step, the closed forms included (on large data
    they take as long as the derivation); the command line shows them as a
    transient spinner on stderr only when stderr is a terminal."""
    import contextlib

    from bnproof._api.verify import instance_of, run as verify_run
    from bnproof.cli import verify as cli_verify

    steps = []

    def status(text):
        steps.append(text)
        return contextlib.nullcontext()

    verify_run("lemma-4.5", instance_of(None), crosscheck=False, status=status)
    assert [s.split(" ")[0] for s in steps] == ["deriving", "writing", "writing"]
    assert "closed forms" in steps[1] and "certificate" in steps[2]
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert isinstance(cli_verify._status("x"), contextlib.nullcontext)


def _screen(raw: str) -> list[str]:
    """What a terminal shows after `raw`: "\\r" returns to column 0, "\\n" moves
    down a row, ESC[K erases to the end of the row, ESC[2K the whole row, ESC[1A
    moves up a row (rich's transient spinner uses the last three); colours and
    cursor visibility are ignored; other text overwrites."""
    rows, row, col = [[]], 0, 0
    for piece in re.split(r"(\r|\n|\x1b\[[0-9;?]*[A-Za-z])", raw):
        if piece == "\r":
            col = 0
        elif piece == "\n":
            row += 1
            col = 0
            if row == len(rows):
                rows.append([])
        elif piece == "\x1b[K":
            del rows[row][col:]
        elif piece == "\x1b[2K":
            rows[row] = []
        elif piece == "\x1b[1A":
            row = max(0, row - 1)
        elif piece.startswith("\x1b["):
            continue
        else:
            for ch in piece:
                rows[row][col:col + 1] = [ch]
                col += 1
    lines = ["".join(r) for r in rows]
    return lines[:-1] if lines and not lines[-1] else lines


def _on_a_terminal(args: list[str], cwd: Path) -> str:
    """Everything `bnproof ARGS` writes to a pseudo-terminal (stdout and stderr)."""
    import pty
    import select

    master, slave = pty.openpty()
    env = dict(os.environ, BNPROOF_CACHE_DIR=str(cwd / ".cache"), COLUMNS="120")
    proc = subprocess.Popen([sys.executable, "-m", "bnproof", *args], stdin=slave, stdout=slave,
                            stderr=slave, cwd=cwd, env=env)
    os.close(slave)
    raw = b""
    while True:
        ready, _, _ = select.select([master], [], [], 300)  # only a hang is that quiet
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        raw += chunk
    proc.wait()
    os.close(master)
    return raw.decode("utf-8").replace("\r\n", "\n")  # the terminal's own line endings


def test_screen_simulator_keeps_what_is_not_erased():
    assert _screen("\r| 3 s left\x1b[Kreport\n") == ["| 3 s leftreport"]  # the stuck frame
    assert _screen("| step\r\n\r\x1b[1A\x1b[2Kreport\n") == ["report"]  # rich's transient exit
    assert _screen("\r| 3 s left\x1b[K\rreport\n") == ["reportleft"]  # overwritten, not erased
    assert _screen("\r| 3 s left\x1b[K\r\x1b[Kreport\n") == ["report"]


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_fuzz_on_a_terminal_leaves_no_spinner_frame_behind(tmp_path):
    examples = ROOT / "docs" / "examples" / "decision_boundaries.py"
    # the first claim survives, so its search runs its whole budget, drawing a frame every 0.1 s:
    # one second shows as many kinds of frame as two
    text = _on_a_terminal(["fuzz", str(examples), "--no-timings", "--time-budget", "1"], tmp_path)
    assert "s left; examples/" in text  # frames were drawn, with the budget left
    screen = _screen(text)
    assert not any("s left" in line for line in screen), screen
    assert screen[0].startswith("examples/bn-relu-hyperplanes-cut-the-batch — ")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
def test_verify_on_large_data_shows_its_steps_on_a_terminal_and_leaves_none(tmp_path):
    import random

    rng = random.Random(1)
    m, d = 400, 30
    data = {"X": [[rng.randint(-5, 5) for _ in range(d)] for _ in range(m)],
            "y": [rng.randint(-9, 9) for _ in range(m)], "W0": [1] * d}
    (tmp_path / "big.json").write_text(json.dumps(data))
    text = _on_a_terminal(["verify", "lemma-4.5", "--data", "big.json", "--no-crosscheck", "--out",
                           "c.json"], tmp_path)
    for step in ("deriving the optima exactly (m = 400, d = 30)", "writing the closed forms",
                 "writing the certificate"):
        assert step in text
    screen = _screen(text)
    assert screen[0] == "Lemma 4.5 (BatchNorm leads to a favourable initialization) — Santurkar et al. " \
                        "(2018), p. 8", screen[:3]
    assert not any("deriving" in line or "writing the" in line for line in screen)
