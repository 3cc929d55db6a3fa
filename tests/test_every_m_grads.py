"""Gradients with respect to scalars and fixed-length parameter vectors, proved for every
m (issue 23, pattern 2): ``xp.grad(f, c)`` records ["grad", f, c] for a scalar input c
(one such step per entry of a vector w of fixed length); the prover differentiates its
normal form by the chain rule over the atoms (symbolic_m/algebra.py: derivative), and
the checker differentiates its own again (checker/symbolic_length.py: derivative) and,
at the witness, in reverse mode over the scalar steps (checker/instantiate.py).  The near
misses are never proved, a certificate whose derivative step is changed is rejected, and
the tracer refuses a gradient it cannot read as the exact engines do."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import bnproof
from bnproof.checker import Rejected, check_document
from bnproof.claims import Claim, Var
from bnproof.claims.api import load_file
from bnproof.symbolic_m.crosscheck import second_reading
from bnproof.symbolic_m.fragment import OutsideFragment
from bnproof.symbolic_m.prove import attempt, prove_claim
from bnproof.symbolic_m.trace import program_for
from tests.tamper import domain_dropped, seal

GALLERY = Path(__file__).resolve().parents[1] / "docs" / "examples" / "every_m_grads.py"
CLAIMS = {c.id.rsplit("/", 1)[1]: c for c in load_file(GALLERY)}
TRUE = ("gamma", "beta", "gamma-squared-loss", "gamma-curvature", "variance", "mean",
        "scale-invariance")
TRUE_AT_EVERY_D = ("euler", "norm-growth", "effective-learning-rate", "weight-norm-gain",
                   "weight-norm-direction", "backprop-linear", "bn-input-gradient")
NEAR_MISSES = ("gamma-unnormalized", "beta-wrong-sign", "scale-one")


# --- the prover, end to end ----------------------------------------------------------

@pytest.mark.parametrize("name", TRUE)
def test_true_claims_are_proved_for_every_m_and_the_checker_accepts(name):
    result = attempt(CLAIMS[name])
    assert result.proved, result.reason
    assert result.proof == {"method": "zero"}
    assert "proved for every m" in check_document(result.document)
    assert any(s[0] == "grad" for s in result.program["steps"])


@pytest.mark.parametrize("name", TRUE_AT_EVERY_D)
def test_claims_of_w_are_proved_at_every_declared_d(name):
    # at each d (prove_claim proves some of them for every d at once: tests/test_every_d.py)
    attempts = [attempt(CLAIMS[name], {"d": d}) for d in (1, 2, 3)]
    assert [a.fixed for a in attempts] == [{"d": 1}, {"d": 2}, {"d": 3}]
    for a in attempts:
        assert a.proved, a.reason
        assert "proved for every m at d = " in check_document(a.document)
        if name == "euler":  # one derivative step per entry of w: w:0, ..., w:(d-1)
            grads = [s for s in a.program["steps"] if s[0] == "grad"]
            assert len(grads) == a.fixed["d"]


@pytest.mark.parametrize("name", ["bn-input-gradient-no-projection", "weight-norm-direction-unprojected"])
@pytest.mark.parametrize("d", [1, 2])
def test_the_missing_projection_is_never_proved(name, d):
    result = attempt(CLAIMS[name], {"d": d})
    assert not result.proved and result.reason.startswith("not proved: normal form")


def test_the_effective_learning_rate_near_miss_is_never_proved_at_d_2():
    # at d = 1, L(w) = Σ g·BN(X w) = sign(w)·Σ g·BN(X) is flat, so 1/c² is as true as 1/c
    result = attempt(CLAIMS["effective-learning-rate-squared"], {"d": 2})
    assert not result.proved and result.reason.startswith("not proved: normal form")


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_are_never_proved(name):
    result = attempt(CLAIMS[name])
    assert not result.proved and result.document is None
    assert result.reason.startswith("not proved: normal form")


def test_the_euler_near_miss_is_never_proved():
    attempts = prove_claim(CLAIMS["euler-plus"])
    assert not attempts[-1].proved and attempts[-1].reason.startswith("not proved: normal form")


@pytest.mark.parametrize("name", ["gamma-unnormalized", "scale-one"])
def test_near_misses_are_refuted_by_fuzz(name, tmp_path):
    result = bnproof.fuzz(CLAIMS[name], out_dir=tmp_path, seed=0, max_examples=60, time_budget=60, jax=False)
    assert result.verdict == "refuted"
    assert bnproof.check(result.certificate_path, claim=CLAIMS[name]).accepted


@pytest.mark.parametrize("name", ["gamma", "gamma-curvature", "mean", "scale-invariance"])
def test_the_proof_passes_the_second_reading(name):
    claim = CLAIMS[name]
    result = attempt(claim)
    assert second_reading(claim, {}, result.program).status == "agrees"


@pytest.mark.parametrize("name", ["euler", "effective-learning-rate", "weight-norm-gain", "backprop-linear"])
def test_claims_of_w_pass_the_second_reading_at_d_2(name):
    claim = CLAIMS[name]
    program = program_for(claim, {"d": 2})
    assert second_reading(claim, {"d": 2}, program).status == "agrees"


# --- what the tracer refuses ---------------------------------------------------------

def _claim(residual, cid="me/grad", c_domain="real"):
    return Claim(id=cid, source="a test", statement="x = 0", kind="identity",
                 variables=(Var("y", ("m",)), Var("c", (), c_domain), Var("w", ("d",))),
                 sizes={"m": (2, 4), "d": (2, 2)}, residual=residual)


def _reason(residual) -> str:
    with pytest.raises(OutsideFragment) as err:
        program_for(_claim(residual), {"d": 2})
    return err.value.reason


def _proved(residual, cid) -> bool:
    result = attempt(_claim(residual, cid), {"d": 2})
    return result.proved


def test_a_closure_that_reads_the_scalar_is_differentiated_in_its_argument_only():
    # xp.grad differentiates its argument only: d/dt (t·c) at t = c is c (the exact engines
    # hold the c that f reads fixed), while ["grad", c·c, c] would read 2c.  Such a closure
    # is differentiated in forward mode over its placeholder (tangents.py), no grad step.
    program = program_for(_claim(lambda xp, y, c, w: xp.grad(lambda t: t * c, c) - c), {"d": 2})
    assert not any(s[0] == "grad" for s in program["steps"])
    assert _proved(lambda xp, y, c, w: xp.grad(lambda t: t * c, c) - c, "me/closure")
    assert not _proved(lambda xp, y, c, w: xp.grad(lambda t: t * c, c) - 2 * c, "me/closure-2c")


def test_a_closure_that_reads_w_is_differentiated_in_its_argument_only():
    # ∇_v ⟨v, w⟩ at v = w is w, not 2w
    assert _proved(lambda xp, y, c, w: xp.sum((xp.grad(lambda v: xp.dot(v, w), w) - w) ** 2), "me/cw")
    assert not _proved(lambda xp, y, c, w: xp.sum((xp.grad(lambda v: xp.dot(v, w), w) - 2 * w) ** 2),
                       "me/cw-2w")


def test_a_gradient_at_a_computed_point():
    # d/dt t² at t = 2c is 4c; ∇‖v‖² at v = c·w is 2c·w; through a root: d/dt √(t² + 1)
    assert _proved(lambda xp, y, c, w: xp.grad(lambda t: t * t, 2 * c) - 4 * c, "me/at-2c")
    assert not _proved(lambda xp, y, c, w: xp.grad(lambda t: t * t, 2 * c) - 2 * c, "me/at-2c-wrong")
    assert _proved(lambda xp, y, c, w: xp.sum((xp.grad(lambda v: xp.dot(v, v), c * w) - 2 * c * w) ** 2),
                   "me/at-cw")
    assert _proved(lambda xp, y, c, w: xp.grad(lambda t: xp.sqrt(t * t + 1), c * c)
                   - c * c / xp.sqrt(c**4 + 1), "me/at-root")
    assert not _proved(lambda xp, y, c, w: xp.grad(lambda t: xp.sqrt(t * t + 1), c * c)
                       - c / xp.sqrt(c**4 + 1), "me/at-root-wrong")


def test_a_gradient_at_a_computed_point_through_batch_sums():
    # d/dt Σ (t·y)² at t = c + 1 is 2(c + 1) Σ y²: a scalar tangent broadcast over the batch
    assert _proved(lambda xp, y, c, w: xp.grad(lambda t: xp.sum((t * y + t) ** 2), c + 1)
                   - 2 * (c + 1) * xp.sum((y + 1) ** 2), "me/at-batch")
    assert not _proved(lambda xp, y, c, w: xp.grad(lambda t: xp.sum((t * y + t) ** 2), c + 1)
                       - 2 * (c + 1) * xp.sum(y ** 2 + 1), "me/at-batch-wrong")


def test_a_wrong_tangent_is_caught_by_the_second_reading(monkeypatch):
    # forward mode writes ordinary steps, which the checker replays without knowing they
    # are a derivative: the second reading (which differentiates the claim's own code) is
    # what stands between a wrong tangent and a proof.  A tracer whose derivative at a
    # computed point is 0 would "prove" d/dt t² at t = 2c is 0.
    from bnproof.errors import Disagreement
    from bnproof.symbolic_m import tangents

    from bnproof.symbolic_m.crosscheck import gate

    claim = _claim(lambda xp, y, c, w: xp.grad(lambda t: t * t, 2 * c), "me/zero-tangent")
    assert gate(claim, {"d": 2}, program_for(claim, {"d": 2})) is None  # the honest tracer agrees
    monkeypatch.setattr(tangents, "at_point", lambda rec, f, probes, point: [rec.const(0) for _ in probes])
    program = program_for(claim, {"d": 2})
    assert program["steps"][program["residual"]] == ["const", "0"]
    with pytest.raises(Disagreement):
        gate(claim, {"d": 2}, program)


def test_a_batch_vector_closure_is_differentiated_in_its_argument_only():
    # ∇_u Σ u∘y at u = y is y (y read from outside is a constant), not 2y: reverse mode
    # over the placeholder's steps (tangents.gradient_at), no grad step
    program = program_for(_claim(lambda xp, y, c, w: xp.sum(xp.grad(lambda u: xp.sum(u * y), y))), {"d": 2})
    assert not any(s[0] == "grad" for s in program["steps"])
    assert _proved(lambda xp, y, c, w: xp.sum((xp.grad(lambda u: xp.sum(u * y), y) - y) ** 2), "me/vy")
    assert not _proved(lambda xp, y, c, w: xp.sum((xp.grad(lambda u: xp.sum(u * y), y) - 2 * y) ** 2),
                       "me/vy-2y")


def test_a_gradient_at_a_computed_batch_vector():
    # ∇ Σu² at u = 2y is 4y; ∇ Σ u·√(Σu²) at u = y + c (a scalar broadcast, a root)
    assert _proved(lambda xp, y, c, w: xp.sum((xp.grad(lambda u: xp.sum(u * u), 2 * y) - 4 * y) ** 2),
                   "me/at-2y")
    assert not _proved(lambda xp, y, c, w: xp.sum((xp.grad(lambda u: xp.sum(u * u), 2 * y) - 2 * y) ** 2),
                       "me/at-2y-wrong")

    def norm_gradient(xp, y, c, w):
        z = y + c
        n = xp.sqrt(xp.sum(z * z) + 1)
        at = xp.grad(lambda u: xp.sum(u) * xp.sqrt(xp.sum(u * u) + 1), z)
        return xp.sum((at - (n + xp.sum(z) * z / n)) ** 2)

    assert _proved(norm_gradient, "me/at-root-vector")


def test_a_wrong_adjoint_is_caught_by_the_second_reading(monkeypatch):
    from bnproof.errors import Disagreement
    from bnproof.symbolic_m import tangents
    from bnproof.symbolic_m.crosscheck import gate

    claim = _claim(lambda xp, y, c, w: xp.sum(xp.grad(lambda u: xp.sum(u * u), 2 * y) * y), "me/zero-adjoint")
    assert gate(claim, {"d": 2}, program_for(claim, {"d": 2})) is None
    monkeypatch.setattr(tangents, "gradient_at", lambda rec, f, probe, point: point * 0)
    with pytest.raises(Disagreement):
        gate(claim, {"d": 2}, program_for(claim, {"d": 2}))


def test_a_nested_gradient_at_a_computed_point_is_refused():
    reason = _reason(lambda xp, y, c, w: xp.grad(lambda t: xp.grad(lambda u: u * u * t, c), 2 * c))
    assert "a gradient inside the function of a gradient at a computed point" in reason


def test_a_placeholder_that_escapes_is_refused():
    kept = []

    def residual(xp, y, c, w):
        def f(t):
            kept.append(t)
            return t * t
        return xp.grad(f, c) - 2 * kept[0]

    reason = _reason(residual)
    assert "escaped" in reason


def test_a_vector_of_scalars_gives_its_shape():
    # ∇_w ‖w‖² = 2w, entry by entry (a (d,) array of derivative steps)
    claim = _claim(lambda xp, y, c, w: xp.sum((xp.grad(lambda v: xp.dot(v, v), w) - 2 * w) ** 2),
                   "me/grad-norm")
    assert attempt(claim, {"d": 2}).proved


# --- the checker, on changed certificates ----------------------------------------------

def _gamma_document():
    return attempt(CLAIMS["gamma"]).document


def _input_step(doc, name):
    return next(i for i, s in enumerate(doc["program"]["steps"]) if s == ["input", name])


def test_a_derivative_by_beta_in_place_of_gamma_is_rejected():
    doc = _gamma_document()
    forged = copy.deepcopy(doc)
    steps = forged["program"]["steps"]
    gamma, beta = _input_step(doc, "gamma"), _input_step(doc, "beta")
    grads = [i for i, s in enumerate(steps) if s[0] == "grad"]
    assert grads and all(steps[i][2] == gamma for i in grads)
    for i in grads:
        steps[i] = ["grad", steps[i][1], beta]
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


def test_a_derivative_claimed_to_vanish_is_rejected():
    # residual := ∂L/∂γ alone (the claim "∂L/∂γ = 0"): a checker that took every derivative
    # by a scalar as 0 would accept it
    forged = copy.deepcopy(_gamma_document())
    steps = forged["program"]["steps"]
    grad, old = next(i for i, s in enumerate(steps) if s[0] == "grad"), forged["program"]["residual"]
    # grad + 0·(the old residual): every step stays read (an unread one is a hidden hypothesis)
    steps += [["const", "0"], ["mul", len(steps), old], ["add", grad, len(steps) + 1]]
    forged["program"]["residual"] = len(steps) - 1
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


def test_a_derivative_through_a_root_claimed_to_vanish_is_rejected():
    # ∂/∂σ² of Σ g (x − μ)/√(σ² + ε) is not 0: a checker that took a root for a constant
    # would accept the residual made the derivative alone
    forged = copy.deepcopy(attempt(CLAIMS["variance"]).document)
    steps = forged["program"]["steps"]
    grad, old = next(i for i, s in enumerate(steps) if s[0] == "grad"), forged["program"]["residual"]
    # grad + 0·(the old residual): every step stays read (an unread one is a hidden hypothesis)
    steps += [["const", "0"], ["mul", len(steps), old], ["add", grad, len(steps) + 1]]
    forged["program"]["residual"] = len(steps) - 1
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


def _root_slope(domain):
    """∂/∂c √(c²·V) = √V: true for c > 0, false for c < 0 (it is −√V there)."""
    def spread(xp, y, **_):
        return xp.mean((y - xp.mean(y)) ** 2)

    return Claim(id=f"me/root-slope-{domain}", source="a test", statement="x = 0", kind="identity",
                 variables=(Var("y", ("m",)), Var("c", (), domain)), sizes={"m": (2, 4)},
                 hypotheses=(spread,),
                 residual=lambda xp, y, c: xp.grad(lambda t: xp.sqrt(t * t * spread(xp, y)), c)
                 - xp.sqrt(spread(xp, y)))


def test_a_derivative_through_a_signed_root_needs_the_sign():
    assert attempt(_root_slope("positive")).proved
    unsigned = attempt(_root_slope("real"))
    assert not unsigned.proved and unsigned.reason.startswith("not proved: normal form")


def test_a_certificate_that_drops_the_sign_is_rejected():
    # c's domain made real in the certificate: √(c²V) stays whole, and its derivative
    # c·V/√(c²V) is not √V
    forged = domain_dropped(attempt(_root_slope("positive")).document, "c")
    with pytest.raises(Rejected, match="normal form is not 0"):
        check_document(seal(forged))


def test_scale_invariance_holds_without_a_sign():
    # Σ g BN(c·y) = sign(c) Σ g ŷ is flat in c wherever c ≠ 0: both normal forms reduce its
    # derivative to 0 with c of unknown sign, rightly
    forged = domain_dropped(attempt(CLAIMS["scale-invariance"]).document, "c")
    assert "proved for every m" in check_document(seal(forged))


@pytest.mark.parametrize("target", ["m", "computed", "const"])
def test_a_derivative_by_a_step_that_is_not_an_input_is_rejected(target):
    forged = copy.deepcopy(_gamma_document())
    steps = forged["program"]["steps"]
    grad = next(i for i, s in enumerate(steps) if s[0] == "grad")
    by = {"m": next(i for i, s in enumerate(steps) if s == ["m"]),
          "computed": next(i for i, s in enumerate(steps) if s[0] == "sqrt"),
          "const": None}[target]
    if by is None:
        steps.insert(0, ["const", "2"])
        forged["program"]["steps"] = steps = [steps[0]] + [_shift(s) for s in steps[1:]]
        forged["program"]["residual"] += 1
        forged["program"]["hypotheses"] = [h + 1 for h in forged["program"]["hypotheses"]]
        grad, by = grad + 1, 0
    steps[grad] = ["grad", steps[grad][1], by]
    with pytest.raises(Rejected, match="grad must be taken with respect to a vector or scalar input"):
        check_document(seal(forged))


def _shift(step):
    """A step's operand indices + 1 (a step put in front of the program)."""
    op = step[0]
    if op in ("input", "const", "m", "ones", "eye"):
        return step
    if op == "pow":
        return [op, step[1] + 1, step[2]]
    return [op, *(j + 1 for j in step[1:])]


def _at_m3(doc, values):
    """The program's residual at m = 3 and these inputs, as the witness check computes it
    (checker/instantiate.py differentiates in reverse mode over the scalar steps): the
    facts that it is >= 0 and <= 0, each decided (Rejected if one is false)."""
    from bnproof.checker import program as fixed_program
    from bnproof.checker.instantiate import instantiate
    from bnproof.checker.symbolic_program import read_inputs, read_steps

    inputs = read_inputs(doc["program"]["inputs"])
    types: list = []
    ops = read_steps(doc["program"]["steps"], inputs, types, "program.steps")
    steps, vals = instantiate(inputs, ops, types, 3)
    r = vals[doc["program"]["residual"]]
    facts = [("residual", r, "nonnegative"), ("residual", r, "nonpositive")]
    return fixed_program.evaluate(fixed_program.parse_steps(steps, values), facts)


WITNESS = {"y": ["1", "2", "6"], "g": ["3", "-1", "2"], "gamma": "5", "beta": "7"}


def test_the_checker_differentiates_at_the_witness_too():
    from fractions import Fraction

    values = {k: [Fraction(x) for x in v] if isinstance(v, list) else Fraction(v) for k, v in WITNESS.items()}
    doc = _gamma_document()
    assert _at_m3(doc, values)  # ∂/∂γ Σ g (γ ŷ + β) − Σ g ŷ is exactly 0 at m = 3
    forged = copy.deepcopy(doc)
    steps = forged["program"]["steps"]
    for i, s in enumerate(steps):
        if s[0] == "grad":
            steps[i] = ["grad", s[1], _input_step(doc, "beta")]
    with pytest.raises(Rejected, match="is not non"):
        _at_m3(forged, values)  # Σ g − Σ g ŷ = 4 − Σ g ŷ ≠ 0 there


@pytest.mark.parametrize("name", ["gamma-curvature", "effective-learning-rate"])
def test_the_proof_renders_as_a_latex_derivation(name):
    # the derivation is printed from the checker's own normal forms: the derivative steps
    # (the checker's, or forward mode's plain steps) reduce to R = 0 there too
    result = bnproof.prove(CLAIMS[name])
    assert result.status == "proved", result
    assert "the identity holds for every $m$" in bnproof.latex(result)


def test_a_certificate_of_forty_nested_derivatives_is_refused_within_the_limits():
    # ∂⁴⁰/∂c⁴⁰ of √(c² + 1)/(c² + 1), hand-written: the checker's normal forms stay within its
    # work limit and the witness's reverse-mode instantiation hits its step limit (a
    # rejection, never a hang)
    from bnproof.certificate.proof import document

    steps = [["input", "y"], ["input", "c"], ["pow", 1, 2], ["const", "1"], ["add", 2, 3], ["sqrt", 4],
             ["div", 5, 4]]
    f = len(steps) - 1
    for _ in range(40):
        steps.append(["grad", f, 1])
        f = len(steps) - 1
    steps.append(["sub", f, f])
    program = {"inputs": [["y", "vector", "real"], ["c", "scalar", "real"]], "steps": steps,
               "residual": len(steps) - 1, "hypotheses": [], "kind": "identity", "strict": False}
    body = {"id": "me/nested", "source": "a test", "statement": "x = 0", "kind": "identity",
            "variables": [{"name": "y", "shape": ["m"], "domain": "real"},
                          {"name": "c", "shape": [], "domain": "real"}]}
    doc = document(body, program, {"method": "zero"}, {"m": 2, "inputs": {"y": ["1", "2"], "c": "1"}})
    with pytest.raises(Rejected, match="more than|work limit"):
        check_document(doc)
