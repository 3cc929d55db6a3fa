"""Issue 24, part 6: a certified verdict at the price of an uncertified one.

Cold wall time and CPU time (user + system, child processes included), each
command a fresh process, run in turn round after round (interleaved, so that
machine noise falls on all alike); medians, and each ratio against its goal,
printed by the same run:

- `bnproof verify lemma-4.5 --data D --json` at m = 1000, d = 64 (the exact
  verdict, its certificate accepted by the independent checker and written,
  the JSON report), with and without the JAX cross-check, against
  `bench/flint_route.py D`, the structured python-flint script that prints
  only the residual (goal: certified verify ≤ 1.0× the script);
- `bnproof verify lemma-4.5` (Example 3.2, with the cross-check) against
  `bench/naive_sympy.py` (goal ≤ 1.4×, as in bench/verify_cold.py).

D is common.random_instance(1000, 64, seed=2): integers in [−5, 5], a
positive ⟨W0, W*⟩, so the whole lemma is decided ("holds").

With --before DIR (a checkout of an earlier commit, e.g. `git worktree add DIR
COMMIT` or `git archive COMMIT | tar -x -C DIR`), each bnproof command also runs
from DIR, interleaved with the others, so that before and after are measured
under the same load.

--only example runs only Example 3.2 and the naive script (goal A of issue 24 §6),
--only data only the --no-crosscheck run at scale and the flint route (goal B).
The load average is printed before and after: on a shared machine, compare ratios.

--after DIR runs "this" side's bnproof from DIR too (a commit without the uncommitted
work of others in a shared tree).

Run: python bench/verify_certified.py [--repeats N] [--m M] [--d D] [--before DIR] [--after DIR]
     [--only example|data]"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import PY, random_instance, write  # noqa: E402
from verify_cold import EXAMPLE  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OK = (0, 1, 5)  # holds, refuted, hypothesis not met: each a finished, certified verdict


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--m", type=int, default=1000)
    parser.add_argument("--d", type=int, default=64)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--before", help="an earlier checkout: its bnproof runs beside this one")
    parser.add_argument("--after", help="a checkout whose bnproof runs instead of this tree's (e.g. a commit "
                        "without the uncommitted work of others in a shared tree)")
    parser.add_argument("--only", choices=["example", "data"], help="only goal A's or goal B's commands")
    args = parser.parse_args()
    print("load average at the start: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    tmp = tempfile.mkdtemp()
    data, example = os.path.join(tmp, "data.json"), os.path.join(tmp, "example.json")
    write(data, random_instance(args.m, args.d, seed=args.seed))
    write(example, EXAMPLE)
    cert = os.path.join(tmp, "cert.json")
    verify = [PY, "-m", "bnproof", "verify", "lemma-4.5"]
    size = f"m = {args.m}, d = {args.d}"
    commands = [
        (f"verify --data ({size}) --json --no-crosscheck", verify + ["--data", data, "--json", "--out", cert,
                                                              "--no-crosscheck"]),
        (f"verify --data ({size}) --json", verify + ["--data", data, "--json", "--out", cert]),
        (f"flint_route.py ({size})", [PY, os.path.join(HERE, "flint_route.py"), data]),
        ("verify lemma-4.5 (Example 3.2)", verify + ["--out", cert]),
        ("naive_sympy.py (Example 3.2)", [PY, os.path.join(HERE, "naive_sympy.py"), example]),
    ]
    wanted = {None: range(5), "example": (3, 4), "data": (0, 2)}[args.only]
    this = os.path.abspath(args.after) if args.after else None
    runs = [(label, cmd, this if "verify" in label else None) for i, (label, cmd) in enumerate(commands)
            if i in wanted]
    if args.before:
        before = os.path.abspath(args.before)
        runs += [(label + " [before]", cmd, before) for i, (label, cmd) in enumerate(commands)
                 if "verify" in label and i in wanted]
    times = {label: [] for label, _, _ in runs}
    cpu = {label: [] for label, _, _ in runs}
    for _ in range(args.repeats):
        for label, cmd, where in runs:
            seconds, used = run(cmd, where)
            times[label].append(seconds)
            cpu[label].append(used)
    print("load average at the end: " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    labels = [label for label, _ in commands]
    for kind, table in (("cold wall time", times), ("CPU time (user + system, children included)", cpu)):
        med = {label: statistics.median(ts) for label, ts in table.items()}
        print(f"{kind}, median of {args.repeats} interleaved rounds")
        for label, t in med.items():
            print(f"  {label:<59} {t:7.3f} s   (min {min(table[label]):.3f}, max {max(table[label]):.3f})")
        print(f"ratios of the {kind.split(' (')[0]} (this / baseline; goal)")
        for suffix in ([""] + ([" [before]"] if args.before else [])):
            for label, base, name, goal in [(labels[0], labels[2], "flint route", 1.0),
                                            (labels[1], labels[2], "flint route", 1.0),
                                            (labels[3], labels[4], "naive SymPy", 1.4)]:
                if label + suffix not in med or base not in med:
                    continue
                ratio = med[label + suffix] / med[base]
                print(f"  {label + suffix:<59} {ratio:5.2f}x {name}   goal <= {goal}x: "
                      f"{'met' if ratio <= goal else 'MISSED'}")
        if kind.startswith("cold"):
            continue
        # the same ratio round by round (each command against the baseline of its own round)
        for label, base in [(labels[0], labels[2]), (labels[3], labels[4])]:
            for suffix in ([""] + ([" [before]"] if args.before else [])):
                if label + suffix in table and base in table:
                    rounds = [a / b for a, b in zip(table[label + suffix], table[base])]
                    print(f"  per round, CPU: {label + suffix:<48} " + " ".join(f"{r:.2f}" for r in rounds))


def run(cmd, where) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system, its child processes included) of one
    run; `where`, a checkout whose bnproof runs instead of this one's.  On a shared,
    loaded machine the CPU time is the steadier of the two."""
    env = None if where is None else dict(os.environ, PYTHONPATH=where)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=where, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in OK:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


if __name__ == "__main__":
    main()
