"""The fixed-size tracer's holes (issue 22), each attacked at its mechanism.

* Refusals swallowed (class 2): a refusal of the tracer poisons the program
  (Program.refuse), whatever the claim's code catches; decide.trace then raises
  TraceRefused and decide() says "outside the fragment: <reason>".
* Copies and introspection (classes 3, 4): traced values behave like an ndarray of
  immutable numbers.  An array is numpy's own object array (its introspection is
  numpy's); a traced scalar is immutable (a copy is itself) and refuses, poisoning
  the trace, what numpy's numbers answer in two ways (np.float64 has .shape, a Python
  float has not) or by value (truth, comparison, float(), hash).  The program
  recorder refuses to be copied, and a value of another program is refused.
* Crashes that must be verdicts or bad input: a residual that is a vector (exit 3
  with file:line), `xp.leaky_relu(x, xp.q(1, 10))` in every backend, moment powers
  above the tracer's limit that the claim never wrote, Law variables in equalities.
"""

from __future__ import annotations

import copy
import json
import numbers
import pickle
from fractions import Fraction as F

import numpy as np
import pytest

from bnproof.claims import Claim, Law, Var
from bnproof.claims import blocks
from bnproof.claims import xp as namespaces
from bnproof.claims.decide import HOLDS, REFUTED, UNDECIDED, BadOutput, NotAScalar, decide, trace
from bnproof.errors import ExitCode
from bnproof.program.evaluate import Evaluator
from bnproof.program.trace import Node, Program, ProgramTooLarge, TraceRefused, refuse
from cli_runner import run_cli

# ---------------------------------------------------------------- refusals poison the trace

# Each raises under the tracer (or reads what numpy answers two ways) where numpy's floats
# would go on; a claim that catches it must not be judged on its fallback branch.
REFUSALS = {
    "truth value": lambda xp, y, g: bool(y[0]),
    "if": lambda xp, y, g: 1 if y[0] else 0,
    "==": lambda xp, y, g: y[0] == y[1],
    "<": lambda xp, y, g: y[0] < 0,
    ">=": lambda xp, y, g: g >= y[1],
    "sorted": lambda xp, y, g: sorted(y),
    "hash": lambda xp, y, g: {y[0], y[1]},
    "float()": lambda xp, y, g: float(g),
    "int()": lambda xp, y, g: int(g),
    "round()": lambda xp, y, g: round(g),
    "//": lambda xp, y, g: g // 2,
    "%": lambda xp, y, g: g % 2,
    "2 ** g": lambda xp, y, g: 2 ** g,
    "g ** 0.5": lambda xp, y, g: g ** 0.5,
    "g ** 65": lambda xp, y, g: g ** 65,
    "g + 0.5": lambda xp, y, g: g + 0.5,
    "g * np.float64": lambda xp, y, g: g * np.float64(0.5),
    "g @ g": lambda xp, y, g: g @ g,
    "scalar .shape": lambda xp, y, g: g.shape,
    "getattr(g, 'size', 1)": lambda xp, y, g: getattr(g, "size", 1),
    "hasattr(g, 'dtype')": lambda xp, y, g: hasattr(g, "dtype"),
    "g.max()": lambda xp, y, g: g.max(),
    "g[()]": lambda xp, y, g: g[()],
    "np.ndim(g)": lambda xp, y, g: np.ndim(g),
    "deepcopy of the recorder": lambda xp, y, g: copy.deepcopy(g.program),
    "pickle": lambda xp, y, g: pickle.dumps(g),
    "xp.q of a traced value": lambda xp, y, g: xp.q(g, 2),
    "a float leaky-ReLU slope": lambda xp, y, g: xp.leaky_relu(g, 0.1),
    "xp.grad of a vector": lambda xp, y, g: xp.grad(lambda a: a * 2, y),
    "a dual's truth value": lambda xp, y, g: xp.grad(lambda a: a[0] if a[0] else a[1], y),
    "a dual's float()": lambda xp, y, g: xp.grad(lambda a: float(a[0]), y),
    "a dual's .shape": lambda xp, y, g: xp.grad(lambda a: a[0] * len(a[1].shape), y),
    "blocks: an unknown activation": lambda xp, y, g: blocks.activate(xp, y, "softmax"),
}


def swallowing(op) -> Claim:
    """A TRUE-looking identity whose residual is 0 on the fallback branch, −1 otherwise."""

    def residual(xp, y, g):
        try:
            op(xp, y, g)
        except Exception:  # noqa: BLE001 - the attack
            return xp.q(0)
        return xp.q(-1)

    return Claim(id="t/swallow", source="test", statement="x", kind="identity",
                 variables=(Var("y", (2,)), Var("g", ())), residual=residual)


INSTANCE = {"y": [F(1), F(2)], "g": F(3)}


@pytest.mark.parametrize("name", sorted(REFUSALS))
def test_a_refusal_poisons_the_trace_whatever_the_claim_catches(name):
    claim = swallowing(REFUSALS[name])
    with pytest.raises(TraceRefused) as refused:
        trace(claim, {})
    assert refused.value.reason and refused.value.error is not None
    decision = decide(claim, INSTANCE)
    assert decision.verdict == UNDECIDED, decision
    assert decision.detail == f"outside the fragment: {refused.value.reason}"


def test_the_poison_api():
    program = Program(max_steps=3)
    assert program.poison is None and program.refusals == 0
    program.check()  # nothing refused: no exception
    x = program.emit(["input", "x"])
    with pytest.raises(TypeError):
        bool(x)
    assert program.poison.startswith("a traced value has no truth value")
    with pytest.raises(ProgramTooLarge):
        for _ in range(5):
            x = x + x
    assert program.refusals == 2 and program.poison.startswith("a traced value has no truth value")
    with pytest.raises(TraceRefused, match="and 1 more refusals"):
        program.check()
    # refuse() records on the active program, and only returns the error outside a trace
    error = ValueError("outside")
    assert refuse(error) is error
    other = Program()
    with other:
        assert refuse(ValueError("inside")) is not None
    assert other.poison == "inside"
    # one exception object, raised through several layers, is one refusal
    again = Program()
    err = again.refuse(again.refuse(TypeError("once")))
    assert again.refuse(err) is err and again.refusals == 1


def test_an_uncaught_refusal_is_raised_as_it_was():
    claim = Claim(id="t/if", source="test", statement="x", kind="identity",
                  variables=(Var("y", (2,)),), residual=lambda xp, y: xp.q(1) if y[0] else xp.q(0))
    with pytest.raises(TypeError, match="no truth value"):
        trace(claim, {})


def test_refusal_in_a_helper_module_is_bad_input_naming_it(tmp_path):
    (tmp_path / "safe.py").write_text(
        "def sign(v):\n"
        "    try:\n"
        "        return 1 if v > 0 else -1\n"
        "    except Exception:\n"
        "        return 0\n")
    (tmp_path / "claim.py").write_text(
        "from bnproof.claims import Claim, Var\n"
        "from safe import sign\n"
        "CLAIM = Claim(id='t/helper', source='t', statement='x', kind='identity',\n"
        "    variables=(Var('y', ('m',)),), sizes={'m': (2, 3)},\n"
        "    residual=lambda xp, y: xp.q(sign(xp.sum(y))))\n")
    (tmp_path / "d.json").write_text(json.dumps({"y": [1, 2]}))
    for args in (("verify", "claim.py", "--data", "d.json"),
                 ("fuzz", "claim.py", "--no-jax", "--time-budget", "300", "--max-examples", "5")):
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == ExitCode.BAD_INPUT, (args, done.stdout, done.stderr)
        assert "safe.py:3" in done.stderr and "TraceRefused" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


SWALLOW = """from bnproof.claims import Claim, Var
def _res(xp, y):
    try:
        if y[0] > 0:
            return xp.q(-1)
    except Exception:
        pass
    return xp.q(0)
CLAIM = Claim(id="t/swallow", source="t", statement="x", kind="identity",
    variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_res)
"""


def test_a_swallowed_refusal_is_never_a_verdict_from_the_command_line(tmp_path):
    (tmp_path / "claim.py").write_text(SWALLOW)
    (tmp_path / "d.json").write_text(json.dumps({"y": [1, 2]}))
    for args in (("verify", "claim.py", "--data", "d.json"),
                 ("fuzz", "claim.py", "--no-jax", "--time-budget", "300", "--max-examples", "5")):
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == ExitCode.BAD_INPUT, (args, done.stdout, done.stderr)
        assert "claim.py:4" in done.stderr and "cannot be compared" in done.stderr, done.stderr


def test_a_value_of_another_program_is_refused():
    foreign = Program()
    stranger = foreign.emit(["input", "y", 0])
    claim = Claim(id="t/foreign", source="test", statement="x", kind="identity",
                  variables=(Var("y", (1,)),), residual=lambda xp, y: stranger)
    decision = decide(claim, {"y": [F(0)]})
    assert decision.verdict == UNDECIDED and "another trace" in decision.detail, decision
    mixed = Claim(id="t/mixed", source="test", statement="x", kind="identity",
                  variables=(Var("y", (1,)),), residual=lambda xp, y: y[0] - stranger)
    decision = decide(mixed, {"y": [F(0)]})
    assert decision.verdict == UNDECIDED and "another trace" in decision.detail, decision


# ---------------------------------------------------------------- copies and introspection

# numpy introspection a helper may do.  Each must give under the tracer exactly what it gives
# on numpy float values (same branch, same values), or poison the trace.
PROBES = {
    "isinstance ndarray": lambda v: isinstance(v, np.ndarray),
    ".size": lambda v: v.size,
    ".shape": lambda v: v.shape,
    ".ndim": lambda v: v.ndim,
    "len": lambda v: len(v),
    "copy.copy": copy.copy,
    "copy.deepcopy": copy.deepcopy,
    "np.copy": np.copy,
    ".copy()": lambda v: v.copy(),
    ".tolist()": lambda v: v.tolist(),
    "list()": lambda v: list(v),
    "[::-1].copy()": lambda v: v[::-1].copy(),
    "getattr size": lambda v: getattr(v, "size", 1),
    "hasattr shape": lambda v: hasattr(v, "shape"),
    "isinstance numbers.Real": lambda v: isinstance(v, numbers.Real),
}


def _observed(value, exact):
    """A comparable picture of a probe's outcome; traced values by their exact value."""
    if type(value) is Node:  # isinstance answers as for np.float64 (program/trace.py)
        return exact(value)
    if isinstance(value, np.ndarray):
        return ("array", value.shape, [_observed(x, exact) for x in value.reshape(-1)])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_observed(x, exact) for x in value])
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return F(float(value))
    return exact(value)


def _outcome(probe, value, exact):
    try:
        return _observed(probe(value), exact)
    except Exception as err:  # noqa: BLE001 - the branch a claim would take
        return ("raises", type(err).__name__)


def _traced_values():
    program = Program()
    y = np.array([program.emit(["input", "y", i]) for i in range(3)], dtype=object)
    g = program.emit(["input", "g"])
    values = {"y": [F(1), F(5), F(2)], "g": F(7)}

    def exact(node):
        assert node.program is program  # never a node of a clone
        return Evaluator(program.steps, lambda name, index: values[name][index[0]] if index
                         else values[name]).sign(node.index).value.lo

    return program, {"array": y, "entry": y[1], "scalar": g}, exact


FLOATS = {"array": [np.array([1.0, 5.0, 2.0])], "entry": [np.array([1.0, 5.0, 2.0])[1]],
          "scalar": [7.0, np.float64(7.0)]}  # a scalar variable: a Python float in the screen


@pytest.mark.parametrize("probe", sorted(PROBES))
@pytest.mark.parametrize("kind", ["array", "entry", "scalar"])
def test_introspection_is_numpys_or_poisons(probe, kind):
    program, values, exact = _traced_values()
    traced = _outcome(PROBES[probe], values[kind], exact)
    if program.poison is not None:
        return  # refused: the claim is outside the fragment, whatever it did with the answer
    for number in FLOATS[kind]:
        assert traced == _outcome(PROBES[probe], number, lambda x: pytest.fail(repr(x))), (probe, kind)


def test_introspection_of_arrays_never_poisons():
    """Arrays are numpy's own: their introspection is numpy's, so it must not poison."""
    for probe in PROBES.values():
        program, values, exact = _traced_values()
        _outcome(probe, values["array"], exact)
        assert program.poison is None


def test_copies_of_traced_values_are_the_values_themselves():
    program, values, _ = _traced_values()
    y, g = values["array"], values["scalar"]
    assert copy.copy(g) is g and copy.deepcopy(g) is g
    deep = copy.deepcopy(y)
    assert deep is not y and all(a is b for a, b in zip(deep, y))
    memo_shared = copy.deepcopy([y, y])
    assert memo_shared[0] is memo_shared[1]
    (deep[0] * deep[1]).index  # later steps go to the one program
    assert len(program.steps) == 5 and program.poison is None
    with pytest.raises(TypeError):
        copy.copy(program)
    assert "cannot be copied" in program.poison


def test_copies_of_duals_keep_their_tag_and_parts():
    from bnproof.claims.dual import Dual

    program = Program()
    x = program.emit(["input", "x"])
    d = Dual(x, 1, 7)
    e = copy.deepcopy(d)
    assert copy.copy(d) is d and e is not d and (e.a, e.b, e.tag) == (x, 1, 7)
    assert program.poison is None


DEEPCOPY = """import copy
from bnproof.claims import Claim, Var
def _res(xp, y):
    z = copy.deepcopy(y)          # a defensive copy, as numpy code often makes
    bound = xp.q(5)
    return z[0] - z[1]
CLAIM = Claim(id="t/deepcopy", source="t", statement="x", kind="identity",
    variables=(Var("y", (2,)),), residual=_res)
"""

DEEPCOPY_MORE = """import copy
from bnproof.claims import Claim, Var
def _res(xp, y):
    z = copy.deepcopy(y)
    w = y[0] * y[0] + y[1] * y[1] + y[0] * y[1] + xp.q(5)
    grads = []
    def f(a):
        grads.append(copy.deepcopy(a))
        return a[0] * z[1]
    g = xp.grad(f, copy.deepcopy(z))
    return z[0] - z[1] + w * 0 + g[0] - z[1]
CLAIM = Claim(id="t/deepcopy-more", source="t", statement="x", kind="identity",
    variables=(Var("y", (2,)),), residual=_res)
"""


@pytest.mark.parametrize("source", [DEEPCOPY, DEEPCOPY_MORE])
def test_a_deep_copy_of_an_input_gives_the_true_residual(tmp_path, source):
    (tmp_path / "claim.py").write_text(source)
    (tmp_path / "d.json").write_text(json.dumps({"y": [3, 1]}))
    done = run_cli("verify", "claim.py", "--data", "d.json", cwd=tmp_path)
    assert done.returncode == ExitCode.REFUTED, (done.stdout, done.stderr)
    assert "residual = 2 ≈ 2" in done.stdout  # y₀ − y₁ = 2 (the clone's program said 5)
    # the search's verdict, in this process: the tracer is what is tested, not fuzz's worker
    import bnproof

    found = bnproof.fuzz(tmp_path / "claim.py", jax=False, time_budget=300, max_examples=20)
    assert found.verdict == "refuted", found


# ---------------------------------------------------------------- crashes: verdicts or bad input

VECTOR = """from bnproof.claims import Claim, Var
CLAIM = Claim(id="t/vector", source="t", statement="x",
    variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
    residual=lambda xp, y: y * y)
"""


def test_a_vector_residual_is_bad_input_with_its_file_and_line(tmp_path):
    (tmp_path / "claim.py").write_text(VECTOR)
    (tmp_path / "d.json").write_text(json.dumps({"y": [1, 2]}))
    for args in (("verify", "claim.py", "--data", "d.json"),
                 ("fuzz", "claim.py", "--no-jax", "--time-budget", "300")):
        done = run_cli(*args, cwd=tmp_path)
        assert done.returncode == ExitCode.BAD_INPUT, (args, done.stdout, done.stderr)
        assert "claim.py:4" in done.stderr and "must be a scalar" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "undecided" not in done.stdout


def test_decide_lets_a_vector_residual_through_as_bad_input():
    claim = Claim(id="t/vector", source="t", statement="x", variables=(Var("y", (2,)),),
                  residual=lambda xp, y: y * y)
    with pytest.raises(NotAScalar, match=r"test_tracer_holes.py:\d+: claim t/vector: the residual must"):
        decide(claim, {"y": [F(1), F(2)]})
    assert NotAScalar.exit_code == ExitCode.BAD_INPUT
    # a float is the claim's mistake too (bad input where the claim is traced first), but at
    # one instance it is undecided, as it always was
    floaty = Claim(id="t/float", source="t", statement="x", variables=(Var("y", (2,)),),
                   residual=lambda xp, y: 0.5)
    with pytest.raises(BadOutput, match="exact number"):
        trace(floaty, {})
    assert decide(floaty, {"y": [F(1), F(2)]}).verdict == UNDECIDED


def test_leaky_relu_takes_an_xp_q_slope_in_every_backend():
    f = lambda xp, x: xp.leaky_relu(x, xp.q(1, 10))  # noqa: E731 - the documented form
    import sympy

    assert f(namespaces.symbolic(), sympy.Integer(-2)) == sympy.Rational(-1, 5)
    assert float(f(namespaces.floating(), np.float64(-2.0))) == pytest.approx(-0.2)
    assert float(f(namespaces.numeric(), np.float64(-2.0))) == pytest.approx(-0.2)
    claim = Claim(id="t/leaky", source="t", statement="x", kind="identity", variables=(Var("x", ()),),
                  residual=lambda xp, x: f(xp, x) - x * xp.q(1, 10))
    assert decide(claim, {"x": F(-2)}).verdict == HOLDS
    assert decide(claim, {"x": F(3)}).verdict == REFUTED


LEAKY = """from bnproof.claims import Claim, Var
CLAIM = Claim(id="t/leaky", source="t", statement="x", variables=(Var("y", ()),),
    residual=lambda xp, y: y - xp.leaky_relu(y, xp.q(1, 10)))
"""


def test_leaky_relu_with_an_xp_q_slope_is_refuted_from_the_command_line(tmp_path):
    (tmp_path / "claim.py").write_text(LEAKY)
    done = run_cli("fuzz", "claim.py", "--no-jax", "--time-budget", "300", "--max-examples", "40",
                   cwd=tmp_path)
    assert done.returncode == ExitCode.REFUTED, (done.stdout, done.stderr)


def _law_claim(residual, **fields):
    return Claim(id="t/law", source="t", statement="x", variables=(Law("Z", (), 2),),
                 residual=residual, **fields)


def test_a_moment_above_the_tracers_power_limit_that_the_claim_never_wrote():
    # E[X⁶⁴·X] = Σ p s⁶⁵: the claim writes powers ≤ 64, the moment algebra must not emit ⁶⁵
    def residual(xp, Z):
        direct = xp.sum(Z.probabilities * Z.support ** 64 * Z.support)
        return xp.expect(lambda xp, X: X[0] ** 64 * X[0], Z, 1) - direct

    claim = _law_claim(residual, kind="identity")
    traced = trace(claim, {})
    assert all(step[2] <= 64 for step in traced.steps if step[0] == "pow")
    assert decide(claim, {"Z_support": [F(-2), F(3, 2)], "Z_weights": [F(1), F(2)]}).verdict == HOLDS
    # the same with two i.i.d. samples: E[(X₀X₁)⁶⁴·X₀X₁] = E[X⁶⁵]²
    square = _law_claim(lambda xp, Z: xp.expect(lambda xp, X: (X[0] * X[1]) ** 64 * X[0] * X[1], Z, 2)
                        - xp.sum(Z.probabilities * Z.support ** 64 * Z.support) ** 2, kind="identity")
    assert decide(square, {"Z_support": [F(-1), F(1, 2)], "Z_weights": [F(3), F(1)]}).verdict == HOLDS


LAW_EQUALITY = """from bnproof.claims import Claim, Law
def mean(xp, Z):
    return xp.expect(lambda xp, X: X[0], Z, 1)
def third(xp, Z):
    return xp.expect(lambda xp, X: X[0] ** 3, Z, 1)
CLAIM = Claim(id="t/law-eq", source="t", statement="x",
    variables=(Law("Z", (), 2),), equalities=(mean,), residual=third)
"""


def test_law_variables_reach_the_equalities_as_the_distribution(tmp_path):
    (tmp_path / "claim.py").write_text(LAW_EQUALITY)
    (tmp_path / "d.json").write_text(json.dumps({"Z_support": [-2, 1], "Z_weights": [1, 2]}))
    done = run_cli("verify", "claim.py", "--data", "d.json", cwd=tmp_path)
    assert done.returncode == ExitCode.REFUTED, (done.stdout, done.stderr)  # E[X] = 0, E[X³] = −2
    assert "residual = −2" in done.stdout


def test_law_variables_reach_the_quantities_as_the_distribution():
    claim = _law_claim(lambda xp, Z: xp.q(0),
                       quantities={"E": lambda xp, Z: xp.expect(lambda xp, X: X[0], Z, 1)})
    xp = namespaces.symbolic()
    value = claim.quantities["E"](xp, Z_support=xp.asarray([xp.q(-2), xp.q(1)]),
                                  Z_weights=xp.asarray([xp.q(1), xp.q(2)]))
    assert value == 0


LEAK = """from bnproof.claims import Claim, Var
def _res(xp, y):
    kept = []
    def f(a):
        kept.append(a)            # the function being differentiated stores its argument
        return xp.sum(a * a)
    xp.grad(f, y)
    return kept[0][0] - y[0]
CLAIM = Claim(id="t/leak", source="t", statement="x", kind="identity",
    variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=_res)
"""


def test_a_gradient_argument_kept_outside_is_refused_never_a_crash(tmp_path):
    (tmp_path / "claim.py").write_text(LEAK)
    (tmp_path / "d.json").write_text(json.dumps({"y": [1, 2]}))
    done = run_cli("verify", "claim.py", "--data", "d.json", cwd=tmp_path)
    assert done.returncode == ExitCode.BAD_INPUT, (done.stdout, done.stderr)
    assert "perturbation of xp.grad" in done.stderr
    done = run_cli("fuzz", "claim.py", "--no-jax", "--time-budget", "300", cwd=tmp_path)
    assert done.returncode in (ExitCode.BAD_INPUT, ExitCode.UNDECIDED), (done.stdout, done.stderr)
    assert "perturbation of xp.grad" in done.stdout + done.stderr
