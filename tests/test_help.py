"""`--help` reads like the help of the tools researchers know: no `<bool>` type on
a flag, CLAIM (not `{claim}`) in the usage line, and each command lists only the
exit codes it can return, from the one table in bnproof/errors.py."""

import re

import pytest

from bnproof.cli import main
from bnproof.errors import COMMAND_EXIT_CODES, EXIT_CODE_HELP

COMMANDS = sorted(COMMAND_EXIT_CODES)


# Each command's help, rendered once per test process: three tests read every
# command's help, and rendering it (rich's layout) is most of their time.  The text
# is what `--help` prints; the tests only read it.
_RENDERED: dict[tuple, str] = {}


def help_of(capsys, monkeypatch, *command):
    if command not in _RENDERED:
        monkeypatch.setenv("COLUMNS", "100")
        with pytest.raises(SystemExit) as done:
            main([*command, "--help"])
        assert done.value.code in (0, None)
        _RENDERED[command] = capsys.readouterr().out
    return _RENDERED[command]


def listed_codes(text: str) -> list[int]:
    epilog = text.split("Exit codes:", 1)[1]
    return [int(code) for code in re.findall(r"^\s*(\d+)  ", epilog, re.MULTILINE)]


def test_every_command_has_an_exit_code_list():
    from bnproof.cli import app
    import typer

    names = set(typer.main.get_command(app).commands)
    assert names == set(COMMAND_EXIT_CODES)


@pytest.mark.parametrize("command", [(), *((c,) for c in COMMANDS)], ids=["bnproof", *COMMANDS])
def test_help_has_no_type_placeholders_on_flags_nor_braces_in_usage(capsys, monkeypatch, command):
    text = help_of(capsys, monkeypatch, *command)
    assert "<bool>" not in text
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage


@pytest.mark.parametrize("command", [(), *((c,) for c in COMMANDS)], ids=["bnproof", *COMMANDS])
def test_help_names_values_not_types(capsys, monkeypatch, command):
    """No type label anywhere (<str>, <path>, <int>, <list[Path]>): a value is named by
    what it is (FILE, DIR, N, SEED)."""
    text = help_of(capsys, monkeypatch, *command)
    assert not re.findall(r"<(?:str|path|bool|int|float|list|Path)\b[^>]*>", text)


def test_option_values_have_meaningful_names(capsys, monkeypatch):
    fuzz = help_of(capsys, monkeypatch, "fuzz")
    assert re.search(r"--seed\s+SEED", fuzz) and re.search(r"--out-dir\s+DIR", fuzz)
    assert re.search(r"--max-examples\s+N\b", fuzz) and re.search(r"--size\s+NAME=N", fuzz)
    verify = help_of(capsys, monkeypatch, "verify")
    assert re.search(r"--data\s+FILE", verify) and re.search(r"--out\s+FILE", verify)


def test_usage_names_arguments_in_capitals(capsys, monkeypatch):
    assert "Usage: bnproof fuzz [OPTIONS] CLAIM" in help_of(capsys, monkeypatch, "fuzz")
    assert "Usage: bnproof check [OPTIONS] FILES…" in help_of(capsys, monkeypatch, "check")


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_lists_only_its_own_exit_codes(capsys, monkeypatch, command):
    assert listed_codes(help_of(capsys, monkeypatch, command)) == list(COMMAND_EXIT_CODES[command])


def test_the_lists_differ_where_the_commands_do(capsys, monkeypatch):
    check = listed_codes(help_of(capsys, monkeypatch, "check"))
    fuzz = listed_codes(help_of(capsys, monkeypatch, "fuzz"))
    assert 1 not in check and 9 not in check and 6 in check
    assert 9 in fuzz and 10 in fuzz and 6 not in fuzz


def test_the_root_help_keeps_the_whole_table(capsys, monkeypatch):
    every = [int(line.split()[0]) for line in EXIT_CODE_HELP.splitlines()]
    assert listed_codes(help_of(capsys, monkeypatch)) == every


def test_a_summary_in_the_command_list_is_one_paragraph_on_one_line():
    import typer

    from bnproof.cli import app

    plot = typer.main.get_command(app).commands["plot"]
    assert "\n" in plot.help.split("\n\n")[0]  # its docstring's first paragraph spans two lines
    assert plot.short_help.startswith("Draw contours") and "\n" not in plot.short_help
    assert plot.short_help.endswith("the two distances of the inequality.")
