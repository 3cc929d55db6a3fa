"""Exact decisions (claims.decide) on python-flint fmpq against the stdlib-Fraction
engine they replaced, side by side in one run.

The old engine is bnproof/program/evaluate.py as of --old-rev (git show), loaded
beside the current one; both decide the same traced programs on the same
random small-rational instances of every refuted paper claim at its sizes, and
of Theorem 4.1 and Remark 2.7 at m = 64 and m = 256.  Verdicts must agree
(the bench stops otherwise).  Rounds alternate old and new; CPU seconds
(process_time, less noisy than wall time on a shared machine), medians.

    python bench/exact_decisions.py [--old-rev a47610d] [--repeats 5] [--instances 20]
"""

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from common import module_at  # noqa: E402

from bnproof.claims import decide as decide_module  # noqa: E402
from bnproof.claims.api import all_claims, resolve  # noqa: E402
from bnproof.search import record  # noqa: E402


def old_engine(rev: str):
    return module_at(rev, "bnproof/program/evaluate.py", "bnproof.program._old_evaluate")


def instances(claim, sizes, count, rng):
    def entry():
        return Fraction(rng.randint(-12, 12), rng.choice((1, 2, 3, 4, 6)))

    def nested(shape):
        return [nested(shape[1:]) for _ in range(shape[0])] if shape else entry()

    out = []
    for _ in range(count):
        inst = {v.name: nested(list(claim.shape_of(v, sizes))) for v in claim.variables}
        for v in claim.variables:  # the declared domains
            if v.domain in ("positive", "nonzero"):
                inst[v.name] = _fix(inst[v.name], v.domain)
            if v.domain == "symmetric":
                M = inst[v.name]
                inst[v.name] = [[M[min(i, j)][max(i, j)] for j in range(len(M))] for i in range(len(M))]
        out.append(inst)
    return out


def _fix(value, domain):
    if isinstance(value, list):
        return [_fix(v, domain) for v in value]
    if domain == "positive":
        return abs(value) + 1
    return value or Fraction(1)


def timed(claim, traced, batch, evaluator_class):
    decide_module.Evaluator = evaluator_class  # decide() looks the class up at call time
    start = time.process_time()
    verdicts = [decide_module.decide(claim, i, traced=traced).verdict for i in batch]
    return time.process_time() - start, verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old-rev", default="a47610d")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--instances", type=int, default=20)
    args = ap.parse_args()
    old = old_engine(args.old_rev)
    new_class = decide_module.Evaluator
    verdicts = record.load()
    cases = [(c, s) for c in all_claims() if verdicts.get(c.id, {}).get("verdict") == "refuted" and c.variables
             for s in [{k: lo for k, (lo, _) in c.sizes.items()}]]
    cases += [(resolve("theorem-4.1")[0], {"m": 64}), (resolve("remark-2.7")[0], {"m": 256})]
    print(f"CPU ms per exact decision, medians of {args.repeats} interleaved rounds of "
          f"{args.instances} instances (old: evaluate.py at {args.old_rev}, stdlib Fraction)")
    print(f"  {'claim':<50} {'sizes':<10} {'Fraction':>9} {'fmpq':>8} {'old / new':>10}")
    rng = random.Random(0)
    ratios = []
    try:
        for claim, sizes in cases:
            traced = decide_module.trace(claim, sizes)
            batch = instances(claim, sizes, args.instances, rng)
            times = {"old": [], "new": []}
            for _ in range(args.repeats):
                t_old, v_old = timed(claim, traced, batch, old.Evaluator)
                t_new, v_new = timed(claim, traced, batch, new_class)
                if v_old != v_new:
                    raise SystemExit(f"{claim.id}: the engines disagree: {v_old} vs {v_new}")
                times["old"].append(t_old / len(batch))
                times["new"].append(t_new / len(batch))
            o, n = statistics.median(times["old"]), statistics.median(times["new"])
            ratios.append(o / n)
            size_text = ",".join(f"{k}={v}" for k, v in sizes.items())
            print(f"  {claim.id:<50} {size_text:<10} {o * 1e3:9.3f} {n * 1e3:8.3f} {o / n:9.2f}x")
    finally:
        decide_module.Evaluator = new_class
    print(f"old / new: {min(ratios):.2f}x to {max(ratios):.2f}x (every verdict identical)")


if __name__ == "__main__":
    main()
