"""Every certificate the every-m prover writes, as sha256 of its canonical bytes, per
claim and fixed size: every claim of bench/prove_all_m.py's files (the gallery's every-m
files and proofs/), proved once as `bnproof prove` proves it.  Also each attempt's
verdict, reason, hint and normal form (Unicode and LaTeX), so that a change in the
prover's algebra that reaches anything a user sees shows up, not only the certificates.

    python bench/certificate_bytes.py OUT.json [--only SUBSTRING]
    python bench/certificate_bytes.py --compare BEFORE.json AFTER.json

Used to show that moving symbolic_m/poly.py and algebra.py onto python-flint changed
no byte (issue 25)."""

import argparse
import hashlib
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from prove_all_m import files  # noqa: E402


def record(only: str) -> dict:
    from bnproof._api.claims import load
    from bnproof.certificate.io import canonical_bytes
    from bnproof.symbolic_m.prove import prove_claim

    out = {}
    for path in files():
        for claim in load(path):
            if only not in claim.id or claim.id in out:
                continue
            try:
                attempts = prove_claim(claim)
            except Exception as exc:  # noqa: BLE001 - the same failure before and after is what counts
                out[claim.id] = {"error": f"{type(exc).__name__}: {exc}"}
                print(claim.id, "error", exc, flush=True)
                continue
            rows = []
            for a in attempts:
                rows.append({
                    "status": a.status, "reason": a.reason, "fixed": sorted(a.fixed.items()),
                    "hint": a.hint, "equality": a.equality,
                    "normal_form": a.normal_form, "normal_form_latex": a.normal_form_latex,
                    "certificate": None if a.document is None
                    else hashlib.sha256(canonical_bytes(a.document)).hexdigest(),
                })
            out[claim.id] = rows
            print(claim.id, [r["status"] for r in rows], flush=True)
    return out


def compare(before: dict, after: dict) -> int:
    bad = 0
    certificates = sum(1 for rows in before.values() if isinstance(rows, list)
                       for r in rows if r["certificate"])
    for cid in sorted(set(before) | set(after)):
        if before.get(cid) != after.get(cid):
            bad += 1
            print("DIFFERS:", cid)
            print("  before:", json.dumps(before.get(cid))[:600])
            print("  after: ", json.dumps(after.get(cid))[:600])
    print(f"{len(before)} claims, {certificates} certificates compared; {bad} claims differ")
    return 1 if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?")
    parser.add_argument("--only", default="")
    parser.add_argument("--compare", nargs=2)
    args = parser.parse_args()
    if args.compare:
        with open(args.compare[0]) as a, open(args.compare[1]) as b:
            raise SystemExit(compare(json.load(a), json.load(b)))
    with open(args.out, "w") as fh:
        json.dump(record(args.only), fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
