"""Issue 22, failing first: every class of wrong verdict, end to end.

Each attack is a claim file in tests/adversarial/claim_files/ (its docstring says what
it attacks and whether it is true), run through the command line in this process
(tests/cli_runner.py) and judged by tests/adversarial/rules.py: a TRUE claim is never
refuted, a FALSE one never proved or said to hold where it is false, nothing crashes.
Truths are computed here with SymPy or Fractions, never with bnproof.

"7329b19:" in a docstring records what commit 7329b19 (before the fixes of issue 22)
did, so that the lead can follow these tests as the fixes land.  Runs that could
hang on a FIFO are real processes started together, with one shared guard, so that a
hang fails the test instead of blocking the suite; a residual that never returns ends
its run's budget the moment it loops (tests/budget_clock.py), at any speed."""

from __future__ import annotations

import os
import subprocess
import time
from fractions import Fraction

import pytest
import sympy

from adversarial import rules
from adversarial.rules import (BAD_INPUT, OK, REFUTED, REJECTED, UNDECIDED, assert_bad_input, assert_clean,
                               assert_fuzz_claims_no_proof, assert_not_proved, assert_not_refuted,
                               assert_value, assert_verify_does_not_hold, bnproof, certificate_instance,
                               counterexample, fuzz, fuzz_entry, install, prove, verify)
from budget_clock import GENEROUS, budget_ends_when_blocked
from cli_runner import Started, env_for


# ------------------------------------------------------------------ independent truths


def q(x) -> sympy.Rational:
    x = Fraction(x)
    return sympy.Rational(x.numerator, x.denominator)


def bn_gradients(y, g, gamma):
    """(∂f/∂y₀, ∂²f/∂γ∂y₀) for f = Σ g·BN(y; γ, 0) = γ·Σ g (y − μ)/σ, by SymPy's diff."""
    m = len(y)
    Y, G = sympy.symbols(f"y0:{m}", real=True), sympy.Symbol("gamma", real=True)
    mu = sympy.Add(*Y) / m
    sigma = sympy.sqrt(sympy.Add(*[(v - mu) ** 2 for v in Y]) / m)
    f = G * sympy.Add(*[q(w) * (v - mu) / sigma for w, v in zip(g, Y)])
    first = sympy.diff(f, Y[0])
    values = {**{s: q(v) for s, v in zip(Y, y)}, G: q(gamma)}
    return sympy.simplify(first.subs(values)), sympy.simplify(sympy.diff(first, G).subs(values))


def sum_of_cubed_yhat(y):
    """Σŷ³ by its definition (exact: σ³ = (σ²)^(3/2))."""
    y = [Fraction(v) for v in y]
    mu = sum(y) / len(y)
    var = sum((v - mu) ** 2 for v in y) / len(y)
    return q(sum((v - mu) ** 3 for v in y)) / q(var) ** sympy.Rational(3, 2)


# ------------------------------------------------------------------ class 1: nested xp.grad

NESTED_DATA = {"y": [1, 2, 4], "g": [1, 0, 0], "gamma": 2}


def test_c1_a_true_nested_gradient_identity_holds_at_an_instance(tmp_path):
    """γ·∂/∂γ(∂f/∂y₀) = ∂f/∂y₀.  7329b19: verify refutes it, exit 1, residual −6√14/49,
    certificate ACCEPTED."""
    first, second = bn_gradients(**NESTED_DATA)
    assert sympy.simplify(2 * second - first) == 0  # the claim is true at the instance
    run = verify(tmp_path, install(tmp_path, "c1_nested_true.py"), NESTED_DATA)
    assert_not_refuted(run)
    if run.code == OK:
        assert_value(run.json()["residual"], run.json()["residual_float"], 0, "residual", run)


def test_c1_a_true_nested_gradient_identity_survives_fuzz(tmp_path):
    """7329b19: fuzz refutes it at y = (0, 1, 0), g = (0, 0, 1), γ = 1 ("residual 3√2/4")."""
    assert_not_refuted(fuzz(tmp_path, install(tmp_path, "c1_nested_true.py")))


def test_c1_a_three_deep_nested_gradient_identity_is_not_refuted(tmp_path):
    """b·∂/∂b(a·∂/∂a(Σ g∘∇_y f)) = 6·Σ g∘∇_y f for f = a²b³Σy³.  7329b19: verify refutes it
    ("residual −60264"), and so does fuzz."""
    claim = install(tmp_path, "c1_nested_depth3.py")
    assert_not_refuted(verify(tmp_path, claim, {"y": [1, 2, 4], "g": [3, -1, 2], "a": 2, "b": 3}))
    assert_not_refuted(fuzz(tmp_path, claim))


def test_c1_a_false_nested_gradient_identity_does_not_hold(tmp_path):
    """∂²f/∂γ∂y₀ = 0 is false (it is ∂f/∂y₀/γ).  7329b19: verify says it holds (exit 0,
    residual 0)."""
    first, second = bn_gradients(**NESTED_DATA)
    assert second == first / 2 and second != 0
    run = verify(tmp_path, install(tmp_path, "c1_nested_false.py"), NESTED_DATA)
    assert_verify_does_not_hold(run)
    if run.code == REFUTED:
        assert_value(run.json()["residual"], run.json()["residual_float"], second, "residual", run)


def test_c1_a_false_nested_gradient_identity_is_not_verified_exactly(tmp_path):
    """7329b19: fuzz survives and prints "verified exactly for m ≤ 3", exit 0."""
    run = fuzz(tmp_path, install(tmp_path, "c1_nested_false.py"))
    assert_fuzz_claims_no_proof(run, tmp_path / "fuzz-out")
    if run.code == REFUTED:  # then at a true counterexample
        found = counterexample(fuzz_entry(run))
        assert bn_gradients(found["y"], found["g"], found["gamma"])[1] != 0, run


# ------------------------------------------------------------------ class 2: refusals swallowed


@pytest.mark.parametrize("name", ["c2_try_threshold.py", "c2_try_in_helper.py", "c2_try_threshold7.py"])
def test_c2_a_swallowed_refusal_is_not_a_proof(tmp_path, name):
    """try/except around what the symbolic tracer refuses (a comparison of m, xp.abs),
    in the claim or in a helper module.  7329b19: each "proved for every m", exit 0."""
    assert_not_proved(prove(tmp_path, install(tmp_path, name)))


def test_c2_fuzz_on_small_m_does_not_prove_a_claim_false_from_m_7(tmp_path):
    """The search at m = 3 survives (correctly), but the claim is −1 at m = 7, 8, 9.
    7329b19: fuzz prints "proved for every m" and writes a proof certificate."""
    run = fuzz(tmp_path, install(tmp_path, "c2_try_threshold7.py"), "--size", "m=3")
    assert run.code != REFUTED, run  # m = 3 has no counterexample
    assert_fuzz_claims_no_proof(run, tmp_path / "fuzz-out")


# ------------------------------------------------------------------ class 3: introspection


@pytest.mark.parametrize("name", ["c3_isinstance.py", "c3_getattr_size.py", "c3_len.py"])
def test_c3_introspection_is_not_a_proof(tmp_path, name):
    """isinstance(v, np.ndarray), getattr(v, "size", 1), len(v) in a helper: numpy and
    the tracer take different branches.  7329b19: each "proved for every m" (len: at
    d = 1, 2), exit 0."""
    assert_not_proved(prove(tmp_path, install(tmp_path, name)))


def test_c3_fuzz_refutes_the_isinstance_claim_at_a_true_counterexample(tmp_path):
    """Σy = 0 read through isinstance: any refutation must have Σy ≠ 0.  7329b19: refuted
    correctly (a control for the other class-3 tests)."""
    run = fuzz(tmp_path, install(tmp_path, "c3_isinstance.py"))
    assert_fuzz_claims_no_proof(run, tmp_path / "fuzz-out")
    if run.code == REFUTED:
        assert sum(counterexample(fuzz_entry(run))["y"]) != 0, run


# ------------------------------------------------------------------ class 4: copies


def test_c4_a_deep_copy_of_a_value_is_the_value(tmp_path):
    """deepcopy(Σy²) − Σy² = 0.  7329b19: verify at y = (1, 2) refutes it, "residual 1",
    certificate ACCEPTED."""
    assert_not_refuted(verify(tmp_path, install(tmp_path, "c4_deepcopy_true.py"), {"y": [1, 2]}))


def test_c4_a_refutation_states_the_true_residual(tmp_path):
    """deepcopy(Σy²) − Σy = 0 is false; at y = (1, 2) the residual is 5 − 3 = 2.
    7329b19: refuted with "residual 3", certificate ACCEPTED."""
    run = verify(tmp_path, install(tmp_path, "c4_deepcopy_value.py"), {"y": [1, 2]})
    assert_verify_does_not_hold(run)
    if run.code == REFUTED:
        assert_value(run.json()["residual"], run.json()["residual_float"], Fraction(2), "residual", run)
        assert certificate_instance(tmp_path / "verify-certificate.json") == {"y": [1, 2]}


@pytest.mark.parametrize("name", ["c4_deepcopy_true.py", "c4_deepcopy_input.py"])
def test_c4_deep_copies_neither_crash_prove_nor_are_refuted(tmp_path, name):
    """7329b19: prove exits 8 (IndexError) on both."""
    claim = install(tmp_path, name)
    assert_clean(prove(tmp_path, claim))
    assert_not_refuted(fuzz(tmp_path, claim))


def test_c4_a_copied_input_is_not_refuted_at_an_instance(tmp_path):
    """Σ copy(y)∘g = Σ y∘g.  7329b19: verify "undecided" (IndexError inside), exit 10."""
    run = verify(tmp_path, install(tmp_path, "c4_deepcopy_input.py"), {"y": [1, 2, 4], "g": [3, -1, 2]})
    assert_not_refuted(run)


@pytest.mark.parametrize("command", ["prove", "verify", "fuzz"])
def test_c4_a_gradient_that_keeps_its_argument_crashes_nothing(tmp_path, command):
    """The grad function stores its argument (a dual number, the symbolic tracer's
    internal grad-probe input) for the residual to read.  7329b19: prove exits 8
    ("unknown input 'grad-probe'"); verify exit 3; fuzz exit 10."""
    claim = install(tmp_path, "c4_grad_keeps_argument.py")
    run = {"prove": lambda: prove(tmp_path, claim), "verify": lambda: verify(tmp_path, claim, {"y": [1, 2]}),
           "fuzz": lambda: fuzz(tmp_path, claim)}[command]()
    assert_clean(run)


# ------------------------------------------------------------------ class 5: existential dead steps


EXISTENTIAL = [("c5_sigma_square.py", {"t": 0}), ("c5_dead_inverse.py", {"x": 0}),
               ("c5_dead_root.py", {"x": "1/2"})]


@pytest.mark.parametrize("name, data", EXISTENTIAL)
def test_c5_a_dead_step_is_no_reason_for_a_missing_witness(tmp_path, name, data):
    """True ∀∃ claims whose only witnesses make a step that nothing reads undefined.
    7329b19: each refuted at this instance ("no witness: z3 and cvc5 unsat"), certificate
    ACCEPTED."""
    assert_not_refuted(verify(tmp_path, install(tmp_path, name), data))


@pytest.mark.parametrize("name", ["c5_sigma_square.py", "c5_dead_inverse.py"])
def test_c5_fuzz_does_not_refute_a_true_existential_claim(tmp_path, name):
    """7329b19: fuzz refutes both (at t = 0, at x = 0)."""
    assert_not_refuted(fuzz(tmp_path, install(tmp_path, name)))


# ------------------------------------------------------------------ class 6: sizes are bound

ONLY_M2_AT_3 = {"y": [0, 0, 1]}
ONLY_D2_AT_3 = {"y": [1, 2], "w": [1, 1, 1]}


def test_c6_verify_refuses_data_outside_the_declared_sizes(tmp_path):
    """sizes m = (2, 2), data at m = 3.  7329b19: refuted (Σŷ³ = 3√2/2), exit 1."""
    assert_bad_input(verify(tmp_path, install(tmp_path, "c6_only_m2.py"), ONLY_M2_AT_3), naming=r"\bm\b")


def test_c6_verify_refuses_data_outside_a_fixed_size_d(tmp_path):
    """sizes d = (2, 2), w of length 3.  7329b19: refuted ((d − 2)·Σw² = 3), exit 1."""
    assert_bad_input(verify(tmp_path, install(tmp_path, "c6_only_d2.py"), ONLY_D2_AT_3), naming=r"\bd\b")


@pytest.mark.parametrize("name, data, size, value", [
    ("c6_only_m2.py", ONLY_M2_AT_3, '"m": (2, 2)', '"m": (2, 3)'),
    ("c6_only_d2.py", ONLY_D2_AT_3, '"d": (2, 2)', '"d": (2, 3)'),
])
def test_c6_check_claim_rejects_a_certificate_at_sizes_the_claim_does_not_declare(tmp_path, name, data, size, value):
    """A twin of the claim with a wider range (same id, statement, variables) is
    rightly refuted at m = 3 (d = 3); its certificate says nothing about the claim
    itself.  7329b19: `check --claim` ACCEPTED it, exit 0."""
    twin = install(tmp_path, name, replace={size: value}, as_name="twin.py")
    made = verify(tmp_path, twin, data)
    assert made.code == REFUTED, made  # a genuine refutation of the twin
    if name == "c6_only_m2.py":
        assert_value(made.json()["residual"], made.json()["residual_float"], sum_of_cubed_yhat([0, 0, 1]),
                     "residual", made)
    run = rules.check(tmp_path, tmp_path / "verify-certificate.json", install(tmp_path, name))
    assert_clean(run)
    assert run.code == REJECTED, run


# ------------------------------------------------------------------ class 7: overclaim


@pytest.mark.parametrize("name", ["c7_overclaim_identity.py", "c7_overclaim_inequality.py"])
def test_c7_a_proof_at_part_of_the_sizes_is_not_proved(tmp_path, name):
    """d in (1, 6), proved at d = 1, 2, 3 only, residual −1 at d ≥ 4.  7329b19: "proved
    for every m at d = 1, 2, 3", status proved, exit 0."""
    assert_not_proved(prove(tmp_path, install(tmp_path, name)))


# ------------------------------------------------------------------ class 8: the safeguard


@pytest.mark.parametrize("name", ["c8_sum_zero.py", "c8_constant.py"])
def test_c8_a_false_claim_that_agrees_at_degenerate_witnesses_is_not_proved(tmp_path, name):
    """The traced program and numpy differ by Σy (by Σ(y − μ)²), which vanishes at the
    witnesses the prover finds (Σy = 0, constant y).  7329b19: "proved for every m"."""
    assert_not_proved(prove(tmp_path, install(tmp_path, name)))


# ------------------------------------------------------------------ certificates 7329b19 issued

FROZEN = ["c1_nested_true.json", "c2_try_threshold.proof.json", "c3_getattr_size.proof.json",
          "c4_deepcopy_true.json", "c5_sigma_square.json", "c5_dead_inverse.json", "c8_sum_zero.proof.json"]


@pytest.mark.parametrize("certificate", FROZEN)
def test_check_claim_rejects_every_certificate_of_a_wrong_verdict(tmp_path, certificate):
    """tests/adversarial/frozen/ holds what 7329b19 certified for the wrong verdicts above
    (refutations of true claims, proofs of false ones), made from these very claim
    files.  Bound to its claim file, none may be accepted.  7329b19: all ACCEPTED, exit 0."""
    claim = install(tmp_path, certificate.split(".")[0] + ".py")
    run = rules.check(tmp_path, rules.FROZEN / certificate, claim)
    assert_clean(run)
    assert run.code == REJECTED, run


# ------------------------------------------------------------------ section 2: crashes


@pytest.mark.parametrize("command", ["verify", "fuzz", "prove"])
def test_a_vector_residual_is_bad_input_with_its_file_and_line(tmp_path, command):
    """7329b19: verify exit 3 without file:line; fuzz "undecided", exit 10; prove "not in
    the provable fragment", exit 10."""
    claim = install(tmp_path, "s2_vector_residual.py")
    run = {"verify": lambda: verify(tmp_path, claim, {"y": [1, 2]}), "fuzz": lambda: fuzz(tmp_path, claim),
           "prove": lambda: prove(tmp_path, claim)}[command]()
    assert_bad_input(run, naming=r"s2_vector_residual\.py:\d+")


def test_leaky_relu_with_an_exact_slope_is_decided(tmp_path):
    """xp.leaky_relu(x, xp.q(1, 10)), the form docs/claims.md documents.  At x = 3:
    max(3, 3/10) − 3/10 = 27/10 ≥ 0 holds; 3/10 − 3 = −27/10 refutes the false claim.
    7329b19: exit 3 (TypeError from Fraction(sympy.Rational))."""
    true = verify(tmp_path, install(tmp_path, "s2_leaky_true.py"), {"x": 3})
    assert_clean(true)
    assert true.code == OK, true
    assert_value(true.json()["residual"], true.json()["residual_float"], Fraction(27, 10), "residual", true)
    false = verify(tmp_path, install(tmp_path, "s2_leaky_false.py"), {"x": 3})
    assert_clean(false)
    assert false.code == REFUTED, false
    assert_value(false.json()["residual"], false.json()["residual_float"], Fraction(-27, 10), "residual", false)


def test_fuzz_decides_leaky_relu_with_an_exact_slope(tmp_path):
    """7329b19: both "undecided after 0 instances", exit 10."""
    true = fuzz(tmp_path, install(tmp_path, "s2_leaky_true.py"))
    assert_clean(true)
    assert true.code == OK, true
    false = fuzz(tmp_path, install(tmp_path, "s2_leaky_false.py"))
    assert_clean(false)
    assert false.code == REFUTED and counterexample(fuzz_entry(false))["x"] > 0, false


def test_a_moment_power_the_claim_never_wrote_is_decided(tmp_path):
    """E[B₀⁶⁴·B₀] − 2⁶⁴ − 1 on the law {1, 2} with equal weights: (1 + 2⁶⁵)/2 − 2⁶⁴ − 1
    = −1/2.  The claim writes a power 64 and a product, both documented; the degree-65
    moment is the engine's own.  7329b19: exit 3, "only integer powers 0..64 are traced"."""
    truth = Fraction(1 + 2**65, 2) - 2**64 - 1
    assert truth == Fraction(-1, 2)
    run = verify(tmp_path, install(tmp_path, "s2_moment_65.py"), {"X_support": [1, 2], "X_weights": [1, 1]})
    assert_clean(run)
    assert run.code in (REFUTED, rules.DISAGREEMENT), run
    if run.code == REFUTED:
        assert_value(run.json()["residual"], run.json()["residual_float"], truth, "residual", run)


def test_equality_hypotheses_receive_the_law(tmp_path):
    """c on the set c = E[X]; the equality reads the law X as the residual does.  At
    X = {1, 2} (equal weights), c = 3/2: on the set, residual 0, holds.  7329b19: exit 3
    (the equality got X_support/X_weights)."""
    claim = install(tmp_path, "s2_law_equality.py")
    run = verify(tmp_path, claim, {"X_support": [1, 2], "X_weights": [1, 1], "c": "3/2"})
    assert_clean(run)
    assert run.code == OK, run
    searched = fuzz(tmp_path, claim)
    assert_not_refuted(searched)
    assert searched.code not in (BAD_INPUT,), searched


# ------------------------------------------------------------------ section 3: bounded, near-ties


def test_fuzz_refutes_a_claim_false_by_less_than_float_rounding(tmp_path):
    """tanh(x² + 20) ≥ 1 is false at every x (by at most tanh(20) − 1 ≈ −8.5·10⁻¹⁸).
    7329b19: survives, exit 0, without JAX and with it."""
    assert sympy.N(sympy.tanh(20) - 1, 30) < 0
    claim = install(tmp_path, "s3_tanh_near_one.py")
    for extra in (("--no-jax",), ()):
        run = bnproof(tmp_path, "fuzz", claim, "--json", "--no-timings", "--time-budget", "300",
                      "--max-examples", "60", "--out-dir", tmp_path / "out", *extra)
        assert_clean(run)
        assert run.code == REFUTED, run
        entry = fuzz_entry(run)
        assert "x" in entry["counterexample"], run  # every x refutes it: any instance is right
        accepted = rules.check(tmp_path, tmp_path / "out" / "adv" / "tanh-near-one.json")
        assert accepted.code == OK, accepted


HANG_GUARD = 300  # seconds for all the runs below together (a refusal takes a second or two); only a hang reaches it


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """Runs that 7329b19 never ends, started together: name -> (folder, Started)."""
    runs = {}

    def start(name, *args, setup=lambda folder: None):
        folder = tmp_path_factory.mktemp(name)
        setup(folder)
        runs[name] = folder, Started(*args, cwd=folder, env=env_for(folder))

    def pipe(folder):
        os.mkfifo(folder / "pipe.json")

    def pipe_and_claim(folder):
        pipe(folder)
        install(folder, "c6_only_m2.py")

    start("check-fifo", "check", "pipe.json", setup=pipe)
    start("check-fifo-json", "check", "--json", "pipe.json", setup=pipe)
    start("verify-fifo", "verify", "c6_only_m2.py", "--data", "pipe.json", "--no-crosscheck", setup=pipe_and_claim)
    deadline = time.monotonic() + HANG_GUARD
    yield runs, deadline
    for _, run in runs.values():
        run.kill()


def ended(started, name) -> tuple:
    runs, deadline = started
    folder, run = runs[name]
    try:
        run.process.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        run.kill()
        pytest.fail(f"`bnproof {' '.join(run.args[1:])}` did not end within {HANG_GUARD} s: it hangs")
    done = run.wait()
    return folder, rules.Run(done.args, done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize("name", ["check-fifo", "check-fifo-json", "verify-fifo"])
def test_a_fifo_is_refused_not_waited_on(started, name):
    """docs/certificates.md promises a refusal for anything that is not a regular file.
    7329b19: `check FIFO`, `check --json FIFO` and `verify --data FIFO` block forever."""
    _, run = ended(started, name)
    assert_clean(run)
    assert run.code == BAD_INPUT, run


def looped(folder, name, *args):
    """`bnproof ARGS --time-budget GENEROUS` on the claim file `name` that loops for good
    (and says so, looping.PID): the budget runs out the moment it loops, at any speed
    (tests/budget_clock.py); before, the search and proofs that come first end in full."""
    install(folder, name)
    with budget_ends_when_blocked(folder, "looping.*") as clock:
        run = bnproof(folder, *args, "--time-budget", str(GENEROUS))
    assert clock.jumps == 1, run  # it did reach the loop
    return run


def test_prove_keeps_a_time_budget(tmp_path):
    """A residual that never returns.  7329b19: `prove` has no --time-budget (exit 2), and
    without it hangs."""
    run = looped(tmp_path, "s3_loops_forever.py", "prove", "s3_loops_forever.py")
    assert_clean(run)
    assert run.code == UNDECIDED, run


def test_the_proof_attempt_inside_fuzz_keeps_the_budget(tmp_path):
    """The search is quick, the proof attempt for the survivor never returns.
    7329b19: fuzz hangs after its budget."""
    run = looped(tmp_path, "s3_loops_in_proof.py", "fuzz", "s3_loops_in_proof.py", "--no-jax", "--json",
                 "--out-dir", "out")
    assert_clean(run)
    assert run.code == OK and fuzz_entry(run)["verdict"] == "survived", run
    assert fuzz_entry(run)["proof"]["status"] == "budget", run  # the attempt, cut short by the budget
    assert not rules.fuzz_claims_a_proof(run, tmp_path / "out"), run
