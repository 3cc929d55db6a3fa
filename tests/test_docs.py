"""The docs stay true: every console example in README.md and docs/*.md is run
and its output compared, every page's Python example (docs/api.md) is run as a
notebook and its output compared, and the CLI reference is regenerated and
compared.

A console example is a fenced block whose lines start with "$ " (a command)
followed by the output it prints.  In expected output, a line that is just
"…" stands for any number of lines, and "…" inside a line for any text.  A
block fenced as ```python file=NAME is written to NAME first, so that a
command can use it.  A page's ```python blocks are its notebook: run in order
in one fresh interpreter, each followed by the ```text block (if any) that
shows what it prints.

A `bnproof ...` command runs in this process (tests/cli_runner.py, with the
folder, environment and captured streams a process would have), except on
README.md, whose commands are the first a user types: those, `python -m ...`
commands and the notebooks run in fresh interpreters."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```$", re.S | re.M)


def _blocks(page: Path):
    for match in FENCE.finditer(page.read_text(encoding="utf-8")):
        yield match.group(1).strip(), match.group(2)


def _examples():
    for page in PAGES:
        files = {}
        for info, body in _blocks(page):
            if info.startswith("python file="):
                files[info.split("=", 1)[1]] = body
            elif body.startswith("$ "):
                yield pytest.param(page, body, dict(files), id=f"{page.name}:{body.splitlines()[0][2:60]}")


def _notebooks():
    for page in PAGES:
        files, cells = {}, []
        for info, body in _blocks(page):
            if info.startswith("python file="):
                files[info.split("=", 1)[1]] = body
            elif info == "python":
                cells.append([body, None])
            elif info == "text" and cells and cells[-1][1] is None:
                cells[-1][1] = body
        if cells:
            yield pytest.param(page, cells, files, id=page.name)


def _pattern(expected: list[str]) -> re.Pattern:
    parts = []
    for line in expected:
        if line.strip() == "…":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split("…")) + r"\n")
    return re.compile("".join(parts), re.S)


def _argv(command: str) -> list[str]:
    words = shlex.split(command)
    if words[0] == "bnproof":
        return [sys.executable, "-m", "bnproof", *words[1:]]
    if words[:2] == ["python", "-m"]:
        return [sys.executable, *words[1:]]
    raise AssertionError(f"docs examples run bnproof or python -m only, not {command!r}")


def _steps(body: str):
    """(command, expected output lines) for each "$ " line of a block."""
    steps = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


@pytest.mark.parametrize("page, body, files", list(_examples()))
def test_console_example_runs_as_documented(page, body, files, tmp_path):
    for folder in ("docs", "certificates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {"BNPROOF_CACHE_DIR": str(tmp_path / ".cache"), "COLUMNS": "200"}
    for command, expected in _steps(body):
        argv = _argv(command)
        if argv[1:3] == ["-m", "bnproof"] and page.name != "README.md":
            proc = run_cli(*argv[3:], cwd=tmp_path, env=env)
        else:
            proc = subprocess.run(argv, cwd=tmp_path, env=dict(os.environ, **env), capture_output=True, text=True)
        assert "Traceback" not in proc.stderr, proc.stderr
        output = proc.stdout + (proc.stderr if not proc.stdout else "")
        # the docs show a CPU run; on a GPU the cross-check names its device
        output = re.sub(r"\b(?:cuda|gpu|rocm):(\d+)", r"cpu:\1", output)
        assert _pattern(expected).fullmatch(output), (
            f"{page.name}: `{command}` printed\n{output}\nbut the docs say\n" + "\n".join(expected))


CELL = "<<bnproof docs: next cell>>"


@pytest.mark.parametrize("page, cells, files", list(_notebooks()))
def test_python_example_runs_as_documented(page, cells, files, tmp_path):
    for folder in ("docs", "certificates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    script = "".join(f"print({CELL!r}, flush=True)\n{code}\n" for code, _ in cells)
    (tmp_path / "notebook.py").write_text(script, encoding="utf-8")
    env = dict(os.environ, BNPROOF_CACHE_DIR=str(tmp_path / ".cache"))
    proc = subprocess.run([sys.executable, "notebook.py"], cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr
    outputs = proc.stdout.split(CELL + "\n")[1:]
    assert len(outputs) == len(cells)
    for k, ((code, expected), output) in enumerate(zip(cells, outputs), 1):
        if expected is not None:
            assert _pattern(expected.splitlines()).fullmatch(output), (
                f"{page.name}, cell {k}:\n{code}\nprinted\n{output}\nbut the docs say\n{expected}")


def test_there_is_a_python_notebook_on_the_api_page():
    assert "api.md" in {param.values[0].name for param in _notebooks()}


def test_there_are_console_examples_on_every_user_page():
    pages = {param.values[0].name for param in _examples()}
    assert {"README.md", "quickstart.md", "claims.md"} <= pages


def test_the_pattern_matcher_is_strict():
    assert _pattern(["a …", "…", "c"]).fullmatch("a b\nx\ny\nc\n")
    assert not _pattern(["a", "c"]).fullmatch("a\nb\nc\n")
    assert not _pattern(["REFUTED"]).fullmatch("SURVIVED\n")


def test_cli_reference_matches_the_command_line():
    from bnproof.cli.reference import render

    committed = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert committed == render(), "docs/cli.md is stale: python -m bnproof.cli.reference > docs/cli.md"


def test_cli_reference_names_every_command_and_option():
    import typer

    from bnproof.cli import app

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name, command in typer.main.get_command(app).commands.items():
        assert f"## `bnproof {name}`" in text
        for param in command.params:
            for opt in param.opts if param.param_type_name == "option" else ():
                assert f"`{opt}`" in text, (name, opt)


def test_reproduce_page_lists_every_claim_with_its_recorded_verdict():
    from bnproof.claims.api import all_claims
    from bnproof.search import record

    text = (ROOT / "docs" / "reproduce.md").read_text(encoding="utf-8")
    verdicts = record.load()
    for claim in all_claims():
        row = next((line for line in text.splitlines() if f"`{claim.id}`" in line), None)
        assert row is not None, claim.id
        assert verdicts[claim.id]["verdict"] in row, (claim.id, row)
