"""Equality hypotheses in proofs for every m (issue 23, pattern 7, in part): an equality
that fixes a scalar input or a batch sum (c·m^k·x + c₀, c₀ free of x and of roots) is
substituted out
and the program replayed, by the prover (symbolic_m/equalities.py) and, by its own
code, by the checker (checker/substitution.py).  The witness lies on the set, the
second reading compares at generic instances moved onto it, and the near misses
(Remark 2.7 as printed, a wrong substitution) are never proved."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.symbolic_m.prove import attempt
from bnproof.symbolic_m.trace import program_for
from tests.tamper import seal

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_m_equalities.py"
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(GALLERY)}
TRUE = ("recovery", "mean", "variance", "centered")
NEAR_MISSES = ("recovery-printed", "recovery-wrong-sign", "centered-at-one")


@pytest.fixture(scope="module")
def proved():
    out = {}
    for name in TRUE:
        result = attempt(CLAIMS[name])
        assert result.proved, result.reason
        out[name] = result
    return out


def forged(doc: dict, change) -> dict:
    doc = copy.deepcopy(doc)
    change(doc)
    return seal(doc)


# --- the prover, end to end ----------------------------------------------------------

@pytest.mark.parametrize("name", TRUE)
def test_true_claims_are_proved_by_substitution_and_the_checker_accepts(name, proved):
    result = proved[name]
    assert result.proof["method"] == "substitution"
    said = check_document(result.document)
    assert "proved for every m" in said and "on the equality set" in said and "= 0" in said


def test_the_program_carries_the_equalities_and_the_claim_object_their_count(proved):
    doc = proved["recovery"].document
    assert len(doc["program"]["equalities"]) == 2 and doc["claim"]["equalities"] == 2
    assert doc["proof"]["substitutions"] == [{"equality": 0, "input": "beta"},
                                             {"equality": 1, "input": "eps"}]


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_never_proved(name):
    result = attempt(CLAIMS[name])
    assert not result.proved and result.document is None
    assert result.reason.startswith("not proved: normal form")


def _claim(cid, residual, equalities, eps_domain="real", kind="identity", strict=False):
    return Claim(id=cid, source="a test", statement="x", kind=kind, strict=strict,
                 variables=(Var("y", ("m",)), Var("gamma", (), "positive"), Var("beta"),
                            Var("eps", (), eps_domain)),
                 sizes={"m": (2, 4)}, equalities=equalities, residual=residual)


def _beta_mu(xp, y, gamma, beta, eps):
    return beta - xp.mean(y)


def test_an_equality_is_not_a_hypothesis_it_must_be_used_to_prove():
    # the residual is 0 only on the set: without the substitution it is β − μ
    claim = _claim("t/beta", lambda xp, y, gamma, beta, eps: (beta - xp.mean(y)) * gamma, (_beta_mu,))
    result = attempt(claim)
    assert result.proved, result.reason
    assert result.proof == {"method": "substitution", "substitutions": [{"equality": 0, "input": "beta"}]}


def test_a_root_is_never_substituted():
    # γ = σ fixes γ as a root of the batch: the checker's root symbols are numbered by
    # the replay, so a value holding one is refused (and the claim is not proved here)
    def gamma_sigma(xp, y, gamma, beta, eps):
        return gamma - xp.sqrt(xp.mean((y - xp.mean(y)) ** 2) + eps)

    def residual(xp, y, gamma, beta, eps):
        return gamma ** 2 - xp.mean((y - xp.mean(y)) ** 2) - eps

    result = attempt(_claim("t/root", residual, (gamma_sigma,), kind="identity"))
    assert result.status == "not-proved" and result.document is None, result.reason
    assert result.reason.startswith("not proved: normal form")


def test_a_strict_inequality_zero_on_the_set_is_not_proved():
    claim = _claim("t/strict", lambda xp, y, gamma, beta, eps: beta - xp.mean(y), (_beta_mu,),
                   kind="inequality", strict=True)
    result = attempt(claim)
    assert result.status == "not-proved" and result.document is None, result.reason


def test_an_inequality_zero_on_the_set_is_proved_with_equality():
    claim = _claim("t/ineq", lambda xp, y, gamma, beta, eps: beta - xp.mean(y), (_beta_mu,),
                   kind="inequality")
    result = attempt(claim)
    assert result.proved and result.equality, result.reason
    assert "with equality" in check_document(result.document)


def test_an_equality_whose_set_misses_the_domain_is_not_proved():
    # ε = −γ² − 1 < 0 against ε > 0: no instance lies on the set, so the substitution's
    # proof would be vacuous; neither a witness nor a generic instance is found
    def off(xp, y, gamma, beta, eps):
        return eps + gamma ** 2 + 1

    claim = _claim("t/empty", lambda xp, y, gamma, beta, eps: eps + gamma ** 2 + 1, (off,),
                   eps_domain="positive")
    result = attempt(claim)
    assert not result.proved
    assert "no exact instance" in result.reason


def test_the_second_reading_refuses_to_compare_off_the_set():
    from bnproof import reading
    from bnproof.symbolic_m.crosscheck import second_reading

    def off(xp, y, gamma, beta, eps):
        return eps + gamma ** 2 + 1

    claim = _claim("t/off", lambda xp, y, gamma, beta, eps: eps + gamma ** 2 + 1, (off,),
                   eps_domain="positive")
    answer = second_reading(claim, {}, program_for(claim, {}))
    assert answer.status == reading.INCONCLUSIVE and "equality" in answer.detail


def test_the_second_reading_compares_on_the_set(proved):
    from bnproof import reading
    from bnproof.symbolic_m.crosscheck import second_reading

    claim = CLAIMS["recovery"]
    answer = second_reading(claim, {}, proved["recovery"].program)
    assert answer.status == reading.AGREES
    assert answer.compared > 0


# --- the checker, against forged certificates -------------------------------------------

def test_a_substitution_for_the_wrong_input_is_rejected(proved):
    doc = forged(proved["recovery"].document,
                 lambda d: d["proof"]["substitutions"][0].update(input="gamma"))
    with pytest.raises(Rejected, match="coefficient of gamma|not linear"):
        check_document(doc)


def test_a_substitution_of_the_wrong_equality_is_rejected(proved):
    # equality 1 fixes ε, not β: the checker solves it itself
    doc = forged(proved["recovery"].document,
                 lambda d: d["proof"]["substitutions"][0].update(equality=1))
    with pytest.raises(Rejected):
        check_document(doc)


def test_a_substitution_of_an_equality_the_claim_does_not_have_is_rejected(proved):
    doc = forged(proved["recovery"].document,
                 lambda d: d["proof"]["substitutions"][1].update(equality=2))
    with pytest.raises(Rejected, match="not the index of one of the claim's 2 equalities"):
        check_document(doc)


def test_one_substitution_too_few_is_rejected(proved):
    doc = forged(proved["recovery"].document, lambda d: d["proof"]["substitutions"].pop())
    with pytest.raises(Rejected, match="does not reduce to 0"):
        check_document(doc)


def test_dropping_the_equalities_is_rejected(proved):
    def drop(d):
        del d["program"]["equalities"]

    with pytest.raises(Rejected, match="program.equalities is missing"):
        check_document(forged(proved["recovery"].document, drop))

    def drop_both(d):
        del d["program"]["equalities"]
        del d["claim"]["equalities"]

    with pytest.raises(Rejected, match="index of one of the claim's 0 equalities"):
        check_document(forged(proved["recovery"].document, drop_both))


def test_an_added_equality_is_not_the_claims(proved, tmp_path):
    # an equality the claim does not have (here its own residual, 0 at the witness) is
    # consistent for the checker alone, which trusts the program; check --claim binds
    # the program and the count to the claim file's, and rejects it
    import json

    def add(d):
        d["program"]["equalities"].append(d["program"]["residual"])
        d["claim"]["equalities"] = 3

    doc = forged(proved["recovery"].document, add)
    assert "3 equalities = 0" in check_document(doc)
    path = tmp_path / "forged.proof.json"
    path.write_text(json.dumps(doc))
    assert not bnproof.check(path, claim=CLAIMS["recovery"]).accepted
    path.write_text(json.dumps(proved["recovery"].document))
    assert bnproof.check(path, claim=CLAIMS["recovery"]).accepted


def test_a_witness_off_the_set_is_rejected(proved):
    from fractions import Fraction

    def move(d):
        d["witness"]["inputs"]["beta"] = str(Fraction(d["witness"]["inputs"]["beta"]) + 1)

    with pytest.raises(Rejected, match="equality"):
        check_document(forged(proved["recovery"].document, move))


def test_a_substitution_proof_of_a_strict_claim_is_rejected(proved):
    def strict(d):
        d["claim"]["kind"] = "strict-inequality"
        d["program"]["kind"], d["program"]["strict"] = "inequality", True

    with pytest.raises(Rejected, match="strict"):
        check_document(forged(proved["mean"].document, strict))


def _root_certificate(substitutions):
    """A certificate of β − μ = 0 under β = μ and γ = σ (the generic instances of γ = σ
    are irrational, so the prover withholds it: it is written here), at the witness
    y = (0, 2), ε = 0, where σ = γ = β = 1."""
    from bnproof.certificate.program import claim_object
    from bnproof.certificate.proof import document

    def gamma_sigma(xp, y, gamma, beta, eps):
        return gamma - xp.sqrt(xp.mean((y - xp.mean(y)) ** 2) + eps)

    claim = _claim("t/root-forged", lambda xp, y, gamma, beta, eps: (beta - xp.mean(y)) * gamma,
                   (_beta_mu, gamma_sigma))
    program = program_for(claim, {})
    witness = {"m": 2, "inputs": {"y": [0, 2], "gamma": 1, "beta": 1, "eps": 0}}
    return document(claim_object(claim, 2), program, {"method": "substitution",
                                                      "substitutions": substitutions}, witness)


def test_a_substitution_holding_a_root_is_rejected():
    assert "proved for every m" in check_document(_root_certificate([{"equality": 0, "input": "beta"}]))
    with pytest.raises(Rejected, match="square root"):
        check_document(_root_certificate([{"equality": 1, "input": "gamma"},
                                          {"equality": 0, "input": "beta"}]))


def test_the_prover_compares_a_proof_on_a_set_with_no_rational_point():
    # β = μ proves it; γ = σ has no rational generic instance, so the gate draws algebraic
    # ones (γ = √(σ²), tests/test_gate_on_sets.py): proved, and the checker accepts
    def gamma_sigma(xp, y, gamma, beta, eps):
        return gamma - xp.sqrt(xp.mean((y - xp.mean(y)) ** 2) + eps)

    claim = _claim("t/root-gate", lambda xp, y, gamma, beta, eps: (beta - xp.mean(y)) * gamma,
                   (_beta_mu, gamma_sigma))
    result = attempt(claim)
    assert result.proved, result.reason
    assert "proved for every m" in check_document(result.document)


def test_the_smt_export_states_the_equalities(proved):
    # without them, the solver would be asked about the claim off its set
    from bnproof.certificate.smtlib_proof import proof_smt

    text = proof_smt(proved["recovery"].document, 2)
    assert "; equality 0 = 0" in text and "; equality 1 = 0" in text


# --- a batch sum fixed by an equality (Σy = 0) ---------------------------------------------

def test_a_batch_sum_is_substituted_wherever_it_is_formed(proved):
    # BN on a centered batch is RMSNorm: Σy replaced inside σ's radicand makes the two
    # roots one
    doc = proved["centered"].document
    (sub,) = doc["proof"]["substitutions"]
    assert set(sub) == {"equality", "sum"}
    assert doc["program"]["steps"][sub["sum"]][0] == "sum"


def test_a_sum_substitution_naming_a_step_that_is_not_a_batch_sum_is_rejected(proved):
    doc = proved["centered"].document
    residual = doc["program"]["residual"]
    with pytest.raises(Rejected, match="is not a batch sum"):
        check_document(forged(doc, lambda d: d["proof"]["substitutions"][0].update(sum=residual)))
    m_step = next(i for i, s in enumerate(doc["program"]["steps"]) if s == ["m"])
    with pytest.raises(Rejected, match="is not a batch sum"):  # Σ1 = m is never replaced
        check_document(forged(doc, lambda d: d["proof"]["substitutions"][0].update(sum=m_step)))


def test_a_sum_substitution_for_a_wrong_equality_is_rejected():
    # Σy = 1 substituted as if it were Σy = 0 cannot be written: the checker solves it
    claim = CLAIMS["centered-at-one"]
    program = program_for(claim, {})
    from bnproof.certificate.program import claim_object
    from bnproof.certificate.proof import document

    sum_step = next(i for i, s in enumerate(program["steps"]) if s[0] == "sum")
    doc = document(claim_object(claim, 1), program,
                   {"method": "substitution", "substitutions": [{"equality": 0, "sum": sum_step}]},
                   {"m": 2, "inputs": {"y": ["0", "1"], "eps": "1"}})
    with pytest.raises(Rejected, match="does not reduce to 0"):
        check_document(doc)


def test_a_replaced_sum_does_not_reach_the_callers_algebra():
    # the nonnegative search after a failed substitution must see Σy as itself
    from bnproof.symbolic_m.equalities import substitution_proof
    from bnproof.symbolic_m.evaluate import Replay

    program = program_for(CLAIMS["centered-at-one"], {})
    replay = Replay(program)
    before = replay.alg.sum_atom(((replay.alg.gen(("in", "y")), 1),))
    assert substitution_proof(program, replay) is None  # given the caller's replay, even so
    assert not replay.alg.replaced
    assert replay.alg.sum_atom(((replay.alg.gen(("in", "y")), 1),)).n == before.n


def test_instances_on_the_set_are_solved_with_the_claims_own_equalities():
    # search/equalities.py caches a claim's trace by id(claim); a freed claim's id is
    # reused, and another claim's equalities (here eps = γ² − σ², against eps > 0) then
    # moved the instance: the second reading was inconclusive and a true claim was not
    # proved, depending on the garbage collector
    from fractions import Fraction

    from bnproof.claims.decide import trace
    from bnproof.search import equalities as search_equalities

    mean, other = CLAIMS["mean"], CLAIMS["variance"]
    sizes = (("m", 2),)
    search_equalities._CACHE[(id(mean), sizes)] = (other, trace(other, {"m": 2}))
    instance = {"y": [Fraction(1), Fraction(3)], "gamma": Fraction(2), "beta": Fraction(5), "eps": Fraction(1)}
    moved = search_equalities.on_constraints(mean, instance)
    assert moved is not instance  # moved onto mean's set: β = μ
    assert moved["beta"] == sum(moved["y"]) / 2 and moved["eps"] == 1


def test_a_claim_not_proved_says_what_the_equalities_left():
    result = attempt(CLAIMS["recovery-wrong-sign"])
    assert "with beta (equality 0), eps (equality 1) substituted: normal form (4(Σy)²) / (m)" in result.reason
    result = attempt(_claim("t/none", lambda xp, y, gamma, beta, eps: beta - xp.mean(y),
                            (lambda xp, y, gamma, beta, eps: beta ** 2 - xp.mean(y) ** 2,)))
    assert "no equality fixes a scalar input or a batch sum" in result.reason
