"""Red team of the second reading (bnproof/reading/) and its gate
(claims/second_reading.py): claims on which the tracer and the reference agreed
with each other and not with numpy, or on which they differed only off the
generic instances the gate compares at, each reported proved (exit 0) or a TRUE
claim refuted with an accepted certificate; and the resource holes of the reading.

Claim files and the certificates the previous main issued for them (each accepted by
`check --claim` there) are in tests/redteam_claims/.  Each test failed on that main."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from cli_runner import env_for, run_cli

HERE = Path(__file__).resolve().parent / "redteam_claims"
CERTIFICATES = HERE / "certificates"
OK, REJECTED, DISAGREEMENT, UNDECIDED = 0, 6, 7, 10


def prove(tmp_path, name: str):
    return run_cli("prove", HERE / name, "--out-dir", tmp_path / "out", cwd=tmp_path, env=env_for(tmp_path))


# ------------------------------------------------------------------ agreement at points reaches no further


def test_a_claim_that_reads_the_text_of_a_value_is_not_proved(tmp_path):
    """str(Σy) in ("0", "0.0"): the tracers print every node alike, numpy and the
    reference print the number; the identity is false at every Σy = 0, which generic
    instances avoid.  Previous main: "proved for every m", exit 0."""
    run = prove(tmp_path, "text_of_zero.py")
    assert run.returncode == UNDECIDED, run
    # the symbolic-length tracer now refuses the text itself (before: the second reading
    # withheld the proof it had made)
    assert ("not proved" in run.stdout or "not in the provable fragment" in run.stdout) \
        and ("text of a value" in run.stdout or "text of a traced value" in run.stdout), run
    assert not list((tmp_path / "out").glob("**/*.json"))


def test_a_python_comparison_the_tracer_never_saw_is_not_proved(tmp_path):
    """The tracers are recognised by their values' class and given 0; numpy and the
    reference compute −1 where y₀ = y₁.  Previous main: "proved for every m", exit 0."""
    run = prove(tmp_path, "tracer_tie.py")
    assert run.returncode == UNDECIDED, run
    assert "comparison or truth value" in run.stdout, run


def test_a_piecewise_claim_read_as_a_smooth_program_is_not_proved(tmp_path):
    """As above with a guard under a min instead of a Python comparison: the program has
    no piecewise step, the claim's own code takes one.  Previous main: proved, exit 0."""
    run = prove(tmp_path, "tracer_guard.py")
    assert run.returncode == UNDECIDED, run
    assert "where the program has none" in run.stdout, run


def test_a_float_branch_by_type_is_a_disagreement_not_a_proof(tmp_path):
    """type(v) is a float only under numpy, where the residual is −1 everywhere; the exact
    readings agree on 0.  Previous main: "proved for every m", exit 0."""
    run = prove(tmp_path, "float_branch.py")
    assert run.returncode == DISAGREEMENT, run
    assert "numpy's float64 reading does not" in run.stderr, run


def test_a_claim_true_under_numpy_is_not_refuted(tmp_path):
    """The mirror: 0 under numpy everywhere, −1 in every exact reading and in JAX.
    Previous main: REFUTED, exit 1, with a certificate the checker accepted."""
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"y": [1, 2]}))
    run = run_cli("verify", HERE / "float_branch_true.py", "--data", data, "--out", tmp_path / "c.json",
                  cwd=tmp_path, env=env_for(tmp_path))
    assert run.returncode == DISAGREEMENT, run
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize("certificate, claim", [
    ("float-branch.proof.json", "float_branch.py"),
    ("text-of-zero.proof.json", "text_of_zero.py"),
    ("tracer-tie.proof.json", "tracer_tie.py"),
    ("tracer-guard.proof.json", "tracer_guard.py"),
    ("float-branch-true.json", "float_branch_true.py"),
])
def test_check_claim_rejects_the_certificates_of_those_wrong_verdicts(tmp_path, certificate, claim):
    """Issued by the previous main (four proofs of false claims, one refutation of a claim
    true under numpy), each ACCEPTED there by `check --claim`."""
    run = run_cli("check", CERTIFICATES / certificate, "--claim", HERE / claim, cwd=tmp_path,
                  env=env_for(tmp_path))
    assert run.returncode == REJECTED, run
    assert run.stdout.startswith("REJECTED"), run


def test_an_isinstance_float_helper_takes_numpys_branch(tmp_path):
    """isinstance(b, float) and b == 0.0: numpy's float64 takes it at Σy = 0 (residual 1),
    the tracer never does.  The reference answers isinstance as numpy's float64 does, so
    it takes numpy's branch and refuses the float 0.0 there: the fixed-size proof is
    not confirmed.  Previous main: proved at m = 2 and 3 ("verified exactly")."""
    from bnproof.claims.api import load_file
    from bnproof.claims.prove import PROVED, prove_at

    claim = load_file(HERE / "default_at_zero.py")[0]
    for m in (2, 3):
        result = prove_at(claim, {"m": m})
        assert result.status != PROVED, result


def test_the_reference_answers_isinstance_as_numpy_and_stays_exact_with_fractions():
    import numbers

    from bnproof import reading
    from bnproof.claims import Claim, Var
    from bnproof.reading.values import Value, constant

    v = constant(3)
    assert isinstance(v, float) and isinstance(v, np.floating) and isinstance(v, numbers.Real)
    assert not isinstance(v, int) and isinstance(v, Value)
    assert (Fraction(1, 2) + v).fraction() == Fraction(7, 2)
    assert (Fraction(1, 3) * v).fraction() == 1 and (Fraction(1, 2) < v) is True
    claim = Claim(id="rt/isinstance", source="t", statement="t", kind="identity",
                  variables=(Var("y", (2,)),), sizes={},
                  residual=lambda xp, y: y[0] - y[0] - (1 if isinstance(y[0], float) else 0))
    assert reading.read(claim, {"y": [1, 2]}).verdict == reading.REFUTED  # numpy's branch


def test_the_paper_claims_ask_values_nothing_and_agree_with_numpy():
    """The new rules withhold no proof of the committed claims: at a generic instance no
    claim's code asks a value anything in Python, and numpy's float64 agrees."""
    from bnproof import reading
    from bnproof.claims.api import all_claims
    from bnproof.reading.read import evaluate
    from bnproof.reading.session import Session

    for claim in all_claims():
        sizes = {s: lo for s, (lo, hi) in claim.sizes.items()}
        for instance in reading.generic_instances(claim, sizes, 1) if claim.variables else [{}]:
            parts = evaluate(claim, instance, session=Session(track=True))
            if isinstance(parts, reading.Reading):
                continue
            runs = [parts[0], *parts[1], *parts[2]]
            assert not [o for r in runs for o in r.observed], claim.id
            assert reading.confirm_numpy(claim, instance).status == reading.AGREES, claim.id


def test_numpy_float_reading_compares_hypotheses_too():
    """A hypothesis that is y₀ exactly and 1 under numpy (type()) makes another claim; a
    fixed-size program traced from it is not confirmed."""
    from bnproof.claims import Claim, Var
    from bnproof.claims.decide import trace
    from bnproof.claims.second_reading import fixed_size_proof
    from bnproof.errors import Disagreement

    def hypothesis(xp, y):
        return y[0] if not issubclass(type(y[0]), float) else xp.q(1) + 0 * y[0]

    claim = Claim(id="rt/hypothesis-branch", source="t", statement="t", variables=(Var("y", (2,)),),
                  sizes={}, hypotheses=(hypothesis,), residual=lambda xp, y: y[0])
    with pytest.raises(Disagreement, match="hypothesis"):
        fixed_size_proof(claim, {}, trace(claim, {}))


def test_max_makes_a_new_value_as_numpy_does():
    """xp.maximum(a, b) returned the larger operand itself: `is` told a claim which one was
    larger, in the reference only (numpy's maximum and the tracers make a new value), so
    the reference read another claim (a spurious disagreement, or a branch of its own)."""
    from bnproof import reading
    from bnproof.claims import Claim, Var

    claim = Claim(id="rt/identity", source="t", statement="t", kind="identity",
                  variables=(Var("y", (2,)),), sizes={},
                  residual=lambda xp, y: 0 * y[0] - (1 if xp.maximum(y, y[::-1])[0] is y[0] else 0))
    assert reading.read(claim, {"y": [3, 1]}).verdict == reading.HOLDS


def test_fuzz_does_not_let_survive_a_claim_the_reference_refutes_at_a_drawn_instance(tmp_path):
    """tracer_tie.py: Hypothesis draws y₀ = y₁, numpy's float64 gives −1 there, the exact
    engine (the tracer) says 0, the reference −1: a disagreement the search drops, and the
    claim "survives" with exit 0."""
    run = run_cli("fuzz", HERE / "tracer_tie.py", "--no-jax", "--no-timings", "--time-budget", "20",
                  "--out-dir", tmp_path / "out", cwd=tmp_path, env=env_for(tmp_path))
    assert run.returncode != OK, run


def test_a_refutation_speaks_of_its_instance_only():
    """The rules that make a proof's agreement inconclusive (the claim's code asked a value
    something in Python; a piecewise claim read as a smooth program) are about instances
    not compared; a refutation's certificate may ask for equality at its points only."""
    from bnproof import reading
    from bnproof.claims import Claim, Var
    from bnproof.claims.decide import trace
    from bnproof.claims.second_reading import program_of

    def residual(xp, y):
        str(y[0])  # a debugging print
        return y[0] - 1

    claim = Claim(id="rt/printed", source="t", statement="t", variables=(Var("y", (2,)),), sizes={},
                  residual=residual)
    program = program_of(trace(claim, {}))
    points = [{"y": [0, 5]}] + reading.generic_instances(claim, {}, 2)
    assert reading.confirm_program(claim, program, points).status == reading.INCONCLUSIVE
    assert reading.confirm_program(claim, program, points, everywhere=False).status == reading.AGREES


def test_the_fixed_size_tracer_answers_isinstance_float_as_numpy():
    """isinstance(v, float) is True for numpy's float64; a Node says False and records no
    refusal, so the traced program is that of a branch numpy never takes (the second
    reading now catches it: exit 7 at an instance, a disagreement at a proof's points)."""
    from bnproof.claims import Claim, Var
    from bnproof.claims.decide import decide

    claim = Claim(id="rt/isinstance", source="t", statement="t", kind="identity",
                  variables=(Var("y", (2,)),), sizes={},
                  residual=lambda xp, y: y[0] - y[0] - (1 if isinstance(y[0], float) else 0))
    assert decide(claim, {"y": [1, 2]}).verdict != "holds"


def test_the_text_of_the_batch_size_is_no_proof(tmp_path):
    """str(y.shape) == "(6,)": the symbolic tracer's m prints as an object, numpy and the
    reference print (6,); the gate compares at m = 2, 3, 4, 5, 7.  Proved for every m and
    refuted at m = 6 by `verify`, on this main still."""
    claim = tmp_path / "shape6.py"
    claim.write_text(textwrap.dedent('''
        from bnproof.claims import Claim, Var

        def residual(xp, y):
            s = xp.sum(y * y)
            return s - s - (1 if str(y.shape) == "(6,)" else 0)

        CLAIM = Claim(id="rt/shape6", source="t", kind="identity", statement="0 = 0",
                      variables=(Var("y", ("m",)),), sizes={"m": (2, 8)}, residual=residual)
    '''))
    run = run_cli("prove", claim, "--out-dir", tmp_path / "out", cwd=tmp_path, env=env_for(tmp_path))
    assert run.returncode != OK, run


# ------------------------------------------------------------------ resources


def test_generic_instances_of_a_large_matrix_do_no_rational_elimination(monkeypatch):
    """Full rank was checked by Gauss-Jordan over Q, whose entries grow: a 120 × 120
    certificate cost `check --claim` 90 s in generic_instances.  Now residues mod a prime:
    the Fraction arithmetic is bounded by the entries drawn, not cubic."""
    from bnproof import reading
    from bnproof.claims import Claim, Var

    calls = {"n": 0}
    for name in ("__sub__", "__mul__", "__truediv__"):
        original = getattr(Fraction, name)

        def counted(self, other, _original=original):
            calls["n"] += 1
            return _original(self, other)
        monkeypatch.setattr(Fraction, name, counted)
    claim = Claim(id="rt/matrix", source="t", statement="t", variables=(Var("A", ("n", "n")),),
                  sizes={"n": (1, 100)}, residual=lambda xp, A: xp.sum(A))
    out = reading.generic_instances(claim, {"n": 30}, 2)
    assert len(out) == 2 and calls["n"] < 5 * 30 * 30, calls


def test_full_rank_is_exact():
    from bnproof.reading.instances import _full_rank

    def full(rows):
        return _full_rank(np.array([[Fraction(x) for x in r] for r in rows], dtype=object))

    assert not full([[1, 2], [2, 4]]) and full([["1/3", 2], [2, 4]])
    assert not full([[1, 2, 3], [2, 4, 6]]) and full([[1, 2, 3], [2, 4, 7]])
    assert not full([[1, 2], [2, 4], [3, 6]]) and full([[0, 1], [1, 0]]) and not full([[0, 0], [0, 1]])


def test_an_expectation_over_a_huge_sample_count_is_inconclusive_at_once():
    """k**n was computed before the cap was compared: n = 10¹² hung the reading (a
    10¹²-bit integer).  A subprocess, so that a hang fails instead of blocking."""
    script = textwrap.dedent('''
        from bnproof import reading
        from bnproof.claims import Claim, Law

        def first(xp, B):
            return B[0]

        claim = Claim(id="rt/huge-n", source="t", kind="identity", statement="t",
                      variables=(Law("X", (), "k"),), sizes={"k": (1, 2)},
                      residual=lambda xp, X: xp.expect(first, X, 10**12) - xp.expect(first, X, 1))
        for support in ([1], [1, 2]):
            r = reading.read(claim, {"X_support": support, "X_weights": [1] * len(support)})
            assert r.verdict == reading.UNDECIDED and "over the reference's cap" in r.detail, r
        print("ok")
    ''')
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "ok", done


# ------------------------------------------------------------------ what only floats answer
# The exact readings (the fixed-size tracer, the symbolic-length tracer, the reference) refuse,
# and remember refusing whatever the claim catches, what numpy answers only on its float64
# arrays: an array's dtype, a ufunc with no exact meaning (numpy raises TypeError on object
# arrays, gives a number on floats), a conversion to float.  Each probe below ran on the
# previous main without a refusal (or with a TypeError the claim caught), except the
# conversions, which were refused already.

FLOAT_ONLY = {
    "y.dtype": lambda xp, y, s: y.dtype,
    "dtype of an array the namespace made": lambda xp, y, s: (xp.asarray(y) * 2).dtype,
    "np.isfinite(y)": lambda xp, y, s: np.isfinite(y),
    "np.isnan(s)": lambda xp, y, s: np.isnan(s),
    "np.sin(y)": lambda xp, y, s: np.sin(y),
    "np.isinf(y - s)": lambda xp, y, s: np.isinf(y - s),
    "getattr(s, 'dtype')": lambda xp, y, s: getattr(s, "dtype", None),
    "np.float64(s)": lambda xp, y, s: np.float64(s),
    "float(s)": lambda xp, y, s: float(s),
    "dtype inside xp.grad": lambda xp, y, s: xp.grad(lambda v: (v.dtype, xp.sum(v * v))[1], y),
}


def _probing(probe):
    def residual(xp, y):
        s = xp.sum(y * y)
        try:
            probe(xp, y, s)
        except Exception:  # noqa: BLE001 - the claim swallows whatever it met
            pass
        return s - s
    return residual


@pytest.mark.parametrize("probe", sorted(FLOAT_ONLY))
def test_the_fixed_size_tracer_refuses_what_only_floats_answer(probe):
    from bnproof.claims import Claim, Var
    from bnproof.claims.decide import UNDECIDED, decide

    claim = Claim(id="rt/float-only", source="t", statement="t", kind="identity", variables=(Var("y", (2,)),),
                  sizes={}, residual=_probing(FLOAT_ONLY[probe]))
    decision = decide(claim, {"y": [1, 2]})
    assert decision.verdict == UNDECIDED and "outside the fragment" in decision.detail, (probe, decision)


@pytest.mark.parametrize("probe", sorted(FLOAT_ONLY))
def test_the_reference_refuses_what_only_floats_answer(probe):
    from bnproof import reading
    from bnproof.claims import Claim, Var

    claim = Claim(id="rt/float-only", source="t", statement="t", kind="identity", variables=(Var("y", (2,)),),
                  sizes={}, residual=_probing(FLOAT_ONLY[probe]))
    r = reading.read(claim, {"y": [1, 2]})
    assert r.verdict == reading.UNDECIDED and "refuses" in r.detail, (probe, r)


@pytest.mark.parametrize("probe", sorted(FLOAT_ONLY) + ["w.dtype", "np.isnan(w)", "np.exp(w)"])
def test_the_symbolic_tracer_refuses_what_only_floats_answer(probe):
    """w is an input of the fixed side: an object array of traced scalars (a SymArray)."""
    from bnproof.claims import Claim, Var
    from bnproof.symbolic_m.fragment import OutsideFragment
    from bnproof.symbolic_m.trace import program_for

    fixed_side = {"w.dtype": lambda xp, y, w: w.dtype, "np.isnan(w)": lambda xp, y, w: np.isnan(w),
                  "np.exp(w)": lambda xp, y, w: np.exp(w)}

    def residual(xp, y, w):
        s = xp.sum(y * y)
        try:
            fixed_side[probe](xp, y, w) if probe in fixed_side else FLOAT_ONLY[probe](xp, y, s)
        except Exception:  # noqa: BLE001
            pass
        return s - s

    claim = Claim(id="rt/float-only", source="t", statement="t", kind="identity",
                  variables=(Var("y", ("m",)), Var("w", (2,))), sizes={"m": (2, 5)}, residual=residual)
    with pytest.raises(OutsideFragment):
        program_for(claim, {})


def test_exact_ufuncs_of_numpy_still_read_exactly():
    """What numpy's object loops compute exactly (operators, sqrt, reductions, a function of
    the claim's own applied entry by entry) is no refusal, and every reading agrees."""
    from bnproof import reading
    from bnproof.claims import Claim, Var
    from bnproof.claims.decide import decide

    def residual(xp, y):
        z = np.sqrt(y * y) + np.abs(-y) + np.add.reduce(y) + np.cumsum(y)[-1] + np.power(y, 2)
        squares = np.frompyfunc(lambda v: v * v, 1, 1)(y)
        return np.sum(z) + y @ y - np.sum(squares) - xp.sum(xp.sqrt(y * y) * 2 + xp.sum(y) * 2 + y ** 2)

    claim = Claim(id="rt/exact-ufuncs", source="t", statement="t", kind="identity", variables=(Var("y", (3,)),),
                  sizes={}, residual=residual)
    assert decide(claim, {"y": [1, 2, 3]}).verdict == "holds"
    assert reading.read(claim, {"y": [1, 2, 3]}).verdict == reading.HOLDS


def test_a_traced_scalar_answers_isinstance_as_numpys_float64():
    """The rule for the class (program/trace.py, reading/values.py): what np.float64 answers,
    to the claim; bnproof's machinery and Fraction's operators still see a node, so
    Fraction(1, 3) * v stays exact.  An elementwise function of a scalar is a scalar, as
    numpy's ufuncs give (np.vectorize gave a 0-d array, no float64 reading's answer)."""
    import numbers

    from bnproof.claims import xp as namespaces
    from bnproof.program.trace import Node, Program

    program = Program()
    v = program.emit(["input", "v"])
    for cls in (float, np.floating, np.float64, np.generic, numbers.Real, numbers.Number, int, np.ndarray,
                numbers.Integral, complex):
        assert isinstance(v, cls) == isinstance(np.float64(2.0), cls), cls
    assert type(Fraction(1, 3) * v) is Node and type(v + Fraction(1, 2)) is Node
    assert program.poison is None
    xp = namespaces.trace(program)
    for f in (xp.sqrt, xp.abs, xp.tanh, xp.exp, xp.relu):
        assert type(f(v)) is Node, f
    assert type(xp.maximum(v, 0)) is Node and type(xp.sqrt(np.asarray([v], dtype=object))) is not Node
    assert program.poison is None


def test_the_text_and_keys_of_the_symbolic_tracers_values_are_refused():
    """str/repr/format/hash of m or of a traced value, asked by the claim: outside the
    fragment, caught or not; the tracer's own messages still show a placeholder."""
    from bnproof.claims import Claim, Var
    from bnproof.symbolic_m.fragment import OutsideFragment
    from bnproof.symbolic_m.trace import program_for

    asks = {
        "repr of m": lambda xp, y: repr(y.shape[0]),
        "f-string of the sum": lambda xp, y: f"{xp.sum(y)}",
        "format spec": lambda xp, y: format(xp.sum(y), ">8"),
        "print": lambda xp, y: print(y),
        "dict key": lambda xp, y: {xp.sum(y): 1},
        "set of m": lambda xp, y: {y.shape[0]},
        "hash": lambda xp, y: hash(xp.sum(y)),
    }
    for name, ask in asks.items():
        def residual(xp, y, ask=ask):
            s = xp.sum(y * y)
            try:
                ask(xp, y)
            except Exception:  # noqa: BLE001
                pass
            return s - s

        claim = Claim(id="rt/text", source="t", statement="t", kind="identity", variables=(Var("y", ("m",)),),
                      sizes={"m": (2, 5)}, residual=residual)
        with pytest.raises(OutsideFragment):
            program_for(claim, {})
    # the namespace's own message names the value with a placeholder, and is what the user reads
    claim = Claim(id="rt/q", source="t", statement="t", kind="identity", variables=(Var("y", ("m",)),),
                  sizes={"m": (2, 5)}, residual=lambda xp, y: xp.q(xp.sum(y), "2"))
    with pytest.raises(OutsideFragment, match=r"xp\.q of <traced SymScalar>, '2'"):
        program_for(claim, {})


# ------------------------------------------------------------------ the float checks fail closed


def _unrefusable_branch(exact_branch):
    """A claim that asks type(), which no reading can refuse: the exact readings take
    `exact_branch`, numpy's float64 the residual Σy²."""
    from bnproof.claims import Claim, Var

    def residual(xp, y):
        s = xp.sum(y * y)
        if type(s).__module__ != "numpy":
            return exact_branch(xp, s)
        return s

    return Claim(id="rt/type-branch", source="t", statement=r"\sum y^2 \ge 0", variables=(Var("y", ("m",)),),
                 sizes={"m": (2, 3)}, residual=residual)


def _tiny(xp):
    tiny = xp.q(1, 10 ** 100) ** 4  # 10⁻⁴⁰⁰: 0.0 in floats, so tiny/tiny has no float value
    return tiny / tiny - 1


def test_a_float_check_that_cannot_compare_never_agrees():
    """numpy gives a finite number where floats along the exact reading's operations give
    none (tiny/tiny): the value was skipped and the check said 'agrees'.  A claim whose
    floats overflow along the exact operations too is silent, not a disagreement."""
    from bnproof import reading

    claim = _unrefusable_branch(lambda xp, s: -1 - s + _tiny(xp))
    result = reading.confirm_numpy(claim, {"y": [1, 2]})
    assert result.status == reading.INCONCLUSIVE and not result.silent, result
    from bnproof.claims import Claim, Var
    overflow = Claim(id="rt/overflow", source="t", statement="t", variables=(Var("y", ("m",)),),
                     sizes={"m": (2, 3)}, residual=lambda xp, y: xp.sum(y * y) * xp.q(10 ** 200) ** 2)
    result = reading.confirm_numpy(overflow, {"y": [1, 2]})
    assert result.status == reading.INCONCLUSIVE and result.silent, result


def test_verify_does_not_refute_where_the_float_check_cannot_compare(tmp_path):
    """Σy² ≥ 0 is true under numpy; the exact readings' branch is −1 − Σy² + (tiny/tiny − 1).
    Previous main: REFUTED (exit 1), numpy's check had skipped the value."""
    claim = tmp_path / "type_branch.py"
    claim.write_text(textwrap.dedent('''
        from bnproof.claims import Claim, Var

        def residual(xp, y):
            s = xp.sum(y * y)
            if type(s).__module__ != "numpy":
                tiny = xp.q(1, 10 ** 100) ** 4
                return -1 - s + (tiny / tiny - 1)
            return s

        CLAIM = Claim(id="rt/type-branch", source="t", statement="t", variables=(Var("y", ("m",)),),
                      sizes={"m": (2, 3)}, residual=residual)
    '''))
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"y": [1, 2]}))
    run = run_cli("verify", claim, "--data", data, "--no-crosscheck", "--out", tmp_path / "c.json",
                  cwd=tmp_path, env=env_for(tmp_path))
    assert run.returncode == UNDECIDED, run
    assert "numpy float64" in run.stdout + run.stderr, run
    assert not (tmp_path / "c.json").exists()


def test_a_proof_is_not_confirmed_where_the_float_check_cannot_compare():
    """The identity Σy² = 0 read as Σy − Σy + (tiny/tiny − 1) = 0 by every exact reading:
    the program equals the claim's exact reading at generic instances, numpy's float64
    computes Σy² there.  Previous main: agrees (a proof), the value was skipped."""
    from dataclasses import replace

    from bnproof import reading
    from bnproof.claims.decide import trace
    from bnproof.claims.second_reading import program_of

    claim = replace(_unrefusable_branch(lambda xp, s: s - s + _tiny(xp)), kind="identity")
    program = program_of(trace(claim, {"m": 2}))
    result = reading.confirm_program(claim, program, reading.generic_instances(claim, {"m": 2}, 2))
    assert result.status == reading.INCONCLUSIVE and "numpy" in result.detail, result


def test_the_float_checks_print_no_warnings():
    """numpy's RuntimeWarnings (an empty mean, overflow) went to stderr from the float checks."""
    script = textwrap.dedent('''
        import numpy as np
        from bnproof import reading
        from bnproof.claims import Claim, Var

        def residual(xp, y):
            s = xp.sum(y * y)
            try:
                xp.mean(y[:0])  # numpy warns: mean of an empty slice
            except Exception:
                pass
            return s

        claim = Claim(id="w/empty-mean", source="t", statement="t", variables=(Var("y", (2,)),), sizes={},
                      residual=residual)
        print(reading.confirm_numpy(claim, {"y": [1, 2]}).status)
    ''')
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "agrees" and "Warning" not in done.stderr, done


# ------------------------------------------------------------------ hostile sizes in the namespaces


def test_the_namespaces_refuse_hostile_sizes_before_allocating(monkeypatch):
    """xp.ones(y.shape[0] * 10**9), xp.eye(10**5): no bound, memory grew until the machine
    gave out.  Now every namespace refuses an array over its limit (monkeypatched small
    here) before allocating, with one line."""
    from bnproof import reading
    from bnproof.claims import Claim, Var
    from bnproof.claims import xp as namespaces
    from bnproof.claims.decide import decide
    from bnproof.reading import namespace as reference_namespace
    from bnproof.symbolic_m import namespace as symbolic_namespace
    from bnproof.symbolic_m.fragment import OutsideFragment
    from bnproof.symbolic_m.trace import program_for

    from bnproof.claims import object_xp

    for module in (namespaces, object_xp, reference_namespace, symbolic_namespace):
        monkeypatch.setattr(module, "MAX_ENTRIES", 10)
    hostile = {"ones": lambda xp, y: xp.sum(xp.ones(11)), "zeros": lambda xp, y: xp.sum(xp.zeros(11)),
               "eye": lambda xp, y: xp.sum(xp.eye(4)), "outer": lambda xp, y: xp.sum(xp.outer(xp.ones(4),
                                                                                            xp.ones(3)))}
    fine = {"ones": lambda xp, y: xp.sum(xp.ones(10)), "eye": lambda xp, y: xp.sum(xp.eye(3))}
    for name, f in hostile.items():
        claim = Claim(id="rt/size", source="t", statement="t", variables=(Var("y", ("m",)),),
                      sizes={"m": (2, 3)}, residual=lambda xp, y, f=f: xp.sum(y) * 0 + f(xp, y))
        with pytest.raises(namespaces.TooLarge, match="over the limit of 10 entries"):
            f(namespaces.floating(), None)
        decision = decide(claim, {"y": [1, 2]})
        assert decision.verdict == "undecided" and "over the limit of 10" in decision.detail, (name, decision)
        r = reading.read(claim, {"y": [1, 2]})
        assert r.verdict == reading.UNDECIDED and "cap of 10" in r.detail, (name, r)
        with pytest.raises(OutsideFragment, match="over the limit of 10"):
            program_for(claim, {})
    for name, f in fine.items():
        claim = Claim(id="rt/size", source="t", statement="t", variables=(Var("y", ("m",)),),
                      sizes={"m": (2, 3)}, residual=lambda xp, y, f=f: xp.sum(y) * 0 + f(xp, y))
        assert decide(claim, {"y": [1, 2]}).verdict == "holds", name
        assert reading.read(claim, {"y": [1, 2]}).verdict == reading.HOLDS, name

