"""Search workers forked from a zygote (bnproof/search/zygote.py) against fresh
interpreters, in a process that starts many: a notebook, a test session, a
script that calls `bnproof fuzz` again and again.

One driver process per side runs `bnproof fuzz CLAIM_FILE --json` in-process
(bnproof.cli.main, as tests/cli_runner.run_cli does) RUNS times: one with
the zygote, one with BNPROOF_NO_ZYGOTE=1.  The two drivers run in turn, round
after round (interleaved, so that machine noise falls on both alike).  Printed:
the wall time of each side's runs after its second (the zygote serves from the
third worker on), medians over the rounds, and their ratio; and whether the
reports (--no-timings) are byte-identical between the sides, run by run.

Run: python bench/zygote_workers.py [--runs N] [--rounds R] [CLAIM_FILE]
(default docs/examples/basics.py with --no-jax and 20 examples, plus one run with
JAX on; the load average is printed: on a shared machine, compare ratios)."""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRIVER = r'''
import io, json, os, sys, time, contextlib
from bnproof.cli import main
claim, runs, jax = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
args = ["fuzz", claim, "--json", "--no-timings", "--seed", "3", "--max-examples", "20", "--time-budget", "300"]
if not jax:
    args.append("--no-jax")
times, reports = [], []
for _ in range(runs):
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out):
        try:
            main(args)
        except SystemExit:
            pass
    times.append(time.perf_counter() - start)
    reports.append(out.getvalue())
print(json.dumps({"times": times, "reports": reports}))
'''


def drive(claim: str, runs: int, jax: bool, zygote: bool, cache: str) -> dict:
    """The driver's times and reports, run in a scratch folder (its certificates go there)."""
    import tempfile

    env = dict(os.environ, BNPROOF_CACHE_DIR=cache)
    env.pop("BNPROOF_NO_ZYGOTE", None)
    if not zygote:
        env["BNPROOF_NO_ZYGOTE"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, "-c", DRIVER, claim, str(runs), "1" if jax else "0"],
                              capture_output=True, text=True, env=env, cwd=folder, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("claim", nargs="?", default=str(ROOT / "docs" / "examples" / "basics.py"))
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    import tempfile

    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as cache:
        for jax in (False, True):
            sums = {True: [], False: []}
            reports = {}
            for _ in range(options.rounds):
                for zygote in (True, False):
                    result = drive(options.claim, options.runs, jax, zygote, cache)
                    sums[zygote].append(sum(result["times"][2:]))
                    reports.setdefault(zygote, result["reports"])
            same = reports[True] == reports[False]
            with_z, without = statistics.median(sums[True]), statistics.median(sums[False])
            print(f"{'JAX on ' if jax else 'no JAX '} runs 3..{options.runs}: zygote {with_z:.2f} s, "
                  f"fresh {without:.2f} s, ratio {with_z / without:.2f}; reports identical: {same}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
