"""Issue 22, classes 2–4, in the symbolic-length tracer (bnproof/symbolic_m), which
`bnproof prove`, fuzz's proof attempt and `check --claim` all read a claim through.

2. A refusal is an exception, and a claim or its helper may catch it: the proof was
   then of the fallback branch ("proved for every m" for a residual of −1 at m ≥ 4).
   Every refusal now poisons the trace first; program_for rejects it afterwards.
3. Introspection (isinstance, size, …) took another branch than numpy: a traced value
   now answers only what numpy's arrays answer at every m, and refuses the rest.
4. A gradient's function that keeps its argument leaked the internal "grad-probe"
   input (exit 8); copies of traced values cloned the recorder.

Each claim is a file, as a user writes it, and each was proved, crashed or was read
otherwise than numpy before the fix."""

from __future__ import annotations

import json
import textwrap
import threading

import pytest

from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.symbolic_m import values
from bnproof.symbolic_m.fragment import OutsideFragment
from bnproof.symbolic_m.trace import program_for
from cli_runner import env_for, run_cli

HEAD = "import copy\n\nimport numpy as np\n\nfrom bnproof.claims import Claim, Var\n\n"


def claim_file(folder, name, body, *, kind="identity", variables="(Var('y', ('m',)),)",
               sizes="{'m': (2, 9)}", claim_id=None, hypotheses="()"):
    """A claim file FOLDER/NAME.py whose residual is `residual` in BODY; (path, claim)."""
    path = folder / f"{name}.py"
    path.write_text(HEAD + textwrap.dedent(body) + textwrap.dedent(f"""

        C = Claim(id={claim_id or 'holes/' + name!r}, source="a test", statement="x", kind={kind!r},
                  variables={variables}, sizes={sizes}, residual=residual, hypotheses={hypotheses})
        """), encoding="utf-8")
    (claim,) = load_file(path)
    return path, claim


def outside_reason(claim, fixed=None) -> str:
    with pytest.raises(OutsideFragment) as refused:
        program_for(claim, fixed or {})
    return refused.value.reason


def prove(path, tmp_path, *more):
    return run_cli("prove", path, "--out-dir", tmp_path / "out", *more, cwd=tmp_path, env=env_for(tmp_path))


# --- class 2: a refusal the claim catches ----------------------------------------------

CAUGHT = [  # (what the claim tries, a fragment of the refusal's reason)
    ("len(y)", "len() of a batch vector"),
    ("xp.relu(y)", "uses relu"),
    ("xp.tanh(xp.sum(y))", "uses tanh"),
    ("xp.pi", "π"),
    ("xp.kind", "xp.kind"),
    ("bool(xp.sum(y))", "a Python branch"),
    ("xp.sum(y) > 0", "a comparison"),
    ("y.shape[0] >= 7", "a comparison"),
    ("y == y", "a comparison"),
    ("y[0]", "indexing an entry"),
    ("[v for v in y]", "a Python loop"),
    ("range(y.shape[0])", "a Python loop or index over the batch size m"),
    ("int(xp.sum(y))", "a Python loop or index"),
    ("float(xp.sum(y))", "a conversion to float"),
    ("np.sum(y)", "numpy.sum on a traced value"),
    ("np.asarray(y)", "converted to a numpy array"),
    ("y * 0.5", "the inexact constant 0.5"),
    ("xp.q(0.5)", "the inexact constant 0.5"),
    ("y + [1, 2]", "with a list"),  # numpy broadcasts it at m = 2, raises elsewhere
    ("y // 2", "// on a traced value"),
    ("xp.sum(y) ** 65", "a power beyond ±64"),
    ("xp.sum(y) ** 0.5", "not an integer"),
    ("xp.sqrt(y)", "square root of a batch vector"),
    ("xp.sum(y) @ y", "@ with a scalar"),
    ("xp.sum(y, axis=1)", "a sum over axis 1"),
    ("xp.grad(lambda u: xp.sum(xp.grad(lambda v: xp.sum(v * u), y)), 2 * y)", "a gradient inside the function"),
    ("xp.grad(lambda u: xp.sum(u), xp.outer(y, y))", "not a batch vector, a scalar or an array of scalars"),
    ("xp.grad(lambda u: u, y)", "a gradient of something that is not one scalar"),
    ("y.shape = (2,)", "an assignment to an attribute"),
    ("y[0] = 1", "an assignment to an entry"),
    ("{y: 1}", "a dict key"),
    ("copy.deepcopy(y._rec)", "a copy of the tracer's recorder"),
    ("xp.sum(xp.outer(y, y)) @ 1", "@ with a scalar"),
]


@pytest.mark.parametrize("operation, reason", CAUGHT, ids=[c[0] for c in CAUGHT])
def test_a_refusal_the_claim_catches_still_puts_it_outside_the_fragment(tmp_path, operation, reason):
    # numpy runs the operation, so the residual is −1; the tracer refused it, and the
    # fallback branch (≡ 0) was proved for every m
    path, claim = claim_file(tmp_path, "caught", f"""
        def residual(xp, y):
            try:
                {operation}
            except Exception:
                return xp.sum(y - xp.mean(y))
            return xp.sum(y - xp.mean(y)) - 1
        """)
    assert reason in outside_reason(claim)


def test_a_refusal_caught_after_the_step_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(values, "MAX_STEPS", 40)
    path, claim = claim_file(tmp_path, "limit", """
        def residual(xp, y):
            fallback = xp.sum(y - xp.mean(y))  # recorded first: returning it needs no new step
            try:
                s = xp.sum(y)
                for k in range(100):
                    s = s + k
            except Exception:
                return fallback
            return fallback - 1
        """)
    assert outside_reason(claim) == "more than 40 steps"


def test_the_first_refusal_is_the_reason_even_when_a_later_one_escapes(tmp_path):
    path, claim = claim_file(tmp_path, "two", """
        def residual(xp, y):
            try:
                len(y)
            except Exception:
                pass
            return xp.relu(y)
        """)
    assert outside_reason(claim).startswith("uses len() of a batch vector")


HELPER = """
def centred_sum(xp, v):
    try:
        n = len(v)  # numpy: m; the tracer refuses, and this helper falls back
    except Exception:
        return xp.sum(v - xp.mean(v))
    return xp.sum(v - xp.mean(v)) - (1 if n >= 4 else 0)
"""


def test_prove_and_check_of_a_claim_whose_helper_catches_a_refusal(tmp_path):
    """Before: "proved for every m", exit 0, and `check --claim` ACCEPTED the certificate,
    for a residual of −1 at every m ≥ 4 (numpy's reading)."""
    (tmp_path / "holes_helper.py").write_text(HELPER, encoding="utf-8")
    path, claim = claim_file(tmp_path, "helper", """
        from holes_helper import centred_sum


        def residual(xp, y):
            return centred_sum(xp, y)
        """)
    assert outside_reason(claim).startswith("uses len() of a batch vector")
    proc = prove(path, tmp_path)
    assert proc.returncode == 10, proc.stdout + proc.stderr
    assert proc.stdout == ("holes/helper: not in the provable fragment: uses len() of a batch vector or "
                           "matrix (the symbolic m is not an int)\n")
    # the fallback branch alone, under the same claim id, is proved; its certificate is not
    # the claim file's, whose program is no program
    fallback = tmp_path / "fallback"
    fallback.mkdir()
    other, _ = claim_file(fallback, "helper", """
        def residual(xp, y):
            return xp.sum(y - xp.mean(y))
        """, claim_id="holes/helper")
    done = run_cli("prove", other, "--json", "--out-dir", tmp_path / "certs", cwd=tmp_path, env=env_for(tmp_path))
    (result,) = json.loads(done.stdout)
    assert done.returncode == 0 and result["status"] == "proved", done.stdout
    (certificate,) = result["certificates"]
    checked = run_cli("check", certificate, "--claim", path, cwd=tmp_path, env=env_for(tmp_path))
    assert checked.returncode == 6 and "REJECTED" in checked.stdout, checked.stdout + checked.stderr
    assert "uses len() of a batch vector" in checked.stdout


def test_a_threshold_on_m_caught_by_the_claim(tmp_path):
    # numpy: −1 from m = 7 on; the tracer's comparison of m was caught and the claim proved
    path, claim = claim_file(tmp_path, "threshold", """
        def residual(xp, y):
            try:
                large = y.shape[0] >= 7
            except Exception:
                large = False
            return xp.sum(y - xp.mean(y)) - (1 if large else 0)
        """)
    assert outside_reason(claim) == "uses a comparison of traced values"
    proc = prove(path, tmp_path)
    assert proc.returncode == 10
    assert proc.stdout == "holes/threshold: not in the provable fragment: uses a comparison of traced values\n"


# --- traces never poison one another -----------------------------------------------------

def _claim(name, residual):
    return Claim(id=f"holes/{name}", source="a test", statement="x", kind="identity",
                 variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=residual)


def _clean(xp, y):
    return xp.sum(y - xp.mean(y))


def _catching(xp, y):
    try:
        len(y)
    except Exception:
        pass
    return xp.sum(y - xp.mean(y))


def test_a_poisoned_trace_leaves_the_next_one_clean():
    with pytest.raises(OutsideFragment):
        program_for(_claim("catching", _catching))
    assert program_for(_claim("clean", _clean)) == program_for(_claim("clean", _clean))


def test_a_nested_trace_refusal_caught_by_the_outer_claim_poisons_the_outer_trace():
    inner_refusing, inner_clean = _claim("inner-refusing", _catching), _claim("inner-clean", _clean)

    def outer(inner):
        def residual(xp, y):
            try:
                program_for(inner)
            except OutsideFragment:
                pass
            return xp.sum(y - xp.mean(y))
        return _claim("outer", residual)

    assert outside_reason(outer(inner_refusing)).startswith("uses len()")
    assert program_for(outer(inner_clean)) == program_for(_claim("clean", _clean))


def test_parallel_traces_in_threads_do_not_poison_one_another():
    """One thread's refusal happens while the other trace is running: a trace list shared
    between threads would poison both; the context variable keeps each thread's own."""
    barrier = threading.Barrier(2, timeout=300)  # only a hang waits that long

    def refusing(xp, y):
        barrier.wait()  # both traces are running
        try:
            len(y)
        except Exception:
            pass
        barrier.wait()  # the refusal is recorded while the other trace still runs
        return xp.sum(y - xp.mean(y))

    def clean(xp, y):
        barrier.wait()
        barrier.wait()  # the other thread's refusal happened during this trace
        return xp.sum(y - xp.mean(y))

    results = {}

    def run(name, residual):
        try:
            results[name] = program_for(_claim(name, residual))
        except OutsideFragment as err:
            results[name] = err.reason

    threads = [threading.Thread(target=run, args=a) for a in (("refusing", refusing), ("clean", clean))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert isinstance(results["clean"], dict), results["clean"]
    assert results["refusing"].startswith("uses len()")


def test_a_refusal_in_a_thread_the_claim_starts_poisons_its_trace():
    def residual(xp, y):
        caught = []

        def work():  # a new thread starts with an empty context: the value names its trace
            try:
                len(y)
            except Exception as err:
                caught.append(err)
        t = threading.Thread(target=work)
        t.start()
        t.join()
        return xp.sum(y - xp.mean(y))

    assert outside_reason(_claim("thread", residual)).startswith("uses len()")


def test_a_value_kept_from_an_earlier_trace_is_refused():
    kept = []

    def residual(xp, y):
        kept.append(xp.sum(y))
        return kept[0] - xp.sum(y)

    claim = _claim("kept", residual)
    assert program_for(claim)["steps"]  # the first trace: its own value
    assert "another trace" in outside_reason(claim)
    kept.clear()

    def returned(xp, y):
        kept.append(xp.sum(y))
        return kept[0]

    claim = _claim("kept-returned", returned)
    program_for(claim)
    assert "another trace" in outside_reason(claim)


# --- class 3: introspection ----------------------------------------------------------------
# The rule: a traced value answers only what numpy's object arrays answer at every m (m itself
# a traced scalar); every other question is refused.  A batch vector is an ndarray in every
# exact reading; a traced scalar is a program node in one and a 0-d array in another.

ANSWERED = [  # (residual using the answer, the same residual written without introspection)
    ("xp.sum(y) if isinstance(y, np.ndarray) else xp.q(0)", "xp.sum(y)"),
    ("xp.sum(y) / y.size", "xp.sum(y) / y.shape[0]"),
    ('xp.sum(y) / getattr(y, "size", 1)', "xp.sum(y) / y.shape[0]"),
    ('xp.sum(y) if hasattr(y, "size") else xp.q(0)', "xp.sum(y)"),
    ("xp.sum(y) * y.ndim", "xp.sum(y) * 1"),
    ("xp.sum(y) * len(y.shape)", "xp.sum(y) * 1"),
    ("xp.sum(y.T * y)", "xp.sum(y * y)"),
    ("xp.sum(copy.copy(y) - xp.mean(y))", "xp.sum(y - xp.mean(y))"),
    ("xp.sum(copy.deepcopy(y) - xp.mean(y))", "xp.sum(y - xp.mean(y))"),
    ("xp.sum(copy.deepcopy([y, xp.mean(y)])[0] - xp.mean(y))", "xp.sum(y - xp.mean(y))"),
    ("copy.deepcopy(xp.sum(y)) - xp.sum(y)", "xp.sum(y) - xp.sum(y)"),
    ("xp.sum(xp.outer(y, y)) if isinstance(xp.outer(y, y), np.ndarray) else xp.q(0)",
     "xp.sum(xp.outer(y, y))"),
    ("xp.sum(xp.outer(y, y)) / xp.outer(y, y).size", "xp.sum(xp.outer(y, y)) / (y.shape[0] * y.shape[0])"),
]


@pytest.mark.parametrize("used, plain", ANSWERED, ids=[a[0] for a in ANSWERED])
def test_introspection_answered_as_numpy_does_gives_the_plain_program(tmp_path, used, plain):
    _, asked = claim_file(tmp_path, "asked", f"def residual(xp, y):\n    return {used}\n")
    _, written = claim_file(tmp_path, "plain", f"def residual(xp, y):\n    return {plain}\n")
    assert program_for(asked) == program_for(written)


REFUSED = [  # (what the claim asks, a fragment of the refusal); each caught by the claim
    ("len(y)", "len() of a batch vector"),
    ("list(y)", "a Python loop"),
    ("[v for v in y]", "a Python loop"),
    ("y.tolist()", "the attribute .tolist"),
    ("y.copy()", "the attribute .copy"),
    ("y.dtype", "the attribute .dtype"),
    ('getattr(y, "dtype", None)', "the attribute .dtype"),
    ('hasattr(y, "astype")', "the attribute .astype"),
    ("np.copy(y)", "numpy.copy on a traced value"),
    ("np.shape(y)", "numpy.shape on a traced value"),
    ("np.size(y)", "numpy.size on a traced value"),
    ("np.ndim(y)", "numpy.ndim on a traced value"),
    ("len(xp.outer(y, y))", "len() of a batch vector or matrix"),
    ("isinstance(xp.sum(y), np.ndarray)", "the class of a traced scalar"),
    ("isinstance(xp.sum(y), (int, float))", "the class of a traced scalar"),
    ("xp.sum(y).size", "the size of a traced scalar"),
    ('getattr(xp.sum(y), "size", 1)', "the size of a traced scalar"),
    ("xp.sum(y).shape", "the shape of a traced scalar"),
    ('hasattr(xp.sum(y), "shape")', "the shape of a traced scalar"),
    ("xp.sum(y).ndim", "the ndim of a traced scalar"),
    ("xp.sum(y).T", "the attribute .T"),
    ("np.shape(xp.sum(y))", "numpy.shape on a traced value"),
    ("copy.deepcopy(y._rec)", "a copy of the tracer's recorder"),
    ("copy.copy(y._rec)", "a copy of the tracer's recorder"),
    ("__import__('pickle').dumps(y)", "a pickled"),
]


@pytest.mark.parametrize("asked, reason", REFUSED, ids=[r[0] for r in REFUSED])
def test_introspection_numpy_answers_otherwise_is_refused_even_when_caught(tmp_path, asked, reason):
    _, claim = claim_file(tmp_path, "refused", f"""
        def residual(xp, y):
            try:
                {asked}
            except Exception:
                pass
            return xp.sum(y - xp.mean(y))
        """)
    assert reason in outside_reason(claim)


def test_a_batch_matrix_input_answers_and_refuses_by_the_same_rule(tmp_path):
    variables = "(Var('X', ('m', 'd')), Var('w', ('d',)))"
    sizes = "{'m': (2, 9), 'd': (2, 2)}"
    _, asked = claim_file(tmp_path, "cols", """
        def residual(xp, X, w):
            assert isinstance(X, np.ndarray) and X.ndim == 2 and copy.deepcopy(X) is X
            return xp.sum(X @ w) / X.size
        """, variables=variables, sizes=sizes)
    _, plain = claim_file(tmp_path, "cols-plain", """
        def residual(xp, X, w):
            return xp.sum(X @ w) / (X.shape[0] * X.shape[1])
        """, variables=variables, sizes=sizes)
    assert program_for(asked, {"d": 2}) == program_for(plain, {"d": 2})
    for question, reason in [("len(X)", "len()"), ("X.dtype", ".dtype"), ("list(X)", "loop")]:
        _, claim = claim_file(tmp_path, "cols-refused", f"""
            def residual(xp, X, w):
                try:
                    {question}
                except Exception:
                    pass
                return xp.sum(X @ w)
            """, variables=variables, sizes=sizes)
        assert reason in outside_reason(claim, {"d": 2}), question


HELPERS = """
import numpy as np


def count(v):
    return getattr(v, "size", 1)  # numpy: m for a batch vector


def is_array(v):
    return isinstance(v, np.ndarray)


def width(v):
    return v.shape if is_array(v) else getattr(v, "shape", ())  # a node has no shape
"""


@pytest.mark.parametrize("name, body, shown", [
    ("size-helper", """
        from holes_introspect import count


        def residual(xp, y):
            n = count(y)
            return -(n - 1) * (n - 2) * (n - 3) * xp.sum(y) ** 2
        """, "not proved: normal form −m³(Σy)² + 6m²(Σy)² − 11m(Σy)² + 6(Σy)²"),
    ("isinstance-helper", """
        from holes_introspect import is_array


        def residual(xp, y):
            m = y.shape[0]
            return -((m - 2) * (m - 3) if is_array(y) else 0) * xp.sum(y) ** 2
        """, "not proved: normal form −m²(Σy)² + 5m(Σy)² − 6(Σy)²"),
    ("scalar-helper", """
        from holes_introspect import width


        def residual(xp, y):
            return xp.sum(y * y) * (len(width(xp.sum(y))) + 1) - xp.sum(y * y)
        """, "not in the provable fragment: uses isinstance or the class of a traced scalar"),
])
def test_prove_of_a_claim_whose_helper_introspects(tmp_path, name, body, shown):
    """Before: the first two were "proved for every m, with equality" (the helper's default
    branch), for claims false at every m ≥ 4 with Σy ≠ 0; the third was proved as Σy² ≥ 0
    with equality under the tracer's shape () for a scalar that numpy's node lacks."""
    (tmp_path / "holes_introspect.py").write_text(HELPERS, encoding="utf-8")
    path, claim = claim_file(tmp_path, name, body, kind="inequality")
    proc = prove(path, tmp_path)
    assert proc.returncode == 10, proc.stdout + proc.stderr
    assert proc.stdout.startswith(f"holes/{name}: {shown}"), proc.stdout


# --- class 4: the gradient's probe, copies ---------------------------------------------------

PROBE_KEPT = """
kept = []


def residual(xp, y):
    def f(u):
        kept.append(u)  # the first call's argument is the tracer's placeholder
        return xp.sum(u * u)
    g = xp.grad(f, y)
    return xp.sum(g * kept[0]) - xp.sum(g * kept[-1])
"""


def test_a_gradient_function_that_keeps_its_argument_is_outside_the_fragment(tmp_path):
    """Before: exit 8, "internal error: ValueError: unknown input 'grad-probe'"."""
    path, claim = claim_file(tmp_path, "probe", PROBE_KEPT)
    assert "xp.grad's placeholder argument" in outside_reason(claim)
    proc = prove(path, tmp_path)
    assert proc.returncode == 10, proc.stdout + proc.stderr
    assert proc.stdout.startswith("holes/probe: not in the provable fragment: uses a value of xp.grad's "
                                  "placeholder argument"), proc.stdout
    proc = prove(path, tmp_path, "--json")
    (obj,) = json.loads(proc.stdout)
    assert proc.returncode == 10 and obj["status"] == "outside-fragment"


def test_the_probe_reaching_a_hypothesis_or_another_gradient_is_refused(tmp_path):
    _, in_hypothesis = claim_file(tmp_path, "probe-hyp", """
        kept = []


        def residual(xp, y):
            def f(u):
                kept.append(u)
                return xp.sum(u * u)
            xp.grad(f, y)
            return xp.sum(y - xp.mean(y))


        def hypothesis(xp, y):
            return xp.sum(kept[0] * kept[0]) + 1
        """, hypotheses="(hypothesis,)")
    assert "xp.grad's placeholder argument" in outside_reason(in_hypothesis)
    _, nested = claim_file(tmp_path, "probe-grad", """
        kept = []


        def residual(xp, y):
            def f(u):
                kept.append(u)
                return xp.sum(u * u)
            xp.grad(f, y)
            g = xp.grad(lambda u: xp.sum(u * kept[0]), y)
            return xp.sum(g * y) - xp.sum(g * y)
        """)
    assert "xp.grad's placeholder argument" in outside_reason(nested)


def test_a_gradient_function_that_keeps_its_argument_unused_still_proves(tmp_path):
    # keeping the argument is harmless when nothing the program needs reads it
    _, claim = claim_file(tmp_path, "probe-unused", """
        kept = []


        def residual(xp, y):
            def f(u):
                kept.append(u)
                return xp.sum(u * u)
            return xp.sum(xp.grad(f, y) - 2 * y)
        """)
    assert program_for(claim)["inputs"] == [["y", "vector", "real"]]
