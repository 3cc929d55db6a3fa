"""A claim's declared sizes as part of its statement: an instance, a certificate or
a proof at sizes outside the ranges the claim declares is none of the claim's
(a refutation at m = 3 of a claim that fixes m = 2 refutes a claim nobody made)."""

from __future__ import annotations


def size_outside(claim, size: str, n) -> str | None:
    """"m = 3, outside the sizes claim C declares (m = 2 only)", or None when n is in the
    claim's declared range: the sizes are part of the statement, so an instance outside
    them is not an instance of the claim (it would refute what the claim never says)."""
    declared = claim.sizes.get(size)
    if declared is None:
        return f"size {size} = {n}, which claim {claim.id} does not declare"
    lo, hi = declared
    if not lo <= n <= hi:
        return f"{size} = {n}, outside the sizes claim {claim.id} declares ({range_text(size, lo, hi)})"
    return None


def range_text(size: str, lo, hi) -> str:
    """"m = 2 only", "m from 2 to 6"."""
    return f"{size} = {lo} only" if lo == hi else f"{size} from {lo} to {hi}"


def sizes_difference(claim, sizes, what: str = "the certificate is at") -> str | None:
    """Why a certificate's sizes are not the claim's, or None: each must lie in the range
    the claim declares, since the sizes are part of the statement (a refutation at m = 3
    of a claim that fixes m = 2 refutes a claim nobody made)."""
    if not isinstance(sizes, dict):
        return None  # the checker has read the document: never the case
    for name in sorted(sizes):
        problem = size_outside(claim, name, sizes[name])
        if problem is not None:
            return f"{what} {problem}"
    return None
