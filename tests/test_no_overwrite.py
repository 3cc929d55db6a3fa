"""Committed results change only when asked (issue 13.3): `bnproof fuzz` writes
its certificates to --out-dir (./bnproof-out by default), never over the
committed certificates/; --record updates certificates/ and proofs/verdicts.json,
but a verdict recorded with another seed is replaced only with --overwrite.
Commands run in this process (tests/cli_runner.py), their fuzz workers in
real ones."""

import json
import shutil
from pathlib import Path

from bnproof.errors import ExitCode
from cli_runner import run_cli

HERE = Path(__file__).parent
ROOT = HERE.parent
TOY = (HERE / "claims" / "false_toy.py").read_text()
CLAIM = "toy/bounded-bn-output"
COMMITTED = "the committed certificate, found with seed 0\n"
# a budget the search and its shrinking end well within at any speed: the runs' certificates
# are compared byte for byte
SEARCH = ("--no-jax", "--max-examples", "30", "--time-budget", "300")


def run(*args, cwd: Path):
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(cwd / ".cache"),
                                        "BNPROOF_PROOFS": str(cwd / "proofs")})


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def checkout(tmp_path: Path) -> Path:
    """A checkout in miniature: a claim of proofs/, its committed certificate and its
    seed-0 record."""
    (tmp_path / "proofs" / "toy").mkdir(parents=True)
    (tmp_path / "proofs" / "toy" / "claims.py").write_text(TOY)
    (tmp_path / "proofs" / "verdicts.json").write_text(json.dumps(
        {CLAIM: {"verdict": "refuted", "instances": 1, "met_hypotheses": 1, "seed": 0,
                 "certificate": f"certificates/{CLAIM}.json"}}, indent=2) + "\n")
    (tmp_path / "certificates" / "toy").mkdir(parents=True)
    (tmp_path / "certificates" / f"{CLAIM}.json").write_text(COMMITTED)
    return tmp_path


def committed(folder: Path) -> dict:
    return {**snapshot(folder / "certificates"), **snapshot(folder / "proofs")}


def test_fuzz_in_a_checkout_writes_to_the_out_dir_not_over_the_committed_certificate(tmp_path):
    folder = checkout(tmp_path)
    before = committed(folder)
    proc = run("fuzz", CLAIM, *SEARCH, "--json", cwd=folder)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    assert committed(folder) == before  # it replaced certificates/toy/... with its own
    written = folder / "bnproof-out" / f"{CLAIM}.json"
    assert [r["certificate"] for r in json.loads(proc.stdout)] == [str(Path("bnproof-out") / f"{CLAIM}.json")]
    assert run("check", str(written), cwd=folder).returncode == ExitCode.OK

    proc = run("fuzz", CLAIM, *SEARCH, "--out-dir", "mine", cwd=folder)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    assert (folder / "mine" / f"{CLAIM}.json").read_bytes() == written.read_bytes()
    assert committed(folder) == before


def test_record_with_another_seed_keeps_the_recorded_verdict_unless_asked(tmp_path):
    folder = checkout(tmp_path)
    before = committed(folder)
    proc = run("fuzz", CLAIM, *SEARCH, "--record", "--seed", "7", cwd=folder)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stderr
    assert "recorded with seed 0" in proc.stderr and "--overwrite" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert committed(folder) == before  # refused before any search: nothing written anywhere
    assert not (folder / "bnproof-out").exists()

    proc = run("fuzz", CLAIM, *SEARCH, "--overwrite", cwd=folder)
    assert proc.returncode == ExitCode.BAD_INPUT and "with --record" in proc.stderr

    # asked: the record and the certificate beside it are replaced together
    proc = run("fuzz", CLAIM, *SEARCH, "--record", "--seed", "7", "--overwrite",
               cwd=folder)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    entry = json.loads((folder / "proofs" / "verdicts.json").read_text())[CLAIM]
    assert entry["seed"] == 7 and entry["verdict"] == "refuted"
    certificate = folder / "certificates" / f"{CLAIM}.json"
    assert certificate.read_text() != COMMITTED
    assert run("check", str(certificate), cwd=folder).returncode == ExitCode.OK
    assert not (folder / "bnproof-out").exists()

    # the same seed again is the update --record is for
    proc = run("fuzz", CLAIM, *SEARCH, "--record", "--seed", "7", cwd=folder)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr


def test_fuzz_of_a_paper_claim_in_a_copy_of_the_checkout_leaves_the_committed_results(tmp_path):
    for name in ("proofs", "certificates"):
        shutil.copytree(ROOT / name, tmp_path / name)
    before = committed(tmp_path)
    proc = run("fuzz", "theorem-4.1", "--no-jax", "--max-examples", "20", "--seed", "3", "--time-budget", "300",
               "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    assert committed(tmp_path) == before
    assert [r["certificate"] for r in json.loads(proc.stdout)] == ["bnproof-out/santurkar2018/theorem-4.1.json"]
    assert (tmp_path / "bnproof-out" / "santurkar2018" / "theorem-4.1.json").is_file()
