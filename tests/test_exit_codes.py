"""Exit codes that mean what the table says: a mistake in the user's claim file is
bad input (3) with its file:line, never an internal error or an undecided search."""

import pytest

from bnproof.claims.api import load_file
from bnproof.errors import ClaimError, ExitCode
from bnproof.search.fuzz import REFUTED, fuzz

HEAD = "from bnproof.claims import Claim, Var\n"
MISTAKES = {
    # name: (body, line blamed, words of the message)
    "raises": ("def res(xp, a):\n    raise ValueError('oops')\n", 3, "ValueError: oops"),
    "signature": ("def res(xp, b):\n    return b\n", 2, "unexpected keyword argument 'a'"),
    "float": ("def res(xp, a):\n    return a * a + 0.5\n", 3, "float"),
    "python_if": ("def res(xp, a):\n    if a > 0:\n        return a\n    return -a\n", 3, "xp.maximum"),
}
CLAIM = ("C = Claim(id='me/{name}', source='s', statement='r', variables=(Var('a', ()),),\n"
         "          residual=res)\n")


def claim_file(tmp_path, name, body):
    path = tmp_path / f"{name}.py"
    path.write_text(HEAD + body + CLAIM.format(name=name))
    return load_file(path)[0]


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_claim_that_cannot_be_traced_is_bad_input_at_its_line(tmp_path, name):
    body, line, words = MISTAKES[name]
    claim = claim_file(tmp_path, name, body)
    with pytest.raises(ClaimError) as err:
        fuzz(claim, max_examples=5, time_budget=300, use_jax=False)
    assert err.value.exit_code == ExitCode.BAD_INPUT
    assert f"{name}.py:{line}: claim me/{name} cannot be traced" in str(err.value)
    assert words in str(err.value)


def test_a_residual_undefined_on_some_instances_is_a_verdict_not_bad_input(tmp_path):
    claim = claim_file(tmp_path, "some", "def res(xp, a):\n    return 1 / a\n")
    assert fuzz(claim, max_examples=20, time_budget=300, use_jax=False).verdict == REFUTED


def test_an_error_inside_bnproof_is_not_blamed_on_the_claim(tmp_path, monkeypatch):
    from bnproof.search import certify

    claim = claim_file(tmp_path, "fine", "def res(xp, a):\n    return a * a\n")

    def broken(*_):
        raise ValueError("a bug of bnproof's")
    monkeypatch.setattr(certify, "trace", broken)
    with pytest.raises(ValueError, match="a bug of bnproof's"):
        fuzz(claim, max_examples=5, time_budget=300, use_jax=False)


def run_cli(capsys, *argv):
    from bnproof.cli import main

    with pytest.raises(SystemExit) as done:
        main(list(argv))
    out = capsys.readouterr()
    return done.value.code, out.out, out.err


CERTIFICATE = "certificates/lemma-4.5.json"


def test_export_defaults_to_its_only_format(capsys):
    from pathlib import Path

    path = str(Path(__file__).resolve().parents[1] / CERTIFICATE)
    code, out, _ = run_cli(capsys, "export", path)
    assert code in (0, None) and "(set-logic QF_NRA)" in out and "(check-sat)" in out


def test_a_missing_solver_is_a_set_up_message_naming_what_to_install(tmp_path, capsys, monkeypatch):
    from pathlib import Path

    from bnproof.certificate import solvers

    monkeypatch.setattr(solvers, "available", lambda name: False)
    path = str(Path(__file__).resolve().parents[1] / CERTIFICATE)
    code, _, err = run_cli(capsys, "export", path, "--solve", "cvc5", "-o", str(tmp_path / "q.smt2"))
    assert code == ExitCode.BAD_INPUT
    assert "pip install cvc5" in err and 'pip install "bnproof[smt]"' in err and "Traceback" not in err


@pytest.mark.parametrize("content", [None, b"", b"  \n", bytes(range(256)), b'{"a": "\0"}'],
                         ids=["missing", "empty", "blank", "binary", "nul"])
def test_check_on_a_file_that_is_no_certificate_is_bad_input(tmp_path, capsys, content):
    path = tmp_path / "cert.json"
    if content is not None:
        path.write_bytes(content)
    code, out, err = run_cli(capsys, "check", str(path))
    assert code == ExitCode.BAD_INPUT, (out, err)
    assert err.startswith("error: ") and str(path) in err and len(err.splitlines()) == 1


def test_check_a_rejected_certificate_still_exits_6_beside_a_missing_file(tmp_path, capsys):
    forged = tmp_path / "forged.json"
    forged.write_text('{"a": 1')  # text, but not a certificate: the checker's to reject
    code, out, err = run_cli(capsys, "check", str(forged), str(tmp_path / "missing.json"))
    assert code == ExitCode.REJECTED and out.startswith(f"REJECTED {forged}") and "missing.json" in err


@pytest.mark.parametrize("seed,code", [(5, ExitCode.REFUTED), (0, ExitCode.OK)])
def test_scan_exits_1_when_the_lemma_fails_on_a_layer(tmp_path, capsys, seed, code):
    import json

    import numpy as np

    path = tmp_path / "ex.npz"  # Example 3.2, W0 drawn from the seed
    np.savez(path, X=np.array([[1, 1], [1, 2], [2, 3]], float), y=np.array([2, 5, 13], float))
    try:
        from bnproof.cli import main

        main(["scan", "--data", str(path), "--widths", "none", "--bn-output", "--activation", "identity",
              "--loss", "squared", "--tol", "1e-9", "--seed", str(seed), "--json"])
        exit_code = 0
    except SystemExit as done:
        exit_code = done.code or 0
    (layer,) = json.loads(capsys.readouterr().out)["layers"]
    assert layer["verdict"] == ("fails" if code == ExitCode.REFUTED else "holds")
    assert exit_code == code


def test_an_existential_claim_that_cannot_be_traced_is_bad_input_at_its_line(tmp_path):
    path = tmp_path / "exists.py"
    path.write_text(HEAD + "C = Claim(id='me/e', source='s', statement='r', variables=(Var('x', ()),),\n"
                           "          exists=(Var('p', ()),), residual=lambda xp, x, p: x + p + 0.5)\n")
    with pytest.raises(ClaimError, match=r"exists\.py:3: claim me/e cannot be traced: TypeError"):
        fuzz(load_file(path)[0], max_examples=5, time_budget=300, use_jax=False)


# ---------------------------------------------------------------- one table of exit codes

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
MODULES = {"list": "listing"}  # a command's module in bnproof/cli/, where its name differs
RAISED = {"BadInput": ExitCode.BAD_INPUT, "ClaimError": ExitCode.BAD_INPUT,
          "DegenerateInstance": ExitCode.DEGENERATE, "Disagreement": ExitCode.DISAGREEMENT,
          "CheckerRefused": ExitCode.REJECTED, "Rejected": ExitCode.REJECTED}


def codes_in_source(command: str) -> set[int]:
    """The exit codes a command's own module names: ExitCode.X, and the errors it raises."""
    import ast

    tree = ast.parse((ROOT / "bnproof" / "cli" / f"{MODULES.get(command, command)}.py").read_text())
    codes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "ExitCode":
            codes.add(int(ExitCode[node.attr]))
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
            if node.exc.func.id in RAISED:
                codes.add(int(RAISED[node.exc.func.id]))
    return codes


def readme_exit_code_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Exit codes\n", 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in section.splitlines() if line.startswith("|"))


def test_the_readme_table_is_the_one_in_the_code():
    from bnproof.cli.reference import exit_code_table

    assert readme_exit_code_section() == exit_code_table()


def test_the_readme_check_sees_a_changed_meaning_and_a_missing_command(monkeypatch):
    from bnproof import errors
    from bnproof.cli.reference import exit_code_table

    rows = list(errors.EXIT_CODE_TABLE)
    rows[5] = errors.ExitCodeRow(ExitCode.HYPOTHESIS_NOT_MET, rows[5].meaning, {"verify": "", "fuzz": ""})
    monkeypatch.setattr(errors, "EXIT_CODE_TABLE", tuple(rows))
    assert readme_exit_code_section() != exit_code_table()
    rows[5] = errors.ExitCodeRow(ExitCode.HYPOTHESIS_NOT_MET, "the hypothesis fails", {"verify": ""})
    monkeypatch.setattr(errors, "EXIT_CODE_TABLE", tuple(rows))
    assert readme_exit_code_section() != exit_code_table()


def test_the_table_covers_every_code_once_and_every_command():
    import typer

    from bnproof.cli import app
    from bnproof.errors import COMMANDS, EXIT_CODE_TABLE

    assert [row.code for row in EXIT_CODE_TABLE] == list(ExitCode)
    assert set(typer.main.get_command(app).commands) == set(COMMANDS)
    for row in EXIT_CODE_TABLE:
        assert row.commands == "every command" or set(row.commands) <= set(COMMANDS), row


@pytest.mark.parametrize("command", ["verify", "fuzz", "prove", "list", "check", "latex", "plot",
                                     "export", "scan", "study"])
def test_a_command_returns_no_code_its_table_row_does_not_list(command):
    from bnproof.errors import COMMAND_EXIT_CODES

    assert codes_in_source(command) <= set(COMMAND_EXIT_CODES[command])


def test_the_verdicts_map_to_codes_their_commands_list():
    from bnproof._api.prove import ProveResult
    from bnproof._api.verify_claim import EXIT_CODES as VERIFY_ANY
    from bnproof.errors import COMMAND_EXIT_CODES
    from bnproof.render.fuzz import EXIT_CODES as FUZZ

    assert {int(c) for c in VERIFY_ANY.values()} <= set(COMMAND_EXIT_CODES["verify"])
    assert {int(c) for c in (*FUZZ.values(), ExitCode.OK)} <= set(COMMAND_EXIT_CODES["fuzz"])
    assert {int(ExitCode.HYPOTHESIS_NOT_MET), 0, 1} <= set(COMMAND_EXIT_CODES["verify"])  # Lemma 4.5 verdicts
    proved = ProveResult.exit_code.fget
    assert {proved(type("R", (), {"proved": p})()) for p in (True, False)} <= set(COMMAND_EXIT_CODES["prove"])


def test_the_source_scan_sees_a_code_the_table_does_not_list(monkeypatch):
    from bnproof import errors

    assert int(ExitCode.UNDECIDED) in codes_in_source("prove")
    assert int(ExitCode.BAD_INPUT) in codes_in_source("prove")  # raise BadInput(...)
    rows = [r if r.code != ExitCode.UNDECIDED else errors.ExitCodeRow(r.code, r.meaning, {"verify": ""})
            for r in errors.EXIT_CODE_TABLE]
    derived = {c: tuple(r.code.value for r in rows if c in errors.commands_of(r)) for c in errors.COMMANDS}
    assert not codes_in_source("prove") <= set(derived["prove"])


@pytest.mark.parametrize("command", ["verify", "fuzz", "prove", "check", "scan"])
def test_each_code_in_a_commands_help_has_the_tables_words(capsys, monkeypatch, command):
    from bnproof.errors import command_exit_codes

    monkeypatch.setenv("COLUMNS", "300")
    code, out, _ = run_cli(capsys, command, "--help")
    assert code in (0, None)
    epilog = " ".join(out.split("Exit codes:", 1)[1].split())  # rich wraps long lines: compare words
    for number, meaning in command_exit_codes(command):
        assert f"{number} {meaning}" in epilog
    assert "`" not in epilog


def test_a_command_code_has_its_own_words_where_the_table_gives_them():
    from bnproof.errors import command_exit_codes

    assert dict(command_exit_codes("prove"))[10].startswith("not proved")
    assert dict(command_exit_codes("scan"))[1].endswith("(numerically: evidence, not an exact refutation)")
    assert dict(command_exit_codes("check"))[3].startswith("a file is missing")
    assert dict(command_exit_codes("fuzz"))[9].startswith("vacuous")
