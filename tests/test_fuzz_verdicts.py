"""`bnproof fuzz` verdicts are honest: vacuous searches are not survivals,
coverage is counted per size, magnitudes far from 1 are searched, and a
violation the checker cannot certify is never reported as refuted, never left
on disk and never an internal error.  Every run happens in a scratch folder;
commands run in this process (tests/cli_runner.py), their fuzz workers in
real ones, as for a user."""

import json
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bnproof.claims.api import load_file
from bnproof.errors import ExitCode
from bnproof.search import certify
from bnproof.search.fuzz import REFUTED, UNDECIDED, VACUOUS, fuzz
from cli_runner import run_cli

HERE = Path(__file__).parent

HEADER = '''
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import stats
'''
CLAIMS = {
    "unsatisfiable.py": HEADER + '''
UNSATISFIABLE = Claim(id="scratch/unsatisfiable", source="a test", statement="-1 - x^2 > 0 => false",
    variables=(Var("x", ()),), hypotheses=(lambda xp, x: -1 - x * x,),
    residual=lambda xp, x: -1 + 0 * x)
''',
    # false, but only where sigma > 100: then some |y_b| >= sigma > 100
    "large_sigma.py": HEADER + '''
LARGE_SIGMA = Claim(id="scratch/large-sigma", source="a test",
    statement=r"\\sigma > 100 \\Rightarrow \\max_b |y_b| \\le 100",
    variables=(Var("y", ("m",)),), sizes={"m": (2, 4)},
    hypotheses=(lambda xp, y: stats(xp, y)[1] ** 2 - 10 ** 4,),
    residual=lambda xp, y: 100 - xp.max(xp.abs(y)))
''',
    # sqrt(2 x^2) - sqrt(x^2) sqrt(2) is exactly 0, so "> 0" is refuted everywhere,
    # and only by an exact zero of surds
    "strict_zero.py": HEADER + '''
STRICT_ZERO = Claim(id="scratch/strict-zero", source="a test", statement="x", strict=True,
    variables=(Var("x", (), "positive"),),
    residual=lambda xp, x: xp.sqrt(2 * x * x) - xp.sqrt(x * x) * xp.sqrt(xp.q(2, 1)))
''',
}


def run(*args, cwd):
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(Path(cwd) / ".cache")})


@pytest.fixture
def scratch(tmp_path):
    for name, text in CLAIMS.items():
        (tmp_path / name).write_text(text)
    # widened to m = 1, where σ = 0 always: a size --size may only pick inside the declared range
    toy = (HERE / "claims" / "false_toy.py").read_text()
    assert '"m": (2, 5)' in toy
    (tmp_path / "toy.py").write_text(toy.replace('"m": (2, 5)', '"m": (1, 5)'))
    return tmp_path


def sums_are_consistent(result):
    rows = result["coverage"]
    for row in rows:
        assert 0 <= row["defined"] <= row["met_hypotheses"] <= row["drawn"], row
    assert sum(r["drawn"] for r in rows) == result["instances"]
    assert sum(r["met_hypotheses"] for r in rows) == result["met_hypotheses"]
    assert sum(r["defined"] for r in rows) == result["defined"]
    assert sum(result["phases"].values()) == result["instances"]


def test_an_unsatisfiable_hypothesis_is_vacuous_with_its_own_exit_code(scratch):
    args = ("fuzz", "unsatisfiable.py", "--no-jax", "--max-examples", "50", "--no-timings")
    text, as_json = run(*args, cwd=scratch), run(*args, "--json", cwd=scratch)
    assert text.returncode == as_json.returncode == ExitCode.VACUOUS == 9, text.stderr
    assert "vacuous: no instance met the hypotheses (50 instances drawn, seed 0)" in text.stdout
    assert "no counterexample" not in text.stdout
    (result,) = json.loads(as_json.stdout)
    assert result["verdict"] == "vacuous" and result["reason"] == "no instance met the hypotheses"
    assert result["instances"] == 50 and result["met_hypotheses"] == 0
    sums_are_consistent(result)


def test_one_sample_batches_are_vacuous_for_a_variance_hypothesis(scratch):
    # m = 1 gives sigma = 0 always, so the hypothesis sigma^2 > 0 never holds
    proc = run("fuzz", "toy.py", "--size", "m=1", "--no-jax", "--max-examples", "40", "--json",
               cwd=scratch)
    assert proc.returncode == ExitCode.VACUOUS, proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == "vacuous"
    assert result["coverage"] == [{"sizes": {"m": 1}, "drawn": 40, "met_hypotheses": 0, "defined": 0}]
    assert not (scratch / "bnproof-out").exists()


def test_a_violation_that_needs_sigma_over_100_is_refuted_and_certified(scratch):
    proc = run("fuzz", "large_sigma.py", "--no-jax", "--json", cwd=scratch)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    (found,) = json.loads(proc.stdout)
    assert found["verdict"] == "refuted", found
    y = [Fraction(v) for v in found["counterexample"]["y"]]
    mean = sum(y) / len(y)
    assert sum((v - mean) ** 2 for v in y) / len(y) > 10 ** 4  # sigma > 100, by hand
    assert max(abs(v) for v in y) > 100
    check = run("check", found["certificate"], cwd=scratch)
    assert check.returncode == 0 and check.stdout.startswith("ACCEPTED"), check.stdout
    sums_are_consistent(found)


def test_coverage_is_reported_per_size_in_text_and_json(scratch):
    args = ("fuzz", "toy.py", "--size", "m=1", "--no-jax", "--max-examples", "30", "--no-timings")
    assert "coverage (drawn / met the hypotheses): m=1: 30 / 0\n" in run(*args, cwd=scratch).stdout
    proc = run("fuzz", "theorem-4.1/as-derived", "--no-jax", "--no-prove", "--max-examples", "60",
               "--json", cwd=scratch)
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == "survived" and result["instances"] == 60
    assert len(result["coverage"]) > 1 and 0 < result["met_hypotheses"] <= 60
    sums_are_consistent(result)


def load_text(text):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "claims.py"
        path.write_text(text)
        return {c.id: c for c in load_file(path)}


def test_random_batches_reach_large_magnitudes():
    from bnproof.search.space import random_batch

    big = load_text(CLAIMS["large_sigma.py"])["scratch/large-sigma"]
    y = random_batch(big, {"m": 3}, 2000, np.random.default_rng(0))["y"]
    sigma = y.std(axis=1)
    assert (sigma > 100).sum() > 20 and (sigma < 0.01).sum() > 20


def test_gradient_steps_push_failing_hypotheses_before_the_residual():
    from bnproof.claims import Claim, Var
    from bnproof.search.batched import BatchedResidual

    # inside the hypothesis (x > 3) the residual 5 - x falls as x grows; from x = 0
    # the residual alone would also push x up, so make it push the other way first:
    # (x - 1)^2 is smallest at x = 1, outside the hypothesis
    thin = Claim(id="scratch/thin", source="a test", statement="x", variables=(Var("x", ()),),
                 hypotheses=(lambda xp, x: x - 3,), residual=lambda xp, x: (x - 1) ** 2)
    kernel = BatchedResidual(thin, {})
    start = {"x": np.zeros(16)}
    assert not kernel.screen(start).met.any()
    moved = kernel.descend(start)
    assert kernel.screen(moved).met.all(), moved["x"]


def test_a_certificate_the_checker_rejects_is_never_a_refutation(scratch, monkeypatch):
    from bnproof.checker import Rejected

    def reject(document):
        raise Rejected("a forged rejection")

    monkeypatch.setattr(certify, "check_document", reject)
    (toy,) = load_file(scratch / "toy.py")
    outcome = fuzz(toy, seed=1, max_examples=60, use_jax=False)
    assert outcome.verdict == UNDECIDED and outcome.refutation is None
    assert outcome.reason == ("an exact violation was found but the checker cannot certify it: "
                              "a forged rejection")


def test_the_search_heads_for_a_counterexample_the_checker_accepts(scratch, monkeypatch):
    from bnproof.checker import Rejected, check_document

    def no_zero_samples(document):  # a checker that cannot certify any batch with a 0 in it
        if "0" in document["instance"]["y"]:
            raise Rejected("a sample is 0")
        return check_document(document)

    monkeypatch.setattr(certify, "check_document", no_zero_samples)
    (toy,) = load_file(scratch / "toy.py")
    outcome = fuzz(toy, seed=1, max_examples=200, use_jax=False)
    assert outcome.verdict == REFUTED
    assert all(v != 0 for v in outcome.counterexample["y"])
    # by hand: z_1 = beta + gamma * (y_1 - mu) / sigma exceeds beta + |gamma|
    y, gamma = outcome.counterexample["y"], outcome.counterexample["gamma"]  # beta cancels
    mu = sum(y) / len(y)
    var = sum((v - mu) ** 2 for v in y) / len(y)
    t = gamma * (y[0] - mu)  # z_1 - beta = t / sigma > |gamma|  <=>  t > 0 and t^2 > gamma^2 var
    assert t > 0 and t * t > gamma * gamma * var
    monkeypatch.undo()
    assert check_document(json.loads(outcome.refutation.document)).startswith("toy/bounded-bn-output refuted")


def test_an_uncertifiable_exact_violation_is_undecided_and_leaves_no_file(scratch):
    proc = run("fuzz", "strict_zero.py", "--no-jax", "--max-examples", "30", "--json", cwd=scratch)
    assert proc.returncode in (ExitCode.UNDECIDED, ExitCode.REFUTED), proc.stderr
    assert "Traceback" not in proc.stderr
    (result,) = json.loads(proc.stdout)
    certificate = scratch / "bnproof-out" / "scratch" / "strict-zero.json"
    if result["verdict"] == UNDECIDED:  # the checker cannot decide the exact zero
        assert result["reason"].startswith("an exact violation was found but the checker cannot certify it: ")
        assert not certificate.exists()
        assert not list(certificate.parent.glob(".strict-zero*"))  # no temporary left either
    else:  # a checker that decides exact zeros certifies it
        assert result["verdict"] == REFUTED
        check = run("check", str(certificate), cwd=scratch)
        assert check.returncode == 0, check.stdout


def test_claims_without_variables_end_in_a_verdict():
    text = '''
from bnproof.claims import Claim

OUTSIDE = Claim(id="scratch/outside", source="a test", statement="x", variables=(),
                hypotheses=(lambda xp: xp.q(-1, 1),), residual=lambda xp: xp.q(1, 1))
FALSE = Claim(id="scratch/false", source="a test", statement="x", variables=(),
              residual=lambda xp: xp.sqrt(xp.q(2, 1)) - xp.q(3, 2))
'''
    claims = load_text(text)
    assert fuzz(claims["scratch/outside"]).verdict == VACUOUS
    refuted = fuzz(claims["scratch/false"])
    assert refuted.verdict == REFUTED and refuted.counterexample == {}
    assert refuted.refutation.residual_text == "-3/2 + sqrt(2)"


def test_a_claim_whose_code_fails_is_bad_input_with_its_line_not_an_internal_error(tmp_path):
    (tmp_path / "bug.py").write_text('''
from bnproof.claims import Claim, Var

BUG = Claim(id="scratch/bug", source="a test", statement="x", variables=(Var("x", ()),),
            residual=lambda xp, x: x + "a string")
''')
    proc = run("fuzz", "bug.py", "--no-jax", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "bug.py:5: claim scratch/bug cannot be traced: TypeError" in proc.stderr


def test_a_claim_defined_nowhere_in_exact_arithmetic_is_vacuous_not_survived(tmp_path):
    # z = √2 + √3 − √(5 + 2√6) is exactly 0, about 1e-16 in floats: floats find the
    # residual 1/z − 1/z defined (and 0) everywhere, exact arithmetic nowhere
    path = tmp_path / "nowhere.py"
    path.write_text(
        "from bnproof.claims import Claim, Var\n"
        "def z(xp, x):\n"
        "    return xp.sqrt(xp.q(2)) + xp.sqrt(xp.q(3)) - xp.sqrt(xp.q(5) + 2 * xp.sqrt(xp.q(6))) + 0 * x\n"
        "C = Claim(id='t/nowhere', source='s', statement='1/z - 1/z = 0', kind='identity',\n"
        "          variables=(Var('x', ()),), sizes={},\n"
        "          residual=lambda xp, x: 1 / z(xp, x) - 1 / z(xp, x))\n")
    from bnproof.claims.api import load_file
    from bnproof.search.fuzz import VACUOUS, fuzz

    outcome = fuzz(load_file(path)[0], max_examples=30, time_budget=30, use_jax=False)
    assert outcome.verdict == VACUOUS and "decided exactly" in outcome.reason
    assert outcome.coverage.total().defined > 0  # the floats alone would have said survived


def test_a_residual_that_is_not_a_scalar_is_bad_input_with_its_line_not_vacuous(tmp_path):
    path = tmp_path / "vector.py"
    path.write_text("from bnproof.claims import Claim, Var\n"
                    "C = Claim(id='t/vector', source='s', statement='y >= 0',\n"
                    "          variables=(Var('y', ('m',)),), sizes={'m': (2, 3)},\n"
                    "          residual=lambda xp, y: y)\n")
    from bnproof.claims.api import load_file
    from bnproof.search.fuzz import fuzz

    with pytest.raises(ValueError, match="must be a scalar"):
        fuzz(load_file(path)[0], max_examples=10, time_budget=300, use_jax=False)
    proc = run_cli("fuzz", str(path), "--time-budget", "300", cwd=tmp_path)
    # the claim's mistake (issue 22): exit 3 naming its file and line, not "undecided"
    assert proc.returncode == ExitCode.BAD_INPUT and "must be a scalar" in proc.stderr
    assert f"{path}:4" in proc.stderr
