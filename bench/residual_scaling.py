"""The exact Lemma 4.5 residual (with ∇Ĉ(W*)) on random small-integer data:
bnproof's structured engine against the naive SymPy route, side by side.

Both are timed in-process, imports excluded.  The naive route runs in a
subprocess with a 120 s budget per size; the
ladder stops at the first size it cannot finish.  bnproof then also runs at
m = 1000, d = 16.  Prints seconds and ratios.

Run: python bench/residual_scaling.py [--budget 120]"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import PY, random_instance, write  # noqa: E402


NAIVE = os.path.join(os.path.dirname(__file__), "naive_sympy.py")


def bnproof_seconds(data, repeats=3):
    from bnproof.claims import lemma45
    from bnproof.instance import instance_from_json

    best, report = None, None
    for _ in range(repeats):
        start = time.perf_counter()
        report = lemma45.analyse(instance_from_json(data))
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, report


def naive_run(path, budget):
    """In-process seconds (imports excluded, like bnproof's) and output of the
    naive script, or (None, None) past the budget."""
    try:
        proc = subprocess.run([PY, NAIVE, path], timeout=budget, capture_output=True,
                              text=True, check=True)
    except subprocess.TimeoutExpired:
        return None, None
    answer = json.loads(proc.stdout)
    return answer["seconds"], answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=float, default=120.0)
    parser.add_argument("--d", type=int, default=3)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    print(f"exact Lemma 4.5 residual + ∇Ĉ(W*), random integer data in [-5, 5], d = {args.d}")
    print(f"  {'m':>5} {'d':>3} {'bnproof s':>10} {'naive s':>10} {'naive/bnproof':>14}")
    largest = None
    for m in (10, 20, 40, 80, 160, 320, 640):
        data = random_instance(m, args.d, seed=m)
        path = os.path.join(tmp, f"m{m}.json")
        write(path, data)
        ours, report = bnproof_seconds(data)
        theirs, answer = naive_run(path, args.budget)
        if theirs is None:
            print(f"  {m:>5} {args.d:>3} {ours:10.4f} {'> budget':>10} {'-':>14}")
            break
        # the two routes must agree exactly, or the comparison means nothing
        assert answer["residual"] == str(report.neurons[0].residual), (answer, m)
        largest = (m, ours, theirs)
        print(f"  {m:>5} {args.d:>3} {ours:10.4f} {theirs:10.2f} {theirs / ours:13.0f}x")
    if largest:
        m, ours, theirs = largest
        print(f"largest size the naive route finishes within {args.budget:.0f} s: m = {m}, "
              f"d = {args.d}: bnproof is {theirs / ours:.0f}x faster")
    data = random_instance(1000, 16, seed=1000)
    ours, report = bnproof_seconds(data)
    print(f"m = 1000, d = 16: bnproof {ours:.3f} s (verdict {report.verdict}, "
          f"residual {float(report.neurons[0].residual.p) / float(report.neurons[0].residual.q):.4g})")


if __name__ == "__main__":
    main()
