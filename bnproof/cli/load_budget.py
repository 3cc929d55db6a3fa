"""A claim file's top level is the user's code, and it runs in the command's own
process when `fuzz` or `prove` loads the file, before any worker whose budget is
enforced exists: a file that never finishes loading (a loop at its top level)
would hold the command past --time-budget forever.  So the load runs under a
watchdog that, once the budget and a grace are spent, ends the process with one
line (bad input, exit 3): nothing has been searched or written by then.

The watchdog is a thread, so it wakes within Python's switch interval of any
Python code, sleep or I/O; a C extension that holds the GIL without end holds it
too (as it holds Ctrl-C), which a claim's top level does not do by accident."""

from __future__ import annotations

import json
import os
import sys
import threading

from ..errors import ExitCode

GRACE = 10.0  # s beyond the budget: the interpreter's imports and the file's own (numpy, JAX) on a busy machine


def resolve_within(name: str, budget: float, as_json: bool) -> list:
    """claims.api.resolve(name), or the process ends with exit 3 once budget + GRACE is spent."""
    from ..claims.api import resolve

    done = threading.Event()
    limit = budget + GRACE

    def watch() -> None:
        if done.wait(limit):
            return
        message = (f"{name} did not finish loading within {limit:g} s (the time budget and a grace "
                   f"of {GRACE:g} s): does the claim file's top level run forever?")
        try:
            if as_json:
                sys.stdout.write(json.dumps({"error": message, "exit_code": int(ExitCode.BAD_INPUT)},
                                            indent=2, ensure_ascii=False) + "\n")
                sys.stdout.flush()
            sys.stderr.write(f"error: {message}\n")
            sys.stderr.flush()
        finally:
            os._exit(ExitCode.BAD_INPUT)  # the main thread is in the claim's code: it cannot be asked

    threading.Thread(target=watch, name="bnproof-load-budget", daemon=True).start()
    try:
        return resolve(name)
    finally:
        done.set()
