"""`bnproof check` and `bnproof verify --no-crosscheck` start cold without the
heavy libraries: a regression (an import moved back to a module's top) fails
here, not only in a benchmark.  `python -X importtime` names every module the
process imported."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = {"sympy", "jax", "numpy", "hypothesis", "typer", "click", "pydantic", "rich", "mpmath"}


def imported(args, cwd) -> tuple[set[str], subprocess.CompletedProcess]:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "bnproof", *args], cwd=cwd,
                          capture_output=True, text=True)
    names = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*([\w.]+)$", proc.stderr, re.M))
    assert "bnproof" in names  # the report was read: an empty set would pass vacuously
    return {n.split(".")[0] for n in names}, proc


def test_check_imports_only_the_checker(tmp_path):
    tops, proc = imported(["check", str(ROOT / "certificates" / "lemma-4.5.json")], tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("ACCEPTED")
    assert not tops & (HEAVY | {"flint"}), sorted(tops & (HEAVY | {"flint"}))


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_verify_without_crosscheck_imports_no_heavy_library(tmp_path, extra):
    tops, proc = imported(["verify", "lemma-4.5", "--no-crosscheck", "--out", str(tmp_path / "c.json"), *extra],
                          tmp_path)
    assert proc.returncode == 1  # refuted
    assert "REFUTED" in proc.stdout or '"verdict": "refuted"' in proc.stdout
    assert not tops & HEAVY, sorted(tops & HEAVY)


def test_an_unusual_command_line_still_goes_through_typer(tmp_path):
    # a repeated option is left to typer: the same command, read by click, which takes the last
    tops, proc = imported(["check", "--json", "--json", str(ROOT / "certificates" / "lemma-4.5.json")], tmp_path)
    assert proc.returncode == 0 and '"accepted": true' in proc.stdout
    assert "typer" in tops


def test_fast_parse_reads_as_click_does():
    from bnproof.cli.fast import parse

    assert parse(["verify", "lemma-4.5", "--data=x.json", "--no-crosscheck"]) == (
        "verify", ["lemma-4.5"], {"data": Path("x.json"), "crosscheck": False})
    assert parse(["check", "--show-program", "a.json", "--", "--b.json"]) == (
        "check", ["a.json", "--b.json"], {"show_program": True})
    # anything typer should judge: help, unknown or valueless options, a value like an option,
    # an empty argument, the wrong number of arguments, contradicting flags, other commands
    for args in (["verify", "--help"], ["verify", "lemma-4.5", "--bogus"], ["verify", "lemma-4.5", "--out"],
                 ["verify", "lemma-4.5", "--out", "--json"], ["verify", ""], ["verify", "a", "b"], ["verify"],
                 ["verify", "x", "--crosscheck", "--no-crosscheck"], ["verify", "x", "--json=1"], ["check"],
                 ["check", "-"], ["fuzz", "lemma-4.5"], ["--version"], []):
        assert parse(args) is None, args
