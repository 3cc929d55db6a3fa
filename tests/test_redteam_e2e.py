"""A second referee's end-to-end campaign: new variants of each defect class (false
"verified exactly", certificates not bound to their claim, paper claims under other
names, undefined operations, hostile sizes, the judges disagreeing, crashes, vacuous
survival, budgets), tried through the command line from a scratch folder (in this process,
tests/cli_runner.py; fuzz's worker is a real process).  Each test is one defect
found."""

import json
from pathlib import Path

import pytest

from bnproof.checker import Rejected, check_document
from bnproof.checker.papers import paper_claim
from bnproof.checker.parse import sha256_of
from bnproof.errors import ExitCode
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parent.parent


def run(*args, cwd: Path):
    return run_cli(*args, cwd=cwd, env={"BNPROOF_CACHE_DIR": str(cwd / ".cache"),
                                        "BNPROOF_PROOFS": str(cwd / "proofs")})


def sealed(doc: dict) -> dict:
    body = {k: v for k, v in doc.items() if k != "digest"}
    return {**body, "digest": sha256_of(body)}


def user_certificate(claim_id: str, steps: list, residual: int) -> dict:
    return sealed({
        "format": "bnproof-certificate", "version": 2, "bnproof_version": "x",
        "claim": {"id": claim_id, "source": "s", "statement": "t", "kind": "inequality",
                  "variables": []},
        "sizes": {}, "instance": {},
        "program": {"steps": steps, "residual": residual, "hypotheses": []},
        "obligations": [{"fact": "residual", "value": residual, "sign": "negative"}],
        "verdict": "refuted"})


# ------------------------------------------------- 1. a false "verified exactly"

# False at every size the claim searches (y[0] − y[m−1] = 1/1000003 makes it 1), on a set
# too thin for any search to hit; at m = 1 there is no pair and it is 0 identically.
THIN = '''
def residual(xp, y):
    d = y[0] - y[-1] - xp.q(1, 1000003)
    return xp.maximum(xp.q(0), 1 - 10**24 * d * d)

CLAIM = Claim(id="rt/thin", source="rt", statement="0 = 0", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
              exact_sizes={"m": EXACT}, residual=residual)
'''


def test_exact_sizes_below_the_claims_smallest_size_prove_nothing_about_it(tmp_path):
    """Proved at m = 1, outside the sizes the claim covers, the claim was reported
    `verified-exactly` ("verified exactly for m ≤ 1", exit 0) although it is false at
    every m ≥ 2: now bad input before any search."""
    (tmp_path / "thin.py").write_text("from bnproof.claims import Claim, Var\n"
                                      + THIN.replace("EXACT", "(1, 1)"))
    proc = run("fuzz", "thin.py", "--no-jax", "--no-timings", "--time-budget", "300", "--json",
               cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert "below the claim's smallest m = 2" in proc.stderr
    assert "verified" not in proc.stdout


def test_a_proof_that_starts_above_the_smallest_size_says_where_it_starts():
    """"verified exactly for m ≤ 3" read as m = 2 and 3 proved when only m = 3 was."""
    from bnproof.claims import Claim, Var
    from bnproof.search.fuzz import Outcome

    claim = Claim(id="rt/sum", source="rt", statement="s", kind="identity",
                  variables=(Var("y", ("m",)),), sizes={"m": (2, 6)}, exact_sizes={"m": (3, 5)},
                  residual=lambda xp, y: xp.sum(y) - xp.sum(y))
    grid = [{"m": 3}, {"m": 4}, {"m": 5}]
    outcome = Outcome(claim, "verified-exactly", 0, 0.0, proof_grid=grid, proved_sizes=grid)
    assert outcome.exact_note == "verified exactly for 3 ≤ m ≤ 5 only, of 2 ≤ m ≤ 6 declared"
    one = Outcome(claim, "verified-exactly", 0, 0.0, proof_grid=grid[:1], proved_sizes=grid[:1])
    assert one.exact_note == "verified exactly for m = 3 only, of 2 ≤ m ≤ 6 declared"
    from_smallest = [{"m": 2}, {"m": 3}]
    assert Outcome(claim, "verified-exactly", 0, 0.0, proof_grid=from_smallest,
                   proved_sizes=from_smallest).exact_note == ("verified exactly for 2 ≤ m ≤ 3 only, "
                                                              "of 2 ≤ m ≤ 6 declared")


NEAR = '''
CLAIM = Claim(id="rt/near", source="rt", statement="s", variables=(),
              residual=lambda xp: xp.sqrt(xp.q(10**100 + 1)) - 10**50 - xp.q(1, 2 * 10**50))
'''


def test_the_float_shown_for_a_refuting_residual_is_its_value_not_cancellation_noise(tmp_path):
    """√(10^100 + 1) − 10^50 − 10^-50/2 = −1.25e-151 (refuted, rightly) was printed as
    "≈ 1.62428e-114 < 0": SymPy's evalf(30) gave noise with no correct digit, of the
    wrong sign, next to the exact "< 0"."""
    (tmp_path / "near.py").write_text("from bnproof.claims import Claim, Var\n" + NEAR)
    proc = run("fuzz", "near.py", "--no-jax", "--no-timings", "--json", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stdout + proc.stderr
    (result,) = json.loads(proc.stdout)
    shown = result["residual_float"]
    assert shown is None or shown == pytest.approx(-1.25e-151, rel=1e-9)


# ------------------------------------------------- 3. paper claims under other names

IMPERSONATIONS = ["santurkar-et-al-2018/theorem-4.1", "santurkar/theorem-4.1", "santurkar18/thm-4.1",
                  "Santurkar_et_al_2018_Theorem_4.1", "theorem-4.1@santurkar2018",
                  "dannemann-junike-2025/remark-2.7", "dannemann/remark-2.7", "theo-4.1",
                  "thrm-4.1", "Theor.4.1", "lma-4.5"]


@pytest.mark.parametrize("name", IMPERSONATIONS)
def test_a_name_that_cites_the_papers_authors_or_abbreviates_a_claim_is_reserved(name):
    """A certificate with a one-step program (residual −1) "refuted" Theorem 4.1 under
    santurkar-et-al-2018/theorem-4.1 or theo-4.1, as a user's claim."""
    assert paper_claim(name) is not None, name
    with pytest.raises(Rejected, match="reads as the name of a claim of the papers"):
        check_document(user_certificate(name, [["const", "-1"]], 0))


def test_names_that_cite_no_paper_stay_users_claims():
    for name in ("me/theorem-4.1", "theory/4.1", "thesis/lemma-4", "example/toy", "madison/x"):
        assert paper_claim(name) is None, name


# ------------------------------------------------- 5. hostile sizes, checked before the work

WIDE = '''
CLAIM = Claim(id="rt/wide", source="rt", statement="s", variables=(Var("y", ("m",)),),
              sizes=SIZES, residual=lambda xp, y: xp.sum(y * y))
SQUARE = Claim(id="rt/square", source="rt", statement="s", variables=(Var("X", ("m", "m")),),
               sizes={"m": (1, 3)}, residual=lambda xp, X: xp.sum(X * X))
'''


@pytest.mark.parametrize("sizes", ['{"m": (2, 10**9)}', '{"m": (2, 3), "k": (1, 10**9)}'])
def test_a_huge_size_range_is_bad_input_before_the_grid_is_built(tmp_path, sizes):
    """sizes={"m": (2, 10**9)} built every combination before checking any (a billion
    dicts: 22 GB and no end, whatever --time-budget said); a size no variable uses
    multiplied the grid the same way."""
    (tmp_path / "wide.py").write_text("from bnproof.claims import Claim, Var\n"
                                      + WIDE.replace("SIZES", sizes).split("SQUARE")[0])
    proc = run("fuzz", "wide.py", "--no-jax", "--time-budget", "300", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1 and "error:" in proc.stderr


def test_a_fixed_size_whose_entries_overflow_int64_is_bad_input(tmp_path):
    """--size m=4294967296 for an m×m variable: np.prod wrapped 2^64 entries round to 0,
    so the entry limit passed and the search ended "undecided" (exit 10) on
    Hypothesis's refusal to draw a list of 4294967296 entries."""
    square = "SQUARE" + WIDE.split("SQUARE")[1]
    assert '"m": (1, 3)' in square  # widened: --size picks only inside the declared range
    (tmp_path / "sq.py").write_text("from bnproof.claims import Claim, Var\n"
                                    + square.replace('"m": (1, 3)', '"m": (1, 2 ** 32)'))
    proc = run("fuzz", "sq.py", "--no-jax", "--size", "m=4294967296", "--time-budget", "300",
               cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert "18446744073709551616 entries per instance" in proc.stderr


# ------------------------------------------------- 7. claim files that end the process

@pytest.mark.parametrize("command", [("fuzz", "exits.py", "--no-jax", "--time-budget", "300"),
                                     ("check", "--claim", "exits.py",
                                      str(ROOT / "certificates/santurkar2018/theorem-4.1.json"))])
def test_a_claim_file_that_calls_sys_exit_is_bad_input_not_a_silent_success(tmp_path, command):
    """sys.exit(0) at the top of a claim file made `fuzz` and `check --claim` exit 0 with
    no output: "survived" / "every certificate accepted", with nothing searched or checked."""
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(0)\n")
    proc = run(*command, cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert "SystemExit" in proc.stderr


# ------------------------------------------------- 8. vacuous and survived

EMPTY = '''
TRUE = Claim(id="rt/empty-true", source="s", statement="s", variables=(Var("y", ("m",)),),
             sizes={"m": (1, 3)}, hypotheses=(lambda xp, y: xp.asarray([]),),
             residual=lambda xp, y: xp.sum(y * y))
FALSE = Claim(id="rt/empty-false", source="s", statement="s", variables=(Var("y", ("m",)),),
              sizes={"m": (1, 3)}, hypotheses=(lambda xp, y: xp.asarray([]), lambda xp, y: y[0]),
              residual=lambda xp, y: 1 - xp.sum(y))
'''


def test_an_empty_array_of_hypotheses_asks_nothing_in_floats_as_exactly(tmp_path):
    """Every entry of a hypothesis array must be > 0: for an empty array the exact engine
    asks nothing, but the float screen took np.min of it as a failure, so a true claim
    was 'vacuous: no instance met the hypotheses' (exit 9) and JAX stopped on an error."""
    (tmp_path / "empty.py").write_text("from bnproof.claims import Claim, Var\n" + EMPTY)
    proc = run("fuzz", "empty.py", "--no-timings", "--time-budget", "300", "--json", cwd=tmp_path)
    out = {o["claim"]: o for o in json.loads(proc.stdout)}
    assert out["rt/empty-true"]["verdict"] == "survived", proc.stdout + proc.stderr
    # nothing but its proof for every m (Σy² ≥ 0 whatever the empty hypothesis asks)
    assert all(n.startswith("proved for every m") for n in out["rt/empty-true"]["notes"])
    assert out["rt/empty-false"]["verdict"] == "refuted"
