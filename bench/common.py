"""Helpers shared by the benchmarks: random exact instances, timing, tables."""

import json
import random
import statistics
import subprocess
import sys
import time


def random_instance(m, d, seed, span=5):
    """Small-integer data with a positive initialization along W*'s side."""
    rng = random.Random(seed)
    X = [[rng.randint(-span, span) for _ in range(d)] for _ in range(m)]
    y = [rng.randint(-span, span) for _ in range(m)]
    W0 = [rng.randint(1, span) for _ in range(d)]
    return {"X": X, "y": y, "W0": W0}


def wall(cmd, timeout=None):
    """Wall seconds of a subprocess, or None past the timeout."""
    start = time.perf_counter()
    try:
        subprocess.run(cmd, check=True, timeout=timeout, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - start


def median_wall(cmd, repeats):
    return statistics.median(wall(cmd) for _ in range(repeats))


def write(path, data):
    with open(path, "w") as fh:
        json.dump(data, fh)


PY = sys.executable
