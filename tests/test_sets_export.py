"""Implicit sets beyond the checker (issue 12.3, completed): the guard step and equality
hypotheses in the SMT-LIB export (z3 and cvc5 decide what the checker decides), the
binding of equalities in the claim object (a certificate cannot drop them, not even
under `check --claim`), and the LaTeX rendering of guards and equalities."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from bnproof.certificate.program import build, claim_object
from bnproof.certificate.smtlib import document_smt
from bnproof.certificate.solvers import available, solve
from bnproof.checker import Rejected, check_document, check_file
from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.claims.decide import REFUTED, decide, sizes_of, trace
from bnproof.claims.sets import hyperplane_distance
from bnproof.cli import main as cli
from tamper import seal

SQUARE = [[([1, 0], 1), ([-1, 0], 0), ([0, 1], 1), ([0, -1], 0)]]  # [0, 1]²

CLAIM_FILE = '''
from bnproof.claims import Claim, Var
from bnproof.claims.sets import hyperplane_distance, squared_distance

SQUARE = [[([1, 0], 1), ([-1, 0], 0), ([0, 1], 1), ([0, -1], 0)]]

# false: on the line x1 + x2 = 1 the square [0, 1]^2 is within 1/2 (its squared distance <= 1/4)
CLAIM = Claim(
    id="t/line-near-square", source="t", statement=r"x_1 + x_2 = 1 \\implies d(x, [0,1]^2)^2 \\le 1/4",
    variables=(Var("x", (2,)),),
    equalities=(lambda xp, x: x[0] + x[1] - 1,),
    residual=lambda xp, x: xp.q(1, 4) - squared_distance(xp, x, SQUARE),
)
'''


@pytest.fixture(scope="module")
def claim_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("claims") / "line_near_square.py"
    path.write_text(CLAIM_FILE, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def claim(claim_file):
    return load_file(claim_file)[0]


@pytest.fixture(scope="module")
def certificate(claim):
    """x = (2, -1): on the line, its nearest point of the square is (1, 0), at squared distance 2."""
    instance = {"x": [Fraction(2), Fraction(-1)]}
    assert decide(claim, instance).verdict == REFUTED
    return build(claim, instance, trace(claim, sizes_of(claim, instance)))


def resealed(doc: dict, change) -> dict:
    doc = copy.deepcopy(doc)
    change(doc)
    return seal(doc)


def guards(doc: dict) -> int:
    return sum(step[0] == "guard" for step in doc["program"]["steps"])


# --- the honest certificate --------------------------------------------------------

def test_the_certificate_has_guards_and_a_bound_equality(certificate):
    assert guards(certificate) > 4  # the candidates of the square's distance
    assert certificate["claim"]["equalities"] == 1 and len(certificate["program"]["equalities"]) == 1
    assert [o["sign"] for o in certificate["obligations"]] == ["zero", "negative"]
    assert "refuted" in check_document(certificate)


def test_claims_without_equalities_are_bound_as_before():
    plain = Claim(id="t/plain", source="t", statement="t", variables=(Var("x", ()),),
                  residual=lambda xp, x: x)
    assert "equalities" not in claim_object(plain) and claim_object(plain, 0) == claim_object(plain)
    doc = build(plain, {"x": Fraction(-1)}, trace(plain, {}))
    assert "equalities" not in doc["claim"] and "equalities" not in doc["program"]


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_the_smt_judges_confirm_an_honest_certificate_with_guards_and_an_equality(certificate, solver):
    if not available(solver):
        pytest.skip(f"{solver} is not installed")
    text = document_smt(certificate)
    assert "(define-fun a" in text and "Bool" in text  # the guards' absent flags
    assert "equality 0: step" in text and "zero" in text
    assert solve(text, solver) == "unsat"


def test_a_program_without_guards_has_no_absent_flags():
    plain = Claim(id="t/plain", source="t", statement="t", variables=(Var("x", ()),),
                  equalities=(lambda xp, x: x * x - 4,), residual=lambda xp, x: x)
    doc = build(plain, {"x": Fraction(-2)}, trace(plain, {}))
    text = document_smt(doc)
    assert " Bool (" not in text.split("(define-fun fact0")[0]  # only the facts are Bool
    assert "(= v" in text and solve(text, "z3") == "unsat"  # x² − 4 = 0 at x = −2, exactly


# --- forgeries: the checker rejects them, and the SMT judges find a false fact --------

def _equality_off(doc):  # x = (2, −1 + 10⁻³⁰): the equality is −10⁻³⁰ ≠ 0, the residual still < 0
    doc["instance"]["x"][1] = str(Fraction(-1) + Fraction(1, 10**30))


def _residual_absent(doc):  # the residual becomes guard(residual, −1): no value at all
    steps = doc["program"]["steps"]
    steps.append(["const", "-1"])
    steps.append(["guard", doc["program"]["residual"], len(steps) - 1])
    doc["program"]["residual"] = doc["obligations"][-1]["value"] = len(steps) - 1


def _arithmetic_on_absent(doc):  # absent + residual: +∞ is no number to add
    _residual_absent(doc)
    steps = doc["program"]["steps"]
    steps.append(["add", len(steps) - 1, len(steps) - 3])
    doc["program"]["residual"] = doc["obligations"][-1]["value"] = len(steps) - 1


def _absent_condition(doc):  # a guard whose condition is itself absent
    _residual_absent(doc)
    steps = doc["program"]["steps"]
    steps.append(["guard", len(steps) - 3, len(steps) - 1])
    doc["program"]["residual"] = doc["obligations"][-1]["value"] = len(steps) - 1


def _every_candidate_dropped(doc):  # min over two candidates of which none qualifies
    _residual_absent(doc)
    steps = doc["program"]["steps"]
    steps.append(["guard", len(steps) - 3, len(steps) - 2])
    steps.append(["min", len(steps) - 2, len(steps) - 1])
    doc["program"]["residual"] = doc["obligations"][-1]["value"] = len(steps) - 1


def _one_candidate_left(doc):  # the same min with one candidate qualifying: a value, but not < 0
    _every_candidate_dropped(doc)
    steps = doc["program"]["steps"]
    steps.append(["const", "1"])
    steps.append(["guard", len(steps) - 1, len(steps) - 1])
    steps.append(["min", len(steps) - 3, len(steps) - 1])
    doc["program"]["residual"] = doc["obligations"][-1]["value"] = len(steps) - 1


FORGERIES = {"equality-off-by-1e-30": (_equality_off, "equality"),
             "residual-absent": (_residual_absent, "absent"),
             "arithmetic-on-absent": (_arithmetic_on_absent, "absent"),
             "absent-condition": (_absent_condition, "absent"),
             "every-candidate-dropped": (_every_candidate_dropped, "absent"),
             "one-candidate-left": (_one_candidate_left, "residual: the value of step [0-9]+ is not negative")}


@pytest.mark.parametrize("name", FORGERIES)
def test_a_forged_certificate_is_rejected_and_its_smt_query_is_sat(certificate, name):
    change, why = FORGERIES[name]
    doc = resealed(certificate, change)
    with pytest.raises(Rejected, match=why):
        check_document(doc)
    assert solve(document_smt(doc), "z3") == "sat"


def test_an_unused_absent_guard_is_no_false_fact(certificate):
    # a guard left absent that no obligation and no step reads: the checker accepts, and so does z3
    def change(doc):
        steps = doc["program"]["steps"]
        steps.append(["const", "-1"])
        steps.append(["guard", 0, len(steps) - 1])

    doc = resealed(certificate, change)
    assert "refuted" in check_document(doc)
    assert solve(document_smt(doc), "z3") == "unsat"


# --- the binding of equalities -----------------------------------------------------

def _drop_program_equalities(doc):
    del doc["program"]["equalities"]
    doc["obligations"] = [o for o in doc["obligations"] if o["sign"] != "zero"]


def _drop_claim_count(doc):
    del doc["claim"]["equalities"]


BINDINGS = {
    "program-equalities-dropped": (_drop_program_equalities, "program.equalities is missing"),
    "claim-count-dropped": (_drop_claim_count, "claim states no equality hypotheses"),
    "claim-count-too-high": (lambda d: d["claim"].update(equalities=2), "expected 2 entries"),
    "claim-count-zero": (lambda d: d["claim"].update(equalities=0), "claim.equalities"),
    "claim-count-bool": (lambda d: d["claim"].update(equalities=True), "claim.equalities"),
    "claim-count-text": (lambda d: d["claim"].update(equalities="1"), "claim.equalities"),
    "obligation-dropped": (lambda d: d["obligations"].pop(0), "obligations"),
    "obligation-made-positive": (lambda d: d["obligations"][0].update(sign="positive"),
                                 "obligations\\[0\\]: expected fact equality"),
    "equality-made-a-hypothesis": (lambda d: (d["program"]["hypotheses"].extend(d["program"].pop(
        "equalities")), d["claim"].pop("equalities")), "obligations"),
}


@pytest.mark.parametrize("name", BINDINGS)
def test_a_certificate_cannot_unbind_its_equalities(certificate, name):
    change, why = BINDINGS[name]
    with pytest.raises(Rejected, match=why):
        check_document(resealed(certificate, change))


def test_a_paper_claim_cannot_take_an_equality_count():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "certificates"
    doc = json.loads((root / "dannemann2025" / "remark-2.7.json").read_text(encoding="utf-8"))
    assert "refuted" in check_document(doc)
    with pytest.raises(Rejected):
        check_document(resealed(doc, lambda d: d["claim"].update(equalities=1)))


def run_check(capsys, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        cli(["check", *map(str, args)])
    return exit_info.value.code, capsys.readouterr().out


def test_check_claim_accepts_the_honest_certificate(certificate, claim_file, tmp_path, capsys):
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(certificate), encoding="utf-8")
    code, out = run_check(capsys, path, "--claim", claim_file)
    assert code == 0 and out.startswith(f"ACCEPTED {path}: t/line-near-square refuted"), out
    ok, shown = check_file(path, show_program=True)
    assert ok and "  equality: " in shown and shown.rstrip().endswith(tuple("0123456789)"))


def test_a_refutation_that_drops_its_equality_everywhere_is_rejected_under_check_claim(
        certificate, claim_file, tmp_path, capsys):
    # the point (2, 0) is off the line, and refutes the claim only without its equality
    def change(doc):
        _drop_program_equalities(doc)
        _drop_claim_count(doc)
        doc["instance"]["x"] = ["2", "0"]

    doc = resealed(certificate, change)
    assert "refuted" in check_document(doc)  # consistent alone: the checker trusts the program
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = run_check(capsys, path, "--claim", claim_file)
    assert code == 6 and "equalities differ" in out, out
    # the count alone put back (program.equalities still dropped): the checker rejects it
    doc = resealed(doc, lambda d: d["claim"].update(equalities=1))
    with pytest.raises(Rejected, match="program.equalities is missing"):
        check_document(doc)


# --- LaTeX -------------------------------------------------------------------------

def test_latex_renders_the_equality_and_the_guards_and_compiles(certificate, tmp_path):
    import shutil
    import subprocess
    import sys

    path = tmp_path / "cert.json"
    path.write_text(json.dumps(certificate), encoding="utf-8")
    out = tmp_path / "cert.tex"
    proc = subprocess.run([sys.executable, "-m", "bnproof", "latex", str(path), "-o", str(out)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    tex = out.read_text(encoding="utf-8")
    assert "e_{1} &= 0" in tex  # the equality, evaluated exactly: 2 + (−1) − 1
    count = guards(certificate)  # per candidate set S: its value's guard and that of det G > 0
    assert f"built from {count} guarded values" in tex and r"\text{absent} & \text{if } g < 0" in tex
    assert r"\text{residual} = - \frac{7}{4} < 0" in tex  # 1/4 − ((2−1)² + (−1−0)²)
    if not (shutil.which("pdflatex") and shutil.which("pdftotext")):
        pytest.skip("pdflatex is not installed")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                           out.name], cwd=tmp_path, capture_output=True, text=True, errors="replace")
    log = out.with_suffix(".log").read_text(errors="replace")
    assert proc.returncode == 0 and "Overfull \\hbox" not in log, log[-2000:]
    text = subprocess.run(["pdftotext", "-raw", out.with_suffix(".pdf").name, "-"], cwd=tmp_path,
                          capture_output=True, text=True, check=True).stdout
    assert "absent if g < 0" in text and "guarded values" in text


def test_a_guard_reads_as_a_condition_in_show_program(certificate, tmp_path):
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(certificate), encoding="utf-8")
    ok, shown = check_file(path, show_program=True)
    assert ok and " if " in shown and ">= 0)" in shown and "guard(" not in shown


# --- the JAX search on equality sets ----------------------------------------------------

# false: on the line 3 x1 + x2 = 1/2 (which no integer point meets, so a random draw never
# does) the point is within 1 of 0; the line runs on to infinity
OFF_INTEGERS = Claim(id="t/line-within-1", source="t", statement="t", variables=(Var("x", (2,)),),
                     equalities=(lambda xp, x: 3 * x[0] + x[1] - xp.q(1, 2),),
                     residual=lambda xp, x: 1 - x[0] ** 2 - x[1] ** 2)

# true, exactly 0 on the set: the distance from a point of a line to that line
ON_LINE = Claim(id="t/on-line", source="t", statement="t", kind="identity",
                variables=(Var("w", (2,)), Var("c", ()), Var("x", (2,))),
                hypotheses=(lambda xp, w, c, x: w[0] ** 2 + w[1] ** 2,),
                equalities=(lambda xp, w, c, x: w[0] * x[0] + w[1] * x[1] - c,),
                residual=lambda xp, w, c, x: hyperplane_distance(xp, w, c, x))


def jax_only(claim, monkeypatch, **kw):
    """The search with the Hypothesis phase finding nothing: what JAX alone does."""
    from bnproof.search import fuzz, hypothesis_search

    monkeypatch.setattr(hypothesis_search, "search", lambda *a, **k: (None, 0, None))
    return fuzz.fuzz(claim, seed=0, max_examples=1, time_budget=60, use_jax=True, **kw)


def test_the_jax_search_refutes_a_claim_with_an_equality(monkeypatch):
    outcome = jax_only(OFF_INTEGERS, monkeypatch)
    assert outcome.verdict == "refuted" and outcome.phases["hypothesis"] == 0 and outcome.phases["jax"]
    x = outcome.refutation.instance["x"]
    assert 3 * x[0] + x[1] == Fraction(1, 2) and x[0] ** 2 + x[1] ** 2 > 1  # independently
    doc = json.loads(outcome.refutation.document)
    assert doc["claim"]["equalities"] == 1 and "refuted" in check_document(doc)


def test_without_the_projection_the_jax_search_finds_nothing(monkeypatch):
    from bnproof.search import batched, exactify

    monkeypatch.setattr(batched.BatchedResidual, "project", lambda self, batch: batch)
    monkeypatch.setattr(exactify, "on_constraints", lambda claim, instance, **kw: instance)
    outcome = jax_only(OFF_INTEGERS, monkeypatch)
    assert outcome.refutation is None and outcome.verdict != "refuted"


def test_the_jax_search_never_refutes_an_exact_zero_on_the_set(monkeypatch):
    outcome = jax_only(ON_LINE, monkeypatch)
    assert outcome.refutation is None and outcome.verdict == "survived", outcome.reason
    assert outcome.coverage.total().defined > 100  # the projected batch lies on the set


def test_the_projection_puts_a_batch_on_the_set_and_keeps_domains():
    import numpy as np

    from bnproof.search.batched import BatchedResidual

    claim = Claim(id="t/p", source="t", statement="t",
                  variables=(Var("h", (), "positive"), Var("S", (2, 2), "symmetric"), Var("x", (2,))),
                  equalities=(lambda xp, h, S, x: h * x[0] - S[0][1], lambda xp, h, S, x: x[1] ** 3 - 2),
                  residual=lambda xp, h, S, x: h)
    kernel = BatchedResidual(claim, {})
    rng = np.random.default_rng(0)
    S = rng.normal(size=(64, 2, 2))
    batch = {"h": rng.uniform(0.5, 2, 64), "S": S + S.transpose(0, 2, 1), "x": rng.normal(size=(64, 2))}
    assert not kernel.screen(batch).met.any()
    moved = kernel.project(batch)
    assert np.array_equal(moved["S"], batch["S"])  # symmetric: never moved
    assert (moved["h"] > 0).all()
    met = kernel.screen(moved).met
    # the affine equality by one step; x₁³ = 2 by Newton, which stalls from x₁ near 0 or below
    assert met.mean() > 0.3 and met.sum() >= (batch["x"][:, 1] > 0.5).sum()
    assert np.allclose(moved["x"][met, 1], 2 ** (1 / 3), rtol=1e-12)
    assert np.allclose(moved["h"][met] * moved["x"][met, 0], moved["S"][met, 0, 1], rtol=1e-12)


def test_the_schema_describes_guards_and_equalities(certificate):
    from pathlib import Path

    from jsonschema import Draft202012Validator

    schema = json.loads((Path(__file__).resolve().parents[1] / "docs" / "certificate.schema.json")
                        .read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    assert list(validator.iter_errors(certificate)) == []
    assert list(validator.iter_errors(resealed(certificate, lambda d: d["claim"].update(equalities=0))))
