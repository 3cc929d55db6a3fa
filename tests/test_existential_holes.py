"""Existential claims, the holes of issue 22: steps nothing reads are no part of the
claim (class 5), the checker's query comparison is bounded before it is built and
stops at the first difference, and `bnproof export` writes an existential
certificate's query."""

import json
import random
import tracemalloc
from fractions import Fraction
from pathlib import Path

import pytest

import bnproof
from bnproof import __version__
from bnproof.certificate.exists import build, claim_object, program_of
from bnproof.certificate.io import FORMAT, VERSION
from bnproof.certificate.smtlib import document_smt
from bnproof.checker import Rejected, check_document
from bnproof.checker import exists_query
from bnproof.checker.existential import SOLVERS, TRUST
from bnproof.claims.api import Claim, Var
from bnproof.claims.blocks import normalize
from bnproof.claims.exists import NO_WITNESS, WITNESS, decide_inner, trace
from cli_runner import env_for, run_cli
from tamper import seal

ROOT = Path(__file__).resolve().parents[1]
GALLERY = ROOT / "docs" / "examples" / "existential.py"

# normalize(p) computes yhat = (p - mu)/sigma beside sigma; [1] reads sigma alone, so
# p = (0, 0) is a witness at t = 0 although yhat is undefined there
SIGMA = Claim("t/sigma-is-t-squared", "test", r"\forall t\ \exists p : \sigma(p) = t^2",
              lambda xp, t, p: normalize(xp, p)[1] - t * t, (Var("t"),), kind="identity",
              exists=(Var("p", (2,)),))
SIGMA_FILE = '''from bnproof.claims import Claim, Var
from bnproof.claims.blocks import normalize

SIGMA = Claim("t/sigma-is-t-squared", "test", r"\\forall t\\ \\exists p : \\sigma(p) = t^2",
              lambda xp, t, p: normalize(xp, p)[1] - t * t, (Var("t"),), kind="identity",
              exists=(Var("p", (2,)),))
'''


def dead(_unread, value):
    """`value`; the first argument is computed (traced) and never read."""
    return value


DEAD_X = Claim("t/dead-x", "test", "p^2 = x^2", lambda xp, x, p: dead(1 / x, p * p - x * x),
               (Var("x"),), kind="identity", exists=(Var("p"),))
DEAD_P = Claim("t/dead-p", "test", "p^2 = x^2", lambda xp, x, p: dead(1 / p, p * p - x * x),
               (Var("x"),), kind="identity", exists=(Var("p"),))
SQUARE = Claim("t/square", "test", "p^2 = x", lambda xp, x, p: p * p - x, (Var("x"),),
               kind="identity", exists=(Var("p"),))


def run(claim, examples=20):
    return bnproof.fuzz(claim, seed=0, max_examples=examples, time_budget=60, jax=False)


def certificate(claim, instance):
    traced = trace(claim, {})
    inner = decide_inner(claim, traced, instance, {})
    assert inner.verdict == NO_WITNESS, inner
    return json.loads(json.dumps(build(claim, instance, {}, traced, inner)))


def old_query(steps: list, instance: dict, unknown: set, residuals: list, kind: str) -> str:
    """The query as the checker wrote it before issue 22, every step whether read or not
    (written again here on purpose, from docs/certificates.md of that time)."""
    def lit(q):
        q = Fraction(q)
        text = f"{abs(q.numerator)}.0" if q.denominator == 1 else f"(/ {abs(q.numerator)}.0 {q.denominator}.0)"
        return f"(- {text})" if q < 0 else text

    form = {"add": "(+ {0} {1})", "sub": "(- {0} {1})", "mul": "(* {0} {1})", "neg": "(- {0})"}
    want = {"inequality": "(>= {} 0.0)", "strict-inequality": "(> {} 0.0)", "identity": "(= {} 0.0)"}
    out, declared = [f"; bnproof: is there a witness for {len(residuals)} residuals?"], set()
    for k, (op, *a) in enumerate(steps):
        v = f"v{k}"
        if op == "input" and a[0] in unknown:
            p = "p." + a[0] + "".join(f".{i}" for i in a[1:])
            if p not in declared:
                declared.add(p)
                out.append(f"(declare-const {p} Real)")
            out.append(f"(define-fun {v} () Real {p})")
        elif op == "input":
            value = instance[a[0]]
            for i in a[1:]:
                value = value[i]
            out.append(f"(define-fun {v} () Real {lit(value)})")
        elif op == "const":
            out.append(f"(define-fun {v} () Real {lit(a[0])})")
        elif op == "sqrt":
            out += [f"(declare-const {v} Real)", f"(assert (>= v{a[0]} 0.0))", f"(assert (>= {v} 0.0))",
                    f"(assert (= (* {v} {v}) v{a[0]}))"]
        elif op == "div":
            out += [f"(assert (not (= v{a[1]} 0.0)))", f"(define-fun {v} () Real (/ v{a[0]} v{a[1]}))"]
        elif op == "pow":
            n = a[1]
            term = "1.0" if n == 0 else f"v{a[0]}" if n == 1 else "(* " + " ".join([f"v{a[0]}"] * n) + ")"
            out.append(f"(define-fun {v} () Real {term})")
        else:
            out.append(f"(define-fun {v} () Real {form[op].format(*(f'v{j}' for j in a))})")
    out += [f"(assert {want[kind].format(f'v{r}')})" for r in residuals]
    return "\n".join(out + ["(check-sat)"]) + "\n"


def smt_refutation(claim, instance: dict, program: dict, query: str) -> dict:
    """A sealed "smt" refutation of `claim` at `instance`, with this program and query."""
    return seal({
        "format": FORMAT, "version": VERSION, "bnproof_version": __version__,
        "claim": claim_object(claim), "sizes": {}, "instance": instance, "program": program,
        "nonexistence": {"method": "smt", "query": query, "answers": dict(SOLVERS), "trust": TRUST},
        "verdict": "refuted"})


# --- class 5: only what the claim reads must be defined --------------------------

def test_sigma_of_p_equal_to_t_squared_is_never_refuted():
    """TRUE: p = (t^2, -t^2) has sigma = t^2, and p = (0, 0) at t = 0, where the unread
    yhat divides by sigma = 0.  It was refuted at t = 0."""
    inner = decide_inner(SIGMA, trace(SIGMA, {}), {"t": Fraction(0)}, {})
    assert inner.verdict == WITNESS, inner
    assert inner.witness["p"][0] == inner.witness["p"][1]
    result = run(SIGMA)
    assert result.verdict in ("survived", "undecided"), result.reason
    assert result.verdict != "refuted"


@pytest.mark.parametrize("claim", [DEAD_X, DEAD_P], ids=["1/x", "1/p"])
def test_a_dead_division_rules_out_neither_the_instance_nor_a_witness(claim):
    """p = x is a witness everywhere; at x = 0 it is p = 0, where the unread 1/x or 1/p
    is undefined.  The engine said "no witness" there (an instance without a witness)."""
    inner = decide_inner(claim, trace(claim, {}), {"x": Fraction(0)}, {})
    assert inner.verdict == WITNESS and inner.witness == {"p": Fraction(0)}, inner
    result = run(claim)
    assert result.verdict == "survived", result.reason


def test_a_dead_undefined_step_does_not_block_an_honest_refutation():
    """False claims with an unread 1/x (smt) or 1/p (Farkas) at x = 0: no witness
    exists, and the checker no longer rejects the certificate for the unread step."""
    smt = Claim("t/dead-x-false", "test", "p^2 = x - 1", lambda xp, x, p: dead(1 / x, p * p + 1 - x),
                (Var("x"),), kind="identity", exists=(Var("p"),))
    farkas = Claim("t/dead-p-false", "test", "p - p + 1 = 0", lambda xp, x, p: dead(1 / p, p - p + 1),
                   (Var("x"),), kind="identity", exists=(Var("p"),))
    for claim, method in ((smt, "smt"), (farkas, "farkas")):
        doc = certificate(claim, {"x": Fraction(0)})
        assert doc["nonexistence"]["method"] == method
        assert check_document(doc).startswith(f"{claim.id} refuted")


def test_a_certificate_forged_the_old_way_is_rejected(tmp_path):
    """The refutation of the TRUE sigma claim at t = 0 that the old query made (z3 and
    cvc5 answer unsat because it asks yhat's divisor sigma != 0), sealed: the checker
    regenerates the query from the residuals' cone itself and rejects it, and so does
    `check --claim`, which used to re-run the solvers and accept it."""
    program = program_of(trace(SIGMA, {}))
    forged = smt_refutation(SIGMA, {"t": "0"}, program,
                            old_query(program["steps"], {"t": Fraction(0)}, {"p"}, program["residuals"],
                                      "identity"))
    assert any(s[0] == "div" for s in forged["program"]["steps"])  # the unread yhat is there
    with pytest.raises(Rejected, match="not the query of this program"):
        check_document(forged)
    cert, claims = tmp_path / "forged.json", tmp_path / "sigma.py"
    cert.write_text(json.dumps(forged))
    claims.write_text(SIGMA_FILE)
    proc = run_cli("check", "--claim", claims, cert, cwd=tmp_path, env=env_for(tmp_path))
    assert proc.returncode == 6 and "REJECTED" in proc.stdout, (proc.stdout, proc.stderr)


def test_a_program_every_step_of_which_is_read_keeps_its_query():
    """Certificates whose steps are all read have the query they had: the cone changes
    only what nothing reads."""
    doc = certificate(SQUARE, {"x": Fraction(-1)})
    program = doc["program"]
    assert doc["nonexistence"]["query"] == old_query(program["steps"], {"x": Fraction(-1)}, {"p"},
                                                     program["residuals"], "identity")


# --- the checker's query: bounded, then compared as it is written ----------------

BIG = "-" + "7" * 1999  # the longest instance number the checker reads
N = 20_000


def _large_forgery(query_of, n: int = N) -> dict:
    """n steps that each read the 2000-digit x, all of them residuals, and the query
    query_of(steps, residuals)."""
    steps = [["input", "x"]] * n + [["input", "p"], ["mul", n, n], ["sub", n + 1, n - 1]]
    residuals = list(range(n)) + [n + 2]
    program = {"steps": steps, "residuals": residuals, "hypotheses": []}
    return smt_refutation(SQUARE, {"x": BIG}, program, query_of(steps, residuals))


def _counted(monkeypatch) -> list:
    """Counts the instance numbers the checker writes into its query."""
    calls, literal = [], exists_query.literal
    monkeypatch.setattr(exists_query, "literal", lambda q: calls.append(1) or literal(q))
    return calls


def test_a_large_forged_query_is_rejected_before_its_query_is_written(monkeypatch):
    """A certificate of 20,000 steps each naming a 2000-digit number, with a short query
    that begins as the honest one (its first two steps): the checker wrote the whole 40 MB
    query before comparing (1.27 GB for 3.2 MB).  Compared as it is written, the query
    costs its own length and one line: three numbers written, never the rest."""
    def start(steps, residuals):
        written = exists_query.lines(steps, exists_query.cone(steps, residuals), {"x": Fraction(BIG)}, {"p"},
                                     residuals, "identity")
        return "".join(next(written) + "\n" for _ in range(3))

    doc = _large_forgery(start)
    calls = _counted(monkeypatch)
    tracemalloc.start()
    try:
        with pytest.raises(Rejected, match="not the query of this program"):
            check_document(doc)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(calls) <= 3  # the two steps of the forged query, and the third, which it lacks
    assert peak < 16 * 2**20, peak  # the query alone would be 40 MB


def test_a_long_forged_query_is_compared_only_up_to_its_first_difference(monkeypatch):
    """The right length (5000 numbers: 10 MB, within the checker's 20 MB), one digit
    changed in the third number: the comparison stops there, three numbers written."""
    def almost(steps, residuals):
        lines = exists_query.query(steps, {"x": Fraction(BIG)}, {"p"}, residuals, "identity").split("\n")
        third = next(i for i, line in enumerate(lines) if line.startswith("(define-fun v2 "))
        lines[third] = lines[third].replace("7", "8", 1)
        return "\n".join(lines)

    doc = _large_forgery(almost, 5000)
    calls = _counted(monkeypatch)
    with pytest.raises(Rejected, match="not the query of this program"):
        check_document(doc)
    assert len(calls) == 3


# --- export --smtlib of an existential certificate -------------------------------

def test_export_writes_the_gallery_s_existential_refutation(tmp_path):
    """`fuzz` refutes gallery/existential/inverse-exists with a Farkas certificate; `export`
    failed on it with "missing key 'obligations'" and exit 6 (rejected).  It writes the
    query the checker regenerates, and z3 answers unsat: no witness."""
    env = env_for(tmp_path)
    fuzzed = run_cli("fuzz", GALLERY, "--no-jax", "--max-examples", "30", "--seed", "0", "--time-budget", "300",
                     cwd=tmp_path, env=env)  # a budget the searches end well within, at any speed
    assert fuzzed.returncode == 1, (fuzzed.stdout, fuzzed.stderr)
    cert = tmp_path / "bnproof-out" / "gallery" / "existential" / "inverse-exists.json"
    doc = json.loads(cert.read_text())
    assert doc["nonexistence"]["method"] == "farkas"
    proc = run_cli("export", "--smtlib", cert, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("; bnproof: is there a witness for 1 residuals?\n")
    assert "(define-fun v0 () Real 0.0)" in proc.stdout and proc.stdout.endswith("(check-sat)\n")
    solved = run_cli("export", cert, "--solve", "z3", "--timeout", "300", cwd=tmp_path, env=env)
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout == proc.stdout  # the SMT-LIB on stdout, as without --solve
    assert solved.stderr.startswith("z3: unsat: no witness exists at the instance of")
    # a resealed certificate the checker rejects is not exported: exit 6, its reason
    doc["nonexistence"]["multipliers"] = ["0"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(seal({k: v for k, v in doc.items() if k != "digest"})))
    refused = run_cli("export", bad, cwd=tmp_path, env=env)
    assert refused.returncode == 6 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "sum y_i b_i is 0" in refused.stderr, refused.stderr


def test_the_export_of_an_smt_certificate_is_its_recorded_query():
    doc = certificate(SQUARE, {"x": Fraction(-1)})
    assert document_smt(doc) == doc["nonexistence"]["query"]


def test_every_honest_query_matches():
    """The checker's comparison accepts the text query() writes, whatever its operations."""
    shortest = [["input", "x"]] + [["pow", k, 1] for k in range(999)]
    text = exists_query.query(shortest, {"x": Fraction(0)}, {"p"}, [999], "identity")
    assert exists_query.matches(text, shortest, {"x": Fraction(0)}, {"p"}, [999], "identity")
    assert not exists_query.matches(text[:-1], shortest, {"x": Fraction(0)}, {"p"}, [999], "identity")
    rng = random.Random(0)
    ops = ["add", "sub", "mul", "neg", "max", "min", "abs", "sqrt", "div", "pow"]
    for _ in range(300):
        steps = [["input", "x"], ["input", "p"], ["const", "0"]]
        for k in range(3, rng.randint(3, 12)):
            op = rng.choice(ops)
            a = rng.randrange(k)
            steps.append([op, a, rng.choice((0, 1, 2))] if op == "pow" else
                         [op, a] if op in ("neg", "abs", "sqrt") else [op, a, rng.randrange(k)])
        residuals = [rng.randrange(len(steps))]
        text = exists_query.query(steps, {"x": Fraction(0)}, {"p"}, residuals, "identity")
        assert exists_query.matches(text, steps, {"x": Fraction(0)}, {"p"}, residuals, "identity")
