"""Canonical bytes, digests and atomic writes for certificate documents."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..atomic import write_text_atomic

FORMAT = "bnproof-certificate"
VERSION = 1


def canonical_bytes(document: dict) -> bytes:
    """Sorted keys, no whitespace, ASCII only: the same document, the same bytes."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def digest(document: dict) -> str:
    body = {k: v for k, v in document.items() if k != "digest"}
    return "sha256:" + hashlib.sha256(canonical_bytes(body)).hexdigest()


def seal(document: dict) -> dict:
    return {**document, "digest": digest(document)}


def pretty(value, indent: str = "") -> str:
    """Indented JSON with each list of numbers on one line, so a 1000-row X
    stays a 1000-line file."""
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {pretty(value[k], inner)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        items = [inner + pretty(v, inner) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=True, separators=(", ", ": "))


def write_atomic(path: str | Path, document: dict) -> Path:
    """A document as pretty JSON, atomically."""
    return write_text_atomic(path, pretty(document) + "\n")
