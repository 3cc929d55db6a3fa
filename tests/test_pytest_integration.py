"""bnproof.testing (docs/testing.md): claims as pytest tests.  A generated test
module runs through pytest in a subprocess: the false example claim fails with
its exact counterexample in the output, the true one passes, pins are decided
exactly first, and vacuous claims fail with their reason.  The counterexample
is checked by hand below, not by the code under test."""

import inspect
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.errors import BadInput
from bnproof.testing import ClaimNotEstablished, ClaimRefuted, check_claim, claim_test, example, holds

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples" / "decision_boundaries.py"
TOY = ROOT / "tests" / "claims" / "false_toy.py"

# A dead BN–ReLU unit, by hand: X = (0, 1)ᵀ, W1 = 1 gives y = (0, 1), which BN (γ1 = 1,
# β1 = 0) normalizes to (−1, 1); W2 = 1 and BN again give ŷ = (−1, 1), so with γ2 = 1,
# β2 = −1 the unit's outputs are (−2, 0): max_b ReLU(z_b) = 0, and "> 0" fails.
DEAD = {"X": [[0], [1]], "W1": [[1]], "gamma1": [1], "beta1": [0], "W2": [[1]], "gamma2": [1],
        "beta2": [-1]}
DEAD_LINES = ["X = [0; 1]", "W1 = [1]", "gamma1 = (1)", "beta1 = (0)", "W2 = [1]", "gamma2 = (1)",
              "beta2 = (−1)", "residual = 0 ≈ 0 ≤ 0 (decided by exact rational)"]

MODULE = f'''
import bnproof
from bnproof.claims import Claim, Var
from bnproof.testing import check_claim, claim_test, example, holds

CUTS, NEVER_DEAD = bnproof.load({str(EXAMPLES)!r})
UNSATISFIABLE = Claim(id="scratch/unsatisfiable", source="a test", statement="x",
                      variables=(Var("x", ()),), hypotheses=(lambda xp, x: -1 - x * x,),
                      residual=lambda xp, x: -1 + 0 * x)

# budgets no search here reaches at any speed: each ends at its example count, its shrinking done
test_never_dead = claim_test(NEVER_DEAD, time_budget=300, jax=False)
test_vacuous = claim_test(UNSATISFIABLE, time_budget=300, jax=False, max_examples=50)


@example(X=[[0], [1]], W1=[[1]], gamma1=[1], beta1=[0], W2=[[1]], gamma2=[1])
@holds(CUTS, time_budget=300, jax=False, max_examples=60)
def test_cuts(result):
    assert result.verdict == "survived" and result.met_hypotheses > 0


@example(**{DEAD!r})
@holds(NEVER_DEAD, search=False)
def test_pinned_counterexample():
    pass


@example(X=[[0], [0]], W1=[[1]], gamma1=[1], beta1=[0], W2=[[1]], gamma2=[1])
@holds(CUTS, search=False)
def test_pinned_outside():
    pass


def test_check_claim_in_a_body():
    result = check_claim(CUTS, time_budget=300, jax=False, max_examples=30)
    assert result.instances == 30
'''


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pytest_integration")
    (folder / "test_generated.py").write_text(MODULE, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-p", "no:benchmark",
                           "test_generated.py"], cwd=folder, capture_output=True, text=True)
    return folder, proc


def test_the_false_claim_fails_with_its_counterexample(run):
    _, proc = run
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "FAILED test_generated.py::test_never_dead" in out
    head = ("ClaimRefuted: examples/bn-relu-units-never-dead (bnproof docs, decision-boundary example "
            "(a false folk claim)) is false; falsifying example (found by fuzz, seed 0, after")
    assert head in out
    block = out[out.index(head):]
    assert [line.strip() for line in block.splitlines()[1:9]] == DEAD_LINES
    assert "its certificate was accepted by the independent checker" in block


def test_the_true_claim_passes_after_its_pin(run):
    _, proc = run
    assert "PASSED test_generated.py::test_cuts" in proc.stdout
    assert "PASSED test_generated.py::test_check_claim_in_a_body" in proc.stdout


def test_pins_are_decided_exactly(run):
    _, proc = run
    out = proc.stdout
    assert "FAILED test_generated.py::test_pinned_counterexample" in out
    pinned = out[out.index("falsifying example (pinned example 1)"):]
    assert [line.strip() for line in pinned.splitlines()[1:9]] == DEAD_LINES
    assert "FAILED test_generated.py::test_pinned_outside" in out
    # X = (0, 0)ᵀ: σ = 0 in the first BN unit, so BN divides by zero
    assert ("examples/bn-relu-hyperplanes-cut-the-batch: pinned example 1 is outside the claim "
            "(outside the claim's domain: division by zero") in out


def test_a_vacuous_claim_fails_with_its_reason(run):
    folder, proc = run
    assert "FAILED test_generated.py::test_vacuous" in proc.stdout
    assert "scratch/unsatisfiable (a test) is vacuous, not established" in proc.stdout
    assert "vacuous: no instance met the hypotheses" in proc.stdout
    assert "7 failed" not in proc.stdout and "4 failed, 2 passed" in proc.stdout
    # nothing written (but pytest's own cache of the rewritten test module, where bytecode is
    # written at all)
    written = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert [w for w in written if not re.fullmatch(r"__pycache__/test_generated\.[\w.-]+-pytest-[\w.-]+\.pyc", w)] \
        == ["test_generated.py"], written


# -- in-process -------------------------------------------------------------------------


def test_check_claim_raises_with_the_result():
    with pytest.raises(ClaimRefuted) as err:
        check_claim(TOY, seed=1, jax=False)
    assert isinstance(err.value, AssertionError) and err.value.result.refuted
    # typeset as the report shows it (1 − √2), not in SymPy's text (1 - sqrt(2))
    assert "  y = (1, 0, 0)\n  gamma = 1\n  beta = 0\n  residual = 1 − √2 ≈ −0.414214 < 0" in str(err.value)


def test_pins_run_first_top_to_bottom_and_read_floats_as_decimals():
    seen = []

    @example(y=[0.5, "1/2", 1], gamma=1, beta=Fraction(1, 3))  # y = (1/2, 1/2, 1): holds
    @example(y=[1, 0, 0], gamma=1, beta=0)  # ŷ_1 = √2 > 1 = β + |γ|: refuted
    @holds(TOY, search=False)
    def test_toy():
        seen.append("body")

    with pytest.raises(ClaimRefuted, match=r"pinned example 2\):\n  y = \(1, 0, 0\)"):
        test_toy()
    assert seen == []
    test_toy.__bnproof_examples__.pop()
    test_toy()
    assert seen == ["body"]


def test_a_pin_must_name_the_claims_variables():
    with pytest.raises(BadInput, match=r"gives \['gamma', 'y'\]; the claim's variables are \['y', 'gamma', 'beta'\]"):
        check_claim(TOY, examples=[{"y": [1, 2], "gamma": 1}], search=False)
    with pytest.raises(BadInput, match="not a finite number"):
        check_claim(TOY, examples=[{"y": [1, float("inf")], "gamma": 1, "beta": 0}], search=False)


def test_a_claim_test_is_a_plain_function_and_a_pin_outside_the_claim_fails():
    test = claim_test(TOY, search=False, examples=[{"y": [1, 1], "gamma": 1, "beta": 0}])
    assert test.__name__.startswith("test_") and not inspect.signature(test).parameters
    with pytest.raises(ClaimNotEstablished, match="pinned example 1 is outside the claim"):  # σ = 0
        test()
