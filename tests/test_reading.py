"""The reference reading (bnproof/reading/): verdicts on the paper claims, numpy's own
semantics for Python-level tricks, refusals that a claim's code cannot swallow, and
undefined operations that are never values."""

from __future__ import annotations

import copy
import glob
import json
from fractions import Fraction

import numpy as np
import pytest

from bnproof import reading
from bnproof.claims import Claim, Var
from bnproof.claims.api import all_claims, load_file
from bnproof.claims.blocks import normalize, stats

CLAIMS = {c.id: c for c in all_claims()}


def claim_of(residual, variables=(Var("y", (3,)),), kind="inequality", **extra) -> Claim:
    return Claim(id="test/reading", source="test", statement="x", residual=residual, variables=variables,
                 kind=kind, **extra)


def proof_instance(claim, witness: dict) -> dict:
    """A proof certificate's witness as an instance (columns X:0, X:1 … of a matrix input)."""
    inputs, out = dict(witness["inputs"]), {}
    for v in claim.variables:
        if v.name in inputs:
            out[v.name] = inputs[v.name]
            continue
        columns = sorted((k for k in inputs if k.startswith(v.name + ":")), key=lambda k: int(k.split(":")[1]))
        out[v.name] = ([list(r) for r in zip(*(inputs[k] for k in columns))] if len(v.shape) == 2
                       else [inputs[k] for k in columns])
    return out


def committed():
    for path in sorted(glob.glob("certificates/**/*.json", recursive=True)):
        with open(path) as fh:
            cert = json.load(fh)
        claim = CLAIMS.get(cert["claim"]["id"])
        if claim is None:  # certificates/lemma-4.5.json is `bnproof verify`'s, not a claim file's
            continue
        if cert.get("kind") == "proof":
            yield path, claim, proof_instance(claim, cert["witness"]), "holds"
        else:
            yield path, claim, cert["instance"], cert["verdict"]


# ---------------------------------------------------------------- the paper claims


@pytest.mark.parametrize("path, claim, instance, verdict", list(committed()), ids=lambda x: str(x)[-60:])
def test_committed_certificates_read_as_committed(path, claim, instance, verdict):
    r = reading.read(claim, instance)
    assert r.verdict == verdict, (path, r)


def test_confirm_agrees_with_the_engine_on_generic_instances():
    from bnproof.claims.decide import decide

    for claim in CLAIMS.values():
        if not claim.variables:
            continue
        sizes = {s: lo for s, (lo, hi) in claim.sizes.items()}
        for instance in reading.generic_instances(claim, sizes, 2, seed=7):
            confirmation = reading.confirm(claim, instance, decide(claim, instance))
            assert confirmation.status == "agrees", (claim.id, instance, confirmation)


def test_claims_without_variables():
    for claim in CLAIMS.values():
        if not claim.variables:
            r = reading.read(claim, {})
            assert r.verdict == "holds", (claim.id, r)


def test_existential_claims_read_at_a_witness():
    claims = {c.id: c for c in load_file("docs/examples/existential.py")}
    inverse = claims["gallery/existential/inverse-exists"]
    assert reading.read(inverse, {"x": 2}, {"p": Fraction(1, 2)}).verdict == "holds"
    assert reading.read(inverse, {"x": 2}, {"p": 1}).verdict == "refuted"
    assert reading.read(inverse, {"x": 2}).verdict == "undecided"  # no witness: not read
    beta = claims["gallery/existential/beta-cancels"]
    # γ ŷ₁ + β' = 0 at y = (0, 1), γ = 3: ŷ₁ = −1, so β' = 3
    r = reading.read(beta, {"y": [0, 1], "gamma": 3}, {"beta_p": 3})
    assert r.verdict == "holds" and r.value.fraction() == 0


def test_a_dead_root_at_a_witness_is_not_read():
    """Class 5 of issue 22: "for every x there is p with p² = x²" with a dead √(p − 1): at
    x = 1/2 the witness p = 1/2 makes the radicand negative, but nothing reads it."""
    claim = Claim(id="t/dead-root", source="t", statement="x", kind="identity", variables=(Var("x"),),
                  exists=(Var("p"),), residual=lambda xp, x, p: (xp.sqrt(p - 1), p * p - x * x)[1])
    r = reading.read(claim, {"x": Fraction(1, 2)}, {"p": Fraction(-1, 2)})
    assert r.verdict == "holds" and r.value.fraction() == 0


def test_laws_expectations_by_enumeration():
    claims = {c.id: c for c in load_file("docs/examples/expectations.py")}
    law = {"X_support": [1, 0], "X_weights": [1, 1]}
    assert reading.read(claims["gallery/expectations/unbiased-sample-variance"], law).verdict == "holds"
    biased = reading.read(claims["gallery/expectations/biased-batch-variance"], law)
    assert biased.verdict == "refuted" and biased.value.fraction() == Fraction(-1, 16)
    for name in ("variance-of-the-batch-mean", "variance-of-the-sample-variance"):
        claim = claims[f"gallery/expectations/{name}"]
        for instance in reading.generic_instances(claim, {"k": 2, **{s: lo for s, (lo, hi) in claim.sizes.items()
                                                                     if s != "k"}}, 2, seed=1):
            assert reading.read(claim, instance).verdict == "holds", (name, instance)


def test_expectations_over_the_cap_are_inconclusive():
    from bnproof.claims import Law

    claim = Claim(id="t/e", source="t", statement="x", variables=(Law("X", (), "k"),), sizes={"k": (1, 9)},
                  residual=lambda xp, X: xp.expect(lambda xp, B: B[0], X, 40))
    r = reading.read(claim, {"X_support": [1, 2], "X_weights": [1, 1]})
    assert r.verdict == "undecided" and "2^40 batches" in r.detail


# ---------------------------------------------------------------- Python-level tricks, as numpy reads them


def _floats(y):
    return np.asarray([float(v) for v in y], dtype=np.float64)


def size_aware(xp, y):
    n = y.size if isinstance(y, np.ndarray) else 1
    return np.sum(y) / n - getattr(np.sum(y), "size", 1)


def with_len(xp, y):
    return np.sum(y * y) - len(y) * y[0]


def with_copies(xp, y):
    z = copy.deepcopy(y)
    w = copy.copy(y)
    z[0] = z[0] + 1  # numpy: the copy changes, the input does not
    return np.sum(z) - 2 * np.sum(w) + y[0]


SCALE = 3


def with_globals(xp, y):
    def inner(v):
        return v * SCALE - np.mean(y)
    return np.sum(inner(y) ** 2)


def with_branches(xp, y):
    if np.sum(y) > 0:
        out = np.max(y) - np.min(y)
    else:
        out = -np.sum(np.where(y > 0, y, -y))
    return out + max(y[0], y[1]) + sorted(y)[0] + np.sum(np.maximum(y, 0))


def with_numpy_reductions(xp, y):
    return np.var(y) + np.prod(y) + np.cumsum(y)[-1] + np.dot(y, y) - y @ y


TRICKS = [size_aware, with_len, with_copies, with_globals, with_branches, with_numpy_reductions]


@pytest.mark.parametrize("trick", TRICKS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("y", [[1, 2, 4], [Fraction(-3, 2), 5, Fraction(1, 7)], [-1, -2, 0]])
def test_python_tricks_read_as_numpy_reads_them(trick, y):
    r = reading.read(claim_of(lambda xp, y: trick(xp, y)), {"y": y})
    assert r.verdict in ("holds", "refuted"), r
    expected = trick(None, _floats(y))
    assert float(r.value.fraction()) == pytest.approx(float(expected), rel=1e-12, abs=1e-12)


def test_introspection_of_scalars_reads_as_numpy_float64():
    y = reading.read(claim_of(lambda xp, y: np.sum(y) * (getattr(np.sum(y), "size", 7) + np.ndim(np.sum(y)))),
                     {"y": [1, 2, 3]})
    assert y.value.fraction() == 6  # a float64 scalar's size is 1 and ndim 0


def _caught_float(xp, y):
    try:
        return float(np.sum(y)) * 0 + 1
    except Exception:  # noqa: BLE001 - the trick under test
        return -np.sum(y * y)


def _caught_bare(xp, y):
    try:
        return y[0] * 0.5
    except:  # noqa: E722 - the trick under test
        return -np.sum(y * y)


@pytest.mark.parametrize("fn", [_caught_float, _caught_bare])
def test_refusals_cannot_be_swallowed(fn):
    """Class 2 of issue 22: the fallback branch of a caught refusal is never what is read."""
    r = reading.read(claim_of(fn), {"y": [1, 2, 3]})
    assert r.verdict == "undecided" and "float" in r.detail, r


def test_a_refusal_turned_into_another_exception_still_decides():
    def fn(xp, y):
        try:
            return y[0] * 0.5
        except BaseException:  # noqa: BLE001 - the trick under test
            raise ValueError("something else") from None

    r = reading.read(claim_of(fn), {"y": [1, 2, 3]})
    assert r.verdict == "undecided" and "float" in r.detail, r


def test_a_value_escaped_from_grad_is_refused():
    kept = []

    def fn(xp, y):
        xp.grad(lambda v: kept.append(v) or xp.sum(v * v), y)
        return kept[0][0] * 2  # the seeded argument, used after its gradient returned

    r = reading.read(claim_of(fn), {"y": [1, 2, 3]})
    assert r.verdict == "undecided" and "escaped xp.grad" in r.detail, r


def test_int_and_index_conversions_are_refused():
    r = reading.read(claim_of(lambda xp, y: y[int(y[0])]), {"y": [1, 2, 3]})
    assert r.verdict == "undecided" and "refuses" in r.detail
    r = reading.read(claim_of(lambda xp, y: y[y[0]]), {"y": [1, 2, 3]})
    assert r.verdict == "undecided"


# ---------------------------------------------------------------- undefined operations


def test_a_dead_division_by_zero_leaves_the_reading_defined():
    def fn(xp, y):
        dead = 1 / (y[0] - y[0])  # numpy would make inf here and never read it
        del dead
        return y[1] ** 2

    r = reading.read(claim_of(fn), {"y": [1, 2, 3]})
    assert r.verdict == "holds" and r.value.fraction() == 4


def test_a_division_by_zero_that_is_read_is_undefined():
    for fn in (lambda xp, y: 1 / (y[0] - y[0]),
               lambda xp, y: 0 * (1 / (y[0] - 1)),  # 0 · undefined is undefined
               lambda xp, y: xp.sqrt(y[0] - 2) * 0,
               lambda xp, y: xp.log(y[0] - 1),
               lambda xp, y: xp.arccos(y[2]),
               lambda xp, y: 1 / (xp.sqrt(xp.q(2)) * xp.sqrt(xp.q(2)) - 2)):  # exactly 0, not by rationals
        r = reading.read(claim_of(fn), {"y": [1, 2, 3]})
        assert r.verdict == "outside-hypotheses", r


def test_a_branch_on_an_undefined_value_is_undefined_even_if_caught():
    def fn(xp, y):
        bad = 1 / (y[0] - y[0])
        try:
            return y[0] if bad > 0 else -y[0]
        except BaseException:  # noqa: BLE001 - the trick under test
            return y[0]

    r = reading.read(claim_of(fn), {"y": [1, 2, 3]})
    assert r.verdict == "outside-hypotheses", r


def test_guard_and_min():
    def fn(xp, y):
        candidates = xp.guard(y, y - 2)  # y where y ≥ 2
        return xp.min(candidates)

    assert reading.read(claim_of(fn), {"y": [1, 2, 3]}).value.fraction() == 2
    assert reading.read(claim_of(fn), {"y": [1, 0, 1]}).verdict == "outside-hypotheses"  # empty
    r = reading.read(claim_of(lambda xp, y: xp.guard(y, y - 2)[0] + 1), {"y": [1, 2, 3]})
    assert r.verdict == "outside-hypotheses"  # anything but min on an absent value


def test_hypotheses_and_domains():
    claim = claim_of(lambda xp, y, g: y[0], variables=(Var("y", (2,)), Var("g", (), "positive")),
                     hypotheses=(lambda xp, y, g: stats(xp, y)[1] ** 2,))
    assert reading.read(claim, {"y": [1, 2], "g": 1}).verdict == "holds"
    assert reading.read(claim, {"y": [1, 1], "g": 1}).verdict == "outside-hypotheses"
    r = reading.read(claim, {"y": [1, 2], "g": 0})
    assert r.verdict == "outside-hypotheses" and "declared domains" in r.detail
    assert reading.read(claim, {"y": [1, 2]}).verdict == "undecided"  # no value for g
    r = reading.read(claim, {"y": [1, 2, 3], "g": 1})  # y has 2 entries
    assert r.verdict == "undecided" and "size 2" in r.detail


def test_kinks_inside_gradients():
    def relu_partials(xp, y):
        g = xp.grad(lambda v: xp.sum(xp.relu(v)), y)
        return g[1]  # the kink is at y[0] = 0: ∂/∂y₁ is defined

    assert reading.read(claim_of(relu_partials), {"y": [0, 2, 3]}).value.fraction() == 1
    r = reading.read(claim_of(lambda xp, y: xp.grad(lambda v: xp.sum(xp.relu(v)), y)[0]), {"y": [0, 2, 3]})
    assert r.verdict == "outside-hypotheses" and "kink" in r.detail
    # a tie is a kink even where both slopes agree, as in the dual engine
    r = reading.read(claim_of(lambda xp, y: xp.grad(lambda v: xp.maximum(v[0], v[0]), y)[0]), {"y": [1, 2, 3]})
    assert r.verdict == "outside-hypotheses"
    # a Python branch decided at a tie is a kink of the derivative too
    r = reading.read(claim_of(lambda xp, y: xp.grad(lambda v: v[0] if v[0] >= 0 else -v[0], y)[0]),
                     {"y": [0, 2, 3]})
    assert r.verdict == "outside-hypotheses"
    r = reading.read(claim_of(lambda xp, y: xp.grad(lambda v: v[0] if v[0] >= 0 else -v[0], y)[0]),
                     {"y": [-1, 2, 3]})
    assert r.value.fraction() == -1
    # outside a gradient a tie is only a value
    assert reading.read(claim_of(lambda xp, y: xp.abs(y[0]) + xp.relu(y[0])), {"y": [0, 1, 2]}).verdict == "holds"


def test_solve_domain_is_the_documented_one():
    def fn(xp, y):
        A = xp.asarray([[y[0], y[1]], [y[1], y[2]]])
        return xp.sum(xp.solve(A, xp.asarray([y[2], y[0]])))

    # a leading minor 0 (A = [[0, 1], [1, 2]]) is undefined, as documented, though A is invertible
    assert reading.read(claim_of(fn), {"y": [0, 1, 2]}).verdict == "outside-hypotheses"
    r = reading.read(claim_of(fn), {"y": [2, 1, 3]})
    # [[2, 1], [1, 3]] x = [3, 2]: x = (7/5, 1/5)
    assert r.value.fraction() == Fraction(8, 5)


def test_floats_and_non_integer_powers_are_refused():
    for fn in (lambda xp, y: y[0] + 0.5, lambda xp, y: y[0] ** Fraction(1, 2), lambda xp, y: xp.q(0.1),
               lambda xp, y: np.float64(1) * y[0], lambda xp, y: xp.leaky_relu(y, 0.1)[0]):
        r = reading.read(claim_of(fn), {"y": [1, 2, 3]})
        assert r.verdict == "undecided", r


def test_leaky_relu_slope_as_a_value():
    r = reading.read(claim_of(lambda xp, y: xp.leaky_relu(y, xp.q(1, 10))[0]), {"y": [-5, 2, 3]})
    assert r.value.fraction() == Fraction(-1, 2)


def test_the_claims_own_errors_are_undecided_with_the_exception():
    r = reading.read(claim_of(lambda xp, y: y[7]), {"y": [1, 2, 3]})
    assert r.verdict == "undecided" and "IndexError" in r.detail
    r = reading.read(claim_of(lambda xp, y: y), {"y": [1, 2, 3]})
    assert r.verdict == "undecided" and "scalar" in r.detail


def test_keyboard_interrupt_propagates():
    def fn(xp, y):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        reading.read(claim_of(fn), {"y": [1, 2, 3]})


def test_transcendental_ties_are_undecided_never_guessed():
    r = reading.read(claim_of(lambda xp, y: xp.exp(xp.log(y[1])) - y[1], kind="identity"), {"y": [1, 2, 3]})
    assert r.verdict == "undecided"
    r = reading.read(claim_of(lambda xp, y: xp.tanh(y[0] ** 2 + 20) - 1), {"y": [1, 2, 3]})
    assert r.verdict == "refuted"  # about −8.5·10⁻¹⁸: no float rounds it away


def test_normalize_at_generic_sizes():
    claim = claim_of(lambda xp, y: xp.sum(normalize(xp, y)[0] ** 2) - y.shape[0], kind="identity",
                     variables=(Var("y", ("m",)),), sizes={"m": (2, 9)})
    for m in range(2, 10):
        for instance in reading.generic_instances(claim, {"m": m}, 2, seed=m):
            assert reading.read(claim, instance).verdict == "holds"
