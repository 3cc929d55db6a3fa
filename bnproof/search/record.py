"""The committed record of verdicts that `bnproof list` shows
(proofs/verdicts.json), updated by `bnproof fuzz --record`."""

from __future__ import annotations

import json
from pathlib import Path

from ..certificate.io import write_atomic
from ..claims.api import proofs_root


def path() -> Path:
    return proofs_root() / "verdicts.json"


def load() -> dict:
    try:
        return json.loads(path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def save(entries: dict) -> None:
    write_atomic(path(), dict(sorted(entries.items())))
