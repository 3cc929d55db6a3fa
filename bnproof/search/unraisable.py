"""A claim's own __del__ errors, kept off stderr while bnproof runs claims.

Python reports an exception raised in a finalizer (__del__, a weakref callback) with
"Exception ignored in … Traceback" on stderr, at whatever moment the object is
collected: in the middle of a verdict's output, where a command prints one line per
error and never a traceback.  Nothing can catch such an exception, so it changes no
verdict; it is the claim's noise, printed as if it were bnproof's.  So while a
command runs, finalizer errors raised in the claim's code (any file outside bnproof
and outside Python's and the installed libraries' folders) are dropped; bnproof's
own, and a library's, still reach the hook that was there before (they may be bugs).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import sysconfig

_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) + os.sep


def _library_folders() -> tuple[str, ...]:
    names = ("stdlib", "platstdlib", "purelib", "platlib")
    folders = {os.path.realpath(p) for p in (sysconfig.get_paths().get(n) for n in names) if p}
    return tuple(sorted(f + os.sep for f in folders)) + (_PACKAGE,)


def from_claim_code(unraisable) -> bool:
    """Was it raised in a file that is neither bnproof's nor a library's (a claim file,
    a helper module beside it)?"""
    tb = getattr(unraisable, "exc_traceback", None)
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    name = tb.tb_frame.f_code.co_filename
    if not os.path.isabs(name):  # "<string>", "<frozen …>": not a file the claim is in
        return False
    return not os.path.realpath(name).startswith(_library_folders())


def quiet(previous):
    """A hook that drops finalizer errors of claim code and passes the others to `previous`."""

    def hook(unraisable) -> None:
        if not from_claim_code(unraisable):
            previous(unraisable)

    return hook


@contextlib.contextmanager
def claims_finalizers_quiet():
    """For the duration: finalizer errors of claim code are dropped, others go to the
    hook in place before.  What the run left in reference cycles is collected before
    the hook is restored, so that its finalizers run while it is in place."""
    previous = sys.unraisablehook
    sys.unraisablehook = quiet(previous)
    try:
        yield
    finally:
        gc.collect()
        sys.unraisablehook = previous
