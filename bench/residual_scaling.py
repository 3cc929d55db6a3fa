"""The exact Lemma 4.5 residual (with ∇Ĉ(W*)) on random small-integer data:
bnproof's structured engine against the naive SymPy route, side by side.

Both are timed in-process, imports excluded.  The naive route runs in a
subprocess with a 120 s budget per size; the
ladder stops at the first size it cannot finish.  bnproof then also runs at
m = 1000, d = 16.  Prints seconds and ratios.

Then bnproof (bench/bnproof_route.py) against the structured python-flint
route (bench/flint_route.py) at m ∈ {10³, 10⁴, 10⁵} × d ∈ {16, 64}: each
route a fresh subprocess that loads only its own modules and reads the same
JSON file, run in turn (interleaved pairs), medians of wall
time measured inside the process (imports excluded, reading the file
included) and its peak RSS.  bnproof's time is split into reading the
instance (instance.py: ints kept as ints, validation) and the engine (the
integer moments of exact/batch.py, then the d-dimensional work).  The
residual and ∇Ĉ(W*) of the two routes must be identical.  Sizes whose runs
take milliseconds get at least --small-repeats pairs (the machine's noise
is larger than they are).

Run: python bench/residual_scaling.py [--budget 120] [--skip-naive] [--repeats 3]
     [--small-repeats 9] [--sizes 1000x16,1000x64,...]"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import PY, random_instance, write  # noqa: E402


NAIVE = os.path.join(os.path.dirname(__file__), "naive_sympy.py")
FLINT = os.path.join(os.path.dirname(__file__), "flint_route.py")
OURS = os.path.join(os.path.dirname(__file__), "bnproof_route.py")
SCALE_SIZES = "1000x16,1000x64,10000x16,10000x64,100000x16,100000x64"


def child(script_args):
    proc = subprocess.run([PY, *script_args], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def against_flint(sizes, repeats, tmp, small_repeats=9):
    print("\nbnproof against the structured python-flint route (fresh process each; medians of "
          f"{repeats} interleaved pairs, {small_repeats} for m·d ≤ 10⁶; time inside the process, "
          "file reading included)")
    print(f"  {'m':>6} {'d':>3} {'flint s':>8} {'bnproof s':>9} {'(read':>7} {'engine)':>8} "
          f"{'bnproof/flint':>13} {'engine/flint':>12} {'flint MiB':>9} {'bnproof MiB':>11}")
    for size in sizes:
        m, d = map(int, size.split("x"))
        path = os.path.join(tmp, f"scale_m{m}_d{d}.json")
        write(path, random_instance(m, d, seed=m + d))
        theirs, ours = [], []
        for _ in range(max(repeats, small_repeats) if m * d <= 10**6 else repeats):
            theirs.append(child([FLINT, path]))
            ours.append(child([OURS, path]))
        for a, b in zip(theirs, ours):  # the two routes must agree exactly
            assert a["residual"] == b["residual"] and a["inner"] == b["inner"], size
            assert a["radicand"] == b["radicand"] and a["grad_root_part"] == b["grad_root_part"], size
            assert b["second_order_ok"]
        med = lambda runs, key: statistics.median(r[key] for r in runs)  # noqa: E731
        f, o, rd = med(theirs, "seconds"), med(ours, "seconds"), med(ours, "read_seconds")
        mem_f, mem_o = med(theirs, "peak_rss_kib") / 1024, med(ours, "peak_rss_kib") / 1024
        print(f"  {m:>6} {d:>3} {f:8.3f} {o:9.3f} {rd:7.3f} {o - rd:8.3f} {o / f:12.2f}x "
              f"{(o - rd) / f:11.2f}x {mem_f:9.0f} {mem_o:11.0f}", flush=True)


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
    parser.add_argument("--skip-naive", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--small-repeats", type=int, default=9)
    parser.add_argument("--sizes", default=SCALE_SIZES)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    if not args.skip_naive:
        naive_ladder(args, tmp)
    against_flint(args.sizes.split(","), args.repeats, tmp, args.small_repeats)


def naive_ladder(args, tmp):
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
