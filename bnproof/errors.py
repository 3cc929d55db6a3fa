"""Errors a user can cause or meet, each with its own exit code.

The command line prints ``error: <message>`` on one line and exits with the
code; no traceback.  Codes 0, 1, 5, 9 and 10 are verdicts, 130 an
interruption, the rest are failures.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0  # the claim holds on the instance / every certificate accepted
    REFUTED = 1  # the claim is false on the instance, confirmed exactly
    USAGE = 2  # bad command line (unknown option, missing argument)
    BAD_INPUT = 3  # unreadable, malformed, non-numeric, NaN/inf, ragged or wrong-shaped input
    DEGENERATE = 4  # the instance is outside the mathematics: σ = 0, singular least squares
    HYPOTHESIS_NOT_MET = 5  # the claim's hypothesis fails on the instance, so it says nothing
    REJECTED = 6  # a certificate failed the independent check
    DISAGREEMENT = 7  # the exact and numeric layers disagree: a bug, never ignored
    INTERNAL = 8  # any other internal error
    VACUOUS = 9  # fuzz: no instance searched met the claim's hypotheses, so nothing was tested
    UNDECIDED = 10  # fuzz: no verdict could be established (the reason is printed)
    INTERRUPTED = 130  # stopped by Ctrl-C (SIGINT); what was already found is kept


EXIT_CODE_HELP = "\n".join(
    f"{code.value}  {text}"
    for code, text in [
        (ExitCode.OK, "the claim holds on the instance (check: all certificates accepted)"),
        (ExitCode.REFUTED, "the claim is refuted on the instance, confirmed exactly"),
        (ExitCode.USAGE, "bad command line"),
        (ExitCode.BAD_INPUT, "bad input: missing, malformed, non-numeric, NaN/inf or ragged data"),
        (ExitCode.DEGENERATE, "degenerate instance: σ = 0 in a BN unit, or singular least squares"),
        (ExitCode.HYPOTHESIS_NOT_MET, "the claim's hypothesis is not met (e.g. ⟨W0, W*⟩ ≤ 0)"),
        (ExitCode.REJECTED, "a certificate was rejected by the checker (or not confirmed by export --solve)"),
        (ExitCode.DISAGREEMENT, "internal disagreement between the exact and numeric layers"),
        (ExitCode.INTERNAL, "internal error"),
        (ExitCode.VACUOUS, "fuzz: vacuous, no instance searched met the claim's hypotheses"),
        (ExitCode.UNDECIDED, "fuzz: undecided, e.g. an exact violation the checker cannot certify"),
        (ExitCode.INTERRUPTED, "interrupted (Ctrl-C); certificates and records already written are kept"),
    ]
)


# The codes each command can return: its --help lists these and no others.  2 (a
# bad command line), 8 (a bug) and 130 (Ctrl-C) can end any command.
COMMAND_EXIT_CODES = {
    "verify": (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 130),
    "fuzz": (0, 1, 2, 3, 7, 8, 9, 10, 130),
    "prove": (0, 2, 3, 8, 10, 130),
    "list": (0, 2, 3, 8, 130),
    "check": (0, 2, 3, 6, 8, 130),
    "latex": (0, 2, 3, 4, 6, 8, 130),
    "plot": (0, 2, 3, 4, 8, 130),
    "export": (0, 2, 3, 6, 8, 130),
    "scan": (0, 1, 2, 3, 4, 8, 130),
    "study": (0, 1, 2, 3, 8, 130),
}
# Where a code means something narrower for one command than the table's words.
_COMMAND_MEANINGS = {
    ("verify", 0): "the claim holds on the instance",
    ("verify", 10): "undecided: the exact engine could not decide the instance (the reason is printed)",
    ("fuzz", 0): "no counterexample found (survived), or verified exactly",
    ("fuzz", 1): "refuted: a counterexample, confirmed exactly and certified",
    ("prove", 0): "proved for every m (each proof certificate accepted by the independent checker)",
    ("prove", 10): "not proved, or not in the provable fragment (the reason is printed)",
    ("verify", 6): "the certificate was rejected by the independent checker (a bug, never ignored)",
    ("latex", 6): "the certificate was rejected by the independent checker",
    ("check", 0): "every certificate accepted",
    ("check", 3): "a file is missing, unreadable, empty or binary: no certificate to check",
    ("check", 6): "a certificate was rejected by the checker",
    ("latex", 0): "the document was written",
    ("plot", 0): "the figure was written",
    ("export", 0): "the SMT-LIB file was written (and, with --solve, the solver answered unsat)",
    ("export", 6): "the certificate was rejected, or the solver did not answer unsat",
    ("scan", 0): "the Lemma does not fail on any layer (numerically)",
    ("scan", 1): "the Lemma fails on some layer (numerically: evidence, not an exact refutation)",
    ("study", 0): "no failure of Lemma 4.5 was confirmed",
    ("study", 1): "a failure of Lemma 4.5 was confirmed exactly",
    ("list", 0): "the claims were listed",
}


def command_exit_codes(command: str) -> list[tuple[int, str]]:
    """(code, meaning) for each code this command can return."""
    general = {int(line.split("  ", 1)[0]): line.split("  ", 1)[1] for line in EXIT_CODE_HELP.splitlines()}
    return [(code, _COMMAND_MEANINGS.get((command, code), general[code].removeprefix("fuzz: ")))
            for code in COMMAND_EXIT_CODES[command]]


def command_epilog(command: str) -> str:
    """The exit codes of one command, for its --help (blank lines keep rich's line breaks)."""
    return "Exit codes:\n\n" + "\n\n".join(f"{code}  {text}" for code, text in command_exit_codes(command))


class BnproofError(Exception):
    """An error with a one-line message and an exit code."""

    exit_code = ExitCode.INTERNAL


class BadInput(BnproofError):
    exit_code = ExitCode.BAD_INPUT


class DegenerateInstance(BnproofError):
    exit_code = ExitCode.DEGENERATE


class Disagreement(BnproofError):
    exit_code = ExitCode.DISAGREEMENT


class ClaimError(BadInput):
    """A mistake in a claim's own code (its file, a helper module beside it, or the
    functions it was given): the user's to fix, so bad input, with file:line."""


# Where the claim language refuses what it cannot trace (a float constant, a truth
# value): an error raised here on the claim's behalf is the claim's mistake.
_LANGUAGE = ("program/trace.py", "claims/xp.py", "claims/blocks.py", "claims/law.py",
             "claims/moments.py", "claims/sets.py")
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
            return ClaimError(f"{file}:{line}: claim {claim.id} cannot be traced: {what}")
        return None
    for fn in functions:  # "res() got an unexpected keyword argument 'a'": raised at the call
        code = getattr(fn, "__code__", None)
        if isinstance(err, TypeError) and code and str(err).startswith(f"{fn.__qualname__}() "):
            return ClaimError(f"{code.co_filename}:{code.co_firstlineno}: claim {claim.id} cannot be "
                              f"traced: {what} (the functions of a claim take xp and its variables by "
                              "name)")
    return None


def _functions(claim) -> list:
    fns = [claim.residual, *getattr(claim, "hypotheses", ()), *getattr(claim, "equalities", ())]
    return [f for f in fns if callable(f)]


def _own_files(claim, functions) -> set[str]:
    import os

    package = os.path.dirname(os.path.realpath(__file__)) + os.sep  # bnproof's own code is never the claim's
    files = {_canonical(f.__code__.co_filename) for f in functions if hasattr(f, "__code__")}
    files = {f for f in files if not f.startswith(package)}
    path = getattr(claim, "path", None)
    if path:
        from .claims.helper_modules import helper_files

        files |= {_canonical(p) for p in (path, *(helper_files(path) or ()))}
    return files


def _frames(tb) -> list[tuple[str, int]]:
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return frames


def _canonical(name: str) -> str:
    import os

    return os.path.realpath(name) if os.path.isabs(name) else name
