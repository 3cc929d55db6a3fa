"""A refutation reads as a referee's report: every hypothesis of a paper claim has a
name, the counterexample is written in the claim's symbols (also from a FuzzResult,
with no source=), and the claim's reading is shown in the document and the report."""

import pytest

import bnproof
from bnproof.claims import Claim, Var, hypothesis
from bnproof.claims.api import all_claims
from bnproof.claims.naming import hypothesis_name, reading_lines, reading_paragraphs
from bnproof.errors import BadInput


def test_every_hypothesis_of_the_papers_is_named():
    unnamed = [(c.id, k) for c in all_claims() for k, h in enumerate(c.hypotheses, 1)
               if not hypothesis_name(h)]
    assert not unnamed


def test_a_hypothesis_name_is_checked():
    with pytest.raises(ValueError, match="unbalanced"):
        hypothesis("the variance $\\sigma^2", lambda xp, x: x)
    with pytest.raises(ValueError, match="non-empty"):
        hypothesis("  ")
    with pytest.raises(ValueError, match="names a function"):
        hypothesis("x", 3)


NAMED = Claim(id="me/square", source="my notes", statement=r"x^2 \ge x",
              residual=lambda xp, x: x * x - x, variables=(Var("x", ()),),
              hypotheses=(hypothesis(r"the input $x$ itself", lambda xp, x: x),),
              symbols={"x": r"\xi_0"},
              reading="Title line.\n\nx is read as a real number; the bound is x² ≥ x on ‖x‖ ≤ 1.")


def refuted(claim):
    result = bnproof.fuzz(claim, seed=0, max_examples=40, time_budget=60, jax=False)
    assert result.refuted, result.verdict
    return result


def test_latex_of_a_fuzz_result_uses_its_claim_without_source():
    text = bnproof.latex(refuted(NAMED), fragment=True)
    assert r"\xi_0 &= " in text  # the claim's symbol, with no source= given
    assert r"\item the input $x$ itself: $h_{1} = " in text
    assert "How the claim is read" in text
    # the reading's Unicode mathematics is typeset, its title line left out
    # each formula one piece of math (x² with its base)
    assert r"the bound is $x^2 \geq x$ on $\|x\| \leq 1$" in text and "Title line" not in text


def test_a_hostile_hypothesis_name_is_refused_not_written():
    evil = Claim(id="me/evil", source="s", statement=r"x^2 \ge x", residual=lambda xp, x: x * x - x,
                 variables=(Var("x", ()),),
                 hypotheses=(hypothesis(r"a name with $\input{/etc/passwd}$", lambda xp, x: x),))
    with pytest.raises(BadInput):
        bnproof.latex(refuted(evil), fragment=True)


def test_array_hypotheses_name_each_entry():
    claim = Claim(id="me/two", source="s", statement=r"x \ge y", residual=lambda xp, v: v[0] - v[1],
                  variables=(Var("v", (2,)),),
                  hypotheses=(hypothesis("entries of $v$", lambda xp, v: v),))
    text = bnproof.latex(refuted(claim), fragment=True)
    assert r"\item entries of $v$, 1 of 2: $h_{1}" in text and r"\item entries of $v$, 2 of 2: $h_{2}" in text


def test_the_reading_is_in_the_terminal_report():
    lines = refuted(NAMED).text(timings=False).splitlines()
    assert lines[1].startswith("Read as: x is read as a real number")
    assert reading_lines("") == [] and reading_paragraphs("One line only.") == ["One line only."]


def test_a_paper_refutation_names_its_hypotheses_and_reads_its_notation():
    text = bnproof.latex("santurkar2018/theorem-4.1", fragment=True)
    assert r"\item the batch variance $\sigma_j^2$: $h_{1} = \tfrac{1}{4} > 0$" in text
    assert r"\nabla_{y_j}\mathcal{L} &= \left(0, 1\right)" in text  # g in the statement's symbol
    assert r"\text{LHS} = 0 > 2 - 2 \sqrt{2} = \text{RHS}" in text
    assert "How the claim is read" in text and r"$\partial \hat{L}/\partial z = \partial L/\partial y$" in text



def test_lemma_closed_forms_are_in_natural_term_order(tmp_path):
    """C(w) by falling degree (SymPy's lex order prints … − 66 w₁ + 14 w₂² …), and each BN
    term as γ·(z_i − μ)/σ + β − y_i (SymPy folds it into one nested fraction)."""
    import json
    import re

    data = tmp_path / "d.json"
    data.write_text(json.dumps({"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3],
                                "gamma": "3/2", "beta": "1/2"}))
    text = " ".join(bnproof.latex("lemma-4.5", data=str(data), fragment=True).split())
    flat = re.sub(r"\\notag \\\\ &\\qquad \{\} ", "", text)  # rejoin broken display lines
    assert "6 w_{1}^{2} + 18 w_{1} w_{2} + 14 w_{2}^{2} - 66 w_{1} - 102 w_{2} + 198" in flat
    assert r"\frac{3}{2} \cdot \frac{- w_{1} - 3 w_{2}}{\sqrt{2 w_{1}^{2} + 6 w_{1} w_{2} + 6 w_{2}^{2}}}" in flat
    assert r"+ \frac{1}{2} -2" in flat  # then β, then the target
    assert r"\frac{- \frac{3 w_{1}}{2}" not in flat  # no nested fraction
