"""Red-team findings against the certificate checker, each a forged certificate sealed
with a valid digest (docs/certificates.md, trust model)."""

import json
from pathlib import Path

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.checker.papers import paper_claim
from bnproof.checker.parse import sha256_of

ROOT = Path(__file__).resolve().parent.parent


def sealed(doc: dict, **changes) -> dict:
    doc = {**{k: v for k, v in doc.items() if k != "digest"}, **changes}
    return {**doc, "digest": sha256_of(doc)}


# Names a person reads as Theorem 4.1 that the checker took for a user's claim, so a
# program of the forger's choosing "refuted" the paper's theorem under them.
SPELLINGS = ["theorem%2D4.1", "theorem%252d4%2e1", "theorem&#45;4.1", "theorem&#x2D;4.1",
             "thm-4.1", "Th.4.1", "the0rem-4.l", "theorem-04.01", "theorem%EF%BC%8D4.1"]


@pytest.mark.parametrize("name", SPELLINGS)
def test_escaped_abbreviated_or_look_alike_paper_names_are_reserved(name):
    assert paper_claim(name) == "santurkar2018/theorem-4.1"
    doc = json.loads((ROOT / "certificates/santurkar2018/theorem-4.1.json").read_text())
    forged = sealed(doc, claim={**doc["claim"], "id": name})
    with pytest.raises(Rejected, match="reads as the name of a claim of the papers"):
        check_document(forged)


def test_other_names_stay_users_claims():
    for name in ("me/theorem-4.1", "theorem-4.10", "me/bn-output-bounded", "toy", "test/roots"):
        assert paper_claim(name) is None, name
    assert paper_claim("santurkar2018%2Fanything") == ""
