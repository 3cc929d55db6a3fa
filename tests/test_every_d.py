"""Claims with an (m, d) batch matrix proved for every m AND every d (issue 23, pattern 4):
the claim traced with d symbolic (symbolic_m/columns.py), fully contracted sums named by
their canonical form in the checker's tensor algebra (checker/every_d.py, proof method
"every-d"), the second reading at several (m, d) (symbolic_m/crosscheck.py).
The near misses are never proved, forged certificates are rejected, and a claim whose code
is not the same at every d (a branch on d, a particular column) is outside, keeping its
proofs at each d."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.claims.blocks import normalize, stats
from tests.tamper import domain_dropped, seal

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_d.py"
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(GALLERY)}
TRUE = ("same-activations", "kohler-variance", "mean-squared-distance", "centroid")
NEAR_MISSES = ("beta-zero", "kohler-unbiased", "distance-once", "centroid-no-m")
SIZES = {"m": (2, 4), "d": (1, 3)}
X, W = Var("X", ("m", "d")), Var("w", ("d",))


def _attempt(claim):
    from bnproof.symbolic_m.every_d import attempt

    return attempt(claim)


def _document(name):
    a = _attempt(CLAIMS[name])
    assert a.proved, a.reason
    return a.document


def _variance(xp, X, w, **_):
    return stats(xp, X @ w)[1] ** 2


# --- the gallery ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", TRUE)
def test_true_claims_are_proved_for_every_m_and_every_d(name):
    result = bnproof.prove(CLAIMS[name])
    assert result.status == "proved" and result.text == "proved for every m and every d", result.text
    assert result.covered == [{}]
    doc = _document(name)
    assert doc["proof"] == {"method": "every-d"} and doc["fixed"] == {}
    line = check_document(doc)
    assert "proved for every m and every d: residual = 0" in line


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_never_proved_and_fuzz_refutes_them(name, tmp_path):
    a = _attempt(CLAIMS[name])
    assert a.status == "not-proved" and a.document is None
    assert "normal form is not 0" in a.reason
    result = bnproof.prove(CLAIMS[name])
    assert not result.proved and not result.covered
    result = bnproof.fuzz(CLAIMS[name], out_dir=tmp_path, seed=0, max_examples=40, time_budget=60, jax=False)
    assert result.verdict == "refuted", result


def test_a_near_miss_outside_the_fixed_d_tracer_shows_its_every_d_normal_form():
    """All pairs of rows (X[:, None, :]) are traced only with d symbolic: the prover's answer
    is then the every-d normal form, its sums written out."""
    result = bnproof.prove(CLAIMS["distance-once"])
    assert result.status == "not-proved"
    assert result.text.startswith("not proved for every d: the residual's normal form is not 0: ")
    assert "Σ_{i,j,k} X[i,j]·X[k,j]" in result.text and result.normal_form


def test_observation_4_3_is_proved_for_every_d_with_the_checker_confirming(tmp_path):
    result = bnproof.prove("observation-4.3", out_dir=tmp_path)
    assert result.status == "proved" and result.text == "proved for every m and every d"
    (path,) = result.certificate_paths
    from bnproof.checker import check_file

    accepted, line = check_file(path)
    assert accepted and "santurkar2018/observation-4.3 proved for every m and every d" in line


def test_the_command_line_checker_accepts_the_certificates(tmp_path):
    import subprocess
    import sys

    result = bnproof.prove(CLAIMS["centroid"], out_dir=tmp_path)
    proc = subprocess.run([sys.executable, "-m", "bnproof.checker", *map(str, result.certificate_paths)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("ACCEPTED"), proc.stdout + proc.stderr
    assert "proved for every m and every d" in proc.stdout


def test_export_of_an_every_d_proof_needs_d(tmp_path):
    from bnproof.errors import ExitCode

    result = bnproof.prove(CLAIMS["centroid"], out_dir=tmp_path)
    from cli_runner import run_cli

    done = run_cli("export", "--smtlib", str(result.certificate_paths[0]), "--m", "3", cwd=tmp_path)
    assert done.returncode == ExitCode.BAD_INPUT, done.stdout + done.stderr
    assert "a proof for every m and every d" in done.stderr and "Traceback" not in done.stderr
    assert "--d" in done.stderr  # what to add: the export states the program at one (m, d)


def test_latex_of_an_every_d_proof():
    text = bnproof.latex(bnproof.prove(CLAIMS["kohler-variance"]))
    assert "for every batch size and every feature count" in text
    assert r"\sum_{i,j,p}" in text and "R = 0" in text


# --- forged certificates, sealed with a valid digest ------------------------------------------

def _rejected(doc, says):
    with pytest.raises(Rejected) as err:
        check_document(seal(doc))
    assert says in str(err.value), str(err.value)


def test_a_certificate_of_a_near_miss_program_is_rejected():
    doc = _document("centroid")
    check_document(doc)
    forged = copy.deepcopy(doc)
    near = _attempt(CLAIMS["centroid-no-m"]).program  # a valid program whose residual is not 0
    forged["program"] = near
    _rejected(forged, "the residual's normal form is not 0")


def test_a_certificate_whose_lengths_are_swapped_is_rejected():
    doc = _document("kohler-variance")
    check_document(doc)
    forged = copy.deepcopy(doc)
    k = next(i for i, s in enumerate(forged["program"]["steps"]) if s[0] == "expand")
    forged["program"]["steps"][k][2] = ["d" if a == "m" else "m" for a in forged["program"]["steps"][k][2]]
    _rejected(forged, "expand: not a broadcast")


def test_a_certificate_with_an_input_of_another_shape_is_rejected():
    doc = _document("mean-squared-distance")
    check_document(doc)
    forged = copy.deepcopy(doc)
    forged["program"]["inputs"][0][1] = "vector"  # X read as a batch vector: not the claim's (m, d)
    _rejected(forged, "program.inputs")


def test_a_certificate_at_a_fixed_d_is_rejected():
    doc = _document("centroid")
    forged = copy.deepcopy(doc)
    forged["fixed"] = {"d": 2}
    _rejected(forged, "fixed: unexpected key")


def test_a_vacuous_witness_is_rejected():
    doc = _document("same-activations")
    check_document(doc)
    forged = copy.deepcopy(doc)
    m, d = forged["witness"]["m"], forged["witness"]["d"]
    forged["witness"]["inputs"]["X"] = [["1"] * d for _ in range(m)]  # σ² of Xw = 0
    _rejected(forged, "division by zero")  # σ = 0 at the witness: BN is undefined there


def test_a_strict_inequality_is_not_proved_by_a_zero_residual():
    doc = _document("centroid")
    forged = copy.deepcopy(doc)
    forged["claim"]["kind"] = "strict-inequality"
    forged["program"]["kind"], forged["program"]["strict"] = "inequality", True
    _rejected(forged, "does not prove a strict inequality")


def _bn(xp, z):
    return normalize(xp, z)[0]


SCALE = Claim(id="me/scale-every-d", source="a test", statement=r"\mathrm{BN}(cXw) = \mathrm{BN}(Xw)",
              kind="identity", variables=(X, W, Var("c", (), "positive")), sizes=SIZES,
              hypotheses=(lambda xp, X, w, c: _variance(xp, X, w),),
              residual=lambda xp, X, w, c: xp.sum((_bn(xp, c * (X @ w)) - _bn(xp, X @ w)) ** 2))


def test_a_certificate_whose_positive_scalar_lost_its_domain_is_rejected():
    doc = _attempt(SCALE).document
    assert "proved for every m and every d" in check_document(doc)
    _rejected(domain_dropped(doc, "c"), "the residual's normal form is not 0")  # √(c²V) is no longer c√V


def test_check_claim_binds_the_certificate_to_the_claim_file():
    """`bnproof check --claim`: the program must be the one the claim's code gives (a valid
    proof of another program under the claim's name is not the claim's proof), and the
    witness's d within the claim's range."""
    from bnproof.cli.run_check import proof_difference

    doc = _document("centroid")
    assert proof_difference(CLAIMS["centroid"], doc, "the gallery") is None
    trivial = Claim(id="me/trivial", source="a test", statement="0 = 0", kind="identity",
                    variables=CLAIMS["centroid"].variables, sizes=SIZES,
                    residual=lambda xp, X, c: xp.sum((X - c) ** 2) - xp.sum((X - c) ** 2))
    other = copy.deepcopy(doc)
    other["program"] = _attempt(trivial).program
    assert "proved for every m and every d" in check_document(seal(other))  # a valid proof, of 0 = 0
    assert "a proof of another program" in proof_difference(CLAIMS["centroid"], seal(other), "the gallery")
    far = copy.deepcopy(doc)
    far["witness"]["d"] = 9
    assert "outside" in proof_difference(CLAIMS["centroid"], seal(far), "the gallery")


# --- gradients (xp.grad, columns_grad.py): ordinary steps the second reading confirms ------------

G = Var("g", ("m",))


def _loss(xp, X, g):
    return lambda v: xp.sum(g * _bn(xp, X @ v))


GRAD_ORTHOGONAL = Claim(
    id="me/grad-orthogonal", source="Arora, Li & Lyu 2019", statement=r"\langle \nabla_w L(w), w\rangle = 0",
    kind="identity", variables=(X, W, G), sizes=SIZES, hypotheses=(lambda xp, X, w, g: _variance(xp, X, w),),
    residual=lambda xp, X, w, g: xp.grad(_loss(xp, X, g), w) @ w)
GRAD_ORTHOGONAL_SIGN = Claim(
    id="me/grad-orthogonal-sign", source="a test", statement=r"\langle \nabla_w L(w), w\rangle = \|w\|^2",
    kind="identity", variables=(X, W, G), sizes=SIZES, hypotheses=(lambda xp, X, w, g: _variance(xp, X, w),),
    residual=lambda xp, X, w, g: xp.grad(_loss(xp, X, g), w) @ w - w @ w)
CHAIN_RULE = Claim(
    id="me/chain-rule", source="a test", statement=r"\nabla_w \tfrac12\|Xw - t\|^2 = X^\top (Xw - t)",
    kind="identity", variables=(X, W, Var("t", ("m",))), sizes=SIZES,
    residual=lambda xp, X, w, t: xp.sum((xp.grad(lambda v: xp.sum((X @ v - t) ** 2) / 2, w)
                                         - X.T @ (X @ w - t)) ** 2))


@pytest.mark.parametrize("claim", [GRAD_ORTHOGONAL, CHAIN_RULE], ids=lambda c: c.id)
def test_gradients_in_a_feature_vector_are_proved_for_every_d(claim):
    a = _attempt(claim)
    assert a.proved, a.reason
    assert not any(s[0] == "grad" for s in a.program["steps"])  # written out as ordinary steps
    assert "proved for every m and every d" in check_document(a.document)


def test_a_gradient_near_miss_is_never_proved():
    a = _attempt(GRAD_ORTHOGONAL_SIGN)
    assert a.status == "not-proved" and a.document is None


def test_a_wrong_derivative_is_caught_by_the_second_reading(monkeypatch):
    """A defect of the derivative rules that read ∇_w ½‖Xw − t‖² as 0 would state another
    hypothesis than the claim's (here, one that never holds): the checker proves the program
    it is given, the second reading compares its values with the claim's own code."""
    from bnproof.errors import Disagreement
    from bnproof.symbolic_m import columns_grad

    claim = Claim(id="me/gradient-hypothesis", source="a test", statement=r"\sum Xw = (\mathbf 1^\top X) w",
                  kind="identity", variables=(X, W, Var("t", ("m",))), sizes=SIZES,
                  hypotheses=(lambda xp, X, w, t: xp.sum(xp.grad(lambda v: xp.sum((X @ v - t) ** 2) / 2, w) ** 2),),
                  residual=lambda xp, X, w, t: xp.sum(X @ w) - xp.sum(X, axis=0) @ w)
    assert _attempt(claim).proved

    def vanishing(rec, out, var):
        zero = rec.emit(["const", "0"])
        return rec.emit(["expand", zero, list(rec.axes[var]), []])

    monkeypatch.setattr(columns_grad, "gradient", vanishing)
    with pytest.raises(Disagreement):
        _attempt(claim)


# --- the identity (xp.eye): δ[a, b] summed out ---------------------------------------------

PROJECTION = Claim(
    id="me/projection", source="a test", statement=r"(I - ww^\top/\|w\|^2)\,w = 0",
    kind="identity", variables=(X, W), sizes=SIZES,
    residual=lambda xp, X, w: xp.sum(((xp.eye(X.shape[1]) - xp.outer(w, w) / (w @ w)) @ w) ** 2))
PROJECTION_UNNORMALIZED = Claim(
    id="me/projection-unnormalized", source="a test", statement=r"(I - ww^\top)\,w = 0",
    kind="identity", variables=(X, W), sizes=SIZES,
    residual=lambda xp, X, w: xp.sum(((xp.eye(X.shape[1]) - xp.outer(w, w)) @ w) ** 2))
TRACE = Claim(id="me/trace", source="a test", statement=r"\operatorname{tr} I_d = d", kind="identity",
              variables=(X,), sizes=SIZES, residual=lambda xp, X: xp.sum(xp.eye(X.shape[1])) - X.shape[1])


@pytest.mark.parametrize("claim", [PROJECTION, TRACE], ids=lambda c: c.id)
def test_claims_with_the_identity_are_proved_for_every_d(claim):
    a = _attempt(claim)
    assert a.proved, a.reason
    assert "proved for every m and every d" in check_document(a.document)


def test_a_projection_near_miss_is_never_proved():
    a = _attempt(PROJECTION_UNNORMALIZED)
    assert a.status == "not-proved" and a.document is None


def test_a_certificate_whose_identity_is_of_the_other_length_is_rejected():
    doc = _attempt(TRACE).document
    forged = copy.deepcopy(doc)
    k = next(i for i, s in enumerate(forged["program"]["steps"]) if s[0] == "eye")
    forged["program"]["steps"][k][1] = "m"  # tr I_m = m, not d
    _rejected(forged, "the residual's normal form is not 0")
    forged["program"]["steps"][k][1] = "k"
    _rejected(forged, "eye of a length that is not m or d")


# --- not the same program at every d: outside, the proofs at each d kept ---------------------

def _branching(xp, X, w):
    z = X @ w
    if X.shape[1] >= 2:  # numpy runs one branch at d = 1, the other at d >= 2
        return xp.sum(z - xp.mean(z))
    return xp.sum(z - xp.mean(z)) * 2


def _caught(xp, X, w):
    z = X @ w
    try:
        if X.shape[1] >= 2:
            return xp.sum(z)  # false: the claim is true only through the fallback
    except Exception:
        pass
    return xp.sum(z - xp.mean(z))


BRANCHING = Claim(id="me/branch-on-d", source="a test", statement=r"\sum (Xw - \overline{Xw}) = 0",
                  kind="identity", variables=(X, W), sizes=SIZES, residual=_branching)
CAUGHT = Claim(id="me/caught-branch", source="a test", statement=r"\sum (Xw - \overline{Xw}) = 0",
               kind="identity", variables=(X, W), sizes=SIZES, residual=_caught)
COLUMN = Claim(id="me/first-column", source="a test", statement=r"\sum_i (x_{i1} - \bar x_1) = 0",
               kind="identity", variables=(X,), sizes=SIZES,
               residual=lambda xp, X: xp.sum(X[:, 0] - xp.mean(X[:, 0])))
RANGE = Claim(id="me/range-of-d", source="a test", statement=r"\sum_i (x_{i1} - \bar x_1) = 0",
              kind="identity", variables=(X,), sizes=SIZES,
              residual=lambda xp, X: sum(xp.sum(X) for _ in range(X.shape[1])) * 0)


def test_a_claim_that_branches_on_d_is_outside_and_keeps_its_proofs_at_each_d():
    a = _attempt(BRANCHING)
    assert a.status == "outside-fragment" and "comparison of m, d" in a.reason
    result = bnproof.prove(BRANCHING)
    assert result.text == "proved for every m at d = 1, 2, 3" and result.covered == [{"d": 1}, {"d": 2}, {"d": 3}]


def test_a_caught_refusal_is_still_outside():
    a = _attempt(CAUGHT)
    assert a.status == "outside-fragment" and "comparison of m, d" in a.reason
    assert not bnproof.prove(CAUGHT).proved  # at d >= 2 the per-d trace takes the false branch


def test_a_claim_that_reads_a_particular_column_is_outside():
    a = _attempt(COLUMN)
    assert a.status == "outside-fragment" and "a particular column" in a.reason
    assert "every d" not in bnproof.prove(COLUMN).text


def test_d_used_as_a_python_integer_is_outside():
    a = _attempt(RANGE)
    assert a.status == "outside-fragment" and "Python integer" in a.reason


def test_a_sum_over_too_many_indices_is_outside_never_guessed():
    """Σ_i (Xw)_i⁸ is one sum over 8 feature indices: 8! renamings exceed the checker's cap."""
    claim = Claim(id="me/eighth-power", source="a test", statement=r"\sum_i (Xw)_i^8 = \sum_i (Xw)_i^8",
                  kind="identity", variables=(X, W), sizes={"m": (2, 3), "d": (1, 2)},
                  residual=lambda xp, X, w: xp.sum((X @ w) ** 8) - xp.sum((X @ w) ** 4 * (X @ w) ** 4))
    a = _attempt(claim)
    assert a.status == "outside-fragment" and "renames" in a.reason and a.document is None
    assert "every d" not in bnproof.prove(claim).text


# --- the second reading -----------------------------------------------------------------------

def test_a_wrong_program_is_caught_by_the_second_reading(monkeypatch):
    """A tracer bug that reads Σ(Xw) as 0 would prove a false claim: the checker accepts the
    program it is given, so only the claim's own code read at several (m, d) can object."""
    from bnproof.errors import Disagreement
    from bnproof.symbolic_m import columns

    claim = Claim(id="me/sum-xw", source="a test", statement=r"\sum Xw = 0", kind="identity",
                  variables=(X, W), sizes=SIZES, residual=lambda xp, X, w: xp.sum(X @ w))
    real = columns.program_for

    def misread(claim, batch, feature):
        program = real(claim, batch, feature)
        program["steps"].append(["sub", program["residual"], program["residual"]])
        program["residual"] = len(program["steps"]) - 1
        return program

    monkeypatch.setattr(columns, "program_for", misread)
    with pytest.raises(Disagreement):
        _attempt(claim)


def test_the_second_reading_compares_at_several_d():
    from bnproof.symbolic_m.crosscheck import SIZES_EVERY_D, second_reading_every_d

    assert {d for _, d in SIZES_EVERY_D} == {1, 2, 3, 4}
    claim = CLAIMS["kohler-variance"]
    confirmation = second_reading_every_d(claim, _attempt(claim).program, "m", "d")
    assert confirmation.status == "agrees" and confirmation.compared >= len(SIZES_EVERY_D)
