"""Lines of rich markup printed as rich prints them, without importing rich
where the output is plain text.

The verify report is rich markup ("[bold]Verdict[/]: ...").  Piped or
redirected, rich prints it as plain text: the tags removed, nothing else
changed.  Importing rich for that costs more than the exact derivation, so
such lines are written here.  Anything rich would treat differently (a
terminal or forced colour, an unknown tag, an escape, an :emoji: code, a
control character) goes to rich itself.
"""

from __future__ import annotations

import builtins
import os
import re
import sys

# The tags the reports use; rich treats any other "[" + [a-z#/@] as a tag too.
KNOWN_TAGS = re.compile(r"\[(?:bold(?: red| green| yellow)?|/)\]")
OTHER_TAG = re.compile(r"\[[a-z#/@]")
EMOJI_CODE = re.compile(r":[^\s:]+:")
# a "[" with the backslashes before it, and whether rich could read a tag there
BRACKET = re.compile(r"(\\*)\[(?=([a-z#/@][^[]*?\])?)")


def escape(text: str) -> str:
    """Text (a file name, an instance's name) to put inside a line of markup, shown
    as written.  rich reads k backslashes before a tag as k // 2 backslashes, the
    tag escaped when k is odd; before any other "[" as k − 1 backslashes.
    rich.markup.escape guards tags only ("\\[x" would lose its backslash).  For
    text in the middle of a line (a trailing backslash escapes nothing after it)."""

    def guarded(m: re.Match) -> str:
        k = len(m[1])
        if m[2] is not None:
            return "\\" * (2 * k + 1) + "["
        return "\\" * (k + 1) + "[" if k else "["

    return BRACKET.sub(guarded, text)


def _plain_console(stream) -> bool:
    """Whether rich would print to `stream` without styles: not Jupyter, and not
    a terminal as rich.console.Console.is_terminal decides it."""
    env = os.environ
    if env.get("DATABRICKS_RUNTIME_VERSION") or hasattr(builtins, "get_ipython"):
        return False  # rich's Jupyter detection: let rich decide
    if env.get("TTY_COMPATIBLE") in ("0", "1"):
        return env["TTY_COMPATIBLE"] == "0"
    if env.get("FORCE_COLOR") is not None:
        return env["FORCE_COLOR"] == ""
    try:
        return not stream.isatty()
    except Exception:  # noqa: BLE001 - rich: a stream that cannot say is no terminal
        return True


def plain(line: str) -> str | None:
    """The text rich prints for a line of markup when not on a terminal, or None
    where this module cannot be sure of it."""
    if not line.isprintable() or "\\" in line or EMOJI_CODE.search(line):
        return None
    depth = 0
    for tag in KNOWN_TAGS.findall(line):
        depth += -1 if tag == "[/]" else 1
        if depth < 0:
            return None  # rich raises MarkupError: a [/] that closes nothing
    text = KNOWN_TAGS.sub("", line)
    return None if OTHER_TAG.search(text) else text


def print_lines(lines: list[str]) -> None:
    """Print lines of markup to stdout, as rich.console.Console(highlight=False,
    soft_wrap=True).print would."""
    texts = [plain(line) for line in lines] if _plain_console(sys.stdout) else [None]
    if None in texts:
        from rich.console import Console

        console = Console(highlight=False, soft_wrap=True)
        for line in lines:
            console.print(line)
        return
    for text in texts:
        sys.stdout.write(text + "\n")
    sys.stdout.flush()
