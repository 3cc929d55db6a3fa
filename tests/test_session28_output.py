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


# ---------------------------------------------------------------- 3a. list: a proof column of its own

def _listing_rows(monkeypatch, in_verdict=False):
    from bnproof.cli.listing import with_proofs
    from bnproof.search import record

    proved = {"status": "proved", "text": "proved for every m", "covered": [{}],
              "certificates": ["certificates/me/x.proof.json"]}
    blocked = {"status": "not-proved", "text": "not proved: normal form …", "covered": [], "certificates": [],
               "blocked_by": "the residual's normal form is not 0"}
    monkeypatch.setattr(record, "load", lambda *a, **k: {"me/proved": {"proof": proved},
                                                          "me/blocked": {"proof": blocked}})
    rows = [{"id": f"me/{name}", "aliases": [name], "source_short": "Me et al. (2026), Lemma 1",
             "verdict_text": "survived 10760 instances (seed 0); verified exactly for 2 ≤ m ≤ 6"}
            for name in ("proved", "blocked", "none")]
    return with_proofs(rows, in_verdict=in_verdict)


def test_list_has_a_proof_column_apart_from_the_verdict(monkeypatch):
    import re

    from bnproof.cli.listing import _lines

    monkeypatch.delenv("COLUMNS", raising=False)  # piped with no width asked for: one claim a line
    rows = _listing_rows(monkeypatch)
    assert all(r["verdict_text"].endswith("≤ m ≤ 6") for r in rows)  # the table's verdict carries no proof
    plain = _lines(rows, terminal=False, columns=None)
    assert plain[0].split() == ["claim", "alias", "source", "verdict", "proof"]
    by_id = {line.split()[0]: line for line in plain[1:]}
    assert by_id["me/proved"].endswith("≤ m ≤ 6  proved for every m (certificates/me/x.proof.json)")
    assert by_id["me/blocked"].endswith("≤ m ≤ 6  not-proved (the residual's normal form is not 0)")
    assert by_id["me/none"].endswith("≤ m ≤ 6  -")
    # a table on a terminal: the header has the column, and every row keeps to the width
    for columns in (80, 120, 160):
        table = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in _lines(rows, terminal=True, columns=columns)]
        assert all(len(line) <= columns or " " not in line.strip() for line in table), columns
        assert any(re.search(r"\bproof\b", line) for line in table[:4]), table[:4]
    # too narrow for a table: each claim a block, the proof on a line of its own
    blocks = _lines(rows, terminal=False, columns=60)
    assert all(len(line) <= 60 or " " not in line.strip() for line in blocks)
    assert "    proof: proved for every m (certificates/me/x.proof.json)" in blocks
    assert "    proof: not-proved (the residual's normal" in " ".join(blocks)
    assert sum(line.strip().startswith("proof:") for line in blocks) == 2
    # --json keeps its verdict text as it was, the proof object beside it
    (json_row,) = [r for r in _listing_rows(monkeypatch, in_verdict=True) if r["id"] == "me/proved"]
    assert json_row["verdict_text"].endswith("≤ m ≤ 6; proved for every m (certificates/me/x.proof.json)")
    assert json_row["proof"]["status"] == "proved"


# ---------------------------------------------------------------- 3b. FuzzResult's witness certificate

# ∀x ∃w: relu(w x) = |x| (w = sign x, or any w with w x = |x|): true, with rational witnesses
RELU_ABS = Claim("s28/relu-abs", "test", r"\forall x\ \exists w : \mathrm{relu}(w x) = |x|",
                 lambda xp, x, w: xp.maximum(w * x, 0) - xp.abs(x), (Var("x"),), kind="identity",
                 exists=(Var("w"),))


def test_fuzz_result_carries_the_witness_certificate_of_an_existential_claim(tmp_path):
    import json

    import bnproof

    kept = bnproof.fuzz(RELU_ABS, seed=0, max_examples=6, time_budget=60, jax=False, prove=False)
    assert kept.verdict == "survived", kept.reason
    assert kept.witness_certificate is not None and kept.witness_certificate_path is None
    doc = json.loads(kept.witness_certificate)
    assert doc["claim"]["id"] == "s28/relu-abs" and doc["parts"]
    assert kept.to_json()["witness_certificate"] is None
    assert kept.to_json()["witness_certificate_check"] == "ACCEPTED (in memory)"
    written = bnproof.fuzz(RELU_ABS, seed=0, max_examples=6, time_budget=60, jax=False, prove=False,
                           out_dir=tmp_path)
    path = written.witness_certificate_path
    assert path == tmp_path / "s28" / "relu-abs.witnesses.json"
    assert path.read_text(encoding="ascii") == written.witness_certificate
    assert bnproof.check(path, claim=RELU_ABS).accepted
    assert written.to_json()["witness_certificate"] == str(path)
    # any other verdict has none, and its JSON no such field
    false = Claim("s28/relu-abs-false", "test", "x", lambda xp, x, w: xp.maximum(w * x, 0) + 1 + xp.abs(x),
                  (Var("x"),), kind="identity", exists=(Var("w"),))
    refuted = bnproof.fuzz(false, seed=0, max_examples=6, time_budget=60, jax=False, prove=False)
    assert refuted.verdict == "refuted" and refuted.witness_certificate is None
    assert refuted.witness_certificate_path is None and "witness_certificate" not in refuted.to_json()


# ---------------------------------------------------------------- 3c. a law in the LaTeX display

def test_fuzz_result_latex_shows_an_expectation_counterexample_as_its_law():
    """Jupyter's display showed X_support = (…) and X_weights = (…): the law's internal variables."""
    import bnproof

    claims = {c.id.rsplit("/", 1)[1]: c for c in load_file(EXAMPLES / "every_n_moments.py")}
    result = bnproof.fuzz(claims["swapped"], seed=0, max_examples=30, time_budget=60, jax=False, prove=False)
    assert result.refuted, result.reason
    latex = result._repr_latex_()
    assert "support" not in latex and "weights" not in latex, latex
    law = result.counterexample
    from bnproof.render.laws import points

    for point, p in points(law["X_support"], law["X_weights"]):
        from bnproof._api.display import fraction_latex

        assert rf"\Pr(X = {fraction_latex(point)}) = {fraction_latex(p)}" in latex, latex
    assert "batch" in latex  # the other variables as before
    html = result._repr_html_()
    rows = html.split("$$")[0] + html.split("$$")[-1]  # the HTML's rows, less the LaTeX display
    assert "X_support" not in rows and "X_weights" not in rows and "P(X = " in rows, rows


# ---------------------------------------------------------------- 3d. declared symbols in the normal forms

def _shifted(name: str, **more):
    """mean(y + s) − mean(y) − 2s: its normal form is −s, in whatever s is called."""
    return Claim(id="s28/shifted", source="t", statement=more.pop("statement", "x"), kind="identity",
                 variables=(Var("y", ("m",)), Var(name)), sizes={"m": (2, 4)},
                 residual=lambda xp, y, **s: xp.mean(y + s[name]) - xp.mean(y) - 2 * s[name], **more)


def test_prove_normal_forms_use_the_declared_symbols():
    """`prove` printed "normal form −eps" for ε; the LaTeX proof documents already wrote ε."""
    import bnproof

    eps = bnproof.prove(_shifted("eps"))
    assert eps.status == "not-proved"
    assert eps.normal_form == "−ε" and eps.text == "not proved: normal form −ε", eps.text
    assert eps.normal_form_latex == r"-\varepsilon"
    assert "eps" not in str(eps)
    written = bnproof.prove(_shifted("eps", statement=r"\bar{y + \epsilon} = \bar y + 2\epsilon"))
    assert written.normal_form == "−ε" and written.normal_form_latex == r"-\epsilon"  # the statement's ε
    declared = bnproof.prove(_shifted("c", symbols={"c": r"\lambda"}))
    assert declared.normal_form == "−λ" and declared.normal_form_latex == r"-\lambda"
    accented = bnproof.prove(_shifted("s", symbols={"s": r"\hat{\sigma}"}))
    assert accented.normal_form == "−σ\u0302" and accented.normal_form_latex == r"-\hat{\sigma}"
    # a declared formula is not one symbol: the proof keeps the variable's own name
    formula = bnproof.prove(_shifted("t", symbols={"t": r"\nabla_{y} L"}))
    assert formula.normal_form == "−t" and formula.normal_form_latex == "-t"
    assert bnproof.prove(_shifted("eta")).normal_form == "−η"  # a Greek name, as the documents write it
    # expectations over a batch: the moments prover's normal form too
    claims = {c.id.rsplit("/", 1)[1]: c for c in load_file(EXAMPLES / "every_n_moments.py")}
    wrong = bnproof.prove(claims["affine-mean-wrong"])
    assert "γ" in wrong.normal_form and "gamma" not in wrong.normal_form and "γ" in wrong.text, wrong.text


def test_unicode_of_a_declared_symbol():
    from bnproof.render.unicode_math import greek_name, symbol_text

    assert [symbol_text(s) for s in (r"\varepsilon", r"\epsilon", r"\gamma", "y", "γ", r"\mathbf{w}",
                                      r"\tilde{x}")] == ["ε", "ε", "γ", "y", "γ", "w", "x\u0303"]
    assert [symbol_text(s) for s in (r"\nabla_{y_j} L", r"\foo", "ab", r"\hat{\foo}", r"\sqrt{x}")] == [None] * 5
    assert (greek_name("eps"), greek_name("lam"), greek_name("y"), greek_name("gamma")) == ("ε", "λ", None, "γ")


# ---------------------------------------------------------------- 1. products over integers

def _naive(p: dict, q: dict) -> dict:
    from bnproof.symbolic_m.poly import mono_mul

    out: dict = {}
    for ma, ca in p.items():
        for mb, cb in q.items():
            mono = mono_mul(ma, mb)
            out[mono] = out.get(mono, 0) + ca * cb
    return {mono: c for mono, c in out.items() if c}


def _random_poly(rng, terms: int) -> dict:
    from fractions import Fraction

    out = {}
    for _ in range(terms):
        mono = tuple(sorted({rng.randrange(4): rng.randrange(1, 3) for _ in range(rng.randrange(3))}.items()))
        out[mono] = Fraction(rng.randrange(-9, 10) or 1, rng.choice([1, 1, 2, 3, 6, 7, 10**20 + 39]))
    return out


def test_products_over_integers_are_the_exact_products():
    """poly.mul and the checker's pmul multiply over integers (a speed change): the same exact
    coefficients as Fraction arithmetic, cancellations to 0 dropped, every coefficient a
    Fraction in lowest terms, the checker's work charge and coefficient limit unchanged."""
    import random
    from fractions import Fraction

    import pytest

    from bnproof.checker.parse import Rejected
    from bnproof.checker.symbolic_length import MAX_COEFFICIENT_BITS, Algebra, bits
    from bnproof.symbolic_m import poly as P

    rng = random.Random(28)
    for _ in range(200):
        p, q = _random_poly(rng, rng.randrange(1, 9)), _random_poly(rng, rng.randrange(1, 9))
        expected = _naive(p, q)
        for got in (dict(P.ordered(P.mul(p, q))), Algebra(set()).pmul(p, q)):
            assert got == expected
            assert all(type(c) is Fraction and c for c in got.values())
    # (x − y)(x + y) = x² − y²: the cross terms cancel to nothing, over common denominators
    x, y = ((0, 1),), ((1, 1),)
    a = {x: Fraction(1, 3), y: Fraction(-1, 6)}
    b = {x: Fraction(1, 3), y: Fraction(1, 6)}
    assert dict(P.ordered(P.mul(a, b))) == Algebra(set()).pmul(a, b) == {((0, 2),): Fraction(1, 9), ((1, 2),): Fraction(-1, 36)}
    big = {x: Fraction(2) ** (MAX_COEFFICIENT_BITS // 2 + 8), y: Fraction(1)}
    checker = Algebra(set())
    before = checker.work
    with pytest.raises(Rejected, match="coefficient beyond"):
        checker.pmul(big, big)
    assert checker.work - before == 4 * (1 + 2 * bits(big) // 128) + 1


CLAIM_FILE = '''from bnproof.claims import Claim, Var

RELU_ABS = Claim("s28/relu-abs", "test", r"\\forall x\\ \\exists w : \\mathrm{relu}(w x) = |x|",
                 lambda xp, x, w: xp.maximum(w * x, 0) - xp.abs(x), (Var("x"),), kind="identity",
                 exists=(Var("w"),))
'''


def test_fuzz_json_names_the_witness_certificate_as_the_api_does(tmp_path):
    """`fuzz --json` carries witness_certificate and its check, as FuzzResult.to_json does."""
    import json

    from cli_runner import run_cli

    (tmp_path / "relu_abs.py").write_text(CLAIM_FILE, encoding="utf-8")
    done = run_cli("fuzz", "relu_abs.py", "--json", "--no-jax", "--max-examples", "6", "--seed", "0",
                   "--out-dir", "out", cwd=tmp_path)
    (obj,) = json.loads(done.stdout)
    assert obj["verdict"] == "survived", done.stdout + done.stderr
    path = tmp_path / "out" / "s28" / "relu-abs.witnesses.json"
    assert path.is_file()
    assert obj["witness_certificate"] == str(path) or tmp_path / obj["witness_certificate"] == path
    assert obj["witness_certificate_check"].startswith("ACCEPTED ")
