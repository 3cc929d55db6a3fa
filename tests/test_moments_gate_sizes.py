"""The expectations prover's second reading compares at every declared n (a branch on
`type(n) is int` at one n is invisible to any traced size), and a declared range past
its cap withholds the proof with the reason: never "proved" where it was not compared."""

from pathlib import Path

import pytest

import bnproof
from bnproof.errors import Disagreement
from bnproof.symbolic_m.prove import prove_claim

CLAIMS = {c.id: c for c in bnproof.load(str(Path(__file__).parent / "redteam_claims" / "moments_size_branch_type.py"))}


def test_a_branch_on_type_at_a_declared_n_is_a_disagreement():
    with pytest.raises(Disagreement, match="n = 6"):
        prove_claim(CLAIMS["redteam/moments-size-branch-type"])


def test_a_range_past_the_cap_is_not_proved_and_says_why():
    attempts = prove_claim(CLAIMS["redteam/moments-wide-range"])
    assert attempts and not any(a.proved for a in attempts)
    assert "compares at n <= 8 only" in attempts[-1].reason
