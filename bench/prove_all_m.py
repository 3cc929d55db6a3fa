"""Proof time for every m, per claim: every claim of the gallery files for every m
(docs/examples/every_m_*.py, every_n_moments.py, every_d.py) and of the paper's claim files
(proofs/*/*.py), proved as `bnproof prove` proves it (symbolic_m.prove.prove_claim: at
each fixed size, the trace at a symbolic m, the normal form or decomposition, the exact
witness, the second reading, and the independent checker's replay of the certificate).

The goal is under 2 s per claim (issue 23).  Times are CPU seconds of this process
(time.process_time), since the machine is shared: wall time there measures the other
users as much as the proof.  Each claim is proved --repeats times in one process, the
claims interleaved (one round over every claim, then the next), and the median is
printed beside the first run ("first" is the first proof of the claim in this process,
before any of its traces are warm) and the median wall time.  A claim not proved is
timed the same way: its verdict is shown, and the time to say "not proved" counts too.

    python bench/prove_all_m.py [--repeats 5] [--only SUBSTRING] [--against-m M]

--against-m M also times the fixed-size prover at m = M (claims.prove.prove_at, which
proves identities only) for each identity proved for every m, as the 2026-11-23 table of
docs/performance.md compares them.
"""

import argparse
import glob
import os
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from bnproof._api.claims import load  # noqa: E402
from bnproof.symbolic_m.prove import prove_claim  # noqa: E402

GOAL = 2.0  # seconds of CPU per claim (issue 23)


def files() -> list[str]:
    gallery = sorted(glob.glob(os.path.join(ROOT, "docs", "examples", "every_m_*.py")))
    gallery += [os.path.join(ROOT, "docs", "examples", name) for name in ("every_n_moments.py", "every_d.py")
                if os.path.exists(os.path.join(ROOT, "docs", "examples", name))]
    return gallery + sorted(glob.glob(os.path.join(ROOT, "proofs", "*", "*.py")))


def timed(f):
    cpu, wall = time.process_time(), time.perf_counter()
    result = f()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def verdict(attempts) -> str:
    if attempts and all(a.proved for a in attempts):
        return "proved" + ("" if attempts[0].fixed == {} else f" ({len(attempts)} sizes)")
    if not attempts:
        return "none attempted"
    return attempts[-1].status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", default="", help="only claims whose id contains this")
    parser.add_argument("--against-m", type=int, default=None)
    args = parser.parse_args()
    claims = []
    for path in files():
        for claim in load(path):
            if args.only in claim.id and claim not in claims:
                claims.append(claim)
    cpu = {c.id: [] for c in claims}
    wall = {c.id: [] for c in claims}
    shown = {}
    for _ in range(args.repeats):
        for claim in claims:
            seconds, elapsed, attempts = timed(lambda: prove_claim(claim))
            cpu[claim.id].append(seconds)
            wall[claim.id].append(elapsed)
            shown[claim.id] = (verdict(attempts), attempts)
    width = max(len(c.id) for c in claims)
    head = f"{'claim':{width}} {'verdict':18} {'first CPU':>9} {'CPU (s)':>8} {'wall (s)':>8}"
    print(head + (f" {'m = ' + str(args.against_m) + ' CPU':>11}" if args.against_m else ""))
    over = []
    for claim in claims:
        median = statistics.median(cpu[claim.id])
        text, attempts = shown[claim.id]
        line = (f"{claim.id:{width}} {text:18} {cpu[claim.id][0]:9.3f} {median:8.3f} "
                f"{statistics.median(wall[claim.id]):8.3f}")
        if args.against_m and claim.kind == "identity" and text.startswith("proved"):
            line += f" {_fixed(claim, attempts, args.against_m, args.repeats):11.3f}"
        print(line, flush=True)
        if median >= GOAL:
            over.append(claim.id)
    total = sum(statistics.median(v) for v in cpu.values())
    print(f"{len(claims)} claims, {total:.2f} s of CPU in all (medians); "
          f"the slowest {max(cpu, key=lambda i: statistics.median(cpu[i]))}; "
          + (f"over the {GOAL:g} s goal: {', '.join(over)}" if over else f"every claim under the {GOAL:g} s goal"))


def _fixed(claim, attempts, m: int, repeats: int) -> float:
    from bnproof.claims.prove import prove_at

    fixed = attempts[-1].fixed
    times = []
    for _ in range(repeats):
        seconds, _, result = timed(lambda: prove_at(claim, {**fixed, "m": m}))
        times.append(seconds if result.proved else float("nan"))
    return statistics.median(times)


if __name__ == "__main__":
    main()
