"""What a wrong verdict is (issue 22), and the runs that look for one.

The rules, for every command:
- a TRUE claim is never refuted (exit 1) and never gets an accepted refutation
  certificate; holds / survived / proved (0), undecided (10) and internal
  disagreement (7) are all acceptable;
- a FALSE claim is never proved, verified exactly, or said to hold at an instance
  where it is false; refuted (1) with a correct counterexample, undecided or not
  proved (10) and disagreement (7) are acceptable;
- nothing crashes: never exit 8, never a traceback; bad input (3) and undecided (10)
  come with a reason.
Messages are other engineers' to word: the rules read exit codes, JSON verdict
fields, certificates and their values, never the wording (except that a reason is
there)."""

from __future__ import annotations

import json
import math
import re
import shutil
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from cli_runner import env_for, run_cli

HERE = Path(__file__).parent
CLAIM_FILES = HERE / "claim_files"
FROZEN = HERE / "frozen"

OK, REFUTED, BAD_INPUT, REJECTED, DISAGREEMENT, INTERNAL, VACUOUS, UNDECIDED = 0, 1, 3, 6, 7, 8, 9, 10
NOT_A_VERDICT = {DISAGREEMENT, UNDECIDED}  # acceptable for any claim


# ------------------------------------------------------------------ files and runs


def install(folder: Path, name: str, *, replace: dict | None = None, as_name: str | None = None) -> Path:
    """Copy claims/<name> into folder, with the helper modules (adv_*.py) it imports;
    `replace` edits its text (a twin of the claim), `as_name` renames it."""
    text = (CLAIM_FILES / name).read_text(encoding="utf-8")
    for old, new in (replace or {}).items():
        assert old in text, f"{old!r} not in {name}"
        text = text.replace(old, new)
    for helper in re.findall(r"^from (adv_\w+) import", text, flags=re.MULTILINE):
        shutil.copy(CLAIM_FILES / f"{helper}.py", folder / f"{helper}.py")
    path = folder / (as_name or name)
    path.write_text(text, encoding="utf-8")
    return path


def write_json(folder: Path, name: str, value) -> Path:
    path = folder / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


@dataclass
class Run:
    args: list
    code: int
    stdout: str
    stderr: str

    def json(self):
        return json.loads(self.stdout)

    def __str__(self) -> str:
        return f"$ {' '.join(map(str, self.args))}\n-> exit {self.code}\n{self.stdout[-3000:]}\n{self.stderr[-3000:]}"


def bnproof(folder: Path, *args) -> Run:
    """`bnproof ARGS` in this process (tests/cli_runner.py), from `folder`, caches there."""
    done = run_cli(*args, cwd=folder, env=env_for(folder))
    return Run(done.args, done.returncode, done.stdout, done.stderr)


def verify(folder: Path, claim: Path, data: dict) -> Run:
    data_path = write_json(folder, "data.json", data)
    return bnproof(folder, "verify", claim, "--data", data_path, "--json", "--no-crosscheck",
                   "--out", folder / "verify-certificate.json")


def prove(folder: Path, claim: Path, *extra) -> Run:
    return bnproof(folder, "prove", claim, "--json", "--out-dir", folder / "proofs", *extra)


def fuzz(folder: Path, claim: Path, *extra) -> Run:
    # generous: each search ends at its example count, whatever the speed; the budget only bounds a hang
    return bnproof(folder, "fuzz", claim, "--json", "--no-timings", "--no-jax", "--time-budget", "120",
                   "--max-examples", "60", "--out-dir", folder / "fuzz-out", *extra)


def check(folder: Path, certificate: Path, claim: Path | None = None) -> Run:
    return bnproof(folder, "check", *(["--claim", claim] if claim else []), certificate)


# ------------------------------------------------------------------ the rules


def assert_clean(run: Run) -> None:
    """No crash: never exit 8, never a traceback; a refusal or "undecided" says why."""
    assert run.code != INTERNAL, f"internal error (exit 8):\n{run}"
    assert "Traceback (most recent call last)" not in run.stdout + run.stderr, f"a traceback:\n{run}"
    if run.code in (BAD_INPUT, UNDECIDED):
        assert (run.stdout + run.stderr).strip(), f"exit {run.code} without a reason:\n{run}"


def assert_bad_input(run: Run, *, naming: str | None = None) -> None:
    """Exit 3 with a one-line reason (naming `naming`, e.g. the size or file:line)."""
    assert_clean(run)
    assert run.code == BAD_INPUT, f"expected bad input (exit 3):\n{run}"
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected a one-line reason on stderr:\n{run}"
    if naming is not None:
        assert re.search(naming, lines[0]), f"the reason does not name {naming!r}:\n{run}"


def assert_not_refuted(run: Run) -> None:
    """For a TRUE claim: no refutation, and no refutation certificate written."""
    assert_clean(run)
    assert run.code != REFUTED, f"a TRUE claim was refuted:\n{run}"
    for entry in _entries(run):
        assert entry.get("verdict") != "refuted", f"a TRUE claim was refuted:\n{run}"
        assert not entry.get("certificate"), f"a TRUE claim got a refutation certificate:\n{run}"


def assert_not_proved(run: Run) -> None:
    """For a FALSE claim under `prove`: not exit 0, no status "proved"."""
    assert_clean(run)
    assert run.code != OK, f"a FALSE claim was proved (exit 0):\n{run}"
    for entry in _entries(run):
        assert entry.get("status") != "proved", f"a FALSE claim has status proved:\n{run}"


def assert_verify_does_not_hold(run: Run) -> None:
    """For an instance where the claim is FALSE: `verify` never says it holds."""
    assert_clean(run)
    assert run.code != OK, f"verify says a FALSE instance holds:\n{run}"


def fuzz_claims_a_proof(run: Run, out_dir: Path) -> bool:
    """Whether `fuzz` claims more than a survival: verified exactly, a "proved" note
    (the proof attempt for a survivor), or a proof certificate written."""
    if any(out_dir.rglob("*.proof.json")):
        return True
    for entry in _entries(run):
        if entry.get("verdict") == "verified-exactly":
            return True
        if any(re.match(r"\s*proved\b", note) for note in entry.get("notes", [])):
            return True
    return False


def assert_fuzz_claims_no_proof(run: Run, out_dir: Path) -> None:
    assert_clean(run)
    assert not fuzz_claims_a_proof(run, out_dir), f"fuzz claims a proof of a FALSE claim:\n{run}"


def assert_value(exact: str | None, approx: float | None, truth, what: str, run: Run) -> None:
    """The value a verdict states is the true one (`truth`, a SymPy number): exactly when
    both are rational, else to float precision."""
    import sympy

    if isinstance(truth, (int, Fraction)):
        truth = sympy.Rational(truth.numerator, truth.denominator)
    if exact is not None and re.fullmatch(r"-?\d+(/\d+)?", exact) and truth.is_Rational:
        assert Fraction(exact) == Fraction(int(truth.p), int(truth.q)), \
            f"{what}: reported {exact}, the truth is {truth}:\n{run}"
        return
    assert approx is not None, f"{what}: no value reported:\n{run}"
    assert math.isclose(float(approx), float(truth), rel_tol=1e-9, abs_tol=1e-12), \
        f"{what}: reported {exact} ≈ {approx}, the truth is {truth} ≈ {float(truth)}:\n{run}"


def certificate_instance(path: Path) -> dict:
    """The instance a certificate carries, as Fractions (nested lists kept)."""
    def exact(v):
        return [exact(x) for x in v] if isinstance(v, list) else Fraction(v)
    document = json.loads(Path(path).read_text(encoding="ascii"))
    return {name: exact(v) for name, v in document["instance"].items()}


def fuzz_entry(run: Run) -> dict:
    entries = _entries(run)
    assert len(entries) == 1, f"expected one claim's JSON:\n{run}"
    return entries[0]


def counterexample(entry: dict) -> dict:
    def exact(v):
        return [exact(x) for x in v] if isinstance(v, list) else Fraction(v)
    return {name: exact(v) for name, v in entry["counterexample"].items()}


def _entries(run: Run) -> list:
    try:
        value = json.loads(run.stdout)
    except ValueError:
        return []
    return value if isinstance(value, list) else [value]
