"""Session 28: proof work not repeated (issue 23, proof time), and the output defects of
issue 24 §2 and §3 (the batch size's own name in `prove`'s line, `list`'s proof column,
FuzzResult's witness, the law in an expectation counterexample's LaTeX, declared symbols
in the Unicode normal forms)."""

from __future__ import annotations

from pathlib import Path

from bnproof.claims import Claim, Law, Var
from bnproof.claims.api import load_file
from bnproof.symbolic_m import moments_n_prove as MP
from bnproof.symbolic_m.prove import prove_claim

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def _unbiased_mean(k_range):
    """E[μ_B] = E[X], with the law's number of points k over k_range."""
    return Claim(id="s28/mean-of-the-mean", source="t", statement=r"\mathbb{E}[\mu_B] = \mathbb{E}[X]",
                 kind="identity", variables=(Law("X", (), "k"), Var("batch", ("m",))),
                 sizes={"k": k_range, "m": (2, 6)},
                 residual=lambda xp, X, batch: xp.expect(lambda xp, B: xp.mean(B), X, batch.shape[0])
                 - xp.expect(lambda xp, B: B[0], X, 1))


def _counting(monkeypatch):
    counts = {"trace": 0, "reading": 0}
    trace, reading = MP.program_for, MP.second_reading

    def counted_trace(claim):
        counts["trace"] += 1
        return trace(claim)

    def counted_reading(*args, **kwargs):
        counts["reading"] += 1
        return reading(*args, **kwargs)

    monkeypatch.setattr(MP, "program_for", counted_trace)
    monkeypatch.setattr(MP, "second_reading", counted_reading)
    return counts


def test_moments_program_traced_once_and_each_distinct_reading_made_once(monkeypatch):
    """The program of an expectations claim is the same at every law size k: one trace for
    the five attempts k = 1..5, and one second reading per distinct reading size (k = 4, 5
    are read at READ_POINTS = 3 points, as k = 3 is).  Before: five of each."""
    counts = _counting(monkeypatch)
    claim = _unbiased_mean((1, 5))
    attempts = prove_claim(claim)
    assert [a.fixed for a in attempts] == [{"k": k} for k in range(1, 6)]
    assert all(a.proved for a in attempts), [a.reason for a in attempts]
    assert all(a.document is not None for a in attempts)  # each size still has its certificate
    assert MP.READ_POINTS == 3
    assert counts == {"trace": 1, "reading": 3}
    assert attempts[0].program == attempts[4].program and attempts[0].program is not attempts[4].program


def test_moments_second_proof_of_the_same_claim_reads_it_again(monkeypatch):
    """Nothing is kept from one proof to the next: a second prove_claim traces and reads afresh."""
    counts = _counting(monkeypatch)
    claim = _unbiased_mean((1, 2))
    prove_claim(claim)
    prove_claim(claim)
    assert counts == {"trace": 2, "reading": 4}


def test_moments_gallery_still_proved_and_near_misses_not():
    claims = {c.id.rsplit("/", 1)[1]: c for c in load_file(EXAMPLES / "every_n_moments.py")}
    for name in ("mean-of-the-mean", "variance-of-the-mean"):
        assert all(a.proved for a in prove_claim(claims[name]))
    for name in ("swapped", "variance-of-the-mean-over-m-squared"):
        attempts = prove_claim(claims[name])
        assert len(attempts) == 1 and not attempts[0].proved


# ---------------------------------------------------------------- 2. the batch size's own name

def _mean_shift(batch: str, kind: str = "identity"):
    """mean(y + c) − mean(y) − c = 0 over a batch y of length `batch`."""
    return Claim(id=f"s28/shift-{batch}", source="t", statement=r"\bar{y + c} = \bar y + c", kind=kind,
                 variables=(Var("y", (batch,)), Var("c")), sizes={batch: (2, 5)},
                 residual=lambda xp, y, c: xp.mean(y + c) - xp.mean(y) - c)


def test_prove_line_names_the_claims_batch_size():
    """`prove`'s line said "proved for every m" of a claim whose batch size is n (or B)."""
    import bnproof

    gallery = bnproof.load(str(EXAMPLES / "every_m_shapes.py"))
    named_n = next(c for c in gallery if c.id.endswith("/batch-named-n"))
    result = bnproof.prove(named_n)
    assert result.proved and result.text == "proved for every n", result.text
    assert result.line().startswith("gallery/every_m_shapes/batch-named-n: proved for every n")
    assert bnproof.prove(_mean_shift("B")).text == "proved for every B"
    assert bnproof.prove(_mean_shift("m")).text == "proved for every m"
