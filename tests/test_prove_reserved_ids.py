"""A claim whose id reads as one of the papers' claims cannot be proved (the checker
refuses such a certificate: checker/named.py).  `prove` says so before the proof is
done, and says what to change, rather than after it, as the checker's rejection."""

from bnproof.claims import Claim, Var
from bnproof.symbolic_m.prove import prove_claim


def _mean_zero(xp, y):
    return xp.sum(y - xp.mean(y))


def _claim(cid: str) -> Claim:
    return Claim(id=cid, source="a user's note", statement=r"\sum_b (y_b - \mu) = 0",
                 variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, kind="identity", residual=_mean_zero)


def test_a_name_in_a_papers_namespace_is_refused_before_the_proof_with_what_to_change():
    heard = []
    attempts = prove_claim(_claim("santurkar2018/my-mean"), on_attempt=heard.append)
    assert len(attempts) == 1 and not attempts[0].proved and heard == attempts
    assert "reads as the name of a claim of the papers" in attempts[0].reason
    assert "rename the claim" in attempts[0].reason
    assert attempts[0].program is None  # nothing was traced: refused before the proof


def test_an_authors_name_and_an_abbreviation_are_refused_as_the_checker_reads_them():
    for cid in ("dannemann-junike/remark-2.7", "thm-4.1"):
        (only,) = prove_claim(_claim(cid))
        assert not only.proved and "reads as the name of a claim of the papers" in only.reason, cid
        assert "rename the claim" in only.reason and only.program is None, cid


def test_a_refuted_papers_claim_is_still_attempted_so_its_normal_form_says_why():
    from bnproof.claims.api import named

    (only,) = prove_claim(named("santurkar2018/theorem-4.1"))
    assert not only.proved and only.program is not None and "normal form" in only.reason


def test_the_same_claim_under_its_own_name_is_proved():
    attempts = prove_claim(_claim("mine/my-mean"))
    assert [a.proved for a in attempts] == [True]
