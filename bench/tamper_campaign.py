"""The tamper and hostile-input campaign against the checker, with counts.

For every committed certificate, N mutants (default 1000): changed digits and
signs, swapped, deleted and added fields, another claim id or statement, a
changed verdict, wrong types, huge numbers, injected code, altered programs,
each written with the digest recomputed over the altered content and without;
and at the byte level truncations, wrong digests, non-UTF-8 bytes, deep
nesting and JSON oddities.  Every accepted mutant is judged by an oracle
written with SymPy alone (tests/tamper.py).  tests/test_tamper.py runs a share of
the same sequence (tamper.sample: the first mutant of every kind, and every mutant of
the kinds that found bugs); --sample runs that share here.

    python bench/tamper_campaign.py [--count N] [--seed S] [--by-kind] [--sample]

Exit status 1 if any mutant was wrongly accepted or crashed the checker."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import tamper  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--by-kind", action="store_true", help="also a row per kind of mutation")
    parser.add_argument("--sample", action="store_true",
                        help="only the share of the N mutants that tests/test_tamper.py checks")
    args = parser.parse_args()

    rows, kinds, rejected_by_kind, bad = [], Counter(), Counter(), 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted((ROOT / "certificates").rglob("*.json")):
            start = time.perf_counter()
            t = tamper.campaign(path, args.count, args.seed, Path(tmp),
                                only=tamper.sample if args.sample else None)
            seconds = time.perf_counter() - start
            pwned = (Path(tmp) / "pwned").exists()
            rows.append((str(path.relative_to(ROOT / "certificates")), t.mutants, t.rejected,
                         t.accepted_correct, len(t.wrongly_accepted), len(t.crashes), pwned, seconds))
            kinds.update(t.kinds)
            rejected_by_kind.update(t.by_kind)
            bad += len(t.wrongly_accepted) + len(t.crashes) + pwned
            for kind, line in t.wrongly_accepted + t.crashes:
                print(f"!! {path.name} {kind}: {line}")

    head = ("certificate", "mutants", "rejected", "accepted (correct)", "wrongly accepted", "crashes",
            "ran code", "s")
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for name, *counts, pwned, seconds in rows:
        print(f"| {name} | " + " | ".join(map(str, counts)) + f" | {'yes' if pwned else 'no'} | {seconds:.1f} |")
    totals = [sum(r[i] for r in rows) for i in range(1, 6)]
    print("| **all** | " + " | ".join(map(str, totals)) + f" | no | {sum(r[7] for r in rows):.1f} |")
    if args.by_kind:
        print("\n| mutation | mutants | rejected |\n|---|---|---|")
        for kind in sorted(kinds):
            print(f"| {kind} | {kinds[kind]} | {rejected_by_kind[kind]} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
