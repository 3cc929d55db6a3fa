"""Proof for every m (bnproof.symbolic_m) against the fixed-size prover at m = 6
(bnproof.claims.prove.prove_at), per paper claim, side by side in one run.

Both sides run the whole proof: trace, normal form / field reduction, the exact
witness, and (for every m) the independent checker's replay of the certificate.
Pairs are interleaved and the medians compared, because the machine is shared and
noisy ("first" is the first proof for every m in this process, before any cache
of the claim's traces is warm).  The fixed-size prover proves identities only, so
an inequality has no fixed-size figure.

    python bench/prove_all_m.py [--repeats 5] [--m 6]
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bnproof.claims.api import named  # noqa: E402
from bnproof.claims.prove import prove_at  # noqa: E402
from bnproof.symbolic_m.prove import attempt  # noqa: E402

CLAIMS = [  # (id, fixed sizes)
    ("santurkar2018/theorem-4.1/as-derived", {}),
    ("santurkar2018/theorem-4.2", {}),
    ("santurkar2018/theorem-4.2/part-2/corrected", {}),
    ("santurkar2018/theorem-4.4/intended", {}),
    ("santurkar2018/observation-4.3", {"d": 2}),
    ("santurkar2018/fact-c.1", {}),
    ("santurkar2018/fact-c.2", {}),
    ("santurkar2018/fact-c.2/eq-2", {}),
    ("dannemann2025/remark-2.7/corrected", {}),
]


def timed(f):
    start = time.perf_counter()
    result = f()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--m", type=int, default=6)
    args = parser.parse_args()
    print(f"{'claim':46} {'first (s)':>10} {'every m (s)':>12} {'m = ' + str(args.m) + ' (s)':>12} {'ratio':>8}")
    for claim_id, fixed in CLAIMS:
        claim = named(claim_id)
        every, sized = [], []
        identity = claim.kind == "identity"
        for _ in range(args.repeats):  # interleaved pairs
            seconds, result = timed(lambda: attempt(claim, fixed))
            assert result.proved, result.reason
            every.append(seconds)
            if identity:
                seconds, result = timed(lambda: prove_at(claim, {**fixed, "m": args.m}))
                assert result.proved, result.reason
                sized.append(seconds)
        e = statistics.median(every)
        if sized:
            s = statistics.median(sized)
            print(f"{claim_id:46} {every[0]:10.3f} {e:12.3f} {s:12.3f} {e / s:8.3f}")
        else:
            print(f"{claim_id:46} {every[0]:10.3f} {e:12.3f} {'n/a':>12} {'n/a':>8}  (an inequality)")


if __name__ == "__main__":
    main()
