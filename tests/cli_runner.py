"""`bnproof ARGS` run in this process, as the console script runs it.

A fresh `python -m bnproof` costs its interpreter's start and its imports
(typer, SymPy, Hypothesis, flint: up to a second or two under load) on top of
the command's work, and most command-line tests check what the command does,
not that a process starts.  `run_cli` calls the entry point the `bnproof`
script calls (bnproof.cli.main, with argv) and returns what
subprocess.run(..., capture_output=True) would: returncode, stdout, stderr.

What a real process gives a command, it gets here too, and what it changes is
undone afterwards:

- the working folder (cwd) and environment variables (env: set for the run,
  then restored; a fuzz worker started during the run inherits both);
- stdout and stderr are files (not terminals, as in a pipe), with the
  encoding PYTHONIOENCODING would give, so that a worker process the command
  starts writes to the same stderr (the fuzz worker's stdout goes to the
  parent's stderr file descriptor);
- the exit code of SystemExit as the interpreter makes it (None is 0, a
  message is printed and is 1);
- the SIGINT handler (fuzz ignores further Ctrl-C once it stops), sys.argv.

Tests whose point is the process itself (Ctrl-C and exit 130, a cold import,
a terminal, the interpreter's own encoding set-up, the README's command) keep
starting a real one.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Completed:
    """What subprocess.run(capture_output=True) returns, for an in-process run."""

    args: list
    returncode: int
    stdout: str | bytes
    stderr: str | bytes


def run_cli(*args, cwd=None, env: dict | None = None, encoding: str = "utf-8",
            text: bool = True) -> Completed:
    """`bnproof ARGS` in this process, from `cwd`, with `env` added to the environment
    (None for a variable: removed for the run)."""
    from bnproof.cli import main

    argv = [str(a) for a in args]
    saved_cwd = os.getcwd()
    saved_env = dict(os.environ)
    saved_streams = sys.stdout, sys.stderr
    saved_argv = sys.argv
    saved_sigint = signal.getsignal(signal.SIGINT)
    # appended to (O_APPEND), so that what a worker process writes to stderr's file
    # descriptor and what this process writes never overwrite each other
    files = tempfile.TemporaryFile("a+b"), tempfile.TemporaryFile("a+b")
    # as the interpreter opens them: stdout strict, stderr backslashreplace
    out = io.TextIOWrapper(files[0], encoding=encoding, errors="strict", write_through=True)
    err = io.TextIOWrapper(files[1], encoding=encoding, errors="backslashreplace", write_through=True)
    code = 0
    try:
        if cwd is not None:
            os.chdir(cwd)
        for name, value in (env or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = str(value)
        sys.stdout, sys.stderr = out, err
        sys.argv = ["bnproof", *argv]
        try:
            main(argv)
        except SystemExit as done:
            code = _exit_status(done.code, err)
    finally:
        for stream in (out, err):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        sys.stdout, sys.stderr = saved_streams
        sys.argv = saved_argv
        signal.signal(signal.SIGINT, saved_sigint)
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
    captured = []
    for stream, raw in zip((out, err), files):
        raw.seek(0)
        data = raw.read()
        stream.detach()
        raw.close()
        captured.append(data.decode(encoding, errors="strict") if text else data)
    return Completed(["bnproof", *argv], code, *captured)


def _exit_status(code, err) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code % 256
    print(code, file=err)  # sys.exit("message"): the interpreter prints it and exits 1
    return 1


def env_for(folder: Path, **extra) -> dict:
    """The scratch environment most CLI tests give a run: caches and proofs in `folder`."""
    return {"BNPROOF_CACHE_DIR": str(Path(folder) / ".cache"), **extra}


class Started:
    """`python -m bnproof ARGS` started now in a process of its own (and its own
    session, so that it goes with its fuzz worker), for a test to wait on later:
    runs that mostly wait out a time budget for a blocked worker overlap their
    waiting instead of adding it up."""

    HANG_GUARD = 300  # seconds; only so that a hang fails instead of blocking the suite

    def __init__(self, *args, cwd, env: dict | None = None, prelude: str | None = None):
        """`prelude`: Python run in the process before the command (it then runs as
        bnproof/__main__.py runs it), e.g. to set a module's constant for a test."""
        import subprocess

        self.args = ["bnproof", *[str(a) for a in args]]
        self._files = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        start = ["-m", "bnproof"] if prelude is None else ["-c", f"{prelude}\nfrom bnproof.cli import main\nmain()"]
        self.process = subprocess.Popen([sys.executable, *start, *self.args[1:]], cwd=cwd,
                                        env=dict(os.environ, **(env or {})), stdin=subprocess.DEVNULL,
                                        stdout=self._files[0], stderr=self._files[1], start_new_session=True)
        self._done: Completed | None = None

    def wait(self) -> Completed:
        """What the process printed and its exit code, once it has ended."""
        if self._done is None:
            try:
                code = self.process.wait(timeout=self.HANG_GUARD)
            except BaseException:
                self.kill()
                raise
            out, err = (self._read(f) for f in self._files)
            self._done = Completed(self.args, code, out, err)
        return self._done

    def kill(self) -> None:
        """Its process group, if anything of it is left (a test that failed before waiting)."""
        if self.process.returncode is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
        if self._done is None:  # never waited on: nothing will read what it printed
            for raw in self._files:
                raw.close()

    @staticmethod
    def _read(raw) -> str:
        raw.seek(0)
        text = raw.read().decode("utf-8")
        raw.close()
        return text
