"""Proof certificates (proved for every m): the checker's normal forms, the nonnegative
decomposition, instantiation at a concrete m (with reverse-mode gradients) against the
fixed-size engine, the writer, and `bnproof check` binding a proof to its claim.

The programs here are built by hand (ProgramBuilder) or traced from the committed claims
by the engine's symbolic-length tracer; the witnesses are small integer instances."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.checker.instantiate import instantiate
from bnproof.checker.proof import REFUTED
from bnproof.checker.symbolic_program import Evaluator, read_inputs, read_steps
from tests.tamper import seal

Y, G, GAMMA = ["y", "vector", "real"], ["g", "vector", "real"], ["gamma", "scalar", "nonzero"]
VARIABLES = {"y": {"name": "y", "shape": ["m"], "domain": "real"},
             "g": {"name": "g", "shape": ["m"], "domain": "real"},
             "gamma": {"name": "gamma", "shape": [], "domain": "nonzero"},
             "H": {"name": "H", "shape": ["m", "m"], "domain": "symmetric"}}


class ProgramBuilder:
    """Steps appended by name: b.add(i, j) appends ["add", i, j] and returns its index."""

    def __init__(self, *inputs):
        self.inputs, self.steps = [list(i) for i in inputs], []

    def __getattr__(self, op):
        def step(*args):
            self.steps.append([op, *args])
            return len(self.steps) - 1
        return step

    def program(self, residual, hypotheses=(), kind="identity", strict=False):
        return {"inputs": self.inputs, "steps": self.steps, "residual": residual,
                "hypotheses": list(hypotheses), "kind": kind, "strict": strict}


def stats(b, y):
    """mu, sigma, y - mu and sigma^2 (the hypothesis), as blocks.stats does it."""
    m = b.m()
    mu = b.div(b.sum(y), m)
    yc = b.sub(y, mu)
    sigma = b.sqrt(b.div(b.sum(b.pow(yc, 2)), m))
    return mu, sigma, yc, b.pow(sigma, 2)


def theorem_41(last="1/m", variance="biased"):
    """Theorem 4.1's residual written by hand: (gamma^2/sigma^2)(|g|^2 - <1,g>^2/m -
    last <g,yhat>^2) - |backprop(g)|^2, an identity with last = 1/m."""
    b = ProgramBuilder(Y, G, GAMMA)
    y, g, gamma = b.input("y"), b.input("g"), b.input("gamma")
    m = b.m()
    mu = b.div(b.sum(y), m)
    yc = b.sub(y, mu)
    n = m if variance == "biased" else b.sub(m, b.const("1"))
    sigma = b.sqrt(b.div(b.sum(b.pow(yc, 2)), n))
    hyp = b.pow(sigma, 2)
    yhat = b.div(yc, sigma)
    inner = b.sub(b.sub(b.mul(g, m), b.sum(g)), b.mul(yhat, b.sum(b.mul(g, yhat))))
    v = b.mul(b.div(gamma, b.mul(sigma, m)), inner)
    lhs = b.sum(b.mul(v, v))
    lastc = {"1/m": lambda: b.div(b.const("1"), m), "1/sqrt(m)": lambda: b.div(b.const("1"), b.sqrt(m)),
             "2/m": lambda: b.div(b.const("2"), m)}[last]()
    rhs = b.mul(b.div(b.pow(gamma, 2), b.pow(sigma, 2)),
                b.sub(b.sub(b.sum(b.mul(g, g)), b.mul(b.pow(b.sum(g), 2), b.div(b.const("1"), m))),
                      b.mul(lastc, b.pow(b.sum(b.mul(g, yhat)), 2))))
    return b.program(b.sub(rhs, lhs), [hyp])


def claim(cid="me/proof", kind="identity", names=("y", "g", "gamma")):
    return {"id": cid, "source": "a test", "statement": r"x \ge 0", "kind": kind,
            "variables": [VARIABLES[n] for n in names]}


WITNESS = {"m": 3, "inputs": {"y": ["1", "2", "4"], "g": ["1", "-1", "3"], "gamma": "2"}}


def certificate(program, proof=None, witness=WITNESS, body=None, fixed=None):
    from bnproof.certificate.proof import document

    return document(body or claim(), program, proof or {"method": "zero"}, witness, fixed)


def cauchy(strict=False, kind="inequality"):
    """m S[y^2] - S[y]^2 >= 0 (+ 1 > 0 if strict), with m * S[(y - mu)^2] (+ 1) as proof."""
    b = ProgramBuilder(Y)
    y, m = b.input("y"), b.m()
    r = b.sub(b.mul(m, b.sum(b.mul(y, y))), b.pow(b.sum(y), 2))
    if strict:
        r = b.add(r, b.const("1"))
    program = b.program(r, [], kind, strict)
    start = len(b.steps)
    b.steps.append(["sub", y, None])  # y - S[y]/m, filled below
    b.steps[-1] = ["sub", y, start + 2]
    b.steps += [["sum", y], ["div", start + 1, m]]
    # reorder so every operand is earlier: steps start.. = sum(y), sum/m, y - mu, (.)^2, sum
    b.steps[start:] = [["sum", y], ["div", start, m], ["sub", y, start + 1],
                       ["pow", start + 2, 2], ["sum", start + 3]]
    extra = b.steps[start:]
    del b.steps[start:]
    terms = [{"coefficient": "1", "factors": [m, start + 4]}]
    if strict:
        terms.append({"coefficient": "1", "factors": []})
    proof = {"method": "nonnegative", "steps": extra, "terms": terms, "denominator": []}
    body = claim(kind="strict-inequality" if strict else "inequality", names=("y",))
    return certificate(program, proof, {"m": 2, "inputs": {"y": ["0", "1"]}}, body)


# --- accepted ---------------------------------------------------------------------

def test_theorem_41_as_derived_written_by_hand_is_proved_for_every_m():
    line = check_document(certificate(theorem_41()))
    assert line.startswith("me/proof proved for every m: residual = 0 (assuming gamma != 0, "
                           "1 hypothesis > 0, every step defined; witness at m = 3; trusting program sha256:")


def test_a_nonnegative_decomposition_is_checked_and_accepted():
    assert "residual >= 0" in check_document(cauchy())
    assert "residual > 0" in check_document(cauchy(strict=True))


def test_normal_form_of_a_symmetric_bilinear_form_and_of_a_gradient():
    # <u, H w> = <w, H u> for a symmetric H; grad_y of S[y*y]/2 is y
    b = ProgramBuilder(Y, G, ["H", "matrix", "symmetric"])
    y, g, H = b.input("y"), b.input("g"), b.input("H")
    sym = b.sub(b.matmul(y, b.matmul(H, g)), b.matmul(g, b.matmul(H, y)))
    half = b.div(b.sum(b.mul(y, y)), b.const("2"))
    grad = b.sum(b.pow(b.sub(b.grad(half, y), y), 2))
    hess = b.grad(b.matmul(y, b.matmul(H, y)), y)  # 2 H y
    third = b.sum(b.pow(b.sub(hess, b.mul(b.const("2"), b.matmul(H, y))), 2))
    r = b.add(b.add(sym, grad), third)
    body = claim(names=("y", "g", "H"))
    w = {"m": 2, "inputs": {"y": ["1", "2"], "g": ["3", "-1"], "H": [["1", "2"], ["2", "5"]]}}
    check_document(certificate(b.program(r), body=body, witness=w))
    b.inputs[2][2] = "real"  # not symmetric: <y, H g> = <g, H y> is no identity
    body["variables"][2] = {"name": "H", "shape": ["m", "m"], "domain": "real"}
    with pytest.raises(Rejected, match="transpose|not 0|non-symmetric"):
        check_document(certificate(b.program(r), body=body, witness=w))


def test_writer_seals_checks_and_writes(tmp_path):
    from bnproof.certificate.io import CheckerRefused
    from bnproof.certificate.proof import build, path_for, write_proof_certificate

    path = write_proof_certificate(tmp_path / "t.proof.json", claim(), theorem_41(), {}, {"method": "zero"},
                                   WITNESS)
    doc = json.loads(path.read_text())
    assert doc["kind"] == "proof" and doc == seal(doc)
    assert path_for("a/b").as_posix() == "certificates/a/b.proof.json"
    with pytest.raises(CheckerRefused, match="not 0"):
        build(claim(), theorem_41("1/sqrt(m)"), {"method": "zero"}, WITNESS)


def test_python_m_checker_prints_the_accepted_line(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "t.proof.json"
    path.write_text(json.dumps(certificate(theorem_41())))
    out = subprocess.run([sys.executable, "-m", "bnproof.checker", str(path)], capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stdout.startswith(f"ACCEPTED {path}: me/proof proved for every m")


# --- instantiation at a concrete m against direct evaluation ---------------------

def direct(program, m, values):
    """theorem_41("2/m") at m, computed here from its definition with Fractions
    (biased sigma, gamma^2/sigma^2 (|g|^2 - S[g]^2/m - 2<g,yhat>^2/m) - |v|^2), squared
    quantities only, so no square root is taken."""
    y, g, gamma = values["y"], values["g"], values["gamma"]
    mu = sum(y) / m
    yc = [a - mu for a in y]
    var = sum(a * a for a in yc) / m
    gy = sum(a * b for a, b in zip(g, yc))  # = sigma <g, yhat>
    sg = sum(g)
    v2 = sum((m * a - sg - c * gy / var) ** 2 for a, c in zip(g, yc)) * gamma**2 / (var * m * m)
    return gamma**2 / var * (sum(a * a for a in g) - sg * sg / m - 2 * gy * gy / var / m) - v2


@pytest.mark.parametrize("m", [2, 3, 5])
def test_instantiate_agrees_with_a_direct_evaluation(m):
    from bnproof.checker import program as fixed

    rng = random.Random(m)
    program = theorem_41("2/m")  # not an identity: its value at m is not 0
    inputs = read_inputs(program["inputs"])
    types = []
    ops = read_steps(program["steps"], inputs, types, "steps")
    for _ in range(3):
        values = {"y": [Fraction(rng.randint(-9, 9)) for _ in range(m)],
                  "g": [Fraction(rng.randint(-9, 9), rng.randint(1, 4)) for _ in range(m)],
                  "gamma": Fraction(rng.choice([-3, 1, 2]))}
        if len(set(values["y"])) == 1:
            continue
        steps, vals = instantiate(inputs, ops, types, m)
        scalar = fixed.parse_steps(steps, values)
        # exact where sigma is rational, else an interval [lo, hi]/2^256 that must hold it
        out = fixed.run(scalar, 256, [0])[vals[program["residual"]]]
        want = direct(program, m, values)
        assert want != 0
        assert out == want if type(out) is Fraction else out[0] <= want * 2**256 <= out[1]
        assert type(out) is Fraction or out[1] - out[0] < 2**20  # a tight enclosure


def test_reverse_mode_gradient_at_a_concrete_m():
    """grad_y of S[y^3] + gamma S[y g] / S[y^2] at m = 3, against the derivative by hand."""
    from bnproof.checker import program as fixed

    b = ProgramBuilder(Y, G, GAMMA)
    y, g, gamma = b.input("y"), b.input("g"), b.input("gamma")
    f = b.add(b.sum(b.pow(y, 3)), b.div(b.mul(gamma, b.sum(b.mul(y, g))), b.sum(b.mul(y, y))))
    grad = b.grad(f, y)
    program = b.program(f)
    inputs, types = read_inputs(program["inputs"]), []
    ops = read_steps(program["steps"], inputs, types, "steps")
    steps, vals = instantiate(inputs, ops, types, 3)
    values = {"y": [Fraction(1), Fraction(-2), Fraction(3)], "g": [Fraction(2), Fraction(5), Fraction(-1)],
              "gamma": Fraction(3)}
    out = fixed.run(fixed.parse_steps(steps, values), 64, [0])
    yv, gv, c = values["y"], values["g"], values["gamma"]
    q, p = sum(a * a for a in yv), sum(a * b for a, b in zip(yv, gv))
    want = [3 * a * a + c * (b * q - 2 * a * p) / q**2 for a, b in zip(yv, gv)]
    assert [out[i] for i in vals[grad]] == want


# --- the committed claims, traced by the engine, replayed by the checker ------------

def traced(cid, fixed=None):
    pytest.importorskip("bnproof.symbolic_m.trace")
    from bnproof.claims.api import named
    from bnproof.symbolic_m.trace import program_for

    c = named(cid)
    return c, program_for(c, fixed or {})


def witness_for(program, m=3, seed=0):
    rng = random.Random(seed)
    out = {}
    for name, kind, domain in program["inputs"]:
        def r():
            return str(rng.randint(1, 9) * (rng.choice([1, -1]) if domain == "real" else 1))
        if kind == "scalar":
            out[name] = r()
        elif kind == "vector":
            out[name] = [r() for _ in range(m)]
        else:
            M = [[None] * m for _ in range(m)]
            for i in range(m):
                for j in range(i, m):
                    M[i][j] = M[j][i] = r()
            out[name] = M
    return {"m": m, "inputs": out}


@pytest.mark.parametrize("cid,fixed", [
    ("santurkar2018/theorem-4.1/as-derived", {}), ("santurkar2018/fact-c.1", {}),
    ("santurkar2018/theorem-4.2", {}), ("dannemann2025/remark-2.7/corrected", {}),
    ("santurkar2018/observation-4.3", {"d": 2})])
def test_the_papers_true_claims_replay_to_zero(cid, fixed):
    from bnproof.certificate.program import claim_object
    from bnproof.certificate.proof import document

    c, program = traced(cid, fixed)
    line = check_document(document(claim_object(c), program, {"method": "zero"}, witness_for(program),
                                   fixed))
    assert line.startswith(f"{cid} proved for every m")


@pytest.mark.parametrize("cid", ["santurkar2018/theorem-4.1", "santurkar2018/theorem-4.4",
                                 "santurkar2018/theorem-c.1", "santurkar2018/theorem-4.2/part-2",
                                 "dannemann2025/remark-2.7"])
def test_the_papers_refuted_claims_never_replay_to_zero(cid):
    c, program = traced(cid)
    inputs, types = read_inputs(program["inputs"]), []
    ev = Evaluator(inputs)
    ev.run(read_steps(program["steps"], inputs, types, "steps"), types)
    assert not ev.alg.is_zero(ev.values[program["residual"]])
    assert cid in REFUTED


def test_refuted_list_matches_the_committed_verdicts():
    from pathlib import Path

    verdicts = json.loads(Path("proofs/verdicts.json").read_text())
    assert REFUTED == {k for k, v in verdicts.items() if v["verdict"] == "refuted"}


def test_bnproof_check_binds_a_proof_to_the_committed_claim(tmp_path):
    from bnproof.certificate.program import claim_object
    from bnproof.certificate.proof import document
    from bnproof.cli.check import judged

    c, program = traced("santurkar2018/theorem-4.1/as-derived")
    path = tmp_path / "good.proof.json"
    path.write_text(json.dumps(document(claim_object(c), program, {"method": "zero"}, witness_for(program))))
    ok, line = judged(path, None, None)
    assert ok and line.endswith("the claim and its program are those of the committed claim files, and its own "
                                 "code read without the tracer computes the program at generic instances")
    # a correct proof of another program (the hand-written one) under the paper's id
    forged = document(claim_object(c), theorem_41(), {"method": "zero"}, WITNESS)
    assert check_document(copy.deepcopy(forged))  # the bare checker trusts the program...
    path.write_text(json.dumps(forged))
    ok, line = judged(path, None, None)  # ...bnproof check compares it with the claim's trace
    assert not ok and "the program is not the one the committed claim files give" in line


def test_proof_certificates_fit_the_json_schema_and_a_bad_method_fails_both():
    from pathlib import Path

    from jsonschema import Draft202012Validator

    schema = json.loads(Path("docs/certificate.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    for doc in (certificate(theorem_41()), cauchy(), cauchy(strict=True)):
        assert list(validator.iter_errors(doc)) == []
    bad = seal({**certificate(theorem_41()), "proof": {"method": "trust-me"}})
    assert list(validator.iter_errors(bad))
    with pytest.raises(Rejected, match="method"):
        check_document(bad)
