"""`--json` output has one stable shape per command (issue 13.1): `check --json`
is a list with one object per file and `fuzz --json` one object per claim, also
for one; docs/cli.md states every command's shape; an error under --json is
a JSON object on stdout, {"error", "exit_code"}, as well as the line on stderr.
Commands run in this process (tests/cli_runner.py)."""

import json
from pathlib import Path

from bnproof.errors import ExitCode
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
KEYS = {"path", "accepted", "established", "reason", "line"}


def run(*args, cwd: Path):
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(cwd / ".cache")})


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


TOY = (ROOT / "tests" / "claims" / "false_toy.py").read_text()
TWO = TOY + '''
SECOND = Claim(
    id="toy/bounded-bn-output-again", source="a test of bnproof", statement=r"z_b \\le \\beta + |\\gamma|",
    variables=(Var("y", ("m",)), Var("gamma", (), "nonzero"), Var("beta", ())),
    sizes={"m": (2, 5)},
    hypotheses=(lambda xp, y, gamma, beta: stats(xp, y)[1] ** 2,),
    residual=lambda xp, y, gamma, beta: beta + xp.abs(gamma) - batch_norm(xp, y, gamma, beta)[0],
)
'''
FUZZ = ("--no-jax", "--no-timings", "--max-examples", "20", "--json", "--time-budget", "300")


def test_fuzz_json_is_a_list_of_one_object_per_claim_also_for_one(tmp_path):
    # it was one object for one claim and a list for several: a script had to test which
    (tmp_path / "one.py").write_text(TOY)
    (tmp_path / "two.py").write_text(TWO)
    one = run("fuzz", "one.py", *FUZZ, cwd=tmp_path)
    two = run("fuzz", "two.py", *FUZZ, cwd=tmp_path)
    assert one.returncode == two.returncode == ExitCode.REFUTED, one.stderr + two.stderr
    single, pair = json.loads(one.stdout), json.loads(two.stdout)
    assert isinstance(single, list) and isinstance(pair, list)
    assert [r["claim"] for r in single] == ["toy/bounded-bn-output"]
    assert [r["claim"] for r in pair] == ["toy/bounded-bn-output", "toy/bounded-bn-output-again"]
    assert set(single[0]) == set(pair[0]) == set(pair[1])  # the same object, whatever the count
    assert [r["verdict"] for r in single + pair] == ["refuted"] * 3


def test_cli_reference_states_every_json_shape():
    from bnproof.cli.reference import render

    text = render()
    table = text.split("## JSON output", 1)[1].split("## Exit codes", 1)[0]
    for command, shape in [("list", "a list"), ("fuzz", "a list"), ("check", "a list"),
                           ("verify", "one object"), ("scan", "one object"), ("study", "one object")]:
        assert f"| `bnproof {command}` | {shape}" in table
    assert '{"error": MESSAGE,\n"exit_code": CODE}' in table
