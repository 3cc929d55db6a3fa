"""The command line as a user meets it: exit codes, one-line errors.  The paper's
command and the repeatability of --json run as real processes; the other
commands run in this process (tests/cli_runner.py: the entry point the
`bnproof` script calls, with the folder, environment and captured streams a
process would have)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bnproof.errors import EXIT_CODE_HELP, ExitCode
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3], "gamma": 1, "beta": 0}


def process(*args, cwd=None):
    """`python -m bnproof ARGS` in a process of its own."""
    env = dict(os.environ, BNPROOF_CACHE_DIR=str(Path(cwd or ROOT) / ".cache"))
    return subprocess.run([sys.executable, "-m", "bnproof", *args], capture_output=True,
                          text=True, cwd=cwd, env=env)


def run(*args, cwd=None):
    """`bnproof ARGS` in this process."""
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(Path(cwd or ROOT) / ".cache")})


def data_file(tmp_path, data, name="instance.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def assert_one_line_error(proc, code, *fragments):
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_default_verify_reproduces_the_paper(tmp_path):
    cert = tmp_path / "cert.json"
    proc = process("verify", "lemma-4.5", "--out", str(cert), cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    out = proc.stdout
    for text in ["(−54√74/1369, 18√74/1369) ≈ (−0.3393, 0.1131)",
                 "3w₁ = 5w₂, w₁ > 0", "Ŵ* = (35/17, 21/17)", "= 72/17", "REFUTED",
                 "μ(w) = 4w₁/3 + 2w₂", "σ(w) = √(2w₁² + 6w₁w₂ + 6w₂²)/3",
                 "C(W*) = 12", "201 − 2√194", "values agree", "ACCEPTED"]:
        assert text in out, text
    # the committed certificate is exactly what the engine writes today
    assert cert.read_bytes() == (ROOT / "certificates" / "lemma-4.5.json").read_bytes()
    check = process("check", str(cert))  # the fast path, as a user's shell starts it
    assert check.returncode == 0 and check.stdout.startswith("ACCEPTED")


def test_json_output_has_exact_strings_and_is_repeatable(tmp_path):
    args = ("verify", "lemma-4.5", "--json", "--out", str(tmp_path / "c.json"))
    # one run in a process of its own: another interpreter, another hash seed (set order)
    first, second = process(*args, cwd=tmp_path), run(*args, cwd=tmp_path)
    assert first.returncode == ExitCode.REFUTED
    assert first.stdout == second.stdout
    out = json.loads(first.stdout)
    assert out["claim"] == "lemma-4.5" and out["verdict"] == "refuted"
    assert out["W_star"] == ["1", "3"]
    assert out["grad_bn_at_W_star"] == ["-54*sqrt(74)/1369", "18*sqrt(74)/1369"]
    assert [round(x, 4) for x in out["grad_bn_at_W_star_float"]] == [-0.3393, 0.1131]
    assert out["bn_optimum_direction"] == ["5", "3"]
    assert out["closest_bn_optimum"] == ["35/17", "21/17"]
    assert (out["lhs"], out["rhs"], out["residual"]) == ("72/17", "0", "-72/17")
    assert out["crosscheck"]["ok"] and out["certificate"].endswith("c.json")


def test_user_data_where_the_lemma_holds(tmp_path):
    # W0 = (5, 3) lies on the BN ray: LHS 0; RHS = 34 − 14²/10 = 72/5 (by hand)
    path = data_file(tmp_path, {**EXAMPLE, "W0": [5, 3]})
    proc = run("verify", "lemma-4.5", "--data", str(path), "--json", "--no-crosscheck", cwd=tmp_path)
    assert proc.returncode == ExitCode.OK, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["verdict"], out["lhs"], out["rhs"]) == ("holds", "0", "72/5")
    assert (tmp_path / "bnproof-out" / "lemma-4.5-instance.json").exists()  # where every command writes


def test_decimals_are_read_exactly(tmp_path):
    # W0 = (0.1, 0.3) = W*/10: RHS 0; LHS = 1/10 − (7/5)²/34 = 18/425 (by hand)
    path = data_file(tmp_path, '{"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [0.1, "3/10"]}')
    proc = run("verify", "lemma-4.5", "--data", str(path), "--json", "--no-crosscheck", cwd=tmp_path)
    out = json.loads(proc.stdout)
    assert (out["lhs"], out["rhs"], out["verdict"]) == ("18/425", "0", "refuted")


def test_hypothesis_not_met(tmp_path):
    path = data_file(tmp_path, {**EXAMPLE, "W0": [-1, -3]})
    proc = run("verify", "lemma-4.5", "--data", str(path), "--no-crosscheck", cwd=tmp_path)
    assert_one_line_error(proc, ExitCode.HYPOTHESIS_NOT_MET, "hypothesis not met", "⟨W0, W*⟩ = −10 ≤ 0")
    assert "HYPOTHESIS NOT MET" in proc.stdout


BAD = [
    ({**EXAMPLE, "X": [[1, 2], [1, 2], [1, 2]]}, ExitCode.DEGENERATE, "σ = 0"),
    ({**EXAMPLE, "X": [[1, 2], [2, 4], [3, 6]]}, ExitCode.DEGENERATE, "singular least squares"),
    ({**EXAMPLE, "X": [[1, 2], [3], [4, 5]]}, ExitCode.BAD_INPUT, "ragged"),
    ({**EXAMPLE, "y": [2, "five", 13]}, ExitCode.BAD_INPUT, "y[1]"),
    ({**EXAMPLE, "y": [2, "nan", 13]}, ExitCode.BAD_INPUT, "not a finite number"),
    ({**EXAMPLE, "gamma": "inf"}, ExitCode.BAD_INPUT, "not a finite number"),
    ('{"X": [[1, 1], [1, 2], [2, 3]], "y": [2, NaN, 13], "W0": [1, 3]}', ExitCode.BAD_INPUT, "NaN"),
    ('{"X": [[1, 1], [1, 2], [2, 3]], "y": [2, Infinity, 13], "W0": [1, 3]}', ExitCode.BAD_INPUT, "Infinity"),
    ('{"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 1e999999, 13], "W0": [1, 3]}', ExitCode.BAD_INPUT, "exponent"),
    ('{"X": [[1, 1], [1, 2]', ExitCode.BAD_INPUT, "not valid JSON"),
    ("[" * 100000, ExitCode.BAD_INPUT, "nested too deeply"),
    ({**EXAMPLE, "W0": [1, 3, 4]}, ExitCode.BAD_INPUT, "W0 has 3 entries"),
    ({**EXAMPLE, "y": [1, 2]}, ExitCode.BAD_INPUT, "targets have 2"),
    ({**EXAMPLE, "Wo": [1, 2]}, ExitCode.BAD_INPUT, "unknown key 'Wo'"),
    ({**EXAMPLE, "y": [2, "1/0", 13]}, ExitCode.BAD_INPUT, "division by zero"),
    ({**EXAMPLE, "y": [2, True, 13]}, ExitCode.BAD_INPUT, "expected a number"),
    ({**EXAMPLE, "y": [2, "__import__('os').system('touch pwned')", 13]}, ExitCode.BAD_INPUT, "not a number"),
]


@pytest.mark.parametrize("data,code,fragment", BAD, ids=[b[2] for b in BAD])
def test_bad_input_gives_one_line_error(tmp_path, data, code, fragment):
    path = data_file(tmp_path, data)
    proc = run("verify", "lemma-4.5", "--data", str(path), cwd=tmp_path)
    assert_one_line_error(proc, code, fragment)
    assert not (tmp_path / "bnproof-out").exists()  # nothing written half-way
    assert not (tmp_path / "pwned").exists()


def test_missing_and_non_utf8_files(tmp_path):
    proc = run("verify", "lemma-4.5", "--data", str(tmp_path / "nope.json"), cwd=tmp_path)
    assert_one_line_error(proc, ExitCode.BAD_INPUT, "cannot read")
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"X": "\xe9"}')
    proc = run("verify", "lemma-4.5", "--data", str(path), cwd=tmp_path)
    assert_one_line_error(proc, ExitCode.BAD_INPUT, "not UTF-8")


def test_unknown_claim_and_usage_errors(tmp_path):
    assert_one_line_error(run("verify", "lemma-9.9", cwd=tmp_path), ExitCode.BAD_INPUT, "unknown claim")
    assert run("verify", cwd=tmp_path).returncode == ExitCode.USAGE
    assert run("verify", "lemma-4.5", "--bogus", cwd=tmp_path).returncode == ExitCode.USAGE


def test_check_rejects_a_tampered_certificate(tmp_path):
    doc = json.loads((ROOT / "certificates" / "lemma-4.5.json").read_text())
    doc["witnesses"]["neurons"][0]["lhs"] = "0"
    path = data_file(tmp_path, doc, "bad.json")
    proc = run("check", str(path), str(ROOT / "certificates" / "lemma-4.5.json"))
    assert proc.returncode == ExitCode.REJECTED
    first, second = proc.stdout.strip().splitlines()
    assert first.startswith("REJECTED") and second.startswith("ACCEPTED")


def test_a_wrong_closed_form_is_caught_by_the_crosscheck(tmp_path, monkeypatch, capsys):
    from bnproof import cli
    from bnproof.numeric import crosscheck

    real = crosscheck._exact

    def wrong(neuron, w, with_hessians):
        out = real(neuron, w, with_hessians)
        out["grad_C_hat"] = [g * 1.001 + 1e-3 for g in out["grad_C_hat"]]
        return out

    monkeypatch.setattr(crosscheck, "_exact", wrong)
    monkeypatch.setenv("BNPROOF_CACHE_DIR", str(tmp_path / ".cache"))
    with pytest.raises(SystemExit) as stop:
        cli.main(["verify", "lemma-4.5", "--out", str(tmp_path / "c.json")])
    assert stop.value.code == ExitCode.DISAGREEMENT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "exact and numeric layers disagree" in err[0]
    assert not (tmp_path / "c.json").exists()


def test_help_and_readme_document_every_exit_code():
    help_text = run("--help").stdout  # the whole table; each command lists only its own (test_help.py)
    readme = (ROOT / "README.md").read_text()
    for code in ExitCode:
        line = next(l for l in EXIT_CODE_HELP.splitlines() if l.startswith(f"{code.value} "))
        assert line.split("  ", 1)[1][:30] in " ".join(help_text.split())
        assert f"| {code.value} |" in readme


def test_readme_gives_two_commands_and_ci_runs_the_second():
    readme = (ROOT / "README.md").read_text()
    commands = [block.strip() for block in readme.split("```")[1::2] if block.startswith("\n")]
    fresh = [c for c in commands if c.startswith("python3 -m venv")]
    assert len(fresh) == 2
    assert fresh[0].endswith("bnproof verify lemma-4.5")
    assert fresh[1] in (ROOT / ".ci" / "run").read_text()
