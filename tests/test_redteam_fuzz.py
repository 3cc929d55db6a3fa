"""`bnproof fuzz` against a hostile but realistic user: claim ids that would
write outside certificates/, duplicate ids, claim files named like standard
modules, claims that print, bad size ranges, numeric-only violations,
constants beyond the float range, derivatives at kinks, a worker killed
while blocked, concurrent --record runs, repeated Ctrl-C and a claim that
starts processes of its own.  Every run happens in a scratch folder.  The
command runs in this process (tests/cli_runner.py: the entry point the
`bnproof` script calls, with the folder, environment and captured streams a
process would have); the fuzz worker it starts is a real process, as for a
user.  Ctrl-C is tried on a real `python -m bnproof` process group once the
claim has blocked; a subprocess timeout only turns a hang into a failure.
A worker killed for its budget is killed the moment its claim blocks, whatever
the machine's speed (tests/budget_clock.py)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bnproof.claims.api import load_file
from bnproof.errors import ExitCode
from bnproof.search.fuzz import REFUTED, SURVIVED, UNDECIDED, VACUOUS, fuzz
import ctrl_c
from budget_clock import GENEROUS, budget_ends_when_blocked
from cli_runner import run_cli

HERE = Path(__file__).parent
HANG_GUARD = 300  # seconds; only so that a hang of a real process fails instead of blocking the suite
TOY = (HERE / "claims" / "false_toy.py").read_text()


def scratch(folder: Path) -> dict:
    return {"BNPROOF_CACHE_DIR": str(folder / ".cache"), "BNPROOF_PROOFS": str(folder / "proofs")}


def env_for(folder: Path) -> dict:
    return dict(os.environ, **scratch(folder))


def run(*args, cwd: Path, env_folder: Path | None = None):
    """`bnproof ARGS` from `cwd` (in this process), caches and proofs/ in `env_folder` (cwd)."""
    return run_cli(*args, cwd=cwd, env=scratch(env_folder or cwd))


def claims_from(folder: Path, text: str, name: str = "claims.py") -> dict:
    path = folder / name
    path.write_text("from bnproof.claims import Claim, Var\n" + text)
    return {c.id: c for c in load_file(path)}


def files_under(folder: Path) -> set:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.json")}


# ------------------------------------------------------------ ids and files


@pytest.mark.parametrize("claim_id", ["../../escaped", "/ABSOLUTE/escaped", "a/", "a//b", ".", "a/../b",
                                      "back\\\\slash", "with space", "caf\u00e9", "x" * 101, ""])
def test_an_id_that_cannot_name_a_certificate_is_bad_input_before_any_search(tmp_path, claim_id):
    work = tmp_path / "work"
    work.mkdir()
    claim_id = claim_id.replace("/ABSOLUTE", str(tmp_path))
    (work / "c.py").write_text(TOY.replace('id="toy/bounded-bn-output"', f"id={claim_id!r}"))
    proc = run("fuzz", "c.py", "--no-jax", "--no-timings", cwd=work)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert proc.stderr.startswith("error: claim id ") and "Traceback" not in proc.stderr
    assert proc.stdout == ""
    assert files_under(tmp_path) == set()  # nothing written, inside certificates/ or out of it


def test_two_claims_with_one_id_are_bad_input_and_one_claim_with_two_names_is_searched_once(tmp_path):
    (tmp_path / "dup.py").write_text('''
from bnproof.claims import Claim, Var
TRUE = Claim(id="dup/x", source="true", statement="x^2 >= 0", variables=(Var("x", ()),),
             residual=lambda xp, x: x * x)
FALSE = Claim(id="dup/x", source="false", statement="x >= 1", variables=(Var("x", ()),),
              residual=lambda xp, x: x - 1)
''')
    proc = run("fuzz", "dup.py", "--no-jax", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout
    assert "two claims have the id 'dup/x'" in proc.stderr and not (tmp_path / "bnproof-out").exists()

    (tmp_path / "alias.py").write_text(TOY + "\nALIAS = TOY\n")
    proc = run("fuzz", "alias.py", "--no-jax", "--json", "--no-timings", cwd=tmp_path)
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    assert [r["claim"] for r in json.loads(proc.stdout)] == ["toy/bounded-bn-output"]  # one claim, not two


def test_a_claim_file_named_like_a_standard_module_is_searched(tmp_path):
    # the worker used to start with `python -m`, which put array.py ahead of the standard library;
    # the worker is a fresh process started in tmp_path however the command itself runs
    (tmp_path / "array.py").write_text(TOY)
    proc = run("fuzz", "array.py", "--no-jax", "--no-timings", "--json", cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == ExitCode.REFUTED, proc.stderr
    assert [r["verdict"] for r in json.loads(proc.stdout)] == [REFUTED]


def test_what_a_claim_file_prints_stays_out_of_the_json_report(tmp_path):
    (tmp_path / "chatty.py").write_text('''
print("loading my claim")
from bnproof.claims import Claim, Var

def residual(xp, x):
    print("evaluating", x)
    return x * x

CHATTY = Claim(id="chatty/square", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
               residual=residual)
''')
    proc = run("fuzz", "chatty.py", "--json", "--no-timings", "--max-examples", "5", "--batch", "4",
               cwd=tmp_path)
    assert proc.returncode == ExitCode.OK, proc.stderr
    assert [r["verdict"] for r in json.loads(proc.stdout)] == [SURVIVED]  # stdout is the report and nothing else
    assert "loading my claim" in proc.stderr and "evaluating" in proc.stderr


@pytest.mark.parametrize("variable, sizes", [
    ('Var("y", ("m",))', '{"m": (1.5, 2)}'),  # was an internal error (exit 8)
    ('Var("y", ("m",))', '{"m": (3, 2)}'),  # an empty range: was "undecided"
    ('Var("y", ("m",))', '{"m": (0, 2)}'),
    ('Var("y", (0,))', '{}'),  # no entries at all: the checker refused every certificate
    ('Var("y", (-1,))', '{}'),
])
def test_impossible_sizes_in_a_claim_are_bad_input(tmp_path, variable, sizes):
    (tmp_path / "sizes.py").write_text(f'''
from bnproof.claims import Claim, Var
SIZES = Claim(id="sizes/bad", source="a test", statement="x", variables=({variable},), sizes={sizes},
              residual=lambda xp, y: xp.sum(y) + 1)
''')
    proc = run("fuzz", "sizes.py", "--no-jax", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert proc.stderr.startswith("error: claim sizes/bad") and "Traceback" not in proc.stderr


@pytest.mark.parametrize("exact_sizes", ['{"m": (1.5, 2)}', '{"k": (1, 2)}', '{"m": (1, 10 ** 9)}'])
def test_impossible_exact_sizes_are_bad_input(tmp_path, exact_sizes):
    # a float range was an internal error (exit 8) once the worker was killed or failed;
    # a billion sizes were a list of a billion dicts
    (tmp_path / "exact.py").write_text(f'''
from bnproof.claims import Claim, Var
EXACT = Claim(id="exact/bad", source="a test", statement="x", kind="identity", variables=(Var("y", ("m",)),),
              sizes={{"m": (1, 2)}}, exact_sizes={exact_sizes}, residual=lambda xp, y: xp.sum(y) - xp.sum(y))
''')
    proc = run("fuzz", "exact.py", "--no-jax", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout + proc.stderr
    assert proc.stderr.startswith("error: claim exact/bad: exact")


def test_a_negative_seed_is_a_usage_error_not_a_failed_search(tmp_path):
    (tmp_path / "toy.py").write_text(TOY)
    proc = run("fuzz", "toy.py", "--seed", "-5", cwd=tmp_path)
    assert proc.returncode == ExitCode.USAGE, proc.stdout  # numpy's generator takes no negative seed


# ------------------------------------------------------------ verdicts


def test_violations_in_floats_that_cannot_be_decided_exactly_are_not_a_survival(tmp_path):
    claims = claims_from(tmp_path, '''
TANH = Claim(id="tanh/below-half", source="a test", statement=r"\\tanh x \\le 1/2", variables=(Var("x", ()),),
             residual=lambda xp, x: xp.q(1, 2) - xp.tanh(x) + xp.exp(-(x * x) * 10**6))
''')
    outcome = fuzz(claims["tanh/below-half"], max_examples=60, use_jax=False)
    # wherever tanh x > 1/2, exp's argument is beyond ±4096: the exact engine refuses it
    assert outcome.undecided_candidates > 0
    assert outcome.verdict == UNDECIDED  # it was "survived", exit 0, for a false claim
    assert "could not be decided exactly" in outcome.reason and "not survived" in outcome.reason


def test_constants_beyond_the_float_range_are_decided_exactly(tmp_path):
    claims = claims_from(tmp_path, '''
FALSE = Claim(id="big/false", source="a test", statement="x^2 >= 2^5000", variables=(Var("x", ()),),
              residual=lambda xp, x: x * x - 2 ** 5000)
TRUE = Claim(id="big/true", source="a test", statement="x^2 + 2^5000 >= 0", variables=(Var("x", ()),),
             residual=lambda xp, x: x * x + 2 ** 5000)
''')
    refuted = fuzz(claims["big/false"], max_examples=30, use_jax=False)
    assert refuted.verdict == REFUTED  # was "vacuous": floats overflow, the instances were inside
    assert refuted.refutation.residual_float is None  # no float for it (and no Infinity in JSON)
    survived = fuzz(claims["big/true"], max_examples=30, use_jax=False)
    assert survived.verdict == SURVIVED and survived.coverage.total().defined > 0


def test_a_claim_false_by_a_hair_everywhere_does_not_survive(tmp_path):
    # violations inside the float screen's slack (10**-9 for inequalities, 10**-7 for identities)
    # were never sent to the exact engine: both claims "survived" (exit 0)
    claims = claims_from(tmp_path, '''
INEQUALITY = Claim(id="hair/inequality", source="a test", statement="0 >= 10^-12", variables=(Var("x", ()),),
                   residual=lambda xp, x: x * 0 - xp.q(1, 10 ** 12))
IDENTITY = Claim(id="hair/identity", source="a test", statement="x = x + 10^-9", kind="identity",
                 variables=(Var("x", ()),), residual=lambda xp, x: x - (x + xp.q(1, 10 ** 9)))
''')
    for claim in claims.values():
        assert fuzz(claim, max_examples=30, use_jax=False).verdict == REFUTED, claim.id


def test_a_hypothesis_within_float_rounding_of_zero_is_decided_exactly(tmp_path):
    claims = claims_from(tmp_path, '''
TINY = Claim(id="tiny/hypothesis", source="a test", statement="10^-15 > 0 => x >= 1", variables=(Var("x", ()),),
             hypotheses=(lambda xp, x: x * 0 + xp.q(1, 10 ** 15),), residual=lambda xp, x: x - 1)
''')
    outcome = fuzz(claims["tiny/hypothesis"], max_examples=30, use_jax=False)
    assert outcome.verdict == REFUTED  # was "vacuous" (exit 9): 10^-15 is under the float screen's floor


def test_a_jax_phase_that_fails_keeps_the_hypothesis_evidence(tmp_path):
    claims = claims_from(tmp_path, '''
def residual(xp, x):
    if xp.kind == "numeric":
        raise OverflowError("jax cannot hold " + "9" * 2000)
    return x * x

JAX_FAILS = Claim(id="jax/fails", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
                  residual=residual)
''')
    outcome = fuzz(claims["jax/fails"], max_examples=30, batch=16)
    assert outcome.verdict == SURVIVED and outcome.instances == 30  # was "undecided"
    assert outcome.notes[0].startswith("the JAX search stopped on an error: OverflowError")
    assert len(outcome.notes[0]) < 400  # not the two thousand digits


def test_derivatives_at_kinks_are_not_counted_as_defined(tmp_path):
    # relu'(0) is undefined exactly (and in the float screen); JAX says 1/2
    claims = claims_from(tmp_path, '''
def relu_slope_at_zero(xp, x):
    return xp.sum(xp.grad(lambda t: xp.sum(xp.relu(t)), x * 0))

AT_LEAST_ONE = Claim(id="kink/at-least-one", source="a test", statement="relu'(0) >= 1",
                     variables=(Var("x", (1,)),), residual=lambda xp, x: relu_slope_at_zero(xp, x) - 1)
AT_MOST_ZERO = Claim(id="kink/at-most-zero", source="a test", statement="relu'(0) <= 0",
                     variables=(Var("x", (1,)),), residual=lambda xp, x: -relu_slope_at_zero(xp, x))
''')
    for claim in claims.values():  # both "survived" (exit 0) before: they contradict each other
        outcome = fuzz(claim, max_examples=20, batch=64)
        assert outcome.phases["jax"] > 0
        assert outcome.verdict == VACUOUS, (claim.id, outcome.verdict, outcome.coverage.rows())
        assert outcome.coverage.total().defined == 0


# ------------------------------------------------------------ the worker and the record


def test_a_worker_killed_for_its_budget_is_replaced_by_a_spare_already_started(tmp_path, monkeypatch):
    # a run of claims that block cost a fresh start-up (a JAX import) each on top of budget + grace
    from bnproof.search.worker import Supervisor

    monkeypatch.chdir(tmp_path)
    (tmp_path / "blocks.py").write_text('''
import os
import time

from bnproof.claims import Claim, Var


def residual(xp, x):
    with open(f"blocked-{os.getpid()}", "w"):
        pass
    time.sleep(3600)


BLOCKS = Claim(id="blocks/forever", source="a test", statement="x", variables=(Var("x", ()),),
               residual=residual)
''')
    claim = load_file(tmp_path / "blocks.py")[0]
    # the residual blocks when fuzz first traces the claim: the budget runs out then
    options = {"seed": 0, "max_examples": 10, "batch": 8, "time_budget": GENEROUS, "sizes": {},
               "use_jax": False, "prove": False}
    with budget_ends_when_blocked(tmp_path, "blocked-*") as clock, Supervisor(warm_jax=False) as supervisor:
        first = supervisor.run(claim, options)
        assert first.verdict == UNDECIDED and first.stopped == "time budget"
        spare = supervisor.spare
        assert supervisor.worker is None and spare is not None and spare.alive()
        second = supervisor.run(claim, options)
        assert second.verdict == UNDECIDED and clock.jumps == 2
        assert spare.process is None  # it served the second claim, and was killed in turn
    assert supervisor.spare is None and supervisor.worker is None


BLOCKS_AFTER_30 = '''
import os
import time

from bnproof.claims import Claim, Var

CALLS = [0]


def residual(xp, x):
    if xp.kind == "floating":
        CALLS[0] += 1
        if CALLS[0] > 30:  # the 31st instance blocks for good
            with open(f"blocked-{os.getpid()}", "w"):
                pass
            time.sleep(3600)
    return x * x


BLOCKS = Claim(id="blocks/after-30", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
               residual=residual)
'''

SPAWNS = '''
import subprocess
import time

from bnproof.claims import Claim, Var


def residual(xp, x):
    if xp.kind == "floating":
        child = subprocess.Popen(["sleep", "600"])
        with open("child.pid", "w") as fh:
            fh.write(str(child.pid))
        time.sleep(3600)
    return x * x


SPAWNS = Claim(id="spawns/sleep", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
               residual=residual)
'''


def killed_run(folder: Path, file: str, text: str, marker: str, *extra):
    """`bnproof fuzz FILE --no-jax EXTRA` in `folder`, its budget spent the moment the
    claim blocks (writes `marker`): the worker is killed for its budget, at any speed."""
    (folder / file).write_text(text)
    with budget_ends_when_blocked(folder, marker) as clock:
        proc = run("fuzz", file, "--no-jax", *extra, "--time-budget", str(GENEROUS), cwd=folder)
    assert clock.jumps == 1, proc.stdout + proc.stderr  # it did block
    return proc


def test_instances_evaluated_before_the_worker_is_killed_are_all_counted(tmp_path):
    proc = killed_run(tmp_path, "blocks.py", BLOCKS_AFTER_30, "blocked-*", "--json")
    (result,) = json.loads(proc.stdout)
    assert result["stopped"] == "time budget" and result["verdict"] == SURVIVED
    assert result["instances"] == 30  # was 1: coverage went out at most every quarter second
    assert sum(result["phases"].values()) == result["instances"]


def test_a_record_keeps_what_another_run_recorded_meanwhile(tmp_path):
    # the claim's code plays the other run: it records a verdict while this run searches
    (tmp_path / "proofs" / "meanwhile").mkdir(parents=True)
    (tmp_path / "proofs" / "meanwhile" / "claims.py").write_text('''
import json
import os
from pathlib import Path

from bnproof.claims import Claim, Var

RECORDS = Path(os.environ["BNPROOF_PROOFS"]) / "verdicts.json"


def residual(xp, x):
    if xp.kind == "floating" and not RECORDS.exists():
        RECORDS.write_text(json.dumps({"other/claim": {"verdict": "survived", "instances": 1,
                                                      "met_hypotheses": 1, "seed": 0}}))
    return x * x


MEANWHILE = Claim(id="meanwhile/square", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
                  residual=residual)
''')
    proc = run("fuzz", "meanwhile/square", "--no-jax", "--record", "--max-examples", "5", cwd=tmp_path)
    assert proc.returncode == ExitCode.OK, proc.stderr
    recorded = json.loads((tmp_path / "proofs" / "verdicts.json").read_text())
    assert set(recorded) == {"other/claim", "meanwhile/square"}  # the other run's entry was lost


def test_a_record_that_is_not_json_is_not_overwritten(tmp_path):
    (tmp_path / "proofs" / "toy").mkdir(parents=True)
    records = tmp_path / "proofs" / "verdicts.json"
    records.write_text('{"hand/edited": {"verdict": "survived",}}')  # a trailing comma
    (tmp_path / "proofs" / "toy" / "claims.py").write_text(TOY)
    proc = run("fuzz", "toy/bounded-bn-output", "--no-jax", "--record", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stdout
    assert records.read_text() == '{"hand/edited": {"verdict": "survived",}}'


def test_the_record_takes_only_claims_of_proofs_and_only_beside_its_certificates(tmp_path):
    (tmp_path / "proofs" / "toy").mkdir(parents=True)
    (tmp_path / "proofs" / "toy" / "claims.py").write_text(TOY)
    (tmp_path / "scratch.py").write_text(TOY.replace("toy/bounded-bn-output", "scratch/toy"))
    # a scratch claim is never listed: its entry would be junk in the committed record
    proc = run("fuzz", "scratch.py", "--no-jax", "--record", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT and "search it without --record" in proc.stderr
    # from another folder, the record would name a certificate written elsewhere
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run("fuzz", "toy/bounded-bn-output", "--no-jax", "--record", cwd=elsewhere, env_folder=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT and "run it from" in proc.stderr
    assert not (tmp_path / "proofs" / "verdicts.json").exists()
    assert files_under(tmp_path) == set()


def test_a_claim_file_edited_during_the_run_is_not_searched_in_its_new_form(tmp_path):
    # the first claim's code edits the file, as an editor saving it during a long run would;
    # the worker loads the file again for the second claim
    (tmp_path / "edited.py").write_text('''
from pathlib import Path

from bnproof.claims import Claim, Var

HERE = Path(__file__)


def residual(xp, x):
    done = HERE.with_name("edited.done")
    if xp.kind == "floating" and not done.exists():
        done.touch()
        HERE.write_text(HERE.read_text().replace("x * x + ONE", "x * x - ONE"))
    return x * x


ONE = 1


FIRST = Claim(id="edited/first", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
              residual=residual)
SECOND = Claim(id="edited/second", source="a test", statement="x^2 + 1 >= 0", variables=(Var("x", ()),),
               residual=lambda xp, x: x * x + ONE)
''')
    proc = run("fuzz", "edited.py", "--no-jax", "--json", "--no-timings", "--max-examples", "5", cwd=tmp_path)
    results = {r["claim"]: r for r in json.loads(proc.stdout)}
    assert results["edited/first"]["verdict"] == SURVIVED
    # it was refuted, with a certificate of "x^2 - 1 >= 0" reported as "x^2 + 1 >= 0"
    assert results["edited/second"]["verdict"] == UNDECIDED, results["edited/second"]
    assert "changed during the run" in results["edited/second"]["reason"]
    assert not (tmp_path / "bnproof-out").exists()


def test_processes_the_claim_started_go_with_a_killed_worker(tmp_path):
    proc = killed_run(tmp_path, "spawns.py", SPAWNS, "child.pid")
    assert proc.returncode == ExitCode.UNDECIDED, proc.stderr
    child = int((tmp_path / "child.pid").read_text())
    state = subprocess.run(["ps", "-o", "stat=", "-p", str(child)], capture_output=True, text=True).stdout
    # gone, or a zombie nobody has reaped yet: not sleeping (the state's first letter; a niced run adds N)
    assert state.strip()[:1] in ("", "Z"), state


STALLS = TOY.replace('from bnproof.claims.blocks import batch_norm, stats', '''import os
import time

from bnproof.claims.blocks import batch_norm, stats


def _residual(xp, y, gamma, beta):
    if xp.kind == "floating":
        with open("stalled.pid", "w") as fh:
            fh.write(str(os.getpid()))
        time.sleep(3600)
    return beta + xp.abs(gamma) - batch_norm(xp, y, gamma, beta)[0]''').replace(
    "residual=lambda xp, y, gamma, beta: beta + xp.abs(gamma) - batch_norm(xp, y, gamma, beta)[0]",
    "residual=_residual")


def test_ctrl_c_pressed_again_and_again_still_exits_130_quietly(tmp_path):
    (tmp_path / "stall.py").write_text(STALLS)
    proc = ctrl_c.start([sys.executable, "-m", "bnproof", "fuzz", "stall.py", "--no-jax", "--time-budget",
                         str(HANG_GUARD)], cwd=tmp_path, env=env_for(tmp_path), stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(HANG_GUARD * 20):
            if (tmp_path / "stalled.pid").exists():
                break
            time.sleep(0.05)
        for _ in range(40):  # an impatient user: Ctrl-C until it is gone
            try:
                os.killpg(proc.pid, signal.SIGINT)
            except ProcessLookupError:
                break
            time.sleep(0.005)
        out, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        ctrl_c.finish(proc)
    assert proc.returncode == ExitCode.INTERRUPTED == 130  # not killed by the signal (-2)
    assert err.strip() == "interrupted", err  # and no traceback from the shutdown


def test_a_claim_whose_code_raises_bad_input_or_kills_its_process_ends_alone(tmp_path):
    # a BnproofError from the claim's own code stopped the whole run (exit 3), and with --json
    # the verdicts already reached were never printed
    (tmp_path / "rude.py").write_text('''
import os

from bnproof.claims import Claim, Var
from bnproof.errors import BadInput


def exits(xp, x):
    os._exit(7)


def bad_input(xp, x):
    raise BadInput("my own bad input")


A_EXITS = Claim(id="rude/a-exits", source="a test", statement="x", variables=(Var("x", ()),), residual=exits)
B_BAD = Claim(id="rude/b-bad-input", source="a test", statement="x", variables=(Var("x", ()),),
              residual=bad_input)
C_FINE = Claim(id="rude/c-fine", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
               residual=lambda xp, x: x * x)
''')
    proc = run("fuzz", "rude.py", "--no-jax", "--json", "--no-timings", "--max-examples", "5", cwd=tmp_path)
    # a claim that cannot be traced is the user's mistake: the run stops with exit 3 and the
    # line, and the verdicts already reached are still printed
    assert proc.returncode == ExitCode.BAD_INPUT, proc.stderr
    doc = json.loads(proc.stdout)  # one JSON document: the error, with the claims finished before it
    assert doc["exit_code"] == ExitCode.BAD_INPUT and "my own bad input" in doc["error"]
    results = {r["claim"]: r for r in doc["finished"]}
    assert results["rude/a-exits"]["reason"] == "the search process died (exit code 7)"
    assert "rude.py:13: claim rude/b-bad-input cannot be traced: BadInput: my own bad input" in proc.stderr


def test_a_size_fixed_for_a_file_applies_to_the_claims_that_have_it(tmp_path):
    # `bnproof fuzz dannemann2025 --size m=3` stopped at the first claim without an m
    (tmp_path / "mixed.py").write_text('''
from bnproof.claims import Claim, Var

SCALAR = Claim(id="mixed/scalar", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
               residual=lambda xp, x: x * x)
BATCH = Claim(id="mixed/batch", source="a test", statement="|y|^2 >= 0", variables=(Var("y", ("m",)),),
              sizes={"m": (1, 4)}, residual=lambda xp, y: xp.sum(y * y))
''')
    proc = run("fuzz", "mixed.py", "--no-jax", "--json", "--no-timings", "--max-examples", "5", "--size", "m=3",
               cwd=tmp_path)
    assert proc.returncode == ExitCode.OK, proc.stderr
    results = {r["claim"]: r for r in json.loads(proc.stdout)}
    assert [row["sizes"] for row in results["mixed/batch"]["coverage"]] == [{"m": 3}]
    assert results["mixed/scalar"]["verdict"] == SURVIVED
    proc = run("fuzz", "mixed.py", "--no-jax", "--size", "n=3", cwd=tmp_path)
    assert proc.returncode == ExitCode.BAD_INPUT and "no claim has the size 'n'" in proc.stderr


def test_a_certificate_that_cannot_be_written_is_no_refutation_and_no_internal_error(tmp_path):
    (tmp_path / "bnproof-out").write_text("a file where the folder should be")
    (tmp_path / "toy.py").write_text(TOY)
    proc = run("fuzz", "toy.py", "--no-jax", "--json", "--no-timings", cwd=tmp_path)
    assert proc.returncode == ExitCode.UNDECIDED, proc.stderr  # was exit 8, NotADirectoryError
    (result,) = json.loads(proc.stdout)
    assert result["verdict"] == UNDECIDED and "certificate" not in result
    assert result["reason"].startswith("a counterexample was found and certified, but its certificate "
                                       "could not be written: ")
