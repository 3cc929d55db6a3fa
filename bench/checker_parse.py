"""The independent checker on a Lemma 4.5 certificate at m = 1000, d = 64 (issue 24,
part 6): CPU time of `checker.check_bytes` in-process, this tree against an earlier
checkout, interleaved, medians, and the time of the reading alone (JSON, the
instance's numbers as Fractions and their shapes: `lemma.read_lemma`).

Two instances: common.random_instance (integers in [-5, 5], so most entries repeat),
and one whose X entries are integers in [-10^5, 10^5] (most of them distinct), so
that a reading that gains from repeats is also seen where it gains little.  (Larger
distinct integers at this size are refused: their witnesses would pass the checker's
4000 characters.)

With --before DIR (e.g. `git archive COMMIT | tar -x -C DIR`), each measurement runs
in a fresh child process with DIR's checker, in turn with this tree's, round after
round.  The certificates are written by this tree's `bnproof verify`.

Run: python bench/checker_parse.py --before DIR [--repeats N] [--m M] [--d D]"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from common import PY, ROOT, random_instance, write  # noqa: E402

CHILD = """
import sys, time
from bnproof.checker import kernel, lemma, parse
data = open(sys.argv[1], 'rb').read()
def best(f, k=3):
    out = []
    for _ in range(k):
        t = time.process_time(); f(); out.append(time.process_time() - t)
    return min(out)
print(best(lambda: kernel.check_bytes(data, 'c')), best(lambda: lemma.read_lemma(parse.parse(data))))
"""


def distinct_instance(m, d, seed):
    rng = random.Random(seed)
    data = random_instance(m, d, seed)
    data["X"] = [[rng.randint(-10**5, 10**5) for _ in range(d)] for _ in range(m)]
    return data


def certificate(tmp, name, data):
    path, cert = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".cert.json")
    write(path, data)
    proc = subprocess.run([PY, "-m", "bnproof", "verify", "lemma-4.5", "--data", path, "--out", cert,
                           "--no-crosscheck"], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode not in (0, 1, 5):
        raise SystemExit(f"verify failed ({proc.returncode}): {proc.stderr.strip()}")
    return cert


def measure(cert, where):
    env = dict(os.environ, PYTHONPATH=where)
    out = subprocess.run([PY, "-c", CHILD, cert], cwd=where, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), float(out[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True, help="an earlier checkout whose checker runs beside this one")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--m", type=int, default=1000)
    parser.add_argument("--d", type=int, default=64)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    certs = {"small integers": certificate(tmp, "small", random_instance(args.m, args.d, seed=2)),
             "distinct 6-digit X": certificate(tmp, "distinct", distinct_instance(args.m, args.d, 2))}
    trees = {"before": os.path.abspath(args.before), "after": str(ROOT)}
    times = {(c, t): [] for c in certs for t in trees}
    for _ in range(args.repeats):
        for c, cert in certs.items():
            for t, where in trees.items():
                times[c, t].append(measure(cert, where))
    print(f"CPU seconds, median of {args.repeats} interleaved rounds (each the best of 3 in its process)")
    for c in certs:
        med = {t: [statistics.median(x[i] for x in times[c, t]) for i in (0, 1)] for t in trees}
        for i, what in enumerate(("check_bytes", "read_lemma")):
            b, a = med["before"][i], med["after"][i]
            print(f"  {c:<20} {what:<12} before {b:7.3f}  after {a:7.3f}  after/before {a / b:5.2f}")
    print(json.dumps({f"{c} | {t}": times[c, t] for c, t in times}))


if __name__ == "__main__":
    main()
