"""Red team of session 28's mechanisms: the every-d tracer (columns.py, columns_grad.py,
every_d.py, every_d_squares.py), existential claims proved through a hint
(exists_hint.py), sums of squares, nested roots, equality hypotheses, and the second
reading's gate at a few (m, d).

Each attack is a claim file a user could write.  Those that broke the prover (a false
claim "proved") have a file in tests/redteam_claims/ and a test asserting the correct
verdict; the attacks the tool withstood are kept as cheap regression guards, each with
an honest control that IS proved, so that a prover refusing everything would not pass."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.errors import Disagreement
from bnproof.symbolic_m import exists_hint
from bnproof.symbolic_m.prove import prove_claim
from cli_runner import env_for, run_cli

HERE = Path(__file__).resolve().parent / "redteam_claims"
OK, BAD_INPUT, REJECTED, DISAGREEMENT, UNDECIDED = 0, 3, 6, 7, 10


def _claims(name: str) -> dict:
    return {c.id.rsplit("/", 1)[1]: c for c in load_file(HERE / name)}


def _proved(claim) -> bool:
    """As `prove` decides: with the certificate (the checker proves a hint defined)."""
    made = prove_claim(claim)
    return bool(made) and all(a.proved for a in made)


def _prove_cli(tmp_path, name: str):
    return run_cli("prove", HERE / name, "--out-dir", tmp_path / "out", cwd=tmp_path, env=env_for(tmp_path))


# ------------------------------------------------------------------ holes found (fixed)

def test_a_branch_on_d_behind_isinstance_is_not_proved_for_every_d(tmp_path):
    """isinstance(X.shape[1], int) was False for the every-d tracer, True in numpy and in
    the reading: a branch on d >= 5 behind it was "proved for every m and every d" (the
    gate compares at d <= 4) and refuted by fuzz at d = 5.  Fixed in columns.py: a T's
    class, asked by the claim, is refused (recorded), as the every-m tracer refuses a
    traced scalar's."""
    run = _prove_cli(tmp_path, "size_branch_isinstance.py")
    assert run.returncode == UNDECIDED, run
    assert "proved for every m and every d" not in run.stdout, run
    assert "not proved at d = 5" in run.stdout, run  # the per-d proofs see Σw² there
    assert not list((tmp_path / "out").glob("**/*.proof.json")) or "d = 1, 2, 3, 4 only" in run.stdout


def test_the_every_d_tracer_refuses_the_class_of_its_values():
    from bnproof.symbolic_m import columns

    X, w = Var("X", ("m", "d")), Var("w", ("d",))
    # (isinstance(X, columns.T) answers from type(X), as type() does: nothing to refuse)
    for ask in (lambda X, w: isinstance(X.shape[0], int), lambda X, w: isinstance(X, np.ndarray),
                lambda X, w: X.__class__ is not None, lambda X, w: hasattr(X.shape[1], "__getnewargs__")):
        claim = Claim(id="rt28/class", source="rt", statement="x", kind="identity", variables=(X, w),
                      sizes={"m": (2, 3), "d": (1, 2)},
                      residual=lambda xp, X, w, ask=ask: xp.sum(w * w) * (1 if ask(X, w) else 0))
        with pytest.raises(columns.OutsideFragment, match="isinstance or the class|the attribute .__getnewargs__"):
            columns.program_for(claim, "m", "d")


@pytest.mark.parametrize("name", ["size-branch-text", "size-branch-format"])
def test_a_branch_on_the_text_of_d_is_not_proved_for_every_d(name):
    """str(d) == "5" / f"{d}": proved for every d before (the gate compares at d <= 4).
    Fixed in columns.py: the text of a traced value is refused (recorded), as in every-m."""
    made = prove_claim(_claims("size_branch_text.py")[name])
    assert not made[-1].proved and made[-1].fixed == {"d": 5}, made[-1]  # the per-d proofs see Σw² there
    assert all(a.proved for a in made[:-1])


def test_the_every_d_tracer_refuses_the_text_of_its_values():
    from bnproof.symbolic_m import columns

    for ask in (lambda X: str(X), lambda X: repr(X.shape[1]), lambda X: f"{X.shape[0]:>3}", lambda X: "%s" % (X,)):
        claim = Claim(id="rt28/text", source="rt", statement="x", kind="identity", variables=(X, W),
                      sizes={"m": (2, 3), "d": (1, 2)},
                      residual=lambda xp, X, w, ask=ask: xp.sum(w * w) * (1 if len(ask(X)) > 1 else 0))
        with pytest.raises(columns.OutsideFragment, match="text of a traced value"):
            columns.program_for(claim, "m", "d")


def test_a_branch_on_d_behind_an_operator_the_tracer_lacked_is_not_proved_for_every_d():
    """(d // 5)·(d % 2) under `except TypeError: 0`: proved for every d before.  Fixed in
    columns.py: //, %, divmod, bitwise operators, 2 ** d, round, abs, __index__ and
    in-place changes of arrays are refused (recorded), so a claim that catches them is outside."""
    made = prove_claim(_claims("size_branch_operators.py")["size-branch-operators"])
    assert not made[-1].proved and made[-1].fixed == {"d": 5}, made[-1]


OPERATORS = {
    "floordiv": lambda d: d // 5, "rfloordiv": lambda d: 5 // d, "mod": lambda d: d % 2, "divmod": lambda d: divmod(d, 5),
    "rpow": lambda d: 2 ** d, "lshift": lambda d: d << 1, "rshift": lambda d: d >> 2, "and": lambda d: d & 1,
    "or": lambda d: d | 1, "xor": lambda d: 5 ^ d, "invert": lambda d: ~d, "abs": lambda d: abs(d),
    "round": lambda d: round(d / 5), "trunc": lambda d: __import__("math").trunc(d), "complex": lambda d: complex(d),
    "index": lambda d: ([0] * 9)[d], "operator.index": lambda d: __import__("operator").index(d),
}


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_the_every_d_tracer_refuses_operators_it_does_not_model_even_when_caught(name):
    from bnproof.symbolic_m import columns

    def residual(xp, X, w):
        try:
            OPERATORS[name](X.shape[1])
        except TypeError:
            pass
        return xp.sum(w * w) - xp.sum(w * w)

    claim = Claim(id="rt28/op", source="rt", statement="x", kind="identity", variables=(X, W),
                  sizes={"m": (2, 3), "d": (1, 2)}, residual=residual)
    with pytest.raises(columns.OutsideFragment):
        columns.program_for(claim, "m", "d")


@pytest.mark.parametrize("change", ["add", "setitem"])
def test_the_every_d_tracer_refuses_a_change_of_an_array_in_place(change):
    from bnproof.symbolic_m import columns

    def residual(xp, X, w):
        v = w
        try:
            if change == "add":
                v += 1
            else:
                v[None] = 1
        except TypeError:
            pass
        return xp.sum(w * w) - xp.sum(w * w)

    claim = Claim(id="rt28/inplace", source="rt", statement="x", kind="identity", variables=(X, W),
                  sizes={"m": (2, 3), "d": (1, 2)}, residual=residual)
    with pytest.raises(columns.OutsideFragment, match="in place"):
        columns.program_for(claim, "m", "d")


def test_a_scalar_updated_in_place_is_bound_anew_as_numpy_does():
    def residual(xp, X, w):
        s = xp.sum(w * w)
        t = s
        t += 1  # numpy's scalars are immutable: s keeps its value
        return t - s - 1

    claim = Claim(id="rt28/scalar-inplace", source="rt", statement="x", kind="identity", variables=(X, W),
                  sizes={"m": (2, 3), "d": (1, 2)}, residual=residual)
    made = prove_claim(claim)
    assert [a.reason for a in made] == ["proved for every m and every d"], made


def test_a_branch_on_m_behind_a_dunder_probe_is_not_proved_for_every_m():
    """hasattr(m, "__getnewargs__") then m >= 8: proved for every m before.  Fixed in
    values.py: a dunder the claim's own code asks of a traced value is refused (recorded);
    numpy's and the standard library's probes are still answered "absent"."""
    made = prove_claim(_claims("size_branch_hasattr_m.py")["size-branch-hasattr-m"])
    assert not any(a.proved for a in made), made
    assert "__getnewargs__" in made[0].reason, made[0].reason


@pytest.mark.parametrize("name", ["size-branch-pickle", "size-branch-vars"])
def test_a_branch_on_d_read_by_reflection_is_not_proved_for_every_d(name):
    """d.__reduce_ex__(2)[1][1] (numpy's int pickles its value) and vars(d): proved for every
    d before.  Fixed in columns.py: no __dict__, a pickle refused, a copy the value itself."""
    made = prove_claim(_claims("size_branch_reflection.py")[name])
    assert not made[-1].proved and made[-1].fixed == {"d": 5}, made[-1]


def test_a_copy_of_an_every_d_value_is_the_value():
    import copy

    claim = Claim(id="rt28/copy", source="rt", statement="x", kind="identity", variables=(X, W),
                  sizes={"m": (2, 3), "d": (1, 2)},
                  residual=lambda xp, X, w: xp.sum(copy.deepcopy(X @ w) ** 2) - xp.sum(copy.copy(X @ w) ** 2))
    assert [a.reason for a in prove_claim(claim)] == ["proved for every m and every d"]


def test_a_hypothesis_that_reads_the_existential_variable_is_not_proved(tmp_path):
    """∀a ∃p: p·a = 1 (false at a = 0) with the hypothesis a⁴p² > 0, which under the
    hint p = 1/a read a² > 0 and made the hint "defined": proved, exit 0, before.  fuzz
    refuses the claim (hypotheses read the universal variables only); prove now does too."""
    run = _prove_cli(tmp_path, "hint_hypothesis_reads_witness.py")
    assert run.returncode == UNDECIDED, run
    assert "depends on an existential variable" in run.stdout, run
    assert not list((tmp_path / "out").glob("**/*.json"))


def test_check_claim_rejects_a_hint_certificate_whose_hypothesis_reads_the_witness(tmp_path, monkeypatch):
    """The certificate the previous prover issued (made here with the new rule switched
    off) is rejected by `check --claim` against the claim file."""
    claim = _claims("hint_hypothesis_reads_witness.py")["hint-hypothesis-reads-witness"]
    monkeypatch.setattr(exists_hint, "reads_existential", lambda claim, fixed, k=None: None)
    made, = prove_claim(claim)
    assert made.proved and made.document, made  # the hole, with the rule off
    monkeypatch.undo()
    certificate = tmp_path / "c.proof.json"
    certificate.write_text(json.dumps(made.document))
    run = run_cli("check", certificate, cwd=tmp_path, env=env_for(tmp_path))
    assert run.returncode == OK, run  # the checker alone cannot know the hypothesis reads p
    run = run_cli("check", certificate, "--claim", HERE / "hint_hypothesis_reads_witness.py", cwd=tmp_path,
                  env=env_for(tmp_path))
    assert run.returncode == REJECTED, run
    assert "depends on an existential variable" in run.stdout + run.stderr, run


def test_an_equality_that_reads_the_existential_variable_is_not_proved():
    claim = Claim(id="rt28/eq-reads-p", source="rt", statement="x", kind="identity",
                  variables=(Var("y", ("m",)), Var("a")), exists=(Var("p"),), sizes={"m": (2, 3)},
                  residual=lambda xp, y, a, p: p * a - 1,
                  equalities=(lambda xp, y, a, p: a ** 4 * p ** 2 - 1,), hints=(lambda xp, y, a: 1 / a,))
    made = prove_claim(claim)
    assert not any(a.proved for a in made)
    assert "depends on an existential variable" in made[0].reason


def test_a_size_range_from_zero_is_bad_input_for_prove_as_for_fuzz(tmp_path):
    """Σy > 0 (y positive) with m from 0: false at m = 0.  prove said "proved for every m"
    (exit 0); fuzz says bad input.  Fixed: prove checks the sizes as fuzz does (exit 3)."""
    run = _prove_cli(tmp_path, "size_from_zero.py")
    assert run.returncode == BAD_INPUT, run
    assert "1 <= smallest" in run.stderr + run.stdout, run
    from bnproof.errors import BadInput

    with pytest.raises(BadInput):
        prove_claim(_claims("size_from_zero.py")["size-from-zero"])
    import bnproof

    with pytest.raises(BadInput, match="1 <= smallest"):
        bnproof.prove(_claims("size_from_zero.py")["size-from-zero"])


def test_check_claim_rejects_a_proof_of_a_claim_whose_range_starts_at_zero(tmp_path, monkeypatch):
    """The certificate the previous prover wrote (made with the size check switched off)."""
    from bnproof.search import space

    monkeypatch.setattr(space, "_check_claim_sizes", lambda claim: None)
    made, = prove_claim(_claims("size_from_zero.py")["size-from-zero"])
    assert made.proved and made.document, made
    monkeypatch.undo()
    certificate = tmp_path / "c.proof.json"
    certificate.write_text(json.dumps(made.document))
    run = run_cli("check", certificate, "--claim", HERE / "size_from_zero.py", cwd=tmp_path, env=env_for(tmp_path))
    assert run.returncode == REJECTED, run
    assert "1 <= smallest" in run.stdout, run


@pytest.mark.parametrize("name", ["hint-of-another-shape", "hint-of-another-shape-squared"])
def test_a_hint_of_another_shape_than_its_variable_is_no_witness(name):
    """A vector hint for a scalar p: "∀y ∃p: y_b = p" (false) was proved, exit 0."""
    made = prove_claim(_claims("hint_of_another_shape.py")[name])
    assert not any(a.proved for a in made), made
    assert "another shape" in made[0].reason and "(2,), not ()" in made[0].reason, made[0].reason


def test_check_claim_rejects_a_hint_certificate_of_another_shape(tmp_path, monkeypatch):
    claim = _claims("hint_of_another_shape.py")["hint-of-another-shape"]
    real = exists_hint.reads_existential
    monkeypatch.setattr(exists_hint, "reads_existential", lambda claim, fixed, k=None: None)
    made, = prove_claim(claim)
    assert made.proved and made.document, made  # the hole, with the rule off
    monkeypatch.setattr(exists_hint, "reads_existential", real)
    certificate = tmp_path / "c.proof.json"
    certificate.write_text(json.dumps(made.document))
    run = run_cli("check", certificate, "--claim", HERE / "hint_of_another_shape.py", cwd=tmp_path,
                  env=env_for(tmp_path))
    assert run.returncode == REJECTED, run
    assert "another shape" in run.stdout, run


def test_a_hint_of_the_declared_shape_is_still_proved():
    claim = Claim(id="rt28/hint-shape-ok", source="rt", statement="x", kind="identity",
                  variables=(Var("y", ("m",)),), exists=(Var("p", ("m",)),), sizes={"m": (2, 3)},
                  residual=lambda xp, y, p: y - p, hints=(lambda xp, y: y * 1,))
    assert _proved(claim)


def test_equality_at_one_fixed_size_is_not_said_of_every_size(tmp_path):
    """(d − 1)·Σw² >= 0 is 0 at d = 1 only; "with equality (identically 0)" was said of
    d = 1, 2, 3 (fixed in survivor.py: said only at the sizes where it is)."""
    run = _prove_cli(tmp_path, "equality_at_one_size.py")
    assert run.returncode == OK, run
    assert "proved for every m at d = 1, 2, 3, with equality at d = 1 (the residual is identically 0)" \
        in run.stdout, run


# ------------------------------------------------------------------ holes found (open)

@pytest.mark.parametrize("file, name, where", [
    ("size_branch_type.py", "size-branch-type-d", "at m = 2, d = 5"),
    ("size_branch_type.py", "size-branch-type-m", "at m = 8"),
    ("size_branch_identity.py", "size-branch-identity-d", "at m = 2, d = 5"),
    ("size_branch_identity.py", "size-branch-identity-m", "at m = 8"),
])
def test_a_branch_on_a_size_behind_type_or_is_within_the_declared_range_is_never_proved(file, name, where):
    """`type(n) is int` and `n is 5` ask nothing of a traced size, so the tracer takes the
    other branch than numpy; the gate compared at d <= 4 and m = 2, 3, 4, 5, 7 only, and
    the branch at d = 5 (d in 1..6) or m = 8 (m in 2..9) was "proved".  Fixed in
    crosscheck.py: the gate compares at every size of the claim's declared range too, where
    the readings differ (exit 7: the tracer cannot read this code)."""
    with pytest.raises(Disagreement, match=where):
        prove_claim(_claims(file)[name])


def test_a_branch_beyond_the_declared_range_is_the_documented_limitation():
    """The documented limitation: the gate compares at m = 2, 3, 4, 5, 7 and every m the
    claim declares, no further, so a branch of `type(m) is int` at m >= 8 in a claim that
    declares m in 2..6 is traced away, and the claim is "proved for every m" although false
    at m = 8: "for every m" is then said beyond what the claim declares (and fuzz searches),
    true only within its declared range, where the claim IS 0."""
    claim = Claim(id="rt28/beyond", source="rt", statement="x", kind="identity", variables=(Y,),
                  sizes={"m": (2, 6)}, residual=lambda xp, y: xp.sum(y * y) * (1 if type(y.shape[0]) is int
                                                                                 and y.shape[0] >= 8 else 0))
    made = prove_claim(claim)
    assert [a.reason for a in made] == ["proved for every m"], made


THIRTEEN = 13


def test_a_declared_range_past_the_gate_s_caps_is_not_proved_but_says_why():
    """A range the gate will not compare at every size of (m up to 20 > crosscheck's
    MAX_DECLARED; 6 x 10 pairs (m, d) > MAX_PAIRS) leaves the proof undecided with the
    reason, as any inconclusive second reading: never "proved" unchecked at a declared size.
    Before the fix both were proved, the first though false at m = 13."""
    every_m = Claim(id="rt28/wide-m", source="rt", statement="x", kind="identity", variables=(Y,),
                    sizes={"m": (2, 20)}, residual=lambda xp, y: xp.sum(y * y) * (1 if y.shape[0] is THIRTEEN else 0))
    every_d = Claim(id="rt28/wide-d", source="rt", statement="x", kind="identity", variables=(X, W),
                    sizes={"m": (2, 7), "d": (1, 10)}, residual=lambda xp, X, w: xp.sum(w) - xp.sum(w))
    made = prove_claim(every_m)
    assert not any(a.proved for a in made) and "compares at m <= 12 only" in made[0].reason, made
    from bnproof.symbolic_m.every_d import attempt

    whole = attempt(every_d, False)
    assert not whole.proved and "declares 60 pairs (m, d)" in whole.reason, whole.reason
    made = prove_claim(every_d)  # at each d, as for any claim the every-d proof leaves
    assert made and all(a.fixed for a in made), made


def test_a_size_used_as_a_list_index_under_try_is_not_proved_for_every_size():
    """TABLE[d] with `except TypeError: 0`: the tracers' sizes are no index (refused and
    recorded), so the branch numpy takes at d = 5 is seen at d = 5 by the per-d proofs."""
    table = [0] * 5 + [1] * 20

    def pick(n):
        try:
            return table[n]
        except TypeError:
            return 0

    every_d = Claim(id="rt28/d-index", source="rt", statement="x", kind="identity", variables=(X, W),
                    sizes={"m": (2, 3), "d": (1, 6)}, residual=lambda xp, X, w: xp.sum(w * w) * pick(X.shape[1]))
    every_m = Claim(id="rt28/m-index", source="rt", statement="x", kind="identity", variables=(Y,),
                    sizes={"m": (2, 9)}, residual=lambda xp, y: xp.sum(y * y) * pick(y.shape[0] + 3))
    assert not _proved(every_d) and not _proved(every_m)


# ------------------------------------------------------------------ attacks withstood: regression guards

X, W, A, Y, Z = Var("X", ("m", "d")), Var("w", ("d",)), Var("a"), Var("y", ("m",)), Var("z", ("m",))
EVERY_D = {"m": (2, 4), "d": (1, 3)}


def _every_d(cid, residual, kind="identity", strict=False):
    return Claim(id=f"rt28/{cid}", source="rt", statement="x", kind=kind, strict=strict, variables=(X, W, A),
                 sizes=EVERY_D, residual=residual)


def _pc(xp, a, want):  # perturbation confusion: d/dx [x · d/dy (x + y)] = 1
    return xp.grad(lambda x: x * xp.grad(lambda y: x + y, a), a) - want


def _pairs(xp, X):
    return X[:, None, :] - X[None, :, :]


FALSE_EVERY_D = {
    # numpy quirks and sizes: each is refused or not 0 (never proved)
    "reversed-slice": lambda xp, X, w, a: xp.sum(w[::-1] * w) - xp.sum(w * w),
    "row-slice": lambda xp, X, w, a: xp.sum(X[1:] @ w) - xp.sum(X @ w),
    "ellipsis": lambda xp, X, w, a: xp.sum(X[..., None] * w) * 0 + xp.sum(w * w),
    "floor-division-of-d": lambda xp, X, w, a: xp.sum(w * w) * (X.shape[1] // 2) * 2 - xp.sum(w * w) * X.shape[1],
    "parity-of-m": lambda xp, X, w, a: xp.sum(w * w) * (X.shape[0] % 2),
    "sign-power-of-m": lambda xp, X, w, a: xp.sum(w * w) * ((-1) ** X.shape[0]) - xp.sum(w * w),
    "bool-factor": lambda xp, X, w, a: xp.sum(w * w) * (X.shape[1] > 1),
    "keepdims": lambda xp, X, w, a: xp.sum((X - xp.mean(X, axis=1, keepdims=True)) ** 2)
    - xp.sum((X - xp.mean(X, axis=0)) ** 2),
    "row-mean-for-column-mean": lambda xp, X, w, a: xp.sum((X - xp.mean(X, axis=1)[:, None]) ** 2)
    - xp.sum((X - xp.mean(X, axis=0)) ** 2),
    "transpose-of-pairs": lambda xp, X, w, a: xp.sum(_pairs(xp, X).T ** 2) * 0 + xp.sum(w * w),
    "eye-d-trace-one": lambda xp, X, w, a: (xp.sum(xp.eye(X.shape[1])) - 1) * xp.sum(w * w),
    # gradients: perturbation confusion, closures, matrices, identity, roots: wrong values
    "perturbation-confusion": lambda xp, X, w, a: _pc(xp, a, 2),
    "closure-is-a-constant": lambda xp, X, w, a: xp.sum((xp.grad(lambda v: xp.sum(v * w), w) - 2 * w) ** 2),
    "grad-matrix-half": lambda xp, X, w, a: xp.sum((xp.grad(lambda Q: xp.sum((Q @ w) ** 2), X)
                                                    - (X @ w)[:, None] * w[None, :]) ** 2),
    "grad-gram-half": lambda xp, X, w, a: xp.sum((xp.grad(lambda Q: xp.sum((Q.T @ Q) * (Q.T @ Q)), X)
                                                  - 2 * X @ (X.T @ X)) ** 2),
    "grad-pairs-half": lambda xp, X, w, a: xp.sum((xp.grad(lambda Q: xp.sum(_pairs(xp, Q) ** 2), X)
                                                   - 2 * X.shape[0] * (X - xp.mean(X, axis=0))) ** 2),
    "grad-norm-squared-norm": lambda xp, X, w, a: xp.sum((xp.grad(lambda v: xp.sqrt(v @ v), w) * (w @ w) - w) ** 2),
}

TRUE_EVERY_D = {
    "perturbation-confusion": lambda xp, X, w, a: _pc(xp, a, 1),
    "closure-is-a-constant": lambda xp, X, w, a: xp.sum((xp.grad(lambda v: xp.sum(v * w), w) - w) ** 2),
    "grad-matrix": lambda xp, X, w, a: xp.sum((xp.grad(lambda Q: xp.sum((Q @ w) ** 2), X)
                                               - 2 * (X @ w)[:, None] * w[None, :]) ** 2),
    "grad-pairs": lambda xp, X, w, a: xp.sum((xp.grad(lambda Q: xp.sum(_pairs(xp, Q) ** 2), X)
                                              - 4 * X.shape[0] * (X - xp.mean(X, axis=0))) ** 2),
    "grad-norm": lambda xp, X, w, a: xp.sum((xp.grad(lambda v: xp.sqrt(v @ v), w) * xp.sqrt(w @ w) - w) ** 2),
    "eye-d-trace": lambda xp, X, w, a: xp.sum(xp.eye(X.shape[1])) - X.shape[1],
}


@pytest.mark.parametrize("name", sorted(FALSE_EVERY_D))
def test_a_false_every_d_claim_is_never_proved(name):
    assert not _proved(_every_d(name, FALSE_EVERY_D[name]))


@pytest.mark.parametrize("name", sorted(TRUE_EVERY_D))
def test_its_honest_counterpart_is_proved_for_every_d(name):
    made = prove_claim(_every_d(name, TRUE_EVERY_D[name]))
    assert [a.reason for a in made] == ["proved for every m and every d"], made


def _inplace(xp, y):
    before = y * 1
    alias = y
    alias += 1  # numpy: y itself moves; the tracer's values are immutable
    return xp.sum(before * before) - xp.sum(y * y)


def test_an_in_place_update_of_an_input_is_never_a_proof():
    """numpy moves y itself, and the inputs with it: the readings differ (exit 7), or no
    instance is found; never "proved"."""
    claim = Claim(id="rt28/inplace", source="rt", statement="x", kind="identity", variables=(Y,),
                  sizes={"m": (2, 4)}, residual=_inplace)
    try:
        made = prove_claim(claim)
    except Disagreement:
        return
    assert not any(a.proved for a in made), made


# hints undefined somewhere: every one of these ∀∃ claims is false where the hint divides by 0
def _exists(cid, residual, hint, hypotheses=()):
    return Claim(id=f"rt28/{cid}", source="rt", statement="x", kind="identity", variables=(Y, A),
                 exists=(Var("p"),), sizes={"m": (2, 3)}, residual=residual, hypotheses=hypotheses,
                 hints=(hint,))


def _ss(xp, y):
    return xp.sum((y - xp.mean(y)) ** 2)


UNDEFINED_HINTS = {
    "negative-power": (lambda xp, y, a, p: p * a - 1, lambda xp, y, a: a ** -1),
    "inverse-square": (lambda xp, y, a, p: p * a * a - 1, lambda xp, y, a: 1 / (a * a)),
    "inverse-sum-of-squares": (lambda xp, y, a, p: p * _ss(xp, y) - 1, lambda xp, y, a: 1 / _ss(xp, y)),
    "inverse-root-of-square": (lambda xp, y, a, p: p * xp.sqrt(a * a) - 1, lambda xp, y, a: 1 / xp.sqrt(a * a)),
    "quotient-cancels": (lambda xp, y, a, p: p * a - 1, lambda xp, y, a: (a / a) / a),
    "inverse-sigma": (lambda xp, y, a, p: p * xp.sqrt(_ss(xp, y) / y.shape[0]) - 1,
                      lambda xp, y, a: 1 / xp.sqrt(_ss(xp, y) / y.shape[0])),
    "a-over-a-squared": (lambda xp, y, a, p: p * a - 1, lambda xp, y, a: a / (a * a)),
}


@pytest.mark.parametrize("name", sorted(UNDEFINED_HINTS))
def test_a_hint_undefined_somewhere_proves_nothing(name):
    residual, hint = UNDEFINED_HINTS[name]
    assert not _proved(_exists(name, residual, hint))


def test_a_hint_defined_under_its_hypothesis_is_proved():
    claim = _exists("inverse-defined", lambda xp, y, a, p: p * _ss(xp, y) - 1, lambda xp, y, a: 1 / _ss(xp, y),
                    hypotheses=(lambda xp, y, a, p: _ss(xp, y),))
    assert _proved(claim)


# strict inequalities, hypotheses that are squares, roots of squares
def _scalar(cid, residual, kind="inequality", strict=True, hypotheses=()):
    return Claim(id=f"rt28/{cid}", source="rt", statement="x", kind=kind, strict=strict and kind == "inequality",
                 variables=(Y, Z, A),
                 sizes={"m": (2, 3)}, residual=residual, hypotheses=hypotheses)


FALSE_SCALAR = {
    "strict-zero": _scalar("strict-zero", lambda xp, y, z, a: xp.sum(y) - xp.sum(y)),
    "strict-variance": _scalar("strict-variance", lambda xp, y, z, a: _ss(xp, y)),
    "strict-cauchy-schwarz": _scalar("strict-cs", lambda xp, y, z, a: xp.sum(y * y) * xp.sum(z * z)
                                     - xp.sum(y * z) ** 2),
    "strict-root": _scalar("strict-root", lambda xp, y, z, a: xp.sqrt(xp.sum(y * y))),
    "strict-hypothesis-times-root": _scalar("strict-h-root", lambda xp, y, z, a: a * xp.sqrt(xp.sum(y * y)),
                                            hypotheses=(lambda xp, y, z, a: a,)),
    "strict-ratio": _scalar("strict-ratio", lambda xp, y, z, a: xp.sum(y * z) ** 2 / xp.sum(z * z)),
    "square-hypothesis-is-no-sign": _scalar("sq-hyp", lambda xp, y, z, a: a, strict=False,
                                            hypotheses=(lambda xp, y, z, a: a * a,)),
    "root-of-square-is-not-a": _scalar("root-sq", lambda xp, y, z, a: xp.sqrt(a * a) - a, kind="identity"),
    "root-of-scaled-square": _scalar("root-sq2", lambda xp, y, z, a: xp.sqrt(a * a * xp.sum(y * y))
                                     - a * xp.sqrt(xp.sum(y * y)), kind="identity"),
    "root-of-squared-sum": _scalar("root-sum", lambda xp, y, z, a: xp.sqrt(xp.sum(y * z) ** 2) - xp.sum(y * z),
                                   kind="identity"),
    "root-over-squared-sum": _scalar("root-over-sum", lambda xp, y, z, a: xp.sqrt(a / xp.sum(y) ** 2)
                                     - xp.sqrt(a) / xp.sum(y), kind="identity"),
    "negative-hypothesis-wrong-sign": _scalar("neg-c", lambda xp, y, z, a: xp.sqrt(a * a * xp.sum(y * y))
                                              - a * xp.sqrt(xp.sum(y * y)), kind="identity",
                                              hypotheses=(lambda xp, y, z, a: -a,)),
    "reversed-cauchy-schwarz": _scalar("cs-rev", lambda xp, y, z, a: xp.sum(y * z) ** 2
                                       - xp.sum(y * y) * xp.sum(z * z), strict=False),
}


@pytest.mark.parametrize("name", sorted(FALSE_SCALAR))
def test_a_false_or_unearned_scalar_claim_is_never_proved(name):
    assert not _proved(FALSE_SCALAR[name])


def test_roots_of_known_sign_are_proved():
    for claim in (
        _scalar("neg-c-true", lambda xp, y, z, a: xp.sqrt(a * a * xp.sum(y * y)) + a * xp.sqrt(xp.sum(y * y)),
                kind="identity", hypotheses=(lambda xp, y, z, a: -a,)),
        _scalar("root-root", lambda xp, y, z, a: xp.sqrt(xp.sum(z * z) / xp.sqrt(xp.sum(y * y)) ** 2)
                * xp.sqrt(xp.sum(y * y)) - xp.sqrt(xp.sum(z * z)), kind="identity"),
        _scalar("cs", lambda xp, y, z, a: xp.sum(y * y) * xp.sum(z * z) - xp.sum(y * z) ** 2, strict=False),
    ):
        assert _proved(claim), claim.id
