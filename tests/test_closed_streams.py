"""A command started with stdout or stderr closed (`>&-`, a daemon) still does its work and
exits with its verdict's code: Python gives it sys.stdout = None, and the verify command's
forked JAX worker must not lose its own pipe when it replaces that stream."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest



def _run(tmp_path, closed, *args):
    # the shell closes them (no preexec_fn: a fork in this process, which may hold JAX's
    # threads, is what the suite's warnings-as-errors refuse)
    redirect = " ".join(f"{fd}>&-" for fd in closed)
    return subprocess.run(["sh", "-c", f'exec "$@" {redirect}', "sh", sys.executable, "-m", "bnproof", *args],
                          cwd=tmp_path, env=dict(os.environ, BNPROOF_CACHE_DIR=str(tmp_path / ".cache")),
                          stdout=subprocess.DEVNULL, stderr=None if 2 in closed else subprocess.PIPE,
                          timeout=600)


@pytest.mark.parametrize("closed", [(1,), (1, 2)], ids=["stdout", "stdout-and-stderr"])
def test_verify_with_closed_streams_keeps_its_verdict_and_certificate(tmp_path, closed):
    # Lemma 4.5 is refuted (exit 1) with its certificate written; the cross-check runs
    # (it was exit 8: AttributeError at the first print, then EBADF in the worker)
    proc = _run(tmp_path, closed, "verify", "lemma-4.5")
    assert proc.returncode == 1, proc.stderr
    assert list(tmp_path.rglob("lemma-4.5.json"))


def test_list_with_stdout_closed_exits_0(tmp_path):
    assert _run(tmp_path, (1,), "list").returncode == 0
