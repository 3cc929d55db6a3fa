"""Whose mistake an error raised while tracing a claim is: the claim's own (its
file, a helper module beside it, or the functions it was given), then a
ClaimError with the claim's file:line, or perhaps bnproof's.

It lives in claims/, not in errors.py, because it knows the claim language's
files and the helper modules beside a claim file; errors.py, at the ground
floor, knows no claim."""

from __future__ import annotations

import os

from ..errors import BadInput, BnproofError, ClaimError
from .helper_modules import helper_files

# Where the claim language refuses what it cannot trace (a float constant, a truth
# value): an error raised here on the claim's behalf is the claim's mistake.
_LANGUAGE = ("program/trace.py", "claims/xp.py", "claims/object_xp.py", "claims/blocks.py",
             "claims/law.py", "claims/moments.py", "claims/sets.py")
_COMPARISON_HINT = ("no Python if, comparison or bool() on a traced value: use xp.maximum, "
                    "xp.minimum or xp.abs")


def claim_error(err: BaseException, claim) -> ClaimError | None:
    """`err`, raised while tracing `claim`, as the claim's own mistake with its
    file:line, or None when nothing shows that the claim's code is to blame (then
    it stays what it was: perhaps bnproof's bug).  To blame: an error raised in
    the claim's code; a TypeError or ValueError (or BadInput) that the claim
    language raised when the claim's code called it; a call of one of the claim's
    functions that fails on its signature."""
    if isinstance(err, BnproofError) and not isinstance(err, BadInput):
        return None  # degenerate, disagreement, internal: not the claim's mistake
    functions = _functions(claim)
    own = _own_files(claim, functions)
    frames = _frames(err.__traceback__)
    blamed = [f for f in frames if _canonical(f[0]) in own]
    what = f"{type(err).__name__}: {err}"
    if isinstance(err, TypeError) and "'Node'" in str(err):
        what += f" ({_COMPARISON_HINT})"
    if blamed:
        innermost = frames[-1]
        in_language = any(_canonical(innermost[0]).endswith(tail) for tail in _LANGUAGE)
        if innermost in blamed or (in_language and isinstance(err, (TypeError, ValueError, BadInput))):
            file, line = blamed[-1]
            return ClaimError(f"{as_typed(file, claim)}:{line}: claim {claim.id} cannot be traced: {what}")
        return None
    for fn in functions:  # "res() got an unexpected keyword argument 'a'": raised at the call
        code = getattr(fn, "__code__", None)
        if isinstance(err, TypeError) and code and str(err).startswith(f"{fn.__qualname__}() "):
            where = f"{as_typed(code.co_filename, claim)}:{code.co_firstlineno}"
            return ClaimError(f"{where}: claim {claim.id} cannot be traced: {what} (the functions of a "
                              "claim take xp and its variables by name)")
    return None


def as_typed(file: str, claim) -> str:
    """`file` as the user named it: Python names a loaded file by its absolute path, the
    user typed the claim file's (and a loading error shows that one): the same file,
    or a helper module beside it, is shown from the path as typed."""
    typed = getattr(claim, "path", None)
    if not typed:
        return file
    here = _canonical(os.path.abspath(file))
    if here == _canonical(os.path.abspath(typed)):
        return typed
    if os.path.dirname(here) == os.path.dirname(_canonical(os.path.abspath(typed))):
        return os.path.join(os.path.dirname(typed), os.path.basename(here))
    return file


def _functions(claim) -> list:
    fns = [claim.residual, *getattr(claim, "hypotheses", ()), *getattr(claim, "equalities", ())]
    return [f for f in fns if callable(f)]


def _own_files(claim, functions) -> set[str]:
    # bnproof's own code (this file is in bnproof/claims/) is never the claim's
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) + os.sep
    files = {_canonical(f.__code__.co_filename) for f in functions if hasattr(f, "__code__")}
    files = {f for f in files if not f.startswith(package)}
    path = getattr(claim, "path", None)
    if path:
        files |= {_canonical(p) for p in (path, *(helper_files(path) or ()))}
    return files


def _frames(tb) -> list[tuple[str, int]]:
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def _canonical(name: str) -> str:
    return os.path.realpath(name) if os.path.isabs(name) else name
