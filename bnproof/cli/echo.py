"""Printing a line as click.echo does, without importing click (typer's copy of it).

The commands that run without typer (cli/fast.py) must print exactly what they
print under typer: click.echo flushes every line, removes ANSI escape codes
when the stream is not a terminal, and writes UTF-8 to a stream whose
encoding is ASCII (a misconfigured locale) rather than fail.
"""

from __future__ import annotations

import codecs
import re
import sys

ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")  # click's _compat._ansi_re


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except Exception:  # noqa: BLE001 - as click: a stream that cannot say is no terminal
        return False


def _ascii(stream) -> bool:
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name == "ascii"
    except LookupError:
        return False


def echo(text: str = "", err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    text = f"{text}\n"
    if not _isatty(stream):
        text = ANSI.sub("", text)
    binary = getattr(stream, "buffer", None)
    if binary is not None and _ascii(stream):
        stream.flush()
        binary.write(text.encode("utf-8", "replace"))
        binary.flush()
        return
    stream.write(text)
    stream.flush()
