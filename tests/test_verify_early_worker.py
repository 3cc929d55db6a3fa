"""`bnproof verify lemma-4.5` with its JAX cross-check (issue 24 §6): the worker is
started first thing, as a fork of the command where that is safe, and the command's
own process compares in plain floats (no numpy, no mpmath).  Whatever happens
before the answer (input refused, Ctrl-C), no worker outlives the command.

Nothing here depends on speed: where the worker must still be running, a stand-in
`jax` on PYTHONPATH blocks its import until it is killed."""

import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

import ctrl_c

ROOT = Path(__file__).resolve().parents[1]
LINUX = pytest.mark.skipif(not Path(f"/proc/self/task/{os.getpid()}/children").exists(),
                           reason="reads /proc (a process's children)")


def bnproof(args, cwd, env=None, **kwargs):
    """The command in a session of its own, SIGINT at its default whatever pytest inherited
    (tests/ctrl_c.py: else a suite started as a background job waits out every Ctrl-C test)."""
    kwargs.pop("start_new_session", None)
    return ctrl_c.start([sys.executable, "-m", "bnproof", *args], cwd=cwd, env=env,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def blocking_jax(tmp_path) -> dict:
    """An environment whose `import jax` never returns (it waits for a signal)."""
    package = tmp_path / "stand_in" / "jax"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("import signal\nwhile True:\n    signal.pause()\n")
    path = os.pathsep.join([str(tmp_path / "stand_in"), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def group_is_empty(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_for_worker(proc) -> int:
    """The worker's pid, once it exists (an event, not a time: the stand-in jax keeps
    it alive until it is killed)."""
    while not children(proc.pid):
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)  # a pause between looks, not a deadline
    return children(proc.pid)[0]


@LINUX
def test_the_worker_is_a_fork_started_before_the_instance_is_read_and_ctrl_c_ends_both(tmp_path):
    proc = bnproof(["verify", "lemma-4.5", "--out", str(tmp_path / "c.json")], tmp_path,
                   env=blocking_jax(tmp_path), start_new_session=True)
    try:
        worker = wait_for_worker(proc)
        # a fork of the command, not a second interpreter running bnproof.numeric.worker
        cmdline = Path(f"/proc/{worker}/cmdline").read_bytes().split(b"\0")
        assert b"bnproof.numeric.worker" not in cmdline and b"bnproof" in cmdline, cmdline
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C at a terminal: the whole foreground group
        out, err = proc.communicate(timeout=ctrl_c.GUARD)
    finally:
        ctrl_c.finish(proc)
    # 130, or ended by SIGINT itself, which a shell reports as 130 too: about one run in ten,
    # when Ctrl-C lands as the worker is forked, the command says "interrupted" and then
    # ends by the signal (session 30; its cause is not found yet, see the issue note)
    assert proc.returncode in (130, -signal.SIGINT)
    assert err == "interrupted\n" and out == ""  # one line, no traceback (the worker's included)
    assert group_is_empty(proc.pid)  # the worker was killed and reaped, not left behind
    assert not (tmp_path / "c.json").exists()


@LINUX
@pytest.mark.parametrize("data, code", [("missing.json", 3), ("bad.json", 3)])
def test_an_instance_refused_up_front_leaves_no_worker_behind(tmp_path, data, code):
    (tmp_path / "bad.json").write_text('{"X": [[1, 2]], "y": [1]}')
    proc = bnproof(["verify", "lemma-4.5", "--data", data], tmp_path, env=blocking_jax(tmp_path),
                   start_new_session=True)
    try:
        out, err = proc.communicate(timeout=ctrl_c.GUARD)
    finally:
        left = not group_is_empty(proc.pid)
        ctrl_c.finish(proc)
        if left:
            pytest.fail("a worker outlived the command")
    assert proc.returncode == code, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_command_compares_without_numpy_or_mpmath(tmp_path):
    # the JAX worker imports numpy (JAX needs it); the command itself needs neither
    script = ("import sys, atexit\n"
              "atexit.register(lambda: print('MODULES', sorted({m.split('.')[0] for m in sys.modules} & "
              "{'numpy', 'mpmath', 'jax', 'sympy'}), file=sys.stderr))\n"
              "sys.argv = ['bnproof', 'verify', 'lemma-4.5', '--json', '--out', 'c.json']\n"
              "from bnproof.cli import main\nmain()\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr  # refuted
    crosscheck = json.loads(proc.stdout)["crosscheck"]
    assert crosscheck["ok"] is True and crosscheck["values_compared"] > 0
    assert "MODULES []" in proc.stderr, proc.stderr


def test_the_forked_and_the_spawned_worker_answer_alike(tmp_path):
    # the same comparison, whichever way the worker started
    from bnproof.claims import lemma45
    from bnproof.instance import example_3_2
    from bnproof.numeric import crosscheck, forked

    report = lemma45.analyse(example_3_2())
    neurons, points = [n.neuron for n in report.neurons], crosscheck.points_for(report)
    answers = []
    for fork in (False, True):
        worker = crosscheck.Worker(fork=fork)
        assert isinstance(worker.proc, forked.ForkedWorker) == (fork and forked.can_fork())
        worker.submit(neurons, points)
        answers.append(worker.result())
        worker.cancel()  # after the result, as run_verify's `finally` does: nothing left to end
    spawned, forked_ = answers
    assert spawned.ok and forked_.ok and spawned.compared == forked_.compared > 0
    assert spawned.worst == forked_.worst and spawned.worst_what == forked_.worst_what


def test_a_worker_cancelled_before_its_answer_is_reaped():
    from bnproof.numeric import crosscheck, forked

    if not forked.can_fork():
        pytest.skip("this process may not fork (threads, JAX or not Linux)")
    worker = crosscheck.Worker(fork=True)
    pid = worker.proc.pid
    worker.cancel()
    worker.cancel()  # twice, as an error path may
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone, not a zombie


# -- the comparison in plain floats -------------------------------------------------

def numpy_scales(X, y, w, s, gamma, beta):
    """crosscheck._scales as it was written with numpy (before this change)."""
    np = pytest.importorskip("numpy")
    X, y, wv = np.array(X), np.array(y), np.array(w)
    z = X @ wv
    zc = z - z.mean()
    sigma = math.sqrt(float(np.mean(zc**2)))
    zhat = gamma * zc / sigma + beta
    g = 2 * s * (np.abs(zhat) + np.abs(y))
    fx = float(np.linalg.norm(X))
    return {
        "C": s * float(np.sum((np.abs(z) + np.abs(y)) ** 2)) + 1.0,
        "grad_C": 2 * s * fx * float(np.linalg.norm(np.abs(z) + np.abs(y))) + 1.0,
        "hess_C": 2 * s * fx**2 + 1.0,
        "C_hat": s * float(np.sum((np.abs(zhat) + np.abs(y)) ** 2)) + 1.0,
        "grad_C_hat": 3 * abs(gamma) / sigma * fx * float(np.linalg.norm(g)) + 1.0,
        "hess_C_hat": (2 * s * gamma**2 + 6 * abs(gamma) * float(np.linalg.norm(g))) / sigma**2 * fx**2 + 1.0,
    }


def test_the_tolerance_scales_are_numpys_to_round_off():
    from flint import fmpq, fmpq_mat

    from bnproof.instance import instance_from_json
    from bnproof.numeric import crosscheck

    rng = random.Random(7)
    for m, d, gamma, beta in [(3, 2, 1, 0), (20, 3, "-2", "1/3"), (200, 8, "5/7", "-3")]:
        X = [[rng.randint(-9, 9) for _ in range(d)] for _ in range(m)]
        y = [rng.randint(-9, 9) for _ in range(m)]
        instance = instance_from_json({"X": X, "y": y, "W0": [1] * d, "gamma": gamma, "beta": beta})
        from bnproof.claims import lemma45

        neuron = lemma45.analyse(instance).neurons[0].neuron
        w = fmpq_mat(d, 1, [fmpq(rng.randint(-5, 5) or 1, rng.randint(1, 4)) for _ in range(d)])
        got = crosscheck._scales(neuron, w)
        want = numpy_scales(X, y, [float(x) for x in (Fraction(int(v.p), int(v.q)) for v in w.entries())],
                            float(Fraction(str(neuron.scale))), float(Fraction(str(gamma))),
                            float(Fraction(str(beta))))
        assert got.keys() == want.keys()
        for key in got:
            assert got[key] == pytest.approx(want[key], rel=1e-12), key


def test_a_wrong_answer_disagrees_and_a_short_answer_is_an_error_not_a_shorter_comparison():
    from bnproof.claims import lemma45
    from bnproof.instance import example_3_2
    from bnproof.numeric import crosscheck

    report = lemma45.analyse(example_3_2())
    neurons, points = [n.neuron for n in report.neurons], crosscheck.points_for(report)[:1]
    d = neurons[0].d
    zeros = {"C": 0.0, "grad_C": [[0.0] * d], "C_hat": 0.0, "grad_C_hat": [[0.0] * d],
             "hess_C": [[[[0.0] * d] for _ in range(d)]], "hess_C_hat": [[[[0.0] * d] for _ in range(d)]]}
    wrong = crosscheck.compare(neurons, points, {"points": [zeros]})
    assert wrong.skipped is None and not wrong.ok and wrong.worst > crosscheck.RTOL
    infinite = crosscheck.compare(neurons, points, {"points": [dict(zeros, C_hat=math.inf)]})
    assert not infinite.ok and infinite.worst == math.inf
    with pytest.raises(ValueError, match="has 1 values, not 2"):  # zip would compare one and stop
        crosscheck.compare(neurons, points, {"points": [dict(zeros, grad_C=[[0.0]])]})


def test_a_scalar_surds_float_is_the_60_digit_one():
    from flint import fmpq

    from bnproof.exact.surd import Surd
    from bnproof.numeric.crosscheck import surd_float

    rng = random.Random(3)
    for _ in range(300):
        a = fmpq(rng.randint(-10**30, 10**30), rng.randint(1, 10**20))
        b = fmpq(rng.randint(-10**30, 10**30), rng.randint(1, 10**20))
        r = fmpq(rng.randint(2, 10**40), rng.randint(1, 10**10))
        value = Surd(a, b, r)
        got, want = surd_float(value), float(value)
        assert got == want or abs(got - want) <= math.ulp(want), (a, b, r)
    assert surd_float(Surd(fmpq(1, 3), fmpq(0), fmpq(2))) == 1 / 3


@LINUX
def test_the_forked_worker_never_finalizes_the_commands_garbage(tmp_path):
    # an object the command had dropped (a cycle not yet collected) at the fork: its
    # finalizer (a temporary file's, say) must not run in the worker, on the command's files
    mark = tmp_path / "finalized.txt"
    script = f"""
import gc, os
from bnproof.claims import lemma45
from bnproof.instance import example_3_2
from bnproof.numeric import crosscheck, forked

report = lemma45.analyse(example_3_2())
neurons, points = [n.neuron for n in report.neurons], crosscheck.points_for(report)
assert forked.can_fork()

class Mark:
    def __del__(self):
        with open({str(mark)!r}, "a") as fh:
            fh.write(f"{{os.getpid()}}\\n")

gc.collect()  # a fresh count: the cycle below is still uncollected at the fork
dropped = Mark()
dropped.cycle = dropped
del dropped
worker = crosscheck.Worker(fork=True)
print(worker.proc.pid, flush=True)
worker.submit(neurons, points)
assert worker.result().ok  # the worker imported JAX and computed: it collected many times
"""
    proc = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    child = proc.stdout.split()[0]
    finalized_in = mark.read_text().split() if mark.exists() else []
    assert child not in finalized_in, finalized_in


def gated_jax(tmp_path) -> tuple[dict, Path]:
    """An environment whose `import jax` waits for the file it returns, then imports JAX."""
    go = tmp_path / "go"
    package = tmp_path / "gate" / "jax"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "import os, sys, time\n"
        f"while not os.path.exists({str(go)!r}):\n"
        "    time.sleep(0.01)\n"
        f"sys.path.remove({str(tmp_path / 'gate')!r})\n"
        "del sys.modules['jax']\n"
        "import jax  # the real one, which the importer then finds in sys.modules\n")
    path = os.pathsep.join([str(tmp_path / "gate"), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path), go


@LINUX
def test_a_command_started_immune_to_ctrl_c_keeps_its_worker_immune(tmp_path):
    # a background job of a shell without job control ignores SIGINT: so must its worker,
    # as a fresh interpreter would (it inherits the ignored signal), and the verdict stands
    env, go = gated_jax(tmp_path)
    # the shell ignores SIGINT and execs the command, which inherits that (no preexec_fn: a fork
    # in this process, which may hold JAX's threads, is what the suite's warnings-as-errors refuse)
    proc = ctrl_c.start(["sh", "-c", 'trap "" INT; exec "$@"', "sh", sys.executable, "-m", "bnproof",
                         "verify", "lemma-4.5", "--json", "--out", str(tmp_path / "c.json")], cwd=tmp_path,
                        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_worker(proc)
        os.killpg(proc.pid, signal.SIGINT)
        go.write_text("")
        out, err = proc.communicate(timeout=ctrl_c.GUARD)
    finally:
        ctrl_c.finish(proc)
    assert proc.returncode == 1, err  # refuted, cross-checked
    assert json.loads(out)["crosscheck"]["ok"] is True


def test_a_worker_that_ends_before_its_request_is_reported_not_a_silent_exit(tmp_path):
    # JAX fails to import at once, long before the command hands over its points: writing
    # to the ended worker was a "broken pipe", which the command line takes for a reader of
    # its own output gone away (exit 1, silently: the exit code of "refuted")
    package = tmp_path / "broken" / "jax"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('no JAX in this environment')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "broken"), os.environ.get("PYTHONPATH", "")]))
    proc = bnproof(["verify", "lemma-4.5", "--json", "--out", str(tmp_path / "c.json")], tmp_path, env=env)
    try:
        out, err = proc.communicate(timeout=ctrl_c.GUARD)
    finally:
        ctrl_c.finish(proc)
    assert proc.returncode == 8, (out, err)
    assert json.loads(out)["error"] == "the numeric cross-check did not run: ImportError: no JAX in this environment"
    assert err.strip().splitlines() == ["error: the numeric cross-check did not run: "
                                        "ImportError: no JAX in this environment"]
    assert not (tmp_path / "c.json").exists()
