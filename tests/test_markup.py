"""render/markup prints report markup as rich prints it when not on a terminal,
without rich; whatever it cannot be sure of goes to rich itself."""

import io

import pytest
from rich.console import Console

from bnproof.claims import lemma45
from bnproof.instance import example_3_2
from bnproof.render import markup, report

TRICKY = [
    "file [a-b].json",             # a tag to rich
    "name :smile: here",           # an emoji code
    "escaped \\[bold] text",       # a markup escape
    "tab\there",                   # a control character
    "[bold]ok[/] and [italic]x[/]",
]


def rich_prints(lines) -> str:
    out = io.StringIO()
    console = Console(file=out, highlight=False, soft_wrap=True, force_terminal=False, force_jupyter=False)
    for line in lines:
        console.print(line)
    return out.getvalue()


def report_lines(unicode: bool) -> list[str]:
    rep = lemma45.analyse(example_3_2())
    return report.to_text(rep, report.forms_for(rep), report.Extras(None, "c.json", "checked: ACCEPTED"),
                          unicode=unicode, columns=60)


@pytest.mark.parametrize("unicode", [True, False])
def test_report_prints_as_rich_prints_it(capsys, monkeypatch, unicode):
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    lines = report_lines(unicode)
    assert all(markup.plain(line) is not None for line in lines)  # the plain path, not rich's
    markup.print_lines(lines)
    printed = capsys.readouterr().out
    assert printed == rich_prints(lines)
    assert "[bold]" not in printed and "Verdict: REFUTED" in printed


def test_what_rich_would_read_differently_goes_to_rich(capsys, monkeypatch):
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(name, raising=False)
    for line in TRICKY:
        assert markup.plain(line) is None, line
    markup.print_lines(["[bold]plain[/]", *TRICKY])
    assert capsys.readouterr().out == rich_prints(["[bold]plain[/]", *TRICKY])


def test_forced_colour_goes_to_rich(monkeypatch, capsys):
    monkeypatch.setenv("FORCE_COLOR", "1")
    markup.print_lines(["[bold]Verdict[/]: x"])
    assert "\x1b[1m" in capsys.readouterr().out  # rich's bold: the plain path would have dropped it
