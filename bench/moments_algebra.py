"""The expectations' moment algebra (claims/moments.py) as of --old-rev against the
current one, side by side in one run: the claims that call xp.expect or xp.var
(docs/examples/expectations.py, every_n_moments.py, published/folklore.py,
published/ioffe2015.py), each at the smallest and largest of its declared sizes.

Three measures per claim and sizes, each the whole operation the user waits for:
  trace    the claim traced into its program (the moment algebra runs here);
  decide   exact decisions of random small-rational instances, each tracing anew;
  prove    claims.prove.prove_at, the proof at fixed sizes (trace + radicals).
The old module is loaded beside the current one (git show) and swapped in where
claims/xp.py looks it up; the traced programs must be identical step for step and
the verdicts and proof statuses equal (the bench stops otherwise).  Rounds
alternate old and new; CPU seconds (process_time), medians.

    python bench/moments_algebra.py [--old-rev 9ced5e3] [--repeats 7] [--instances 5] [--trace-loops 10]
"""

import argparse
import importlib.util
import itertools
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
from bnproof.claims import moments as new_moments  # noqa: E402
from bnproof.claims import xp as xp_module  # noqa: E402
from bnproof.claims.api import Claim  # noqa: E402
from bnproof.claims.prove import prove_at  # noqa: E402

FILES = ("docs/examples/expectations.py", "docs/examples/every_n_moments.py",
         "docs/examples/published/folklore.py", "docs/examples/published/ioffe2015.py")


def old_module(rev: str):
    return module_at(rev, "bnproof/claims/moments.py", "bnproof.claims._old_moments")


def claims_of(path: str):
    spec = importlib.util.spec_from_file_location(f"_bench_{Path(path).stem}", ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [v for v in vars(module).values() if isinstance(v, Claim)]


def size_grid(claim):
    """The smallest and the largest of each declared size, every combination."""
    names = sorted(claim.sizes)
    ends = [sorted({lo, hi}) for lo, hi in (claim.sizes[k] for k in names)]
    return [dict(zip(names, combo)) for combo in itertools.product(*ends)]


def instances(claim, sizes, count, rng):
    def entry(positive):
        value = Fraction(rng.randint(-6, 6), rng.choice((1, 2, 3)))
        return abs(value) + 1 if positive else value

    def nested(shape, positive):
        return [nested(shape[1:], positive) for _ in range(shape[0])] if shape else entry(positive)

    return [{v.name: nested(list(claim.shape_of(v, sizes)), v.domain == "positive" or v.name.endswith("_weights"))
             for v in claim.variables} for _ in range(count)]


def using(module):
    xp_module.moments = module  # claims/xp.py reads moments.expect/var at each namespace


def expectation_cases():
    """(claim, sizes) whose trace runs the moment algebra."""
    calls = []
    real = new_moments._polynomials

    def spy(*args):
        calls.append(1)
        return real(*args)

    new_moments._polynomials = spy
    try:
        cases = []
        for path in FILES:
            for claim in claims_of(path):
                for sizes in size_grid(claim):
                    calls.clear()
                    try:
                        decide_module.trace(claim, sizes)
                    except Exception:  # noqa: BLE001 - a size the claim refuses is not benched
                        continue
                    if calls:
                        cases.append((claim, sizes))
        return cases
    finally:
        new_moments._polynomials = real


def measure(module, claim, sizes, batch, loops):
    using(module)
    t0 = time.process_time()
    for _ in range(loops):  # a trace is about a millisecond: several per round, or the clock's noise wins
        traced = decide_module.trace(claim, sizes)
    t1 = time.process_time()
    verdicts = [decide_module.decide(claim, i).verdict for i in batch]
    t2 = time.process_time()
    proof = prove_at(claim, sizes)
    t3 = time.process_time()
    return ((t1 - t0) / loops, (t2 - t1) / len(batch), t3 - t2), (traced, verdicts, proof.status)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old-rev", default="9ced5e3")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--instances", type=int, default=5)
    ap.add_argument("--trace-loops", type=int, default=10)
    args = ap.parse_args()
    old = old_module(args.old_rev)
    cases = expectation_cases()
    rng = random.Random(0)
    print(f"CPU ms, medians of {args.repeats} interleaved rounds (old: claims/moments.py at {args.old_rev}; "
          f"trace: per trace, {args.trace_loops} a round; decide: per instance, {args.instances} instances)")
    print(f"  {'claim':<58} {'sizes':<9} {'trace old/new':>15} {'decide old/new':>16} {'prove old/new':>16}")
    totals = {"old": [0.0, 0.0, 0.0], "new": [0.0, 0.0, 0.0]}
    try:
        for claim, sizes in cases:
            batch = instances(claim, sizes, args.instances, rng)
            times = {"old": [], "new": []}
            for _ in range(args.repeats):
                t_old, r_old = measure(old, claim, sizes, batch, args.trace_loops)
                t_new, r_new = measure(new_moments, claim, sizes, batch, args.trace_loops)
                if r_old != r_new:
                    raise SystemExit(f"{claim.id} at {sizes}: old and new differ (program, verdicts or proof)")
                times["old"].append(t_old)
                times["new"].append(t_new)
            med = {k: [statistics.median(t[j] for t in v) for j in range(3)] for k, v in times.items()}
            for k in totals:
                totals[k] = [a + b for a, b in zip(totals[k], med[k])]
            size_text = ",".join(f"{k}={v}" for k, v in sizes.items())
            cells = [f"{med['old'][j] * 1e3:7.2f}/{med['new'][j] * 1e3:<7.2f}" for j in range(3)]
            print(f"  {claim.id:<58} {size_text:<9} {cells[0]:>15} {cells[1]:>16} {cells[2]:>16}")
    finally:
        using(new_moments)
    ratios = [o / n for o, n in zip(totals["old"], totals["new"])]
    print(f"sums over {len(cases)} cases, old/new ms: trace {totals['old'][0] * 1e3:.1f}/{totals['new'][0] * 1e3:.1f} "
          f"({ratios[0]:.2f}x), decide {totals['old'][1] * 1e3:.1f}/{totals['new'][1] * 1e3:.1f} ({ratios[1]:.2f}x), "
          f"prove {totals['old'][2] * 1e3:.1f}/{totals['new'][2] * 1e3:.1f} ({ratios[2]:.2f}x); "
          "every program, verdict and proof status identical")


if __name__ == "__main__":
    main()
