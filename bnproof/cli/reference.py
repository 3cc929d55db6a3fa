"""docs/cli.md, generated from the command line itself so that it cannot drift (here in
cli/, above the registry it reads: commands.py).

`python -m bnproof.cli.reference > docs/cli.md` regenerates it; a test
fails when the committed file differs from what this prints."""

from __future__ import annotations

import inspect

HEADER = """# Command-line reference

Generated from `bnproof --help` by `python -m bnproof.cli.reference > docs/cli.md`;
a test fails when this file and the command line disagree.
"""

# Hand-written: a shape is a promise to scripts, stated once here for every command
# (each --json option's help names its own shape, in the tables above).
JSON_OUTPUT = """## JSON output

`--json` prints one JSON document on stdout, of one shape per command, however
many claims or files the command covers:

| command | `--json` prints |
|---|---|
| `bnproof list` | a list, one object per claim |
| `bnproof fuzz` | a list, one object per claim, also when CLAIM names one claim |
| `bnproof prove` | a list, one object per claim, also when CLAIM names one claim |
| `bnproof check` | a list, one object per file, also for one file |
| `bnproof verify` | one object: one claim on one instance |
| `bnproof scan` | one object: one network, its `layers` a list |
| `bnproof study` | one object: one study, its `cells` a list |

A command stopped by an error prints instead one object, `{"error": MESSAGE,
"exit_code": CODE}`, with `"finished"`, the list of the objects finished before
the error, when there are any; the message is also printed on stderr.  `check`
lists a file it cannot read as a rejected entry (exit code 3); a bad command
line (exit code 2) prints only the usage message on stderr; `fuzz` or `prove`
stopped by Ctrl-C (exit code 130) prints the list of the claims it finished, if
any.

### The proof object

A proof for every m is described by one object, the same wherever it appears:
each object of `prove --json` (after its `"claim"`), the `"proof"` of each object
of `fuzz --json`, `bnproof.prove(...).to_json()` and
`bnproof.fuzz(...).to_json()["proof"]`:

| field | value |
|---|---|
| `status` | `"proved"` (at every fixed size the claim declares), `"proved-partly"` (at those in `covered` only), `"not-proved"`, `"outside-fragment"` (the claim uses what the prover lacks), `"undecided"` (the attempt itself failed, or its process died), `"budget"` (the time budget ran out before a fixed size was proved), or, in `fuzz` only, `"not-attempted"` |
| `text` | the line `prove` prints; for `"not-attempted"`, `"not attempted: "` and why (the search's verdict is refuted, vacuous or undecided; the claim has no batch size m; `--no-prove`) |
| `fixed` | the fixed sizes (every size but m) attempted, each an object (`{}` when m is the only size) |
| `covered` | those at which the claim is proved for every m |
| `certificates` | the proof certificates written, one per fixed size covered |
| `blocked_by` | what stopped the proof (`"relu"`, `"the residual's normal form is not 0: in the roots r₁ and r₂, which do not cancel"`, `"time budget exhausted"`), else null |
| `normal_form`, `normal_form_text` | the residual's normal form at the last fixed size attempted, in LaTeX and in Unicode (`"0"` when it is 0), else null |
| `hint` | a change with which the claim is proved (`"declare c positive: …"`, a missing hypothesis), where the prover found one, else null; the changed claim is another claim, and nothing about it is certified |

`list --json` gives the proof recorded with a claim's verdict (`fuzz --record`)
in the same form, less `fixed` and the normal forms, and null where none was
attempted.
"""


# Hand-written: where files go is one rule for every command (bnproof/cli/outputs.py), and a
# test holds each command to it.
OUTPUT_FILES = """## Output files

Every file a command writes goes where its `-o`/`--out` (a file) or `--out-dir` (a
folder) says, and by default into `bnproof-out/` in the working folder, created when
needed:

| command | writes by default |
|---|---|
| `bnproof verify` | the certificate: `bnproof-out/<claim>.json`, or `bnproof-out/<claim>-<data stem>.json` with `--data` |
| `bnproof fuzz` | each refutation's certificate: `bnproof-out/<claim id>.json` |
| `bnproof prove` | each proof certificate: `bnproof-out/<claim id>.proof.json` |
| `bnproof study` | each failure confirmed exactly, as `verify --data` JSON: `bnproof-out/study-m<m>-d<d>-seed<seed>-<k>.json` |
| `bnproof scan` | each failing layer in the Lemma's setting, as `verify --data` JSON: `bnproof-out/scan-<dataset>-seed<seed>-layer<l>.json` |
| `bnproof report` | the document on standard output, unless `-o FILE`; its claims' certificates as `fuzz` writes them |
| `bnproof latex`, `bnproof export` | standard output, unless `-o FILE` |
| `bnproof plot` | only the figure `-o FILE` names |

The committed `certificates/` and `proofs/verdicts.json` change only with `--record`
(`fuzz`, `prove`).  Files are read wherever they are: a path is read as given (a
certificate in `bnproof-out/`, or in `./certificates/` where `verify` wrote before
this rule, alike), and a claim id names its committed certificate (`latex CLAIM`).
"""


def _cell(text: str) -> str:
    text = " ".join((text or "").split()).replace("|", "\\|")
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _default(param) -> str:
    if param.required:
        return "required"
    value = param.default
    if value is None or value == [] or value == ():
        return ""
    if isinstance(value, bool):
        names = param.opts if value else (param.secondary_opts or [])
        return f"`{names[0]}`" if names else ("on" if value else "off")
    return f"`{value}`"


def _names(param) -> str:
    if param.param_type_name == "argument":
        return f"`{param.name.upper()}`" + ("…" if param.nargs == -1 else "")
    return ", ".join(f"`{n}`" for n in [*param.opts, *param.secondary_opts])


def exit_code_table() -> str:
    """The table of exit codes in Markdown, as docs/cli.md and the README show it (a
    test holds the README's copy equal to this), from errors.EXIT_CODE_TABLE."""
    from ..errors import COMMANDS, EVERY, EXIT_CODE_TABLE, commands_of

    rows = ["| code | meaning | returned by |", "|---|---|---|"]
    for row in EXIT_CODE_TABLE:
        who = EVERY if commands_of(row) == COMMANDS else ", ".join(f"`{c}`" for c in commands_of(row))
        rows.append(f"| {row.code.value} | {_cell(row.meaning)} | {who} |")
    return "\n".join(rows)


def render() -> str:
    import typer

    from . import commands  # noqa: F401  (every command registered, in --help's order)
    from .application import app
    from ..errors import COMMAND_EXIT_CODES

    root = typer.main.get_command(app)
    parts = [HEADER, "```", "bnproof [--version] COMMAND [OPTIONS] [ARGS]", "```", ""]
    parts.append(_cell(root.help))
    for name, command in root.commands.items():
        parts += ["", f"## `bnproof {name}`", "", inspect.cleandoc(command.help or ""), "", "| argument or option | meaning | default |", "|---|---|---|"]
        for param in command.params:
            if param.name == "help":
                continue
            parts.append(f"| {_names(param)} | {_cell(param.help)} | {_default(param)} |")
        codes = ", ".join(str(code) for code in COMMAND_EXIT_CODES[name])
        parts += ["", f"Exit codes: {codes} ([their meanings](#exit-codes)); `bnproof {name} --help` "
                  "says what each means for this command."]
    parts += ["", OUTPUT_FILES.rstrip("\n")]
    parts += ["", JSON_OUTPUT.rstrip("\n")]
    parts += ["", "## Exit codes", "", exit_code_table()]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    import sys

    # --exit-codes: only the table, as the README's "Exit codes" section holds it
    print(exit_code_table() if sys.argv[1:] == ["--exit-codes"] else render(), end="\n" if sys.argv[1:] else "")
