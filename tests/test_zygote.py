"""Search workers forked from a zygote (bnproof/search/zygote.py) are as good as
fresh interpreters: each has its command's working folder, environment, temporary
folder and streams, imports the claim file and its helpers afresh, and is killed
with everything it started; an environment a fresh interpreter would read at its
start differently gets a fresh interpreter; a zygote that dies costs the claim it
served, not the run; and it ends with its parent.

Each test that means a forked worker checks that the zygote served it (the
worker's parent is the zygote): else a zygote that never forked would pass them
all.  No test waits on a time: each waits on an event (a file, a process's end),
with a hang guard."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from budget_clock import budget_ends_when_blocked
from cli_runner import env_for, run_cli
from ctrl_c import state

from bnproof.search import zygote

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the zygote forks on Linux only")

HANG_GUARD = 300  # seconds; only so that a hang fails instead of blocking the suite

PROBE = '''
import json
import os
import sys
import tempfile

from bnproof.claims import Claim, Var
from probe_helper import VALUE

FDS = {}
for fd in os.listdir("/proc/self/fd"):
    try:
        FDS[int(fd)] = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:  # the listing's own
        pass
with open(os.path.join(os.environ["PROBE_DIR"], f"probe-{os.getpid()}.json"), "w") as fh:
    json.dump({"pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(), "value": VALUE,
               "probe": os.environ.get("PROBE"), "removed": "PROBE_REMOVED" in os.environ,
               "tmp": tempfile.gettempdir(), "hash": hash("bnproof"), "sid": os.getsid(0),
               "stdin": os.fstat(0).st_ino == os.stat(os.devnull).st_ino,
               "fds": FDS}, fh)


def square(xp, x):
    print("evaluated in process", os.getpid())
    return x * x


CLAIM = Claim(id="probe/square", source="a test", statement="x^2 >= 0", variables=(Var("x", ()),),
              residual=square)
'''


def _zygote_pid() -> int:
    assert zygote.start(timeout=HANG_GUARD), "no zygote on this machine"
    return zygote._zygote.process.pid


def _fuzz(folder: Path, probes: Path, **env):
    return run_cli("fuzz", folder / "claim.py", "--no-jax", "--no-prove", "--max-examples", "5", "--json",
                   "--time-budget", "300", cwd=folder,
                   env=env_for(folder, PROBE_DIR=str(probes), **env))


def _probe(probes: Path, before: set, command: int | None = None) -> dict:
    """What the worker's import of the claim file recorded (the command loads it too)."""
    command = os.getpid() if command is None else command
    new = set(probes.glob("probe-*.json")) - before - {probes / f"probe-{command}.json"}
    assert len(new) == 1, new
    return json.loads(new.pop().read_text())


def _claim_folder(root: Path, name: str, value: int) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "claim.py").write_text(PROBE)
    (folder / "probe_helper.py").write_text(f"VALUE = {value}\n")
    (folder / "tmp").mkdir()
    return folder


def test_a_forked_worker_has_its_commands_folder_environment_streams_and_fresh_claim_modules(tmp_path,
                                                                                              monkeypatch):
    zygote_pid = _zygote_pid()
    probes = tmp_path / "probes"
    probes.mkdir()
    monkeypatch.setenv("PROBE_REMOVED", "set when the zygote had already started")
    seen = []
    for name, value in (("a", 1), ("b", 2)):
        folder = _claim_folder(tmp_path, name, value)
        before = set(probes.glob("probe-*.json"))
        done = _fuzz(folder, probes, PROBE=name, PROBE_REMOVED=None, TMPDIR=str(folder / "tmp"))
        assert done.returncode == 0, done.stderr
        probe = _probe(probes, before)
        seen.append(probe)
        assert probe["ppid"] == zygote_pid  # the zygote forked it
        assert probe["cwd"] == str(folder) and probe["probe"] == name and not probe["removed"]
        assert probe["value"] == value  # this folder's helper, imported afresh
        assert probe["tmp"] == str(folder / "tmp")
        assert probe["sid"] == probe["pid"] and probe["stdin"]  # a session of its own; stdin /dev/null
        fds = probe["fds"]  # 0, 1, 2 and its two pipes: nothing of the zygote's or the command's
        assert fds["0"] == os.devnull and len(fds) == 5 and all(
            target.startswith("pipe:") for fd, target in fds.items() if int(fd) > 2), fds
        printed = f"evaluated in process {probe['pid']}"  # the worker's stdout is the command's stderr
        assert printed in done.stderr and "evaluated" not in done.stdout
        assert json.loads(done.stdout)[0]["verdict"] == "survived"
    assert seen[0]["pid"] != seen[1]["pid"]


def test_an_environment_read_at_an_interpreters_start_gets_a_fresh_interpreter(tmp_path):
    zygote_pid = _zygote_pid()
    probes = tmp_path / "probes"
    probes.mkdir()
    folder = _claim_folder(tmp_path, "c", 3)
    done = _fuzz(folder, probes, PYTHONHASHSEED="12345")
    assert done.returncode == 0, done.stderr
    probe = _probe(probes, set())
    assert probe["ppid"] == os.getpid() != zygote_pid  # started fresh, by this process
    fresh = subprocess.run([sys.executable, "-c", "print(hash('bnproof'))"], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONHASHSEED="12345"), timeout=HANG_GUARD)
    assert probe["hash"] == int(fresh.stdout)  # the seed took effect, as it would in a fresh interpreter


BLOCKS = '''
import os
import subprocess
import sys
import time

from bnproof.claims import Claim, Var


def residual(xp, x):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
    with open("pids.tmp", "w") as fh:
        fh.write(f"{os.getpid()} {os.getppid()} {child.pid}")
    os.replace("pids.tmp", "blocked-pids")
    time.sleep(3600)


CLAIM = Claim(id="blocks/forever", source="a test", statement="x", variables=(Var("x", ()),), residual=residual)
'''


PRINTS_THEN_BLOCKS = BLOCKS.replace("    time.sleep(3600)\n\n\nCLAIM", "    print('stuck at', x)\n    time.sleep(3600)\n\n\nCLAIM")


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "fresh"])
def test_what_a_claim_prints_before_its_worker_is_killed_reaches_stderr_without_pythonunbuffered(
        tmp_path, monkeypatch, forked):
    # the worker ends with os._exit or SIGKILL: a block-buffered stdout (a file, no -u) lost these lines
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    if forked:
        zygote_pid = _zygote_pid()  # one made for this environment
    else:
        monkeypatch.setenv("BNPROOF_NO_ZYGOTE", "1")
    (tmp_path / "claim.py").write_text(PRINTS_THEN_BLOCKS)
    with budget_ends_when_blocked(tmp_path, "blocked-pids"):
        done = run_cli("fuzz", tmp_path / "claim.py", "--no-jax", "--json", "--time-budget", "300",
                       cwd=tmp_path, env=env_for(tmp_path))
    assert done.returncode == 10, done.stderr
    _, parent, _ = map(int, (tmp_path / "blocked-pids").read_text().split())
    assert parent == (zygote_pid if forked else os.getpid())
    assert "stuck at" in done.stderr and "stuck at" not in done.stdout


def _gone(pid: int) -> bool:
    return state(pid) in ("", "Z")


def _wait_until(predicate, what: str) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_blocked_forked_worker_is_killed_with_what_it_started(tmp_path):
    zygote_pid = _zygote_pid()
    (tmp_path / "claim.py").write_text(BLOCKS)
    with budget_ends_when_blocked(tmp_path, "blocked-pids"):
        done = run_cli("fuzz", tmp_path / "claim.py", "--no-jax", "--json", "--time-budget", "300",
                       cwd=tmp_path, env=env_for(tmp_path))
    assert done.returncode == 10, done.stderr  # undecided: the budget ran out
    worker, parent, child = map(int, (tmp_path / "blocked-pids").read_text().split())
    assert parent == zygote_pid
    # killed before the command returned: the zygote reports only reaped workers
    assert _gone(worker)
    _wait_until(lambda: _gone(child), "the claim's own process outlived its worker")
    assert zygote._zygote is not None and not zygote._zygote.gone  # it keeps serving


def test_a_zygote_that_dies_costs_its_claim_not_the_run(tmp_path):
    zygote_pid = _zygote_pid()
    (tmp_path / "claim.py").write_text(BLOCKS)
    marker = tmp_path / "blocked-pids"

    def kill_the_zygote_when_blocked():
        deadline = time.monotonic() + HANG_GUARD
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(zygote_pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_the_zygote_when_blocked)
    killer.start()
    try:
        done = run_cli("fuzz", tmp_path / "claim.py", "--no-jax", "--json", "--time-budget", "300",
                       cwd=tmp_path, env=env_for(tmp_path))
    finally:
        killer.join()
    assert done.returncode == 10, done.stderr
    report = json.loads(done.stdout)[0]
    assert report["verdict"] == "undecided" and "process died" in report["reason"], report
    worker, parent, child = map(int, marker.read_text().split())
    assert parent == zygote_pid
    _wait_until(lambda: _gone(worker) and _gone(child), "the workers of a dead zygote live on")
    # the next worker works: fresh, or forked by a zygote started since
    probes = tmp_path / "probes"
    probes.mkdir()
    done = _fuzz(_claim_folder(tmp_path, "after", 4), probes)
    assert done.returncode == 0, done.stderr
    served_by = _probe(probes, set())["ppid"]
    assert served_by != zygote_pid and (served_by == os.getpid() or served_by == zygote._zygote.process.pid)


def test_the_zygote_ends_with_its_parent(tmp_path):
    script = ("import sys, time\nfrom bnproof.search import zygote\nassert zygote.start()\n"
              "print(zygote._zygote.process.pid, flush=True)\ntime.sleep(3600)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(parent.stdout.readline())
        assert not _gone(pid)
    finally:
        parent.kill()
        parent.wait()
        parent.stdout.close()
    _wait_until(lambda: _gone(pid), "the zygote outlived its parent")


def test_a_command_that_starts_one_worker_starts_no_zygote(tmp_path):
    probes = tmp_path / "probes"
    probes.mkdir()
    folder = _claim_folder(tmp_path, "one", 5)
    command = subprocess.Popen([sys.executable, "-m", "bnproof", "fuzz", "claim.py", "--no-jax", "--no-prove",
                                "--max-examples", "5", "--time-budget", "300"], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=dict(os.environ, **env_for(folder, PROBE_DIR=str(probes))))
    assert command.wait(timeout=HANG_GUARD) == 0
    assert _probe(probes, set(), command.pid)["ppid"] == command.pid  # the command started its worker itself


def test_an_environment_that_comes_back_gets_its_zygote_again(tmp_path, monkeypatch):
    # a test that sets PYTHONHASHSEED for itself gets a zygote of its own; the suite's next
    # tests, back in the first environment, got fresh workers for the rest of the session
    def current() -> bool:
        return zygote._zygote is not None and zygote._zygote.matches(
            [p for p in sys.path if p], dict(os.environ))

    probes = tmp_path / "probes"
    probes.mkdir()
    first = _zygote_pid()
    assert _fuzz(_claim_folder(tmp_path, "a0", 0), probes).returncode == 0  # a worker asked for here
    monkeypatch.setenv("PYTHONHASHSEED", "7")
    for name in ("b1", "b2"):  # the second worker in this environment starts its zygote
        assert _fuzz(_claim_folder(tmp_path, name, 1), probes).returncode == 0
    assert current() and zygote._zygote.process.pid != first
    monkeypatch.delenv("PYTHONHASHSEED")
    assert not current()
    assert _fuzz(_claim_folder(tmp_path, "a1", 2), probes).returncode == 0
    assert current()  # started again by the first worker asked for back in this environment (its second)
    again = _zygote_pid()
    before = set(probes.glob("probe-*.json"))
    assert _fuzz(_claim_folder(tmp_path, "a2", 3), probes).returncode == 0
    assert _probe(probes, before)["ppid"] == again != first
