"""`bnproof study` on one process against `--distributed` on N processes of this
machine (JAX CPU processes joined through a localhost coordinator), measured side
by side: each round runs the single process, then the N processes together, and
compares their JSON cells (they must be equal: the same seed gives the same
result whatever the number of processes).  Prints the median wall times and
their ratio.  On one host the processes share its cores, so this measures the
overhead and the share-out, not a multi-host speed-up.  JAX writes its
persistent compilation cache from process 0 only, and the other processes'
programs name other devices, so every process but 0 compiles each shape anew:
a fixed cost per (m, d) that a large campaign amortizes.

Run: python bench/distributed_study.py [--processes 2] [--repeats 3] [--trials 40000]"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import PY  # noqa: E402


def study(trials, extra=()):
    return [PY, "-m", "bnproof", "study", "lemma-4.5", "--m", "8,32", "--d", "2,8",
            "--trials", str(trials), "--seed", "0", "--confirm", "4", "--json", *extra]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def single(trials):
    start = time.perf_counter()
    proc = subprocess.run(study(trials), capture_output=True, text=True,
                          env=dict(os.environ, JAX_PLATFORMS="cpu"))
    return time.perf_counter() - start, json.loads(proc.stdout)["cells"]


def together(trials, count):
    port = free_port()
    start = time.perf_counter()
    procs = [subprocess.Popen(study(trials, ["--distributed"]), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True,
                              env=dict(os.environ, JAX_PLATFORMS="cpu",
                                       JAX_COORDINATOR_ADDRESS=f"127.0.0.1:{port}",
                                       JAX_NUM_PROCESSES=str(count), JAX_PROCESS_ID=str(i)))
             for i in range(count)]
    outs = [p.communicate()[0] for p in procs]
    return time.perf_counter() - start, json.loads(outs[0])["cells"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--trials", type=int, default=40000)
    args = parser.parse_args()
    one, many = [], []
    for _ in range(args.repeats):
        t1, cells1 = single(args.trials)
        tn, cellsn = together(args.trials, args.processes)
        assert cells1 == cellsn, "the distributed result differs from the single process's"
        one.append(t1)
        many.append(tn)
    a, b = statistics.median(one), statistics.median(many)
    print(f"study lemma-4.5 --m 8,32 --d 2,8 --trials {args.trials}: median of {args.repeats} interleaved rounds")
    print(f"  1 process:                  {a:.2f} s")
    print(f"  {args.processes} processes (--distributed): {b:.2f} s   single / distributed = {a / b:.2f}x")
    print("  results identical in every round")


if __name__ == "__main__":
    main()
