"""Binding a certificate to its claim (issue 4, part 2).

For the claims of the papers the checker recomputes the residual with its own
formulas (bnproof/checker/formulas.py).  Here they are compared, exactly, with
the residual of the claim files in proofs/ as bnproof's engine evaluates it (two
independent derivations), checked against values derived by hand, and attacked
with certificates that carry another program.  For a user's claim, `bnproof
check --claim FILE.py` re-derives the program from the claim file."""

from __future__ import annotations

import json
import random
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from bnproof.certificate.io import seal
from bnproof.certificate.program import build, claim_object
from bnproof.checker import Rejected, check_document, check_file
from bnproof.checker.surds import Number, root, sign
from bnproof.checker.formulas import FORMULAS, bound
from bnproof.checker.papers import CLAIMS as RESERVED, NAMES, paper_claim
from bnproof.checker.parse import sha256_of
from bnproof.checker.variables import bind, declared
from bnproof.claims.api import all_claims, load_file
from bnproof.claims.decide import exact_instance, lookup, sizes_of, trace
from bnproof.cli import main as cli
from bnproof.program.evaluate import to_sympy

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = {c.id: c for c in all_claims()}


def committed(name: str) -> dict:
    return json.loads((ROOT / "certificates" / name).read_text(encoding="utf-8"))


def ours(claim_id: str, instance: dict):
    """The checker's own residual on an instance given as exact numbers, after the checker's
    own check of the instance against the claim's declared variables."""
    def text(x):
        return [text(e) for e in x] if isinstance(x, list) else str(F(x))
    claim = claim_object(CLAIMS[claim_id])
    values = bind(declared(claim["variables"]), {k: text(v) for k, v in instance.items()})
    return bound(claim)(values)


def symbolic(x):
    if isinstance(x, Number):
        return sum(symbolic(c) * sympy.sqrt(n) for c, n in x.terms())
    return sympy.Rational(x.numerator, x.denominator)


# --- the formulas agree with the claim files, exactly --------------------------

def test_every_pin_is_the_claim_file_s_text():
    for claim_id, (pin, *_) in FORMULAS.items():
        assert sha256_of(claim_object(CLAIMS[claim_id]))[7:39] == pin, claim_id


def test_paper_claims_without_a_formula_are_reserved():
    missing = [c for c in CLAIMS.values() if c.id not in FORMULAS]
    assert missing  # e.g. Facts C.1/C.2, Example 3.2: true, so no refutation exists
    for claim in missing:
        with pytest.raises(Rejected, match="no formula in this checker"):
            bound(claim_object(claim))
    assert bound({**claim_object(CLAIMS["santurkar2018/theorem-4.1"]), "id": "me/theorem-4.1"}) is None


def variants(name: str) -> list[str]:
    """Names a person reads as this one."""
    return [name, name.upper(), name.title(), f"/{name}", f"{name}/", f"/{name}/",
            name.replace("/", "//"), name.replace("-", "_"), name.replace(".", "-"),
            name.replace("-", "")]


def test_every_id_and_alias_of_every_claim_of_the_papers_is_reserved():
    # the checker's table is the claim files' own list, so a new alias cannot slip through
    assert set(RESERVED) == set(CLAIMS)
    assert {c.id: tuple(c.aliases) for c in CLAIMS.values()} == RESERVED
    assert len(NAMES) == sum(1 + len(a) for a in RESERVED.values())  # no two read alike
    for claim in CLAIMS.values():
        obj = claim_object(claim)
        for name in (claim.id, *claim.aliases):
            for variant in variants(name):
                assert paper_claim(variant) == claim.id, variant
                if variant == claim.id and claim.id in FORMULAS:
                    continue  # bound to the checker's formula
                with pytest.raises(Rejected, match="a claim of the papers"):
                    bound({**obj, "id": variant})


def random_instance(claim, rng: random.Random) -> dict:
    sizes = {s: rng.randint(lo, min(hi, 4)) for s, (lo, hi) in claim.sizes.items()}
    out = {}
    for var in claim.variables:
        shape = claim.shape_of(var, sizes)

        def q():
            x = F(rng.randint(-4, 4), rng.choice([1, 1, 2, 3]))
            return abs(x) + 1 if var.domain == "positive" else x or F(1) if var.domain == "nonzero" else x
        if var.domain == "symmetric":
            half = {(i, j): q() for i in range(shape[0]) for j in range(i, shape[0])}
            out[var.name] = [[half[min(i, j), max(i, j)] for j in range(shape[0])] for i in range(shape[0])]
        else:
            out[var.name] = q() if not shape else [q() for _ in range(shape[0])] if len(shape) == 1 \
                else [[q() for _ in range(shape[1])] for _ in range(shape[0])]
    return out


@pytest.mark.parametrize("claim_id", sorted(FORMULAS))
def test_formula_equals_the_claim_file_s_residual(claim_id):
    claim, rng, compared = CLAIMS[claim_id], random.Random(claim_id), 0
    for _ in range(12):
        instance = random_instance(claim, rng)
        try:
            value = ours(claim_id, instance)
        except Rejected as exc:  # outside the hypotheses (sigma = 0, <W0, W*> <= 0, ...)
            assert "outside the claim's" in str(exc)
            continue
        traced = trace(claim, sizes_of(claim, instance))
        theirs = to_sympy(traced.steps, lookup(instance), traced.residual)
        assert sympy.radsimp(sympy.expand(theirs - symbolic(value))) == 0, (instance, theirs, value)
        compared += 1
    assert compared >= 4


# Values derived by hand at the committed certificates' instances (and Example 3.2):
# Theorem 4.1, y = g = (0, 1), gamma = 1: yc = (-1/2, 1/2), sigma^2 = 1/4, <g, yhat> = 1,
#   grad_y L^ = (gamma/sigma)(gc - yhat <yhat, g>/m) = 0, so the residual is
#   4 (1 - 1/2 - c) with c = 1/sqrt 2 (printed): 2 - 2 sqrt 2; c = 1/2 (as derived): 0.
# Theorem 4.4, also lam = 1: 4 (g_j^2 - m mu_g^2 - <g, yhat>^2) - 0 = 4 (1 - 1/2 - 1) = -2;
#   equation (17) is lam^2 times Theorem 4.1's residual: 2 - 2 sqrt 2.
# Observation 4.3, X = [[0,1],[0,0],[1,0]], y = (0,1,1): W* = (1,0), sigma(W*)^2 = 2/9,
#   c = (1/3, -2/3), c - <c,W*>/(m sigma^2) Xc^T Xc W* = (0, -1/2), |grad|^2 = 4/sigma^2 * 1/4 = 9/2.
# Remark 2.7, z = (0,1): mu = sigma = 1/2, m (mu/sigma - mu)^2 = 2 (1/2)^2 = 1/2; corrected: 0.
# Lemma 4.5, X = [[1],[0],[0]], y = (-1,0,0), W0 = -1, gamma = -1: W* = -1, <W0,W*> = 1,
#   c = -2/3, Xc^T Xc = 2/3, b = sign(gamma)(-1) = 1, <W0,b> < 0 so lhs = |W0|^2 = 1, rhs = 0: -1.
# Lemma 4.5 on Example 3.2: rhs = 0 (W0 = W*), lhs = 72/17 (Dannemann & Junike): -72/17.
HAND = [
    ("santurkar2018/theorem-4.1", {"y": [0, 1], "g": [0, 1], "gamma": 1}, 2 - 2 * root(F(2))),
    ("santurkar2018/theorem-4.1/as-derived", {"y": [0, 1], "g": [0, 1], "gamma": 1}, F(0)),
    ("santurkar2018/theorem-4.4", {"y": [0, 1], "g": [0, 1], "gamma": 1, "lam": 1}, F(-2)),
    ("santurkar2018/theorem-4.4/as-derived", {"y": [0, 1], "g": [0, 1], "gamma": 1, "lam": 1},
     2 - 2 * root(F(2))),
    ("santurkar2018/observation-4.3/minima-preserved",
     {"X": [[0, 1], [0, 0], [1, 0]], "y": [0, 1, 1], "gamma": 1, "beta": 0}, F(9, 2)),
    ("dannemann2025/remark-2.7", {"z": [0, 1]}, F(1, 2)),
    ("dannemann2025/remark-2.7/corrected", {"z": [0, 1]}, F(0)),
    ("santurkar2018/theorem-c.1", {"y": [0, 1], "g": [0, 0], "H": [[0, 0], [0, 0]], "gamma": 1, "lam": 1},
     F(0)),
    ("santurkar2018/lemma-4.5", {"X": [[1], [0], [0]], "y": [-1, 0, 0], "W0": [-1], "gamma": -1}, F(-1)),
    ("santurkar2018/lemma-4.5", {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3], "gamma": 1},
     F(-72, 17)),
]


@pytest.mark.parametrize("claim_id, instance, value", HAND, ids=[h[0] for h in HAND])
def test_formula_matches_a_hand_derivation(claim_id, instance, value):
    assert sign(ours(claim_id, instance) - value) == 0


@pytest.mark.parametrize("claim_id, instance, reason", [
    ("santurkar2018/theorem-4.1", {"y": [1, 1], "g": [0, 1], "gamma": 1}, "sigma = 0"),
    ("santurkar2018/theorem-4.4", {"y": [0, 1], "g": [0, 1], "gamma": 0, "lam": 1},
     "outside the claim's domain: an entry of gamma is 0, not nonzero"),
    ("santurkar2018/theorem-4.4", {"y": [0, 1], "g": [0, 1], "gamma": 1, "lam": 0},
     "outside the claim's domain: an entry of lam is 0, not positive"),
    ("santurkar2018/theorem-4.2/part-2", {"y": [0, 1], "g": [0, 1], "gamma": 1, "h": -1},
     "outside the claim's domain: an entry of h is -1, not positive"),
    ("santurkar2018/theorem-c.1", {"y": [0, 1], "g": [0, 0], "H": [[0, 1], [0, 0]], "gamma": 1, "lam": 1},
     "outside the claim's domain: H is not symmetric"),
    ("santurkar2018/lemma-4.5", {"X": [[1], [0], [0]], "y": [-1, 0, 0], "W0": [1], "gamma": -1},
     "<W0, W*> <= 0"),
    ("santurkar2018/lemma-4.5", {"X": [[1, 2], [2, 4], [3, 6]], "y": [1, 0, 0], "W0": [1, 1], "gamma": 1},
     "X^T X is not positive definite"),
    ("santurkar2018/lemma-4.5", {"X": [[1], [2], [3]], "y": [1, 1, 1], "W0": [1], "gamma": 1},
     "c = 0: the BN loss is constant"),  # there is no ray of optima
    ("santurkar2018/theorem-4.1", {"y": [0, 1], "g": [0, 1, 2], "gamma": 1}, "instance.g: 3 entries, but m = 2"),
    ("santurkar2018/theorem-4.1", {"y": [0, 1], "g": [0, 1], "gamma": 1, "h": 1}, "instance: unexpected key 'h'"),
])
def test_formula_refuses_instances_outside_the_claim(claim_id, instance, reason):
    with pytest.raises(Rejected, match=reason.replace("^", r"\^").replace("*", r"\*")):
        ours(claim_id, instance)


# --- certificates that carry another program are rejected -----------------------

def reseal(doc: dict, **changes) -> dict:
    return seal({k: v for k, v in {**doc, **changes}.items() if k != "digest"})


def with_program(doc: dict, steps: list, residual: int, hypotheses=()) -> dict:
    obligations = [{"fact": "hypothesis", "value": h, "sign": "positive"} for h in hypotheses]
    obligations.append({**doc["obligations"][-1], "value": residual})
    return reseal(doc, program={"steps": steps, "residual": residual, "hypotheses": list(hypotheses)},
                  obligations=obligations)


def test_committed_paper_certificates_are_bound_to_their_formula():
    for path in sorted((ROOT / "certificates").rglob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        # a proof for every m is bound to the claim's symbolic-length trace instead
        # (tests/test_committed_certificates.py, proof_difference)
        if "program" in doc and doc.get("kind") != "proof":
            assert "by the checker's own formula" in check_document(doc), path


def test_a_different_program_is_rejected():
    doc = committed("santurkar2018/theorem-4.1.json")
    # a program whose residual is simply -1 "refutes" anything; the formula says 2 - 2 sqrt 2
    forged = with_program(doc, doc["program"]["steps"] + [["const", "-1"]], len(doc["program"]["steps"]))
    with pytest.raises(Rejected, match="differs from the checker's own formula for santurkar2018/theorem-4.1"):
        check_document(forged)
    # the true residual shifted by 2^-200: the same sign, but not the claim's value, which
    # 64 bits cannot see and the higher precisions do
    steps, r = doc["program"]["steps"], doc["program"]["residual"]
    tiny = steps + [["const", f"1/{2 ** 200}"], ["add", r, len(steps)]]
    with pytest.raises(Rejected, match="differs from the checker's own formula"):
        check_document(with_program(doc, tiny, len(tiny) - 1, doc["program"]["hypotheses"]))
    # the same program with an extra unused step is the same value: still accepted
    check_document(with_program(doc, steps + [["const", "7"]], r, doc["program"]["hypotheses"]))


def test_a_true_claim_cannot_be_refuted_with_another_claim_s_program():
    # Theorem 4.1 as derived is an identity (the formula gives 0); the printed theorem's
    # program has residual 2 - 2 sqrt 2 != 0, so its own obligation would pass
    doc = committed("santurkar2018/theorem-4.1.json")
    forged = reseal(doc, claim=claim_object(CLAIMS["santurkar2018/theorem-4.1/as-derived"]),
                    obligations=[*doc["obligations"][:-1], {**doc["obligations"][-1], "sign": "nonzero"}])
    with pytest.raises(Rejected, match="the residual is zero, so the claim holds here"):
        check_document(forged)
    doc = committed("dannemann2025/remark-2.7.json")
    forged = reseal(doc, claim=claim_object(CLAIMS["dannemann2025/remark-2.7/corrected"]))
    with pytest.raises(Rejected, match="remark-2.7/corrected the residual is zero"):
        check_document(forged)


def test_the_claim_s_text_and_variables_are_pinned():
    doc = committed("santurkar2018/theorem-4.4.json")
    real_lam = [dict(v, domain="real") if v["name"] == "lam" else v for v in doc["claim"]["variables"]]
    for key, value in [("statement", doc["claim"]["statement"].replace(r"\leq", r"\geq")),
                       ("source", "a blog post"), ("kind", "identity"), ("variables", real_lam),
                       ("variables", doc["claim"]["variables"][::-1])]:
        with pytest.raises(Rejected, match="statement, source, kind or variables differ"):
            check_document(reseal(doc, claim={**doc["claim"], key: value}))


def test_the_formula_checks_the_hypotheses_the_program_may_omit():
    # Lemma 4.5 with <W0, W*> = -1 <= 0 and a program without hypotheses: the program's
    # residual is still negative, but the Lemma says nothing here
    doc = committed("santurkar2018/lemma-4.5.json")
    doc = reseal(doc, instance={**doc["instance"], "W0": ["1"]})
    forged = with_program(doc, doc["program"]["steps"], doc["program"]["residual"])
    with pytest.raises(Rejected, match="outside the claim's hypotheses: <W0, W\\*> <= 0"):
        check_document(forged)


# --- a user's claim: the trust line, the rendering, and --claim -----------------

USER_CLAIM = '''
from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats

CLAIM = Claim(
    id="me/bn-output-bounded", source="my notes", statement=r"z_b \\le \\beta + |\\gamma|",
    variables=(Var("y", ("m",)), Var("gamma", (), "nonzero"), Var("beta", ())),
    sizes={"m": (2, 5)},
    hypotheses=(lambda xp, y, gamma, beta: stats(xp, y)[1] ** 2,),
    residual=lambda xp, y, gamma, beta: beta + xp.abs(gamma) - batch_norm(xp, y, gamma, beta)[0],
)
'''


@pytest.fixture
def user_certificate(tmp_path):
    """The docs' example claim refuted at y = (0, 1, 1), gamma = -1, beta = 0: z_0 = sqrt 2 > 1."""
    (tmp_path / "my_claim.py").write_text(USER_CLAIM, encoding="utf-8")
    claim = load_file(tmp_path / "my_claim.py")[0]
    instance = exact_instance({"y": [0, 1, 1], "gamma": -1, "beta": 0})
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(build(claim, instance, trace(claim, sizes_of(claim, instance)))))
    return path


def test_a_user_claim_is_accepted_on_its_program_with_the_trust_shown(user_certificate):
    ok, line = check_file(user_certificate)
    assert ok and "\n" not in line and "me/bn-output-bounded refuted (trusting program sha256:" in line
    ok, text = check_file(user_certificate, show_program=True)
    first, *rest = text.splitlines()
    assert first == line and rest and all(r.startswith("  ") for r in rest)
    assert rest[-2].startswith("  hypothesis: ") and rest[-1].startswith("  residual: ")
    assert "beta" in rest[-1] and "abs(gamma)" in rest[-1]


def run_check(capsys, *args) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        cli(["check", *map(str, args)])
    return exit_info.value.code, capsys.readouterr().out


def test_check_claim_accepts_the_claim_file_s_own_program(user_certificate, capsys):
    code, out = run_check(capsys, user_certificate, "--claim", user_certificate.parent / "my_claim.py")
    assert code == 0 and out.startswith(f"ACCEPTED {user_certificate}: me/bn-output-bounded refuted")
    assert "the claim, its variables and the program are those" in out and out.count("\n") == 1


def test_check_claim_rejects_a_different_claim_file(user_certificate, capsys, tmp_path):
    other = tmp_path / "other_claim.py"  # the same id, another residual: 2|gamma| for |gamma|
    other.write_text(USER_CLAIM.replace("beta + xp.abs(gamma)", "beta + 2 * xp.abs(gamma)"), encoding="utf-8")
    code, out = run_check(capsys, user_certificate, "--claim", other)
    assert code == 6 and out.startswith(f"REJECTED {user_certificate}: the program differs from the one")
    third = tmp_path / "third_claim.py"
    third.write_text(USER_CLAIM.replace("me/bn-output-bounded", "me/other"), encoding="utf-8")
    code, out = run_check(capsys, user_certificate, "--claim", third)
    assert code == 6 and "defines no claim me/bn-output-bounded" in out


def test_check_claim_on_a_paper_certificate(capsys):
    cert = ROOT / "certificates" / "santurkar2018" / "theorem-4.4.json"
    code, out = run_check(capsys, cert, "--claim", ROOT / "proofs" / "santurkar2018" / "theorem-4.4.py")
    assert code == 0 and "the claim, its variables and the program are those" in out
    code, out = run_check(capsys, cert, "--claim", ROOT / "proofs" / "santurkar2018" / "theorem-4.1.py")
    assert code == 6 and "defines no claim santurkar2018/theorem-4.4" in out


# --- check --claim binds everything that decides what "refuted" means -------------

TRUE_CLAIM = '''
from bnproof.claims import Claim, Var

CLAIM = Claim(
    id="me/weighted-square", source="my notes", statement=r"h x^2 \\ge 0",
    variables=(Var("x", ()), Var("h", (), "positive")),
    residual=lambda xp, x, h: h * x * x,
)
'''


def forged(claim, instance: dict, kind: str, variables=None) -> dict:
    """A certificate carrying the claim file's own program, sealed with a valid digest, with
    the kind or the declared variables changed: the forger's only freedom."""
    from bnproof.certificate.program import SIGN, program_of

    traced = trace(claim, sizes_of(claim, instance))
    body = claim_object(claim)
    return seal({
        "format": "bnproof-certificate", "version": 2, "bnproof_version": "0.1.0",
        "claim": {**body, "kind": kind, "variables": variables or body["variables"]}, "sizes": {},
        "instance": {k: str(v) for k, v in instance.items()}, "program": program_of(traced),
        "obligations": [{"fact": "residual", "value": traced.residual, "sign": SIGN[kind]}],
        "verdict": "refuted"})


@pytest.fixture
def true_claim(tmp_path):
    (tmp_path / "true_claim.py").write_text(TRUE_CLAIM, encoding="utf-8")
    return tmp_path / "true_claim.py", load_file(tmp_path / "true_claim.py")[0]


def test_check_claim_rejects_a_true_inequality_stated_as_an_identity(true_claim, tmp_path, capsys):
    # h x^2 = 1 at x = h = 1: not < 0, but != 0, so as an "identity" it would be refuted
    claim_file, claim = true_claim
    cert = tmp_path / "cert.json"
    cert.write_text(json.dumps(forged(claim, {"x": 1, "h": 1}, "identity")), encoding="utf-8")
    ok, line = check_file(cert)
    assert ok and "(trusting program sha256:" in line  # the checker alone trusts the claim object
    code, out = run_check(capsys, cert, "--claim", claim_file)
    assert code == 6 and out == (f"REJECTED {cert}: the claim's kind differs from that of "
                                 f"me/weighted-square in {claim_file}\n")


def test_an_instance_outside_a_declared_domain_is_rejected(true_claim, tmp_path, capsys):
    # h = -1 makes h x^2 = -1 < 0, but h is declared positive: no refutation
    claim_file, claim = true_claim
    with pytest.raises(Rejected, match="outside the claim's domain: an entry of h is -1, not positive"):
        check_document(forged(claim, {"x": 1, "h": -1}, "inequality"))
    # declared real instead, the checker alone accepts it on the program's word; --claim does not
    real = [{"name": "x", "shape": [], "domain": "real"}, {"name": "h", "shape": [], "domain": "real"}]
    cert = tmp_path / "cert.json"
    cert.write_text(json.dumps(forged(claim, {"x": 1, "h": -1}, "inequality", real)), encoding="utf-8")
    assert check_file(cert)[0]
    code, out = run_check(capsys, cert, "--claim", claim_file)
    assert code == 6 and out == (f"REJECTED {cert}: variable 1 is declared h [] real, but {claim_file} "
                                 "declares h [] positive\n")


@pytest.mark.parametrize("key, value, words", [
    ("source", "a blog post", "the claim's source differs"),
    ("statement", r"h x^2 > 0", "the claim's statement differs"),
])
def test_check_claim_names_the_first_difference(true_claim, tmp_path, capsys, key, value, words):
    claim_file, claim = true_claim
    doc = forged(claim, {"x": 1, "h": -1}, "inequality",
                 [{"name": "x", "shape": [], "domain": "real"}, {"name": "h", "shape": [], "domain": "real"}])
    cert = tmp_path / "cert.json"
    cert.write_text(json.dumps(seal({**doc, "claim": {**doc["claim"], key: value}})), encoding="utf-8")
    code, out = run_check(capsys, cert, "--claim", claim_file)
    assert code == 6 and words in out
