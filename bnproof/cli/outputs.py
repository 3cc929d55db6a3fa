"""Where commands write, by one rule (docs/cli.md, "Output files").

Every file a command writes goes where its -o/--out (a file) or --out-dir (a
folder) names; by default into bnproof-out/ in the working folder, created when
needed: verify's certificate, fuzz's and prove's certificates, study's and scan's
failures as verify --data files.  The committed certificates/ and
proofs/verdicts.json change only with --record.  Files are read where they were
ever written: a claim id names its committed certificate, and a path is read as
given, bnproof-out/ or an older ./certificates/ alike.
"""

from __future__ import annotations

from pathlib import Path

OUT_DIR = "bnproof-out"


def default(name: str) -> Path:
    """bnproof-out/NAME in the working folder."""
    return Path(OUT_DIR) / name
