"""Input files are regular files: refused otherwise before a byte is read.

Opening a FIFO for reading waits for a writer, for ever if none comes, and a
device can stream without end; the checker already refuses both
(checker/parse.py).  Every command that reads a file the user names (a
certificate, --data) refuses them the same way, as bad input, before opening.
"""

from __future__ import annotations

import os
import stat

from ..errors import BadInput


def special(path) -> bool:
    """Whether `path` names something that is neither a regular file nor a folder
    (a FIFO, a socket, a device).  os.stat never opens it, so it never waits; a
    missing path or a folder is left to the reader, which names them in its words."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def refuse_special(path, what: str = "") -> None:
    """BadInput (exit 3), one line, for a FIFO, socket or device."""
    if special(path):
        shown = str(path) if str(path).isprintable() else ascii(str(path))
        raise BadInput(f"cannot read {what}{shown}: not a regular file")
