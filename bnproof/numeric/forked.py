"""The JAX worker as a fork of the command's own process, with the part of
subprocess.Popen's interface that crosscheck.Worker uses (stdin, poll, kill,
communicate, returncode).

A fork skips a second interpreter's start, `site` and the modules already
loaded; the child then imports JAX itself, exactly as `python -m
bnproof.numeric.worker` would.  It is used only where a fork is safe: on Linux,
in a process with one thread (a fork copies only the calling thread, so a lock
another thread held would stay held in the child for ever) that has not
imported JAX (whose runtime is multithreaded).  Elsewhere the worker is a fresh
interpreter, as before.
"""

from __future__ import annotations

import gc
import os
import selectors
import signal
import sys


def can_fork() -> bool:
    """Whether this process may fork the worker (see the module's docstring)."""
    if sys.platform != "linux" or not hasattr(os, "fork") or "jax" in sys.modules:
        return False
    try:
        for fd in (0, 1, 2):  # a closed one would be the next pipe's, and this process's output with it
            os.fstat(fd)
        return len(os.listdir("/proc/self/task")) == 1  # every thread, not only Python's
    except OSError:
        return False


class _Pipe:
    """The write end of the child's stdin, as Popen.stdin is used."""

    def __init__(self, fd: int):
        self.fd = fd

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view):]

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


class ForkedWorker:
    """`python -m bnproof.numeric.worker`, forked: its stdin, stdout and stderr are pipes."""

    def __init__(self, env: dict[str, str]):
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        for stream in (sys.stdout, sys.stderr):  # else the child's copy of a buffer could be written twice
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        # the child must not collect the parent's garbage: a finalizer there (a temporary
        # file's, say) would act on the parent's files; gc.freeze keeps every object now
        # alive out of the child's collections
        gc.freeze()
        # Ctrl-C waits until the child is on the list that end_all() empties: else it
        # could land between the fork and the caller's hold on the worker
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            try:
                pid = os.fork()
            except BaseException:
                for fd in (in_r, in_w, out_r, out_w, err_r, err_w):
                    os.close(fd)
                raise
            if pid == 0:  # the child: never returns
                _child(in_r, out_w, err_w, env, mask)
            for fd in (in_r, out_w, err_w):  # the child's ends: else our reads never see its end
                os.close(fd)
            self.pid, self.returncode = pid, None
            self.stdin = _Pipe(in_w)
            self._out, self._err = out_r, err_r
            _started.add(self)
        finally:
            gc.unfreeze()
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def communicate(self) -> tuple[bytes, bytes]:
        """(stdout, stderr) until both close, then the exit status, as Popen.communicate:
        both pipes are read as data comes, so that neither can fill up and block the child."""
        if self.stdin is not None:
            self.stdin.close()
        if self._out is None:  # read once already
            return b"", b""
        chunks = {self._out: [], self._err: []}
        with selectors.DefaultSelector() as selector:
            for fd in chunks:
                selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                for key, _ in selector.select():
                    data = os.read(key.fd, 1 << 16)
                    if data:
                        chunks[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
                        os.close(key.fd)
        self._out = self._err = None
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        _started.discard(self)
        out, err = chunks.values()
        return b"".join(out), b"".join(err)


_started: set[ForkedWorker] = set()  # forked and not yet read to the end and reaped


def end_all() -> None:
    """Kill and reap every worker forked here and not yet ended (the command's last
    word, whatever interrupted it)."""
    for worker in list(_started):
        worker.kill()
        worker.communicate()


def _child(in_r: int, out_w: int, err_w: int, env: dict[str, str], mask) -> None:
    """Become the worker: pipes on 0, 1 and 2, nothing else of the parent's open, the
    worker's environment, and os._exit whatever happens (never the parent's atexit
    handlers, buffers or `finally` blocks)."""
    try:
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            # Ctrl-C ends it at once, silently; a command started immune to it (a background
            # job) keeps its worker immune, as a fresh interpreter would inherit it
            signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.dup2(in_r, 0)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        for name in os.listdir("/proc/self/fd"):
            if int(name) > 2:
                try:
                    os.close(int(name))
                except OSError:
                    pass
        os.environ.clear()
        os.environ.update(env)
        sys.stdin = open(0, encoding="utf-8", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
        from .worker import main

        main()  # os._exit(0) when done
    except BaseException:
        try:
            import traceback

            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:
            pass
    finally:
        os._exit(1)
