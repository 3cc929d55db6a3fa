"""Red team of session 27's mechanisms: root normalization (signs from domains and
hypotheses), the divisor sign rule, gradients by scalars / fixed vectors / at computed
points, expectations at a symbolic batch size (moments-n), and the second reading.

Each test is an attack that a wrong verdict would let through: a false claim proved,
a forged certificate (sealed with a valid digest) accepted, or a claim written to fool
the tracer (branches on the batch size, reads a law's support, nests gradients that
close over each other's variable).  Where the honest value is known it is asserted
too, so that a tracer refusing everything would not pass the "proved" halves."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Law, Var
from bnproof.claims.api import load_file
from bnproof.symbolic_m.prove import NOT_PROVED, OUTSIDE, PROVED, attempt
from tests.tamper import seal

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

# ---------------------------------------------------------------- claims

X = Law("X", (), "k")
BATCH = Var("batch", ("m",))


def _moments(cid, residual):
    return Claim(id="rt27/" + cid, source="red team", statement="x", kind="identity",
                 variables=(X, BATCH), sizes={"k": (1, 3), "m": (2, 6)}, residual=residual)


def _scalar(cid, residual, hypotheses=(), kind="identity", strict=False, c_domain="real"):
    return Claim(id="rt27/" + cid, source="red team", statement="x", kind=kind, strict=strict,
                 variables=(Var("y", ("m",)), Var("c", (), c_domain), Var("b", ())),
                 sizes={"m": (2, 4)}, residual=residual, hypotheses=hypotheses)


def _grad(cid, residual):
    return Claim(id="rt27/" + cid, source="red team", statement="x", kind="identity",
                 variables=(Var("y", ("m",)), Var("c", ()), Var("w", ("d",))),
                 sizes={"m": (2, 4), "d": (2, 2)}, residual=residual)


def _mean(xp, B):
    return xp.mean(B)


def _one(xp, B):
    return B[0]


def _ex(xp, X):
    return xp.expect(_one, X, 1)


# ---------------------------------------------------------------- moments-n: the tracer

def _nested(xp, X, batch):
    m = batch.shape[0]
    return xp.expect(lambda xp, B: xp.expect(lambda xp, C: xp.mean(B) * xp.mean(C), X, m), X, m)


_KEPT = []


def _escape(xp, X, batch):
    m = batch.shape[0]
    e = xp.expect(lambda xp, B: _KEPT.append(B) or xp.mean(B), X, m)
    return e - xp.expect(lambda xp, B: xp.mean(_KEPT[-1]), X, m)


FOOL_MOMENTS = {
    # false at m = 5 only (in the claim's sizes): a comparison of the symbolic m
    "branch-m-equals": lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0]) - _ex(xp, X)
    + (1 if batch.shape[0] == 5 else 0),
    "branch-m-inside": lambda xp, X, batch: xp.expect(
        lambda xp, B: xp.mean(B) if B.shape[0] > 3 else B[0] * 0, X, batch.shape[0]) - _ex(xp, X),
    "int-of-m": lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0]) - _ex(xp, X)
    + int(batch.shape[0]) % 2,
    "range-of-m": lambda xp, X, batch: xp.expect(
        lambda xp, B: sum(B[i] for i in range(min(B.shape[0], 3))) / B.shape[0], X, batch.shape[0])
    - _ex(xp, X),
    "m-as-boolean-factor": lambda xp, X, batch: xp.expect(
        lambda xp, B: xp.mean(B) * (B.shape[0] == 3), X, batch.shape[0]),
    # the law's support read beside its expectations (0 times it, or its mean)
    "support-times-zero": lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0]) - _ex(xp, X)
    + (X.support[0] - X.support[0]),
    "support-mean": lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0])
    - xp.sum(X.support * X.probabilities),
    "support-inside": lambda xp, X, batch: xp.expect(lambda xp, B: B[0] * X.support[0], X, 1)
    - _ex(xp, X) * X.support[0],
    # E_B[mean(B) E_C[mean(C)]] against E[mean(B)^2]: read as one batch, it would be 0
    "nested-mixing-batches": lambda xp, X, batch: _nested(xp, X, batch)
    - xp.expect(lambda xp, B: xp.mean(B) ** 2, X, batch.shape[0]),
    "sample-escapes": _escape,
    # B[0] B[-1] is X² at m = 1: entries of a batch of symbolic length
    "first-times-last": lambda xp, X, batch: xp.expect(lambda xp, B: B[0] * B[-1], X, batch.shape[0])
    - _ex(xp, X) ** 2,
    "entries-of-batch": lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0]) * batch[0]
    - _ex(xp, X) * batch[0],
    "draws-of-another-size": lambda xp, X, batch: xp.expect(
        lambda xp, B: xp.mean(B) * (B.shape[0] - batch.shape[0]), X, batch.shape[0] + 1) - _ex(xp, X),
    "a-division-by-the-draws": lambda xp, X, batch: xp.expect(
        lambda xp, B: xp.mean(B) / xp.mean(B), X, batch.shape[0]) - 1,
}


@pytest.mark.parametrize("name", sorted(FOOL_MOMENTS))
def test_a_claim_that_fools_the_moments_tracer_is_never_proved(name):
    result = attempt(_moments(name, FOOL_MOMENTS[name]), {"k": 2})
    assert result.status == OUTSIDE, (result.status, result.reason)


def test_one_draw_squared_is_not_the_square_of_its_mean():
    # E[X]^2 - E[X^2] = -Var X: two batches of one draw each, never one
    result = attempt(_moments("e2", lambda xp, X, batch: _ex(xp, X) ** 2
                              - xp.expect(lambda xp, B: B[0] * B[0], X, 1)), {"k": 2})
    assert result.status == NOT_PROVED
    # E[mean(B)^2] - E[mean(B)]^2 = Var X / m: one batch inside, two outside
    result = attempt(_moments("var-mean", lambda xp, X, batch: xp.expect(
        lambda xp, B: xp.mean(B) * xp.mean(B), X, batch.shape[0]) - xp.expect(_mean, X, batch.shape[0]) ** 2),
        {"k": 2})
    assert result.status == NOT_PROVED


def test_true_expectations_whose_residual_is_exactly_zero_are_proved():
    same = attempt(_moments("zero", lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0])
                            - xp.expect(_mean, X, batch.shape[0])), {"k": 2})
    assert same.status == PROVED, same.reason
    assert check_document(seal(copy.deepcopy(same.document)))
    scaled = attempt(_moments("m-constant", lambda xp, X, batch: xp.expect(
        lambda xp, B, k: xp.mean(B) * k, X, batch.shape[0], batch.shape[0]) - batch.shape[0] * _ex(xp, X)),
        {"k": 2})
    assert scaled.status == PROVED, scaled.reason


# ---------------------------------------------------------------- moments-n: forged certificates

@pytest.fixture(scope="module")
def mean_document():
    claims = {c.id.rsplit("/", 1)[1]: c for c in load_file(EXAMPLES / "every_n_moments.py")}
    result = attempt(claims["mean-of-the-mean"], {"k": 2})
    assert result.status == PROVED, result.reason
    return result.document


def _forge(doc, steps, residual):
    forged = copy.deepcopy(doc)
    forged["program"]["steps"], forged["program"]["residual"] = steps, residual
    return seal(forged)


def test_the_honest_moments_certificate_is_accepted(mean_document):
    assert "proved for every n" in check_document(seal(copy.deepcopy(mean_document)))


def test_a_moments_program_that_mixes_two_batches_is_rejected(mean_document):
    # Σ x over batch 1 plus the draw of batch 4, expected once: which law of draws?
    steps = [["n"], ["batch", "X", "n"], ["sum", 1], ["div", 2, 0], ["batch", "X", 1], ["draw", 4, 0],
             ["sub", 3, 5], ["expect", 6]]
    with pytest.raises(Rejected, match="two batches"):
        check_document(_forge(mean_document, steps, 7))


def test_a_moments_program_claiming_the_variance_of_the_mean_is_zero_is_rejected(mean_document):
    # E[(Σx/n)^2] - E[X]^2 = Var X / n, not 0 (the checker's own expansion over coinciding draws)
    steps = [["n"], ["batch", "X", "n"], ["sum", 1], ["div", 2, 0], ["mul", 3, 3], ["expect", 4],
             ["batch", "X", 1], ["draw", 6, 0], ["expect", 7], ["mul", 8, 8], ["sub", 5, 9]]
    with pytest.raises(Rejected, match="not the zero polynomial"):
        check_document(_forge(mean_document, steps, 10))
    # the same batch in two expectations is two independent expectations: E[m̄]·E[m̄] = E[X]^2
    steps = [["n"], ["batch", "X", "n"], ["sum", 1], ["div", 2, 0], ["expect", 3], ["mul", 4, 4],
             ["batch", "X", 2], ["draw", 6, 0], ["draw", 6, 1], ["mul", 7, 8], ["expect", 9], ["sub", 5, 10]]
    assert "proved for every n" in check_document(_forge(mean_document, steps, 11))
    # ...but one draw twice is X^2, not E[X]^2
    steps[8] = ["draw", 6, 0]
    with pytest.raises(Rejected, match="not the zero polynomial"):
        check_document(_forge(mean_document, steps, 11))


def test_a_moments_residual_that_keeps_the_draws_is_rejected(mean_document):
    # Σx − n E[X]: 0 in expectation, not as a value
    steps = [["n"], ["batch", "X", "n"], ["sum", 1], ["batch", "X", 1], ["draw", 3, 0], ["expect", 4],
             ["mul", 0, 5], ["sub", 2, 6]]
    with pytest.raises(Rejected, match="depends on the draws"):
        check_document(_forge(mean_document, steps, 7))


def test_a_moments_division_by_the_draws_is_rejected(mean_document):
    steps = [["n"], ["batch", "X", "n"], ["sum", 1], ["div", 2, 2], ["expect", 3], ["const", "1"],
             ["sub", 4, 5]]
    with pytest.raises(Rejected, match="depends on the draws"):
        check_document(_forge(mean_document, steps, 6))


@pytest.mark.parametrize("cid, reason", [
    ("santurkar2018/theorem-4.1", "bnproof's certificates refute"),
    ("santurkar2018/lemma-4.5", "bnproof's certificates refute"),
    ("theorem-4.1", "reads as the name of a claim of the papers"),
    ("Santurkar2018/Theorem 4.1", "printable ASCII characters without spaces"),
    ("me/x\nsanturkar2018/theorem-4.1 proved", "printable ASCII characters without spaces"),
    (5, "printable ASCII characters without spaces"),
    ("x" * 101, "printable ASCII characters without spaces"),
])
def test_a_moments_certificate_may_not_name_a_refuted_claim_or_forge_a_line(mean_document, cid, reason):
    # E[μ_B] − E[X] = 0 is a true program; sealed under the id of a claim of the papers that
    # bnproof refutes, the checker printed "santurkar2018/theorem-4.1 proved for every n"
    # (the proof checker has refused such ids since issue 13; the moments-n one did not)
    forged = copy.deepcopy(mean_document)
    forged["claim"]["id"] = cid
    with pytest.raises(Rejected, match=reason):
        check_document(seal(forged))
    texts = copy.deepcopy(mean_document)
    texts["claim"]["statement"] = ["not", "text"]
    with pytest.raises(Rejected, match="must be strings"):
        check_document(seal(texts))


def test_a_moments_program_of_many_large_products_is_rejected_within_the_work_limit(mean_document):
    # one product was bounded (10^6 term pairs), the program was not: (1 + n + μ1 + … + μ6)^4
    # has 210 terms, and each of its squares (44100 pairs) took about a second, so 20000
    # steps of them kept the independent checker busy for hours before it said "proved"
    from bnproof.checker import moments_n as CM

    steps = [["n"], ["batch", "X", 1], ["const", "1"], ["add", 2, 0]]
    total = 3
    for j in range(6):
        steps += [["draw", 1, 0], ["pow", len(steps), j + 1], ["expect", len(steps) + 1]]
        steps += [["add", total, len(steps) - 1]]
        total = len(steps) - 1
    steps += [["pow", total, 4]]
    big = len(steps) - 1
    steps += [["mul", big, big]] * 20 + [["sub", big, big]]
    with pytest.raises(Rejected, match="work limit"):
        check_document(_forge(mean_document, steps, len(steps) - 1))
    # the largest expectation a program may ask for (ten power sums) is well within it
    CM.replay({"steps": [["n"], ["batch", "X", "n"], ["sum", 1], ["pow", 2, 10], ["expect", 3]],
               "inputs": []}, ["X"])


# ---------------------------------------------------------------- gradients: the tracer

def _status(claim, fixed=None):
    return attempt(claim, {"d": 2} if fixed is None else fixed).status


NESTED_TRUE = {
    # d/dt [d/ds (s t)]_{s = t} = d/dt t = 1 (perturbation confusion would give 2)
    "inner-at-the-outer-variable": (lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda s: s * t, t), c) - 1),
    # g(t) = [d/ds s² t]_{s = t} = 2t², g'(c) = 4c
    "inner-closes-over-outer": (lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda s: s * s * t, t), c)
                                - 4 * c),
    # g(t) = [d/ds s² t]_{s = t²} = 2t³, g'(c) = 6c²
    "inner-at-a-computed-point": (lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda s: s * s * t, t * t), c)
                                  - 6 * c * c),
    # f(t) = t [d/ds s t]_{s = c} = t², f'(w0) = 2 w0
    "inner-at-an-input-outer-at-an-entry": (
        lambda xp, y, c, w: xp.grad(lambda t: t * xp.grad(lambda s: s * t, c), w[0]) - 2 * w[0]),
    # d/dt (t c) at t = c is c: c read from outside is held fixed
    "closure-over-the-point": (lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda s: s * t * c, c), c) - c),
    "identity-function-at-a-computed-point": (lambda xp, y, c, w: xp.grad(lambda t: t, 2 * c) - 1),
    "constant-function": (lambda xp, y, c, w: xp.grad(lambda t: c * c, c)),
    "entry-of-a-computed-vector": (lambda xp, y, c, w: xp.sum(
        (xp.grad(lambda v: v[0], c * w) - xp.asarray([1, 0])) ** 2)),
    # d/dt (t c) at t = c² is c: the point reads c, the function holds it fixed
    "closure-at-a-point-of-the-same-input": (lambda xp, y, c, w: xp.grad(lambda t: t * c, c * c) - c),
    # one function differentiated at two points: 3c² + 12c²
    "one-function-two-points": (lambda xp, y, c, w: xp.grad(lambda t: t * t * t, c)
                                + xp.grad(lambda t: t * t * t, 2 * c) - 15 * c * c),
    # g(t) = [d/ds s² t]_{s = t} = 2t², called and differentiated: 2c² + 4c
    "a-gradient-function-called-and-differentiated": (
        lambda xp, y, c, w: (lambda g: g(c) + xp.grad(g, c))(lambda t: xp.grad(lambda s: s * s * t, t))
        - 2 * c * c - 4 * c),
    "batch-size-inside": (lambda xp, y, c, w: xp.grad(lambda t: t * y.shape[0], c) - y.shape[0]),
    # ∇_v Σ ∇_u (u·u)(v·v) at u = v, v = w: ∇_v 2|v|² Σv = 4v Σv + 2|v|²
    # ∇_u Σ u∘z at u = z = y + c: z read from outside is held fixed, so the gradient is z
    "batch-closure-at-its-own-value": (lambda xp, y, c, w: xp.sum(
        (xp.grad(lambda u: xp.sum(u * (y + c)), y + c) - (y + c)) ** 2)),
    # ∇ of the biased variance at c·y: 2c(y − ȳ)/m
    "variance-at-a-computed-batch": (lambda xp, y, c, w: xp.sum((xp.grad(
        lambda u: xp.mean((u - xp.mean(u)) ** 2), c * y) - 2 * c * (y - xp.mean(y)) / y.shape[0]) ** 2)),
    # d/dt Σ (y − t)² at t = ȳ is 0
    "scalar-at-the-batch-mean": (lambda xp, y, c, w: xp.grad(lambda t: xp.sum((y - t) ** 2), xp.mean(y))),
    "nested-vector-gradients": (lambda xp, y, c, w: xp.sum((xp.grad(
        lambda v: xp.sum(xp.grad(lambda u: xp.dot(u, u) * xp.dot(v, v), v)), w)
        - (4 * w * xp.sum(w) + 2 * xp.dot(w, w))) ** 2)),
}

NESTED_FALSE = {
    "inner-at-the-outer-variable-confused": (
        lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda s: s * t, t), c) - 2),
    "inner-closes-over-outer-half": (lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda s: s * s * t, t), c)
                                     - 2 * c),
    "outer-reads-inner": (lambda xp, y, c, w: xp.grad(lambda t: t * xp.grad(lambda s: s * t, t * t), c)
                          - 4 * c * c * c),
    "closure-over-the-point-doubled": (
        lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda s: s * t * c, c), c) - 2 * c),
    "closure-counted": (lambda xp, y, c, w: xp.grad(lambda t: c * c, c) - 2 * c),
    "identity-function-zero": (lambda xp, y, c, w: xp.grad(lambda t: t, 2 * c)),
    "entry-of-a-computed-vector-zero": (lambda xp, y, c, w: xp.sum(xp.grad(lambda v: v[0], c * w) ** 2)),
    "square-at-zero": (lambda xp, y, c, w: xp.grad(lambda t: t * t, c * 0) - 1),
    "entry-held-fixed-counted": (lambda xp, y, c, w: xp.grad(lambda t: t * w[0], w[0]) - 2 * w[0]),
    "closure-at-a-point-of-the-same-input-counted": (lambda xp, y, c, w: xp.grad(lambda t: t * c, c * c) - 2 * c),
    "one-function-two-points-once": (lambda xp, y, c, w: xp.grad(lambda t: t * t * t, c)
                                     + xp.grad(lambda t: t * t * t, 2 * c) - 3 * c * c),
    "batch-size-inside-dropped": (lambda xp, y, c, w: xp.grad(lambda t: t * y.shape[0], c) - 1),
    "batch-closure-at-its-own-value-doubled": (lambda xp, y, c, w: xp.sum(
        (xp.grad(lambda u: xp.sum(u * (y + c)), y + c) - 2 * (y + c)) ** 2)),
    "variance-at-a-computed-batch-uncentred": (lambda xp, y, c, w: xp.sum((xp.grad(
        lambda u: xp.mean((u - xp.mean(u)) ** 2), c * y) - 2 * c * y / y.shape[0]) ** 2)),
    "scalar-at-the-batch-mean-one": (lambda xp, y, c, w: xp.grad(lambda t: xp.sum((y - t) ** 2), xp.mean(y)) - 1),
    # the inner variable perturbed with the outer one: 6v Σv
    "nested-vector-gradients-confused": (lambda xp, y, c, w: xp.sum((xp.grad(
        lambda v: xp.sum(xp.grad(lambda u: xp.dot(u, u) * xp.dot(v, v), v)), w)
        - (6 * w * xp.sum(w) + 2 * xp.dot(w, w))) ** 2)),
}


def test_a_gradient_of_a_vector_valued_function_is_outside():
    for cid, residual in [("vector", lambda xp, y, c, w: xp.sum(xp.grad(lambda t: t * w, c) - w)),
                          ("batch", lambda xp, y, c, w: xp.sum(xp.grad(lambda t: t * y, c) - y))]:
        result = attempt(_grad(cid, residual), {"d": 2})
        assert result.status == OUTSIDE and "not one scalar" in result.reason, result.reason


@pytest.mark.parametrize("name", sorted(NESTED_TRUE))
def test_nested_and_closed_over_gradients_are_proved_at_their_honest_value(name):
    result = attempt(_grad(name, NESTED_TRUE[name]), {"d": 2})
    assert result.status == PROVED, result.reason
    assert check_document(seal(copy.deepcopy(result.document)))


@pytest.mark.parametrize("name", sorted(NESTED_FALSE))
def test_nested_and_closed_over_gradients_at_a_wrong_value_are_never_proved(name):
    assert _status(_grad(name, NESTED_FALSE[name])) != PROVED


def test_a_gradient_of_a_function_reading_an_outer_gradient_at_an_input_is_outside():
    # classic perturbation confusion: d/dt [t · d/ds (t + s)] = 1, a confused tracer says 2
    for k in (1, 2):
        claim = _grad(f"confusion-{k}", lambda xp, y, c, w, k=k: xp.grad(
            lambda t: t * xp.grad(lambda s: t + s, c), c) - k)
        assert _status(claim) == OUTSIDE


# ---------------------------------------------------------------- gradients: forged certificates

def test_a_grad_step_by_a_non_input_is_rejected():
    # ∂/∂γ of the gallery's L: the derivative by m, a batch sum or a quotient is no derivative
    # the checker defines; by y or g (vectors) the residual is no scalar; by β it is not 0
    claims = {c.id.rsplit("/", 1)[1]: c for c in load_file(EXAMPLES / "every_m_grads.py")}
    doc = attempt(claims["gamma"]).document
    steps = doc["program"]["steps"]
    grads = [i for i, s in enumerate(steps) if s[0] == "grad"]
    assert grads
    computed = [i for i, s in enumerate(steps[:grads[0]]) if s[0] != "input"][:3]
    inputs = {s[1]: i for i, s in enumerate(steps) if s[0] == "input"}
    for target, reason in [*[(k, "with respect to a vector or scalar input step") for k in computed],
                           (inputs["beta"], "normal form is not 0"), (inputs["y"], "not a scalar")]:
        forged = copy.deepcopy(doc)
        for i in grads:
            forged["program"]["steps"][i][2] = target
        with pytest.raises(Rejected, match=reason):
            check_document(seal(forged))


def test_a_witness_certificate_whose_hint_program_differs_is_not_the_claim_s(tmp_path):
    # the hint's outputs permuted: t √(3/2) (0, 1, −1) is a witness too, so the checker alone
    # accepts the certificate as evidence; bound to the claim, the hint is not the claim's
    import json
    import sys

    import bnproof

    sys.path.insert(0, str(Path(__file__).parent))
    from test_existential_witnesses import SIGMA3_HINT, sigma3

    claim = sigma3(hints=(SIGMA3_HINT,))
    result = bnproof.fuzz(claim, seed=0, max_examples=4, time_budget=60, jax=False, prove=False)
    assert result.verdict == "survived", result.reason
    doc = json.loads(result._outcome.witnesses)
    hint = doc["parts"][0]["hints"][0]
    hint["outputs"] = hint["outputs"][2:] + hint["outputs"][:2]
    path = tmp_path / "w.json"
    path.write_text(json.dumps(seal(doc)), encoding="ascii")
    assert bnproof.check(path).accepted
    bound = bnproof.check(path, claim=claim)
    assert not bound.accepted and "hint programs differ" in bound.line


# ---------------------------------------------------------------- roots: signs from hypotheses

ROOTS_FALSE = {
    "no-hypothesis": (lambda xp, y, c, b: xp.sqrt(c * c) - c, ()),
    "negative-hypothesis-wrong-sign": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: -c,)),
    "positive-hypothesis-wrong-sign": (lambda xp, y, c, b: xp.sqrt(c * c) + c, (lambda xp, y, c, b: c,)),
    "both-signs-assumed": (lambda xp, y, c, b: xp.sqrt(c * c) - c,
                           (lambda xp, y, c, b: c, lambda xp, y, c, b: -c)),
    "sign-of-the-other-input": (lambda xp, y, c, b: xp.sqrt(c * b * c * b) - c * b, (lambda xp, y, c, b: c,)),
    "mixed-signs": (lambda xp, y, c, b: xp.sqrt(c * b * c * b) - c * b,
                    (lambda xp, y, c, b: c, lambda xp, y, c, b: -b)),
    "array-of-mixed-signs": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: xp.asarray([-c, b]),)),
    "odd-power": (lambda xp, y, c, b: xp.sqrt(c ** 6) - c ** 3, ()),
    "reciprocal": (lambda xp, y, c, b: xp.sqrt(1 / (c * c)) - 1 / c, ()),
    "rational-square": (lambda xp, y, c, b: xp.sqrt(4 * c * c / 9) - 2 * c / 3, ()),
    "batch-sum": (lambda xp, y, c, b: xp.sqrt(xp.sum(y) ** 2) - xp.sum(y), ()),
    "times-a-batch-sum": (lambda xp, y, c, b: xp.sqrt(c * c * xp.sum(y * y)) - c * xp.sqrt(xp.sum(y * y)), ()),
}

# c > 0 follows from these, but the sign is not read from them: never a wrong root
ROOTS_UNREAD = {
    "cube": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: c ** 3,)),
    "reciprocal-hypothesis": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: 1 / c,)),
    "twice": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: 2 * c,)),
    "a-third": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: c * xp.q(1, 3),)),
    "root": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: xp.sqrt(c),)),
    "double-negation": (lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: -(-c),)),
}


@pytest.mark.parametrize("name", sorted(ROOTS_FALSE))
def test_a_root_with_the_wrong_sign_is_never_proved(name):
    residual, hyps = ROOTS_FALSE[name]
    assert _status(_scalar(name, residual, hyps), {}) != PROVED


@pytest.mark.parametrize("name", sorted(ROOTS_UNREAD))
def test_a_root_under_a_hypothesis_of_another_form_is_not_proved(name):
    residual, hyps = ROOTS_UNREAD[name]
    assert _status(_scalar(name, residual, hyps), {}) == NOT_PROVED


def test_roots_of_known_sign_are_proved():
    for cid, residual, hyps, dom in [
            ("pos-hyp", lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: c,), "real"),
            ("neg-hyp", lambda xp, y, c, b: xp.sqrt(c * c) + c, (lambda xp, y, c, b: -c,), "real"),
            ("even", lambda xp, y, c, b: xp.sqrt(c ** 4) - c * c, (), "real"),
            # an array hypothesis: each entry > 0
            ("array-hyp", lambda xp, y, c, b: xp.sqrt(c * c * b * b) - c * b,
             (lambda xp, y, c, b: xp.asarray([c, b]),), "real"),
            ("domain", lambda xp, y, c, b: xp.sqrt(c ** 6) - c ** 3, (), "positive")]:
        result = attempt(_scalar(cid, residual, hyps, c_domain=dom), {})
        assert result.status == PROVED, (cid, result.reason)


@pytest.fixture(scope="module")
def root_document():
    result = attempt(_scalar("root-doc", lambda xp, y, c, b: xp.sqrt(c * c) - c, (lambda xp, y, c, b: c,)), {})
    assert result.status == PROVED, result.reason
    program = result.document["program"]
    assert program["steps"][:3] == [["input", "c"], ["mul", 0, 0], ["sqrt", 1]] and program["hypotheses"] == [0]
    return result.document


def _hypothesis(doc, extra, hypotheses):
    forged = copy.deepcopy(doc)
    residual = forged["program"]["residual"]
    forged["program"]["steps"] += [[residual if a == "residual" else a for a in step] for step in extra]
    if any("residual" in step for step in extra):  # the last extra step is the new residual
        forged["program"]["residual"] = len(forged["program"]["steps"]) - 1
    forged["program"]["hypotheses"] = hypotheses
    return seal(forged)


def test_the_honest_root_certificate_is_accepted(root_document):
    assert "proved for every m" in check_document(seal(copy.deepcopy(root_document)))


@pytest.mark.parametrize("extra, hypotheses", [
    ([], []),  # no sign at all
    ([["neg", 0]], [4]),  # c < 0: √(c²) = −c, residual −2c
    ([["neg", 0], ["neg", 4]], [5]),  # −(−c) > 0: true, but not a form the rule reads
    ([["pow", 0, 3]], [4]),  # c³ > 0: the same
    ([["neg", 0]], [0, 4]),  # both signs: unknown
    ([["input", "b"]], [4]),  # another input's sign
    # a divisor, read (residual + 0·(1/c)): c != 0 wherever defined, no sign
    ([["const", "1"], ["div", 4, 0], ["const", "0"], ["mul", 6, 5], ["add", "residual", 7]], []),
], ids=["none", "negative", "double-negation", "cube", "both", "other-input", "divisor"])
def test_a_forged_sign_fact_for_a_root_is_rejected(root_document, extra, hypotheses):
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(_hypothesis(root_document, extra, hypotheses))


# ---------------------------------------------------------------- the divisor rule

STRICT_FALSE = {
    # 0 where c = 0 although the program divides by b (and b² > 0 by the rule)
    "square-over-divisor": lambda xp, y, c, b: c * c / (b * b) + (c - c) / b,
    "ratio-minus-one": lambda xp, y, c, b: (b * b) / (b * b) - 1 + c * c * 0,
    "root-ratio": lambda xp, y, c, b: xp.sqrt(c * c) / xp.sqrt(c * c) - 1,
    "batch-ratio": lambda xp, y, c, b: xp.sum(y * y) / xp.sum(y * y) - 1,
    "reciprocal": lambda xp, y, c, b: 1 / c,
    "over-a-square": lambda xp, y, c, b: c / (b * b),
}


@pytest.mark.parametrize("name", sorted(STRICT_FALSE))
def test_a_false_strict_inequality_with_divisors_is_never_proved(name):
    claim = _scalar(name, STRICT_FALSE[name], kind="inequality", strict=name not in ("reciprocal", "over-a-square"))
    assert _status(claim, {}) != PROVED


@pytest.fixture(scope="module")
def nonnegative_document():
    claim = Claim(id="rt27/nonnegative", source="red team", statement="x", kind="inequality",
                  variables=(Var("y", ("m",)), Var("c")), sizes={"m": (2, 4)},
                  residual=lambda xp, y, c: c * c / (xp.sum(y * y) + 1))
    result = attempt(claim, {})
    assert result.status == PROVED and result.document["proof"]["method"] == "nonnegative", result.reason
    return result.document


def _reciprocal(doc, steps, proof):
    forged = copy.deepcopy(doc)
    forged["program"].update(steps=[["input", "y"], ["input", "c"], ["const", "1"], *steps],
                             residual=2 + len(steps), hypotheses=[])
    forged["proof"] = {"method": "nonnegative", **proof}
    forged["witness"]["inputs"]["c"] = "1"
    return seal(forged)


def test_a_divisor_gives_a_nonzero_step_never_a_sign(nonnegative_document):
    # 1/c² >= 0: c² is > 0 because the program divides by it (the divisor rule), so
    # residual · c² = 1 is a proof; the control shows the forgeries below fail on their sign
    control = _reciprocal(nonnegative_document, [["pow", 1, 2], ["div", 2, 3]],
                          {"steps": [], "terms": [{"coefficient": "1", "factors": []}], "denominator": [3]})
    assert "residual >= 0" in check_document(control)
    # 1/c >= 0 (false at c < 0): the program divides by c, so c != 0 where it is defined, no more
    for proof, reason in [
            # 1/c · c² = c, "a sum of nonnegative terms" with c as a factor
            ({"steps": [["pow", 1, 2]], "terms": [{"coefficient": "1", "factors": [1]}], "denominator": [4]},
             "not manifestly >= 0"),
            # 1/c written again as the one factor
            ({"steps": [["div", 2, 1]], "terms": [{"coefficient": "1", "factors": [4]}], "denominator": []},
             "not manifestly > 0"),
            # c as a denominator: nonzero, but of no known sign
            ({"steps": [], "terms": [{"coefficient": "1", "factors": []}], "denominator": [1]},
             "not manifestly > 0")]:
        with pytest.raises(Rejected, match=reason):
            check_document(_reciprocal(nonnegative_document, [["div", 2, 1]], proof))


# ---------------------------------------------------------------- report: certificate names

COLLIDING = '''
from bnproof.claims import Claim, Law, Var
X = Law("X", (), "k")
A = Claim(id="rt27/q", source="s", statement="x", kind="identity", variables=(X, Var("batch", ("m",))),
          sizes={"k": (1, 2), "m": (2, 4)},
          residual=lambda xp, X, batch: xp.expect(lambda xp, B: xp.mean(B), X, batch.shape[0])
          - xp.expect(lambda xp, B: B[0], X, 1))
B = Claim(id="rt27/q.k1", source="s", statement="x", kind="identity", variables=(Var("y", ("m",)),),
          sizes={"m": (2, 4)}, residual=lambda xp, y: xp.sum(y) - xp.mean(y) * y.shape[0])
'''


def test_a_report_refuses_claims_whose_certificate_files_coincide(tmp_path):
    # rt27/q proved at k = 1 is rt27/q.k1.proof.json, and so is rt27/q.k1 proved: the
    # report named the first claim's certificate and the file held the second one's
    from bnproof._api.report import claims_of
    from bnproof.errors import BadInput

    (tmp_path / "colliding.py").write_text(COLLIDING)
    with pytest.raises(BadInput, match="rt27/q.k1"):
        claims_of([str(tmp_path / "colliding.py")])
    (tmp_path / "apart.py").write_text(COLLIDING.replace('"rt27/q.k1"', '"rt27/q-k1"'))
    assert [c.id for c in claims_of([str(tmp_path / "apart.py")])] == ["rt27/q", "rt27/q-k1"]


@pytest.mark.parametrize("command", [["prove"], ["fuzz", "--no-jax", "--max-examples", "10", "--time-budget", "60"]])
def test_prove_and_fuzz_refuse_claims_whose_certificate_files_coincide(tmp_path, command):
    # prove FILE wrote rt27/q.k1.proof.json twice, and its line for rt27/q named the second
    from cli_runner import run_cli

    (tmp_path / "colliding.py").write_text(COLLIDING)
    proc = run_cli(command[0], str(tmp_path / "colliding.py"), *command[1:], "--out-dir", str(tmp_path / "out"),
                   cwd=tmp_path)
    assert proc.returncode == 3, (proc.returncode, proc.stdout, proc.stderr)
    assert "rt27/q.k1" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- floats that round to the boundary

@pytest.mark.xfail(strict=True, reason="a false claim whose float residual underflows to (-)0.0 everywhere and "
                   "whose exact decision the engine declines (exp of an argument beyond ±4096) survives: "
                   "near-ties and samples the exact engine cannot decide are dropped, not counted as "
                   "undecided (search/hypothesis_search.py near-tie branch, search/fuzz.py samples), so "
                   "'no counterexample in N instances' is printed although every instance is one")
@pytest.mark.parametrize("kind, sign", [("inequality", -1), ("identity", 1)])
def test_a_false_claim_that_underflows_everywhere_does_not_survive(kind, sign):
    import bnproof

    claim = Claim(id=f"rt27/underflow-{kind}", source="red team", statement="x", kind=kind,
                  variables=(Var("c"),), sizes={},
                  residual=lambda xp, c: sign * xp.exp(-(c * c + 1) * 10**4))
    result = bnproof.fuzz(claim, seed=0, max_examples=30, time_budget=60, jax=False, prove=False)
    assert result.verdict != "survived", result.reason


# ---------------------------------------------------------------- moments-n: two laws

def test_two_laws_are_never_read_as_one():
    # E[X] − E[Y] for two laws: the tracer named both laws' moments μ_k, so the program was
    # 0; only the second reading stood between it and a proof, as an internal disagreement
    # (exit 7).  Two laws are outside the fragment; fuzz refutes the claim.
    import bnproof

    Y = Law("Y", (), "k")
    claim = Claim(id="rt27/two-laws", source="red team", statement=r"\mathbb{E}[X] = \mathbb{E}[Y]",
                  kind="identity", variables=(X, Y, BATCH), sizes={"k": (1, 3), "m": (2, 4)},
                  residual=lambda xp, X, Y, batch: xp.expect(_mean, X, batch.shape[0])
                  - xp.expect(_mean, Y, batch.shape[0]))
    result = attempt(claim, {"k": 2})
    assert result.status == OUTSIDE and "more than one Law" in result.reason, result.reason
    assert bnproof.fuzz(claim, seed=0, max_examples=20, time_budget=60, jax=False).verdict == "refuted"


@pytest.mark.parametrize("name", ["never", "batch-never", "formally-zero"])
def test_a_zero_residual_under_hypotheses_that_never_hold_is_not_proved(name):
    hypothesis = {"never": lambda xp, y, c, b: -(c * c) - 1,
                  "batch-never": lambda xp, y, c, b: -xp.sum(y * y),
                  "formally-zero": lambda xp, y, c, b: xp.sum(y * y) - xp.sum(y * y)}[name]
    claim = _scalar(f"vacuous-{name}", lambda xp, y, c, b: c - c, (hypothesis,))
    result = attempt(claim, {})
    assert result.status == NOT_PROVED and "vacuous" in result.reason, result.reason


@pytest.mark.parametrize("batch", [[5], {"b": 5}, "5", True])
def test_a_draw_of_a_batch_that_is_no_index_is_rejected_with_the_reason(mean_document, batch):
    # ["draw", [5], 0]: the checker looked a list up in its batches and stopped on a TypeError
    # ("internal checker error"), not on the certificate's fault
    steps = copy.deepcopy(mean_document["program"]["steps"])
    assert steps[6] == ["draw", 5, 0]
    steps[6] = ["draw", batch, 0]
    with pytest.raises(Rejected, match="not a draw of an earlier batch"):
        check_document(_forge(mean_document, steps, mean_document["program"]["residual"]))


# ---------------------------------------------------------------- moments-n: draws of a fixed batch

def _e2(xp, X):
    return xp.expect(lambda xp, B: B[0] * B[0], X, 1)


FIXED_DRAWS = {  # name: (residual, true?)
    # B[-1] is B[1] of two draws (independent), B[0] itself of one (X²)
    "last-of-two": (lambda xp, X, batch: xp.expect(lambda xp, B: B[0] * B[-1], X, 2) - _ex(xp, X) ** 2, True),
    "last-of-one": (lambda xp, X, batch: xp.expect(lambda xp, B: B[0] * B[-1], X, 1) - _e2(xp, X), True),
    "last-of-two-as-one": (lambda xp, X, batch: xp.expect(lambda xp, B: B[0] * B[-1], X, 2) - _e2(xp, X), False),
    "slice": (lambda xp, X, batch: xp.expect(lambda xp, B: xp.sum(B[1:]) * B[0], X, 3) - 2 * _ex(xp, X) ** 2, True),
    "slice-with-itself": (lambda xp, X, batch: xp.expect(lambda xp, B: xp.sum(B[1:]) * B[0], X, 3)
                          - _e2(xp, X) - _ex(xp, X) ** 2, False),
    "reversed": (lambda xp, X, batch: xp.expect(lambda xp, B: B[::-1][0] * B[0], X, 3) - _ex(xp, X) ** 2, True),
    "reversed-onto-itself": (lambda xp, X, batch: xp.expect(lambda xp, B: B[::-1][0] * B[2], X, 3)
                             - _ex(xp, X) ** 2, False),
    "mean-of-four": (lambda xp, X, batch: xp.var(_mean, X, 4) - xp.var(_one, X, 1) / 4, True),
    "mean-of-four-over-three": (lambda xp, X, batch: xp.var(_mean, X, 4) - xp.var(_one, X, 1) / 3, False),
}


@pytest.mark.parametrize("name", sorted(FIXED_DRAWS))
def test_draws_of_a_fixed_batch_coincide_only_where_they_are_one_draw(name):
    residual, true = FIXED_DRAWS[name]
    result = attempt(_moments(name, residual), {"k": 2})
    assert result.status == (PROVED if true else NOT_PROVED), result.reason


def test_a_program_beyond_the_checker_s_work_limit_is_not_proved_never_an_internal_error(monkeypatch):
    # the engine looks for its witness with the checker's own replay: a program over the
    # checker's limits raised Rejected out of the prover (exit 8); it is "not proved"
    from bnproof.checker import moments_n as CM

    claims = {c.id.rsplit("/", 1)[1]: c for c in load_file(EXAMPLES / "every_n_moments.py")}
    monkeypatch.setattr(CM, "MAX_WORK", 300)  # the variance of s² needs about 740 units
    result = attempt(claims["variance-of-the-sample-variance"], {"k": 2})
    assert result.status == NOT_PROVED and "work limit" in result.reason, result.reason
