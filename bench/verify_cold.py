"""Cold wall time of `bnproof verify lemma-4.5` against a plain SymPy script
doing the same derivation naively (build Ĉ, diff, subs, simplify), and of
`bnproof check` against the bare checker (`python -m bnproof.checker`), all
measured side by side, interleaved, in one run.  Prints medians and each
ratio against its goal (issue 14: verify --no-crosscheck ≤ 0.5× the naive
script, with the cross-check ≤ 1.4×, check ≤ 1.5× the bare checker).

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
    committed = os.path.join(os.path.dirname(__file__), "..", "certificates", "lemma-4.5.json")
    check = [PY, "-m", "bnproof", "check", committed]
    checker = [PY, "-m", "bnproof.checker", committed]
    rows = dict(interleaved_medians([("bnproof verify lemma-4.5", full),
                                     ("bnproof verify lemma-4.5 --no-crosscheck", exact_only),
                                     ("naive SymPy script", naive),
                                     ("bnproof check certificates/lemma-4.5.json", check),
                                     ("python -m bnproof.checker (same file)", checker)], args.repeats))
    print(f"cold wall time, median of {args.repeats} interleaved rounds (Example 3.2)")
    for label, t in rows.items():
        print(f"  {label:<45} {t:7.3f} s")
    naive_t, checker_t = rows["naive SymPy script"], rows["python -m bnproof.checker (same file)"]
    print("ratios (this / baseline; goal)")
    for label, base, base_name, goal in [
            ("bnproof verify lemma-4.5 --no-crosscheck", naive_t, "naive", 0.5),
            ("bnproof verify lemma-4.5", naive_t, "naive", 1.4),
            ("bnproof check certificates/lemma-4.5.json", checker_t, "bare checker", 1.5)]:
        ratio = rows[label] / base
        print(f"  {label:<45} {ratio:5.2f}x {base_name}   goal <= {goal}x: {'met' if ratio <= goal else 'MISSED'}")

if __name__ == "__main__":
    main()
