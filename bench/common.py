"""Helpers shared by the benchmarks: random exact instances, timing, tables."""

import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_at(rev: str, path: str, name: str):
    """bnproof's module `path` (e.g. "bnproof/claims/moments.py") as it was at commit
    `rev`, imported as `name` (a name inside its package, so that its relative imports
    resolve there): the "before" side of a side-by-side bench."""
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    copy = Path("/tmp") / f"bnproof_{name.rsplit('.', 1)[-1]}_{rev}.py"
    copy.write_text(source)
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def random_instance(m, d, seed, span=5):
    """Small-integer data with a positive initialization along W*'s side."""
    rng = random.Random(seed)
    X = [[rng.randint(-span, span) for _ in range(d)] for _ in range(m)]
    y = [rng.randint(-span, span) for _ in range(m)]
    W0 = [rng.randint(1, span) for _ in range(d)]
    return {"X": X, "y": y, "W0": W0}


def wall(cmd, timeout=None, ok_codes=(0, 1)):
    """Wall seconds of a subprocess, or None past the timeout.  Exit code 1
    is bnproof's "refuted", a success here."""
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, timeout=timeout, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode not in ok_codes:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return time.perf_counter() - start


def interleaved_medians(commands, repeats):
    """Median wall time of each command, running them in turn, round after
    round, so that machine noise falls on all of them alike."""
    times = {label: [] for label, _ in commands}
    for _ in range(repeats):
        for label, cmd in commands:
            times[label].append(wall(cmd))
    return [(label, statistics.median(times[label])) for label, _ in commands]


def write(path, data):
    with open(path, "w") as fh:
        json.dump(data, fh)


PY = sys.executable
