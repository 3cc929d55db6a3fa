"""`bnproof latex` of an "sos" proof (a sum of squares with a case for each pivot that may
be 0; checker/sos.py): the decomposition R·D = Σ c·q… and one paragraph per case (the
input fixed as λ₀·1 + Σ λ_w·w, and how the case closes: R = 0, undefined, its own
decomposition, cases of its own), compiled in one and two columns without a warning.
And docs/certificate.schema.json describes the sos and substitution proof objects the
checker accepts: generated certificates of both validate."""

from __future__ import annotations

import copy
import json
import re

import pytest
from jsonschema import Draft202012Validator

from bnproof.checker import Rejected, check_document
from latex_support import compile_apart, compile_full, fragment, generated
from test_latex import ROOT
from test_latex_paper import assert_every_display_is_labelled, body_of, compile_quietly, two_column_log
from tests.tamper import seal

SCHEMA = json.loads((ROOT / "docs" / "certificate.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
GALLERY = "gallery/every_m_inequalities"
SHOWN = ("cauchy-schwarz", "covariance", "bn-norm-bound", "two-gaps", "regression")


# the claims these tests read, of the gallery's every-m inequalities and equalities
PROVED = {"every_m_inequalities.py": SHOWN,
          "every_m_equalities.py": ("centered", "recovery")}


@pytest.fixture(scope="module")
def proved(tmp_path_factory):
    """The claims of PROVED, proved (certificates written as `bnproof prove --out-dir` writes
    them: both end in bnproof._api.prove.concluded).  Through bnproof.prove in this process,
    and only these claims: `bnproof prove FILE` in a fresh interpreter proved all 28 claims
    of both files, 4.4 s of CPU against about 1 s; `bnproof prove` itself is tested in
    test_prove*.py and test_docs.py."""
    import bnproof
    from bnproof.claims.api import load_file

    out = tmp_path_factory.mktemp("proofs")
    for example, names in PROVED.items():
        claims = {c.id.rsplit("/", 1)[1]: c for c in load_file(ROOT / "docs/examples" / example)}
        for name in names:
            result = bnproof.prove(claims[name], out_dir=out)
            assert result.status == "proved", (name, result.text)
    return out


@pytest.fixture(scope="module")
def texts(proved):
    return {n: fragment(str(proved / GALLERY / f"{n}.proof.json")) for n in SHOWN}


def _cert(proved, name: str) -> dict:
    return json.loads((proved / f"{name}.proof.json").read_text(encoding="utf-8"))


def test_cauchy_schwarz_has_its_decomposition_and_its_case(texts, proved):
    assert _cert(proved, f"{GALLERY}/cauchy-schwarz")["proof"]["method"] == "sos"
    body = body_of(texts["cauchy-schwarz"])
    # R = ‖a‖²·‖b − ℓa‖², the pivot ‖a‖² positive outside its case
    assert "A sum of nonnegative terms" in body and r"R = q_{1}\,q_{2}" in body
    assert r"q_{1} = S[a^{2}],\quad \text{a sum of squares; case 1 if $0$}" in body
    assert "Where a pivot is 0" in body and "Case 1}" in body
    case = body[body.index("Case 1}"):body.index("Conclusion")]
    assert "u = a\n" in case and "a = 0\n" in case  # ‖a‖² = 0 makes a = 0
    assert "R = 0\n" in case and "with equality" in case
    assert r"R \ge 0" in body[body.index("Conclusion"):]


def test_covariance_replaces_a_constant_batch_by_lambda_ones(texts):
    body = body_of(texts["covariance"])
    case = body[body.index("Case 1}"):body.index("Conclusion")]
    assert r"u = x -\frac{1}{m}\,S[x]\,\mathbf{1}" in case  # the sign leads, not "\,-S[x]"
    assert r"x = \lambda_{0}\,\mathbf{1}" in case and r"real number $\lambda_{0}$" in case
    assert "R = 0\n" in case


def test_the_root_bound_has_a_zero_case_and_an_undefined_one(texts):
    body = body_of(texts["bn-norm-bound"])
    assert r"\text{a square root}" in body  # the decomposition over the roots
    assert "Case 1}" in body and "Case 2}" in body
    one = body[body.index("Case 1}"):body.index("Case 2}")]
    two = body[body.index("Case 2}"):body.index("Conclusion")]
    assert "z = 0\n" in one and "R = 0\n" in one
    assert r"y = \lambda_{0}\,\mathbf{1}" in two and "defined nowhere in this case" in two


def test_an_undefined_case_shows_the_divisor_and_nested_cases_their_own_proof(texts):
    regression = body_of(texts["regression"])
    case = regression[regression.index("Case 1}"):regression.index("Conclusion")]
    assert r"D = \frac{1}{m^{2}}\,\left(m\,S[x^{2}] - S[x]^{2}\right)" in case
    assert "defined nowhere in this case" in case
    gaps = body_of(texts["two-gaps"])
    for number in ("Case 1}", "Case 1.1}", "Case 2}", "Case 2.1}"):
        assert number in gaps
    case2 = gaps[gaps.index("Case 2}"):gaps.index("Case 2.1}")]
    # b = λ_a·a, and the case's own decomposition with its own λ: R = λ_a²·‖a‖²·(…)
    assert r"b = \lambda_{a}\,a" in case2 and r"\lambda_{a}^{2},\quad \text{a square}" in case2
    assert "q_{9}" in case2 and "q_{1}" not in case2  # the case numbers its own q on


def test_labels_and_one_column_without_warnings(tmp_path, texts):
    for n, text in texts.items():
        assert_every_display_is_labelled(text, f"{GALLERY}/{n}".replace("/", "-").replace("_", "-"))
    compile_quietly(tmp_path, {f"p{k}": t for k, t in enumerate(texts.values())})


@pytest.fixture(scope="module")
def alone_in_two_columns(tmp_path_factory, texts):
    """{name: the warnings of its fragment alone in a two-column article}: all five in one
    document, each on pages of its own (latex_support.compile_apart), two pdflatex runs
    instead of ten."""
    return compile_apart(tmp_path_factory.mktemp("alone"),
                         "\\documentclass[twocolumn]{article}\n\\usepackage{amsmath,amssymb}\n", texts)


@pytest.mark.parametrize("name", SHOWN)
def test_each_alone_in_two_columns_without_warnings(alone_in_two_columns, name):
    # no Warning, Overfull or Underfull line in its part of the log
    assert alone_in_two_columns[name] == []


def test_all_in_one_two_column_paper_without_overfull_lines(tmp_path, texts):
    # together, a tall aligned display may leave a column short (Underfull \vbox while
    # \output is active): page breaking of the host, as test_latex_proof accepts too
    log = two_column_log(tmp_path, {f"p{k}": t for k, t in enumerate(texts.values())})
    assert not re.findall(r"^(?:Overfull|Underfull \\hbox).*$", log, re.M)


def test_the_api_renders_a_prove_result_with_its_cases():
    import importlib.util

    import bnproof as api

    spec = importlib.util.spec_from_file_location("every_m_inequalities",
                                                  ROOT / "docs/examples/every_m_inequalities.py")
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    body = body_of(api.latex(api.prove(gallery.CAUCHY_SCHWARZ), fragment=True))
    assert r"R = q_{1}\,q_{2}" in body and "Where a pivot is 0" in body and "a = 0\n" in body


def test_a_whole_document_compiles_without_warnings(tmp_path, proved):
    compile_full(tmp_path, generated(str(proved / GALLERY / "cauchy-schwarz.proof.json")))


@pytest.mark.parametrize("name", [f"{GALLERY}/cauchy-schwarz", f"{GALLERY}/two-gaps",
                                  f"{GALLERY}/regression", f"{GALLERY}/bn-norm-bound",
                                  "gallery/every_m_equalities/centered",
                                  "gallery/every_m_equalities/recovery"])
def test_generated_sos_and_substitution_certificates_are_valid(proved, name):
    doc = _cert(proved, name)
    assert doc["proof"]["method"] in ("sos", "substitution")
    check_document(doc)
    assert list(VALIDATOR.iter_errors(doc)) == []


def _mutants(proved):
    sos = _cert(proved, f"{GALLERY}/two-gaps")
    sub = _cert(proved, "gallery/every_m_equalities/recovery")
    out = {}
    for label, base, mutate in [
        ("no-cases", sos, lambda p: p.update(cases=[])),
        ("case-method", sos, lambda p: p["cases"][0]["proof"].update(method="maybe")),
        ("case-extra-key", sos, lambda p: p["cases"][0].update(note="trust me")),
        ("pivot-string", sos, lambda p: p["cases"][0].update(pivot="4")),
        ("no-substitutions", sub, lambda p: p.update(substitutions=[])),
        ("input-and-sum", sub, lambda p: p["substitutions"][0].update(sum=3)),
        ("equality-negative", sub, lambda p: p["substitutions"][0].update(equality=-1)),
    ]:
        doc = copy.deepcopy(base)
        mutate(doc["proof"])
        out[label] = seal(doc)
    return out


def test_invalid_sos_and_substitution_proofs_fail_the_schema_and_the_checker(proved):
    for label, doc in _mutants(proved).items():
        assert list(VALIDATOR.iter_errors(doc)), label
        with pytest.raises(Rejected):
            check_document(doc)
