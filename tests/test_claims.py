"""Claims as code: exact decisions, fuzzing from the command line (in this
process, tests/cli_runner.py; its fuzz worker is a real process), soundness."""

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.claims.api import all_claims, load_file, resolve
from bnproof.claims.decide import HOLDS, REFUTED, decide, exact_instance
from bnproof.errors import BadInput, ExitCode
from bnproof.search.fuzz import SURVIVED, fuzz
from cli_runner import run_cli

HERE = Path(__file__).parent
# for runs whose outcome needs the search, its shrinking or its proofs to end by themselves
# (a count, a shrunk size, the same bytes twice): a budget no run reaches at any speed
GENEROUS = "300"
CONTROLS = load_file(HERE / "claims" / "controls.py")


def run(*args, cwd, **extra_env):
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(Path(cwd) / ".cache"), **extra_env})


def one(name):
    (claim,) = resolve(name)
    return claim


def test_theorem_4_1_as_printed_fails_where_the_proof_says_1_over_m():
    # by hand: y = (0, 1) gives μ = 1/2, σ = 1/2, ŷ = (−1, 1); with g = (0, 1) Fact C.1 gives
    # ∇ = (2g − 1 − ŷ)·1 = 0, while the printed bound is 4(1 − 1/2 − 1/√2) = 2 − 2√2 < 0.
    inst = exact_instance({"y": [0, 1], "g": [0, 1], "gamma": 1})
    printed = decide(one("theorem-4.1"), inst)
    assert printed.verdict == REFUTED
    value = printed.residual.value
    assert abs(float(value.lo) - (2 - 2 * 2 ** 0.5)) < 1e-12 and value.hi < 0
    assert decide(one("theorem-4.1/as-derived"), inst).verdict == HOLDS


def test_remark_2_7_printed_fails_and_corrected_holds():
    inst = exact_instance({"z": [1, 3]})  # μ = 2, σ = 1: the printed β = μ/σ = μ happens to work
    assert decide(one("remark-2.7"), inst).verdict == HOLDS
    inst = exact_instance({"z": [1, 5]})  # μ = 3, σ = 2: ẑ = z − 3 + 3/2 ≠ z
    assert decide(one("remark-2.7"), inst).verdict == REFUTED
    assert decide(one("remark-2.7/corrected"), inst).verdict == HOLDS


def test_example_3_2_refutes_minima_preserved():
    inst = exact_instance({"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "gamma": 1, "beta": 0})
    assert decide(one("observation-4.3/minima-preserved"), inst).verdict == REFUTED


def test_lemma_claim_agrees_with_verify_on_example_3_2():
    inst = exact_instance({"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3], "gamma": 1})
    decision = decide(one("lemma-4.5"), inst)
    assert decision.verdict == REFUTED and decision.residual.value.lo == Fraction(-72, 17)


def test_every_paper_claim_is_listed_with_source_and_statement():
    claims = all_claims()
    ids = {c.id for c in claims}
    for expected in ["santurkar2018/theorem-4.1", "santurkar2018/theorem-4.2",
                     "santurkar2018/theorem-4.2/part-2", "santurkar2018/observation-4.3",
                     "santurkar2018/theorem-4.4", "santurkar2018/lemma-4.5",
                     "santurkar2018/theorem-c.1", "santurkar2018/fact-c.1", "santurkar2018/fact-c.2",
                     "dannemann2025/example-3.2/gradient", "dannemann2025/remark-2.7"]:
        assert expected in ids
    for c in claims:
        assert c.source and c.statement and c.path
    aliases = [a for c in claims for a in c.aliases]
    assert len(aliases) == len(set(aliases))


@pytest.mark.parametrize("claim", CONTROLS, ids=[c.id for c in CONTROLS])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_negative_controls_are_never_refuted(claim, seed):
    outcome = fuzz(claim, seed=seed, max_examples=60, batch=512, time_budget=int(GENEROUS), use_jax=seed == 0)
    assert outcome.verdict == SURVIVED


def test_true_identities_survive():
    for name in ["fact-c.1", "fact-c.2", "theorem-4.1/as-derived", "remark-2.7/corrected"]:
        assert fuzz(one(name), seed=3, max_examples=40, use_jax=False).verdict == SURVIVED


def test_false_toy_claim_is_refuted_from_the_command_line_with_a_checked_certificate(tmp_path):
    target = tmp_path / "toy.py"
    target.write_text((HERE / "claims" / "false_toy.py").read_text())
    proc = run("fuzz", str(target), "--seed", "1", "--json", "--time-budget", GENEROUS, cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    (out,) = json.loads(proc.stdout)
    assert out["verdict"] == "refuted" and out["residual_float"] < 0
    cert = tmp_path / out["certificate"]
    check = run("check", str(cert), cwd=tmp_path)
    assert check.returncode == 0 and check.stdout.startswith("ACCEPTED")
    # shrunk to the smallest batch where it can fail: with m = 2, ŷ = ±1 and the bound holds
    assert len(out["counterexample"]["y"]) == 3


def test_same_seed_same_bytes(tmp_path):
    args = ("fuzz", "theorem-4.1", "--seed", "7", "--no-timings", "--no-jax", "--time-budget", GENEROUS)
    # one run in a process of its own: another interpreter, another hash seed (set order)
    first = subprocess.run([sys.executable, "-m", "bnproof", *args], capture_output=True, text=True,
                           cwd=tmp_path, env=dict(os.environ, BNPROOF_CACHE_DIR=str(tmp_path / ".cache")))
    second = run(*args, cwd=tmp_path)
    assert first.returncode == second.returncode == ExitCode.REFUTED
    assert first.stdout == second.stdout


def test_survivor_reports_instances_and_seed_never_proved(tmp_path):
    proc = run("fuzz", "remark-2.7/corrected", "--seed", "5", "--max-examples", "30", "--no-jax",
               "--no-prove", "--time-budget", GENEROUS, cwd=tmp_path)
    assert proc.returncode == 0
    assert "no counterexample in 30 instances, " in proc.stdout
    assert "met the hypotheses (seed 5," in proc.stdout
    assert "proved" not in proc.stdout.lower()


@pytest.mark.parametrize("args,fragment", [
    (("fuzz", "theorem-9.9"), "unknown claim"),
    (("fuzz", "broken.py"), "broken.py"),
    (("fuzz", "theorem-4.1", "--size", "m=0"), "impossible size"),
    (("fuzz", "theorem-4.1", "--size", "k=3"), "has no size 'k'"),
    (("fuzz", "theorem-4.1", "--size", "m=999"),
     "m = 999 is outside the sizes claim santurkar2018/theorem-4.1 declares (m from 2 to 6)"),
])
def test_bad_fuzz_input_gives_one_line_error(tmp_path, args, fragment):
    (tmp_path / "broken.py").write_text("from bnproof.claims import Claim\nCLAIM = Claim(id=1)\n")
    proc = run(*args, cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in proc.stderr


def test_list_shows_every_claim_with_a_verdict(tmp_path):
    proc = run("list", "--json", cwd=tmp_path)
    rows = json.loads(proc.stdout)
    assert {r["id"] for r in rows} == {c.id for c in all_claims()}
    for r in rows:
        assert r["source"] and r["verdict"] in {"refuted", "survived", "verified-exactly"}, r
        if r["verdict"] == "refuted":
            assert r["certificate"]


def test_identities_are_proved_exactly_at_small_sizes():
    from bnproof.claims.prove import PROVED, prove_at

    for name in ["fact-c.1", "fact-c.2", "theorem-4.1/as-derived", "remark-2.7/corrected"]:
        for m in (2, 3):
            result = prove_at(one(name), {"m": m})
            assert result.status == PROVED and decide(one(name), result.witness).verdict == HOLDS
    # a false identity is not "proved" (more in test_prove_soundness.py)
    assert not prove_at(one("remark-2.7"), {"m": 3}).proved


def test_exact_note_appears_for_proved_identities(tmp_path):
    proc = run("fuzz", "remark-2.7/corrected", "--max-examples", "10", "--no-jax", "--json",
               "--time-budget", GENEROUS, cwd=tmp_path)
    (out,) = json.loads(proc.stdout)
    assert out["verdict"] == "verified-exactly" and out["exact"] == "verified exactly for 2 ≤ m ≤ 6"


def test_malformed_claim_file_is_bad_input(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("x = 1\n")
    with pytest.raises(BadInput, match="defines no Claim"):
        load_file(path)


@pytest.mark.parametrize("activation", ["identity", "relu", "leaky_relu", "abs"])
def test_mlp_block_agrees_exactly_and_in_jax(activation):
    """A 2-hidden-layer BN network, traced exactly and run in JAX, on the same rationals."""
    import numpy as np

    from bnproof.claims import xp as namespaces
    from bnproof.claims.blocks import mlp
    from bnproof.program.evaluate import run
    from bnproof.program.trace import Program

    rng = np.random.default_rng(3)
    X = rng.integers(-3, 4, size=(5, 3))
    W1, W2, W3 = (rng.integers(-2, 3, size=s) for s in [(4, 3), (2, 4), (1, 2)])
    g1, b1, g2, b2 = [1, 2, 1, 1], [0, 1, 0, -1], [2, 1], [1, 0]

    def layers(xp, f):
        return [(f(W1), f(g1), f(b1)), (f(W2), f(g2), f(b2)), f(W3)]

    program = Program()
    tx = namespaces.trace(program)
    lift = lambda a: np.vectorize(program.const, otypes=[object])(np.asarray(a))  # noqa: E731
    out = mlp(tx, lift(X), layers(tx, lift), activation)
    exact = [run(program.steps, None, 80)[node.index] for node in out.ravel()]
    jx = namespaces.numeric()
    num = np.asarray(mlp(jx, jx.asarray(X, dtype=float), layers(jx, lambda a: jx.asarray(a, dtype=float)),
                         activation)).ravel()
    for interval, value in zip(exact, num):
        assert float(interval.lo) - 1e-9 <= value <= float(interval.hi) + 1e-9


EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def _dead_units(instance):
    """Layer 2's BN outputs per unit, by hand with SymPy, independent of the claim's code."""
    import sympy

    def q(x):
        return sympy.Rational(Fraction(x).numerator, Fraction(x).denominator)

    def bn(column, gamma, beta):
        m = len(column)
        mu = sum(column) / m
        sigma = sympy.sqrt(sum((c - mu) ** 2 for c in column) / m)
        return [q(gamma) * (c - mu) / sigma + q(beta) for c in column]

    X = [[q(x) for x in row] for row in instance["X"]]
    W1, W2 = instance["W1"], instance["W2"]
    H = list(zip(*[[sympy.Max(0, z) for z in bn([sum(q(w) * x for w, x in zip(W1[j], row)) for row in X],
                                                instance["gamma1"][j], instance["beta1"][j])]
                   for j in range(len(W1))]))
    return [bn([sum(q(w) * h for w, h in zip(W2[k], row)) for row in H],
               instance["gamma2"][k], instance["beta2"][k]) for k in range(len(W2))]


def test_decision_boundary_example_finds_a_dead_unit_and_the_cut_claim_survives():
    cuts, never_dead = load_file(EXAMPLES / "decision_boundaries.py")
    outcome = fuzz(never_dead, seed=3, max_examples=150, use_jax=False)
    assert outcome.verdict == REFUTED
    units = _dead_units(outcome.counterexample)
    assert any(all(z <= 0 for z in unit) for unit in units)  # a unit silent on the whole batch
    survived = fuzz(cuts, seed=3, max_examples=150, use_jax=False)
    assert survived.verdict == SURVIVED and survived.instances >= 150


INTERRUPTING = """
from bnproof.claims import Claim, Var

def _interrupt(xp, y):
    raise KeyboardInterrupt

STOP = Claim(id="toy/zz-interrupted", source="a test", statement="y = y",
             variables=(Var("y", ("m",)),), sizes={"m": (2, 2)}, kind="identity",
             residual=_interrupt)
"""


def test_record_saves_each_verdict_at_once_and_resume_skips_them(tmp_path):
    proofs = tmp_path / "proofs"
    (proofs / "mine").mkdir(parents=True)
    (proofs / "mine" / "a_toy.py").write_text((HERE / "claims" / "false_toy.py").read_text())
    (proofs / "mine" / "b_stop.py").write_text(INTERRUPTING)
    env = {"BNPROOF_PROOFS": str(proofs)}
    common = ("--seed", "4", "--max-examples", "40", "--no-jax", "--no-timings", "--record", "--time-budget", GENEROUS)
    interrupted = run("fuzz", "toy", *common, cwd=tmp_path, **env)
    assert interrupted.returncode == 130 and "Traceback" not in interrupted.stderr
    assert "REFUTED" in interrupted.stdout  # the first claim's report was not held back
    recorded = json.loads((proofs / "verdicts.json").read_text())
    assert list(recorded) == ["toy/bounded-bn-output"] and recorded["toy/bounded-bn-output"]["seed"] == 4
    toy = "toy/bounded-bn-output"
    resumed = run("fuzz", toy, *common, "--resume", cwd=tmp_path, **env)
    assert resumed.returncode == ExitCode.REFUTED
    assert "already recorded with seed 4 (refuted); skipped" in resumed.stdout
    other_seed = run("fuzz", toy, "--seed", "5", "--max-examples", "40", "--no-jax", "--record",
                     "--overwrite", "--resume", cwd=tmp_path, **env)  # another seed replaces only if asked
    assert "skipped" not in other_seed.stdout and "REFUTED" in other_seed.stdout
    alone = run("fuzz", toy, "--resume", cwd=tmp_path, **env)
    assert alone.returncode == ExitCode.BAD_INPUT and alone.stderr.startswith("error: --resume")
