"""Red team of the zygote (bnproof/search/zygote.py): where a forked search worker
was not as good as a fresh interpreter.

Each test compares a worker forked by the zygote with a fresh one (BNPROOF_NO_ZYGOTE)
on the same command, and checks that the zygote served the forked one (the worker's
parent is the zygote, not the command): else a zygote that never forked would pass.
No test waits on a time: each waits on an event (a file, a process's end), with a
hang guard."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import test_zygote
from cli_runner import Started, env_for, run_cli

from bnproof.search import zygote

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the zygote forks on Linux only")

HANG_GUARD = 300  # seconds; only so that a hang fails instead of blocking the suite

# the claim file records, where it is imported, its process and what the test asks for
RECORD = '''
import json
import os
import sys


def _record(**extra):  # whole or not at all: the test reads it as soon as it appears
    path = os.path.join(os.environ["PROBE_DIR"], f"probe-{os.getpid()}.json")
    with open(path + ".tmp", "w") as fh:
        json.dump({"pid": os.getpid(), "ppid": os.getppid(), **extra}, fh)
    os.replace(path + ".tmp", path)
'''

CLAIM = '''
from bnproof.claims import Claim, Var


def square(xp, x):
    return x * x + OFFSET


CLAIM = Claim(id="probe/square", source="a test", statement="x^2 + 1 > 0", variables=(Var("x", ()),),
              residual=square)
'''


def _zygote_pid() -> int:
    assert zygote.start(timeout=HANG_GUARD), "no zygote on this machine"
    return zygote._zygote.process.pid


def _worker_probe(probes: Path, command: int) -> dict:
    """What the worker's import of the claim file recorded (the command loads it too)."""
    found = [json.loads(p.read_text()) for p in probes.glob("probe-*.json") if p.name != f"probe-{command}.json"]
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------- OpenBLAS's threads

BLAS_CLAIM = RECORD + '''
import ctypes

import numpy  # noqa: F401 - its OpenBLAS, loaded


def _blas_threads():
    with open("/proc/self/maps") as fh:
        libraries = {line.split(None, 5)[5].strip() for line in fh
                     if len(line.split(None, 5)) == 6 and "openblas" in line.split(None, 5)[5].lower()}
    for library in sorted(libraries):
        handle = ctypes.CDLL(library)
        for name in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                     "openblas_get_num_threads64_", "openblas_get_num_threads"):
            getter = getattr(handle, name, None)
            if getter is not None:
                return getter()
    return None


_record(blas=_blas_threads())
OFFSET = 1
''' + CLAIM


def test_a_forked_workers_numpy_has_the_blas_threads_of_a_fresh_workers(tmp_path):
    # the zygote keeps OpenBLAS to one thread (it must stay single-threaded to fork): the
    # workers it forked kept that one thread, where a fresh worker's numpy uses every CPU
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one CPU: one BLAS thread either way")
    zygote_pid = _zygote_pid()
    (tmp_path / "claim.py").write_text(BLAS_CLAIM)
    seen = {}
    for forked in (False, True):
        probes = tmp_path / f"probes-{forked}"
        probes.mkdir()
        done = run_cli("fuzz", tmp_path / "claim.py", "--no-jax", "--no-prove", "--max-examples", "5", "--json",
                       "--time-budget", "300", cwd=tmp_path,
                       env=env_for(tmp_path, PROBE_DIR=str(probes), BNPROOF_NO_ZYGOTE=None if forked else "1"))
        assert done.returncode == 0, done.stderr
        seen[forked] = _worker_probe(probes, os.getpid())
    assert seen[True]["ppid"] == zygote_pid and seen[False]["ppid"] == os.getpid()
    assert seen[False]["blas"] is not None and seen[False]["blas"] > 1, seen  # else this test tells nothing
    assert seen[True]["blas"] == seen[False]["blas"], seen


# ---------------------------------------------------------------- a helper named like a preloaded module

# a helper beside the claim file named like a standard module that the zygote's libraries
# import (SymPy, JAX) but that neither the command nor a fresh worker has imported when the
# claim loads: a fresh worker imports the helper; a forked one found the preloaded module
# and the claim failed to load ("cannot import name OFFSET from logging"), undecided
SHADOW_CLAIM = RECORD + '''
_record()
from logging import OFFSET
''' + CLAIM


@pytest.mark.parametrize("helper", ["logging", "timeit"])
def test_a_helper_named_like_a_module_the_zygote_preloaded_is_imported_as_in_a_fresh_worker(tmp_path, helper):
    (tmp_path / "claim.py").write_text(SHADOW_CLAIM.replace("from logging import", f"from {helper} import"))
    (tmp_path / f"{helper}.py").write_text("OFFSET = 1\n")
    prelude = "from bnproof.search import zygote\nassert zygote.start()"
    reports = {}
    for forked in (False, True):
        probes = tmp_path / f"probes-{forked}"
        probes.mkdir()
        env = env_for(tmp_path, PROBE_DIR=str(probes), **({} if forked else {"BNPROOF_NO_ZYGOTE": "1"}))
        # a process of its own: this one has imported logging (the command's load would fail here)
        command = Started("fuzz", "claim.py", "--no-jax", "--no-prove", "--max-examples", "5", "--json",
                          "--time-budget", "300", cwd=tmp_path, env=env, prelude=prelude if forked else None)
        done = command.wait()
        worker = _worker_probe(probes, command.process.pid)
        assert (worker["ppid"] != command.process.pid) == forked  # the zygote forked it, or the command
        reports[forked] = json.loads(done.stdout)[0]
        assert done.returncode == 0, (done.stderr, reports[forked])
    assert reports[False]["verdict"] == reports[True]["verdict"] == "survived", reports


# ---------------------------------------------------------------- a fork that fails costs no other claim

WAITS_CLAIM = RECORD + '''
import time
from pathlib import Path

from bnproof.claims import Claim, Var


def square(xp, x):
    if os.getpid() != int(os.environ["PROBE_TEST"]):  # in a worker, not in the test's process
        _record()  # the worker is in the claim's code
        while not (Path(os.environ["PROBE_DIR"]) / "release").exists():  # until the test releases it
            time.sleep(0.01)
    return x * x + 1


CLAIM = Claim(id="probe/square", source="a test", statement="x^2 + 1 > 0", variables=(Var("x", ()),),
              residual=square)
'''
QUICK_CLAIM = WAITS_CLAIM.replace("if os.getpid() !=", "if False and os.getpid() !=").replace("probe/square", "probe/quick")


# started in every interpreter with this folder on PYTHONPATH: SIGUSR1 starts a thread,
# after which the zygote refuses to fork (a fork copies only the calling thread)
THREAD_ON_SIGUSR1 = """
import signal
import threading
import time

signal.signal(signal.SIGUSR1, lambda *_: threading.Thread(target=time.sleep, args=(3600,), daemon=True).start())
"""


@pytest.mark.parametrize("failure", ["request too large", "fork refused"])
def test_a_fork_the_zygote_cannot_serve_costs_no_other_claim_running_on_it(tmp_path, monkeypatch, failure):
    # two searches at once (bnproof.fuzz from two threads): the second's fork request was too
    # large for the socket (an environment over ~200 kB), or the zygote refused to fork, and
    # the zygote was killed with every worker it had forked, the first search's too, mid-claim
    import threading

    import bnproof

    if failure == "fork refused":
        (tmp_path / "site").mkdir()
        (tmp_path / "site" / "sitecustomize.py").write_text(THREAD_ON_SIGUSR1)
        monkeypatch.setenv("PYTHONPATH", str(tmp_path / "site"))  # a zygote for it is started now
    zygote_pid = _zygote_pid()
    probes = tmp_path / "probes"
    probes.mkdir()
    (tmp_path / "waits.py").write_text(WAITS_CLAIM)
    (tmp_path / "quick.py").write_text(QUICK_CLAIM)
    monkeypatch.setenv("PROBE_DIR", str(probes))
    monkeypatch.setenv("PROBE_TEST", str(os.getpid()))
    monkeypatch.setenv("BNPROOF_CACHE_DIR", str(tmp_path / ".cache"))
    results = {}

    def first():
        results["first"] = bnproof.fuzz(str(tmp_path / "waits.py"), isolate=True, jax=False, prove=False,
                                        max_examples=5, time_budget=HANG_GUARD)

    thread = threading.Thread(target=first)
    thread.start()
    try:
        marker = probes / "release"
        deadline = time.monotonic() + HANG_GUARD
        while not list(probes.glob("probe-*.json")):
            assert time.monotonic() < deadline and thread.is_alive(), "the first claim never ran"
            time.sleep(0.01)
        worker = json.loads(next(probes.glob("probe-*.json")).read_text())
        assert worker["ppid"] == zygote_pid  # the zygote forked the first search's worker
        if failure == "fork refused":
            os.kill(zygote_pid, signal.SIGUSR1)
            while len(os.listdir(f"/proc/{zygote_pid}/task")) < 2:
                assert time.monotonic() < deadline, "the zygote started no thread"
                time.sleep(0.01)
        else:
            for i in range(3):  # each under exec's limit for one variable, together over the socket's
                monkeypatch.setenv(f"PROBE_LARGE_{i}", "x" * 100_000)
        second = bnproof.fuzz(str(tmp_path / "quick.py"), isolate=True, jax=False, prove=False, max_examples=5,
                              time_budget=HANG_GUARD)
        assert second.verdict == "survived", second.reason
    finally:
        marker.write_text("")
        thread.join(HANG_GUARD)
    assert not thread.is_alive()
    assert results["first"].verdict == "survived", results["first"].reason
    assert not zygote._zygote.gone  # it keeps serving


# ---------------------------------------------------------------- the environment read at import

ENV_CLAIM = RECORD + '''
import time

from numpy._core import _multiarray_umath

_record(tzname=list(time.tzname), features=dict(_multiarray_umath.__cpu_features__))
OFFSET = 1
''' + CLAIM

# what a fresh interpreter reads: the time zone (time's import, from TZ) and numpy's CPU
# features (its import, from NPY_DISABLE_CPU_FEATURES)
FRESH = ("import json, time\nfrom numpy._core import _multiarray_umath as m\n"
         "print(json.dumps({'tzname': list(time.tzname), 'features': dict(m.__cpu_features__)}))")


def _a_cpu_feature_to_disable() -> str | None:
    """One that numpy dispatches to at run time and that this machine has (the baseline
    cannot be disabled)."""
    from numpy._core import _multiarray_umath

    found = [f for f in _multiarray_umath.__cpu_dispatch__ if _multiarray_umath.__cpu_features__.get(f)]
    return found[-1] if found else None


@pytest.mark.parametrize("variable", ["TZ", "NPY_DISABLE_CPU_FEATURES"])
def test_a_variable_a_library_reads_at_import_takes_effect_in_the_worker_as_in_a_fresh_one(tmp_path, variable):
    # the zygote read them when it started: a forked worker kept its time zone (time.tzname,
    # localtime) and numpy's CPU dispatch (other SIMD kernels: other rounding in some)
    value = "BNP+3" if variable == "TZ" else _a_cpu_feature_to_disable()
    if value is None:
        pytest.skip("no CPU feature that numpy dispatches to on this machine")
    if os.environ.get(variable) == value:
        pytest.skip(f"this process has {variable}={value} already")
    _zygote_pid()  # started without it
    (tmp_path / "claim.py").write_text(ENV_CLAIM)
    probes = tmp_path / "probes"
    probes.mkdir()
    done = run_cli("fuzz", tmp_path / "claim.py", "--no-jax", "--no-prove", "--max-examples", "5", "--json",
                   "--time-budget", "300", cwd=tmp_path, env=env_for(tmp_path, PROBE_DIR=str(probes),
                                                                     **{variable: value}))
    assert done.returncode == 0, done.stderr
    worker = _worker_probe(probes, os.getpid())
    fresh = subprocess.run([sys.executable, "-c", FRESH], env=dict(os.environ, **{variable: value}),
                           capture_output=True, text=True, timeout=HANG_GUARD)
    assert fresh.returncode == 0, fresh.stderr
    expected = json.loads(fresh.stdout)
    assert (worker["tzname"], worker["features"]) == (expected["tzname"], expected["features"])


# ---------------------------------------------------------------- a zygote that dies as it forks

# in the zygote (started with this folder on PYTHONPATH): once the trigger file appears, it
# dies as it forks, before it can say what it forked; the child records its pid once it is
# orphaned, and goes on as the worker the zygote made of it
DIES_AS_IT_FORKS = """
import os
import signal
import sys

_zygote = []


def _taken(trigger):
    if not trigger or "bnproof.search.zygote_process" not in sys.modules:
        return False
    try:
        os.rename(trigger, trigger + ".taken")  # once, by one process
    except OSError:
        return False
    return True


def _before():
    _zygote[:] = [_taken(os.environ.get("PROBE_TRIGGER")), os.getpid()]


def _in_the_zygote():  # it dies before it can say what it forked
    if _zygote[0]:
        os.kill(os.getpid(), signal.SIGKILL)


def _in_the_child():  # it goes on once the zygote is gone, as the worker the zygote made of it
    if _zygote[0]:
        while os.getppid() == _zygote[1]:
            pass
        trigger = os.environ["PROBE_TRIGGER"]
        with open(trigger + ".orphan.tmp", "w") as fh:
            fh.write(str(os.getpid()))
        os.replace(trigger + ".orphan.tmp", trigger + ".orphan")


os.register_at_fork(before=_before, after_in_parent=_in_the_zygote, after_in_child=_in_the_child)
"""

RELEASED_CLAIM = RECORD + '''
import time
from pathlib import Path

from bnproof.claims import Claim, Var


def square(xp, x):
    if os.getpid() != int(os.environ["PROBE_TEST"]):  # in a worker, not in the test's process
        _record()
        while not (Path(os.environ["PROBE_DIR"]) / "release").exists():  # until the test releases it
            time.sleep(0.01)
    return x * x + 1


CLAIM = Claim(id="probe/released", source="a test", statement="x^2 + 1 > 0", variables=(Var("x", ()),),
              residual=square)
'''


def _zygote_with_hook(tmp_path: Path, monkeypatch, hook: str, released: bool = False) -> tuple:
    """(probes, trigger, the zygote's pid): a zygote started with `hook` as its
    sitecustomize and armed (the trigger file written), and the claim file
    RELEASED_CLAIM, which waits for probes/release unless `released`."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(hook)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "site"))
    probes = tmp_path / "probes"
    probes.mkdir()
    if released:
        (probes / "release").write_text("")
    trigger = tmp_path / "trigger"
    for name, value in (("PROBE_TRIGGER", trigger), ("PROBE_DIR", probes), ("PROBE_TEST", os.getpid()),
                        ("BNPROOF_CACHE_DIR", tmp_path / ".cache")):
        monkeypatch.setenv(name, str(value))
    zygote_pid = _zygote_pid()  # one started with the hook
    trigger.write_text("")
    (tmp_path / "claim.py").write_text(RELEASED_CLAIM)
    return probes, trigger, zygote_pid


def test_a_worker_forked_as_its_zygote_dies_ends_and_serves_no_claim(tmp_path, monkeypatch):
    # the zygote forked, then died before it said so: the command started a fresh worker on the
    # same pipes, while the orphan (its parent already gone when it read its parent's pid, so
    # that it never noticed) served on, killed by nothing: it could take the claim and keep
    # running it after the command had killed "its" worker for the budget
    import threading

    from ctrl_c import state

    probes, trigger, zygote_pid = _zygote_with_hook(tmp_path, monkeypatch, DIES_AS_IT_FORKS)
    done = {}

    def command():  # bnproof.fuzz: run_cli sets SIGINT's handler, in the main thread only
        import bnproof

        done["run"] = bnproof.fuzz(str(tmp_path / "claim.py"), isolate=True, jax=False, prove=False,
                                   max_examples=5, time_budget=HANG_GUARD)

    thread = threading.Thread(target=command)
    thread.start()
    try:
        deadline = time.monotonic() + HANG_GUARD
        orphan = Path(str(trigger) + ".orphan")
        while not orphan.exists():
            assert time.monotonic() < deadline and thread.is_alive(), "the zygote's fork was not interrupted"
            time.sleep(0.01)
        orphan_pid = int(orphan.read_text())
        while state(orphan_pid) not in ("", "Z"):  # it must end by itself, at once: nothing else ends it
            assert time.monotonic() < deadline, "the orphaned worker lives on"
            time.sleep(0.01)
    finally:
        (probes / "release").write_text("")
        thread.join(HANG_GUARD)
    assert not thread.is_alive()
    assert state(zygote_pid) in ("", "Z")
    assert done["run"].verdict == "survived", done["run"].reason
    worker = _worker_probe(probes, os.getpid())
    assert worker["ppid"] == os.getpid() and worker["pid"] != orphan_pid  # the fresh worker ran it


# in the zygote (started with this folder on PYTHONPATH): once the trigger file appears, the
# child of its next fork records its pid and waits, before it becomes a worker, until the
# test has killed the zygote (after the zygote said what it forked)
HELD_AS_IT_STARTS = """
import os
import sys
import time


def _in_the_child():
    trigger = os.environ.get("PROBE_TRIGGER")
    if not trigger or "bnproof.search.zygote_process" not in sys.modules:
        return
    try:
        os.rename(trigger, trigger + ".taken")  # once, by one process
    except OSError:
        return
    with open(trigger + ".child.tmp", "w") as fh:
        fh.write(str(os.getpid()))
    os.replace(trigger + ".child.tmp", trigger + ".child")
    while not os.path.exists(trigger + ".go"):
        time.sleep(0.01)


os.register_at_fork(after_in_child=_in_the_child)
"""


def test_a_zygote_that_dies_while_its_worker_starts_does_not_fail_the_command(tmp_path, monkeypatch):
    # the zygote died after it forked the worker, before the worker was ready: the command
    # failed as a whole ("the fuzz worker process did not start"), where a fresh worker
    # would have served the claim
    import signal
    import threading

    from ctrl_c import state

    probes, trigger, zygote_pid = _zygote_with_hook(tmp_path, monkeypatch, HELD_AS_IT_STARTS,
                                                    released=True)
    held = zygote._zygote
    done = {}

    def command():
        import bnproof

        try:
            done["run"] = bnproof.fuzz(str(tmp_path / "claim.py"), isolate=True, jax=False, prove=False,
                                       max_examples=5, time_budget=HANG_GUARD)
        except BaseException as error:  # noqa: BLE001 - the test reports it
            done["error"] = error

    thread = threading.Thread(target=command)
    thread.start()
    try:
        deadline = time.monotonic() + HANG_GUARD
        child = Path(str(trigger) + ".child")
        while not child.exists() or int(child.read_text()) not in held.live:  # forked, and the command knows it
            assert time.monotonic() < deadline and thread.is_alive(), "the zygote forked no worker"
            time.sleep(0.01)
        os.kill(zygote_pid, signal.SIGKILL)
        while state(zygote_pid) not in ("", "Z"):
            assert time.monotonic() < deadline, "the zygote outlived SIGKILL"
            time.sleep(0.01)
    finally:
        Path(str(trigger) + ".go").write_text("")
        thread.join(HANG_GUARD)
    assert not thread.is_alive()
    assert "error" not in done, done["error"]
    assert done["run"].verdict == "survived", done["run"].reason


# ---------------------------------------------------------------- a fork of the zygote's parent

def test_a_fork_of_the_process_that_ends_normally_leaves_the_processs_zygote_alone(tmp_path):
    # a child forked from a process with a zygote (os.fork, a daemon's double fork) copied the
    # zygote's handle and its atexit handler: ending normally, it killed the parent's zygote
    # and every worker the zygote was running for the parent
    script = """
import os, sys
from bnproof.search import zygote
assert zygote.start()
pid = os.fork()
if pid == 0:
    sys.exit(0)  # ends normally: its atexit handlers run
os.waitpid(pid, 0)
print(zygote._zygote.process.poll(), zygote._zygote.gone, flush=True)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_GUARD,
                          env=dict(os.environ, **env_for(tmp_path)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["None", "False"], done.stdout  # still running, still this process's


# ---------------------------------------------------------------- the parent killed outright

BLOCKS_WITH_A_CHILD = test_zygote.BLOCKS  # blocks, after starting a process of its own


def test_a_command_killed_outright_leaves_nothing_its_forked_worker_started(tmp_path):
    # SIGKILL to the command (a test run's timeout, the OOM killer): the zygote saw its parent
    # go and ended, its worker ended (it watches the zygote), but what the claim had started
    # in the worker's session lived on, adopted by init, for as long as it liked
    from ctrl_c import state

    (tmp_path / "claim.py").write_text(BLOCKS_WITH_A_CHILD)
    command = Started("fuzz", "claim.py", "--no-jax", "--time-budget", str(HANG_GUARD), cwd=tmp_path,
                      env=env_for(tmp_path), prelude="from bnproof.search import zygote\nassert zygote.start()")
    try:
        marker = tmp_path / "blocked-pids"
        deadline = time.monotonic() + HANG_GUARD
        while not marker.exists():
            assert time.monotonic() < deadline and command.process.poll() is None, "the claim never blocked"
            time.sleep(0.01)
        worker, parent, child = map(int, marker.read_text().split())
        assert parent != command.process.pid  # the zygote forked the worker
        command.process.kill()
        command.process.wait()
        for pid, what in ((parent, "the zygote"), (worker, "the worker"), (child, "the claim's own process")):
            while state(pid) not in ("", "Z"):
                assert time.monotonic() < deadline, f"{what} outlived the command"
                time.sleep(0.01)
    finally:
        command.kill()


# ---------------------------------------------------------------- the interpreter's own streams

DUNDER_STREAMS_CLAIM = RECORD + '''
if os.getpid() != int(os.environ["PROBE_TEST"]):  # in the worker, not in the test's process
    print("through sys.__stdout__", file=sys.__stdout__)
    print("through sys.__stderr__", file=sys.__stderr__)
    _record(same=[sys.__stdout__ is sys.stdout, sys.__stderr__ is sys.stderr])
OFFSET = 1
''' + CLAIM


def test_what_a_claim_prints_through_the_interpreters_own_streams_is_not_lost(tmp_path, monkeypatch):
    # sys.__stdout__ and sys.__stderr__ were still the zygote's (opened on /dev/null, block
    # buffered without PYTHONUNBUFFERED): what a claim printed through them stayed in the
    # buffer of a worker that ends with os._exit; in a fresh worker they are sys.stdout and
    # sys.stderr, line by line
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    (tmp_path / "claim.py").write_text(DUNDER_STREAMS_CLAIM)
    probes = tmp_path / "probes"
    probes.mkdir()
    command = Started("fuzz", "claim.py", "--no-jax", "--no-prove", "--max-examples", "5", "--json",
                      "--time-budget", "300", cwd=tmp_path, env=env_for(tmp_path, PROBE_DIR=str(probes)),
                      prelude="import os\nos.environ['PROBE_TEST'] = str(os.getpid())  # the command: no print\n"
                              "from bnproof.search import zygote\nassert zygote.start()")
    done = command.wait()
    assert done.returncode == 0, done.stderr
    found = [json.loads(p.read_text()) for p in probes.glob("probe-*.json")]
    worker = [probe for probe in found if probe["pid"] != command.process.pid]
    assert len(worker) == 1 and worker[0]["ppid"] != command.process.pid, found  # the zygote forked it
    assert worker[0]["same"] == [True, True]
    assert "through sys.__stdout__" in done.stderr and "through sys.__stderr__" in done.stderr, done.stderr


# ---------------------------------------------------------------- a zygote replaced for another environment

def test_a_zygote_replaced_for_another_environment_lets_its_running_workers_finish(tmp_path, monkeypatch):
    # zygote.start() for an environment the zygote was not made for (here PYTHONHASHSEED)
    # replaces it: the old one was killed at once, with the worker it ran for a search in
    # another thread, mid-claim
    import threading

    import bnproof

    zygote_pid = _zygote_pid()
    probes = tmp_path / "probes"
    probes.mkdir()
    (tmp_path / "waits.py").write_text(WAITS_CLAIM)
    for name, value in (("PROBE_DIR", probes), ("PROBE_TEST", os.getpid()), ("BNPROOF_CACHE_DIR", tmp_path / ".cache")):
        monkeypatch.setenv(name, str(value))
    results = {}

    def first():
        results["first"] = bnproof.fuzz(str(tmp_path / "waits.py"), isolate=True, jax=False, prove=False,
                                        max_examples=5, time_budget=HANG_GUARD)

    thread = threading.Thread(target=first)
    thread.start()
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not list(probes.glob("probe-*.json")):
            assert time.monotonic() < deadline and thread.is_alive(), "the first claim never ran"
            time.sleep(0.01)
        assert json.loads(next(probes.glob("probe-*.json")).read_text())["ppid"] == zygote_pid
        monkeypatch.setenv("PYTHONHASHSEED", "12345" if os.environ.get("PYTHONHASHSEED") != "12345" else "54321")
        assert zygote.start(timeout=HANG_GUARD)
        assert zygote._zygote.process.pid != zygote_pid  # another zygote, for this environment
    finally:
        (probes / "release").write_text("")
        thread.join(HANG_GUARD)
    assert not thread.is_alive()
    assert results["first"].verdict == "survived", results["first"].reason
    from ctrl_c import state

    assert state(zygote_pid) == ""  # the old zygote ended (and was reaped) with its last worker
