"""Forged certificates against the checker's shared exact core (issue 25): where one
algorithm now serves two callers, a certificate that only a careless merge would accept.
Each is sealed with a valid digest, so only the mathematics can reject it."""

from __future__ import annotations

import pytest

from bnproof.checker import Rejected, check_document
from tamper import seal

# inputs y (a vector of length m) and c (a scalar); r = sqrt(sum(y*y) + c*c)
HEAD = [["input", "y"], ["input", "c"], ["mul", 0, 0], ["sum", 2], ["mul", 1, 1], ["add", 3, 4],
        ["sqrt", 5]]  # 0..6, r is step 6


def _proof(steps: list, residual: int, method: str = "zero", kind: str = "identity",
           hypotheses: tuple = (), witness_c: str = "1") -> dict:
    strict = kind == "strict-inequality"
    return seal({
        "format": "bnproof-certificate", "version": 2, "bnproof_version": "01", "kind": "proof",
        "claim": {"id": "me/core-merge", "source": "a test", "statement": "x = 0", "kind": kind,
                  "variables": [{"name": "y", "shape": ["m"], "domain": "real"},
                                {"name": "c", "shape": [], "domain": "real"}]},
        "program": {"inputs": [["y", "vector", "real"], ["c", "scalar", "real"]], "steps": steps,
                    "residual": residual, "hypotheses": list(hypotheses),
                    "kind": "identity" if kind == "identity" else "inequality", "strict": strict},
        "fixed": {}, "proof": {"method": method},
        "witness": {"m": 2, "inputs": {"y": ["1", "2"], "c": witness_c}}})


def _read(steps: list, read: int, value: int) -> tuple[list, int]:
    """(steps, residual): the residual value + 0·sum(read), so that the vector step `read`
    stays read (an unread step would be a hidden hypothesis)."""
    n = len(steps)
    return steps + [["sum", read], ["const", "0"], ["mul", n + 1, n], ["add", value, n + 2]], n + 3


def test_the_derivative_by_a_scalar_of_a_root_is_its_own_after_a_gradient_of_that_root():
    # ∇_y r = y/r first, then ∂r/∂c = c/r: one derivative rule for both, and the root's
    # derivative kept per variable.  A rule that reused ∇_y r for ∂/∂c would find ∂r/∂c = 0.
    steps = HEAD + [["grad", 6, 0], ["grad", 6, 1]]  # 7: ∇_y r (a vector), 8: ∂r/∂c
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(_proof(*_read(steps, 7, 8)))  # "∂r/∂c = 0"
    # the true identity r·∂r/∂c − c = 0 is accepted
    true = steps + [["mul", 8, 6], ["sub", 9, 1]]
    assert "proved for every m" in check_document(_proof(*_read(true, 7, 10)))


def test_a_scalar_derivative_is_the_derivative_by_that_scalar():
    # ∂(c·c)/∂c = 2c: the atom's own derivative is 1 (not 0), and c·c holds it twice
    steps = [["input", "y"], ["input", "c"], ["mul", 1, 1], ["grad", 2, 1], ["sub", 3, 1]]  # 2c − c
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(_proof(*_read(steps, 0, 4)))
    steps = steps[:4] + [["const", "2"], ["mul", 4, 1], ["sub", 3, 5]]  # 2c − 2c
    assert "proved for every m" in check_document(_proof(*_read(steps, 0, 6)))


def test_a_batch_sum_fixed_by_an_equality_must_be_one_sum_not_a_multiple():
    # a substitution names a step whose normal form is one batch sum S[w] with
    # coefficient 1; 2·Σy is not one, and neither is Σy/m
    for extra in (["const", "2"], ["m"]):
        steps = [["input", "y"], ["input", "c"], ["sum", 0], extra,
                 ["mul", 2, 3] if extra[0] == "const" else ["div", 2, 3], ["sub", 4, 1]]
        doc = _proof(steps, 5, method="substitution")
        doc = {k: v for k, v in doc.items() if k != "digest"}
        doc["claim"]["equalities"] = 1
        doc["program"]["equalities"] = [5]
        doc["proof"] = {"method": "substitution", "substitutions": [{"equality": 0, "sum": 4}]}
        with pytest.raises(Rejected, match="is not a batch sum"):
            check_document(seal(doc))
    # the control: the step that is Σy itself is one, and Σy − c = 0 fixes it as c
    steps = [["input", "y"], ["input", "c"], ["sum", 0], ["sub", 2, 1]]
    doc = {k: v for k, v in _proof(steps, 3, method="substitution", witness_c="3").items() if k != "digest"}
    doc["claim"]["equalities"] = 1
    doc["program"]["equalities"] = [3]
    doc["proof"] = {"method": "substitution", "substitutions": [{"equality": 0, "sum": 2}]}
    assert "proved for every m" in check_document(seal(doc))


def _vectors(steps: list, residual: int, domain: str, factors: list) -> dict:
    """A strict claim "residual > 0" over vectors y, z of the domain, proved "nonnegative"
    by one term: the product of the factors."""
    doc = {k: v for k, v in _proof(steps, residual, method="nonnegative", kind="strict-inequality").items()
           if k != "digest"}
    doc["claim"]["variables"] = [{"name": n, "shape": ["m"], "domain": domain} for n in ("y", "z")]
    doc["program"]["inputs"] = [[n, "vector", domain] for n in ("y", "z")]
    doc["proof"] = {"method": "nonnegative", "steps": [], "denominator": [],
                    "terms": [{"coefficient": "1", "factors": factors}]}
    doc["witness"] = {"m": 2, "inputs": {"y": ["1", "2"], "z": ["3", "1"]}}
    return seal(doc)


def test_a_vector_s_entries_are_positive_by_form_only_from_a_positive_input():
    # one sign rule for a scalar step and for every entry of a vector step: a vector is
    # never assumed nonzero, so an even power of a real one is >= 0, not > 0
    squares = [["input", "y"], ["input", "z"], ["sub", 0, 1], ["pow", 2, 2], ["sum", 3]]
    with pytest.raises(Rejected, match="a term whose factors are all manifestly > 0"):
        check_document(_vectors(squares, 4, "real", [4]))  # Σ(y − z)² > 0: false at y = z
    with pytest.raises(Rejected, match="a term whose factors are all manifestly > 0"):
        check_document(_vectors(squares[:1] + [["input", "z"], ["mul", 0, 0], ["sum", 2]], 3, "real", [3]))
    # Σ y·z² > 0 for y, z declared positive: every entry is
    positive = [["input", "y"], ["input", "z"], ["pow", 1, 2], ["mul", 0, 2], ["sum", 3]]
    assert "proved for every m" in check_document(_vectors(positive, 4, "positive", [4]))


def _moments(steps: list, residual: int) -> dict:
    """A moments-n proof certificate of "residual = 0" for a law X on k = 2 points."""
    return seal({
        "format": "bnproof-certificate", "version": 2, "bnproof_version": "01", "kind": "proof",
        "claim": {"id": "me/core-merge-moments", "source": "a test", "statement": "x = 0", "kind": "identity",
                  "variables": [{"name": "X_support", "shape": ["k"], "domain": "real"},
                                {"name": "X_weights", "shape": ["k"], "domain": "positive"}]},
        "program": {"laws": ["X"], "lengths": [], "inputs": [], "steps": steps, "residual": residual,
                    "kind": "identity"},
        "fixed": {"k": 2}, "proof": {"method": "moments-n"},
        "witness": {"m": 2, "inputs": {"X_support": ["0", "1"], "X_weights": ["1", "1"]}}})


def test_moments_replay_with_the_normal_form_s_polynomials_keeps_every_term():
    # E[(Σx)²] = n μ2 + n(n − 1) μ1²: the moments replay multiplies and adds with
    # symbolic_length's polynomials; dropping the cross term (or a sign) would prove
    # E[(Σx)²] = n μ2
    steps = [["n"], ["batch", "X", "n"], ["sum", 1], ["pow", 2, 2], ["expect", 3],  # 4: E[(Σx)²]
             ["batch", "X", 1], ["draw", 5, 0], ["pow", 6, 2], ["expect", 7],  # 8: μ2
             ["mul", 0, 8], ["sub", 4, 9]]  # 10: E[(Σx)²] − n μ2
    with pytest.raises(Rejected, match="not the zero polynomial"):
        check_document(_moments(steps, 10))
    steps += [["expect", 6], ["pow", 11, 2], ["const", "1"], ["sub", 0, 13], ["mul", 0, 14],
              ["mul", 15, 12], ["sub", 10, 16]]  # 17: … − n(n − 1) μ1²
    assert "proved for every n" in check_document(_moments(steps, 17))
