"""Red team of issue 22 (second round), end to end through the command line: what still
gave a wrong verdict, a crash or a hang after the fixes of every class.

Each attack is a claim file in tests/redteam_issue22_claims/ (its docstring says what it
attacks and whether it is true, under numpy's float64 semantics, the ones a claim is
written in), judged by tests/adversarial/rules.py: a TRUE claim is never refuted, a
FALSE one never proved, verified exactly or said to hold where it is false; exit 7
(internal disagreement), 10 (undecided) and 3 (bad input, one line) are acceptable.

Tests marked xfail(strict=True) are defects still open, each with the files that must
change (owned by others); they fail today and turn into failures (XPASS) once fixed, so
that the marker is removed with the fix."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from adversarial.rules import (BAD_INPUT, DISAGREEMENT, OK, REFUTED, REJECTED, UNDECIDED, Run, assert_clean,
                               assert_fuzz_claims_no_proof, assert_not_proved, assert_not_refuted,
                               assert_verify_does_not_hold, bnproof, fuzz, fuzz_entry, prove, verify, write_json)
from cli_runner import Started, env_for

CLAIMS = Path(__file__).parent / "redteam_issue22_claims"
Y = {"y": [1, 2]}  # Σy = 3, Σy² = 5


def install(folder: Path, *names: str) -> list[Path]:
    out = []
    for name in names:
        shutil.copy(CLAIMS / name, folder / name)
        out.append(folder / name)
    return out


def verify_with_jax(folder: Path, claim: Path, data: dict) -> Run:
    """`verify --data` with its JAX float64 check on (rules.verify turns it off)."""
    data_path = write_json(folder, "data.json", data)
    return bnproof(folder, "verify", claim, "--data", data_path, "--json", "--out", folder / "cert.json")


def refutation_certificate(folder: Path, claim: Path, data: dict, name: str) -> Path:
    """An honest refutation certificate of `claim` at `data`, made by `verify`."""
    out = folder / name
    run = bnproof(folder, "verify", claim, "--data", write_json(folder, f"{name}.data.json", data),
                  "--no-crosscheck", "--out", out)
    assert run.code == REFUTED and out.is_file(), run
    return out


# ------------------------------------------------------------------ fixed here


def test_fuzz_reports_no_witness_that_only_the_traced_program_has(tmp_path):
    """search/exists.py reported every witness of the traced program "confirmed exactly",
    exit 0, without asking the claim's own code: here it has no witness at any x."""
    (claim,) = install(tmp_path, "exists_kind.py")
    run = fuzz(tmp_path, claim, "--max-examples", "10")
    assert_clean(run)
    assert run.code in (DISAGREEMENT, UNDECIDED), run
    assert "confirmed exactly" not in run.stdout, run


@pytest.mark.parametrize("certified, other, data", [
    ("square_forged.py", "square_true.py", Y),
    ("root_true.py", "root_forged.py", {"x": -1}),
], ids=["refutation", "existential"])
def test_latex_claim_writes_no_refutation_of_a_claim_the_certificate_is_not_of(tmp_path, certified, other, data):
    """`latex CERT --claim FILE` bound nothing but the id, the statement and the sizes: a
    certificate of another program with the same id and statement was written up as a
    refutation of the claim file's claim (exit 0), where `check --claim` rejects it."""
    certified, other = install(tmp_path, certified, other)
    cert = refutation_certificate(tmp_path, certified, data, "c.json")
    assert bnproof(tmp_path, "check", "--claim", other, cert).code == REJECTED
    run = bnproof(tmp_path, "latex", cert, "--claim", other, "-o", tmp_path / "doc.tex")
    assert_clean(run)
    assert run.code == REJECTED, run
    assert not (tmp_path / "doc.tex").exists(), run
    # the certificate's own claim file still gets its document
    assert bnproof(tmp_path, "latex", cert, "--claim", certified, "-o", tmp_path / "own.tex").code == OK


HANG_GUARD = 300  # s; only so that a hang fails instead of blocking the suite


def ended(started: Started, what: str) -> Run:
    """The run of a started process, or a failure once HANG_GUARD has passed (a hang)."""
    try:
        started.process.wait(timeout=HANG_GUARD)
    except subprocess.TimeoutExpired:
        started.kill()
        pytest.fail(f"{what}: `{' '.join(map(str, started.args))}` did not end within {HANG_GUARD} s")
    done = started.wait()
    return Run(done.args, done.returncode, done.stdout, done.stderr)


# The load's grace (10 s past the budget, for a busy machine's imports) is set to 0 in the
# process, so that the test waits out no clock: the file never loads, at any speed, and only
# the watchdog ends the command (without it, the hang guard fails the test)
NO_LOAD_GRACE = "import bnproof.cli.load_budget as load_budget\nload_budget.GRACE = 0.0"


@pytest.mark.parametrize("command", ["fuzz", "prove"])
def test_a_claim_file_that_never_finishes_loading_keeps_the_time_budget(tmp_path, command):
    """A loop at a claim file's top level ran in the command's own process, before any
    worker whose budget is enforced: `fuzz/prove --time-budget 2` waited forever."""
    (claim,) = install(tmp_path, "loops_at_import.py")
    extra = ["--no-jax", "--no-timings"] if command == "fuzz" else []
    run = ended(Started(command, claim, "--time-budget", "0.1", *extra, cwd=tmp_path, env=env_for(tmp_path),
                        prelude=NO_LOAD_GRACE), "a claim file that never loads")
    assert_clean(run)
    assert run.code == BAD_INPUT, run
    assert len(run.stderr.strip().splitlines()) == 1 and "did not finish loading" in run.stderr, run


# ------------------------------------------------------------------ closed by numpy's float64 reading
# (bnproof/reading/, claims/second_reading.py): every exact reading holds values in object arrays,
# where numpy raises TypeError for np.isfinite and has no float64 dtype; at the commit before it,
# each of these gave a wrong verdict.


def test_a_swallowed_numpy_type_error_proves_nothing(tmp_path):
    (claim,) = install(tmp_path, "isfinite_identity.py")
    assert_not_proved(prove(tmp_path, claim))
    assert_fuzz_claims_no_proof(fuzz(tmp_path, claim, "--max-examples", "20"), tmp_path / "fuzz-out")
    assert_verify_does_not_hold(verify(tmp_path, claim, Y))


def test_a_swallowed_numpy_type_error_refutes_nothing(tmp_path):
    (claim,) = install(tmp_path, "isnan_true.py")
    assert_not_refuted(fuzz(tmp_path, claim, "--max-examples", "20"))
    assert_not_refuted(verify(tmp_path, claim, Y))


def test_dtype_of_an_object_array_refutes_nothing(tmp_path):
    """fuzz --no-jax refuted it; check --claim and latex --claim accepted its certificate
    (dtype_true.refutation.json, made by the commit before numpy's reading)."""
    (claim,) = install(tmp_path, "dtype_true.py")
    assert_not_refuted(fuzz(tmp_path, claim, "--max-examples", "20"))
    cert = CLAIMS / "dtype_true.refutation.json"
    assert bnproof(tmp_path, "check", cert).code == OK  # the checker judges the program: it is sound
    for args in (("check", "--claim", claim, cert), ("latex", cert, "--claim", claim, "-o", tmp_path / "d.tex")):
        run = bnproof(tmp_path, *args)
        assert_clean(run)
        assert run.code == REJECTED, run


# ------------------------------------------------------------------ closed at the mechanism
# The exact readings refuse, and poison on, what only floats answer: an array's dtype, numpy's
# ufuncs with no exact meaning (np.isfinite), float conversions (program/trace.py, claims/xp.py,
# symbolic_m/values.py, reading/arrays.py); and the float checks fail closed where floats computed
# a number the exact reading's operations do not explain (reading/floats.py).  On the previous
# main each of these gave a wrong verdict; tests/test_redteam_second_reading.py has a test per
# mechanism, each failing there.


def test_an_infinite_rounding_magnitude_does_not_refute_a_true_claim(tmp_path):
    """y.dtype == object in the exact readings' branch plus tiny/tiny − 1 (κ infinite): the
    float checks compared nothing and verify refuted Σy² ≥ 0."""
    (claim,) = install(tmp_path, "dtype_infinite_kappa.py")
    assert_not_refuted(verify_with_jax(tmp_path, claim, Y))  # JAX on: both float checks asked


def test_an_overflowing_float_evaluation_does_not_refute_a_true_claim(tmp_path):
    """The same with big − big (10⁴⁰⁰, overflowing): fuzz refuted it."""
    (claim,) = install(tmp_path, "dtype_overflow.py")
    assert_not_refuted(fuzz(tmp_path, claim, "--max-examples", "20"))


def test_an_infinite_rounding_magnitude_proves_nothing(tmp_path):
    """np.isfinite's TypeError on object arrays, swallowed: Σy = 0 was proved."""
    (claim,) = install(tmp_path, "isfinite_infinite_kappa.py")
    run = prove(tmp_path, claim)
    certificates = sorted((tmp_path / "proofs").rglob("*.proof.json"))
    for cert in certificates:  # whatever prove said, no certificate of it may be bound to the claim
        assert bnproof(tmp_path, "check", "--claim", claim, cert).code == REJECTED
    assert_not_proved(run)
    assert_verify_does_not_hold(verify(tmp_path, claim, Y))


# ------------------------------------------------------------------ the search and the commands


def test_an_identity_proved_at_part_of_its_sizes_is_not_verified_exactly(tmp_path):
    (claim,) = install(tmp_path, "partial_exact_sizes.py")
    run = fuzz(tmp_path, claim, "--max-examples", "20")
    assert_clean(run)
    assert fuzz_entry(run)["verdict"] != "verified-exactly", run
    # it is false: at m = 9, y = 7/13 everywhere, the residual is −1
    assert verify(tmp_path, claim, {"y": ["7/13"] * 9}).code == REFUTED


def test_fuzz_size_outside_the_declared_range_refutes_nothing(tmp_path):
    """The claim declares m = 2 only, where it is true; `--size m=3` refuted it with a
    certificate that `check --claim` rejects (class 6, through fuzz's --size)."""
    (claim,) = install(tmp_path, "first_two.py")
    run = fuzz(tmp_path, claim, "--size", "m=3", "--max-examples", "20")
    assert_not_refuted(run)
    assert run.code == BAD_INPUT, run


def test_a_size_numpy_refuses_proves_nothing(tmp_path):
    """symbolic_m/namespace.py: ones(−1) was the empty vector (numpy raises ValueError)."""
    (claim,) = install(tmp_path, "ones_negative.py")
    run = prove(tmp_path, claim)
    assert_not_proved(run)
    assert not list((tmp_path / "proofs").rglob("*.proof.json")), run


def test_huge_exponents_in_the_data_do_not_hang_verify(tmp_path):
    """search/certify.py wrote the residual out with SymPy after the decision, whatever the
    size of its numbers (here about 10^8 digits): `verify` hung, with no budget to stop it."""
    (claim,) = install(tmp_path, "huge_powers.py")
    data = write_json(tmp_path, "data.json", {"y": ["1e400", "1e-400"]})
    run = ended(Started("verify", claim, "--data", data, "--no-crosscheck", cwd=tmp_path, env=env_for(tmp_path)),
                "verify of huge exponents")
    assert_clean(run)
    assert run.code in (OK, REFUTED, UNDECIDED), run


def test_prove_refuses_two_claims_with_one_id(tmp_path):
    """cli/prove.py: the worker loads a claim by its id, the first of that id in the file."""
    (claim,) = install(tmp_path, "same_id.py")
    run = prove(tmp_path, claim)
    assert_not_proved(run)
    assert run.code == BAD_INPUT, run
    assert not list((tmp_path / "proofs").rglob("*.proof.json")), run
