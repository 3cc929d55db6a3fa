"""The independent certificate checker (bnproof.checker).

Standard library and pytest only: these tests must not lean on the engine the
checker is meant to be independent of.  The hand-built certificates below were
derived on paper (the derivations are in the comments) and cross-checked in a
scratch session by differentiating the BN loss symbolically, never by running
bnproof's engine."""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bnproof.checker import Rejected, check_document, check_file, main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "certificates" / "lemma-4.5.json"
CHECKER = ROOT / "bnproof" / "checker"
FACTS = ["normal-equations", "unique-minimum", "bn-optimum-set", "closest-bn-optimum",
         "hypothesis", "residual"]


def example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def seal(doc: dict) -> dict:
    body = {k: v for k, v in doc.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return {**body, "digest": "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()}


def certificate(X, Y, W0, gamma, beta, loss, neurons, verdict, kernel=()) -> dict:
    q = lambda rows: [[str(x) for x in row] for row in rows]  # noqa: E731
    return seal({
        "format": "bnproof-certificate",
        "version": 2,
        "bnproof_version": "0.1.0",
        # the claim as the committed certificate states it, not as the checker does
        "claim": example()["claim"],
        "instance": {"X": q(X), "Y": q(Y), "W0": q(W0), "gamma": [str(g) for g in gamma],
                     "beta": [str(b) for b in beta], "loss": loss},
        "witnesses": {"kernel": q(kernel), "neurons": neurons},
        "obligations": [{"neuron": j, "fact": f} for j in range(len(neurons)) for f in FACTS],
        "verdict": verdict,
    })


def check(tmp_path, content, name="cert.json") -> tuple[int, str]:
    """Run main() on content (a dict, str or bytes) and return (exit code, output line)."""
    path = tmp_path / name
    if isinstance(content, dict):
        content = json.dumps(content, indent=1)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    ok, line = check_file(path)
    assert line.startswith(("ACCEPTED " if ok else "REJECTED ") + str(path) + ": ")
    assert "\n" not in line
    return main([str(path)]), line


def assert_rejected(tmp_path, content, reason: str) -> str:
    code, line = check(tmp_path, content)
    assert code == 6, line
    assert line.startswith("REJECTED "), line
    assert reason in line, line
    return line


# --- the committed certificate ------------------------------------------------

def test_committed_certificate_is_accepted(capsys):
    assert check_file(EXAMPLE) == (True, f"ACCEPTED {EXAMPLE}: lemma-4.5 refuted")
    check_document(example())
    assert main([str(EXAMPLE)]) == 0
    assert capsys.readouterr().out == f"ACCEPTED {EXAMPLE}: lemma-4.5 refuted\n"


def test_module_entry_point():
    rel = "certificates/lemma-4.5.json"
    proc = subprocess.run([sys.executable, "-m", "bnproof.checker", rel],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"ACCEPTED {rel}: lemma-4.5 refuted\n"


def test_module_entry_point_rejects_with_exit_code_6(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "bnproof.checker", str(EXAMPLE), str(bad)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 6
    lines = proc.stdout.splitlines()
    assert lines[0] == f"ACCEPTED {EXAMPLE}: lemma-4.5 refuted"
    assert lines[1].startswith(f"REJECTED {bad}: not valid JSON")


# --- the trust model: what the checker may import and call --------------------

def test_checker_imports_no_heavy_modules():
    code = ("import sys, bnproof.checker.kernel; "
            "bad=[m for m in ('sympy','numpy','flint','jax','mpmath') if m in sys.modules]; "
            "sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # nor any of the engine: only bnproof/__init__.py and the checker itself
    code = ("import sys, bnproof.checker; print(sorted(m for m in sys.modules "
            "if m.startswith('bnproof') and not m.startswith('bnproof.checker')))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.stdout.strip() == "['bnproof']", proc.stdout + proc.stderr


def test_checker_sources_use_only_the_standard_library():
    forbidden_calls = {"eval", "exec", "compile", "__import__", "getattr", "globals"}
    forbidden_modules = {"pickle", "marshal", "shelve", "importlib", "ctypes", "subprocess"}
    files = sorted(CHECKER.glob("*.py"))
    assert {f.name for f in files} >= {"__init__.py", "__main__.py", "kernel.py"}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                # level 1 stays inside bnproof/checker; level 2 would reach the engine
                assert node.level in (0, 1), f"{path.name}: relative import beyond the checker"
                names = [node.module] if node.level == 0 else []
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                names = []
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name}: {name}"
                assert top not in forbidden_modules, f"{path.name}: {name}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in forbidden_calls, f"{path.name}: {node.func.id}()"


# --- tampering ----------------------------------------------------------------

def _set(path, value):
    def mutate(doc):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _m_is_1(doc):
    doc["instance"]["X"], doc["instance"]["Y"] = [["1", "1"]], [["2"]]


def _says_it_holds(doc):
    doc["witnesses"]["neurons"][0]["verdict"] = doc["verdict"] = "holds"


NEURON0 = ("witnesses", "neurons", 0)
# Example 3.2: X = [[1,1],[1,2],[2,3]], y = (2,5,13), W0 = (1,3), gamma = 1: W* = (1,3),
# x-bar = (4/3, 2), Xc^T Xc = [[2/3,1],[1,2]] (det 1/3: no kernel), yc = (-14/3,-5/3,19/3),
# c = Xc^T yc = (19/3, 11) = Xc^T Xc (5,3): the BN optima are t (5,3), t > 0; (3,5) gives
# (7,13), not parallel to c; (-5,-3) the opposite ray
TAMPERED = {
    # (mutation, reseal, expected reason)
    "digit-in-X": (_set(("instance", "X", 2, 0), "3"), True, "neuron 0: normal-equations"),
    "digit-in-X-old-digest": (_set(("instance", "X", 2, 0), "3"), False, "digest mismatch"),
    "claim-id": (_set(("claim", "id"), "lemma-4.6"), True, "unknown claim 'lemma-4.6'"),
    "paper-id": (_set(("claim", "id"), "santurkar2018/lemma-4.5"), True, "unknown claim"),
    "statement": (_set(("claim", "statement"), example()["claim"]["statement"].replace(r"\leq", r"\geq")),
                  True, "claim statement differs"),
    "source": (_set(("claim", "source"), "a blog post"), True, "claim source differs"),
    "says-it-holds": (_says_it_holds, True, "neuron 0: residual: verdict should be refuted"),
    "direction": (_set(NEURON0 + ("bn_optimum", "direction"), ["3", "5"]), True,
                  "neuron 0: bn-optimum-set: Xc^T Xc b is not a positive multiple of sign(gamma) c"),
    "direction-reversed": (_set(NEURON0 + ("bn_optimum", "direction"), ["-5", "-3"]), True,
                           "neuron 0: bn-optimum-set: Xc^T Xc b is not a positive multiple"),
    "projection": (_set(NEURON0 + ("bn_optimum", "projection"), ["1", "0"]), True,
                   "neuron 0: closest-bn-optimum: the projection is not that of W0"),
    "kernel-vector": (_set(("witnesses", "kernel"), [["1", "0"]]), True, "kernel vector 0 is not in ker Xc"),
    "W-star": (_set(NEURON0 + ("W_star",), ["1", "4"]), True, "neuron 0: normal-equations"),
    "neuron-verdict": (_set(NEURON0 + ("verdict",), "hypothesis-not-met"), True, "neuron 0: hypothesis"),
    "document-verdict": (_set(("verdict",), "holds"), True, "document verdict should be refuted"),
    "non-canonical-2/4": (_set(("instance", "X", 0, 0), "2/4"), True, "instance.X[0][0]: not in lowest terms"),
    "non-canonical-3/1": (_set(("instance", "Y", 0, 0), "3/1"), True, "instance.Y[0][0]: not in lowest terms"),
    "decimal": (_set(("instance", "X", 0, 0), "1.5"), True, "not a canonical rational: '1.5'"),
    "minus-zero": (_set(NEURON0 + ("W_star", 0), "-0"), True, "not a canonical rational: '-0'"),
    "plus": (_set(("instance", "gamma", 0), "+1"), True, "not a canonical rational: '+1'"),
    "exponent": (_set(("instance", "gamma", 0), "1e3"), True, "not a canonical rational"),
    "unicode-digit": (_set(("instance", "gamma", 0), "\u0663"), True, "not a canonical rational"),
    "hostile-string": (_set(("instance", "X", 0, 0), "__import__('os').system('touch pwned')"),
                       True, "instance.X[0][0]: not a canonical rational"),
    "5000-digits": (_set(("instance", "X", 0, 0), "7" * 5000), True, "longer than 2000 characters"),
    "witness-5000-digits": (_set(NEURON0 + ("W_star", 0), "7" * 5000), True, "longer than 4000 characters"),
    "number-not-string": (_set(("instance", "X", 0, 0), 1), True, "expected a rational string, got a number"),
    "list-not-number": (_set(NEURON0 + ("W_star", 0), ["1"]), True, "expected a rational string, got a list"),
    "number-not-list": (_set(("instance", "X"), 5), True, "instance.X: expected a list"),
    "ragged-X": (_set(("instance", "X", 1), ["1"]), True, "instance.X[1]: 1 entries, but d = 2"),
    "W0-shape": (_set(("instance", "W0"), [["1", "3", "0"]]), True, "instance.W0[0]: 3 entries, but d = 2"),
    "m-is-1": (_m_is_1, True, "m >= 2"),
    "m-differs": (_set(("instance", "X"), [["1", "1"]]), True, "instance.Y: 3 entries, but m = 1"),
    "loss": (_set(("instance", "loss"), "max"), True, "instance.loss"),
    "extra-key": (_set(NEURON0 + ("note",), "trust me"), True,
                  "witnesses.neurons[0]: unexpected key 'note'"),
    "extra-top-key": (_set(("comment",), "x"), True, "document: unexpected key 'comment'"),
    "missing-key": (lambda doc: doc["instance"].pop("beta"), True, "instance: missing key 'beta'"),
    "missing-kernel": (lambda doc: doc["witnesses"].pop("kernel"), True, "witnesses: missing key 'kernel'"),
    "bn-kind": (_set(NEURON0 + ("bn_optimum", "kind"), "line"), True, "kind must be"),
    "constant-with-keys": (_set(NEURON0 + ("bn_optimum", "kind"), "constant"), True,
                           "bn_optimum: unexpected key 'direction'"),
    "stated-constant": (_set(NEURON0 + ("bn_optimum",), {"kind": "constant"}), True,
                        "bn-optimum-set: stated constant"),
    "obligations-order": (lambda doc: doc["obligations"].reverse(), True, "obligations[0]"),
    "obligations-short": (lambda doc: doc["obligations"].pop(), True, "obligations: expected 6 entries"),
    "obligations-bool": (_set(("obligations", 0, "neuron"), False), True, "obligations[0]"),
    "obligations-fact": (_set(("obligations", 5, "fact"), "vibes"), True, "obligations[5]"),
    "format": (_set(("format",), "bnproof-cert"), True, "format"),
    "version-1": (_set(("version",), 1), True, "unsupported version"),
    "version-true": (_set(("version",), True), True, "unsupported version"),
    "version-string": (_set(("version",), "2"), True, "unsupported version"),
    "digest-format": (lambda doc: doc.update(digest=doc["digest"].upper()), False, "digest is not"),
    "neurons-count": (lambda doc: doc["witnesses"]["neurons"].append(doc["witnesses"]["neurons"][0]),
                      True, "witnesses.neurons: expected 1 entries, got 2"),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_tampered_certificate_is_rejected(tmp_path, monkeypatch, name):
    mutate, reseal, reason = TAMPERED[name]
    doc = example()
    mutate(doc)
    if reseal:
        doc = seal(doc)
    monkeypatch.chdir(tmp_path)
    assert_rejected(tmp_path, doc, reason)
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("content, reason", [
    (EXAMPLE.read_text(encoding="utf-8")[:700], "not valid JSON"),
    ("", "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    ('{"a": \xe9}'.encode("latin-1"), "not UTF-8"),
    ("[" * 100_000, "nested too deeply"),
    ('{"a":' * 100_000, "nested too deeply"),
    ("[]", "not a JSON object"),
    ('"lemma-4.5"', "not a JSON object"),
    ("NaN", "JSON constant NaN"),
    ('{"a": 1, "a": 2}', "duplicate key 'a'"),
    ("1" * 5000, "not valid JSON"),
    ("{}", "document: missing key"),
])
def test_malformed_file_is_rejected(tmp_path, content, reason):
    assert_rejected(tmp_path, content, reason)


def test_missing_file_and_directory_are_rejected(tmp_path):
    assert check_file(tmp_path / "absent.json")[1].startswith(f"REJECTED {tmp_path / 'absent.json'}: cannot read")
    assert check_file(tmp_path)[1].startswith(f"REJECTED {tmp_path}: cannot read")


def test_huge_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as fh:
        fh.truncate(50 * 1024 * 1024 + 1)  # sparse: costs no disk
    assert check_file(path) == (False, f"REJECTED {path}: file larger than 50 MB")


def _wide(d, n):
    def mutate(doc):
        inst = doc["instance"]
        inst["X"] = [["1"] * d, ["0"] * d, ["2"] * d]
        inst["Y"] = [["0"] * n] * 3
        inst["W0"] = [["1"] * d] * n
        inst["gamma"], inst["beta"] = ["1"] * n, ["0"] * n
    return mutate


@pytest.mark.parametrize("mutate, reason", [
    (_set(("instance", "X"), [["0"]] * 100_001), "instance.X: expected a list of 1 to 100000 entries (m)"),
    (_set(("instance", "X", 0), ["0"] * 1001), "instance.X[1]: 2 entries, but d = 1001"),
    (_wide(1001, 1), "instance: d = 1001 and n = 1 may be at most 1000"),
    (_wide(2, 1001), "instance: d = 2 and n = 1001 may be at most 1000"),
    (_set(("witnesses", "neurons"), [5] * 1001), "witnesses.neurons: expected 1 entries, got 1001"),
    (_set(("witnesses", "kernel"), [["0", "1"]] * 3), "witnesses.kernel: 3 entries, more than the limit 2"),
])
def test_absurd_sizes_are_refused(tmp_path, mutate, reason):
    doc = example()
    mutate(doc)
    assert_rejected(tmp_path, seal(doc), reason)


def test_check_document_raises_rejected():
    for bad in (None, [], "x", 3):
        with pytest.raises(Rejected, match="not a JSON object"):
            check_document(bad)
    doc = example()
    doc["digest"] = "sha256:" + "0" * 64
    with pytest.raises(Rejected, match="digest mismatch"):
        check_document(doc)


def test_wrong_types_never_crash(tmp_path):
    """Every value of the example replaced by values of every other JSON type:
    always a specific reason, never an internal error."""
    doc = example()
    paths = []

    def walk(value, path):
        paths.append((path, value))
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,))

    walk(doc, ())
    # β enters no witness and bnproof_version is free text: these stay valid
    harmless = {("bnproof_version",): "x", ("instance", "beta"): ["1"]}
    for path, original in paths[1:]:
        for value in (None, True, 0, 1.5, "x", [], ["1"], {}, {"kind": "ray"}):
            if path == ("digest",) or harmless.get(path) == value or (
                    type(value) is type(original) and value == original):
                continue
            bad = copy.deepcopy(doc)
            _set(path, value)(bad)
            bad = seal(bad)
            try:
                check_document(bad)
            except Rejected as exc:
                assert "internal" not in str(exc)
            else:
                pytest.fail(f"accepted with {path} = {value!r}")


# --- hand-built certificates --------------------------------------------------

def ray(direction, projection):
    return {"kind": "ray", "direction": [str(x) for x in direction],
            "projection": [str(x) for x in projection]}


def neuron(w_star, bn, verdict):
    return {"W_star": [str(x) for x in w_star], "bn_optimum": bn, "verdict": verdict}


# Instance A: X = [[1,1],[2,1],[4,1]] (m = 3, d = 2), loss "mean", n = 3.
#   XᵀX = [[21,7],[7,3]], det 14, pivots 21 and 14/21 > 0: positive definite.
#   x̄ = (7/3, 1), Xc = [[-4/3,0],[-1/3,0],[5/3,0]]: rank 1, ker Xc = span{(0,1)},
#   Xcᵀ Xc = [[14/3,0],[0,0]].  Every ray is b = (b1, 0) ⊥ (0,1); the projection of
#   w0 onto ker Xc is (0, w0[1]).
# Neuron 0: y = (0,6,4) = X(1,1) + (-2,3,-1), the residual ⊥ both columns, so W* = (1,1).
#   ȳ = 10/3, yc = (-10/3, 8/3, 2/3), c = (14/3, 0).  γ = 2 > 0: Xcᵀ Xc b = c gives b = (1,0).
#   w0 = (2,5): P w0 = (0,5), t = <w0,b>/|b|² = 2 > 0, point = 2b + P w0 = (2,5), lhs = 0.
#   <w0,W*> = 7 > 0, rhs = |(1,4)|² − (2 − 7)²/2 = 9/2 ≥ 0: holds.
# Neuron 1: y = (1,2,3): Xᵀy = (17,6), W* = (1/14)[[3,-7],[-7,21]](17,6) = (9/14, 1/2).
#   ȳ = 2, yc = (-1,0,1), c = (3,0).  γ = -1: Xcᵀ Xc b = -c gives b = (-9/14, 0), stated as
#   its positive multiple (-1, 0).  <w0,W*> = -5/14 ≤ 0 for w0 = (1,-2): hypothesis not met.
# Neuron 2: γ = 0, so Ĉ is constant and lhs = 0.  y = (1,1,2): Xᵀy = (11,4), W* = (5/14, 1/2).
#   w0 = (0,3): <w0,W*> = 3/2, |W*|² = 37/98, |w0 − W*|² = 625/98,
#   (37/98 − 147/98)²/(37/98) = 6050/1813, rhs = 225/74 ≥ 0: holds.
XA = [[1, 1], [2, 1], [4, 1]]
YA = [[0, 1, 1], [6, 2, 1], [4, 3, 2]]
W0A = [[2, 5], [1, -2], [0, 3]]
KERNEL_A = [[0, 1]]
NEURONS_A = [
    neuron([1, 1], ray([1, 0], [0, 5]), "holds"),
    neuron(["9/14", "1/2"], ray([-1, 0], [0, -2]), "hypothesis-not-met"),
    neuron(["5/14", "1/2"], {"kind": "constant"}, "holds"),
]


def instance_a(neurons=NEURONS_A, verdict="hypothesis-not-met", kernel=KERNEL_A, **changes):
    args = dict(X=XA, Y=YA, W0=W0A, gamma=[2, -1, 0], beta=["1/2", 0, -7], loss="mean")
    args.update(changes)
    return certificate(neurons=neurons, verdict=verdict, kernel=kernel, **args)


# Instance B: X = [[2,1],[0,1],[1,2],[1,0]] (m = 4, d = 2), loss "sum", y = (1,-3,0,0) for
# both neurons.  XᵀX = [[6,4],[4,6]] (pivots 6, 10/3), Xᵀy = (2,-2), W* = (1,-1).
#   x̄ = (1,1), Xc = [[1,0],[-1,0],[0,1],[0,-1]], Xcᵀ Xc = 2I, rank 2, no kernel.
#   ȳ = -1/2, yc = (3/2,-5/2,1/2,1/2), c = (4,0).  w0 = (3,-1): <w0,W*> = 4,
#   |w0 − W*|² = 4, rhs = 4 − (2 − 4)²/2 = 2.
# Neuron 0: γ = 1, b = c/2 = (2,0), t = 6/4 = 3/2, point (3,0), lhs = 1, residual 1: holds.
# Neuron 1: γ = -1, b = (-2,0), t = -3/2 ≤ 0: no point, lhs = |w0|² = 10, residual -8: refuted.
XB = [[2, 1], [0, 1], [1, 2], [1, 0]]
YB = [[1, 1], [-3, -3], [0, 0], [0, 0]]
NEURONS_B = [
    neuron([1, -1], ray([2, 0], [0, 0]), "holds"),
    neuron([1, -1], ray([-2, 0], [0, 0]), "refuted"),
]


def instance_b(neurons=NEURONS_B, verdict="refuted"):
    n = len(neurons)
    return certificate(XB, [row[:n] for row in YB], [[3, -1]] * n, [1, -1][:n], [0] * n,
                       "sum", neurons, verdict)


def test_hand_built_three_neurons_hypothesis_not_met(tmp_path):
    assert check(tmp_path, instance_a()) == (0, f"ACCEPTED {tmp_path / 'cert.json'}: lemma-4.5 hypothesis-not-met")


def test_hand_built_two_neurons_refuted(tmp_path):
    assert check(tmp_path, instance_b()) == (0, f"ACCEPTED {tmp_path / 'cert.json'}: lemma-4.5 refuted")


def test_hand_built_one_neuron_holds(tmp_path):
    doc = instance_b(NEURONS_B[:1], "holds")
    assert check(tmp_path, doc) == (0, f"ACCEPTED {tmp_path / 'cert.json'}: lemma-4.5 holds")


@pytest.mark.parametrize("direction", [[2, 0], [1, 0], ["1/3", 0], [10**30, 0]])
def test_any_positive_multiple_of_the_direction_is_the_same_ray(tmp_path, direction):
    doc = instance_b([neuron([1, -1], ray(direction, [0, 0]), "holds")], "holds")
    assert check(tmp_path, doc)[0] == 0


def _neuron_a(j, **changes):
    neurons = copy.deepcopy(NEURONS_A)
    neurons[j].update(changes)
    return neurons


@pytest.mark.parametrize("doc, reason", [
    (instance_a(verdict="holds"), "document verdict should be hypothesis-not-met"),
    (instance_a(kernel=[]), "0 kernel vectors, but dim ker Xc = 1"),
    # a linearly dependent "basis", [e2, 2 e2]: no vector alone nonzero anywhere
    (instance_a(kernel=[[0, 1], [0, 2]]), "not in echelon form"),
    (instance_a(kernel=[[0, 1], [1, 0]]), "kernel vector 1 is not in ker Xc"),
    (instance_a(kernel=[[0, "1/2"]]), "the kernel vectors must be integer vectors"),
    (instance_a(kernel=[[1, 0]]), "kernel vector 0 is not in ker Xc"),
    (instance_a(_neuron_a(0, bn_optimum=ray([1, 1], [0, 5]))), "b is not orthogonal to the kernel"),
    (instance_a(_neuron_a(1, bn_optimum=ray([1, 0], [0, -2]))), "neuron 1: bn-optimum-set: Xc^T Xc b"),
    (instance_a(_neuron_a(2, bn_optimum=ray([1, 0], [0, 3]))), "neuron 2: bn-optimum-set: stated a ray"),
    (instance_a(_neuron_a(0, bn_optimum=ray([1, 0], [0, 4]))), "neuron 0: closest-bn-optimum"),
    (instance_a(_neuron_a(0, bn_optimum=ray([1, 0], [1, 5]))), "neuron 0: closest-bn-optimum"),
    (instance_a(_neuron_a(1, verdict="holds")), "neuron 1: hypothesis"),
    (instance_a(_neuron_a(0, verdict="refuted")), "neuron 0: residual: verdict should be holds"),
    (instance_a(loss="sum", gamma=[2, -1, 1]), "neuron 2: bn-optimum-set: stated constant"),
    (instance_a(X=[[1, 1], [2, 2], [4, 4]]), "kernel vector 0 is not in ker Xc"),
    (instance_a(X=[[1, 1], [2, 2], [4, 4]], kernel=[[-1, 1]]), "neuron 0: normal-equations"),
    (instance_a(X=[[1, 1], [1, 1], [1, 1]]), "bn-optimum-set: Xc = 0"),
])
def test_hand_built_tampering_is_rejected(tmp_path, doc, reason):
    assert_rejected(tmp_path, doc, reason)


def test_singular_gram_is_rejected():
    # X = [[1,2],[2,4]]: XᵀX singular, W* = (1,0) still solves the normal equations for
    # y = (1,2); ker Xc = span{(-2,1)} (Xc = [[-1/2,-1],[1/2,1]])
    neurons = [neuron([1, 0], ray([1, 2], [0, 0]), "holds")]
    doc = certificate([[1, 2], [2, 4]], [[1], [2]], [[1, 0]], [1], [0], "sum", neurons, "holds",
                      kernel=[[-2, 1]])
    with pytest.raises(Rejected, match="neuron 0: unique-minimum: X\\^T X is not positive definite"):
        check_document(doc)
