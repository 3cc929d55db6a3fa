"""Search workers forked from a zygote: a fresh interpreter that has imported
the search's libraries once (SymPy, Hypothesis, flint, symengine, and JAX
without starting its runtime) and forks a worker in a fraction of a second,
where a fresh interpreter takes one to two seconds to import them.

A process that starts many workers (a test session, `report` on a paper, a
run of claims that must be killed for their budgets) gets one zygote, started
at its second worker; a command that needs one worker never starts it, so it
pays nothing.

A fork is as good as a fresh interpreter only where nothing the fork copies
differs from what a fresh start would give.  So:

- the zygote is started like a worker (worker.BOOT's way: the parent's import
  path, never the working folder's modules), in a session of its own, SIGINT
  ignored, with one thread: it forks only while /proc/self/task has one entry
  (OpenBLAS's threads are kept to one in it: numpy is imported), and JAX's
  runtime, which is multithreaded, starts in the worker, after the fork;
- what a fresh interpreter reads from the environment when it starts, or when
  a library is imported (PYTHON*, the locale, JAX_*, XLA_*, ...), must be what
  the zygote read: a worker whose environment differs there, or whose import
  path differs, is started fresh instead (`_matches`);
- the working folder, the environment, the import path, stdin (/dev/null), stdout
  (the parent's stderr) and stderr are the worker's own, set in the fork; nothing
  else of the zygote's is open in it, and nothing of a claim is ever loaded in
  the zygote, so each worker imports a claim file and its helpers afresh.

The zygote is the workers' parent, so it alone may signal them without
racing the reuse of their process ids: the parent asks it to kill one (the
worker's whole process group, as the worker leads a session), and it reports
each exit status as it reaps.  It ends when the parent is gone (its end of
the socket closes), killing its workers' sessions first: they and what a claim
started there end with it.  Linux only; elsewhere every worker is a fresh
interpreter.

Messages are JSON (never pickles) over a Unix socket; file descriptors cross
with SCM_RIGHTS.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time

from . import worker

# what the zygote imports for every worker it forks: a typical job's libraries
PRELOAD = ("bnproof.search.worker", "bnproof.search.fuzz", "bnproof.search.batched", "bnproof.search.certify",
           "bnproof.claims.api", "bnproof.symbolic_m.survivor", "bnproof.symbolic_m.prove",
           "bnproof.reading.confirm", "bnproof.reading.read", "bnproof.certificate.proof",
           "sympy", "mpmath", "hypothesis", "jax", "jax.numpy")
# what a fresh worker imports before it loads its first claim (worker.serve, worker._run_job),
# and with JAX warmed up
FRESH_IMPORTS = ("bnproof.search.worker", "bnproof.search.fuzz", "bnproof.search.unraisable",
                 "bnproof.symbolic_m.survivor")
WARM_IMPORTS = ("jax", "bnproof.claims.xp", "bnproof.numeric.jax_setup")
# environment variables read when an interpreter starts or a library is imported
# (NPY_, NUMPY_: numpy's import reads NPY_DISABLE_CPU_FEATURES, NUMPY_MADVISE_HUGEPAGE, ...; TZ,
# read by time's import, is read again in the fork instead: time.tzset)
AT_START = ("PYTHON", "LC_", "LANG", "JAX_", "XLA_", "TF_", "OPENBLAS", "OMP_", "MKL_", "CUDA", "NVIDIA",
            "TPU", "HYPOTHESIS", "SYMPY", "MPMATH", "FLINT", "NPY_", "NUMPY_")
BOOT = worker.BOOT.replace("bnproof.search.worker", "bnproof.search.zygote")
ANSWER_TIMEOUT = 30.0  # seconds for the zygote to answer a fork; else workers start fresh
EXIT_TIMEOUT = 10.0  # seconds for the zygote to report a killed worker's end


def _at_start(env) -> dict:
    return {k: v for k, v in env.items() if k.startswith(AT_START)}


# ---------------------------------------------------------------- the zygote


def main() -> None:
    """`python -c BOOT N PATH... SOCKET_FD`: preload, then fork workers on request."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sock = socket.socket(fileno=int(sys.argv[1]))
    # What a fresh worker has imported when it loads its first claim (cold, then warmed up
    # for JAX): a module named like a helper beside a claim file shadows the helper only if
    # a fresh worker would have imported it (_load_as_fresh)
    own = _preload(FRESH_IMPORTS)
    warm = _preload(WARM_IMPORTS)
    everything = _preload(PRELOAD)
    preloaded = {False: frozenset(everything - own), True: frozenset(everything - warm)}
    gc.collect()
    gc.freeze()  # the workers' collections never walk the libraries' objects (nor copy their pages)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    children = _children
    _send(sock, {"ready": os.getpid()})
    while True:
        try:
            ready, _, _ = select.select([sock, wake_r], [], [], 1.0)
        except InterruptedError:
            ready = []
        if wake_r in ready:
            os.read(wake_r, 4096)
        _reap(sock, children)
        if sock not in ready:
            continue
        try:  # one message per packet (SOCK_SEQPACKET)
            data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 4)
        except OSError:
            data, fds = b"", []
        if not data:  # the parent is gone
            _parent_gone()
        request = json.loads(data)
        if "kill" in request:
            pid = request["kill"]
            if pid in children:  # not reaped yet: the id is still this worker's
                for kill in (os.killpg, os.kill):
                    try:
                        kill(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
            continue
        try:
            if len(os.listdir("/proc/self/task")) != 1:
                raise OSError("the zygote has more than one thread")
            zygote = os.getpid()
            pid = os.fork()
        except OSError as err:
            _send(sock, {"refused": str(err)})
        else:
            if pid == 0:
                _become_worker(request, fds, preloaded[bool(request["warm_jax"])], zygote)
            children.add(pid)
            _send(sock, {"forked": pid})
        finally:
            for fd in fds:
                os.close(fd)


def _preload(names) -> set:
    """The top-level names in sys.modules once `names` are imported."""
    for name in names:
        try:
            __import__(name)
        except Exception:  # noqa: BLE001 - a worker that needs it imports it itself, and says why
            pass
    return {name.partition(".")[0] for name in list(sys.modules)}


def _reap(sock, children: set) -> None:
    for pid in list(children):
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done, status = pid, 0
        if done:
            children.discard(pid)
            _send(sock, {"exited": pid, "code": os.waitstatus_to_exitcode(status)})


def _send(sock, message: dict) -> None:
    try:
        sock.send(json.dumps(message).encode())
    except OSError:  # the parent is gone
        _parent_gone()


_children: set[int] = set()  # in the zygote: the workers it forked and has not reaped


def _parent_gone() -> None:
    """The zygote's end once its parent is gone (killed outright: no close() came).  Its
    workers would end by themselves (worker._watch_parent), but what a claim started in
    a worker's session (a subprocess, a pool) would live on, adopted by init: every
    worker's session is killed first.  Unreaped, their ids are still theirs."""
    for pid in _children:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    os._exit(0)


def _become_worker(request: dict, fds: list, preloaded: frozenset, zygote: int) -> None:
    """The fork: the worker's session, streams, folder, environment and import
    path, then worker.main; os._exit whatever happens."""
    # A zygote that died between the fork and its answer never said what it forked: the
    # parent starts a fresh worker on the same pipes, and this one, had it read its parent
    # from os.getppid() once orphaned, would never see its parent go (_watch_parent) and
    # could take the claim and run it beyond every budget, unkilled.  So it ends here, and
    # watches the zygote by the pid it had, not by whoever adopted it.
    if os.getppid() != zygote:
        os._exit(0)
    try:
        os.setsid()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        jobs, events, out, err = fds
        null = os.open(os.devnull, os.O_RDONLY)
        for source, target in ((null, 0), (out, 1), (err, 2)):
            os.dup2(source, target)
        for name in os.listdir("/proc/self/fd"):  # only what a fresh worker would have open
            if int(name) > 2 and int(name) not in (jobs, events):
                try:
                    os.close(int(name))
                except OSError:
                    pass
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path[:] = request["path"]
        import tempfile

        tempfile.tempdir = None  # read from TMPDIR again, as a fresh interpreter would
        time.tzset()  # the time zone from TZ again: time.tzname and localtime were the zygote's
        _blas_threads_as_fresh(request["env"])
        worker._load = _load_as_fresh(worker._load, preloaded)
        sys.stdout = _stdio(1, sys.stdout.encoding, sys.stdout.errors)
        sys.stderr = _stdio(2, sys.stderr.encoding, "backslashreplace")
        # as in a fresh interpreter, the same objects: the zygote's, block-buffered on /dev/null
        # as it started, kept what a claim printed to sys.__stdout__ until os._exit dropped it
        sys.__stdout__, sys.__stderr__ = sys.stdout, sys.stderr
        worker.main([str(jobs), str(events), str(zygote), "1" if request["warm_jax"] else "0"])
    except BaseException:
        try:
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:
            pass
    finally:
        os._exit(1)


def _blas_threads_as_fresh(env: dict) -> None:
    """OpenBLAS's threads as a fresh interpreter's import of numpy would start them.
    The zygote runs with one (OPENBLAS_NUM_THREADS=1: it must stay single-threaded to
    fork), and the fork kept that count: a worker's numpy ran on one core where a fresh
    worker's uses them all (and a reduction split otherwise can round otherwise).
    OpenBLAS's own rule (blas_get_cpu_number): OPENBLAS_NUM_THREADS, GOTO_NUM_THREADS,
    OMP_NUM_THREADS (the first positive, read as atoi reads), else the CPUs this process
    may run on, never more than those."""
    import ctypes
    import re

    cpus = len(os.sched_getaffinity(0))
    count = cpus
    for name in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"):
        number = re.match(r"\s*[+-]?\d+", env.get(name, ""))
        if number and int(number.group()) > 0:
            count = min(int(number.group()), cpus)
            break
    with open("/proc/self/maps") as maps:
        libraries = {line.split(None, 5)[5].strip() for line in maps
                     if len(line.split(None, 5)) == 6 and "openblas" in line.split(None, 5)[5].lower()}
    for library in sorted(libraries):
        try:
            handle = ctypes.CDLL(library)  # already loaded: the same library, not a second copy
        except OSError:
            continue
        for symbol in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
                       "openblas_set_num_threads64_", "openblas_set_num_threads"):
            setter = getattr(handle, symbol, None)
            if setter is not None:
                setter(count)
                break


def _load_as_fresh(load, preloaded: frozenset):
    """worker._load, where a helper beside the claim file named like a module that the
    zygote preloaded but a fresh worker would not have imported yet (logging, timeit,
    sympy, ...) is imported, as in a fresh worker, instead of being shadowed by the
    preloaded module (claims/helper_modules: a claim that "imports logging from the
    standard library, not the logging beside it" failed to load in a forked worker
    alone).  Those modules leave sys.modules for the load and come back after it."""
    from pathlib import Path

    def loaded(path: str, claim_id: str, expected: str | None = None):
        folder = Path(path).resolve().parent
        named = {name for name in preloaded
                 if (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file()}
        hidden = {key: sys.modules.pop(key) for key in list(sys.modules) if key.partition(".")[0] in named}
        try:
            return load(path, claim_id, expected)
        finally:
            for key, module in hidden.items():
                sys.modules.setdefault(key, module)

    return loaded


def _stdio(fd: int, encoding: str, errors: str):
    """The stream the interpreter would open on `fd` at its start (CPython's
    create_stdio): with -u or PYTHONUNBUFFERED, every write goes out at once;
    else a terminal, and stderr always, are line-buffered.  A worker ends with
    os._exit, so what a claim printed must not wait in a buffer."""
    import io

    raw = io.FileIO(fd, "w", closefd=False)
    if getattr(sys.__stdout__, "write_through", False):  # how the interpreter opened the zygote's own (sys.flags lacks -u)
        return io.TextIOWrapper(raw, encoding=encoding, errors=errors, write_through=True)
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding=encoding, errors=errors,
                            line_buffering=fd == 2 or raw.isatty())


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
_starts = 0  # workers started in this process


def _forget_in_child() -> None:
    """In a child forked from this process (os.fork, multiprocessing's fork): the zygote
    is the parent's.  The child's copy of its handle would share its socket (each
    process reading the other's answers and exit reports), and its atexit close(), run
    when the child ends normally, killed the parent's zygote and every worker it was
    running for the parent.  The child drops its copy, and counts its own workers."""
    global _zygote, _starts
    for zygote in _made:  # a retired one, still running workers, too
        if not zygote.gone:
            zygote.gone = True  # close() is then a no-op: nothing of the parent's is killed
            try:
                zygote.sock.close()  # the child's copy of the descriptor; the parent's stays open
            except OSError:
                pass
    _made.clear()
    _zygote, _starts = None, 0


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
    made for another environment or import path."""
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
    None: start a fresh interpreter instead (the first worker of this process, and
    the second, which starts the zygote; another platform; an environment or import
    path the zygote does not match; a zygote still importing, or gone)."""
    global _starts
    _starts += 1
    if not _usable():
        return None
    if _zygote is None:
        if _starts >= 2:
            _started()
        return None
    if not _zygote.matches([p for p in sys.path if p], dict(os.environ)):
        return None
    return _zygote.fork(jobs, events, out, warm_jax)


def start(timeout: float = worker.START_TIMEOUT) -> bool:
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
