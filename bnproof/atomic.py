"""Files written whole or not at all: a temporary file beside the target, then a
rename, so an interrupted run never leaves half a certificate, document or figure."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    path = Path(path)
    if path.is_dir():  # also '' (the current directory): os.replace would fail after the work is done
        from .errors import BadInput
        raise BadInput(f"cannot write {str(path) or '.'}: it is a directory; name a file")
    if _is_special(path):  # `-o /dev/null`, a FIFO: renaming over it would replace the device itself
        with open(path, "wb") as fh:
            fh.write(data)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; a result file is the user's to share
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def _is_special(path: Path) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _umask() -> int:
    mask = os.umask(0)  # the only way to read it; set straight back
    os.umask(mask)
    return mask


def write_text_atomic(path: str | Path, text: str) -> Path:
    """ASCII text (every file bnproof writes is ASCII)."""
    return write_bytes_atomic(path, text.encode("ascii"))
