"""Existential claims proved for every m through their hints (issue 23, pattern 7): the
claim with the hint substituted is proved by the every-m prover
(symbolic_m/exists_hint.py), every division and root of the substituted program is
proved defined wherever the hypotheses hold, and the certificate, marked existential,
is replayed by the checker (checker/exists_hint.py) and bound to the claim file.  The
near misses (a wrong hint, a hint undefined somewhere, a false claim) are never proved,
and forged certificates are rejected."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

from bnproof._api.judgement import bind_proof
from bnproof.checker import Rejected, check_document
from bnproof.claims.api import load_file
from bnproof.symbolic_m.prove import prove_claim
from bnproof.symbolic_m.survivor import attempts_within, summary
from tests.tamper import seal

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
GALLERY = EXAMPLES / "every_m_exists.py"
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(GALLERY)}
WITNESSES = {c.id.rsplit("/", 1)[1]: c for c in load_file(EXAMPLES / "existential_witnesses.py")}
TRUE = ("recover", "rms-gain", "scale", "inverse-defined")
NEAR_MISSES = ("recover-wrong-hint", "inverse-undefined", "squares-false")


@pytest.fixture(scope="module")
def proved():
    out = {}
    for name in TRUE:
        attempts = prove_claim(CLAIMS[name])
        assert len(attempts) == 1 and attempts[0].proved, attempts[-1].reason
        out[name] = attempts[0]
    return out


def forged(doc: dict, change) -> dict:
    doc = copy.deepcopy(doc)
    change(doc)
    return seal(doc)


def bound(doc: dict, claims: list) -> tuple:
    return bind_proof(claims, GALLERY, doc)


# --- the prover and the checker, end to end ---------------------------------------------

@pytest.mark.parametrize("name", TRUE)
def test_true_existential_claims_are_proved_and_the_checker_accepts(name, proved):
    result = proved[name]
    assert result.reason.startswith("proved for every m (witness: the claim's hint)")
    doc = result.document
    assert doc["claim"]["exists"]["hint"] == 0 and doc["claim"]["exists"]["defined"]
    said = check_document(doc)
    assert "proved for every m (witness: the claim's hint 0, defined wherever the hypotheses hold" in said
    ok, why = bound(doc, list(CLAIMS.values()))
    assert ok, why


def test_the_summary_says_the_hint_is_the_witness(proved):
    claim = CLAIMS["recover"]
    attempts, stopped = attempts_within(claim, None)  # fuzz's proof attempt for a survivor
    assert stopped is None
    assert summary(claim, attempts, [])["text"] == "proved for every m (witness: the claim's hint)"


def test_bn_represents_the_identity_through_its_irrational_hint():
    """γ = σ is irrational at rational y: no longer an input, only a function of one."""
    attempts = prove_claim(WITNESSES["bn-represents-identity"])
    assert attempts[-1].proved, attempts[-1].reason
    assert "bn-represents-identity" in check_document(attempts[-1].document)


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_not_proved(name):
    attempts = prove_claim(CLAIMS[name])
    assert not attempts[-1].proved and attempts[-1].document is None
    assert attempts[-1].reason.startswith("not proved")


def test_a_hint_undefined_somewhere_is_not_proved_though_its_residual_is_zero():
    (made,) = prove_claim(CLAIMS["inverse-undefined"])
    assert "the hint is not shown defined" in made.reason
    assert made.proof == {"method": "zero"}  # the substituted residual alone would "prove" it


def test_without_a_hint_the_claim_is_outside_the_fragment():
    (made,) = prove_claim(WITNESSES["mean-abs-target"])
    assert made.status == "outside-fragment" and "without a hint" in made.reason


# --- forged certificates ------------------------------------------------------------------

def test_a_dropped_definedness_fact_is_rejected(proved):
    doc = forged(proved["scale"].document, lambda d: d["claim"]["exists"]["defined"].pop())
    with pytest.raises(Rejected, match="definedness obligations"):
        check_document(doc)


def test_a_definedness_fact_that_does_not_hold_is_rejected(proved):
    """The recovery proof's root √(σ² + ε) needs ε > 0: declared real, the root's radicand
    is not shown >= 0, whatever the list says."""
    def change(d):
        d["claim"]["variables"][1]["domain"] = "real"
        d["program"]["inputs"][1][2] = "real"
    with pytest.raises(Rejected, match=r"claim.exists.defined: step \d+ is not shown >= 0"):
        check_document(forged(proved["recover"].document, change))


def test_a_hint_proof_bound_to_a_claim_without_that_hint_is_rejected(proved):
    from dataclasses import replace

    doc = proved["recover"].document
    other = replace(CLAIMS["recover"], hints=())
    ok, why = bound(doc, [other])
    assert not ok and "has no hint 0" in why
    wrong = replace(CLAIMS["recover"], hints=CLAIMS["recover-wrong-hint"].hints)
    ok, why = bound(doc, [wrong])
    assert not ok and "with hint 0" in why
    ok, why = bound(forged(doc, lambda d: d["claim"]["exists"].update(hint=1)), list(CLAIMS.values()))
    assert not ok and "has no hint 1" in why


def test_a_hint_proof_unmarked_is_not_the_existential_claims_proof(proved):
    """Without its marking the certificate is an ordinary proof of a universal program: the
    checker accepts that program, but it is not the existential claim's."""
    doc = forged(proved["recover"].document, lambda d: d["claim"].pop("exists"))
    check_document(doc)
    ok, why = bound(doc, list(CLAIMS.values()))
    assert not ok


def test_a_universal_claim_bound_to_a_hint_proof_is_rejected(proved):
    from dataclasses import replace

    universal = replace(CLAIMS["recover"], exists=(), hints=(),
                        residual=lambda xp, y, eps: xp.sum(y) * 0)
    ok, why = bound(proved["recover"].document, [universal])
    assert not ok and "no existential variables" in why


def test_an_existential_marking_on_another_claims_variable_is_rejected(proved):
    doc = forged(proved["recover"].document,
                 lambda d: d["claim"]["exists"]["variables"].__setitem__(0, {"name": "eps", "shape": [],
                                                                              "domain": "real"}))
    with pytest.raises(Rejected, match="also a universal one"):
        check_document(doc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q", "-n0"]))


# --- check and latex, as a user runs them -------------------------------------------------

def test_check_and_latex_bind_a_hint_proof_to_the_claim_file(proved, tmp_path):
    import json

    import bnproof

    path = tmp_path / "recover.proof.json"
    path.write_text(json.dumps(proved["recover"].document))
    ok = bnproof.check(path, claim=GALLERY)
    assert ok.accepted and "witness: the claim's hint 0" in ok.line, ok.line
    tex = bnproof.latex(str(path), source=CLAIMS["recover"])
    assert r"\exists \gamma, \beta" in tex and "witness: the claim's hint 0" in tex
    other = tmp_path / "wrong.py"
    other.write_text(GALLERY.read_text().replace('"beta": xp.mean(y)}', '"beta": 0 * xp.mean(y)}'))
    assert not bnproof.check(path, claim=other).accepted


def test_the_second_reading_reads_the_claims_code_at_the_hints_values():
    """A hint that answers the tracer otherwise than numpy (type() cannot be refused): the
    traced program, with c = 3, is 0; the claim's own code, with c = 2, is not."""
    from bnproof.claims import Claim, Var
    from bnproof.errors import Disagreement

    sly = Claim(id="t/exists/sly", source="t", statement="s", kind="identity",
                variables=(Var("y", ("m",)),), exists=(Var("c"),), sizes={"m": (2, 5)},
                residual=lambda xp, y, c: c * xp.sum(y) - 3 * xp.sum(y),
                hints=(lambda xp, y: 2 if type(y).__name__ == "ndarray" else 3,))
    with pytest.raises(Disagreement, match="the traced program and the claim's own code"):
        prove_claim(sly)


def test_fuzz_proves_a_surviving_existential_claim_through_its_hint(tmp_path):
    import bnproof

    result = bnproof.fuzz(CLAIMS["recover"], out_dir=tmp_path, seed=0, max_examples=10, time_budget=60, jax=False)
    assert result.verdict == "survived"
    assert result.proof.text == "proved for every m (witness: the claim's hint)"
    written = {p.name for p in tmp_path.rglob("*.json")}
    assert written == {"recover.proof.json", "recover.witnesses.json"}
    for path in tmp_path.rglob("*.json"):
        assert bnproof.check(path, claim=GALLERY).accepted
