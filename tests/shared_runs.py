"""Runs that several test files assert on, made once per test process.

Each gallery file (docs/examples/) is searched as the docs promise, and each claim
that survives is proved for every m, by `bnproof.fuzz`: tests/test_gallery.py
checks the verdicts and refutations, then the proofs and the certificates written
(which were made again by `bnproof.prove`, the second largest repeated work of the
suite).  The run of a file is made when a test first asks for it (pytest-xdist may
give that file's tests to two workers: each then makes it once), and a run that
raised is not kept, so that the next test asking for it fails the same way rather
than on a half-made run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

GALLERY_SEARCH = {"seed": 0, "max_examples": 60, "time_budget": 300, "jax": False}  # as docs/claims.md states


@dataclass(frozen=True)
class GalleryRun:
    """One gallery file searched: its claims (as load_file gives them), each claim's
    FuzzResult by id, and the folder its certificates were written to."""

    path: Path
    claims: list
    results: dict
    out: Path


def fuzz_claims(claims, out: Path) -> dict:
    """Each claim searched as the docs promise, certificates written under `out`."""
    import bnproof

    return {claim.id: bnproof.fuzz(claim, out_dir=out, **GALLERY_SEARCH) for claim in claims}


class GalleryRuns:
    def __init__(self, factory):
        self._factory = factory
        self._runs: dict[Path, GalleryRun] = {}

    def made(self, path: Path) -> GalleryRun | None:
        """The file's run if this process has made it already, else None."""
        return self._runs.get(Path(path).resolve())

    def of(self, path: Path) -> GalleryRun:
        path = Path(path).resolve()
        if path not in self._runs:
            from bnproof.claims.api import load_file

            out = self._factory.mktemp(f"gallery-{path.stem}")
            claims = load_file(path)
            self._runs[path] = GalleryRun(path, claims, fuzz_claims(claims, out), out)
        return self._runs[path]


@pytest.fixture(scope="session")
def gallery_runs(tmp_path_factory) -> GalleryRuns:
    return GalleryRuns(tmp_path_factory)
