"""Which claim a proof certificate may name, for every proof method (proof.py,
every_d.py, moments_n.py): one clean output line, never a name of the papers'
claims but a claim's exact id, nor a claim that bnproof's committed certificates
refute (a zero program would "prove" it)."""

from __future__ import annotations

from .papers import paper_claim
from .parse import Rejected, claim_texts

# the papers' claims that their committed certificates refute: no proof of them exists
REFUTED = {"dannemann2025/remark-2.7", "santurkar2018/lemma-4.5",
           "santurkar2018/observation-4.3/minima-preserved", "santurkar2018/theorem-4.1",
           "santurkar2018/theorem-4.2/part-2", "santurkar2018/theorem-4.2/part-2/gamma-below-sigma",
           "santurkar2018/theorem-4.4",
           "santurkar2018/theorem-4.4/as-derived", "santurkar2018/theorem-c.1"}


def named(claim: dict, kinds=()) -> None:
    """Rejects the claim unless it may be proved (the module's rule); with kinds, its kind too."""
    claim_texts(claim, kinds)
    cid = claim["id"]
    paper = paper_claim(cid)
    if paper is not None and paper != cid:
        raise Rejected(f"claim {cid}: reads as the name of a claim of the papers"
                       + (f" ({paper})" if paper else "") + "; only its exact id can be proved")
    if cid in REFUTED:
        raise Rejected(f"claim {cid}: a claim of the papers that bnproof's certificates refute")
