"""docs/certificate.schema.json describes both kinds of certificate: every
committed certificate is valid, and invalid documents fail both the schema and
the checker."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from bnproof.checker import Rejected, check_document

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "docs" / "certificate.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
CERTIFICATES = sorted((ROOT / "certificates").rglob("*.json"))


def load(name: str) -> dict:
    return json.loads((ROOT / "certificates" / name).read_text(encoding="utf-8"))


def seal(doc: dict) -> dict:
    body = {k: v for k, v in doc.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return {**body, "digest": "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()}


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "certificate.schema.json" in (ROOT / "docs" / "certificates.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", CERTIFICATES, ids=[str(p.relative_to(ROOT)) for p in CERTIFICATES])
def test_every_committed_certificate_is_valid(path):
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert list(VALIDATOR.iter_errors(doc)) == []


def test_both_kinds_are_committed():
    kinds = {"program" in json.loads(p.read_text(encoding="utf-8")) for p in CERTIFICATES}
    assert kinds == {True, False}


def _at(path, value):
    def mutate(doc):
        for key in path[:-1]:
            doc = doc[key]
        doc[path[-1]] = value
    return mutate


LEMMA, PROGRAM = "lemma-4.5.json", "santurkar2018/theorem-4.1.json"
INVALID = {
    "lemma-decimal": (LEMMA, _at(("instance", "X", 0, 0), "1.5")),
    "lemma-plus": (LEMMA, _at(("instance", "gamma", 0), "+1")),
    "lemma-minus-zero": (LEMMA, _at(("witnesses", "neurons", 0, "W_star", 0), "-0")),
    "lemma-witness-too-long": (LEMMA, _at(("witnesses", "neurons", 0, "W_star", 0), "7" * 4001)),
    "lemma-fraction-in-kernel": (LEMMA, _at(("witnesses", "kernel"), [["1/2", "1"]])),
    "lemma-no-kernel": (LEMMA, lambda doc: doc["witnesses"].pop("kernel")),
    "lemma-old-witness": (LEMMA, _at(("witnesses", "neurons", 0, "lhs"), "72/17")),
    "lemma-trailing-newline": (LEMMA, _at(("instance", "X", 0, 0), "1\n")),
    "lemma-number-not-string": (LEMMA, _at(("instance", "X", 0, 0), 1)),
    "lemma-extra-key": (LEMMA, _at(("witnesses", "neurons", 0, "note"), "trust me")),
    "lemma-missing-key": (LEMMA, lambda doc: doc["instance"].pop("beta")),
    "lemma-other-claim": (LEMMA, _at(("claim", "id"), "lemma-4.6")),
    "lemma-constant-with-direction": (LEMMA, _at(("witnesses", "neurons", 0, "bn_optimum", "kind"), "constant")),
    "lemma-loss": (LEMMA, _at(("instance", "loss"), "max")),
    "lemma-m-is-1": (LEMMA, _at(("instance", "X"), [["1", "1"]])),
    "version-1": (LEMMA, _at(("version",), 1)),
    "version-true": (PROGRAM, _at(("version",), True)),
    "version-string": (PROGRAM, _at(("version",), "2")),
    "no-digest": (PROGRAM, lambda doc: doc.pop("digest")),
    "digest-uppercase": (PROGRAM, lambda doc: doc.update(digest=doc["digest"].upper())),
    "program-unknown-op": (PROGRAM, _at(("program", "steps", 5), ["cosh", 0])),
    "program-hostile-op": (PROGRAM, _at(("program", "steps", 5), ["__import__('os').system('x')", 0])),
    "program-bool-operand": (PROGRAM, _at(("program", "steps", 5), ["neg", True])),
    "program-pow-65": (PROGRAM, _at(("program", "steps", 5), ["pow", 0, 65])),
    "program-const-two-args": (PROGRAM, _at(("program", "steps", 0), ["const", "1", "2"])),
    "program-verdict": (PROGRAM, _at(("verdict",), "holds")),
    "program-kind": (PROGRAM, _at(("claim", "kind"), "equation")),
    "program-id-with-space": (PROGRAM, _at(("claim", "id"), "two words")),
    "program-variable-name": (PROGRAM, lambda doc: doc["instance"].update({"1x": "0"})),
    "program-sign": (PROGRAM, _at(("obligations", 0, "sign"), "maybe")),
    "program-witnesses-too": (PROGRAM, _at(("witnesses",), {"neurons": []})),
    "program-no-sizes": (PROGRAM, lambda doc: doc.pop("sizes")),
    "program-size-zero": (PROGRAM, _at(("sizes", "m"), 0)),
    "program-no-variables": (PROGRAM, lambda doc: doc["claim"].pop("variables")),
    "program-domain": (PROGRAM, _at(("claim", "variables", 0, "domain"), "integer")),
    "program-shape": (PROGRAM, _at(("claim", "variables", 0, "shape"), ["m", 0])),
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_documents_fail_the_schema_and_the_checker(name):
    base, mutate = INVALID[name]
    doc = copy.deepcopy(load(base))
    mutate(doc)
    assert list(VALIDATOR.iter_errors(doc)), f"{name}: the schema accepted it"
    if "digest" in doc and name != "digest-uppercase":
        doc = seal(doc)
    with pytest.raises(Rejected):
        check_document(doc)
