"""Proofs for every batch size m (bnproof.symbolic_m): the papers' true claims are
proved, near misses never are, claims outside the fragment say so, and the
normal forms agree with the fixed-size engine on exact and float instances."""

import json
import math
import random
from fractions import Fraction

import numpy as np
import pytest

from bnproof.claims import Claim, Var
from bnproof.claims.api import named
from bnproof.claims.blocks import backprop, norm2, normalize, stats
from bnproof.symbolic_m import poly as P
from bnproof.symbolic_m.evaluate import Replay
from bnproof.symbolic_m.prove import NOT_PROVED, OUTSIDE, PROVED, attempt, prove_claim, replays
from bnproof.symbolic_m.trace import program_for

PROVED_CLAIMS = [
    "santurkar2018/theorem-4.1/as-derived", "santurkar2018/theorem-4.2", "santurkar2018/observation-4.3",
    "santurkar2018/fact-c.1", "santurkar2018/fact-c.2", "santurkar2018/fact-c.2/eq-2",
    "dannemann2025/remark-2.7/corrected", "santurkar2018/theorem-4.4/intended",
    "santurkar2018/theorem-4.2/part-2/corrected",
]
NEVER_PROVED = [
    "santurkar2018/theorem-4.1",  # 1/√m for 1/m
    "dannemann2025/remark-2.7",  # β = μ/σ as printed
    "santurkar2018/observation-4.3/minima-preserved",
    "santurkar2018/theorem-4.2/part-2",
    "santurkar2018/theorem-4.2/part-2/gamma-below-sigma",  # γ ≤ σ only: false for γ = −10σ
    "santurkar2018/theorem-4.4", "santurkar2018/theorem-4.4/as-derived", "santurkar2018/theorem-c.1",
    "santurkar2018/lemma-4.5",
]


@pytest.mark.parametrize("claim_id", PROVED_CLAIMS)
def test_the_papers_true_claims_are_proved_for_every_m(claim_id):
    attempts = prove_claim(named(claim_id))
    assert attempts and all(a.proved for a in attempts), attempts[-1].reason
    for a in attempts:  # the certificate was built, so the independent checker accepted it
        assert a.document is not None and a.document["kind"] == "proof"
        assert a.witness["m"] >= 2


def test_observation_4_3_is_proved_at_each_fixed_d():
    claim = named("santurkar2018/observation-4.3")
    assert all(attempt(claim, {"d": d}).proved for d in (1, 2, 3))
    # prove_claim proves it for every d at once (symbolic_m/every_d.py, tests/test_every_d.py)
    assert [a.fixed for a in prove_claim(claim)] == [{}]


def test_theorem_4_2_part_1_holds_with_equality_and_part_2_by_a_decomposition():
    part_1, = prove_claim(named("santurkar2018/theorem-4.2"))
    assert part_1.proof == {"method": "zero"} and part_1.equality
    part_2, = prove_claim(named("santurkar2018/theorem-4.2/part-2/corrected"))
    proof = part_2.proof
    assert proof["method"] == "nonnegative" and not part_2.equality
    assert all(Fraction(t["coefficient"]) > 0 for t in proof["terms"])
    hypothesis = part_2.program["hypotheses"][1]  # σ² − γ² is a factor of some term
    assert any(hypothesis in t["factors"] for t in proof["terms"])


@pytest.mark.parametrize("claim_id", NEVER_PROVED)
def test_false_or_unprovable_paper_claims_are_never_proved(claim_id):
    last = prove_claim(named(claim_id))[-1]
    assert not last.proved
    assert last.reason.startswith(("not proved", "not in the provable fragment"))


def test_the_printed_theorem_4_1_shows_its_normal_form():
    last, = prove_claim(named("santurkar2018/theorem-4.1"))
    assert last.status == NOT_PROVED and "normal form" in last.reason and "√(m)" in last.reason
    assert r"\sqrt{m}" in last.normal_form_latex


# ---------------------------------------------------------------- near misses of one's own

def _thm41(coefficient):
    def residual(xp, y, g, gamma):
        yhat, sigma = normalize(xp, y)
        m = y.shape[0]
        lhs = norm2(xp, backprop(xp, g, yhat, sigma, gamma))
        rhs = gamma**2 / sigma**2 * (norm2(xp, g) - xp.sum(g) ** 2 * xp.q(1, m)
                                     - coefficient(xp, m) * xp.sum(g * yhat) ** 2)
        return rhs - lhs
    return residual


def _claim(residual, variables=(Var("y", ("m",)), Var("g", ("m",)), Var("gamma", (), "nonzero")),
           kind="identity", hypotheses=None, sizes=None, strict=False):
    if hypotheses is None:
        hypotheses = (lambda xp, y, *rest, **kw: stats(xp, y)[1] ** 2,)
    return Claim(id="test/near-miss", source="test", statement="x", residual=residual, variables=variables,
                 sizes=sizes or {"m": (2, 5)}, kind=kind, hypotheses=hypotheses, strict=strict)


NEAR_MISSES = {
    "1/m as derived (control)": (lambda xp, m: xp.q(1, m), PROVED),
    "2/m": (lambda xp, m: xp.q(2, 1) / m, NOT_PROVED),
    "1/(m - 1)": (lambda xp, m: 1 / (m - 1), NOT_PROVED),
    "1/sqrt(m)": (lambda xp, m: 1 / xp.sqrt(xp.q(m)), NOT_PROVED),
    "-1/m (a sign flip)": (lambda xp, m: -xp.q(1, m), NOT_PROVED),
}


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_near_misses_of_theorem_4_1_are_never_proved(name):
    coefficient, expected = NEAR_MISSES[name]
    result = attempt(_claim(_thm41(coefficient)), {})
    assert result.status == expected, result.reason


def test_the_same_near_misses_as_inequalities_are_not_proved_either():
    # with 1/√m the inequality is false at m ≥ 2; with 2/m it is false too
    for coefficient in (lambda xp, m: 1 / xp.sqrt(xp.q(m)), lambda xp, m: xp.q(2, 1) / m):
        assert not attempt(_claim(_thm41(coefficient), kind="inequality"), {}).proved


def _recovery(variance_divisor):
    def residual(xp, z):
        m = z.shape[0]
        mu = xp.mean(z)
        sigma = xp.sqrt(xp.sum((z - mu) ** 2) / variance_divisor(xp, m))
        return xp.sum((sigma * (z - mu) / sigma + mu - z) ** 2)
    return residual


def test_biased_and_unbiased_variance():
    z = (Var("z", ("m",)),)
    hyp = (lambda xp, z: xp.sum((z - xp.mean(z)) ** 2),)
    assert attempt(_claim(_recovery(lambda xp, m: m), z, hypotheses=hyp), {}).proved
    assert attempt(_claim(_recovery(lambda xp, m: m - 1), z, hypotheses=hyp), {}).proved  # σ cancels

    def scaled(divisor):  # ŷ with an unbiased σ has ‖ŷ‖² = m − 1, not m: never "= m"
        def residual(xp, z):
            m = z.shape[0]
            sigma = xp.sqrt(xp.sum((z - xp.mean(z)) ** 2) / divisor(xp, m))
            return xp.sum(((z - xp.mean(z)) / sigma) ** 2) - m
        return residual

    assert attempt(_claim(scaled(lambda xp, m: m), z, hypotheses=hyp), {}).proved
    result = attempt(_claim(scaled(lambda xp, m: m - 1), z, hypotheses=hyp), {})
    assert result.status == NOT_PROVED and "normal form" in result.reason


def test_an_identity_that_holds_only_at_m_2_is_not_proved():
    # at m = 2 every ŷ entry is ±1, so Σŷ⁴ = 2 = m; at m = 3 it fails
    from bnproof.claims.prove import prove_at

    claim = _claim(lambda xp, z: xp.sum(normalize(xp, z)[0] ** 4) - z.shape[0], (Var("z", ("m",)),),
                   hypotheses=(lambda xp, z: stats(xp, z)[1] ** 2,), sizes={"m": (2, 2)})
    assert prove_at(claim, {"m": 2}).proved  # the fixed-size prover: true at m = 2
    result = attempt(claim, {})
    assert result.status == NOT_PROVED and "normal form" in result.reason


def test_a_strict_claim_whose_residual_is_identically_0_is_not_proved():
    claim = _claim(_thm41(lambda xp, m: xp.q(1, m)), kind="inequality", strict=True)
    result = attempt(claim, {})
    assert result.status == NOT_PROVED and "fails with equality" in result.reason


def test_division_by_a_formally_zero_scalar_is_never_a_value():
    claim = _claim(lambda xp, y, g, gamma: xp.sum(y) / (xp.sum(y) * 2 - xp.sum(y) - xp.sum(y)))
    result = attempt(claim, {})
    assert result.status == NOT_PROVED and "formally 0" in result.reason


def test_a_vacuous_claim_is_not_proved():
    # the residual is 0 everywhere, but the hypothesis −σ² > 0 never holds: no witness
    claim = _claim(lambda xp, y, g, gamma: xp.sum(y - y), hypotheses=(lambda xp, y, g, gamma: -stats(xp, y)[1] ** 2,))
    result = attempt(claim, {})
    assert result.status == NOT_PROVED and "vacuous" in result.reason


# ---------------------------------------------------------------- outside the fragment

OUTSIDE_CASES = {
    "relu": (lambda xp, y: xp.sum(xp.relu(y)), "uses relu"),
    "abs": (lambda xp, y: xp.sum(xp.abs(y)), "uses abs"),
    "max": (lambda xp, y: xp.max(y), "uses max"),
    "exp": (lambda xp, y: xp.sum(xp.exp(y)), "uses exp"),
    "loop": (lambda xp, y: sum((y[i] for i in range(y.shape[0])), xp.q(0)), "loop or index over the batch size"),
    "index": (lambda xp, y: y[0], "indexing"),
    "branch": (lambda xp, y: xp.sum(y) if xp.sum(y) else xp.q(0), "branch"),
    "grad of a matrix": (lambda xp, y: xp.sum(xp.grad(lambda v: xp.sum(v), xp.outer(y, y))), "not a batch vector"),
    "float": (lambda xp, y: xp.sum(y) * 0.5, "inexact constant"),
    "huge power": (lambda xp, y: xp.sum(y) ** 65, "power beyond"),
}


@pytest.mark.parametrize("name", OUTSIDE_CASES)
def test_claims_outside_the_fragment_say_what_they_use(name):
    residual, words = OUTSIDE_CASES[name]
    claim = _claim(residual, (Var("y", ("m",)),), hypotheses=())
    result = attempt(claim, {})
    assert result.status == OUTSIDE and result.reason.startswith("not in the provable fragment")
    assert words in result.reason


def test_h_at_h_is_outside_the_fragment():
    claim = _claim(lambda xp, y, H: xp.dot(y, (H @ H) @ y),
                   (Var("y", ("m",)), Var("H", ("m", "m"), "symmetric")), hypotheses=())
    result = attempt(claim, {})
    assert result.status == OUTSIDE and "H @ H" in result.reason


def test_the_program_is_deterministic_json():
    claim = named("santurkar2018/theorem-4.2")
    a, b = program_for(claim, {}), program_for(claim, {})
    assert json.dumps(a) == json.dumps(b)
    assert list(a) == ["inputs", "steps", "residual", "hypotheses", "kind", "strict"]
    assert a["inputs"][2] == ["H", "matrix", "symmetric"]
    assert ["X:0", "vector", "real"] in program_for(named("santurkar2018/observation-4.3"), {"d": 2})["inputs"]


# ---------------------------------------------------------------- the decomposition's own check

def test_a_tampered_decomposition_does_not_replay():
    a, = prove_claim(named("santurkar2018/theorem-4.2/part-2/corrected"), certify=False)
    assert replays(a.program, a.proof)
    for change in ("coefficient", "drop", "denominator"):
        proof = json.loads(json.dumps(a.proof))
        if change == "coefficient":
            proof["terms"][0]["coefficient"] = str(Fraction(proof["terms"][0]["coefficient"]) * 2)
        elif change == "drop":
            proof["terms"].pop()
        else:
            proof["denominator"].pop()
        assert not replays(a.program, proof), change


# ---------------------------------------------------------------- cross-checks with the fixed-size engine

def _value_at(replay, value, instance: dict, m: int) -> float:
    """A normal form evaluated at a concrete instance in floats (an independent reading of the atoms)."""
    alg = replay.alg
    H = np.array(instance["H"], dtype=float) if "H" in instance else None

    def gen(g):
        desc = alg.gens[g]
        if desc[0] == "in":
            return np.array(instance[desc[1]], dtype=float)
        return H @ vmono(desc[1])

    def vmono(mono):
        out = np.ones(m)
        for g, e in mono:
            out = out * gen(g) ** e
        return out

    atoms = {}

    def atom(v):
        if v in atoms:
            return atoms[v]
        desc = alg.atoms[v]
        if desc[0] == "m":
            x = float(m)
        elif desc[0] == "in":
            x = float(instance[desc[1]])
        elif desc[0] == "S":
            x = float(np.sum(vmono(desc[2])))
        else:
            rn, rd = alg.roots[v]
            x = math.sqrt(poly(rn) / poly(rd))
        atoms[v] = x
        return x

    def poly(p):
        return sum(float(c) * math.prod(atom(v) ** e for v, e in mono) for mono, c in P.ordered(p))

    return poly(value.n) / poly(value.d)


def _instance(claim, m, rng):
    out = {}
    for v in claim.variables:
        shape = tuple(m if s == "m" else s for s in v.shape)
        x = np.array([rng.randint(-6, 6) / rng.choice((1, 2, 3)) for _ in range(int(np.prod(shape)))]).reshape(shape)
        if v.domain == "symmetric":
            x = (x + x.T) / 2
        if v.domain in ("positive", "nonzero"):
            x = abs(x) + 0.5
        out[v.name] = x if shape else float(x)
    return out


@pytest.mark.parametrize("claim_id", ["santurkar2018/theorem-4.1", "santurkar2018/theorem-4.2/part-2",
                                      "santurkar2018/theorem-c.1", "dannemann2025/remark-2.7",
                                      "santurkar2018/theorem-4.4/as-derived", "santurkar2018/fact-c.1"])
def test_normal_forms_agree_with_the_float_residual(claim_id):
    from bnproof.claims import xp as backends

    claim = named(claim_id)
    program = program_for(claim, {})
    replay = Replay(program)
    rng = random.Random(claim_id)
    for m in (2, 3, 5):
        instance = _instance(claim, m, rng)
        want = float(claim.residual(backends.floating(), **instance))
        got = _value_at(replay, replay.values[program["residual"]], instance, m)
        assert math.isclose(got, want, rel_tol=1e-7, abs_tol=1e-7), (m, got, want)


@pytest.mark.parametrize("claim_id", PROVED_CLAIMS)
def test_proved_claims_hold_on_exact_instances_at_m_2_to_5(claim_id):
    """The fixed-size exact engine agrees: never refuted, and it holds on some instance at each m."""
    from bnproof.claims.decide import HOLDS, REFUTED, decide, trace
    from bnproof.claims.prove import _random_instance

    claim = named(claim_id)
    rng = random.Random(claim_id)
    fixed = {"d": 2} if "d" in claim.sizes else {}
    for m in range(2, 6):
        sizes = {**fixed, "m": m}
        traced = trace(claim, sizes)
        verdicts = [decide(claim, _random_instance(claim, sizes, rng), traced).verdict for _ in range(6)]
        assert REFUTED not in verdicts and HOLDS in verdicts, (m, verdicts)


def test_fact_c_2_direction_form_matches_the_fixed_size_jacobian():
    # the directional residual is 0 exactly where the Jacobians agree: a wrong Jacobian shows at u = e_k
    from bnproof.claims import xp as backends
    from bnproof.claims.blocks import jacobian

    xp = backends.floating()
    y = np.array([1.0, 2.0, 4.0])
    yhat, sigma = normalize(xp, y)
    wrong = jacobian(xp, yhat, sigma) * 1.01
    true = xp.grad(lambda v: xp.sum(np.array([0.0, 1.0, 0.0]) * normalize(xp, v)[0]), y)
    assert not np.allclose(np.array([0.0, 1.0, 0.0]) @ wrong, true)
    claim = named("santurkar2018/fact-c.2")
    assert abs(claim.residual(xp, y=y, gamma=1.0, beta=0.0, u=np.array([0.0, 1.0, 0.0]))) < 1e-12


def test_zero_test_keeps_roots_apart_from_their_squares():
    # √(m) · √(m) = m, but √(m) alone is not m: the relation is used, never guessed
    from bnproof.symbolic_m.algebra import Algebra

    alg = Algebra()
    root = alg.sqrt(alg.var(alg.m))
    assert alg.sub(alg.mul(root, root), alg.var(alg.m)).is_zero()
    assert not alg.sub(root, alg.var(alg.m)).is_zero()
    assert P.is_monomial(alg.div(alg.const(1), alg.mul(root, root)).d)


# ---------------------------------------------------------------- the command, the API, fuzz

class _Ran:
    def __init__(self, exit_code, output):
        self.exit_code, self.output = exit_code, output


def _cli(*args):
    """`bnproof ARGS` in this process, through main() (errors become exit codes)."""
    import contextlib
    import io

    from bnproof.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        with pytest.raises(SystemExit) as done:
            main(list(args))
    return _Ran(done.value.code, out.getvalue() + err.getvalue())


def test_prove_command_writes_certificates_only_where_asked(tmp_path):
    from bnproof.checker import check_file

    result = _cli("prove", "observation-4.3", "--out-dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "proved for every m and every d" in result.output  # one certificate for every d
    written = sorted(p.name for p in (tmp_path / "santurkar2018").glob("*.proof.json"))
    assert written == ["observation-4.3.proof.json"]
    accepted, line = check_file(tmp_path / "santurkar2018" / "observation-4.3.proof.json")
    assert accepted and "proved for every m and every d" in line


def test_prove_command_json_and_exit_codes(tmp_path):
    result = _cli("prove", "theorem-4.1", "--json", "--out-dir", str(tmp_path))
    assert result.exit_code == 10
    (obj,) = json.loads(result.output)
    assert obj["status"] == NOT_PROVED and obj["certificates"] == [] and r"\sqrt{m}" in obj["normal_form"]
    assert not any(tmp_path.rglob("*.json"))
    result = _cli("prove", "lemma-4.5", "--json", "--out-dir", str(tmp_path))
    assert result.exit_code == 10 and json.loads(result.output)[0]["status"] == OUTSIDE


def test_prove_record_refuses_a_claim_file_outside_proofs(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("from bnproof.claims import Claim, Var\n"
                    "C = Claim(id='me/zero', source='s', statement='x', kind='identity',\n"
                    "          variables=(Var('y', ('m',)),), sizes={'m': (2, 3)},\n"
                    "          residual=lambda xp, y: xp.sum(y - xp.mean(y)))\n")
    result = _cli("prove", str(path), "--record")
    assert result.exit_code == 3 and "--record" in result.output
    result = _cli("prove", str(path), "--out-dir", str(tmp_path / "out"))
    assert result.exit_code == 0 and (tmp_path / "out" / "me" / "zero.proof.json").is_file()


def test_the_api_result():
    import bnproof

    proved = bnproof.prove("theorem-4.4/intended")
    assert proved.proved and proved.exit_code == 0 and proved.certificate_paths == []
    assert json.loads(proved.certificate)["kind"] == "proof"
    assert proved.to_json()["status"] == PROVED and "proved for every m" in proved._repr_latex_()
    outside = bnproof.prove("lemma-4.5")
    assert outside.status == OUTSIDE and outside.exit_code == 10 and outside.certificate is None


def test_fuzz_proves_a_claim_that_survives(tmp_path):
    import bnproof

    result = bnproof.fuzz("remark-2.7/corrected", jax=False, max_examples=10, time_budget=20,
                          out_dir=tmp_path)
    assert result.verdict in ("survived", "verified-exactly")
    first = result.to_json()["notes"][0]
    assert first.startswith("proved for every m (certificate ") and first.endswith("corrected.proof.json)")
    assert (tmp_path / "dannemann2025" / "remark-2.7" / "corrected.proof.json").is_file()


def test_list_shows_the_recorded_proof():
    from bnproof.claims.api import all_claims
    from bnproof.cli.listing import with_proofs
    from bnproof.render.fuzz import listing

    rows = {r["id"]: r for r in with_proofs(listing(all_claims()))}
    assert "proved for every m" in rows["santurkar2018/fact-c.1"]["verdict_text"]
    assert rows["santurkar2018/fact-c.1"]["proof"]["certificates"] == ["certificates/santurkar2018/fact-c.1.proof.json"]
    assert rows["santurkar2018/theorem-4.1"]["proof"] is None


def test_a_matrix_input_not_declared_symmetric_is_never_treated_as_one():
    # the algebra's H is symmetric; a program whose matrix is "real" must not be normalised as if it were
    program = {"inputs": [["A", "matrix", "real"], ["u", "vector", "real"], ["w", "vector", "real"]],
               "steps": [["input", "A"], ["input", "u"], ["input", "w"], ["matmul", 0, 2], ["matmul", 1, 3],
                         ["transpose", 0], ["matmul", 5, 1], ["matmul", 2, 6], ["sub", 4, 7]],
               "residual": 8, "hypotheses": [], "kind": "identity", "strict": False}
    from bnproof.symbolic_m.fragment import OutsideFragment

    with pytest.raises(OutsideFragment):
        Replay(program)
    program["inputs"][0][2] = "symmetric"  # uᵀAw − wᵀAᵀu ≡ 0 holds for any A; with Hᵀ = H too
    assert Replay(program).values[8].is_zero()
