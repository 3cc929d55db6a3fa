"""Red team for cli/fast.py: `bnproof check` and `bnproof verify` read without
typer must behave exactly as under typer, or hand the command line to typer.

Each command line runs twice in the same directory (recreated in between):
through bnproof.cli.main (the fast path where it applies) and through
bnproof.cli.entry.main (always typer).  stdout, stderr, the exit code and
every file left in the directory must be identical."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from bnproof import cli
from bnproof.cli import fast
from bnproof.cli.entry import main as typer_main

ROOT = Path(__file__).resolve().parent.parent
CERTIFICATE = ROOT / "certificates" / "lemma-4.5.json"
DATA = {"X": [[1, 2], [3, 5], [4, 1]], "y": [2, 5, 13], "W0": [1, 1], "gamma": 1}


def _populate(work: Path) -> None:
    work.mkdir()
    shutil.copy(CERTIFICATE, work / "c.json")
    shutil.copy(CERTIFICATE, work / "c file é.json")
    (work / "bad.json").write_text("{not json")
    (work / "data.json").write_text(json.dumps(DATA))
    (work / "data ü.json").write_text(json.dumps(DATA))
    # an instance named with rich markup that closes nothing, and one that opens a style
    (work / "named.json").write_text(json.dumps({**DATA, "name": "x[/]y"}))
    (work / "bolded.json").write_text(json.dumps({**DATA, "name": "[bold]b"}))
    (work / "x[").mkdir()  # so that --out "x[/].json" is a writable path
    (work / "dir").mkdir()


def _snapshot(work: Path) -> dict:
    return {str(p.relative_to(work)): p.read_bytes() for p in sorted(work.rglob("*")) if p.is_file()}


def _run(entry, argv, work, monkeypatch, capsys):
    if work.exists():
        shutil.rmtree(work)
    _populate(work)
    monkeypatch.chdir(work)
    capsys.readouterr()
    try:
        entry(list(argv))
        code = 0
    except SystemExit as done:
        code = done.code
    code = 0 if code is None else code
    out, err = capsys.readouterr()
    # an atomic write's scratch name is random: the one part two runs may differ in
    err = re.sub(r"\.[^/ ]*\.[a-z0-9_]{8}\.tmp", ".SCRATCH.tmp", err)
    return code, out, err, _snapshot(work)


def both(argv, tmp_path, monkeypatch, capsys):
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "BNPROOF_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "work"
    quick = _run(cli.main, argv, work, monkeypatch, capsys)
    slow = _run(typer_main, argv, work, monkeypatch, capsys)
    assert quick[0] == slow[0], (argv, quick[:3], slow[:3])
    assert quick[1] == slow[1], argv
    assert quick[2] == slow[2], argv
    assert quick[3] == slow[3], argv
    return quick


V = ["verify", "lemma-4.5", "--no-crosscheck"]

# (argv, whether the fast path reads it)
SHAPES = [
    (V, True),
    (["verify", "--no-crosscheck", "lemma-4.5"], True),
    (V + ["--json"], True),
    (["verify", "--json", "lemma-4.5", "--no-crosscheck"], True),
    (V + ["--out", "my cert é.json"], True),
    (V + ["--out=my cert.json"], True),
    (V + ["--out=a=b.json"], True),
    (V + ["--out", "x[/].json"], True),       # a path rich would read as a closing tag
    (V + ["--out", "[bold]o.json"], True),    # a path rich would read as a style
    (V + ["--data", "data ü.json"], True),
    (V + ["--data=data ü.json", "--out", "o.json"], True),
    (V + ["--data", "named.json"], True),     # an instance name rich would choke on
    (V + ["--data", "bolded.json"], True),
    (V + ["--data", "missing.json"], True),
    (V + ["--data", "missing.json", "--json"], True),
    (V + ["--data", "bad.json"], True),
    (V + ["--data", "dir"], True),
    (V + ["--out", "nodir/x.json"], True),
    (["verify", "--no-crosscheck", "--", "lemma-4.5"], True),
    (["verify", "no-such-claim", "--no-crosscheck"], True),
    (["verify", "LEMMA-4.5", "--no-crosscheck"], True),
    (["verify", "lémma", "--no-crosscheck"], True),
    (["verify", "--", "lemma-4.5", "--no-crosscheck"], False),  # two arguments: typer's error
    (V + ["--no-crosscheck"], False),
    (["verify", "lemma-4.5", "--crosscheck", "--no-crosscheck"], False),
    (["verify", "lemma-4.5", "--no-cross"], False),            # click matches no prefix
    (["verify", "lemma-4.5", "--js", "--no-crosscheck"], False),
    (V + ["--json=1"], False),
    (V + ["--json="], False),
    (V + ["-o", "x.json"], False),
    (V + ["--out"], False),
    (V + ["--out", ""], False),
    (V + ["--out="], False),
    (V + ["--out", "-x.json"], False),
    (V + ["--out", "--json"], False),
    (V + ["--NO-CROSSCHECK"], False),
    (["verify", "", "--no-crosscheck"], False),
    (["verify", "-", "--no-crosscheck"], False),
    (["verify"], False),
    (["verify", "--help"], False),
    (["verify", "lemma-4.5", "extra", "--no-crosscheck"], False),
    (["check", "c.json"], True),
    (["check", "c.json", "c.json"], True),
    (["check", "--json", "c.json"], True),
    (["check", "c.json", "--show-program"], True),
    (["check", "c file é.json", "--json"], True),
    (["check", "--", "c.json"], True),
    (["check", "--", "--json"], True),    # a file named --json
    (["check", "missing.json"], True),
    (["check", "missing.json", "--json"], True),
    (["check", "bad.json", "c.json"], True),
    (["check", "dir"], True),
    (["check", "c.json", "--claim", "nope.py"], True),
    (["check", "c.json", "--claim=nope.py", "--json"], True),
    (["check"], False),
    (["check", ""], False),
    (["check", "c.json", "--claim"], False),
    (["check", "c.json", "--claim="], False),
    (["check", "c.json", "--json", "--json"], False),
    (["check", "--show", "c.json"], False),
    (["check", "c.json", "-"], False),
    (["check", "c.json", "--help"], False),
    (["check", "-h"], False),
    (["check", "c.json", "--json=yes"], False),
    (["--json", "check", "c.json"], False),
]


@pytest.mark.parametrize("argv, quick", SHAPES, ids=[" ".join(a) or "(none)" for a, _ in SHAPES])
def test_fast_path_and_typer_agree(argv, quick, tmp_path, monkeypatch, capsys):
    assert (fast.parse(list(argv)) is not None) == quick  # which path is being compared
    both(argv, tmp_path, monkeypatch, capsys)


def test_the_shapes_compare_real_work(tmp_path, monkeypatch, capsys):
    # not vacuous: a verify that writes a certificate and a check that accepts one
    code, out, _, files = both(V + ["--out", "my cert é.json"], tmp_path, monkeypatch, capsys)
    assert "Verdict" in out and "my cert é.json" in files
    code, out, _, _ = both(["check", "c.json"], tmp_path, monkeypatch, capsys)
    assert code == 0 and "ACCEPTED" in out


def test_hostile_names_are_printed_as_given(tmp_path, monkeypatch, capsys):
    # rich markup in an instance name or a path is text, not markup: shown verbatim,
    # never 'x.json' for 'x[/].json', never an internal error
    _, out, err, files = both(V + ["--out", "x[/].json"], tmp_path, monkeypatch, capsys)
    assert "Certificate: x[/].json" in out and "x[/].json" in files and "internal error" not in err
    _, out, _, _ = both(V + ["--data", "named.json"], tmp_path, monkeypatch, capsys)
    assert "Setting: x[/]y" in out
    _, out, _, _ = both(V + ["--out", "[bold]o.json"], tmp_path, monkeypatch, capsys)
    assert "Certificate: [bold]o.json" in out


def test_hostile_names_on_a_terminal_are_no_internal_error(tmp_path, monkeypatch, capsys):
    # where rich prints (a terminal, here forced), the same names must not raise MarkupError
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    work = tmp_path / "work"
    code, out, err, files = _run(cli.main, V + ["--out", "x[/].json", "--data", "named.json"], work,
                                 monkeypatch, capsys)
    assert "internal error" not in err and "x[/].json" in files
    assert "x[/]y" in out and "x[/].json" in out


@pytest.mark.parametrize("argv", [["check", "c.json"], V + ["--data", "data.json"],
                                  V + ["--out", "c.json"], ["check", "c.json", "--claim", "c.json"]])
def test_an_unreadable_path_is_typer_s_error(argv, tmp_path, monkeypatch, capsys):
    # typer refuses an existing path that os.access says is unreadable (exit 2, its message)
    # before the command runs; as root every file is readable, so os.access is made to say no
    real = os.access

    def access(path, mode, *args, **kwargs):
        if Path(path).name in ("c.json", "data.json") and mode == os.R_OK:
            return False
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    code, _, err, _ = both(argv, tmp_path, monkeypatch, capsys)
    assert code == 2 and "is not readable" in err


@pytest.mark.parametrize("out", ["dir", ""])
def test_out_naming_a_directory_is_a_usage_error(out, tmp_path, monkeypatch, capsys):
    code, _, err, _ = _run(typer_main, V + ["--out", out], tmp_path / "work", monkeypatch, capsys)
    assert code == 3 and "internal error" not in err and err.count("\n") == 1


def test_claim_file_that_is_not_python_is_bad_input(tmp_path, monkeypatch, capsys):
    code, _, err, _ = _run(typer_main, ["check", "c.json", "--claim", "bad.json"], tmp_path / "work",
                           monkeypatch, capsys)
    assert code == 3 and "internal error" not in err and err.count("\n") == 1
