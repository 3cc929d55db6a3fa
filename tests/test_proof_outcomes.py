"""Proof outcomes a script can read (issue 24, part 2; issue 23, what `prove` says about a
claim it does not prove): every fuzz result carries its proof for every m as one object,
in the text, the JSON, the API and `list`; a failed attempt says what blocked it, its
normal form and, where the prover can tell, what would prove it; `bnproof.latex` writes
what a ProveResult, or a FuzzResult, proved."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import bnproof
from bnproof.errors import BadInput, ExitCode
from bnproof.symbolic_m import survivor
from cli_runner import run_cli

KEYS = ["status", "text", "fixed", "covered", "certificates", "blocked_by", "normal_form", "normal_form_text",
        "hint"]
BUDGET = 600  # seconds: the search ends at its example count and the proofs take under a second or so,
# so no verdict below depends on the machine's speed

CLAIMS = '''
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import stats


def projection(xp, y, g):
    mu, sigma = stats(xp, y)
    yhat = (y - mu) / sigma
    return g - xp.mean(g) - xp.mean(g * yhat) * yhat


def scaled(xp, y, g, c):
    p = projection(xp, y, g)
    return c * xp.sum(p * p)


SIGNLESS = Claim(id="me/signless", source="s", statement="x", kind="inequality",
                 variables=(Var("y", ("m",)), Var("g", ("m",)), Var("c", ())), sizes={"m": (2, 4)},
                 hypotheses=(lambda xp, y, g, c: stats(xp, y)[1] ** 2,), residual=scaled)
POSITIVE = Claim(id="me/positive", source="s", statement="x", kind="inequality",
                 variables=(Var("y", ("m",)), Var("g", ("m",)), Var("c", (), "positive")), sizes={"m": (2, 4)},
                 hypotheses=(lambda xp, y, g, c: stats(xp, y)[1] ** 2,), residual=scaled)
# at m = 2 the projection p is 0 (1 and ŷ span the batch), so the search at m = 2 finds
# nothing; at m = 3 it is false for c < 0, so no sound prover proves it for every m
SIGNLESS_AT_2 = Claim(id="me/signless-at-2", source="s", statement="x", kind="inequality",
                      variables=(Var("y", ("m",)), Var("g", ("m",)), Var("c", ())), sizes={"m": (2, 2)},
                      hypotheses=(lambda xp, y, g, c: stats(xp, y)[1] ** 2,), residual=scaled)
STILL_FALSE = Claim(id="me/still-false", source="s", statement="x", kind="inequality",
                    variables=(Var("y", ("m",)), Var("c", ())), sizes={"m": (2, 4)},
                    residual=lambda xp, y, c: c * xp.sum((y - xp.mean(y)) ** 2) - 1)
SPREAD = Claim(id="me/spread", source="s", statement="x", kind="inequality", strict=True,
               variables=(Var("y", ("m",)),), sizes={"m": (2, 4)},
               residual=lambda xp, y: xp.sqrt(xp.mean((y - xp.mean(y)) ** 2)))
SPREAD_ASSUMED = Claim(id="me/spread-assumed", source="s", statement="x", kind="inequality", strict=True,
                       variables=(Var("y", ("m",)),), sizes={"m": (2, 4)},
                       hypotheses=(lambda xp, y: xp.mean((y - xp.mean(y)) ** 2),),
                       residual=lambda xp, y: xp.sqrt(xp.mean((y - xp.mean(y)) ** 2)))
RELU = Claim(id="me/relu", source="s", statement="x", kind="inequality",
             variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=lambda xp, y: xp.sum(xp.relu(y)))
FIXED = Claim(id="me/fixed", source="s", statement="x", kind="inequality",
              variables=(Var("x", ()),), residual=lambda xp, x: x * x)
'''


@pytest.fixture(scope="module")
def claims(tmp_path_factory):
    path = tmp_path_factory.mktemp("claims") / "mine.py"
    path.write_text(CLAIMS, encoding="utf-8")
    return path, {c.id.split("/")[1]: c for c in bnproof.load(path)}


def _fuzz(claim, **options):
    return bnproof.fuzz(claim, jax=False, max_examples=20, time_budget=BUDGET, **options)


# ---------------------------------------------------------------- the object, in the API and --json

def test_a_proved_survivor_carries_its_proof_through_json(tmp_path):
    result = _fuzz("remark-2.7/corrected", out_dir=tmp_path)
    proof = result.proof
    assert isinstance(proof, bnproof.ProveResult) and proof.status == "proved" and proof.covered == [{}]
    assert [Path(p).name for p in proof.certificate_paths] == ["corrected.proof.json"]
    assert json.loads(proof.certificate)["kind"] == "proof"
    obj = result.to_json()["proof"]
    assert list(obj) == KEYS and obj == proof.proof_json()
    assert json.loads(json.dumps(obj)) == obj  # plain JSON, round trip
    assert obj["normal_form"] == obj["normal_form_text"] == "0" and obj["blocked_by"] is None
    # the same object as `bnproof prove --json` gives, less "claim"
    proved = bnproof.prove("remark-2.7/corrected").to_json()
    assert proved.pop("claim") == "dannemann2025/remark-2.7/corrected"
    assert {k: v for k, v in proved.items() if k != "certificates"} == \
           {k: v for k, v in obj.items() if k != "certificates"}


def test_a_survivor_not_proved_says_what_blocked_it_in_text_and_json(claims):
    _, c = claims
    result = _fuzz(c["relu"])
    assert result.verdict == "survived"
    obj = result.to_json()["proof"]
    assert obj["status"] == "outside-fragment" and obj["blocked_by"] == "relu" and obj["fixed"] == [{}]
    assert obj["certificates"] == [] and obj["normal_form"] is None
    text = result.text(timings=False).splitlines()
    assert text[-1] == "proof for every m: not in the provable fragment: uses relu"  # no longer silent


def test_a_failed_attempt_shows_its_construct_normal_form_and_hint_in_the_fuzz_report(claims):
    _, c = claims
    result = _fuzz(c["signless-at-2"])
    assert result.verdict == "survived"
    proof = result.proof
    assert proof.status == "not-proved" and proof.covered == [] and proof.certificate is None
    assert proof.blocked_by.endswith(": c of odd degree, with no declared sign")
    assert "r₁ = √(" in proof.normal_form and r"\sqrt{" in proof.normal_form_latex
    assert proof.hint.startswith('declare c positive: Var("c", (), "positive")')
    lines = result.text(timings=False).splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("proof for every m: not proved: normal form"))
    assert lines[at + 1:] == [f"  blocked by: {proof.blocked_by}", f"  hint: {proof.hint}"]


def test_why_no_proof_was_attempted(claims):
    _, c = claims
    refuted = _fuzz(c["signless"])
    assert refuted.verdict == "refuted"
    assert refuted.to_json()["proof"] == survivor.not_attempted("the search's verdict is refuted")
    assert refuted.proof.status == "not-attempted" and not any("proof for every m" in line for line in
                                                               refuted.text(timings=False).splitlines())
    no_m = _fuzz(c["fixed"])
    assert no_m.proof.text == "not attempted: the claim has no batch size m (a proof for every m needs one)"
    assert no_m.text(timings=False).splitlines()[-1] == f"proof for every m: {no_m.proof.text}"
    unasked = bnproof.fuzz(c["relu"], jax=False, max_examples=5, prove=False)
    assert unasked.to_json()["proof"]["status"] == "not-attempted"
    assert "proof for every m" not in unasked.text(timings=False)


def test_fuzz_json_on_the_command_line(claims, tmp_path):
    """Through the worker process: the hint found there reaches the report."""
    path, _ = claims
    proc = run_cli("fuzz", path, "--json", "--no-jax", "--max-examples", "20", "--time-budget", str(BUDGET),
                   "--out-dir", tmp_path / "out", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    objects = {o["claim"]: o for o in json.loads(proc.stdout)}
    assert all(list(o["proof"]) == KEYS for o in objects.values())
    assert objects["me/positive"]["proof"]["status"] == "proved"
    assert objects["me/positive"]["proof"]["certificates"] == [str(tmp_path / "out" / "me" / "positive.proof.json")]
    assert objects["me/relu"]["proof"]["blocked_by"] == "relu"
    assert objects["me/signless-at-2"]["proof"]["hint"].startswith("declare c positive")
    assert objects["me/signless"]["proof"]["status"] == "not-attempted"
    assert objects["me/fixed"]["proof"]["text"].startswith("not attempted: the claim has no batch size m")


# ---------------------------------------------------------------- `bnproof prove`: construct, form, hint

def test_prove_names_the_missing_positive_domain(claims, tmp_path):
    path, c = claims
    result = bnproof.prove(c["signless"])
    assert result.status == "not-proved"
    assert result.blocked_by.endswith(": c of odd degree, with no declared sign")
    assert result.hint == ('declare c positive: Var("c", (), "positive") '
                           "(with it, the proof for every m goes through)")  # m is its only size
    assert bnproof.prove(c["positive"]).proved  # the hint is earned: the claim so declared is proved
    assert result.to_json()["hint"] == result.hint

    proc = run_cli("prove", path, "--out-dir", tmp_path / "out", "--time-budget", str(BUDGET), cwd=tmp_path)
    assert proc.returncode == ExitCode.UNDECIDED
    lines = proc.stdout.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("me/signless: not proved: normal form (")))
    assert "c" in lines[at] and "√(" in lines[at] and "**" not in lines[at]  # Unicode, as a person writes it
    assert lines[at + 1:at + 3] == [f"  blocked by: {result.blocked_by}", f"  hint: {result.hint}"]
    assert "me/relu: not in the provable fragment: uses relu" in lines  # one line: it names its construct


def test_prove_names_the_missing_hypothesis(claims, tmp_path):
    """σ > 0 is false at a constant batch, so no sound prover proves it as it is; with the
    hypothesis σ² > 0 it holds.  Through `bnproof prove`'s worker process: the hint found
    there, after the failed attempt was reported, reaches the report."""
    path, c = claims
    assert bnproof.prove(c["spread-assumed"]).proved
    proc = run_cli("prove", path, "--json", "--out-dir", tmp_path / "out", "--time-budget", str(BUDGET),
                   cwd=tmp_path)
    objects = {o["claim"]: o for o in json.loads(proc.stdout)}
    spread = objects["me/spread"]
    assert spread["status"] == "not-proved" and spread["covered"] == [] and spread["certificates"] == []
    assert spread["normal_form_text"].startswith("r₁, where r₁ = √(")
    assert spread["hint"] == ("add the hypothesis that y is not constant (its batch variance is > 0), e.g. "
                              "lambda xp, y: xp.mean((y - xp.mean(y)) ** 2) "
                              "(with it, the proof for every m goes through)")


def test_no_hint_where_the_change_does_not_prove_it(claims):
    _, c = claims
    # c·Σ(y − μ)² − 1 ≥ 0 is false with c positive too, and with y not constant: no hint can be earned
    result = bnproof.prove(c["still-false"])
    assert result.status == "not-proved" and result.blocked_by
    assert result.hint is None and result.to_json()["hint"] is None


def test_no_change_is_tried_where_the_attempt_left_no_normal_form(claims, monkeypatch):
    """Too large, or undefined everywhere: the changed claim would fail the same way, at the
    same cost, once per change; so none is attempted (a stand-in prover would prove each)."""
    from bnproof.symbolic_m import hints, prove

    _, c = claims
    tried = []
    monkeypatch.setattr(hints, "attempt", lambda *a, **k: tried.append(a) or prove.Attempt(prove.PROVED, "", {}))
    too_large = prove.Attempt(prove.NOT_PROVED, "not proved: a normal form of more than 20000 terms", {})
    assert hints.hint(c["signless"], too_large) is None and tried == []
    with_form = prove.Attempt(prove.NOT_PROVED, "not proved: normal form c", {}, normal_form="c")
    assert hints.hint(c["signless"], with_form).startswith("declare c positive") and tried


def test_the_budget_and_a_failed_attempt_have_statuses_of_their_own(claims):
    _, c = claims
    budget = survivor.summary(c["relu"], [], [], survivor.BUDGET)
    assert budget["status"] == "budget" and budget["text"] == "not proved: time budget exhausted"
    failed = survivor.summary(c["relu"], [], [], "the attempt failed: ValueError: x")
    assert failed["status"] == "undecided" and failed["blocked_by"] == "the attempt failed: ValueError: x"
    assert list(budget) == list(failed) == KEYS


def test_list_shows_an_attempt_that_proved_nothing(monkeypatch):
    from bnproof.cli.listing import proof_cell, with_proofs
    from bnproof.search import record

    attempt = {"status": "not-proved", "text": "not proved: normal form …", "fixed": [{}], "covered": [],
               "certificates": [], "blocked_by": "the residual's normal form is not 0", "normal_form": "x",
               "normal_form_text": "x", "hint": "declare c positive"}
    kept = survivor.record_field(attempt)
    assert kept == {"status": "not-proved", "text": "not proved: normal form …", "covered": [],
                    "certificates": [], "blocked_by": "the residual's normal form is not 0",
                    "hint": "declare c positive"}
    assert survivor.record_field(survivor.not_attempted("no m")) is None
    monkeypatch.setattr(record, "load", lambda *a, **k: {"me/x": {"proof": kept}})
    (row,) = with_proofs([{"id": "me/x", "verdict_text": "survived 10 instances (seed 0)"}])
    assert row["proof"] == kept
    assert row["verdict_text"] == ("survived 10 instances (seed 0); proof for every m: not-proved "
                                   "(the residual's normal form is not 0)")
    assert proof_cell(row["proof"]) == "not-proved (the residual's normal form is not 0)"  # the table's column


# ---------------------------------------------------------------- bnproof.latex of what was proved

def _compiles(tmp_path, name, text):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed")
    tex = tmp_path / f"{name}.tex"
    tex.write_text(text, encoding="utf-8")
    for _ in range(2):  # labels settle
        proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                               tex.name], cwd=tmp_path, capture_output=True, text=True, errors="replace")
    log = tex.with_suffix(".log").read_text(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    assert not re.findall(r"^.*(?:undefined|multiply defined).*$", log, re.M | re.I)


def test_latex_of_a_prove_result(tmp_path):
    result = bnproof.prove("theorem-4.2/part-2/corrected")
    text = bnproof.latex(result)
    assert text.startswith("% Generated by bnproof") and "\\begin{document}" in text
    assert "% ACCEPTED corrected.proof.json: santurkar2018/theorem-4.2/part-2/corrected proved" in text
    assert "\\section{A sum of nonnegative terms}" in text
    fragment = bnproof.latex(result, fragment=True)
    assert "\\begin{document}" not in fragment and "\\subsection{The claim}" in fragment
    _compiles(tmp_path, "one", text)


def test_latex_of_a_proof_at_several_fixed_sizes(tmp_path):
    from bnproof.claims.api import load_file

    # BN of each column is proved at each d (observation-4.3 is now proved for every d at once)
    gallery = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_m_shapes.py"
    (claim,) = [c for c in load_file(gallery) if c.id.endswith("/shift-per-column")]
    text = bnproof.latex(bnproof.prove(claim))
    assert [line for line in text.splitlines() if line.startswith("\\section")] == [
        "\\section{For every $m$ at $d = 1$}", "\\section{For every $m$ at $d = 2$}",
        "\\section{For every $m$ at $d = 3$}"]
    labels = re.findall(r"\\label\{([^}]*)\}", text)
    assert len(labels) == len(set(labels)) and any(":eq1" in label and "-d3" in label for label in labels)
    _compiles(tmp_path, "several", text)


def test_latex_of_a_fuzz_result_whose_claim_was_proved(claims):
    _, c = claims
    result = _fuzz(c["positive"])
    assert result.verdict == "survived" and result.proof.proved
    assert bnproof.latex(result) == bnproof.latex(result.proof)
    assert "% ACCEPTED positive.proof.json: me/positive proved for every m" in bnproof.latex(result)


def test_latex_refuses_what_was_not_proved(claims):
    _, c = claims
    with pytest.raises(BadInput, match="me/signless was not proved .not-proved: not proved: normal form"):
        bnproof.latex(bnproof.prove(c["signless"]))
    with pytest.raises(BadInput, match="me/relu was neither refuted nor proved .survived; its proof for every "
                                       "m: not in the provable fragment: uses relu"):
        bnproof.latex(_fuzz(c["relu"]))
