"""Shrinking in `fuzz` walks through exactly refuted instances only, drops samples
in runs, and reports only an instance whose certificate the checker accepted.

The toy claim (z_1 ≤ β + |γ|, false) is refuted by y = (1, 0, …, 0) of any
length m ≥ 3 with γ = 1, β = 0: ŷ_1 = √(m − 1) > 1.  At m = 2, ŷ = ±1 and it
holds; a constant y has σ = 0, outside the claim.  So from m = 64 the shrink
must end at m = 3, and dropping runs of samples gets there in about 2·log₂ 64
exact decisions where dropping one sample at a time took at least 61.
"""

import json
import time
from fractions import Fraction

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats
from bnproof.claims.decide import REFUTED, decide
from bnproof.search import certify, fuzz
from bnproof.search.certify import Judge
from bnproof.search.exactify import shrink

TOY = Claim(
    id="test/bounded-bn-output", source="a test", statement=r"z_b \le \beta + |\gamma|",
    variables=(Var("y", ("m",)), Var("gamma", (), "nonzero"), Var("beta", ())),
    sizes={"m": (2, 64)},
    hypotheses=(lambda xp, y, gamma, beta: stats(xp, y)[1] ** 2,),
    residual=lambda xp, y, gamma, beta: beta + xp.abs(gamma) - batch_norm(xp, y, gamma, beta)[0],
)


def spike(m: int, gamma: int = 1) -> dict:
    return {"y": [Fraction(1)] + [Fraction(0)] * (m - 1), "gamma": Fraction(gamma), "beta": Fraction(0)}


def test_sixty_four_samples_shrink_to_three_in_a_few_exact_decisions():
    judge = Judge(TOY)
    sizes_tried = []

    def accept(instance):
        sizes_tried.append(len(instance["y"]))
        return judge.refutes(instance)

    instance, decision = shrink(TOY, spike(64), judge.refutes(spike(64)), accept=accept)
    assert instance == spike(3) and decision.verdict == REFUTED
    dropping = [m for m in sizes_tried if m != 3]  # the tries before the last size was reached
    assert len(dropping) <= 24, sizes_tried
    assert 2 in sizes_tried  # it did try below the smallest size that fails, and kept m = 3


def test_every_step_of_shrinking_is_exactly_refuted():
    judge = Judge(TOY)
    start = {"y": [Fraction(-5), Fraction(3, 2), Fraction(7), Fraction(0), Fraction(-2, 3)],
             "gamma": Fraction(-3), "beta": Fraction(1, 2)}
    assert judge.refutes(start) is not None
    steps = []
    final, _ = shrink(TOY, start, None, accept=judge.refutes, on_improve=lambda i, d: steps.append(i))
    assert steps and steps[-1] == final
    for instance in steps:  # decided again, from scratch
        assert decide(TOY, instance).verdict == REFUTED, instance
    # the simplest refutation there is, reached through whole-variable sign flips
    assert final == spike(3)


def _refuse_below(monkeypatch, m: int):
    """The checker, as seen by the search, refuses certificates with fewer than m samples."""
    refused = []

    def checker(document):
        if len(document["instance"]["y"]) < m:
            refused.append(len(document["instance"]["y"]))
            raise Rejected("refused by this test")
        return check_document(document)

    monkeypatch.setattr(certify, "check_document", checker)
    return refused


def test_the_shrunk_instance_is_certified_or_the_last_certified_step_is_kept(monkeypatch):
    refused = _refuse_below(monkeypatch, 5)
    judge = Judge(TOY)
    found = judge.confirm(spike(64))
    assert found is not None
    reports = []
    final = fuzz._shrunk(TOY, judge, found, time.monotonic() + 600, lambda kind, r: reports.append(r))
    assert len(final.instance["y"]) == 5 and refused  # m = 3 and 4 were refused, so it walked back
    assert reports == [final]
    # what is reported is what the real checker accepts, at that very instance
    document = json.loads(final.document)
    assert check_document(document).startswith("test/bounded-bn-output refuted")
    assert document["instance"]["y"] == [str(x) for x in final.instance["y"]]
    assert decide(TOY, final.instance).verdict == REFUTED


def test_when_the_checker_refuses_every_step_the_first_certified_one_stands(monkeypatch):
    _refuse_below(monkeypatch, 64)
    judge = Judge(TOY)
    found = judge.confirm(spike(64))
    reports = []
    final = fuzz._shrunk(TOY, judge, found, time.monotonic() + 600, lambda kind, r: reports.append(r))
    assert final is found and reports == []  # nothing uncertified is ever reported


def test_deciding_never_certifies_and_each_instance_is_certified_once(monkeypatch):
    calls = []

    def checker(document):
        calls.append(document["instance"]["y"])
        return check_document(document)

    monkeypatch.setattr(certify, "check_document", checker)
    judge = Judge(TOY)
    assert judge.refutes(spike(4)) is not None and calls == []
    assert judge.refutes({"y": [Fraction(0)] * 3, "gamma": Fraction(1), "beta": Fraction(0)}) is None
    first = judge.confirm(spike(4))
    again = judge.certify(spike(4))
    assert first is again and len(calls) == 1
    # an instance that does not refute is never certified, whatever is asked
    assert judge.certify({"y": [Fraction(1), Fraction(0)], "gamma": Fraction(1), "beta": Fraction(0)}) is None
    assert len(calls) == 1


@pytest.mark.parametrize("m", [64])
def test_fuzz_at_a_fixed_large_size_reports_a_small_certified_counterexample(m):
    outcome = fuzz.fuzz(TOY, seed=0, max_examples=50, time_budget=120, sizes={"m": m}, use_jax=False)
    assert outcome.verdict == REFUTED
    assert len(outcome.counterexample["y"]) == 3
    assert outcome.first_seconds <= outcome.shrunk_seconds <= outcome.seconds
    assert check_document(json.loads(outcome.refutation.document))
