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


class BnproofError(Exception):
    """An error with a one-line message and an exit code."""

    exit_code = ExitCode.INTERNAL


class BadInput(BnproofError):
    exit_code = ExitCode.BAD_INPUT


class DegenerateInstance(BnproofError):
    exit_code = ExitCode.DEGENERATE


class Disagreement(BnproofError):
    exit_code = ExitCode.DISAGREEMENT
