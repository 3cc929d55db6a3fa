"""`--json` output has one stable shape per command (issue 13.1): `check --json`
is a list with one object per file, also for one file; an error under --json is
a JSON object on stdout, {"error", "exit_code"}, as well as the line on stderr."""

import json
import os
import subprocess
import sys
from pathlib import Path

from bnproof.errors import ExitCode

ROOT = Path(__file__).resolve().parents[1]
HANG_GUARD = 300  # seconds; only so that a hang fails instead of blocking the suite
KEYS = {"path", "accepted", "established", "reason", "line"}


def run(*args, cwd: Path):
    env = dict(os.environ, BNPROOF_CACHE_DIR=str(cwd / ".cache"))
    return subprocess.run([sys.executable, "-m", "bnproof", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=HANG_GUARD)


def test_check_json_is_a_list_of_one_object_per_file(tmp_path):
    good = str(ROOT / "certificates" / "lemma-4.5.json")
    proc = run("check", good, "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.OK, proc.stderr
    one = json.loads(proc.stdout)
    assert isinstance(one, list) and len(one) == 1 and set(one[0]) == KEYS
    assert one[0] == {"path": good, "accepted": True, "established": "lemma-4.5 refuted", "reason": None,
                      "line": f"ACCEPTED {good}: lemma-4.5 refuted"}

    doc = json.loads(Path(good).read_text())
    doc["verdict"] = "holds"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    proc = run("check", good, str(forged), "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.REJECTED
    both = json.loads(proc.stdout)
    assert [set(r) for r in both] == [KEYS, KEYS]
    assert [r["accepted"] for r in both] == [True, False]
    assert both[1]["established"] is None and both[1]["reason"] and both[1]["line"].startswith("REJECTED")


def test_check_json_names_a_file_that_is_no_certificate(tmp_path):
    proc = run("check", "missing.json", "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT
    (entry,) = json.loads(proc.stdout)
    assert entry["accepted"] is False and entry["reason"].startswith("cannot read missing.json")


def test_an_error_under_json_is_a_json_object_on_stdout(tmp_path):
    (tmp_path / "bad.json").write_text('{"y": [0, 1], "gamma": 1}')
    proc = run("verify", "theorem-4.1", "--data", "bad.json", "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT
    assert json.loads(proc.stdout) == {"error": "missing variable g (m) of santurkar2018/theorem-4.1",
                                       "exit_code": 3}
    assert proc.stderr.strip() == "error: missing variable g (m) of santurkar2018/theorem-4.1"
    proc = run("verify", "theorem-4.1", "--data", "bad.json", cwd=tmp_path)  # without --json: stderr only
    assert proc.returncode == ExitCode.BAD_INPUT and proc.stdout == ""


def test_verify_json_shares_its_keys_between_lemma_4_5_and_any_claim(tmp_path):
    shared = {"claim", "source", "statement", "instance", "verdict", "residual", "residual_float",
              "certificate", "certificate_check"}
    lemma = run("verify", "lemma-4.5", "--json", "--no-crosscheck", "--out", "l.json", cwd=tmp_path)
    (tmp_path / "d.json").write_text('{"y": [0, 1], "g": [0, 1], "gamma": 1}')
    other = run("verify", "theorem-4.1", "--data", "d.json", "--json", cwd=tmp_path)
    assert lemma.returncode == other.returncode == ExitCode.REFUTED, lemma.stderr + other.stderr
    assert shared <= set(json.loads(lemma.stdout)) and shared <= set(json.loads(other.stdout))
