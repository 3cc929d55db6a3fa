"""confirm, confirm_program, program_value, confirm_floats and generic_instances
(bnproof/reading/): the second reading against the engine's verdicts and programs, and
against JAX float64."""

from __future__ import annotations

import copy
import dataclasses
import glob
import json
from fractions import Fraction

import numpy as np
import pytest

from bnproof import reading
from bnproof.claims import Claim, Var
from bnproof.claims.api import all_claims, load_file
from bnproof.claims.decide import decide
from bnproof.program.evaluate import Interval

CLAIMS = {c.id: c for c in all_claims()}
_EXAMPLES: dict = {}


def example_claims(path: str) -> list:
    """docs/examples' claims, loaded once per module: the float tests below then share each
    claim's compiled float program (reading/floats.py keeps it per residual function), where
    loading the file again would make new functions, traced and compiled again."""
    if path not in _EXAMPLES:
        _EXAMPLES[path] = load_file(path)
    return _EXAMPLES[path]


def refutations():
    for path in sorted(glob.glob("certificates/**/*.json", recursive=True)):
        with open(path) as fh:
            cert = json.load(fh)
        if cert["claim"]["id"] in CLAIMS and "program" in cert and cert.get("kind") != "proof":
            yield pytest.param(CLAIMS[cert["claim"]["id"]], cert, id=cert["claim"]["id"])


# ---------------------------------------------------------------- confirm


@pytest.mark.parametrize("claim, cert", list(refutations()))
def test_confirm_agrees_at_committed_counterexamples(claim, cert):
    assert reading.confirm(claim, cert["instance"], decide(claim, cert["instance"])).status == "agrees"


def test_a_forged_interval_that_excludes_the_value_disagrees():
    claim = CLAIMS["santurkar2018/theorem-4.1"]
    instance = {"g": ["0", "1"], "gamma": "1", "y": ["0", "1"]}  # residual 2 − 2√2
    d = decide(claim, instance)
    forged = dataclasses.replace(d, residual=dataclasses.replace(
        d.residual, value=Interval(Fraction(-1, 2), Fraction(-1, 3))))  # excludes −0.828…
    c = reading.confirm(claim, instance, forged)
    assert c.status == "disagrees" and "excludes" in c.detail
    near = dataclasses.replace(d, residual=dataclasses.replace(
        d.residual, value=Interval(Fraction(-8285, 10000), Fraction(-8284, 10000))))
    assert reading.confirm(claim, instance, near).status == "agrees"


def test_a_forged_verdict_disagrees():
    claim = CLAIMS["santurkar2018/theorem-4.1"]
    instance = {"g": ["0", "1"], "gamma": "1", "y": ["0", "1"]}
    d = decide(claim, instance)
    for verdict in ("holds", "outside-hypotheses"):
        assert reading.confirm(claim, instance, dataclasses.replace(d, verdict=verdict)).status == "disagrees"
    forged_sign = dataclasses.replace(d, residual=dataclasses.replace(d.residual, sign=0))
    assert reading.confirm(claim, instance, forged_sign).status == "disagrees"
    assert reading.confirm(claim, instance, dataclasses.replace(d, verdict="undecided")).status == "inconclusive"


def test_the_class_1_claim_against_a_wrong_engine_value():
    """The engine once refuted the true nested-gradient claim with residual 3√2/4: a
    Decision saying so disagrees with the reference."""
    import sys

    sys.path.insert(0, "tests")
    from test_reading_grad import CLASS_1

    from bnproof.program.evaluate import Sign

    wrong = dataclasses.replace(decide(CLASS_1, {"y": [0, 2, 0], "g": [0, 0, 1], "gamma": 1}), verdict="refuted",
                                residual=Sign(1, "forged", Interval(Fraction(106, 100), Fraction(107, 100))))
    c = reading.confirm(CLASS_1, {"y": [0, 1, 0], "g": [0, 0, 1], "gamma": 1}, wrong)
    assert c.status == "disagrees"


# ---------------------------------------------------------------- programs


@pytest.mark.parametrize("claim, cert", list(refutations()))
def test_certificate_programs_equal_their_claims(claim, cert):
    instances = [cert["instance"]] + reading.generic_instances(claim, cert["sizes"], 3, seed=11)
    c = reading.confirm_program(claim, cert["program"], instances)
    assert c.status == "agrees" and c.compared >= 1, c
    residual = reading.program_value(cert["program"]["steps"], cert["program"]["residual"], cert["instance"])
    r = reading.read(claim, cert["instance"])
    assert residual.is_defined and (residual.expr - r.value.expr).expand() == 0


def _tampered(program: dict) -> dict:
    """The program with its first constant other than 0 and 1 changed."""
    out = copy.deepcopy(program)
    for step in out["steps"]:
        if step[0] == "const" and Fraction(step[1]) not in (0, 1):
            step[1] = str(Fraction(step[1]) + Fraction(1, 3))
            return out
    out["steps"].append(["const", "1/3"])
    out["steps"].append(["add", out["residual"], len(out["steps"]) - 1])
    out["residual"] = len(out["steps"]) - 1
    return out


@pytest.mark.parametrize("claim, cert", list(refutations()))
def test_a_tampered_program_disagrees(claim, cert):
    instances = reading.generic_instances(claim, cert["sizes"], 3, seed=5)
    c = reading.confirm_program(claim, _tampered(cert["program"]), instances)
    assert c.status == "disagrees", c


def test_programs_with_dropped_hypotheses_or_another_residual_disagree():
    claim = CLAIMS["santurkar2018/theorem-4.1"]
    with open("certificates/santurkar2018/theorem-4.1.json") as fh:
        cert = json.load(fh)
    instances = reading.generic_instances(claim, cert["sizes"], 2, seed=1)
    dropped = dict(cert["program"], hypotheses=[])
    assert reading.confirm_program(claim, dropped, instances).status == "disagrees"
    other = dict(cert["program"], residual=cert["program"]["hypotheses"][0])
    assert reading.confirm_program(claim, other, instances).status == "disagrees"
    assert reading.confirm_program(claim, cert["program"], []).status == "inconclusive"


def test_program_semantics():
    steps = [["input", "x", 0], ["input", "x", 1], ["sub", 0, 0], ["div", 1, 2],  # 3: a dead 1/0
             ["sqrt", 1], ["mul", 4, 4], ["guard", 0, 1], ["guard", 1, 2], ["min", 6, 7],
             ["neg", 1], ["guard", 0, 9], ["min", 10, 10], ["pi"], ["acos", 2], ["mul", 13, 13],
             ["pow", 1, 3], ["const", "-5/2"], ["max", 15, 16], ["abs", 16]]
    x = {"x": [3, 2]}
    values = reading.program_value(steps, [5, 8, 11, 17, 18, 3, 14], x)
    assert values[0].fraction() == 2  # √2·√2, exactly
    assert values[1].fraction() == 2  # min(absent, 2)
    assert not values[2].is_defined  # a min over absent values only
    assert values[3].fraction() == 8 and values[4].fraction() == Fraction(5, 2)
    assert not values[5].is_defined and "division by 0" in values[5].why
    assert values[6].sign() == 1 and "pi" in str(values[6].expr)
    with pytest.raises(ValueError):
        reading.program_value(steps, [1], {"x": [3]})  # no x[1] in the instance
    with pytest.raises(ValueError):
        reading.program_value([["pow", 0, 65]], 0, {})


def test_an_existential_program():
    claims = {c.id: c for c in load_file("docs/examples/existential.py")}
    claim = claims["gallery/existential/inverse-exists"]
    program = {"steps": [["input", "x"], ["input", "p"], ["mul", 1, 0], ["const", "1"], ["sub", 2, 3]],
               "residual": [4], "hypotheses": []}
    instances = [{"x": 2, "p": 3}, {"x": Fraction(1, 3), "p": -1}]
    assert reading.confirm_program(claim, program, instances).status == "agrees"
    wrong = dict(program, steps=program["steps"][:3] + [["const", "2"]] + program["steps"][4:])
    assert reading.confirm_program(claim, wrong, instances).status == "disagrees"


# ---------------------------------------------------------------- generic instances


def test_generic_instances_are_generic_and_deterministic():
    claim = CLAIMS["santurkar2018/theorem-4.2"]
    a = reading.generic_instances(claim, {"m": 5}, 4, seed=3)
    assert a == reading.generic_instances(claim, {"m": 5}, 4, seed=3)
    assert a != reading.generic_instances(claim, {"m": 5}, 4, seed=4)
    for instance in a:
        H = np.asarray(instance["H"], dtype=object)
        assert (H == H.T).all()  # symmetric
        entries = [abs(x) for name, v in instance.items() for x in np.asarray(v, dtype=object).reshape(-1)
                   if name != "H"] + [abs(H[i, j]) for i in range(5) for j in range(i, 5)]
        assert len(set(entries)) == len(entries) and 0 not in entries  # no ties, no zeros
        assert instance["gamma"] != 0
    lemma = CLAIMS["santurkar2018/lemma-4.5"]
    for instance in reading.generic_instances(lemma, {"m": 3, "d": 2}, 5, seed=1):
        X = np.asarray(instance["X"], dtype=object)
        assert X[0, 0] * X[1, 1] - X[0, 1] * X[1, 0] != 0 or X[0, 0] * X[2, 1] - X[0, 1] * X[2, 0] != 0
    positive = CLAIMS["santurkar2018/theorem-4.4"]
    assert all(i["lam"] > 0 for i in reading.generic_instances(positive, {"m": 3}, 5, seed=2))
    first = reading.generic_instances(claim, {"m": 3}, 1, seed=9)
    assert first[0] not in reading.generic_instances(claim, {"m": 3}, 3, seed=9, avoid=first)


# ---------------------------------------------------------------- floats


def test_floats_agree_at_the_committed_instances():
    pytest.importorskip("jax")
    for path in sorted(glob.glob("certificates/**/*.json", recursive=True)):
        with open(path) as fh:
            cert = json.load(fh)
        claim = CLAIMS.get(cert["claim"]["id"])
        if claim is None or cert.get("kind") == "proof":
            continue
        c = reading.confirm_floats(claim, cert["instance"])
        assert c.status == "agrees", (path, c)


def test_floats_never_flag_the_paper_claims_or_examples_at_generic_instances():
    pytest.importorskip("jax")
    claims = [c for c in CLAIMS.values() if c.variables]
    for path in sorted(glob.glob("docs/examples/*.py")):
        claims += [c for c in example_claims(path) if not c.exists]
    for claim in claims:
        sizes = {s: lo for s, (lo, hi) in claim.sizes.items()}
        for instance in reading.generic_instances(claim, sizes, 2, seed=13):
            c = reading.confirm_floats(claim, instance)
            assert c.status != "disagrees", (claim.id, instance, c)


def _small_integer_instances(claim, sizes, count, rng):
    """Instances of small integers with zeros and ties, as a shrunk counterexample is."""
    out = []
    for _ in range(count):
        instance = {}
        for v in claim.variables:
            a = np.empty(claim.shape_of(v, sizes), dtype=object)
            for k in np.ndindex(a.shape):
                x = rng.choice([-2, -1, 0, 0, 1, 1, 2, 3])
                x = abs(x) + 1 if v.domain == "positive" else (x or 1) if v.domain == "nonzero" else x
                a[k] = a[k[::-1]] if v.domain == "symmetric" and k[0] > k[1] else Fraction(x)
            instance[v.name] = a.tolist() if a.shape else a[()]
        out.append(instance)
    return out


def test_floats_never_flag_the_examples_at_counterexamples():
    """docs/examples' false claims at small-integer instances where the reading refutes them
    (what fuzz's shrinking ends with): JAX float64 never disagrees."""
    import random

    pytest.importorskip("jax")
    rng = random.Random(0)
    refuted = 0
    for path in sorted(glob.glob("docs/examples/*.py")):
        for claim in example_claims(path):
            if claim.exists:
                continue
            sizes = {s: lo for s, (lo, hi) in claim.sizes.items()}
            for instance in _small_integer_instances(claim, sizes, 12, rng):
                if reading.read(claim, instance).verdict == "refuted":
                    refuted += 1
                    c = reading.confirm_floats(claim, instance)
                    assert c.status != "disagrees", (claim.id, instance, c)
    assert refuted >= 10


def test_every_claim_keeps_its_compiled_float_program():
    # a paper's run checks each claim's floats again and again (fuzz, prove, report): with
    # fewer places than claims, a claim's program was traced and compiled anew
    from bnproof.reading import floats

    examples = sum(len(example_claims(p)) for p in glob.glob("docs/examples/*.py"))
    assert floats._KEPT >= len(CLAIMS) + examples


def test_an_xla_without_the_compile_options_still_compares(monkeypatch):
    # the float check's compile options are a speed-up: an XLA that no longer knows one
    # must compile with its defaults, not leave the check silent (inconclusive)
    pytest.importorskip("jax")
    from bnproof.reading import floats

    monkeypatch.setattr(floats, "_CPU_OPTIONS", {"xla_cpu_no_such_option_bnproof": False})
    claim = Claim(id="t/options", source="t", statement="x", variables=(Var("c", ()),),
                  residual=lambda xp, c: c * c - 2)
    c = reading.confirm_floats(claim, {"c": "3"})
    assert c.status == "agrees", c
    import jax

    if jax.default_backend() == "cpu":  # the options are the CPU compiler's
        assert floats._CPU_OPTIONS == {}  # the rest of the process compiles without it


def test_a_wrong_exact_value_disagrees_with_floats():
    pytest.importorskip("jax")
    claim = CLAIMS["santurkar2018/theorem-4.1"]
    instance = {"g": ["0", "1"], "gamma": "1", "y": ["0", "1"]}
    assert reading.confirm_floats(claim, instance).status == "agrees"
    c = reading.confirm_floats(claim, instance, Fraction(-3, 4))  # the truth is 2 − 2√2 ≈ −0.83
    assert c.status == "disagrees", c
    assert reading.confirm_floats(claim, instance, Fraction(-82842712474619, 10**14)).status == "agrees"


def test_floats_are_inconclusive_where_they_cannot_follow():
    pytest.importorskip("jax")
    # a Python branch at an exact tie: floats may round either way
    tie = Claim(id="t/tie", source="t", statement="x", variables=(Var("y", (3,)),),
                residual=lambda xp, y: (1 if (y[0] + y[1]) * 3 == 1 else -1) + 0 * y[0])
    assert reading.confirm_floats(tie, {"y": [Fraction(1, 3), 0, 0]}).status == "inconclusive"
    # the claim's code fails under JAX
    def only_exact(xp, y):
        if xp.kind != "reference":
            raise RuntimeError("not under JAX")
        return y[0]

    failing = Claim(id="t/jax", source="t", statement="x", variables=(Var("y", (3,)),), residual=only_exact)
    c = reading.confirm_floats(failing, {"y": [1, 2, 3]})
    assert c.status == "inconclusive" and "not under JAX" in c.detail
    # a Python branch under jax.grad runs (concrete values): floats follow it
    branchy = Claim(id="t/branch", source="t", statement="x", variables=(Var("y", (3,)),),
                    residual=lambda xp, y: xp.grad(lambda v: v[0] if v[0] > 0 else -v[0], y)[0])
    assert reading.confirm_floats(branchy, {"y": [1, 2, 3]}).status == "agrees"
    # no exact value: outside the claim
    outside = Claim(id="t/out", source="t", statement="x", variables=(Var("y", (3,)),),
                    residual=lambda xp, y: 1 / (y[0] - y[0]))
    assert reading.confirm_floats(outside, {"y": [1, 2, 3]}).status == "inconclusive"


def test_near_ties_in_floats_are_not_disagreements():
    pytest.importorskip("jax")
    claim = Claim(id="t/tanh", source="t", statement="x", variables=(Var("x", ()),),
                  residual=lambda xp, x: xp.tanh(x * x + 20) - 1)
    # exactly about −8.5·10⁻¹⁸, 0 in floats: within the bound, never a disagreement
    assert reading.confirm_floats(claim, {"x": 0}).status == "agrees"


UNDER = [  # (residual, instance): float64 holds an input, or a product made on the way, only as 0
    (lambda xp, c: c ** 3, {"c": "-1e-400"}),  # the input itself underflows
    (lambda xp, c: c * c * 10**300 - 1, {"c": "1e-200"}),  # c·c underflows, the residual is ≈ −1
    (lambda xp, c: xp.exp(c) * 10**300, {"c": "-800"}),  # exp underflows to 0.0
]


@pytest.mark.parametrize("residual, instance", UNDER)
def test_floats_below_their_normal_range_are_silent_not_a_disagreement(residual, instance):
    # below 2^-1022 float64's rounding error is absolute: the relative bound does not hold, so
    # the float readings confirm nothing there; they must not call the exact value wrong (exit 7)
    claim = Claim(id="t/under", source="t", statement="x", variables=(Var("c", ()),), residual=residual)
    # not silent: the verdict is withheld (a claim may underflow on purpose to switch the
    # float check off: tests/test_redteam_second_reading.py, the type branch)
    numpy_check = reading.confirm_numpy(claim, instance)
    assert numpy_check.status == "inconclusive" and not numpy_check.silent, numpy_check
    assert "underflows" in numpy_check.detail
    pytest.importorskip("jax")
    jax_check = reading.confirm_floats(claim, instance)
    assert jax_check.status == "inconclusive" and not jax_check.silent, jax_check


def test_an_underflow_is_undecided_never_an_internal_disagreement(tmp_path):
    from cli_runner import env_for, run_cli

    (tmp_path / "tiny.py").write_text(
        "from bnproof.claims import Claim, Var\n"
        "TINY = Claim(id='t/tiny', source='t', statement='c^3 \\\\ge 0', variables=(Var('c', ()),),\n"
        "             residual=lambda xp, c: c ** 3)\n")
    (tmp_path / "d.json").write_text('{"c": "-1e-400"}')
    # in this process: the exit code and the message are what is tested, not a process start
    proc = run_cli("verify", "tiny.py", "--data", "d.json", cwd=tmp_path, env=env_for(tmp_path))
    # exit 7 before ("numpy float64 gives -0.0"): floats cannot read this instance, so the
    # verdict waits for a reading that can: undecided, with the reason
    assert proc.returncode == 10, proc.stdout + proc.stderr
    assert "underflows" in proc.stdout + proc.stderr


def test_a_float_far_from_a_normal_exact_value_still_disagrees():
    # the underflow rule must not switch the float check off: at normal scale a wrong exact value
    # is still flagged (the tracked reading's value replaced by one 1e-100 away from the truth)
    claim = Claim(id="t/normal", source="t", statement="x", variables=(Var("c", ()),),
                  residual=lambda xp, c: c * c - 1)
    assert reading.confirm_numpy(claim, {"c": "3"}).status == "agrees"
    pytest.importorskip("jax")
    assert reading.confirm_floats(claim, {"c": "3"}, Fraction(7)).status == "disagrees"


def test_a_refutation_the_float_check_cannot_reach_says_it_is_withheld_not_uncertifiable():
    # the checker accepts it; the second reading's float check cannot follow exp(−800): the
    # reason must say which judge withheld it
    import bnproof

    claim = Claim(id="t/u800", source="t", statement="x", variables=(Var("c", ()),),
                  residual=lambda xp, c: -xp.exp(c * 0 - 800))
    result = bnproof.fuzz(claim, seed=0, max_examples=20, time_budget=60, jax=False, prove=False)
    assert result.verdict == "undecided"
    assert "it is not reported: the second reading" in result.reason
    assert "the checker cannot certify" not in result.reason
