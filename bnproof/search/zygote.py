"""The parent's side of search workers forked from a zygote (the zygote's own
side, and why a fork is as good as a fresh interpreter: zygote_process.py).

A process that starts many workers (a test session, `report` on a paper, a
run of claims that must be killed for their budgets) gets one zygote, started
at its second worker; a command that needs one worker never starts it, so it
pays nothing.  A worker whose environment differs from the zygote's where an
interpreter reads it at its start or at an import (AT_START), or whose import
path differs, is started fresh instead.

The zygote is the workers' parent, so it alone may signal them without
racing the reuse of their process ids: the parent asks it to kill one (the
worker's whole process group, as the worker leads a session), and it reports
each exit status as it reaps.  Linux only; elsewhere every worker is a fresh
interpreter.  Messages are JSON (never pickles) over a Unix socket; file
descriptors cross with SCM_RIGHTS.
"""

from __future__ import annotations

import errno
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time

# environment variables read when an interpreter starts or a library is imported
# (NPY_, NUMPY_: numpy's import reads NPY_DISABLE_CPU_FEATURES, NUMPY_MADVISE_HUGEPAGE, ...; TZ,
# read by time's import, is read again in the fork instead: time.tzset)
AT_START = ("PYTHON", "LC_", "LANG", "JAX_", "XLA_", "TF_", "OPENBLAS", "OMP_", "MKL_", "CUDA", "NVIDIA",
            "TPU", "HYPOTHESIS", "SYMPY", "MPMATH", "FLINT", "NPY_", "NUMPY_")
def boot(module: str) -> str:
    """`python -c` text that starts `module`'s main in a fresh interpreter with the
    parent's import path (argv: N, N paths, the main's own arguments), never the
    working folder's modules: only builtins run until sys.path is set."""
    return ("import sys; n = int(sys.argv[1]); sys.path[:] = sys.argv[2:2 + n]; del sys.argv[1:2 + n]; "
            f"from {module} import main; main()")


BOOT = boot("bnproof.search.zygote_process")
# only for a zygote that hangs (a fork and a reap take milliseconds, under any load)
ANSWER_TIMEOUT = 120.0  # seconds for the zygote to answer a fork; else workers start fresh
EXIT_TIMEOUT = 60.0  # seconds for the zygote to report a killed worker's end; else it is closed


def _at_start(env) -> dict:
    return {k: v for k, v in env.items() if k.startswith(AT_START)}


# ---------------------------------------------------------------- the parent


class Forked:
    """A worker forked by the zygote, with the part of subprocess.Popen's
    interface that search.worker uses (pid, returncode, poll, wait, kill)."""

    def __init__(self, zygote: "_Zygote", pid: int):
        self.zygote, self.pid, self.returncode = zygote, pid, None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.zygote.pump(0.0)
            self.returncode = self.zygote.exit_code(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Its exit status as the zygote reports it.  With no timeout, a zygote that
        says nothing for EXIT_TIMEOUT is taken as broken: it is killed, and the
        worker with it."""
        deadline = time.monotonic() + (EXIT_TIMEOUT if timeout is None else timeout)
        while self.poll() is None:
            left = deadline - time.monotonic()
            if left <= 0:
                if timeout is not None:
                    raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout)
                self.zygote.close()
                continue
            self.zygote.pump(min(left, 0.5))
        return self.returncode

    def kill(self) -> None:
        """SIGKILL to its process group, sent by the zygote: only it knows that the
        process id is still this worker's (not yet reaped)."""
        if self.poll() is None:
            self.zygote.kill(self.pid)


class _Zygote:
    def __init__(self, paths: list, env: dict):
        self.paths, self.start_env = paths, _at_start(env)
        self.lock = threading.RLock()
        self.live: set[int] = set()  # forked, exit not yet reported
        self.exited: dict[int, int] = {}
        self.gone = self.ready = self.retired = False
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock = ours
        try:
            # nothing of it is ever printed: a worker gets its streams with each fork
            self.process = subprocess.Popen(
                [sys.executable, "-c", BOOT, str(len(paths)), *paths, str(theirs.fileno())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=dict(env, OPENBLAS_NUM_THREADS="1"), start_new_session=True)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()

    def matches(self, paths: list, env: dict) -> bool:
        return not (self.gone or self.retired) and paths == self.paths and _at_start(env) == self.start_env

    def retire(self) -> None:
        """Replaced by a zygote for another environment or import path: it forks no more,
        and ends once the workers it runs have ended (closed at once, it killed them,
        mid-claim, under the Supervisors of other threads)."""
        with self.lock:
            self.retired = True
            if not self.live:
                self.close()

    def exit_code(self, pid: int) -> int | None:
        if pid in self.exited:
            return self.exited.pop(pid)
        return -signal.SIGKILL if self.gone else None

    def pump(self, timeout: float) -> dict | None:
        """The first message other than an exit report that the zygote sends within
        `timeout`, or None; exit reports are kept for exit_code."""
        with self.lock:
            deadline = time.monotonic() + timeout
            while not self.gone:
                readable, _, _ = select.select([self.sock], [], [], max(deadline - time.monotonic(), 0.0))
                if not readable:
                    return None
                try:
                    data = self.sock.recv(1 << 16)
                except OSError:
                    data = b""
                if not data:
                    self.close()
                    return None
                message = json.loads(data)
                if "exited" not in message:
                    return message
                self.live.discard(message["exited"])
                self.exited[message["exited"]] = message["code"]
                if self.retired and not self.live:
                    self.close()
            return None

    def fork(self, jobs: int, events: int, out: int, warm_jax: bool) -> Forked | None:
        with self.lock:
            if not self.ready:
                answer = self.pump(0.0)
                if answer is None:
                    return None  # still importing: this worker starts fresh
                if "ready" not in answer:
                    self.close()
                    return None
                self.ready = True
            err = os.dup(2) if _valid(2) else os.open(os.devnull, os.O_WRONLY)
            try:
                try:  # (os.getcwd() too: a working folder since deleted is no fork's, but a fresh worker's)
                    request = {"cwd": os.getcwd(), "env": dict(os.environ), "path": self.paths, "warm_jax": warm_jax}
                    socket.send_fds(self.sock, [json.dumps(request).encode()], [jobs, events, out, err])
                except OSError as error:
                    # A SOCK_SEQPACKET message goes whole or not at all: nothing was forked, and the
                    # workers this zygote forked for other Supervisors (other threads) run on.  Closing
                    # it killed them mid-claim for a request too large for the socket (an environment
                    # over ~200 kB: EMSGSIZE).  Only a zygote that is gone is closed.
                    if error.errno in (errno.EPIPE, errno.ECONNRESET, errno.ECONNREFUSED, errno.ENOTCONN):
                        self.close()
                    return None
                try:
                    answer = self.pump(ANSWER_TIMEOUT)
                except OSError:
                    answer = None
            finally:
                os.close(err)
            if answer is not None and "refused" in answer:
                return None  # nothing forked (as above): this worker starts fresh, the others run on
            if answer is None or "forked" not in answer:
                self.close()  # unanswered: a zygote that may fork late is not trusted again
                return None
            self.live.add(answer["forked"])
            return Forked(self, answer["forked"])

    def kill(self, pid: int) -> None:
        with self.lock:
            try:
                self.sock.send(json.dumps({"kill": pid}).encode())
            except OSError:
                self.close()

    def close(self) -> None:
        """Kill the zygote, and the workers it has not reported ended: now children
        of another process, they are killed by process group here."""
        with self.lock:
            if self.gone:
                return
            self.gone = True
            for pid in (self.process.pid, *self.live):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            self.process.wait()
            self.sock.close()


_zygote: _Zygote | None = None
_made: list = []  # every zygote started in this process
_asked: dict = {}  # per environment (_key): the workers asked for in it
_lost: dict = {}  # per environment: its zygotes that ended by themselves
LOST_AT_MOST = 2  # an environment whose zygotes keep ending gets fresh workers only


def _key() -> tuple:
    """What a zygote must share with a worker: the import path, and the environment an
    interpreter reads at its start or at an import."""
    return tuple(p for p in sys.path if p), tuple(sorted(_at_start(os.environ).items()))


def _forget_in_child() -> None:
    """In a child forked from this process (os.fork, multiprocessing's fork): the zygote
    is the parent's.  The child's copy of its handle would share its socket (each
    process reading the other's answers and exit reports), and its atexit close(), run
    when the child ends normally, killed the parent's zygote and every worker it was
    running for the parent.  The child drops its copy, and counts its own workers."""
    global _zygote
    for zygote in _made:  # a retired one, still running workers, too
        if not zygote.gone:
            zygote.gone = True  # close() is then a no-op: nothing of the parent's is killed
            try:
                zygote.sock.close()  # the child's copy of the descriptor; the parent's stays open
            except OSError:
                pass
    _made.clear()
    _asked.clear()
    _lost.clear()
    _zygote = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def _valid(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def _usable() -> bool:
    return sys.platform == "linux" and os.environ.get("BNPROOF_NO_ZYGOTE") is None


def _started() -> _Zygote:
    """This process's zygote, started now if there is none, or only one that is dead or
    made for another environment or import path (retired: it ends with its workers)."""
    global _zygote
    if _zygote is None or not _zygote.matches([p for p in sys.path if p], dict(os.environ)):
        if _zygote is not None:
            _zygote.retire()
        import atexit

        _zygote = _Zygote([p for p in sys.path if p], dict(os.environ))
        _made.append(_zygote)
        atexit.register(_zygote.close)
    return _zygote


def fork_worker(jobs: int, events: int, out: int, warm_jax: bool) -> Forked | None:
    """A worker forked by this process's zygote with these pipe ends and stdout, or
    None: start a fresh interpreter instead.  Per environment (_key), the first
    worker is fresh and the second starts the zygote, so a command that needs one
    worker never starts one; an environment that comes back after another (a test
    that set a variable for itself) gets its zygote again at once.  Fresh also: on
    another platform, a zygote still importing, and an environment whose zygotes
    ended by themselves LOST_AT_MOST times."""
    if not _usable():
        return None
    global _zygote
    key = _key()
    _asked[key] = _asked.get(key, 0) + 1
    if _zygote is not None and _zygote.gone and not _zygote.retired:  # it ended by itself
        lost = tuple(_zygote.paths), tuple(sorted(_zygote.start_env.items()))
        _lost[lost] = _lost.get(lost, 0) + 1
        _zygote = None
    if _zygote is not None and _zygote.matches(list(key[0]), dict(os.environ)):
        return _zygote.fork(jobs, events, out, warm_jax)
    if _asked[key] >= 2 and _lost.get(key, 0) < LOST_AT_MOST:
        _started()
    return None


def start(timeout: float = 120.0) -> bool:
    """Start this process's zygote now for the current environment, whatever number of
    workers it started, and wait until it can fork: for a program that knows it will
    start many workers.
    False where there is none (another platform, BNPROOF_NO_ZYGOTE, a failed start)."""
    if not _usable():
        return False
    zygote = _started()
    with zygote.lock:
        if not zygote.ready:
            answer = zygote.pump(timeout)
            zygote.ready = answer is not None and "ready" in answer
    return zygote.ready
