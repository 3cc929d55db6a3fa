"""True existential claims whose witness enters through max, abs or a square root
(issue 23, "Deciding true existential claims"): a solver's unknown costs a share of
the time, never the search; witnesses come from the numeric search rounded to
simple fractions, from activation patterns' linear pieces and from the claim's
hints (irrational ones composed with the claim's program); every witness is
confirmed exactly, read a second time, and confirmed by the independent checker
from a witness certificate, which forgeries do not pass."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path

import pytest
import z3

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.claims.api import Claim, Var, load_file
from bnproof.claims.blocks import batch_norm, normalize
from bnproof.claims.exists import NO_WITNESS, UNDECIDED, WITNESS, decide_inner, trace
from tamper import seal

ROOT = Path(__file__).resolve().parents[1]
GALLERY = ROOT / "docs" / "examples" / "existential_witnesses.py"
M = {"m": (2, 4)}


def spread(xp, y, *_):
    return xp.sum((y - xp.mean(y)) ** 2)


SQUARE = Claim("t/square-shifted", "test", r"\forall x\ \exists p : p^2 = x + 2",
               lambda xp, x, p: p * p - (x + 2), (Var("x"),), kind="identity", exists=(Var("p"),))
RELU_ABS = Claim("t/relu-abs", "test", r"\forall x\ \exists w : \mathrm{relu}(w x) = |x|",
                 lambda xp, x, w: xp.maximum(w * x, 0) - xp.abs(x), (Var("x"),), kind="identity",
                 exists=(Var("w"),))
MEAN_ABS = Claim("t/mean-abs", "test", "mean |gamma yhat + beta| = t",
                 lambda xp, y, t, g, b: xp.mean(xp.abs(batch_norm(xp, y, g, b))) - t,
                 (Var("y", ("m",)), Var("t", (), "positive")), sizes=M, kind="identity",
                 exists=(Var("g"), Var("b")), hypotheses=(lambda xp, y, t, g, b: spread(xp, y),))


def sigma3(**more):
    """sigma(p) = t for p in R^3: no rational witness exists (2 (a^2 + ab + b^2) = 3 t^2 has
    no rational solution, 2 being inert in Q(sqrt(-3))), so only a hint's program can do."""
    return Claim("t/sigma3", "test", r"\forall t > 0\ \exists p \in R^3 : \sigma(p) = t",
                 lambda xp, t, p: normalize(xp, p)[1] - t, (Var("t", (), "positive"),),
                 kind="identity", exists=(Var("p", (3,)),), **more)


SIGMA3_HINT = lambda xp, t: t * xp.sqrt(xp.q(3, 2)) * xp.asarray([1, -1, 0])  # noqa: E731


# --- 1. a solver's unknown spends a share, never the search ------------------------

class FakeTime:
    """A clock that only the fake solvers move: each z3 check spends the whole time it
    was granted (as z3 thinking to its limit before 'unknown'), whatever the machine."""

    def __init__(self):
        self.now = 1000.0
        self.calls = []  # (clock, seconds granted, answer)


@pytest.fixture
def fake_solvers(monkeypatch):
    clock = FakeTime()
    granted = {}
    real_set, real_check = z3.Solver.set, z3.Solver.check

    def fake_set(self, *args, **keys):
        if args[:1] == ("timeout",):
            granted[id(self)] = args[1] / 1000
            return real_set(self, "timeout", 20_000)
        return real_set(self, *args, **keys)

    def fake_check(self, *args):
        seconds = granted.get(id(self), float("inf"))  # no limit: z3 may think forever
        answer = real_check(self, *args)
        if answer == z3.unsat:  # what is false is seen at once
            clock.calls.append((clock.now, seconds, "unsat"))
            clock.now += 0.01
            return answer
        clock.calls.append((clock.now, seconds, "unknown"))
        clock.now += seconds
        return z3.unknown

    def fake_solve(text, solver, timeout=60.0):
        s = z3.Solver()
        s.from_string(text.replace("(check-sat)", ""))
        clock.now += min(timeout, 0.1)
        return "unsat" if real_check(s) == z3.unsat else "unknown"

    monkeypatch.setattr(z3.Solver, "set", fake_set)
    monkeypatch.setattr(z3.Solver, "check", fake_check)
    monkeypatch.setattr("bnproof.certificate.solvers.solve", fake_solve)
    monkeypatch.setattr(time, "monotonic", lambda: clock.now)
    return clock


def test_a_solver_unknown_does_not_spend_the_search(fake_solvers):
    """p^2 = x + 2 fails only at x < -2; with seed 3 the first such instance (x = -3) is the
    twelfth, after nine where x + 2 is no rational square (no numeric point rounds to a
    witness there) and z3 answers unknown each time, thinking to its limit.  At the default
    20 s budget the search used to give the first unknown all 20 s and end undecided."""
    clock = fake_solvers
    start = clock.now
    result = bnproof.fuzz(SQUARE, seed=3, max_examples=200, time_budget=20.0, jax=False, prove=False)
    assert result.verdict == "refuted", result.reason
    assert result.counterexample == {"x": Fraction(-3)}
    unknown = [c for c in clock.calls if c[2] == "unknown"]
    assert len(unknown) >= 4  # several instances' unknowns before the refutation
    for at, seconds, _ in clock.calls:  # each call a bounded share of what was left
        assert seconds <= (start + 20.0 - at) / 4, (at - start, seconds)


def test_each_instance_gets_a_fair_share_of_what_is_left(fake_solvers):
    from bnproof.claims import exists_budget as budget

    clock = fake_solvers
    deadline = clock.now + 20.0
    allowance = budget.for_instance(deadline)
    assert allowance.left() == pytest.approx(20.0 / budget.FAIR_INSTANCES)
    assert allowance.share(1 / 3) == pytest.approx(20.0 / budget.FAIR_INSTANCES / 3)
    clock.now = deadline - 1.0  # near the end: never past the search's deadline
    assert budget.for_instance(deadline).left() <= 1.0
    clock.now = deadline + 1.0
    assert budget.for_instance(deadline).left() == 0.0


# --- 2. the numeric search, rounded to simple fractions ------------------------------

def z3_unknown_on(monkeypatch, purposes):
    """z3's answer 'unknown' to the questions of these purposes ("witness": the whole
    question), spending nothing; the others are asked for real."""
    from bnproof.claims import exists_budget as budget

    real = budget.z3_check

    def check(solver, seconds, allowance, purpose):
        if purpose in purposes:
            allowance.events.append(budget.Event("z3", purpose, seconds, "unknown"))
            return "unknown"
        return real(solver, seconds, allowance, purpose)

    monkeypatch.setattr(budget, "z3_check", check)


@pytest.mark.parametrize("use_jax", [False, True], ids=["numpy", "jax"])
def test_the_numeric_search_rounded_gives_a_witness_z3_does_not(monkeypatch, use_jax):
    from bnproof.search.witness_numeric import NumericWitness

    z3_unknown_on(monkeypatch, {"witness"})
    sizes = {"m": 4}
    traced = trace(MEAN_ABS, sizes)
    instance = {"y": [Fraction(1), Fraction(-1), Fraction(3), Fraction(1)], "t": Fraction(1, 4)}
    alone = decide_inner(MEAN_ABS, traced, instance, sizes, solver_seconds=5)
    assert alone.verdict == UNDECIDED  # z3 unknown and nothing else to ask
    numeric = NumericWitness(MEAN_ABS, sizes, traced.coordinates, use_jax=use_jax, seed=0)
    assert (numeric._jax is not None) == use_jax  # JAX float64 where asked (installed here)
    inner = decide_inner(MEAN_ABS, traced, instance, sizes, solver_seconds=5, numeric=numeric)
    assert inner.verdict == WITNESS, inner.detail
    assert all(isinstance(v, Fraction) and v.denominator <= 16 for v in inner.witness.values())


def test_a_claim_jax_cannot_run_is_searched_in_numpy():
    from bnproof.search.witness_numeric import NumericWitness

    def fails(*_):
        raise TypeError("not compilable")

    numeric = NumericWitness(RELU_ABS, {}, trace(RELU_ABS, {}).coordinates, use_jax=False, seed=0)
    numeric._jax = (fails, fails)
    points = numeric.search({"x": Fraction(-2)}, time.monotonic() + 60)
    assert numeric._jax is None and points and points[0].violation < 1e-20


def test_rounding_tries_small_integers_and_simple_fractions_first():
    from bnproof.claims.exists_rational import pins, rounded

    half, third = Fraction(1, 2), Fraction(1, 3)
    # denominators 1, 2, 3 and then nothing new: the floats' own long fractions never come
    assert rounded([0.49999999997, -2.0000000001, 0.33333333]) == \
        [[0, -2, 0], [half, -2, half], [half, -2, third]]
    assert rounded([float("nan"), 1.0]) == []
    assert pins([0.7, 3.2], free=(1,))[0] == {0: 0}  # zero first, then near the point
    assert {0: 1} in pins([0.7, 3.2], free=(1,))


# --- 3. case splits by activation pattern ---------------------------------------------

def test_an_activation_pattern_s_linear_piece_gives_the_witness(monkeypatch):
    """relu(w x) = |x|: with z3 unknown on the whole question and no numeric search, the
    piece where max(w x, 0) takes w x (with w x >= 0) is a linear program z3 solves."""
    z3_unknown_on(monkeypatch, {"witness"})
    traced = trace(RELU_ABS, {})
    for x, w in ((Fraction(-3, 2), Fraction(-1)), (Fraction(2), Fraction(1))):
        inner = decide_inner(RELU_ABS, traced, {"x": x}, {}, solver_seconds=5)
        assert inner.verdict == WITNESS, inner.detail
        assert "activation pattern" in inner.detail
        assert inner.witness["w"] * x == abs(x)  # the piece's witness, confirmed on the claim


def test_the_pieces_and_their_conditions():
    from bnproof.claims.exists_pieces import applies, conditions, piece, split_steps

    traced = trace(RELU_ABS, {})
    split = split_steps(traced)
    assert [traced.steps[k][0] for k in split] == ["max"]  # abs(x) reads x alone: no split
    assert applies(traced, {"w"})
    k = split[0]
    a, b = traced.steps[k][1:]
    assert piece(traced.steps, {k: 1})[k] == ["pow", b, 1]
    assert conditions(traced.steps, {k: 0}) == [(a, b)]  # max takes a where a - b >= 0
    assert applies(trace(MEAN_ABS, {"m": 2}), {"g", "b"})  # |g yhat_b + b|: affine once split
    assert not applies(trace(sigma3(), {}), {"p"})  # p under a square root: no linear pieces


# --- 4. hints ------------------------------------------------------------------------

def test_an_irrational_hint_is_a_witness_the_checker_confirms(tmp_path):
    without = bnproof.fuzz(sigma3(), seed=0, max_examples=8, time_budget=60, jax=False, prove=False)
    assert without.verdict == "undecided"  # never refuted, and no rational witness to find
    claim = sigma3(hints=(SIGMA3_HINT,))
    result = bnproof.fuzz(claim, seed=0, max_examples=8, time_budget=60, jax=False, prove=False,
                          out_dir=tmp_path)
    assert result.verdict == "survived", result.reason
    doc = json.loads(result._outcome.witnesses)
    entries = doc["parts"][0]["witnessed"]
    assert entries and all(e == {"instance": e["instance"], "hint": 0} for e in entries)
    assert "a hint's program" in check_document(doc)
    path = tmp_path / "t" / "sigma3.witnesses.json"
    assert path.read_text(encoding="ascii") == result._outcome.witnesses
    checked = bnproof.check(path, claim=claim)
    assert checked.accepted, checked.line
    assert "holds at every witness" in checked.line


def test_verify_data_reads_a_hint_s_witness_a_second_time():
    result = bnproof.verify(sigma3(hints=(SIGMA3_HINT,)), {"t": 1})
    assert result.verdict == "holds", result.reason
    assert "hint 1's values" in result.reason


def test_a_wrong_hint_never_makes_a_verdict():
    """A hint that is wrong (w = 2), undefined somewhere (w = 1/x at 0), or cannot be traced
    (it raises) proposes nothing the engine confirms; the claim is decided as without it."""
    def broken(xp, x):
        raise RuntimeError("no hint here")

    claim = Claim(RELU_ABS.id, "test", "st", RELU_ABS.residual, (Var("x"),), kind="identity",
                  exists=(Var("w"),), hints=(lambda xp, x: 2, lambda xp, x: x / xp.abs(x) / x, broken))
    result = bnproof.fuzz(claim, seed=0, max_examples=15, time_budget=60, jax=False, prove=False)
    assert result.verdict == "survived", result.reason
    notes = result._outcome.notes
    assert any("hint 3 could not be traced: RuntimeError: no hint here" in n for n in notes)
    doc = json.loads(result._outcome.witnesses)
    for entry in doc["parts"][0]["witnessed"]:
        x = Fraction(entry["instance"]["x"])
        assert "hint" not in entry and Fraction(entry["witness"]["w"]) * x == abs(x)
    false = Claim("t/inverse", "test", "p x = 1", lambda xp, x, p: p * x - 1, (Var("x"),),
                  kind="identity", exists=(Var("p"),), hints=(lambda xp, x: 1 / x, lambda xp, x: 7))
    refuted = bnproof.fuzz(false, seed=0, max_examples=30, time_budget=60, jax=False, prove=False)
    assert refuted.verdict == "refuted" and refuted.counterexample == {"x": Fraction(0)}


def test_a_hint_whose_evaluation_fails_leaves_the_other_searches_to_decide(monkeypatch):
    from bnproof.claims import exists_hints

    def fails(*_):
        raise ArithmeticError("too much work in the hint")

    monkeypatch.setattr(exists_hints, "rational_values", fails)
    claim = Claim("t/h", "test", "st", RELU_ABS.residual, (Var("x"),), kind="identity", exists=(Var("w"),),
                  hints=(lambda xp, x: x,))
    inner = decide_inner(claim, trace(claim, {}), {"x": Fraction(-2)}, {})
    assert inner.verdict == WITNESS and inner.witness == {"w": Fraction(-1)}, inner.detail


def test_hints_are_declared_with_existential_variables():
    with pytest.raises(ValueError, match="hints propose values of existential variables"):
        Claim("t/h", "s", "st", lambda xp, x: x, (Var("x"),), hints=(lambda xp, x: 1,))
    with pytest.raises(ValueError, match="each hint is a function"):
        Claim("t/h", "s", "st", lambda xp, x, p: p, (Var("x"),), exists=(Var("p"),), hints=(3,))
    wrong = Claim("t/h", "s", "st", lambda xp, x, p: p - x, (Var("x"),), kind="identity",
                  exists=(Var("p"),), hints=(lambda xp, x: {"q": x}, lambda xp, x: xp.asarray([x, x])))
    traced = trace(wrong, {})
    assert traced.hints == (None, None)
    assert "existential variables are ['p']" in traced.hint_notes[0]
    assert "shape (2,)" in traced.hint_notes[1]


def test_a_hint_reads_a_law_as_the_residual_does():
    """A hint gets what the residual gets: the Distribution, not its two variables."""
    from bnproof.claims import Law

    def first(xp, B):
        return B[0]

    claim = Claim("t/mean-exists", "test", r"\exists p : p = E[X]",
                  lambda xp, X, p: p - xp.expect(first, X, 1), (Law("X", (), "k"),), sizes={"k": (2, 2)},
                  kind="identity", exists=(Var("p"),), hints=(lambda xp, X: xp.expect(first, X, 1),))
    traced = trace(claim, {"k": 2})
    assert traced.hints[0] is not None, traced.hint_notes
    instance = {"X_support": [Fraction(1), Fraction(3)], "X_weights": [Fraction(1), Fraction(3)]}
    inner = decide_inner(claim, traced, instance, {"k": 2})
    assert inner.verdict == WITNESS and inner.detail.startswith("hint 1")
    assert inner.witness == {"p": Fraction(5, 2)}


# --- 5. witness certificates and their forgeries -----------------------------------

@pytest.fixture(scope="module")
def certificates():
    """A rational and a hint's witness certificate, and their claims."""
    rational = bnproof.fuzz(RELU_ABS, seed=0, max_examples=6, time_budget=60, jax=False, prove=False)
    claim = sigma3(hints=(SIGMA3_HINT,))
    hinted = bnproof.fuzz(claim, seed=0, max_examples=4, time_budget=60, jax=False, prove=False)
    assert rational.verdict == hinted.verdict == "survived"
    return (RELU_ABS, json.loads(rational._outcome.witnesses)), (claim, json.loads(hinted._outcome.witnesses))


def rejected(doc) -> str:
    with pytest.raises(Rejected) as err:
        check_document(doc)
    return str(err.value)


def test_a_witness_certificate_is_accepted_as_evidence(certificates):
    (_, doc), (_, hinted) = certificates
    line = check_document(doc)
    assert line.startswith("t/relu-abs witnessed (a witness confirmed exactly at each of")
    assert "evidence, not a proof" in line and "trusting program sha256:" in line
    assert "of them a hint's program" in check_document(hinted)


def test_a_forged_rational_witness_is_rejected(certificates):
    (_, doc), _ = certificates
    forged = json.loads(json.dumps(doc))
    entry = forged["parts"][0]["witnessed"][0]
    x = Fraction(entry["instance"]["x"])
    entry["witness"]["w"] = str(-Fraction(entry["witness"]["w"]))  # the other piece: relu(-|x|) = 0
    assert x != 0
    assert "is not zero" in rejected(seal(forged))
    unsealed = json.loads(json.dumps(doc))
    unsealed["parts"][0]["witnessed"][0]["witness"]["w"] = "5"
    assert "digest mismatch" in rejected(unsealed)


def test_a_forged_hint_program_is_rejected(certificates):
    _, (_, doc) = certificates
    forged = json.loads(json.dumps(doc))
    steps = forged["parts"][0]["hints"][0]["steps"]
    k = next(i for i, s in enumerate(steps) if s[0] == "const" and s[1] == "3/2")
    steps[k] = ["const", "2"]  # t sqrt(2) (1, -1, 0): sigma = t sqrt(4/3), not t
    assert "is not zero" in rejected(seal(forged))
    reads_p = json.loads(json.dumps(doc))
    reads_p["parts"][0]["hints"][0]["steps"][0] = ["input", "p", 0]  # a hint reads x alone
    assert "not a variable of the instance" in rejected(seal(reads_p))
    missing = json.loads(json.dumps(doc))
    missing["parts"][0]["hints"] = [None]
    assert "not the index of one of this part's hints" in rejected(seal(missing))
    short = json.loads(json.dumps(doc))
    short["parts"][0]["hints"][0]["outputs"] = short["parts"][0]["hints"][0]["outputs"][:2]
    assert "expected 3 entries" in rejected(seal(short))


def test_a_witness_outside_the_hypotheses_or_of_the_wrong_sign_is_rejected():
    claim = Claim("t/band", "test", "x <= p <= x + 1", lambda xp, y, p: xp.asarray([p - y[0], y[0] + 1 - p]),
                  (Var("y", (2,)),), exists=(Var("p"),), hypotheses=(lambda xp, y, p: spread(xp, y),))
    result = bnproof.fuzz(claim, seed=0, max_examples=5, time_budget=60, jax=False, prove=False)
    assert result.verdict == "survived", result.reason
    doc = json.loads(result._outcome.witnesses)
    check_document(doc)
    low = json.loads(json.dumps(doc))
    entry = low["parts"][0]["witnessed"][0]
    entry["witness"]["p"] = str(Fraction(entry["instance"]["y"][0]) - 1)  # p - y0 = -1 < 0
    assert "is not nonnegative" in rejected(seal(low))
    flat = json.loads(json.dumps(doc))
    entry = flat["parts"][0]["witnessed"][0]
    entry["instance"]["y"] = ["1", "1"]  # sigma = 0: outside the hypotheses
    entry["witness"]["p"] = "1"
    assert "hypothesis 0" in rejected(seal(flat))
    depends = json.loads(json.dumps(doc))
    program = depends["parts"][0]["program"]
    program["hypotheses"] = [next(i for i, s in enumerate(program["steps"]) if s == ["input", "p"])]
    assert "depends on an existential variable" in rejected(seal(depends))


def test_the_work_limit_bounds_every_witness_together(certificates, monkeypatch):
    """Each entry's arithmetic counts against one limit: many entries, each within it, do
    not add up to many times the checker's work."""
    from bnproof.checker import exists_witnesses, program

    (_, doc), _ = certificates
    spent, real = [], exists_witnesses.evaluate

    def counted(ops, facts, work=None, **more):
        before = work[0]
        out = real(ops, facts, work=work, **more)
        spent.append(work[0] - before)
        return out

    monkeypatch.setattr(exists_witnesses, "evaluate", counted)
    check_document(doc)
    assert len(spent) == len(doc["parts"][0]["witnessed"]) > 2
    monkeypatch.setattr(program, "MAX_WORK", max(spent) + 1)
    for entry in doc["parts"][0]["witnessed"]:  # each alone within the limit
        one = json.loads(json.dumps(doc))
        one["parts"][0]["witnessed"] = [entry]
        check_document(seal(one))
    assert "too much arithmetic" in rejected(doc)  # all together beyond it


def test_check_claim_binds_a_witness_certificate(certificates, tmp_path):
    (claim, doc), _ = certificates
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc), encoding="ascii")
    assert bnproof.check(path, claim=claim).accepted
    other = Claim(claim.id, claim.source, claim.statement, lambda xp, x, w: xp.maximum(w * x, 0) - x,
                  claim.variables, kind="identity", exists=claim.exists)
    refused = bnproof.check(path, claim=other)
    assert not refused.accepted and "program differs" in refused.line
    forged = json.loads(json.dumps(doc))
    forged["claim"]["statement"] += " + 0"
    path.write_text(json.dumps(seal(forged)), encoding="ascii")
    assert bnproof.check(path).accepted  # a valid certificate of a claim nobody wrote ...
    assert not bnproof.check(path, claim=claim).accepted  # ... is not this claim's


# --- the gallery: every witness confirmed by the checker ------------------------------

def test_the_gallery_s_witnesses_are_confirmed_by_the_checker(tmp_path):
    claims = {c.id: c for c in load_file(GALLERY)}
    for claim in claims.values():
        result = bnproof.fuzz(claim, seed=0, max_examples=30, time_budget=300, jax=False, prove=False,
                              out_dir=tmp_path)
        if claim.id.endswith("bn-onto-any-interval"):
            assert result.verdict == "refuted" and result.counterexample["w"] < 0
            continue
        assert result.verdict == "survived", (claim.id, result.reason)
        path = tmp_path / (claim.id + ".witnesses.json")
        checked = bnproof.check(path, claim=claim)
        assert checked.accepted, checked.line
        doc = json.loads(path.read_text(encoding="ascii"))
        hinted = sum("hint" in e for p in doc["parts"] for e in p["witnessed"])
        assert (hinted > 0) == bool(claim.hints), claim.id  # irrational sigmas: the hint's programs


def test_a_no_witness_verdict_is_unchanged_by_the_new_searches():
    """The searches only propose witnesses: p^2 = x at x = -1 is still 'no witness'."""
    claim = Claim("t/sq", "test", "p^2 = x", lambda xp, x, p: p * p - x, (Var("x"),), kind="identity",
                  exists=(Var("p"),), hints=(lambda xp, x: x,))
    assert decide_inner(claim, trace(claim, {}), {"x": Fraction(-1)}, {}).verdict == NO_WITNESS
