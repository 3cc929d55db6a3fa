"""The tamper and hostile-input campaign against every committed certificate, the suite's
share of it: the first mutant of every kind and every mutant of the kinds that found
checker bugs (tamper.sample) out of the 1000 (120 for a proof) that
bench/tamper_campaign.py runs in full and counts.  No mutant crashes the checker or makes
it run anything; every mutant it accepts is still a correct certificate by an oracle
written with SymPy alone (tests/tamper.py); every other is rejected with a one-line reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tamper

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATES = sorted((ROOT / "certificates").rglob("*.json"))
IDS = [str(p.relative_to(ROOT / "certificates")) for p in CERTIFICATES]
# the full campaign's length, of which the suite checks tamper.sample's share: the same
# mutants, by number, as `bench/tamper_campaign.py` makes
COUNT = 1000
# a proof's oracle interprets its program with SymPy at m = 2, 3 (tests/proof_oracle.py): slower
PROOF_COUNT = 120


def _count(path: Path) -> int:
    return PROOF_COUNT if path.name.endswith(".proof.json") else COUNT


def test_proofs_are_in_the_campaign():
    assert sum(p.name.endswith(".proof.json") for p in CERTIFICATES) >= 9


@pytest.mark.parametrize("path", CERTIFICATES, ids=IDS)
def test_campaign_finds_no_wrong_acceptance_and_no_crash(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where an injected command would leave its file
    count = _count(path)
    tally = tamper.campaign(path, count, seed=0, workdir=tmp_path, only=tamper.sample)
    picked = sum(tamper.sample(n, tamper.kind_of(n)) for n in range(count))
    assert tally.mutants == picked
    assert tally.crashes == []
    assert tally.wrongly_accepted == []
    assert tally.rejected + tally.accepted_correct == picked
    assert not (tmp_path / "pwned").exists() and not (ROOT / "pwned").exists()
    # not vacuous: every kind of mutation was tried, the bug-finding ones all through the
    # full campaign's length, and most mutants are rejected
    assert len(tally.kinds) == tamper.CYCLE == 2 * len(tamper.STRUCTURAL) + len(tamper.BYTES)
    for kind in tamper.BUG_FINDERS:
        assert tally.kinds[kind] == len(range(tamper.CYCLE_INDEX[kind], count, tamper.CYCLE)), kind
    assert tally.rejected > 0.8 * picked
    # a mutant whose digest was not recomputed never passes, nor does a wrong digest
    unsealed = [k for k in tally.kinds if "+" not in k and not k.startswith("bytes:")]
    for kind in unsealed + ["bytes:digest", "bytes:truncate", "bytes:nested"]:
        assert tally.by_kind[kind] == tally.kinds[kind], kind
    assert all("digest" in reason for reason in tally.reasons["bytes:digest"])


def test_oracle_agrees_with_every_committed_certificate():
    for path in CERTIFICATES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("kind") == "proof":
            assert tamper.proof_holds(doc), path
        else:
            assert tamper.true_verdict(doc) == doc["verdict"], path


def test_the_proof_oracle_sees_a_false_program():
    """Not vacuous: one constant changed in Theorem 4.1's proved identity is false at a point."""
    doc = json.loads((ROOT / "certificates/santurkar2018/theorem-4.1/as-derived.proof.json").read_text())
    const = next(step for step in doc["program"]["steps"] if step[0] == "const" and step[1] == "1")
    const[1] = "3"
    assert not tamper.proof_holds(doc)


@pytest.mark.parametrize("name, change, verdict", [
    # z = (0, 2): mu = sigma = 1, so the printed beta = mu/sigma recovers z
    ("dannemann2025/remark-2.7.json", {"z": ["0", "2"]}, "holds"),
    ("dannemann2025/remark-2.7.json", {"z": ["1", "5"]}, "refuted"),
    # Example 3.2 with W0 = (3, 5) on the BN ray (3 w1 = 5 w2 reads (5, 3) direction):
    # W0 = (5, 3) is a BN optimum itself, lhs = 0 <= rhs
    ("lemma-4.5.json", {"W0": [["5", "3"]]}, "holds"),
    ("lemma-4.5.json", {"W0": [["-1", "-3"]]}, "hypothesis-not-met"),
])
def test_oracle_can_say_holds(name, change, verdict):
    doc = json.loads((ROOT / "certificates" / name).read_text(encoding="utf-8"))
    doc["instance"].update(change)
    assert tamper.true_verdict(doc) == verdict


def test_hostile_files_on_the_command_line(tmp_path):
    """The standalone checker on 60 mutants at once: one line each, exit code 6,
    nothing run."""
    files = []
    for i, (kind, data) in enumerate(tamper.mutants(CERTIFICATES[0].read_bytes(), 60, seed=7)):
        files.append(tmp_path / f"m{i:02d}.json")
        files[-1].write_bytes(data)
    proc = subprocess.run([sys.executable, "-m", "bnproof.checker", *map(str, files)], cwd=tmp_path,
                          capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 6 and proc.stderr == ""
    assert len(lines) == 60 and all(line.startswith(("ACCEPTED ", "REJECTED ")) for line in lines)
    assert not (tmp_path / "pwned").exists()


def test_mutants_are_reproducible():
    data = CERTIFICATES[0].read_bytes()
    assert list(tamper.mutants(data, 50, seed=3)) == list(tamper.mutants(data, 50, seed=3))
    assert list(tamper.mutants(data, 50, seed=3)) != list(tamper.mutants(data, 50, seed=4))
