"""Issue 23's measurement, on our proxy of the reviewers' held-out set: published TRUE
claims (docs/examples/published/, one file per paper), each given to `bnproof.prove`
one by one.  Prints a table (claim, status, blocking construct, time), the proportion
proved for every m (and for every d where d is a size), and the count of false
proofs: a claim `prove` proved that `bnproof.fuzz` refutes (there must be none; the
set is true, so a refutation would also mean a wrong encoding).

    python bench/heldout.py [--json] [--budget 60] [--fuzz-examples 40] [-k SUBSTRING] [--in-process]

Each proof runs in a worker process killed when its budget is spent (isolate=True), so
the time column includes about 1.5 s of process start-up per claim.

Status:
  every m          proved for every m (the claim has no other size)
  every m and d    proved for every m and every value of its other sizes
  fixed sizes      proved for every m, but only at the fixed sizes tried (d = 1, 2, 3)
  not proved       anything else: the blocking construct is prove's own message
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bnproof  # noqa: E402

SET = ROOT / "docs" / "examples" / "published"
EVERY_M, EVERY_M_D, FIXED, NOT_PROVED = "every m", "every m and d", "fixed sizes", "not proved"


def claims(substring: str = "") -> list:
    """Every claim of the set, file by file, in a stable order."""
    out = []
    for path in sorted(SET.glob("*.py")):
        out.extend(c for c in bnproof.load(str(path)) if substring in c.id)
    return out


def law_sizes(claim) -> set:
    """The sizes that only count a Law's support points (X_support of shape (k,), ...)."""
    laws = {v.name[:-len("_support")] for v in claim.variables if v.name.endswith("_support")}
    points = {v.shape[0] for v in claim.variables
              if any(v.name in (f"{law}_support", f"{law}_weights") for law in laws) and v.shape}
    others = {s for v in claim.variables if not any(v.name in (f"{law}_support", f"{law}_weights")
                                                   for law in laws) for s in v.shape}
    return {s for s in points if isinstance(s, str)} - others


def every_law(result) -> bool:
    """A moments-n proof is one proof for every law (the moments are independent symbols):
    `prove` repeats it at each number of support points k, with the same program and
    proof, so "at k = 1, 2, 3" is no restriction.  Checked, not assumed."""
    texts = [json.loads(t) for t in result.certificate_texts]
    if not texts or any(t["proof"].get("method") != "moments-n" for t in texts):
        return False
    if any(t["program"] != texts[0]["program"] for t in texts):
        return False
    sizes = law_sizes(result.claim)
    return all(set(fixed) <= sizes for fixed in result.covered)


def status_of(result) -> str:
    """One of the four statuses, from a ProveResult."""
    if result.status != "proved":
        return NOT_PROVED
    if "every m and every d" in result.text:  # proof method every-d: one proof, covered [{}]
        return EVERY_M_D
    if not result.covered or result.covered == [{}] or every_law(result):
        return EVERY_M
    return FIXED


def blocker_of(result) -> str:
    """What stopped the proof, in prove's own words (empty when proved)."""
    if result.status == "proved":
        return ""
    if result.status == "proved-partly":
        return result.text
    return result.blocked_by or result.text


def measure(claim, budget: float, fuzz_examples: int, isolate: bool = True) -> dict:
    start = time.perf_counter()
    try:
        # isolate: a worker process killed when the budget is spent (in-process, prove keeps
        # its budget only between fixed sizes, and one search can run far past it)
        result = bnproof.prove(claim, time_budget=budget, isolate=isolate)
        row = {"status": status_of(result), "prove_status": result.status, "text": result.text,
               "blocked_by": blocker_of(result), "hint": result.hint}
    except bnproof.BnproofError as err:  # bad input or an internal error: a prover defect, recorded
        row = {"status": NOT_PROVED, "prove_status": f"error (exit {err.exit_code})", "text": str(err),
               "blocked_by": f"error: {err}", "hint": None}
    row["seconds"] = round(time.perf_counter() - start, 2)
    row["refuted"] = None
    if row["status"] != NOT_PROVED and fuzz_examples:
        # A proof of a claim that a certified counterexample refutes is a false proof.
        found = bnproof.fuzz(claim, seed=0, max_examples=fuzz_examples, jax=False, prove=False,
                             time_budget=max(budget, 30.0))
        row["refuted"] = found.verdict == "refuted"
        row["fuzz"] = found.verdict
    return {"claim": claim.id, "source": claim.source, **row}


def table(rows: list) -> str:
    width = max(len(r["claim"]) for r in rows)
    lines = [f"{'claim':{width}}  {'status':13}  {'time (s)':>8}  blocking construct"]
    for r in rows:
        blocked = r["blocked_by"].replace("\n", " ")
        if r["refuted"]:
            blocked = "FALSE PROOF: fuzz refutes it. " + blocked
        lines.append(f"{r['claim']:{width}}  {r['status']:13}  {r['seconds']:8.2f}  {blocked}")
    return "\n".join(lines)


def summary(rows: list) -> dict:
    total = len(rows)
    count = {s: sum(r["status"] == s for r in rows) for s in (EVERY_M, EVERY_M_D, FIXED, NOT_PROVED)}
    every = count[EVERY_M] + count[EVERY_M_D]
    return {"claims": total, **count,
            "proved_for_every_m": every, "proportion_every_m": round(every / total, 4) if total else 0.0,
            "proved_counting_fixed_d": every + count[FIXED],
            "proportion_counting_fixed_d": round((every + count[FIXED]) / total, 4) if total else 0.0,
            "false_proofs": sum(bool(r["refuted"]) for r in rows),
            "seconds": round(sum(r["seconds"] for r in rows), 1)}


def commit() -> str:
    """The commit measured, with "+ changes" when the working tree differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (" + uncommitted changes" if dirty else "")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object: rows and summary")
    parser.add_argument("--budget", type=float, default=60.0, help="prove's time budget per claim (s)")
    parser.add_argument("--fuzz-examples", type=int, default=40,
                        help="examples of the fuzz that looks for a false proof (0: skip it)")
    parser.add_argument("-k", default="", help="only the claims whose id contains this")
    parser.add_argument("--in-process", action="store_true",
                        help="prove in this process (faster; the budget is then kept only between fixed sizes)")
    args = parser.parse_args(argv)
    os.environ.setdefault("BNPROOF_NO_PROGRESS", "1")
    rows = []
    for claim in claims(args.k):
        rows.append(measure(claim, args.budget, args.fuzz_examples, isolate=not args.in_process))
        if not args.json:
            r = rows[-1]
            print(f"  {r['claim']}: {r['status']} ({r['seconds']} s)", file=sys.stderr, flush=True)
    result = summary(rows)
    result["commit"] = commit()
    if args.json:
        print(json.dumps({"rows": rows, "summary": result}, indent=1, ensure_ascii=False))
    else:
        print(table(rows))
        print()
        print(f"proved for every m (every d too where d is a size): {result['proved_for_every_m']} / "
              f"{result['claims']} = {100 * result['proportion_every_m']:.1f} %")
        print(f"counting the proofs at fixed d = 1, 2, 3 only: {result['proved_counting_fixed_d']} / "
              f"{result['claims']} = {100 * result['proportion_counting_fixed_d']:.1f} %")
        print(f"false proofs (proved, and refuted by fuzz): {result['false_proofs']}")
        print(f"total time: {result['seconds']} s (at {result['commit']})")
    return 1 if result["false_proofs"] else 0


if __name__ == "__main__":
    sys.exit(main())
