"""Cold wall time of `bnproof verify lemma-4.5` against a plain SymPy script
doing the same derivation naively (build Ĉ, diff, subs, simplify), measured
side by side, interleaved, in one run.  Prints medians and the ratio.

Run: python bench/verify_cold.py [--repeats N]"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from common import PY, interleaved_medians, write  # noqa: E402

EXAMPLE = {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp()
    data = os.path.join(tmp, "example.json")
    write(data, EXAMPLE)
    out = os.path.join(tmp, "cert.json")
    naive = [PY, os.path.join(os.path.dirname(__file__), "naive_sympy.py"), data]
    full = [PY, "-m", "bnproof", "verify", "lemma-4.5", "--out", out]
    exact_only = full + ["--no-crosscheck"]
    rows = interleaved_medians([("bnproof verify lemma-4.5", full),
                                ("bnproof verify lemma-4.5 --no-crosscheck", exact_only),
                                ("naive SymPy script", naive)], args.repeats)
    base = rows[-1][1]
    print(f"cold wall time, median of {args.repeats} (Example 3.2)")
    for label, t in rows:
        print(f"  {label:<45} {t:7.3f} s   naive/this = {base / t:5.2f}x")


if __name__ == "__main__":
    main()
