"""Every committed certificate passes the independent checker (CI re-checks them all)."""

from pathlib import Path

import pytest

from bnproof.checker import check_file

ROOT = Path(__file__).resolve().parents[1]
CERTIFICATES = sorted((ROOT / "certificates").rglob("*.json"))


def test_there_are_certificates():
    assert len(CERTIFICATES) >= 8


@pytest.mark.parametrize("path", CERTIFICATES, ids=[str(p.relative_to(ROOT)) for p in CERTIFICATES])
def test_committed_certificate_is_accepted(path):
    accepted, line = check_file(path)
    assert accepted, line
