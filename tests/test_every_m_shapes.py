"""Shapes beyond one batch vector, proved for every m (issue 23, pattern 3): a batch size
of any name (symbolic_m/trace.py: batch_name; the checker's batch_size), vector inputs
declared positive (a manifest sign of every entry, symbolic_m/forms.py and the checker's
Manifest.entrywise), outer products 1cᵀ with a fixed-length c (namespace.py: outer) and
reductions over the fixed axis of an (m, d) input and of its (d, m) transpose (row means,
LN(Aᵀ) = BN(A)ᵀ; values.py: Columns._each_transposed).
The near misses are never proved, and forged certificates are rejected."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.symbolic_m.prove import attempt, prove_claim
from tests.tamper import domain_dropped, seal

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_m_shapes.py"
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(GALLERY)}
TRUE = ("batch-named-n", "positive-mean", "positive-weighted", "positive-root", "shift-per-column", "shift-broadcast",
        "column-means", "row-means", "ln-of-transpose")
NEAR_MISSES = ("shift-adds-c", "signless-mean", "signless-root", "column-means-twice", "ln-variance-swapped")


def _spread(xp, y, **_):
    return xp.mean((y - xp.mean(y)) ** 2)


def _sum_bn(xp, y, **_):
    mu = xp.mean(y)
    return xp.sum((y - mu) / xp.sqrt(xp.mean((y - mu) ** 2)))


# --- the gallery, end to end ------------------------------------------------------------

@pytest.mark.parametrize("name", TRUE)
def test_true_claims_are_proved_at_every_declared_size_and_the_checker_accepts(name):
    attempts = prove_claim(CLAIMS[name])
    assert attempts and all(a.proved for a in attempts), attempts[-1].reason
    if "d" in CLAIMS[name].sizes:
        # [{}]: proved for every d at once (symbolic_m/every_d.py, tests/test_every_d.py)
        assert [a.fixed for a in attempts] in ([{"d": 1}, {"d": 2}, {"d": 3}], [{}])
    for a in attempts:
        assert "proved for every m" in check_document(a.document)


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_never_proved(name):
    attempts = prove_claim(CLAIMS[name])
    assert not attempts[-1].proved and all(a.document is None for a in attempts if not a.proved)
    assert attempts[-1].reason.startswith("not proved: normal form")


@pytest.mark.parametrize("name", ["shift-adds-c", "signless-mean", "signless-root", "ln-variance-swapped"])
def test_near_misses_are_refuted_by_fuzz(name, tmp_path):
    result = bnproof.fuzz(CLAIMS[name], out_dir=tmp_path, seed=0, max_examples=60, time_budget=60, jax=False)
    assert result.verdict == "refuted"
    assert bnproof.check(result.certificate_path, claim=CLAIMS[name]).accepted


# --- the batch size's name ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["n", "B"])
def test_a_batch_size_of_another_name_is_proved_and_bound_to_the_claim(name, tmp_path):
    claim = Claim(id=f"me/named-{name}", source="s", statement="x", kind="identity",
                  variables=(Var("y", (name,)),), sizes={name: (2, 5)}, hypotheses=(_spread,),
                  residual=_sum_bn)
    result = attempt(claim)
    assert result.proved, result.reason
    assert result.program["inputs"] == [["y", "vector", "real"]]
    check_document(result.document)
    from bnproof.cli.run_check import proof_difference
    assert proof_difference(claim, result.document, "the test") is None


def test_the_batch_of_a_matrix_input_is_its_first_axis():
    claim = Claim(id="me/rows", source="s", statement="x", kind="identity",
                  variables=(Var("X", ("B", "d")), Var("c", ("d",))), sizes={"B": (2, 4), "d": (2, 2)},
                  residual=lambda xp, X, c: xp.sum((xp.mean(X + c, axis=0) - xp.mean(X, axis=0) - c) ** 2))
    result = attempt(claim, {"d": 2})
    assert result.proved, result.reason
    assert result.document["fixed"] == {"d": 2}


def test_two_candidates_for_the_batch_size_are_refused_with_the_rule():
    claim = Claim(id="me/two", source="s", statement="x", kind="identity",
                  variables=(Var("y", ("n",)), Var("c", ("d",))), sizes={"n": (2, 4), "d": (2, 2)},
                  hypotheses=(_spread,), residual=lambda xp, y, c: _sum_bn(xp, y))
    result = attempt(claim, {"d": 2})
    assert result.status == "outside-fragment"
    assert "several sizes that could be the batch size (d, n" in result.reason and "name the batch size m" \
        in result.reason


def test_a_certificate_whose_fixed_sizes_leave_two_sizes_open_is_rejected():
    doc = copy.deepcopy(attempt(CLAIMS["shift-per-column"], {"d": 2}).document)
    doc["fixed"] = {}
    with pytest.raises(Rejected):
        check_document(seal(doc))


# --- positive vectors -----------------------------------------------------------------------

def test_a_positive_vector_keeps_its_domain_in_the_program():
    result = attempt(CLAIMS["positive-mean"])
    assert result.program["inputs"] == [["y", "vector", "positive"]]
    assert result.proof["method"] == "nonnegative"


def test_a_forged_certificate_that_drops_the_positive_domain_is_rejected():
    doc = copy.deepcopy(attempt(CLAIMS["positive-mean"]).document)
    for var in doc["claim"]["variables"]:
        var["domain"] = "real"
    doc["program"]["inputs"][0][2] = "real"
    with pytest.raises(Rejected, match="not manifestly"):
        check_document(seal(doc))


def test_a_forged_program_that_declares_a_real_vector_positive_is_rejected():
    doc = copy.deepcopy(attempt(CLAIMS["positive-mean"]).document)
    for var in doc["claim"]["variables"]:
        var["domain"] = "real"
    with pytest.raises(Rejected, match="program.inputs"):
        check_document(seal(doc))


def test_a_witness_outside_the_positive_domain_is_rejected():
    doc = copy.deepcopy(attempt(CLAIMS["positive-weighted"]).document)
    y = doc["witness"]["inputs"]["y"]
    y[0] = "-1"
    with pytest.raises(Rejected, match="outside its domain"):
        check_document(seal(doc))


def test_a_forged_root_certificate_without_the_positive_domain_is_rejected():
    doc = domain_dropped(attempt(CLAIMS["positive-root"]).document)
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(doc))


def test_only_a_sum_of_positive_vectors_alone_leaves_a_root():
    def claim(cid, residual):
        return Claim(id=cid, source="s", statement="x", kind="identity",
                     variables=(Var("y", ("m",), "positive"), Var("g", ("m",))), sizes={"m": (2, 4)},
                     residual=residual)
    near = [claim("me/mixed", lambda xp, y, g: xp.sqrt(xp.sum(y * g) ** 2) - xp.sum(y * g)),
            claim("me/difference", lambda xp, y, g: xp.sqrt((xp.sum(y) - xp.sum(g)) ** 2) - xp.sum(y)
                  + xp.sum(g))]
    for c in near:
        result = attempt(c)
        assert not result.proved and result.reason.startswith("not proved: normal form"), c.id
    odd = claim("me/odd", lambda xp, y, g: xp.sqrt(xp.sum(y) ** 3) - xp.sum(y) * xp.sqrt(xp.sum(y)))
    result = attempt(odd)
    assert result.proved, result.reason


def test_a_positive_matrix_input_gives_positive_columns():
    claim = Claim(id="me/posX", source="s", statement="x", kind="inequality", strict=True,
                  variables=(Var("X", ("m", "d"), "positive"),), sizes={"m": (2, 4), "d": (2, 2)},
                  residual=lambda xp, X: xp.sum(X))
    result = attempt(claim, {"d": 2})
    assert result.proved, result.reason
    assert result.program["inputs"] == [["X:0", "vector", "positive"], ["X:1", "vector", "positive"]]


def test_a_nonzero_vector_is_proved_for_every_real_entry():
    claim = Claim(id="me/nz", source="s", statement="x", kind="identity",
                  variables=(Var("y", ("m",), "nonzero"),), sizes={"m": (2, 4)},
                  residual=lambda xp, y: xp.sum(y - xp.mean(y)))
    result = attempt(claim)
    assert result.proved, result.reason
    assert result.program["inputs"] == [["y", "vector", "real"]]


def test_a_difference_of_positive_vectors_has_no_sign():
    claim = Claim(id="me/diff", source="s", statement="x", kind="inequality",
                  variables=(Var("y", ("m",), "positive"), Var("g", ("m",), "positive")), sizes={"m": (2, 4)},
                  residual=lambda xp, y, g: xp.sum(y - g))
    assert not attempt(claim).proved


# --- outer products with a fixed-length vector ---------------------------------------------

def test_outer_with_a_fixed_vector_is_one_c_transposed():
    claim = CLAIMS["column-means"]
    result = attempt(claim, {"d": 2})
    assert result.proved, result.reason
    assert any(s[0] == "input" and s[1] == "c:1" for s in result.program["steps"])


def test_a_forged_shift_certificate_is_rejected():
    # the near miss's program (the shift counted twice) under the true claim: a valid digest
    from bnproof.symbolic_m.trace import program_for

    doc = copy.deepcopy(attempt(CLAIMS["column-means"], {"d": 1}).document)
    near = program_for(CLAIMS["column-means-twice"], {"d": 1})
    assert near != doc["program"]
    doc["program"] = near
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(doc))


# --- reductions over the fixed axis, and the transpose --------------------------------------

def _matrix_claim(cid, residual):
    return Claim(id=cid, source="s", statement="x", kind="identity", variables=(Var("A", ("m", "d")),
                 Var("c", ("d",))), sizes={"m": (2, 4), "d": (2, 2)}, residual=residual)


def test_row_means_are_a_batch_vector_and_the_transpose_reduces_as_numpy():
    claim = _matrix_claim("me/rows-T", lambda xp, A, c: xp.sum((xp.sum(A.T, axis=0) - xp.sum(A, axis=1)) ** 2)
                          + xp.sum((xp.mean(A.T, axis=1) - xp.mean(A, axis=0)) ** 2)
                          + (xp.mean(xp.mean(A, axis=1)) - xp.mean(A)))
    result = attempt(claim, {"d": 2})
    assert result.proved, result.reason


def test_a_near_miss_of_row_means_is_not_proved():
    # the row mean of A + 1cᵀ shifts by mean(c), not by Σc (the same at d = 1 only)
    claim = _matrix_claim("me/rows-sum", lambda xp, A, c: xp.sum((xp.mean(A + c, axis=1) - xp.mean(A, axis=1)
                                                                   - xp.sum(c)) ** 2))
    result = attempt(claim, {"d": 2})
    assert not result.proved and result.reason.startswith("not proved: normal form")


@pytest.mark.parametrize("residual, why", [
    (lambda xp, A, c: xp.sum(A.T - c), "array of shape (2,)"),  # numpy pairs c with the batch axis
    (lambda xp, A, c: xp.sum(A.T + A), "different shapes"),
    (lambda xp, A, c: xp.sum(A + A.T), "different shapes"),
    (lambda xp, A, c: xp.sum(xp.mean(A, axis=2)), "axis 2"),
])
def test_shapes_numpy_would_not_pair_are_refused(residual, why):
    result = attempt(_matrix_claim("me/refused", residual), {"d": 2})
    assert result.status == "outside-fragment" and why in result.reason, result.reason


def test_a_forged_layer_norm_certificate_is_rejected():
    # Bessel's variance on the LN side, under the true claim's name: a valid digest
    from bnproof.symbolic_m.trace import program_for

    doc = copy.deepcopy(attempt(CLAIMS["ln-of-transpose"], {"d": 2}).document)
    doc["program"] = program_for(CLAIMS["ln-variance-swapped"], {"d": 2})
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(doc))
