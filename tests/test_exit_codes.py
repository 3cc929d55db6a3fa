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
        fuzz(claim, max_examples=5, time_budget=10, use_jax=False)
    assert err.value.exit_code == ExitCode.BAD_INPUT
    assert f"{name}.py:{line}: claim me/{name} cannot be traced" in str(err.value)
    assert words in str(err.value)


def test_a_residual_undefined_on_some_instances_is_a_verdict_not_bad_input(tmp_path):
    claim = claim_file(tmp_path, "some", "def res(xp, a):\n    return 1 / a\n")
    assert fuzz(claim, max_examples=20, time_budget=10, use_jax=False).verdict == REFUTED


def test_an_error_inside_bnproof_is_not_blamed_on_the_claim(tmp_path, monkeypatch):
    from bnproof.search import certify

    claim = claim_file(tmp_path, "fine", "def res(xp, a):\n    return a * a\n")

    def broken(*_):
        raise ValueError("a bug of bnproof's")
    monkeypatch.setattr(certify, "trace", broken)
    with pytest.raises(ValueError, match="a bug of bnproof's"):
        fuzz(claim, max_examples=5, time_budget=10, use_jax=False)


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
        fuzz(load_file(path)[0], max_examples=5, time_budget=10, use_jax=False)
