"""Errors a user can cause or meet, each with its own exit code.

The command line prints ``error: <message>`` on one line and exits with the
code; no traceback.  Codes 0, 1, 5, 9 and 10 are verdicts, 130 an
interruption, the rest are failures.  EXIT_CODE_TABLE below is the one place
where the codes, their meanings and the commands that return each are written.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Mapping


class ExitCode(enum.IntEnum):
    OK = 0  # the claim holds on the instance / every certificate accepted
    REFUTED = 1  # the claim is false on the instance, confirmed exactly
    USAGE = 2  # bad command line (unknown option, missing argument)
    BAD_INPUT = 3  # unreadable, malformed, non-numeric, NaN/inf, ragged or wrong-shaped input
    DEGENERATE = 4  # the instance is outside the mathematics: σ = 0, singular least squares
    HYPOTHESIS_NOT_MET = 5  # the claim's hypothesis fails on the instance, so it says nothing
    REJECTED = 6  # a certificate failed the independent check
    DISAGREEMENT = 7  # the exact and numeric layers, or the tracer and the second reading, disagree: a bug
    INTERNAL = 8  # any other internal error
    VACUOUS = 9  # fuzz: no instance searched met the claim's hypotheses, so nothing was tested
    UNDECIDED = 10  # fuzz: no verdict could be established (the reason is printed)
    INTERRUPTED = 130  # stopped by Ctrl-C (SIGINT); what was already found is kept


# The commands, in the order `bnproof --help` lists them.
COMMANDS = ("verify", "fuzz", "prove", "report", "list", "check", "latex", "plot", "export", "scan", "study")
EVERY = "every command"  # 2 (a bad command line), 8 (a bug) and 130 (Ctrl-C) can end any command


@dataclass(frozen=True)
class ExitCodeRow:
    """One exit code: its meaning in general (the root --help, docs/cli.md and the
    README's table; `backticks` mark commands and options, dropped in the terminal),
    and the commands that can return it, each with a narrower meaning for that
    command or "" for the general words."""

    code: ExitCode
    meaning: str
    commands: Mapping[str, str] | str


# THE table of exit codes: every command's "Exit codes:" in its --help, docs/cli.md
# and the README's table are produced from it (tests/test_exit_codes.py fails
# when one of them, or the codes the commands' code returns, diverges).
EXIT_CODE_TABLE: tuple[ExitCodeRow, ...] = (
    ExitCodeRow(ExitCode.OK, "the claim holds on the instance, survived the search or is proved "
                             "(`check`: every certificate accepted; otherwise: done as asked)", {
        "verify": "the claim holds on the instance",
        "fuzz": "no counterexample found (survived), or verified exactly",
        "prove": "proved for every m, at every fixed size the claim declares (each proof certificate "
                 "accepted by the independent checker)",
        "report": "the report was written; no claim was refuted, undecided or vacuous",
        "list": "the claims were listed",
        "check": "every certificate accepted",
        "latex": "the document was written",
        "plot": "the figure was written",
        "export": "the SMT-LIB file was written (and, with --solve, the solver answered unsat)",
        "scan": "the Lemma holds on every layer where its hypothesis is met (numerically)",
        "study": "no failure of Lemma 4.5 was confirmed"}),
    ExitCodeRow(ExitCode.REFUTED, "refuted: a counterexample, confirmed exactly (`scan`: the Lemma fails "
                                  "numerically on a layer, evidence only)", {
        "verify": "the claim is refuted on the instance, confirmed exactly",
        "fuzz": "refuted: a counterexample, confirmed exactly and certified",
        "report": "the report was written; a claim was refuted (a counterexample, confirmed exactly and "
                  "certified)",
        "scan": "the Lemma fails on some layer (numerically: evidence, not an exact refutation)",
        "study": "a failure of Lemma 4.5 was confirmed exactly"}),
    ExitCodeRow(ExitCode.USAGE, "bad command line (unknown option, missing argument)", EVERY),
    ExitCodeRow(ExitCode.BAD_INPUT, "bad input: a missing, empty or malformed file, or one that is not a "
                                    "regular file (a FIFO), non-numeric, NaN/inf or ragged data, data "
                                    "outside the sizes a claim declares, an unknown claim, a mistake in a "
                                    "claim file (with its file:line)", {
        "verify": "", "fuzz": "", "prove": "", "report": "", "list": "",
        "check": "a file is missing, unreadable, empty, binary or not a regular file (a FIFO): no "
                 "certificate to check",
        "latex": "", "plot": "", "export": "", "scan": "", "study": ""}),
    ExitCodeRow(ExitCode.DEGENERATE, "degenerate instance: σ = 0 in a BN unit, or singular least squares", {
        "verify": "", "latex": "", "plot": "", "scan": ""}),
    ExitCodeRow(ExitCode.HYPOTHESIS_NOT_MET, "the claim's hypothesis is not met on the instance (e.g. "
                                             "⟨W0, W*⟩ ≤ 0), so it says nothing there", {"verify": ""}),
    ExitCodeRow(ExitCode.REJECTED, "a certificate was rejected by the independent checker (or not "
                                   "confirmed by `export --solve`)", {
        "verify": "the certificate was rejected by the independent checker (a bug, never ignored)",
        "check": "a certificate was rejected by the checker, or (--claim) is not of the claim given: "
                 "another claim, another program, sizes outside those the claim declares, or a program "
                 "the claim's own code, read a second time without the tracer, does not confirm (a "
                 "disagreement there is a rejection, not exit 7: the certificate is what is judged)",
        "latex": "the certificate was rejected by the independent checker, or (--claim) is not bound to "
                 "the claim given, as `check --claim` binds it",
        "export": "the certificate was rejected, or the solver did not answer unsat"}),
    ExitCodeRow(ExitCode.DISAGREEMENT, "internal disagreement (a bug, never a verdict): the exact and "
                                       "numeric layers, or the traced program and the claim's own code "
                                       "read a second time without the tracer, differ", {
        "verify": "", "fuzz": "", "report": "",
        "prove": "internal disagreement (a bug, never a verdict): the program proved and the claim's own "
                 "code, read without the tracer at generic instances, differ"}),
    ExitCodeRow(ExitCode.INTERNAL, "internal error (a bug of bnproof)", EVERY),
    ExitCodeRow(ExitCode.VACUOUS, "vacuous: no instance searched met the claim's hypotheses, so nothing "
                                  "was tested", {"fuzz": "", "report": "a claim was vacuous (and none was "
                                                                         "refuted or undecided)"}),
    ExitCodeRow(ExitCode.UNDECIDED, "undecided, or not proved (or proved for part of the declared sizes "
                                    "only): no verdict could be established (the reason is printed)", {
        "verify": "undecided: the exact engine could not decide the instance (the reason is printed)",
        "fuzz": "undecided, e.g. an exact violation the checker cannot certify (the reason is printed)",
        "report": "the report was written; a claim was undecided (and none refuted)",
        "prove": "not proved, proved for part of the declared sizes only, not in the provable fragment, "
                 "or the time budget ran out (the reason is printed)",
        "scan": "the Lemma fails on no layer, but is undecided on some: an optimum did not converge, or "
                "a residual lies within floating-point error of 0"}),
    ExitCodeRow(ExitCode.INTERRUPTED, "interrupted (Ctrl-C); certificates and records already written are "
                                      "kept", EVERY),
)


def plain(meaning: str) -> str:
    """A meaning for the terminal: the table's `backticks` dropped."""
    return meaning.replace("`", "")


def commands_of(row: ExitCodeRow) -> tuple[str, ...]:
    return COMMANDS if row.commands == EVERY else tuple(c for c in COMMANDS if c in row.commands)


# Derived from the table, never written by hand.
EXIT_CODE_HELP = "\n".join(f"{row.code.value}  {plain(row.meaning)}" for row in EXIT_CODE_TABLE)
COMMAND_EXIT_CODES = {command: tuple(row.code.value for row in EXIT_CODE_TABLE if command in commands_of(row))
                      for command in COMMANDS}


def command_exit_codes(command: str) -> list[tuple[int, str]]:
    """(code, meaning) for each code this command can return."""
    out = []
    for row in EXIT_CODE_TABLE:
        if command in commands_of(row):
            narrower = "" if row.commands == EVERY else row.commands[command]
            out.append((row.code.value, plain(narrower or row.meaning)))
    return out


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
