"""The command line's crashes and wrong categories a new user met: numbers beyond the
float range, exit codes, output that said more than was done, messages that named
the wrong thing, a listing wider than the terminal, a figure whose caption and
drawing disagreed, failures found and not shown, and files written in two places.
Each test runs the command as a user does (tests/cli_runner.py: the entry point the
`bnproof` script calls, in a scratch folder)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.errors import COMMANDS, ExitCode
from cli_runner import env_for, run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3], "beta": 0}
SCIENTIFIC = re.compile(r"^-?\d(\.\d+)?e[+-]\d+$")


def run(*args, cwd, **env):
    return run_cli(*args, cwd=cwd, env=env_for(cwd, **env))


def write(folder: Path, name: str, data) -> Path:
    path = folder / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def one_line(proc) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


# -- numbers no float holds --------------------------------------------------------

@pytest.mark.parametrize("gamma", ["1e160", "1e400"])
def test_a_gamma_beyond_the_float_range_is_decided_and_approximated_from_the_exact_value(tmp_path, gamma):
    data = write(tmp_path, "big.json", {**EXAMPLE, "gamma": gamma})
    proc = run("verify", "lemma-4.5", "--data", data, "--json", "--no-crosscheck", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    out = json.loads(proc.stdout)
    assert out["verdict"] == "refuted" and out["residual"] == "-72/17"  # γ scales Ĉ, not the Lemma's sides
    neuron = out["neurons"][0]
    # min Ĉ ≈ γ²·m: no float holds it, so its approximation is the decimal of the exact value
    assert SCIENTIFIC.match(neuron["min_C_hat_float"]), neuron["min_C_hat_float"]
    assert int(neuron["min_C_hat_float"].split("e")[1]) == 2 * int(gamma[2:])  # ≈ 3γ²
    grad = neuron["grad_bn_at_W_star_float"]  # ≈ γ·(−0.34, 0.11): a float at γ = 1e160, not at 1e400
    assert all(isinstance(x, float) for x in grad) if gamma == "1e160" else all(SCIENTIFIC.match(x) for x in grad)
    assert out["lhs_float"] == pytest.approx(72 / 17)  # a float where a float holds it
    text = run("verify", "lemma-4.5", "--data", data, "--no-crosscheck", cwd=tmp_path)
    assert text.returncode == ExitCode.REFUTED and "REFUTED" in text.stdout, text.stderr
    assert re.search(r"min Ĉ = ≈ \d(\.\d+)?e\+\d+", text.stdout), text.stdout


def test_the_crosscheck_of_such_an_instance_says_it_could_not_compare(tmp_path):
    data = write(tmp_path, "big.json", {**EXAMPLE, "gamma": "1e160"})
    proc = run("verify", "lemma-4.5", "--data", data, "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    crosscheck = json.loads(proc.stdout)["crosscheck"]
    assert crosscheck["ok"] is None and "beyond float64's range" in crosscheck["skipped"]


def test_an_internal_error_under_json_still_prints_the_error_object(tmp_path, monkeypatch):
    from bnproof.render import report

    def broken(*args, **kwargs):
        raise OverflowError("integer division result too large for a float")

    monkeypatch.setattr(report, "to_json", broken)
    proc = run("verify", "lemma-4.5", "--json", "--no-crosscheck", "--out", tmp_path / "c.json", cwd=tmp_path)
    assert proc.returncode == ExitCode.INTERNAL
    out = json.loads(proc.stdout)  # docs/cli.md: an error under --json is one object on stdout
    assert out == {"error": "internal error: OverflowError: integer division result too large for a float",
                   "exit_code": 8}


# -- scan's undecided --------------------------------------------------------------

ONE_LAYER = ("scan", "--dataset", "synthetic", "--widths", "none", "--bn-output", "--activation", "identity",
             "--loss", "squared", "--samples", "20", "--features", "3")


def test_scan_undecided_exits_10_as_every_command(tmp_path):
    # one optimizer step: neither optimum converges, so nothing is decided
    proc = run(*ONE_LAYER, "--seed", "2", "--max-steps", "1", "--json", cwd=tmp_path)
    (layer,) = json.loads(proc.stdout)["layers"]
    assert layer["verdict"] == "undecided"
    assert proc.returncode == ExitCode.UNDECIDED, proc.stderr
    from bnproof.cli.scan import exit_code

    assert exit_code(["holds", "undecided"]) == ExitCode.UNDECIDED
    assert exit_code(["undecided", "fails"]) == ExitCode.REFUTED
    assert exit_code(["holds", "hypothesis-not-met"]) == ExitCode.OK


# -- export ---------------------------------------------------------------------------

LEMMA_CERT = ROOT / "certificates" / "lemma-4.5.json"
PROOF_CERT = ROOT / "certificates" / "santurkar2018" / "fact-c.1.proof.json"


def test_export_with_solve_and_no_file_prints_the_smtlib_as_the_help_says(tmp_path):
    proc = run("export", LEMMA_CERT, "--solve", "z3", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("; bnproof certificate lemma-4.5 refuted")
    assert proc.stdout.rstrip().endswith("(exit)") and "z3" not in proc.stdout.splitlines()[-1]
    assert proc.stderr.startswith("z3: unsat: every fact of")  # the answer beside, not in, the file


def test_export_says_nothing_confirmed_before_the_solver_has_answered(tmp_path, monkeypatch):
    from bnproof.certificate import solvers

    monkeypatch.setattr(solvers, "solve", lambda text, solver, timeout: "timeout")
    out = tmp_path / "p.smt2"
    proc = run("export", PROOF_CERT, "--m", "5", "--solve", "z3", "-o", out, cwd=tmp_path)
    assert proc.returncode == ExitCode.REJECTED
    assert proc.stdout == ""  # no "wrote …: unsat … confirms" before the failure
    assert "z3 answered timeout" in one_line(proc) and str(out) in one_line(proc)
    assert out.read_text().rstrip().endswith("(exit)")  # the file asked for is still written


# -- solver names -----------------------------------------------------------------------

SQUARE = '''from bnproof.claims import Claim, Var

SQUARE = Claim("t/square-root", "test", "p^2 = x", lambda xp, x, p: p * p - x, (Var("x"),),
               kind="identity", exists=(Var("p"),))
'''


@pytest.fixture(scope="module")
def square_fuzzed(tmp_path_factory):
    """`fuzz square.py` in a scratch folder of its own, with the default output folder: what it
    prints and what it writes, for the two tests below (one search in a worker for both)."""
    folder = tmp_path_factory.mktemp("square")
    claim = write(folder, "square.py", SQUARE)
    proc = run("fuzz", claim, "--no-jax", "--max-examples", "30", "--no-prove", "--no-timings", "--time-budget", "300",
               cwd=folder)
    return folder, proc


def test_solver_names_are_not_typeset_as_indexed_variables(square_fuzzed):
    from bnproof.render.unicode_math import math

    _, proc = square_fuzzed
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    assert "z3 and cvc5 answer unsat" in proc.stdout
    assert not re.search("[₀-₉]", proc.stdout), proc.stdout
    assert math("z1 + z3") == "z₁ + z₃"  # a claim's own z3 is still a variable


# -- the closest claim id -----------------------------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    (["verify", "lema-4.5"], "did you mean lemma-4.5?"),
    (["verify", "theorm-4.1", "--data", "x.json"], "did you mean theorem-4.1?"),
    (["fuzz", "theorm-4.1", "--no-jax"], "did you mean theorem-4.1?"),
    (["prove", "santurkar2018/theorm-4.1"], "did you mean santurkar2018/theorem-4.1?"),
    (["fuzz", "fact-c2", "--no-jax"], "did you mean fact-c.2?"),
    (["prove", "santurkar2017"], "did you mean santurkar2018?"),
    (["latex", "theorm-4.1"], "did you mean theorem-4.1?"),
    (["plot", "lema-4.5", "-o", "f.png"], "did you mean lemma-4.5?"),
    (["study", "lema-4.5"], "did you mean lemma-4.5?"),
])
def test_a_mistyped_claim_id_is_answered_with_the_closest(tmp_path, args, fragment):
    write(tmp_path, "x.json", {"x": 1})
    proc = run(*args, cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT
    line = one_line(proc)
    assert fragment in line and "known claims: lemma-4.5" not in line


def test_a_name_close_to_nothing_gets_no_guess_and_another_claim_is_named_as_one(tmp_path):
    line = one_line(run("verify", "xyzzy", cwd=tmp_path))
    assert "unknown claim 'xyzzy'" in line and "did you mean" not in line and "bnproof list" in line
    line = one_line(run("plot", "theorem-4.1", "-o", "f.png", cwd=tmp_path))
    assert "theorem-4.1 is another claim" in line


# -- messages that name the right thing ---------------------------------------------------

POSITIVE = '''from bnproof.claims import Claim, Var, hypothesis


@hypothesis("the margin $c - 1$")
def margin(xp, c):
    return c - 1


POS = Claim(id="t/pos", source="test", statement="c > 2", kind="inequality",
            variables=(Var("c", (), "positive"),), hypotheses=(margin,), residual=lambda xp, c: c - 2)
'''

THIRD = '''from bnproof.claims import Claim, Var


def res(xp, x):
    return (1/3) * x - x


THIRD = Claim(id="t/third", source="test", statement="x/3 - x", kind="inequality",
              variables=(Var("x", ()),), residual=res)
'''


def test_a_named_hypothesis_is_named_and_a_scalar_has_no_entries(tmp_path):
    (tmp_path / "claims").mkdir()
    write(tmp_path / "claims", "pos.py", POSITIVE)
    write(tmp_path, "half.json", {"c": "1/2"})
    write(tmp_path, "negative.json", {"c": -1})
    proc = run("verify", "claims/pos.py", "--data", "half.json", "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.HYPOTHESIS_NOT_MET, proc.stderr
    assert json.loads(proc.stdout)["reason"].startswith("hypothesis 1 (the margin $c - 1$) is not > 0")
    proc = run("verify", "claims/pos.py", "--data", "negative.json", "--json", cwd=tmp_path)
    reason = json.loads(proc.stdout)["reason"]
    assert reason.endswith("c is not positive") and "an entry of" not in reason


def test_a_float_constant_names_its_exact_spelling_and_the_path_as_typed(tmp_path):
    (tmp_path / "claims").mkdir()
    write(tmp_path / "claims", "third.py", THIRD)
    write(tmp_path, "x.json", {"x": 1})
    for args in (["verify", "claims/third.py", "--data", "x.json"], ["fuzz", "claims/third.py", "--no-jax"]):
        line = one_line(run(*args, cwd=tmp_path))
        assert line.startswith("error: claims/third.py:5: "), line  # as typed, as a loading error shows it
        assert str(tmp_path) not in line
        assert "the float 0.3333333333333333" in line and "xp.q(1, 3)" in line


VECTOR = '''from bnproof.claims import Claim, Var

V = Claim(id="t/vector", source="test", statement="x", kind="inequality",
          variables=(Var("x", (2,)),), residual=lambda xp, x: x)
'''


def test_a_residual_that_is_no_scalar_names_the_file_as_typed(tmp_path):
    (tmp_path / "claims").mkdir()
    write(tmp_path / "claims", "vector.py", VECTOR)
    write(tmp_path, "x2.json", {"x": [1, 2]})
    for args in (["verify", "claims/vector.py", "--data", "x2.json"], ["fuzz", "claims/vector.py", "--no-jax"]):
        line = one_line(run(*args, cwd=tmp_path))
        assert "claims/vector.py:4: claim t/vector: the residual must be a scalar" in line, line
        assert str(tmp_path) not in line


# -- list ----------------------------------------------------------------------------------

def test_list_keeps_to_columns_cuts_no_parenthesis_and_shows_the_aliases(tmp_path):
    narrow = run("list", cwd=ROOT, COLUMNS="80")
    assert narrow.returncode == 0, narrow.stderr
    lines = narrow.stdout.splitlines()
    # within the width, but for a single word that cannot be broken (a path)
    assert all(len(line) <= 80 or " " not in line.strip() for line in lines), max(lines, key=len)
    words = " ".join(narrow.stdout.split())
    assert "(the proof's condition γ ≤ σ, strict)" in words
    assert "(alias: lemma-4.5)" in words
    wide = run("list", cwd=ROOT, COLUMNS=None)  # piped, no width asked: one claim a line
    rows = {line.split()[0]: line.split() for line in wide.stdout.splitlines()[1:]}
    assert rows["santurkar2018/lemma-4.5"][1] == "lemma-4.5"
    listed = json.loads(run("list", "--json", cwd=ROOT).stdout)
    short = {r["id"]: r["source_short"] for r in listed}
    assert short["santurkar2018/theorem-4.2/part-2/gamma-below-sigma"].endswith(
        "(the proof's condition γ ≤ σ, strict)")


# -- plot ----------------------------------------------------------------------------------

# d = 3 with ⟨W0, b⟩ < 0: the closest BN optimum is not attained (approached as t → 0)
UNATTAINED = {"X": [[1, 2, 0], [2, 1, 1], [0, 1, 3], [1, 1, 1], [3, 0, 1]], "y": [1, 2, 3, 4, 5],
              "W0": [-2, 1, 3]}


def test_plot_draws_what_its_caption_says_where_the_closest_optimum_is_not_attained(tmp_path):
    from bnproof.claims import lemma45
    from bnproof.instance import instance_from_json
    from bnproof.render.plot import figure

    data = write(tmp_path, "d3.json", UNATTAINED)
    out = tmp_path / "fig.pdf"
    proc = run("plot", "lemma-4.5", "--data", data, "-o", out, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    tool = shutil.which("pdftotext")
    assert tool, "pdftotext is not installed: .ci/run installs poppler-utils"
    text = subprocess.run([tool, str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "(LHS; not attained)" in text and "not attained: approached as" in text
    report = lemma45.analyse(instance_from_json(UNATTAINED))
    assert report.neurons[0].closest.point is None
    fig = figure(report)
    caption = fig._suptitle.get_text()
    assert r"\widehat{W}^*$ projected" not in caption and "approaches as" in caption
    for ax in fig.axes[:2]:  # the LHS segment ends at the point drawn, in both panels
        (point,) = [line for line in ax.get_lines() if line.get_gid() == "approached"]
        segment = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert segment and tuple(segment[0].get_xydata()[-1]) == tuple(point.get_xydata()[0])


# -- study and scan failures, as data verify reads -------------------------------------------

def test_study_shows_its_failures_and_writes_each_for_verify(tmp_path):
    proc = run("study", "lemma-4.5", "--m", "3", "--d", "1", "--trials", "300", "--confirm", "2", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    shown = re.findall(r"m = 3, d = 1: RHS − LHS = (\S+)\s+(\S+\.json)", proc.stdout)
    assert len(shown) == 2, proc.stdout
    for residual, file in shown:
        assert file.startswith("bnproof-out/study-m3-d1-seed0-")
        again = run("verify", "lemma-4.5", "--data", file, "--json", "--no-crosscheck", cwd=tmp_path)
        assert again.returncode == ExitCode.REFUTED, again.stderr
        assert Fraction(json.loads(again.stdout)["residual"]) == Fraction(residual.replace("−", "-")) < 0


def test_scan_writes_a_failing_layer_for_verify_to_decide_exactly(tmp_path):
    proc = run(*ONE_LAYER, "--seed", "2", "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    (layer,) = json.loads(proc.stdout)["layers"]
    assert layer["verdict"] == "fails" and layer["verify_data"] == "bnproof-out/scan-synthetic-seed2-layer1.json"
    again = run("verify", "lemma-4.5", "--data", layer["verify_data"], "--json", "--no-crosscheck", cwd=tmp_path)
    assert again.returncode == ExitCode.REFUTED, again.stderr
    # the very floats the scan computed on, decided exactly: the same residual
    # (the scan's optima are L-BFGS's, within its tolerance of the exact ones)
    assert json.loads(again.stdout)["residual_float"] == pytest.approx(layer["min_residual"], rel=1e-4)


def test_a_failing_hidden_layer_is_not_the_lemmas_setting():
    from bnproof.numeric import network as net
    from bnproof.numeric.scan import lemma_setting

    assert lemma_setting(net.Spec((3, 1), "identity", "squared", True), 0) is None
    assert "hidden layer" in lemma_setting(net.Spec((3, 4, 1), "tanh", "squared", True), 0)
    assert "squared" in lemma_setting(net.Spec((3, 2), "identity", "xent", True), 0)
    assert "learned" in lemma_setting(net.Spec((3, 1), "identity", "squared", True, "learned"), 0)


# -- one place for output --------------------------------------------------------------------

def test_every_command_writes_into_bnproof_out_by_default(square_fuzzed):
    tmp_path, fuzzed = square_fuzzed  # fuzz has run there; verify runs there now
    assert fuzzed.returncode == ExitCode.REFUTED, fuzzed.stderr
    data = write(tmp_path, "mine.json", {**EXAMPLE, "W0": [5, 3]})
    assert run("verify", "lemma-4.5", "--no-crosscheck", cwd=tmp_path).returncode == ExitCode.REFUTED
    assert run("verify", "lemma-4.5", "--data", data, "--no-crosscheck", cwd=tmp_path).returncode == 0
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.json")
                     if not p.relative_to(tmp_path).parts[0].startswith(".") and p.parent != tmp_path)
    assert written == ["bnproof-out/lemma-4.5-mine.json", "bnproof-out/lemma-4.5.json",
                       "bnproof-out/t/square-root.json"]
    assert not (tmp_path / "certificates").exists()
    reference = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = reference.split("## Output files", 1)[1].split("\n## ", 1)[0]
    assert all(f"`bnproof {command}`" in section for command in COMMANDS if command not in ("list", "check")), section
    assert (tmp_path / "bnproof-out" / "lemma-4.5.json").read_bytes() == LEMMA_CERT.read_bytes()
