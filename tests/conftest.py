import gc
import os
import shutil
import sys
import tempfile

# Bytecode cached, as Python does by default: the suite starts a few hundred Python
# processes (the CLI, fuzz workers, cross-checks), and with PYTHONDONTWRITEBYTECODE
# set (this project's machines set it) each compiled bnproof's sources again, about
# 10 s of a run.  __pycache__ is git-ignored; claim files never get one (claims/helper_modules.py).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# JAX in tests: float64, quiet, CPU unless a GPU session says otherwise.
os.environ.setdefault("JAX_ENABLE_X64", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# One XLA compilation cache for the whole run, shared by this process, the
# pytest-xdist workers and every bnproof process the tests start (fuzz
# workers, cross-checks): a claim's programs compile once per run, not once per
# test.  It is new for each run (made by the process that starts the run,
# which the workers inherit it from) and removed at its end, so no run reads
# what another left; JAX_COMPILATION_CACHE_DIR set by the caller is kept.
_CACHE_OWNER = "JAX_COMPILATION_CACHE_DIR" not in os.environ and "PYTEST_XDIST_WORKER" not in os.environ
if _CACHE_OWNER:
    os.environ["JAX_COMPILATION_CACHE_DIR"] = tempfile.mkdtemp(prefix="bnproof-tests-xla-")
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "-1")

from hypothesis import HealthCheck, settings  # noqa: E402
from shared_runs import gallery_runs  # noqa: E402,F401 - a run several test files assert on, made once

# Exact arithmetic has no fixed speed; derandomized so CI runs are repeatable.
settings.register_profile(
    "bnproof", deadline=None, derandomize=True, max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("bnproof")


def pytest_unconfigure(config):
    if _CACHE_OWNER and not hasattr(config, "workerinput"):
        shutil.rmtree(os.environ["JAX_COMPILATION_CACHE_DIR"], ignore_errors=True)


# The garbage collector, in each test process: after collection, every object then alive
# (the imported libraries, the test modules and their claims) is moved out of the
# collector's sight (gc.freeze), and young objects are collected every 10,000 allocations
# rather than 700.  A long-lived worker holds hundreds of thousands of objects that every
# full collection walked again, including the gc.collect() each bnproof command ends with
# (search/unraisable.py): 11 % of the CPU time of test_gallery, test_exact_text and
# test_issue13_close run together, about 5 % after.  What is garbage is still collected,
# and explicit gc.collect() calls still collect everything created since.
gc.set_threshold(10_000, 20, 20)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()
