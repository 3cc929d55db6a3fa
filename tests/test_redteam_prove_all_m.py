"""Red team of issue 15 (proofs for every batch size m): claims that are FALSE under the
claim's own numpy semantics must never be "proved for every m", and forged proof
certificates must never be accepted.

Each false claim below was proved (with a certificate the checker accepted) before its
fix: the symbolic-length tracer gave the claim's residual another meaning than numpy
does, and the checker, which trusts the program, replayed the wrong program faithfully.
Every claim is checked false on a concrete instance with the claim's own exact
evaluation first, so a test cannot pass because its claim happens to be true."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.symbolic_m.prove import attempt
from tests.tamper import seal
from tests.test_checker_proof import ProgramBuilder, certificate, claim as claim_object

Y, G = Var("y", ("m",)), Var("g", ("m",))
X, W = Var("X", ("m", "d")), Var("w", ("d",))


def make(name, residual, variables=(Y, G), kind="inequality", sizes=None, hypotheses=()):
    return Claim(id=f"redteam/{name}", source="a red-team test", statement="x", residual=residual,
                 variables=variables, sizes=sizes or {"m": (2, 4)}, kind=kind, hypotheses=hypotheses)


def exact_residual(claim, values):
    """The claim's residual on an instance, with the exact fixed-size engine (numpy semantics)."""
    from bnproof.claims.decide import decide

    return decide(claim, values)


def assert_false_at(claim, values):
    verdict = exact_residual(claim, values)
    assert verdict.verdict != "holds", verdict  # the claim really is false


def assert_not_proved(claim, fixed=None):
    result = attempt(claim, fixed or {}, certify=True)
    assert not result.proved, (result.reason, result.program)
    assert result.document is None
    return result


def vec(*xs):
    return np.array([Fraction(x) for x in xs], dtype=object)


# --- (a) false claims the engine proved: the tracer's numpy semantics ------------------

def _axis_sum(xp, y, g):
    # numpy: mean over axis 0 of y gᵀ is mean(y)·g, a vector; the sum of it times y is
    # mean(y)·<g, y>.  Traced as the mean of ALL entries (a scalar), it was mean(y)·mean(g)·Σy.
    return xp.sum(xp.mean(xp.outer(y, g), axis=0) * y) - xp.mean(y) * xp.mean(g) * xp.sum(y)


def test_a_matrix_mean_over_an_axis_is_a_vector_not_the_mean_of_all_entries():
    c = make("mean-axis-0", _axis_sum)
    assert_false_at(c, {"y": vec(1, 2), "g": vec(1, -1)})
    assert_not_proved(c)


def test_a_matrix_sum_over_axis_1_is_m_at_v():
    # numpy: Σ_j y_i g_j over axis 1 is y·Σg; its dot with g is <y, g>·Σg.  Claimed = Σy·(Σg)²/m.
    c = make("sum-axis-1", lambda xp, y, g: xp.sum(xp.sum(xp.outer(y, g), axis=1) * g)
             - xp.sum(y * g) * xp.sum(g), kind="identity")
    proved = attempt(c, {}, certify=True)
    assert proved.proved, proved.reason  # true: the axis is honoured
    wrong = make("sum-axis-1-wrong", lambda xp, y, g: xp.sum(xp.sum(xp.outer(y, g), axis=1) * g)
                 - xp.sum(y) * xp.sum(g) ** 2 / y.shape[0], kind="identity")
    assert_not_proved(wrong)


def test_numpy_functions_on_traced_values_are_outside_the_fragment():
    # np.dot of two traced vectors took them as 0-d object arrays: their elementwise
    # product, not the inner product.  Σ(<y,g>·g) - Σ(y∘g∘g) >= 0 is false (y = (1, 0), g = (1, -1)).
    c = make("np-dot", lambda xp, y, g: xp.sum(np.dot(y, g) * g) - xp.sum(y * g * g))
    assert_false_at(c, {"y": vec(1, 0), "g": vec(1, -1)})
    result = assert_not_proved(c)
    assert result.status == "outside-fragment" and "numpy" in result.reason
    for fn in (lambda xp, y, g: np.sum(y) - xp.sum(y), lambda xp, y, g: np.asarray(y).sum() - xp.sum(y),
               lambda xp, y, g: np.mean(y) - xp.mean(y), lambda xp, y, g: xp.sum(np.outer(y, g))):
        assert attempt(make("np", fn, kind="identity"), {}, certify=False).status == "outside-fragment"


def test_a_batch_matrix_times_a_batch_vector_broadcasts_along_the_fixed_axis_in_numpy():
    # numpy: X (m, d) * y (m,) multiplies column j by y_j (and needs d = m); traced as row i
    # times y_i, Σ(X∘y) - Σ(y @ X) was 0 and "proved" at d = 2.
    c = make("columns-times-vector", lambda xp, X, y: xp.sum(X * y) - xp.sum(y @ X), variables=(X, Y),
             sizes={"m": (2, 4), "d": (2, 2)})
    xs = np.array([[Fraction(0), Fraction(5)], [Fraction(1), Fraction(0)]], dtype=object)
    assert_false_at(c, {"X": xs, "y": vec(1, -1)})
    assert_not_proved(c, {"d": 2})
    transposed = make("columns-plus-transpose", lambda xp, X: -xp.sum((X + X.T) ** 2) + 4 * xp.sum(X * X),
                      variables=(X,), sizes={"m": (2, 4), "d": (2, 2)})
    assert attempt(transposed, {"d": 2}, certify=False).status == "outside-fragment"


def test_a_fixed_size_array_times_a_batch_vector_is_outside():
    # numpy: w (1,) * y (m,) is the vector w_0·y, whose entry 0 is the scalar w_0·y_0; traced
    # as an array holding the vector w_0·y, entry 0 was that vector, and Σ of it w_0·Σy.
    c = make("array-times-vector", lambda xp, w, y: xp.sum((w * y)[0]) - w[0] * xp.sum(y),
             variables=(W, Y), sizes={"m": (2, 4), "d": (1, 1)})
    assert_false_at(c, {"w": vec(1), "y": vec(1, 1)})
    assert attempt(c, {"d": 1}, certify=False).status == "outside-fragment"


def test_a_gradient_of_a_closure_over_its_own_variable():
    # xp.grad(f, y) is the gradient of f at y, f's other values held fixed (as the exact and
    # JAX backends do): for f(t) = <t, y> it is y, not 2y.  Σ(∇·g) - 2<y, g> >= 0 is false.
    c = make("grad-closure", lambda xp, y, g: xp.sum(xp.grad(lambda t: xp.sum(t * y), y) * g)
             - 2 * xp.sum(y * g))
    assert_false_at(c, {"y": vec(1, 0), "g": vec(1, 0)})
    result = assert_not_proved(c)
    # differentiated in its argument only (reverse mode over f's steps, symbolic_m/tangents.py)
    assert result.status == "not-proved" and "normal form" in result.reason
    exact = make("grad-closure-exact", lambda xp, y, g: xp.sum(xp.grad(lambda t: xp.sum(t * y), y) * g)
                 - xp.sum(y * g), kind="identity")
    assert attempt(exact, {}, certify=True).proved
    # a closure over values that do not depend on the variable is fine (Facts C.1, C.2)
    fine = make("grad-closure-fine", lambda xp, y, g: xp.sum(xp.grad(lambda t: xp.sum(t * g), y) * g)
                - xp.sum(g * g), kind="identity")
    assert attempt(fine, {}, certify=True).proved


def test_the_mean_of_a_scalar_is_the_scalar():
    # numpy: mean(<y, g>) = <y, g>; traced as <y, g>/m, <y, g>/m - mean(<y, g>) >= 0 was 0
    c = make("mean-of-scalar", lambda xp, y, g: xp.sum(y * g) / y.shape[0] - xp.mean(xp.sum(y * g)))
    assert_false_at(c, {"y": vec(1, 1), "g": vec(1, 1)})
    assert_not_proved(c)
    assert attempt(make("mean-of-scalar-id", lambda xp, y, g: xp.mean(xp.sum(y)) - xp.sum(y), kind="identity"),
                   {}, certify=True).proved


def test_a_program_that_is_not_the_claims_is_a_disagreement(monkeypatch):
    """Defence in depth against the next tracer bug: the program is compared with the
    claim's own code read without the tracer (bnproof.reading) at generic instances of
    several m, so a program of another statement, here residual 0 for a false
    inequality, is not proved: it is an internal disagreement (exit 7)."""
    from bnproof import reading
    from bnproof.errors import Disagreement
    from bnproof.symbolic_m import prove
    from bnproof.symbolic_m.crosscheck import second_reading
    from bnproof.symbolic_m.trace import program_for

    false = make("cross-false", lambda xp, y, g: xp.sum(y) * xp.sum(g) - xp.sum(y * g))
    zero = make("cross-zero", lambda xp, y, g: xp.sum(y * g) - xp.sum(g * y))
    assert_false_at(false, {"y": vec(1, -1), "g": vec(1, 0)})
    monkeypatch.setattr(prove, "program_for", lambda claim, fixed: program_for(zero, fixed))
    with pytest.raises(Disagreement, match="cross-false"):
        prove.attempt(false, {})
    monkeypatch.undo()
    assert prove.attempt(zero, {}).proved  # the same program, bound to its own claim
    assert second_reading(zero, {}, program_for(zero, {})).status == reading.AGREES
    result = second_reading(false, {}, program_for(zero, {}))
    assert result.status == reading.DISAGREES and "residual" in result.detail


# --- (b) forged certificates -------------------------------------------------------------

def _many_gradients(count: int, m: int = 4):
    """sum(grad(S[y], y) * y) - 2 S[y] = 0, with `count` copies of the gradient step (a
    forged certificate may repeat steps the tracer would have shared), each read by the
    residual through a product with 0 (an unread gradient is rejected, live_steps.py)."""
    b = ProgramBuilder(["y", "vector", "real"])
    y = b.input("y")
    s = b.sum(b.mul(y, y))
    grads = [b.grad(s, y) for _ in range(count)]
    r = b.sub(b.sum(b.mul(grads[-1], y)), b.mul(b.const("2"), s))
    zero = b.const("0")
    for g in grads[:-1]:
        r = b.add(r, b.mul(zero, b.sum(g)))
    witness = {"m": m, "inputs": {"y": [str(i) for i in range(m)]}}
    return certificate(b.program(r), body=claim_object(names=("y",)), witness=witness)


def test_gradients_at_the_witness_are_charged_against_a_work_limit(monkeypatch):
    # every ["grad", f, x] instantiated at the witness walked all scalar steps before f,
    # unbounded: 2,000 gradients after 500 outer products at m = 32 took a minute, and
    # 20,000 would take hours.  Now only f's cone is visited, each visit charged.
    from bnproof.checker import instantiate

    assert "residual = 0" in check_document(seal(_many_gradients(3)))
    monkeypatch.setattr(instantiate, "MAX_GRADIENT_WORK", 200)
    with pytest.raises(Rejected, match="gradient.*limit"):
        check_document(seal(_many_gradients(40)))


def _rejected(doc, match):
    with pytest.raises(Rejected, match=match):
        check_document(seal(doc))


def _mutated(doc, fn):
    doc = copy.deepcopy(doc)
    fn(doc)
    return doc


def _hypothesis_program():
    """S[y∘y] - S[y]²/m >= 0 under the hypothesis S[y] > 0: proved by m·S[(y - μ)²] / m², with
    a witness at m = 2."""
    b = ProgramBuilder(["y", "vector", "real"])
    y, m = b.input("y"), b.m()
    h = b.sum(y)
    r = b.sub(b.sum(b.mul(y, y)), b.div(b.pow(h, 2), m))
    program = b.program(r, [h], "inequality")
    n = len(program["steps"])
    steps = [["div", h, m], ["sub", y, n], ["pow", n + 1, 2], ["sum", n + 2]]
    proof = {"method": "nonnegative", "steps": steps, "terms": [{"coefficient": "1", "factors": [n + 3]}],
             "denominator": []}
    body = claim_object(kind="inequality", names=("y",))
    return certificate(program, proof, {"m": 2, "inputs": {"y": ["1", "2"]}}, body)


def test_a_proof_of_an_unknown_claim_says_what_it_trusts():
    line = check_document(seal(_hypothesis_program()))
    assert line.startswith("me/proof proved for every m: residual >= 0 (assuming 1 hypothesis > 0, "
                           "every step defined; witness at m = 2; trusting program sha256:")


@pytest.mark.parametrize("m", [0, -1, 33, 10**30, True, "2", 2.0, None])
def test_a_witness_at_a_batch_size_outside_1_to_32(m):
    _rejected(_mutated(_hypothesis_program(), lambda d: d["witness"].update(m=m)), "witness.m")


def test_a_witness_on_the_boundary_of_a_hypothesis_or_the_domain():
    doc = _hypothesis_program()
    _rejected(_mutated(doc, lambda d: d["witness"]["inputs"].update(y=["1", "-1"])), "hypothesis 0.*not positive")
    _rejected(_mutated(doc, lambda d: d["witness"].update(m=1, inputs={"y": ["-1"]})), "hypothesis 0")
    # at m = 1 with S[y] > 0 the proof is not vacuous: accepted
    assert "witness at m = 1" in check_document(seal(_mutated(doc, lambda d: d["witness"].update(
        m=1, inputs={"y": ["3"]}))))


@pytest.mark.parametrize("value", ["1e400", "NaN", "٣", "1.5", " 1", "+1", "0x10", "1_0", "-0", "2/4", "3/1",
                                   "1" * 2001, 1, None, ["1", "2"]])
def test_hostile_witness_numbers(value):
    _rejected(_mutated(_hypothesis_program(), lambda d: d["witness"]["inputs"].update(y=[value, "2"])),
              "witness.inputs.y")


def test_denominator_factors_that_are_zero_somewhere():
    doc = _hypothesis_program()
    hyp = doc["program"]["hypotheses"][0]

    def with_denominator(*steps):
        """Proof steps appended (each a function of the index of the first), the last the denominator."""
        def fn(d):
            k = len(d["program"]["steps"]) + len(d["proof"]["steps"])
            d["proof"]["steps"] += [s(k) for s in steps]
            d["proof"]["denominator"] = [k + len(steps) - 1]
        return fn

    y, m = 0, 1
    # sqrt of a sum of squares is >= 0 but may be 0; m - 1 is 0 at m = 1; pow(., 0) or pow(., 2)
    # of a base that may be 0
    _rejected(_mutated(doc, with_denominator(lambda k: ["mul", y, y], lambda k: ["sum", k],
                                             lambda k: ["sqrt", k + 1])), "not manifestly > 0")
    _rejected(_mutated(doc, with_denominator(lambda k: ["const", "1"], lambda k: ["sub", m, k])),
              "not manifestly > 0")
    _rejected(_mutated(doc, with_denominator(lambda k: ["mul", y, y], lambda k: ["sum", k],
                                             lambda k: ["pow", k + 1, 0])), "not manifestly > 0")
    _rejected(_mutated(doc, with_denominator(lambda k: ["mul", y, y], lambda k: ["sum", k],
                                             lambda k: ["pow", k + 1, 2])), "not manifestly > 0")
    # a hypothesis and m are > 0, and so are their roots, powers and products: the decomposition
    # then fails to reduce, which shows each was accepted as a denominator
    for step in (["sqrt", hyp], ["pow", hyp, -3], ["pow", m, 2], ["mul", m, hyp]):
        _rejected(_mutated(doc, with_denominator(lambda k: step)), "does not reduce to 0")
    assert check_document(seal(_mutated(doc, with_denominator(lambda k: ["pow", m, 0]))))  # m⁰ = 1


def test_a_square_root_of_a_value_that_may_be_negative_among_proof_steps():
    doc = _hypothesis_program()
    r = doc["program"]["residual"]  # S[y∘y] - S[y]²/m: >= 0, but not by its form
    _rejected(_mutated(doc, lambda d: d["proof"]["steps"].append(["sqrt", r])), "not manifestly >= 0")
    _rejected(_mutated(doc, lambda d: d["proof"]["steps"].append(["div", r, r])), "not manifestly > 0")
    _rejected(_mutated(doc, lambda d: d["proof"]["steps"].append(["pow", r, -2])), "not manifestly > 0")


def test_fixed_sizes_that_disagree_with_the_program():
    c = make("fixed-d", lambda xp, X, w: xp.sum(X @ w) - xp.sum(X, axis=0) @ w, variables=(X, W),
             sizes={"m": (2, 3), "d": (1, 3)}, kind="identity")
    doc = attempt(c, {"d": 2}).document
    assert "at d = 2" in check_document(doc)
    for fixed in ({"d": 3}, {"d": 1}, {}, {"d": 2, "e": 1}, {"d": 0}, {"d": True}, {"d": 17}):
        _rejected(_mutated(doc, lambda d: d.update(fixed=fixed)), "inputs|fixed")


def test_hostile_json_files(tmp_path):
    from bnproof.checker import check_file

    good = json.dumps(seal(_hypothesis_program()))
    assert check_file(_write(tmp_path, "good.json", good))[0]
    head = good[:good.index('"kind"')]
    for name, text in [("duplicate", head + '"kind": "proof", ' + good[good.index('"kind"'):]),
                       ("nan", good.replace('"m": 2', '"m": NaN')),
                       ("infinity", good.replace('"m": 2', '"m": Infinity')),
                       ("huge-float", good.replace('"m": 2', '"m": 1e400')),
                       ("long-int", good.replace('"m": 2', '"m": ' + "9" * 5000)),
                       ("deep", good[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}")]:
        accepted, line = check_file(_write(tmp_path, name + ".json", text))
        assert not accepted and "REJECTED" in line, (name, line)


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- (c) the command line ------------------------------------------------------------------

def _cli(*args):
    import contextlib
    import io

    from bnproof.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        with pytest.raises(SystemExit) as done:
            main(list(args))
    return done.value.code, out.getvalue()


CLAIM_HEAD = "from bnproof.claims import Claim, Var\n"


def test_prove_a_claim_file_with_a_mistake_is_bad_input_with_its_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(CLAIM_HEAD + "C = Claim(id='me/broken', source='s', statement='x',\n"
                    "          variables=(Var('y', ('m',)),), sizes={'m': (2, 3)},\n"
                    "          residual=lambda xp, y: xp.sum(y)  # a missing parenthesis\n", encoding="utf-8")
    code, output = _cli("prove", str(path))
    assert code == 3 and str(path) in output and "SyntaxError" in output and "line 2" in output, output
    wrong = tmp_path / "wrong.py"
    wrong.write_text(CLAIM_HEAD + "\n\nC = Claim(id='me/wrong', source='s', statement='x',\n"
                     "          variables=(Var('y', ('q',)),), sizes={'m': (2, 3)},\n"
                     "          residual=lambda xp, y: xp.sum(y))\n", encoding="utf-8")
    code, output = _cli("prove", str(wrong))
    assert code == 3 and f"{wrong} (line 4)" in output and "'q'" in output, output


def test_prove_a_claim_outside_the_fragment_says_why_in_one_line(tmp_path):
    path = tmp_path / "relu.py"
    path.write_text(CLAIM_HEAD + "C = Claim(id='me/relu', source='s', statement='x',\n"
                    "          variables=(Var('y', ('m',)),), sizes={'m': (2, 3)},\n"
                    "          residual=lambda xp, y: xp.sum(xp.relu(y)))\n", encoding="utf-8")
    code, output = _cli("prove", str(path), "--out-dir", str(tmp_path / "out"))
    assert code == 10 and output == "me/relu: not in the provable fragment: uses relu\n"
    code, output = _cli("prove", str(path), "--json", "--out-dir", str(tmp_path / "out"))
    (obj,) = json.loads(output)
    assert code == 10 and set(obj) == {"claim", "status", "text", "fixed", "covered", "normal_form",
                                        "certificates", "blocked_by", "normal_form_text", "hint"}
    assert obj["status"] == "outside-fragment" and obj["certificates"] == [] and obj["fixed"] == [{}]
    assert not (tmp_path / "out").exists()


def test_prove_json_of_a_false_claim_and_of_a_proof(tmp_path):
    path = tmp_path / "two.py"
    path.write_text(CLAIM_HEAD + "A = Claim(id='me/false', source='s', statement='x', kind='identity',\n"
                    "          variables=(Var('y', ('m',)),), sizes={'m': (2, 3)},\n"
                    "          residual=lambda xp, y: xp.sum(y) ** 2 - xp.sum(y * y))\n"
                    "B = Claim(id='me/true', source='s', statement='x', kind='identity',\n"
                    "          variables=(Var('y', ('m',)),), sizes={'m': (2, 3)},\n"
                    "          residual=lambda xp, y: xp.sum(y - xp.mean(y)))\n", encoding="utf-8")
    code, output = _cli("prove", str(path), "--json", "--out-dir", str(tmp_path / "out"))
    false, true = json.loads(output)
    assert code == 10  # one claim is not proved
    assert false["status"] == "not-proved" and false["normal_form"] and false["certificates"] == []
    assert true["status"] == "proved" and true["normal_form"] == "0" and len(true["certificates"]) == 1
    assert check_document(json.loads(Path(true["certificates"][0]).read_text(encoding="utf-8")))


def test_check_a_proof_of_a_known_claim_whose_program_was_altered(tmp_path):
    """Resealed, the checker itself accepts the altered program (a true identity of another
    program); `bnproof check` binds a known claim's proof to its own trace: exit 6."""
    source = "certificates/santurkar2018/theorem-4.1/as-derived.proof.json"
    doc = json.loads(Path(source).read_text(encoding="utf-8"))
    code, output = _cli("check", source)
    assert code == 0 and "the claim and its program are those" in output, output
    steps = doc["program"]["steps"]
    steps.append(["sub", doc["program"]["residual"], doc["program"]["residual"]])
    doc["program"]["residual"] = len(steps) - 1  # residual - residual: 0 whatever the claim says
    forged = _write(tmp_path, "forged.proof.json", json.dumps(seal(doc)))
    assert "proved for every m" in check_document(json.loads(forged.read_text(encoding="utf-8")))
    code, output = _cli("check", str(forged))
    assert code == 6 and "REJECTED" in output and "not the one" in output, output


# --- (a) near misses the algebra must not prove, and their true neighbours ---------------

@pytest.mark.parametrize("name,residual,kind,proved", [
    # sqrt(t²) is |t|, not t: never simplified to t unless t is a root (σ ≥ 0)
    ("sqrt-square", lambda xp, y, g: xp.sqrt(xp.sum(y) ** 2) - xp.sum(y), "identity", False),
    ("sqrt-sigma-square", lambda xp, y, g: xp.sqrt(xp.sqrt(xp.mean((y - xp.mean(y)) ** 2)) ** 2)
     - xp.sqrt(xp.mean((y - xp.mean(y)) ** 2)), "identity", True),
    # (m - 3)·Σ(y - μ)² ≥ 0 fails at m = 2; (m - 1)·Σ(y - μ)² ≥ 0 holds for every m ≥ 1
    ("m-minus-3", lambda xp, y, g: (y.shape[0] - 3) * xp.sum((y - xp.mean(y)) ** 2), "inequality", False),
    # a scalar plus a matrix is the scalar times the all-ones matrix, not times I
    ("broadcast-ones", lambda xp, y, g: y @ ((xp.eye(y.shape[0]) + 1) @ y) - y @ y - xp.sum(y) ** 2,
     "identity", True),
    ("broadcast-eye", lambda xp, y, g: y @ ((xp.eye(y.shape[0]) + 1) @ y) - 2 * (y @ y), "identity", False),
    # V @ M is Mᵀ V: with an outer product, <y, g>·Σy, not Σy·<g, y> swapped into <g, g>
    ("vector-at-outer", lambda xp, y, g: xp.sum(y @ xp.outer(g, y)) - (y @ g) * xp.sum(y), "identity", True),
    ("vector-at-outer-swapped", lambda xp, y, g: xp.sum(y @ xp.outer(g, y)) - (y @ y) * xp.sum(g),
     "identity", False),
])
def test_near_misses(name, residual, kind, proved):
    c = make(name, residual, kind=kind)
    assert attempt(c, {}, certify=True).proved is proved
