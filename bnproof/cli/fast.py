"""`bnproof check` and `bnproof verify` without typer.

Importing typer (and the pydantic it now coerces arguments with) takes longer
than checking a certificate or deriving Lemma 4.5 exactly.  For these two
commands a plain command line (the command, its arguments, and its own
options spelled out in full) is read here, as click would read it, and the
command runs directly.  Anything else (--help, an unknown or repeated option,
an empty or missing value, a value that looks like an option, a path typer
would refuse) returns None, and typer reads the command line, with its own
messages and exit codes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

# command: (options taking a value, flags (name -> (dest, value)), the least and most arguments)
VALUED = {"verify": {"--data": "data", "--out": "out"}, "check": {"--claim": "claim"}}
FLAGS = {
    "verify": {"--json": ("as_json", True), "--crosscheck": ("crosscheck", True),
               "--no-crosscheck": ("crosscheck", False)},
    "check": {"--json": ("as_json", True), "--show-program": ("show_program", True)},
}
ARGUMENTS = {"verify": (1, 1), "check": (1, None)}


def parse(args: list[str]) -> tuple[str, list[str], dict] | None:
    """(command, arguments, options) for a plain command line of check or verify, else None."""
    if not args or args[0] not in VALUED:
        return None
    name, valued, flags = args[0], VALUED[args[0]], FLAGS[args[0]]
    positional, options, seen = [], {}, set()
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--":
            positional += list(rest)
            break
        if not arg.startswith("-"):
            positional.append(arg)
            continue
        key, eq, value = arg.partition("=")
        if key in seen:
            return None  # click takes the last; rare enough to leave to it
        seen.add(key)
        if key in valued:
            if not eq:
                value = next(rest, None)
            if not value or value.startswith("-"):
                return None
            if not _typer_accepts_path(value):
                return None
            options[valued[key]] = Path(value)
        elif key in flags and not eq:
            dest, flag = flags[key]
            if dest in options:  # --crosscheck with --no-crosscheck
                return None
            options[dest] = flag
        else:
            return None
    least, most = ARGUMENTS[name]
    if len(positional) < least or (most is not None and len(positional) > most) or "" in positional:
        return None
    if name == "check" and not all(_typer_accepts_path(p) for p in positional):
        return None
    return name, positional, options


def _typer_accepts_path(value: str) -> bool:
    """Whether typer's Path parameter takes `value` without a word: it refuses an
    existing path that os.access says is unreadable (exit 2, its own message)."""
    try:
        os.stat(value)
    except OSError:
        return True  # a missing path is the command's to report
    except ValueError:
        return False  # an embedded NUL: whatever typer says, it says it
    return os.access(value, os.R_OK)


def fast_command(args: list[str]) -> Callable[[], None] | None:
    """A function that runs the command and exits, or None: typer must read `args`."""
    parsed = parse(args)
    if parsed is None:
        return None
    name, positional, options = parsed
    from .guard import guarded

    as_json = options.get("as_json", False)
    if name == "verify":
        from .run_verify import run

        return lambda: guarded(lambda: run(positional[0], options.get("data"), as_json, options.get("out"),
                                           options.get("crosscheck", True)), as_json)
    from .run_check import run

    return lambda: guarded(lambda: run([Path(p) for p in positional], options.get("claim"),
                                       options.get("show_program", False), as_json), as_json)
