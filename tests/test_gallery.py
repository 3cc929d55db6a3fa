"""The gallery stays true: every claim file in docs/examples/ declares what
`bnproof.fuzz` says of each of its claims (a module-level dict EXPECTED, claim
id -> verdict), and says it correctly.  Each claim is searched as the docs
promise (seed 0, 60 examples, no JAX); each refutation's certificate is
accepted by the independent checker, bound to the claim the file gives (a
forged statement, resealed, is not), and renders as LaTeX.  A file without
EXPECTED, or with a claim it does not name, fails: it is never skipped."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import check_document
from bnproof.claims.api import load_file
from bnproof.claims.helper_modules import importable_beside
from bnproof.search.fuzz import VERDICTS
from shared_runs import fuzz_claims
from tamper import seal

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
FILES = sorted(EXAMPLES.glob("*.py"))
LEGACY_IDS = {"decision_boundaries": "examples/"}  # ids that docs and tests cite since before the gallery


def expected_of(path: Path) -> dict:
    """The file's EXPECTED, read by running it as the docs' reader would."""
    namespace: dict = {}
    with importable_beside(path, namespace):
        namespace.update(runpy.run_path(str(path)))
    assert "EXPECTED" in namespace, f"{path.name} defines no EXPECTED = {{claim id: verdict}}"
    expected = namespace["EXPECTED"]
    assert isinstance(expected, dict), f"{path.name}: EXPECTED is a dict, not {type(expected).__name__}"
    return expected


def check_gallery_file(path: Path, out: Path, run=None) -> list[str]:
    """Raises AssertionError on the first way the file breaks the gallery's
    rules; returns the ids of the claims it refuted.  `run`: the file already
    searched (tests/shared_runs.py), else it is searched here into `out`."""
    expected = expected_of(path)
    claims = run.claims if run is not None else load_file(path)
    ids = [c.id for c in claims]
    assert len(set(ids)) == len(ids), f"{path.name}: a claim id repeats"
    assert set(expected) == set(ids), (
        f"{path.name}: EXPECTED must name exactly the claims the file defines; missing "
        f"{sorted(set(ids) - set(expected))}, unknown {sorted(set(expected) - set(ids))}")
    prefix = LEGACY_IDS.get(path.stem, f"gallery/{path.stem}/")
    assert all(i.startswith(prefix) for i in ids), f"{path.name}: every id starts with {prefix}"
    assert all(v in VERDICTS for v in expected.values()), f"{path.name}: a verdict is one of {VERDICTS}"
    verdicts = set(expected.values())
    assert "refuted" in verdicts, f"{path.name}: the gallery shows at least one false claim, refuted"
    assert verdicts & {"survived", "verified-exactly"}, f"{path.name}: the gallery shows at least one true claim"

    results = run.results if run is not None else fuzz_claims(claims, out)
    refuted = []
    for claim in claims:
        result = results[claim.id]
        assert result.verdict == expected[claim.id], (
            f"{claim.id}: fuzz says {result.verdict} ({result.reason}), EXPECTED says {expected[claim.id]}")
        if result.verdict == "refuted":
            check_refutation(claim, result)
            refuted.append(claim.id)
    return refuted


def check_refutation(claim, result) -> None:
    check = bnproof.check(result.certificate_path, claim=claim)
    assert check.accepted, f"{claim.id}: the checker rejected its certificate: {check.reason}"
    assert "the claim, its variables and the program are those" in check.line

    forged = json.loads(result.certificate)
    forged["claim"]["statement"] += r" + 0"  # another claim, with a valid digest
    forgery = result.certificate_path.with_name("forged.json")
    forgery.write_text(json.dumps(seal(forged)), encoding="ascii")
    assert not bnproof.check(forgery, claim=claim).accepted, f"{claim.id}: a forged statement was bound"

    tex = bnproof.latex(result)
    assert r"\begin{document}" in tex and tex.rstrip().endswith(r"\end{document}")
    unbroken = "".join(tex.replace("\\\\\n", "").split())  # a long display is broken at \\
    assert "".join(claim.statement.split()) in unbroken and "refuted" in tex


def test_there_is_a_gallery():
    assert {"basics", "decision_boundaries"} <= {p.stem for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_gallery_file_keeps_its_expected_verdicts(path, gallery_runs):
    run = gallery_runs.of(path)  # its proofs are read again below
    refuted = check_gallery_file(path, run.out, run)
    assert set(refuted) == {i for i, v in expected_of(path).items() if v == "refuted"}


PROVED = [p for p in FILES if p.stem.startswith(("every_m_", "every_d", "every_n_"))]
DEAD = "read by neither the residual nor a hypothesis, yet it has a condition"  # checker/live_steps.py


@pytest.mark.parametrize("path", PROVED, ids=lambda p: p.name)
def test_every_gallery_proof_is_written_and_accepted(path, gallery_runs, tmp_path):
    """bnproof's prover writes no unread step (tests/test_checker_dead_steps.py): each
    gallery claim is attempted (its certificates replayed by the checker before they are
    written), none fails on the rule, and each certificate written is accepted.  A claim
    that survived the gallery's search above was attempted there (fuzz proves survivors as
    bnproof.prove does); any other claim, or every claim where this process has not
    searched the file (pytest-xdist gave that test to another worker), is attempted here."""
    run = gallery_runs.made(path)
    claims = run.claims if run is not None else load_file(path)
    for claim in claims:
        result = run.results[claim.id].proof if run is not None else None
        if result is None or result.status == "not-attempted":  # refuted, or no batch size m
            result = bnproof.prove(claim, out_dir=tmp_path)
        assert DEAD not in str(result.to_json()), claim.id
    written = sorted(tmp_path.rglob("*.proof.json"))
    if run is not None:
        written += sorted(run.out.rglob("*.proof.json"))
    assert written, path.name
    for cert in written:
        assert "proved for every" in check_document(json.loads(cert.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_gallery_file_is_listed_with_a_docstring(path):
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    assert f"[{path.name}]({path.name})" in readme, f"docs/examples/README.md does not list {path.name}"
    doc = _docstring(path)
    assert doc and len(doc.split()) >= 20, f"{path.name} needs a module docstring explaining it to a reader"


def _docstring(path: Path) -> str | None:
    import ast

    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))


# ------------------------------------------------ the rules themselves can fail

CLAIM = '''
"""A test file."""
from bnproof.claims import Claim, Var

TRUE = Claim(id="gallery/{stem}/true", source="t", statement="x^2 >= 0", variables=(Var("x", ()),),
             residual=lambda xp, x: x * x)
FALSE = Claim(id="gallery/{stem}/false", source="t", statement="x^2 >= 1", variables=(Var("x", ()),),
              residual=lambda xp, x: x * x - 1)
'''


def _file(tmp_path: Path, stem: str, tail: str) -> Path:
    path = tmp_path / f"{stem}.py"
    path.write_text(CLAIM.format(stem=stem) + tail)
    return path


def test_a_file_without_expected_fails(tmp_path):
    with pytest.raises(AssertionError, match="defines no EXPECTED"):
        check_gallery_file(_file(tmp_path, "bare", ""), tmp_path)


def test_a_claim_missing_from_expected_fails(tmp_path):
    path = _file(tmp_path, "partial", 'EXPECTED = {"gallery/partial/false": "refuted"}\n')
    with pytest.raises(AssertionError, match=r"missing \['gallery/partial/true'\]"):
        check_gallery_file(path, tmp_path)


def test_a_wrong_verdict_fails(tmp_path):
    path = _file(tmp_path, "wrong", 'EXPECTED = {"gallery/wrong/true": "verified-exactly", '
                                    '"gallery/wrong/false": "refuted"}\n')
    with pytest.raises(AssertionError, match="gallery/wrong/true: fuzz says survived"):
        check_gallery_file(path, tmp_path)


def test_a_right_file_passes_and_its_refutation_is_checked(tmp_path):
    path = _file(tmp_path, "right", 'EXPECTED = {"gallery/right/true": "survived", '
                                    '"gallery/right/false": "refuted"}\n')
    assert check_gallery_file(path, tmp_path) == ["gallery/right/false"]
    assert (tmp_path / "gallery" / "right" / "false.json").is_file()
