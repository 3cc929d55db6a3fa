"""Every committed certificate passes the independent checker (CI re-checks them all),
is in the current format, and each program certificate is bound to its claim file:
claim text, kind, declared variables and program are exactly the claim file's."""

import json
from pathlib import Path

import pytest

from bnproof.checker import check_file
from bnproof.checker.parse import VERSION

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATES = sorted((ROOT / "certificates").rglob("*.json"))
IDS = [str(p.relative_to(ROOT)) for p in CERTIFICATES]


def test_there_are_certificates():
    assert len(CERTIFICATES) >= 8


@pytest.mark.parametrize("path", CERTIFICATES, ids=IDS)
def test_committed_certificate_is_accepted(path):
    accepted, line = check_file(path)
    assert accepted, line
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == VERSION


@pytest.mark.parametrize("path", [p for p in CERTIFICATES if "program" in p.read_text(encoding="utf-8")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_program_certificate_is_its_claim_file_s(path):
    from bnproof.claims.api import all_claims, load_file
    from bnproof.cli.check import difference

    doc = json.loads(path.read_text(encoding="utf-8"))
    claim = next(c for c in all_claims() if c.id == doc["claim"]["id"])
    if doc.get("kind") == "proof":  # a proof for every m: its program is the symbolic-length trace's
        from bnproof.cli.run_check import proof_difference

        assert proof_difference(claim, doc, str(path)) is None
        return
    claim_file = Path(claim.path)
    assert difference(load_file(claim_file), claim_file, doc) is None
