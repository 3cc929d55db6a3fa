"""`bnproof verify CLAIM --data FILE` decides any claim exactly on the user's own
instance (issue 13.1): verdict, exact residual, and a checked certificate for a
refutation; bad data is one line, exit 3, naming the variable."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bnproof
from bnproof.errors import BadInput, ExitCode
from cli_runner import env_for, run_cli

HERE = Path(__file__).parent
TOY = HERE / "claims" / "false_toy.py"
HANG_GUARD = 300  # seconds; only so that a hang fails instead of blocking the suite


def run(*args, cwd: Path):
    """The real command, in a process of its own."""
    env = dict(os.environ, BNPROOF_CACHE_DIR=str(cwd / ".cache"))
    return subprocess.run([sys.executable, "-m", "bnproof", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=HANG_GUARD)


def run_here(*args, cwd: Path):
    """The command through the entry point the console script calls, in this process
    (tests/cli_runner.py): the same exit codes and output without an interpreter's start."""
    return run_cli(*args, cwd=cwd, env=env_for(cwd))


def data(folder: Path, text: str, name: str = "mine.json") -> str:
    (folder / name).write_text(text)
    return name


def test_a_paper_claim_is_refuted_on_the_users_instance_with_a_checked_certificate(tmp_path):
    proc = run("verify", "theorem-4.1", "--data", data(tmp_path, '{"y": [0, 1], "g": [0, 1], "gamma": 1}'),
               "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    result = json.loads(proc.stdout)
    assert result["claim"] == "santurkar2018/theorem-4.1" and result["verdict"] == "refuted"
    assert result["residual"] == "2 - 2*sqrt(2)"  # by hand: ‖ĝ‖² − bound at y = g = (0, 1)
    assert result["instance"] == {"y": ["0", "1"], "g": ["0", "1"], "gamma": "1"}
    assert result["certificate"] == "bnproof-out/santurkar2018/theorem-4.1-mine.json"
    assert result["certificate_check"].startswith("ACCEPTED")
    check = run_here("check", result["certificate"], cwd=tmp_path)
    assert check.returncode == ExitCode.OK, check.stdout


def test_an_exact_zero_residual_holds_and_writes_nothing(tmp_path):
    # g = (1, 1) is constant: both sides are 0, the inequality holds with equality
    result = bnproof.verify("santurkar2018/theorem-4.1", {"y": [0, 1], "g": [1, 1], "gamma": 1})
    assert result.verdict == "holds" and result.residual == "0" and result.exit_code == ExitCode.OK
    assert result.certificate is None and result.certificate_path is None
    assert list(tmp_path.iterdir()) == []


def test_an_instance_outside_the_hypotheses_says_so():
    result = bnproof.verify("remark-2.7", {"z": [0, 0]})  # σ = 0: the hypothesis σ² > 0 fails
    assert result.verdict == "outside-hypotheses" and result.exit_code == ExitCode.HYPOTHESIS_NOT_MET
    assert "hypothesis 1" in result.reason


def test_a_user_claim_file_true_and_false_instances(tmp_path):
    false = bnproof.verify(str(TOY), {"y": [1, 0, 0], "gamma": 1, "beta": 0})
    assert false.verdict == "refuted" and false.residual == "1 - sqrt(2)"
    assert false.certificate_check.startswith("ACCEPTED (in memory)") and false.certificate_path is None
    true = bnproof.verify(str(TOY), {"y": ["1/2", 0.25], "gamma": -3, "beta": "7"})  # two samples: ŷ = ±1
    assert true.verdict == "holds" and true.instance == {"y": ["1/2", "1/4"], "gamma": "-3", "beta": "7"}
    proc = run_here("verify", str(TOY), "--data", data(tmp_path, '{"y": [1, 0, 0], "gamma": 1, "beta": 0}'),
                    cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    assert "REFUTED" in proc.stdout and "Certificate: bnproof-out/toy/bounded-bn-output-mine.json" in proc.stdout


@pytest.mark.parametrize("text, message", [
    ('{"y": [0, 1], "gamma": 1}', "missing variable g (m) of santurkar2018/theorem-4.1"),
    ('{"y": [0, 1], "g": [0, 1], "gamma": 1, "beta": 0}', "'beta' is not a variable of santurkar2018/theorem-4.1"),
    ('{"y": [0, 1], "g": [0, 1, 2], "gamma": 1}', "g gives size m = 3, but y gives m = 2"),
    ('{"y": [0, 1], "g": [0, 1], "gamma": [1]}', "gamma: expected a number, got a list"),
    ('{"y": [[0], [1]], "g": [0, 1], "gamma": 1}', "y[0]: expected a number, got a list"),
    ('{"y": 3, "g": [0, 1], "gamma": 1}', "y: expected 1-dimensional nested lists, got a number"),
    ('{"y": [0, 1], "g": [0, 1], "gamma": 1, "gamma": 2}', "duplicate key 'gamma'"),
    ('{"y": [0, "1e401"], "g": [0, 1], "gamma": 1}', "exponent in '1e401' is out of range"),
    ('{"y": [0, "\\u0663"], "g": [0, 1], "gamma": 1}', "is not a number"),
    ('{"y": [0, NaN], "g": [0, 1], "gamma": 1}', "NaN is not a finite number"),
    ('[1, 2]', "must be a JSON object with one key per variable"),
])
def test_bad_data_is_one_line_naming_the_variable(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(BadInput) as err:
        bnproof.verify("theorem-4.1", path)
    assert message in str(err.value)


def test_bad_data_on_the_command_line_exits_3_with_one_line(tmp_path):
    proc = run_here("verify", "theorem-4.1", "--data", data(tmp_path, '{"y": [0, 1], "gamma": 1}'), cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT
    assert proc.stderr.strip() == "error: missing variable g (m) of santurkar2018/theorem-4.1"
    proc = run_here("verify", "theorem-4.1", cwd=tmp_path)  # no built-in instance
    assert proc.returncode == ExitCode.BAD_INPUT and "give --data FILE" in proc.stderr
    assert not (tmp_path / "bnproof-out").exists()
