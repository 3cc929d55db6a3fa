"""The committed record of verdicts that `bnproof list` shows
(proofs/verdicts.json), updated by `bnproof fuzz --record`."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from ..certificate.io import write_atomic
from ..claims.api import proofs_root
from ..errors import BadInput


def path() -> Path:
    return proofs_root() / "verdicts.json"


def load(strict: bool = False) -> dict:
    """The recorded verdicts; {} if there are none.  `strict` (before
    recording): a file that exists but is not a JSON object is bad input,
    not an empty record to be overwritten."""
    try:
        text = path().read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as err:
        if strict:
            raise BadInput(f"cannot read {path()}: {err}") from None
        return {}
    try:
        entries = json.loads(text)
        if not isinstance(entries, dict):
            raise ValueError("not a JSON object")
    except ValueError as err:
        if strict:
            raise BadInput(f"{path()} is not a record of verdicts ({err}); fix or remove it "
                           "before recording") from None
        return {}
    return entries


def save(entries: dict) -> None:
    write_atomic(path(), dict(sorted(entries.items())))


@contextlib.contextmanager
def _locked():
    """An exclusive lock on the folder of verdicts.json (the file itself is
    replaced by each save, so a lock on it would not hold), where the
    platform has one: no lock file is left behind."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no POSIX locks: last writer wins
        yield
        return
    target = path()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target.parent, os.O_RDONLY)
    try:
        with contextlib.suppress(OSError):  # a folder that cannot be locked: last writer wins
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def update(claim_id: str, entry: dict) -> None:
    """Record one verdict, keeping every other entry as it is on disk now
    (another run may have recorded its own since this one started)."""
    with _locked():
        entries = load(strict=True)
        entries[claim_id] = entry
        save(entries)
