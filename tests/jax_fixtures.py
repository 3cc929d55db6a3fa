"""Results that several test files assert on, computed once per test process.

A run's XLA compilation cache (tests/conftest.py) saves compiling a program
twice, but not tracing it, loading it, nor the work done with it: a study that
two files check (test_study's command-line output, test_distributed's
single-process result that two processes must reproduce) is run here once per
test process (per xdist worker), whichever file asks first.  The values are
only read by the tests, never changed."""

from __future__ import annotations

import functools

# lemma-4.5's study at sizes that have a degenerate cell ((3, 8): m < d), cells with
# failures to confirm exactly, and one (8, 8) where none fails
LEMMA45_STUDY = {"ms": [3, 8], "ds": [2, 8], "trials": 300, "seed": 5, "confirm": 3}


@functools.lru_cache(maxsize=None)
def lemma45_study() -> tuple:
    """study.run_study(**LEMMA45_STUDY) on the default device, with the shared kernel."""
    from bnproof.numeric import study

    return tuple(study.run_study(**LEMMA45_STUDY))
