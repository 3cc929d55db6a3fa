"""LaTeX a researcher pastes without touching (issue 24, part 3).

- A formula is broken only where it does not fit its line: in `bnproof latex lemma-4.5`
  "= φ_w(x⁽ⁱ⁾)" never stands alone; a term that fits is never broken inside its
  \\Bigl( … \\Bigr) (the proof of Fact C.1 broke "− γ m S[A g]\\Bigr) A" onto a line of
  its own); a pair is opened only when it is wider than half its line; never multline,
  which pushes a second line to the right margin.
- The proof writes the claim's symbols (its `symbols`, and ε for eps), not \\mathit{eps}.
- A reading is typeset formula by formula, not symbol by symbol.
- A law's counterexample is its values with their probabilities, not X_support / X_weights.
- The proof document's header reads as English.
The documents compile without warnings, in the one-column and the two-column article.
"""

from __future__ import annotations

import re
import sys
import textwrap

import pytest

from latex_support import compile_full, fragment, generated, run_latex
from test_latex import ROOT
from test_latex_paper import body_of, compile_quietly

PROOFS = sorted((ROOT / "certificates").rglob("*.proof.json"))
FACT_C1 = ROOT / "certificates/santurkar2018/fact-c.1.proof.json"


def rows(text: str) -> list[list[str]]:
    """Each display of a document as its lines (the rows of an align, or one line)."""
    out = []
    for env, body in re.findall(r"\\begin\{(equation|align|multline)\}(.*?)\\end\{\1\}", text, re.S):
        body = re.sub(r"^\\label\{[^}]*\}", "", body)
        out.append([r.strip() for r in re.split(r"\\\\\s*\n", body) if r.strip()])
    return out


# ------------------------------------------------------------------ line breaking

def test_lemma_45_short_equations_stay_on_their_line(tmp_path):
    text = generated("lemma-4.5")
    lines = [line for display in rows(text) for line in display]
    # the two equations of the setting, each whole: never "= φ_w(x^(i))" alone on a line
    assert any(r"z_i(w) = \varphi_w(x^{(i)})" in line for line in lines), lines[:4]
    assert not [line for line in lines if re.match(r"&?\s*=\s*\\varphi_w\(x\^\{\(i\)\}\)", line)]
    statement = rows(text)[0]
    assert len(statement) == 1, statement  # the claim fits the page's line
    compile_full(tmp_path, text)


def test_in_a_column_the_break_is_between_the_two_equations():
    text = fragment("lemma-4.5")
    lines = [line for display in rows(text) for line in display]
    assert not [line for line in lines if re.match(r"&?\s*=\s*\\varphi_w\(x\^\{\(i\)\}\)", line)]
    setting = next(d for d in rows(text) if any(r"\varphi_w(x) =" in x for x in d))
    # a column is too narrow for both: the second starts a line, aligned at its relation
    assert any(line.startswith("z_i(w) &=") for line in setting) or len(setting) == 1, setting
    # that it compiles without a warning in a plain article, and with no overfull box in a
    # column, with the proofs of Fact C.1 and Theorem 4.1: test_latex_paper compiles these
    # fragments (the Lemma's, every committed certificate's) in both, which this test did a
    # second time (three pdflatex runs)


def _unclosed(line: str) -> int:
    return len(re.findall(r"\\(?:B|b)igg?l", line)) - len(re.findall(r"\\(?:B|b)igg?r", line))


def test_the_proof_of_fact_c1_breaks_between_terms_not_inside_them():
    for text, broken in ((generated(str(FACT_C1)), False), (fragment(str(FACT_C1)), True)):
        t1 = next(d for d in rows(body_of(text)) if d[0].startswith("T_1"))
        assert (len(t1) > 1) == broken  # a column breaks it, only at its top-level + and −; a page does not
        assert all(_unclosed(line) == 0 for line in t1), t1
        assert not [line for line in t1 if re.match(r"&.*?\\Bigr\)", line) and _unclosed(line) < 0], t1


@pytest.mark.parametrize("fragmentary", [False, True])
def test_a_pair_is_broken_only_when_wider_than_half_its_line(fragmentary):
    from bnproof.render.latex_break import parse, width
    from bnproof.render.latex_break import COLUMN, PAGE, budget

    line = budget(COLUMN if fragmentary else PAGE)
    texts = [fragment(str(p)) if fragmentary else generated(str(p)) for p in [*PROOFS, ROOT / "certificates/lemma-4.5.json"]]
    checked = 0
    for text in texts:
        for display in rows(body_of(text)):
            joined, depth = "", 0
            for row in display:
                body = re.sub(r"\\(?:notag|label\{[^}]*\})", "", row).replace("&", "").replace(r"\qquad", "")
                if depth:
                    joined += " " + body
                opened = _unclosed(row)
                if not depth and opened > 0:
                    joined = body[re.search(r"\\(?:B|b)igg?l", body).start():]
                depth += opened
                if depth == 0 and joined:
                    pair = re.sub(r"\\(B|b)ig(g?)([lr])", r"\\\1ig\2\3", joined)
                    pair = pair[:pair.rindex("igr") + 4] if "igr" in pair else pair
                    inside = re.sub(r"\\(?:B|b)igg?[lr]\s*(\\[A-Za-z]+|.)", r"\1", pair)
                    assert width(parse(inside)) > line / 2, (inside[:100], width(parse(inside)), line)
                    checked += 1
                    joined = ""
    assert checked  # the derivations' long polynomials do break inside their pair


def test_no_document_uses_multline():
    texts = [generated("lemma-4.5"), fragment("lemma-4.5")]
    texts += [fragment(str(p)) for p in PROOFS] + [fragment(str(p)) for p in sorted((ROOT / "certificates").rglob("*.json"))
                                                  if not p.name.endswith(".proof.json")]
    for text in texts:
        assert r"\begin{multline}" not in text  # its last line goes to the right margin
        assert r"\multlinegap" not in text


def test_a_continuation_that_starts_with_a_negative_entry_keeps_it_unary():
    text = fragment("lemma-4.5")
    block = next(d for d in rows(text) if any(line.startswith("g &=") for line in d))
    at = next(k for k, line in enumerate(block) if line.startswith("g &="))
    g = block[at:at + next(k for k, line in enumerate(block[at + 1:], 1) if not line.startswith("&"))]
    continued = [line for line in g[1:] if re.match(r"&\\qquad(\\quad)* ", line)]
    # align begins each cell with an empty atom, so a bare minus there would be binary
    assert [line for line in continued if "{-}26" in line], g


# ------------------------------------------------------------------ the claim's symbols

EPS_CLAIM = textwrap.dedent('''
    from bnproof.claims import Claim, Var


    def _bn(xp, y, eps):
        mu = xp.mean(y)
        return (y - mu) / xp.sqrt(xp.sum((y - mu) ** 2) / y.shape[0] + eps)


    def _gap(xp, a, b):
        return xp.sum((a - b) ** 2)


    DECLARED = Claim(
        id="mine/declared-epsilon", source="a test",
        statement=r"\\mathrm{BN}_\\epsilon(c\\,y) = \\mathrm{BN}_{\\epsilon/c^2}(y)",
        kind="identity", variables=(Var("y", ("m",)), Var("c", (), "positive"), Var("eps", (), "positive")),
        sizes={"m": (2, 4)}, symbols={"c": r"\\kappa", "eps": r"\\epsilon"},
        residual=lambda xp, y, c, eps: _gap(xp, _bn(xp, c * y, eps), _bn(xp, y, eps / c**2)),
    )

    UNDECLARED = Claim(
        id="mine/undeclared-epsilon", source="a test",
        statement=r"\\mathrm{BN}_\\varepsilon(c\\,y) = \\mathrm{BN}_{\\varepsilon/c^2}(y)",
        kind="identity", variables=(Var("y", ("m",)), Var("c", (), "positive"), Var("eps", (), "positive")),
        sizes={"m": (2, 4)},
        residual=lambda xp, y, c, eps: _gap(xp, _bn(xp, c * y, eps), _bn(xp, y, eps / c**2)),
    )
''')


@pytest.fixture(scope="module")
def eps_proofs(tmp_path_factory):
    # by bnproof.prove in this process, which writes the certificates `bnproof prove --out-dir`
    # writes (both end in bnproof._api.prove.concluded), without a fresh interpreter and its
    # worker (1.3 s): these tests read the proofs' LaTeX, not the command
    import bnproof
    from bnproof.claims.api import load_file

    folder = tmp_path_factory.mktemp("eps")
    claim_file = folder / "eps_claims.py"
    claim_file.write_text(EPS_CLAIM)
    for claim in load_file(claim_file):
        result = bnproof.prove(claim, out_dir=folder / "out")
        assert result.status == "proved", (claim.id, result.text)
    certs = {p.name: p for p in (folder / "out").rglob("*.proof.json")}
    assert len(certs) == 2, certs
    return claim_file, certs


def test_a_proof_writes_the_declared_symbols(eps_proofs):
    claim_file, certs = eps_proofs
    body = body_of(run_latex(certs["declared-epsilon.proof.json"], "--claim", claim_file).stdout)
    body = re.sub(r"\\label\{[^}]*\}", "", body[body.index("The claim"):])  # the id is in the title and labels
    assert r"\mathit{eps}" not in body and "eps" not in body.replace(r"\epsilon", "")
    assert r"\epsilon > 0" in body and r"\kappa > 0" in body  # the assumptions, in its symbols
    assert r"S[y^{2}]" in body  # a vector keeps its name in the sums


def test_an_undeclared_eps_is_the_statements_epsilon(eps_proofs):
    claim_file, certs = eps_proofs
    body = body_of(run_latex(certs["undeclared-epsilon.proof.json"], "--claim", claim_file).stdout)
    assert r"\mathit{eps}" not in body and r"\varepsilon > 0" in body


# ------------------------------------------------------------------ the reading

@pytest.mark.parametrize("text,formula", [
    ("the maxima over ‖X‖ ≤ λ are attained at X = λI, so", r"$\|X\| \leq \lambda$"),
    ("the maxima over ‖X‖ ≤ λ are attained at X = λI, so", r"$X = \lambda I$"),
    ("with v̂ = (I − ŷŷᵀ/m)g for the BN network", r"$\hat{v} = (I - \hat{y}\hat{y}^\top /m)g$"),
    ("With γ = σ the BN output is z − μ + β, so", r"$z - \mu + \beta$"),
    ("with 1/√m before ⟨∇_y L, ŷ⟩² (the proof's step)", r"$\langle \nabla _{y} L, \hat{y}\rangle ^2$"),
    ("x² ≥ x", r"$x^2 \geq x$"),
    ("BN(c·y) = BN(y) for c > 0", r"$\mathrm{BN}(c\cdot y) = \mathrm{BN}(y)$"),
])
def test_a_reading_is_typeset_formula_by_formula(text, formula):
    from bnproof.render.latex import prose

    assert formula in prose(text), prose(text)


def test_the_committed_readings_have_no_half_typeset_formula():
    text = body_of(fragment(str(ROOT / "certificates/santurkar2018/theorem-4.4.json")))
    reading = text[text.index("How the claim is read"):text.index("The counterexample")]
    assert r"$\|$X$\|$" not in reading and r"$\|X\| \leq \lambda$" in reading
    assert "Appendix C.2" in reading  # a section's letter is no variable
    assert not re.search(r"\$\s*\$", reading)


# ------------------------------------------------------------------ laws

@pytest.fixture(scope="module")
def refuted_law():
    import bnproof

    sys.path.insert(0, str(ROOT / "docs/examples"))
    try:
        from expectations import BIASED
    finally:
        sys.path.remove(str(ROOT / "docs/examples"))
    result = bnproof.fuzz(BIASED, time_budget=300)
    assert result.refuted
    return result


def test_a_law_counterexample_is_its_distribution(refuted_law):
    text = refuted_law.text()
    assert "X_support" not in text and "X_weights" not in text
    support = refuted_law.counterexample["X_support"]
    weights = refuted_law.counterexample["X_weights"]
    total = sum(weights)
    for value, weight in zip(support, weights):
        assert f"P(X = {value}) = {weight / total}" in text, text
    lines = "\n".join(refuted_law.counterexample_lines())
    assert "X_support" not in lines and "P(X = " in lines


def test_a_law_counterexample_in_latex_is_its_distribution(refuted_law, tmp_path):
    import bnproof

    text = bnproof.latex(refuted_law, fragment=True)
    assert r"X\_support" not in text and r"\Pr(X = " in text
    compile_quietly(tmp_path, {"law": text})


def test_a_law_shown_merges_equal_values():
    from fractions import Fraction

    from bnproof.render.laws import points, text

    law = points([Fraction(1), Fraction(0), Fraction(1)], [Fraction(1), Fraction(2), Fraction(1)])
    assert law == [(Fraction(1), Fraction(1, 2)), (Fraction(0), Fraction(1, 2))]
    assert text("X", law, str) == "P(X = 1) = 1/2, P(X = 0) = 1/2"


# ------------------------------------------------------------------ the header

def test_a_proof_documents_header_reads_as_english():
    import bnproof
    from bnproof.claims.api import named

    text = bnproof.latex(str(FACT_C1), source=named("santurkar2018/fact-c.1"))
    header = "\n".join(line for line in text.splitlines() if line.startswith("%"))
    assert "the claim given gives" not in header
    assert "the claim and its program are those of the claim given" in header
