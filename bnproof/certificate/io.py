"""Canonical bytes, digests and atomic writes for certificate documents."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..atomic import write_text_atomic
from ..errors import BnproofError, ExitCode

FORMAT = "bnproof-certificate"
VERSION = 2


class CheckerRefused(BnproofError):
    """The independent checker rejects a certificate just built: it is not written."""

    exit_code = ExitCode.REJECTED


def canonical_bytes(document: dict) -> bytes:
    """Sorted keys, no whitespace, ASCII only: the same document, the same bytes."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def digest(document: dict) -> str:
    body = {k: v for k, v in document.items() if k != "digest"}
    return "sha256:" + hashlib.sha256(canonical_bytes(body)).hexdigest()


def seal(document: dict) -> dict:
    return {**document, "digest": digest(document)}


def checked(document: dict) -> dict:
    """The sealed document, once the independent checker accepts it; otherwise a
    one-line CheckerRefused naming the checker's reason (a limit, or a bug)."""
    from ..checker import Rejected, check_document

    try:
        check_document(document)
    except Rejected as exc:
        raise CheckerRefused(f"the checker rejects the certificate built for "
                             f"{document['claim']['id']}, so it is not written: {exc}") from None
    except RecursionError:
        raise CheckerRefused("the checker rejects the certificate built: nested too deeply") from None
    return document


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
