"""The zygote: a fresh interpreter that has imported the search's libraries
once (SymPy, Hypothesis, flint, symengine, and JAX without starting its
runtime) and forks a search worker in a fraction of a second, where a fresh
interpreter takes one to two seconds to import them.  Its parent's side, and
when a process starts one: zygote.py.

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

import gc
import json
import os
import select
import signal
import socket
import sys
import time

from ..numeric.forked import exit_after
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
    exit_after(lambda: _as_worker(request, fds, preloaded, zygote))


def _as_worker(request: dict, fds: list, preloaded: frozenset, zygote: int) -> None:
    """What a fresh worker has, set in the fork; then serve (worker.main, which ends
    with os._exit)."""
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


