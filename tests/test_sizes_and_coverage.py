"""Sizes are part of a claim's statement, and a proof says exactly which sizes it
covers (issue 22, classes 6 and 7).

- `verify CLAIM --data` refuses an instance outside the claim's declared sizes
  (exit 3, one line naming the size, its value and the range); so does
  `bnproof.verify`.
- `check --claim` rejects (exit 6) a certificate whose sizes, or a proof
  certificate whose fixed sizes, lie outside the claim's declared ranges; so
  does `bnproof.check`, and `latex --claim` writes no refutation of it.
- `prove` says "proved" (exit 0) only when every declared fixed size is proved;
  a claim proved at d = 1, 2, 3 of d in (1, 8) is "proved for part of the range"
  (exit 10), in the text, in --json ("status", "covered"), in ProveResult, in
  fuzz's proof attempt and in what `list` shows of a recorded proof.
- fuzz's "verified exactly" note names every bound it proved and no more.

Commands run in this process (tests/cli_runner.py) unless the point is the
process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bnproof
from bnproof.errors import BadInput, ExitCode
from cli_runner import run_cli

HEAD = "from bnproof.claims import Claim, Var\n"

# m fixed at 2 (NARROW) and the same claim, id and statement with m in 2..3 (WIDE): the claim
# object a certificate binds is the same, only the declared sizes differ.  False at m = 3.
TWO = '''
C = Claim(id="me/first-two", source="a test", statement="y_1 + y_2 = \\\\sum y", kind="identity",
          variables=(Var("y", ("m",)),), sizes={"m": SIZES},
          residual=lambda xp, y: y[0] + y[1] - xp.sum(y))
'''

# True at d <= 3 and false (residual -1) at d >= 4, for d in (1, D).
BY_D = '''
def _residual(xp, X, y):
    centred = xp.sum(y - xp.mean(y))
    return centred - 1 if X.shape[1] >= 4 else centred


C = Claim(id="me/by-d", source="a test", statement="\\\\sum (y - \\\\bar y) = 0", kind="identity",
          variables=(Var("X", ("m", "d")), Var("y", ("m",))), sizes={"m": (2, 3), "d": (1, D)},
          residual=_residual)
'''

# True at every d; declared for d in (1, D).
# 0·w[0]: a particular entry of w, so the claim is proved at each d, never for every d at once
# (symbolic_m/columns.py): these tests are of the proofs at fixed sizes
TRUE_D = '''
C = Claim(id="me/true-d", source="a test", statement="\\\\sum (X w - \\\\bar{X w}) = 0", kind="identity",
          variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, D)},
          residual=lambda xp, X, w: xp.sum(X @ w - xp.mean(X @ w)) + 0 * w[0])
'''


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(HEAD + text)
    return path


def run(*args, cwd: Path):
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(cwd / ".cache")})


# ---------------------------------------------------------------- class 6: sizes bound

@pytest.fixture
def two(tmp_path) -> Path:
    write(tmp_path, "narrow.py", TWO.replace("SIZES", "(2, 2)"))
    write(tmp_path, "wide.py", TWO.replace("SIZES", "(2, 3)"))
    (tmp_path / "m3.json").write_text('{"y": [1, 2, 3]}')
    (tmp_path / "m2.json").write_text('{"y": [1, 2]}')
    return tmp_path


def test_verify_refuses_data_outside_the_declared_sizes(two):
    proc = run("verify", "narrow.py", "--data", "m3.json", cwd=two)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.strip() == ("error: y gives m = 3, outside the sizes claim me/first-two declares "
                                   "(m = 2 only)")
    assert not (two / "bnproof-out").exists()  # no certificate of a refutation nobody claimed
    inside = run("verify", "narrow.py", "--data", "m2.json", cwd=two)
    assert inside.returncode == ExitCode.OK and "HOLDS" in inside.stdout


def test_the_api_verify_refuses_data_outside_the_declared_sizes(two):
    with pytest.raises(BadInput, match=r"m = 3, outside the sizes claim me/first-two declares \(m = 2 only\)"):
        bnproof.verify(two / "narrow.py", {"y": [1, 2, 3]})
    with pytest.raises(BadInput, match="m = 3, outside"):
        bnproof.verify(two / "narrow.py", str(two / "m3.json"))
    assert bnproof.verify(two / "narrow.py", {"y": [1, 2]}).verdict == "holds"


def test_check_claim_rejects_a_certificate_at_a_size_the_claim_does_not_declare(two):
    made = run("verify", "wide.py", "--data", "m3.json", "--out", "m3.cert.json", cwd=two)
    assert made.returncode == ExitCode.REFUTED, made.stdout + made.stderr
    proc = run("check", "--claim", "narrow.py", "m3.cert.json", cwd=two)
    assert proc.returncode == ExitCode.REJECTED, proc.stdout
    assert proc.stdout.strip() == ("REJECTED m3.cert.json: the certificate is at m = 3, outside the sizes "
                                   "claim me/first-two declares (m = 2 only)")
    as_json = run("check", "--claim", "narrow.py", "m3.cert.json", "--json", cwd=two)
    (entry,) = json.loads(as_json.stdout)
    assert as_json.returncode == ExitCode.REJECTED and "m = 3, outside the sizes" in entry["reason"]
    # the claim that declares m = 3 binds it
    assert run("check", "--claim", "wide.py", "m3.cert.json", cwd=two).returncode == ExitCode.OK
    result = bnproof.check(two / "m3.cert.json", claim=two / "narrow.py")
    assert not result.accepted and "m = 3, outside the sizes" in result.reason
    # nor is it written up as a refutation of the claim that fixes m = 2
    latex = run("latex", "m3.cert.json", "--claim", "narrow.py", cwd=two)
    assert latex.returncode == ExitCode.REJECTED and latex.stdout == ""
    assert "m = 3, outside the sizes claim me/first-two declares" in latex.stderr
    assert run("latex", "m3.cert.json", "--claim", "wide.py", cwd=two).returncode == ExitCode.OK


def test_check_claim_rejects_a_proof_at_a_fixed_size_the_claim_does_not_declare(tmp_path):
    from bnproof.certificate.io import pretty
    from bnproof.claims.api import load_file
    from bnproof.symbolic_m.prove import attempt

    wide = load_file(write(tmp_path, "d4.py", TRUE_D.replace("D)", "4)")))[0]
    write(tmp_path, "d3.py", TRUE_D.replace("D)", "3)"))
    for d in (3, 4):  # the same claim object and program; only the declared range of d differs
        (tmp_path / f"d{d}.proof.json").write_text(pretty(attempt(wide, {"d": d}).document) + "\n")
    assert run("check", "--claim", "d4.py", "d4.proof.json", cwd=tmp_path).returncode == ExitCode.OK
    proc = run("check", "--claim", "d3.py", "d4.proof.json", cwd=tmp_path)
    assert proc.returncode == ExitCode.REJECTED, proc.stdout
    assert proc.stdout.strip() == ("REJECTED d4.proof.json: the proof is at d = 4, outside the sizes claim "
                                   "me/true-d declares (d from 1 to 3)")
    # within the range it declares, the narrower claim binds it
    inside = run("check", "--claim", "d3.py", "d3.proof.json", cwd=tmp_path)
    assert inside.returncode == ExitCode.OK, inside.stdout


# the proofs below must end by themselves (which sizes are proved, which not attempted), at any
# speed: a budget they end well within
GENEROUS = ("--time-budget", "300")


# ---------------------------------------------------------------- class 7: no overclaim

def test_a_claim_false_beyond_the_sizes_once_attempted_is_not_proved(tmp_path):
    """d in (1, 6), true at d <= 3 only: proved at d = 1, 2, 3 it used to be "proved", exit 0."""
    write(tmp_path, "six.py", BY_D.replace("D)", "6)"))
    proc = run("prove", "six.py", "--json", "--out-dir", "out", *GENEROUS, cwd=tmp_path)
    assert proc.returncode == ExitCode.UNDECIDED, proc.stdout + proc.stderr
    (obj,) = json.loads(proc.stdout)
    assert obj["status"] == "not-proved"
    assert obj["text"].startswith("not proved at d = 4: normal form −1")
    assert obj["covered"] == [{"d": 1}, {"d": 2}, {"d": 3}]
    assert obj["certificates"] == [] and not (tmp_path / "out").exists()


def test_a_proof_at_part_of_the_range_says_which_part_and_exits_10(tmp_path):
    write(tmp_path, "eight.py", BY_D.replace("D)", "8)"))
    proc = run("prove", "eight.py", "--out-dir", "out", *GENEROUS, cwd=tmp_path)
    assert proc.returncode == ExitCode.UNDECIDED, proc.stdout + proc.stderr
    assert proc.stdout.startswith("me/by-d: proved for part of the range: for every m at d = 1, 2, 3; "
                                  "d = 4..8 not attempted (certificates ")
    proc = run("prove", "eight.py", "--json", "--out-dir", "out", *GENEROUS, cwd=tmp_path)
    (obj,) = json.loads(proc.stdout)
    assert obj["status"] == "proved-partly" and obj["covered"] == [{"d": 1}, {"d": 2}, {"d": 3}]
    result = bnproof.prove(tmp_path / "eight.py")
    assert result.status == "proved-partly" and not result.proved and result.exit_code == ExitCode.UNDECIDED
    assert result.covered == [{"d": 1}, {"d": 2}, {"d": 3}]
    assert "part of the range" in result._repr_latex_()


def test_proved_means_every_declared_size(tmp_path):
    write(tmp_path, "five.py", TRUE_D.replace("D)", "5)"))
    result = bnproof.prove(tmp_path / "five.py")
    assert result.status == "proved" and result.exit_code == ExitCode.OK
    assert result.covered == [{"d": d} for d in range(1, 6)]
    assert result.text == "proved for every m at d = 1, 2, 3, 4, 5"
    only_m = bnproof.prove("theorem-4.1/as-derived")
    assert only_m.proved and only_m.covered == [{}] and only_m.to_json()["covered"] == [{}]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """`fuzz --json --record` of a claim true at every d, declared for d in (1, 9), from the
    proofs folder: one run (a search and the proofs at d = 1, 2, 3) for the two tests below,
    the report it prints and the record that `list` then reads."""
    folder = tmp_path_factory.mktemp("recorded")
    proofs = folder / "proofs"
    (proofs / "me").mkdir(parents=True)
    write(proofs / "me", "claims.py", TRUE_D.replace("D)", "9)"))
    env = {"BNPROOF_CACHE_DIR": str(folder / ".cache"), "BNPROOF_PROOFS": str(proofs)}
    done = run_cli("fuzz", "me/true-d", "--no-jax", "--max-examples", "20", "--no-timings", "--json", "--record",
                   *GENEROUS, cwd=folder, env=env)
    return folder, env, done


def test_fuzz_reports_a_proof_for_part_of_the_range_as_such(recorded):
    folder, _, proc = recorded
    assert proc.returncode == ExitCode.OK, proc.stdout + proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == "survived"
    assert result["proof"]["status"] == "proved-partly"
    assert result["proof"]["covered"] == [{"d": 1}, {"d": 2}, {"d": 3}]
    assert result["notes"][0].startswith("proved for part of the range: for every m at d = 1, 2, 3; "
                                         "d = 4..9 not attempted")
    api = bnproof.fuzz(folder / "proofs" / "me" / "claims.py", jax=False, max_examples=20, time_budget=300)
    assert api.to_json()["proof"]["status"] == "proved-partly"


def test_list_shows_a_recorded_proof_for_part_of_the_range_as_such(recorded):
    folder, env, done = recorded
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    listed = run_cli("list", "--json", cwd=folder, env=env)
    (row,) = [r for r in json.loads(listed.stdout) if r["id"] == "me/true-d"]
    assert row["proof"]["status"] == "proved-partly" and row["proof"]["covered"] == [{"d": d} for d in (1, 2, 3)]
    assert "proved for part of the range" in row["verdict_text"]
    assert "proved for every m at d = 1, 2, 3 (" not in row["verdict_text"]


# ---------------------------------------------------------------- fuzz's "verified exactly"

def test_verified_exactly_names_both_bounds_and_what_it_leaves_out():
    from bnproof.claims import Claim, Var
    from bnproof.search.fuzz import Outcome

    claim = Claim(id="rt/sum", source="rt", statement="s", kind="identity",
                  variables=(Var("y", ("m",)),), sizes={"m": (2, 6)}, exact_sizes={"m": (2, 6)},
                  residual=lambda xp, y: xp.sum(y) - xp.sum(y))
    whole = [{"m": m} for m in range(2, 7)]
    # "m ≤ 6" read as m = 1 too: both bounds are written
    assert Outcome(claim, "verified-exactly", 0, 0.0, proof_grid=whole,
                   proved_sizes=whole).exact_note == "verified exactly for 2 ≤ m ≤ 6"
    part = whole[:2]
    assert Outcome(claim, "verified-exactly", 0, 0.0, proof_grid=part, proved_sizes=part).exact_note == (
        "verified exactly for 2 ≤ m ≤ 3 only, of 2 ≤ m ≤ 6 declared")
    assert Outcome(claim, "survived", 0, 0.0, proof_grid=whole, proved_sizes=part).exact_note == (
        "verified exactly only at m = 2, 3")
