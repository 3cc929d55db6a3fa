"""Issue 22, the holes the red teams left in the search and the commands: a disagreement
fuzz dropped at a drawn instance, "verified-exactly" for part of the declared sizes,
`--size` outside the declared range, `check --claim` of a refutation whose claim prints
its values, prove's exit code 7 missing from its table, and a claim's __del__ error
printed as a traceback.  Each test failed on the commit before its fix."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from bnproof.errors import BadInput, Disagreement, ExitCode
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[1]
TIE = ROOT / "tests" / "redteam_claims" / "tracer_tie.py"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def help_text(command: str) -> str:
    """`bnproof COMMAND --help`, its words only (rich's boxes and wrapping dropped)."""
    done = run_cli(command, "--help", env={"COLUMNS": "300"})
    return " ".join(done.stdout.replace("│", " ").split())


def run(folder: Path, *args):
    return run_cli(*args, cwd=folder, env={"BNPROOF_CACHE_DIR": str(folder / ".cache")})


# ------------------------------------------------------------------ 1. second looks


def test_a_nominated_instance_the_engine_says_holds_is_read_a_second_time():
    """tracer_tie: at y0 = y1 numpy gives −1, the tracer's program 0, the claim's own code
    −1.  confirm() alone drops the instance (it does not refute the traced program)."""
    from bnproof.claims.api import load_file
    from bnproof.search.certify import Judge

    (claim,) = load_file(TIE)
    tie = {"y": [Fraction(1), Fraction(1)]}
    assert Judge(claim, floats=False).confirm(tie) is None  # what the search did with it
    with pytest.raises(Disagreement, match="the engine says holds, the reference reads refuted"):
        Judge(claim, floats=False).confirm_nominated(tie)


def test_second_looks_are_a_count_per_search(monkeypatch):
    """Floats may nominate many instances where the claim holds (rounding): only the
    first MAX_SECOND_LOOKS are read again, whatever the time."""
    from bnproof.claims import Claim, Var
    from bnproof.search import certify

    asked = []
    monkeypatch.setattr(certify, "instance_verdict", lambda claim, instance, decision, **_: asked.append(instance))
    claim = Claim(id="t/square", source="t", statement="x^2 >= 0", variables=(Var("x", ()),),
                  residual=lambda xp, x: x * x)
    judge = certify.Judge(claim, floats=False)
    for x in range(10):
        assert judge.confirm_nominated({"x": Fraction(x)}) is None
    assert len(asked) == certify.MAX_SECOND_LOOKS == 4
    judge.confirm({"x": Fraction(20)})  # not nominated: not read again
    assert len(asked) == 4 and judge.second_looks == 4


TIE_IN_JAX = '''
    from bnproof.claims import Claim, Var


    def traced(v):
        return type(v).__module__.startswith(("bnproof.program", "bnproof.symbolic_m"))


    def residual(xp, y):  # −1 at y0 = y1 without a Python branch on a value, so JAX reads it
        s = xp.sum(y * y)
        if traced(s):
            return s - s
        return s - s - xp.relu(1 - 10 ** 12 * (y[0] - y[1]) ** 2)


    CLAIM = Claim(id="t/tie-jax", source="t", kind="identity", statement="0 = 0",
                  variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=residual)
'''


def test_the_jax_search_reads_the_point_it_nominated_a_second_time(tmp_path, monkeypatch):
    """JAX's batches hold small integers, exact floats: its nominated ties rationalize to
    the very point it evaluated.  Dropped there before (survived, Hypothesis left out), and
    a disagreement raised in the JAX search was a note, not exit 7."""
    from bnproof.claims.api import load_file
    from bnproof.search import fuzz as search
    from bnproof.search import hypothesis_search

    monkeypatch.setattr(hypothesis_search, "search", lambda *args, **kwargs: (None, 0, None))
    (claim,) = load_file(write(tmp_path, "tie_jax.py", TIE_IN_JAX))
    with pytest.raises(Disagreement, match="the engine says holds, the reference reads refuted"):
        search.fuzz(claim, seed=0, max_examples=1, batch=64, time_budget=60, use_jax=True)


# ------------------------------------------------------------------ 2. the declared sizes


def test_proofs_at_part_of_the_declared_sizes_are_not_verified_exactly():
    from bnproof.search.coverage import Coverage
    from bnproof.search.fuzz import SURVIVED, VERIFIED, conclude

    coverage = Coverage()
    coverage.add({"m": 2}, 10, 10, 10)
    grid = [{"m": 2}, {"m": 3}]
    assert conclude(coverage, None, None, grid, grid, declared={"m": (2, 9)}) == (SURVIVED, None)
    assert conclude(coverage, None, None, grid, grid, declared={"m": (2, 3)}) == (VERIFIED, None)
    grid2 = [{"m": m, "d": d} for m in (2, 3) for d in (1, 2)]
    assert conclude(coverage, None, None, grid2, grid2, declared={"m": (2, 3), "d": (1, 3)})[0] == SURVIVED


# ------------------------------------------------------------------ 3. --size inside the declared range

FIRST_TWO = '''
    from bnproof.claims import Claim, Var

    CLAIM = Claim(id="t/first-two", source="t", statement="y_1 + y_2 = sum y", kind="identity",
                  variables=(Var("y", ("m",)),), sizes={"m": (2, 2)},
                  residual=lambda xp, y: y[0] + y[1] - xp.sum(y))
'''


def test_a_size_outside_the_declared_range_is_bad_input_naming_it(tmp_path):
    import bnproof

    path = write(tmp_path, "first_two.py", FIRST_TWO)
    done = run(tmp_path, "fuzz", path, "--size", "m=3", "--no-jax", "--time-budget", "300")
    assert done.returncode == ExitCode.BAD_INPUT, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "m = 3 is outside the sizes claim t/first-two declares (m = 2 only)" in lines[0]
    assert not (tmp_path / "bnproof-out").exists()
    with pytest.raises(BadInput, match=r"m = 3 is outside"):
        bnproof.fuzz(bnproof.load(path)[0], sizes={"m": 3}, jax=False, time_budget=300)
    # inside the range, as before
    assert run(tmp_path, "fuzz", path, "--size", "m=2", "--no-jax", "--time-budget", "300",
               "--max-examples", "10").returncode == ExitCode.OK


# ------------------------------------------------------------------ 4. check --claim of a refutation

PRINTS = '''
    from bnproof.claims import Claim, Var


    def traced(v):
        return type(v).__module__.startswith(("bnproof.program", "bnproof.symbolic_m"))


    def residual(xp, y):
        s = xp.sum(y * y)
        print("sum of squares:", s)
        return 1 - s if traced(s) or OWN else 2 - s


    OWN = {own}
    CLAIM = Claim(id="t/prints", source="t", statement=r"\\sum y^2 \\le 1", kind="inequality",
                  variables=(Var("y", ("m",)),), sizes={{"m": (2, 3)}}, residual=residual)
'''


def test_check_claim_binds_a_refutation_whose_claim_prints_its_values(tmp_path):
    """The claim's code asks the text of a value (print): that makes agreement at points
    inconclusive for a proof, but a refutation speaks of its own instance only."""
    claim = write(tmp_path, "prints.py", PRINTS.format(own=True))
    write(tmp_path, "data.json", '{"y": [1, 2]}')
    made = run(tmp_path, "verify", claim, "--data", "data.json", "--no-crosscheck", "--out", "cert.json")
    assert made.returncode == ExitCode.REFUTED, made
    checked = run(tmp_path, "check", "--claim", claim, "cert.json")
    assert checked.returncode == ExitCode.OK, checked
    assert run(tmp_path, "latex", "cert.json", "--claim", claim, "-o", "doc.tex").returncode == ExitCode.OK
    # the same id and statement, a program the tracer reads alike but the claim's own code
    # computes otherwise (2 − Σy²): still rejected, everywhere=False or not
    other = write(tmp_path, "other.py", PRINTS.format(own=False))
    rejected = run(tmp_path, "check", "--claim", other, "cert.json")
    assert rejected.returncode == ExitCode.REJECTED, rejected


# ------------------------------------------------------------------ 5. exit code 7 of prove

TRACER_ONLY = '''
    from bnproof.claims import Claim, Var


    def traced(v):
        return type(v).__module__.startswith(("bnproof.program", "bnproof.symbolic_m"))


    def residual(xp, y):
        s = xp.sum(y * y)
        return s - s if traced(s) else s - s - 1


    CLAIM = Claim(id="t/tracer-only", source="t", kind="identity", statement="0 = 0",
                  variables=(Var("y", ("m",)),), sizes={"m": (2, 4)}, residual=residual)
'''


def test_prove_exits_7_on_a_disagreement_and_its_table_says_so(tmp_path):
    from bnproof.errors import COMMAND_EXIT_CODES, command_exit_codes

    claim = write(tmp_path, "tracer_only.py", TRACER_ONLY)
    done = run(tmp_path, "prove", claim, "--out-dir", tmp_path / "out")
    assert done.returncode == ExitCode.DISAGREEMENT, done
    assert "internal disagreement" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert ExitCode.DISAGREEMENT in COMMAND_EXIT_CODES["prove"]
    assert dict(command_exit_codes("prove"))[7].startswith("internal disagreement")
    assert "7 internal disagreement" in help_text("prove").split("Exit codes:")[1]


# ------------------------------------------------------------------ 6. the trust model, said plainly


def test_the_docs_say_a_claim_file_runs_inside_bnproof():
    trust = (ROOT / "docs" / "certificates.md").read_text(encoding="utf-8").split("## Trust model")[1]
    trust = " ".join(trust.split("\n## ")[0].split())
    assert "A claim file is code, run inside bnproof's own process." in trust
    assert "a hostile claim file can replace bnproof's modules in memory" in trust
    assert "`bnproof check CERT` without `--claim`" in trust
    assert "bound as `check --claim` binds it" in help_text("latex")


# ------------------------------------------------------------------ 7. a claim's __del__ error

NOISY = '''
    from bnproof.claims import Claim, Var


    class Noisy:
        def __del__(self):
            raise RuntimeError("raised in __del__")


    def residual(xp, y):
        Noisy()
        return xp.sum(y * y)


    CLAIM = Claim(id="t/noisy-del", source="t", statement=r"\\sum y^2 \\ge 0",
                  variables=(Var("y", ("m",)),), sizes={"m": (2, 3)}, residual=residual)
'''


@pytest.mark.parametrize("command", [("verify", "--data", "data.json", "--no-crosscheck"),
                                     ("fuzz", "--no-jax", "--time-budget", "300", "--max-examples", "5")],
                         ids=["verify", "fuzz (its worker)"])
def test_a_claims_del_error_prints_no_traceback(tmp_path, command):
    """A real process: pytest's own unraisable hook would take the message in this one."""
    claim = write(tmp_path, "noisy.py", NOISY)
    write(tmp_path, "data.json", '{"y": [1, 2]}')
    env = {**os.environ, "BNPROOF_CACHE_DIR": str(tmp_path / ".cache")}
    done = subprocess.run([sys.executable, "-m", "bnproof", command[0], str(claim), *command[1:]],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == ExitCode.OK, done
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_the_hook_is_restored_and_passes_on_what_is_not_the_claims():
    from bnproof.search import unraisable

    before = sys.unraisablehook
    seen = []
    sys.unraisablehook = collect = seen.append
    try:
        with unraisable.claims_finalizers_quiet():
            namespace = {}
            exec(compile("def boom():\n    raise RuntimeError('x')\n", str(ROOT / "bnproof" / "fake.py"), "exec"),
                 namespace)
            claim_code = {}
            exec(compile("def boom():\n    raise RuntimeError('y')\n", "/nowhere/claim.py", "exec"), claim_code)
            for boom in (namespace["boom"], claim_code["boom"]):
                try:
                    boom()
                except RuntimeError as err:
                    sys.unraisablehook(type("U", (), {"exc_traceback": err.__traceback__, "exc_value": err})())
        assert sys.unraisablehook is collect  # restored
    finally:
        sys.unraisablehook = before
    assert [str(u.exc_value) for u in seen] == ["x"]  # bnproof's own passed on, the claim's dropped
