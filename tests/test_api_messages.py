"""What the Python API and the pytest integration say to a person: exact values
typeset as the terminal report shows them (1 − √2), the machine strings of
to_json unchanged; and bad input raised as BadInput (the CLI's exit 3)."""

from pathlib import Path

import pytest

import bnproof
from bnproof.claims.api import load_file
from bnproof.errors import BadInput, ClaimError, ExitCode
from bnproof.testing import ClaimRefuted, example, holds

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "claims" / "false_toy.py"
# y = (1, 0, 0) normalizes to ŷ_1 = √2, so with γ = 1, β = −1: z_1 = √2 − 1, residual 1 − √2
REFUTING = {"y": [1, 0, 0], "gamma": 1, "beta": -1}


def test_a_pinned_counterexample_is_typeset_in_the_failure_message():
    @example(**REFUTING)
    @holds(TOY, search=False)
    def test_toy():
        pass

    with pytest.raises(ClaimRefuted) as err:
        test_toy()
    message = str(err.value)
    assert "  beta = −1\n  residual = 1 − √2 ≈ −0.414214 < 0 (decided by" in message
    assert "sqrt" not in message and "-" not in message.replace("bounded-bn-output", "")


def test_counterexample_lines_are_typeset_and_fall_back_to_ascii():
    result = bnproof.fuzz(load_file(TOY)[0], seed=1, jax=False)
    assert result.residual == "1 - sqrt(2)"  # the machine string, as --json carries it
    assert result.to_json(timings=False)["residual"] == "1 - sqrt(2)"
    assert result.counterexample_lines()[-1].startswith("  residual = 1 − √2 ≈ −0.414214 < 0")
    assert result.counterexample_lines(unicode=False)[-1].startswith("  residual = 1 - sqrt(2) ~ -0.414214 < 0")


def test_verify_any_claim_typesets_its_residual_and_keeps_json_exact():
    result = bnproof.verify(load_file(TOY)[0], data=REFUTING)
    assert result.verdict == "refuted"
    assert "  residual = 1 − √2 ≈ −0.414214" in result.lines(unicode=True)
    assert "  residual = 1 - sqrt(2) ~ -0.414214" in result.lines(unicode=False)  # SymPy's form, as fuzz
    assert all(line.isascii() for line in result.lines(unicode=False))
    assert result.to_json()["residual"] == "1 - sqrt(2)"


def test_verify_wraps_a_long_residual_at_its_terms():
    from bnproof._api.verify_claim import ClaimVerifyResult

    long = " + ".join(f"{k}*sqrt({k + 1})" for k in range(2, 14))
    result = ClaimVerifyResult("me/c", "s", "r", {}, "holds", "why", long, 1.0, None, None, None)
    lines = result.lines(unicode=True, columns=40)
    assert len(lines) > 4 and all(len(line) <= 40 for line in lines[3:])
    assert lines[3].startswith("  residual = 2√3 + 3√4") and lines[4].lstrip().startswith("+ ")


def test_verify_data_on_an_untraceable_claim_names_its_file_and_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("from bnproof.claims import Claim, Var\n"
                    "def res(xp, a):\n    raise ValueError('oops')\n"
                    "C = Claim(id='me/broken', source='s', statement='r', variables=(Var('a', ()),),\n"
                    "          residual=res)\n")
    with pytest.raises(ClaimError) as err:
        bnproof.verify(load_file(path)[0], data={"a": 1})
    assert err.value.exit_code == ExitCode.BAD_INPUT
    assert "broken.py:3: claim me/broken cannot be traced: ValueError: oops" in str(err.value)


@pytest.mark.parametrize("content", [None, b"", b"\x00\x01\xff binary"])
def test_check_of_a_file_that_is_no_certificate_raises_bad_input(tmp_path, content):
    path = tmp_path / "cert.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(BadInput) as err:
        bnproof.check(path)
    assert err.value.exit_code == ExitCode.BAD_INPUT and str(path) in str(err.value)


def test_check_without_a_solver_says_what_to_install(monkeypatch):
    from bnproof.certificate import exists, solvers

    monkeypatch.setattr(solvers, "available", lambda name: False)
    doc = {"nonexistence": {"method": "smt", "query": "(check-sat)"}}
    accepted, line = exists.confirm_line(True, "ACCEPTED c.json: me/e refuted", doc)
    assert accepted
    assert "the recorded answers stand" in line
    assert "pip install z3-solver or cvc5" in line and '"bnproof[smt]"' in line
