"""How a paper's report sorts and labels its claims: the numbered label a claim's
source names, and the row of the summary a result falls in.  Below the report's
API (_api/report.py) and its text (paper_report.py), which both use them."""

from __future__ import annotations

import re

# "Theorem 4.1", "Fact C.2", "Example 3.2", "Lemma 4.5": the numbered label a claim's source names
LABEL = re.compile(r"\b(Theorem|Lemma|Proposition|Corollary|Observation|Fact|Remark|Example|Definition|"
                   r"Claim|Equation|Eq\.|Section|Algorithm|Assumption)\s+\(?([A-Z]?)\.?(\d+(?:\.\d+)*)",
                   re.I)


def verdict_key(result) -> str:
    """The row of the summary a result falls in: refuted, proved (for every m, at every
    declared size), proved-partly, verified-exactly, survived, vacuous, undecided."""
    if result.verdict == "refuted":
        return "refuted"
    proof = result.proof
    status = getattr(proof, "status", None)
    if status == "proved":
        return "proved"
    if status == "proved-partly" and result.verdict != "verified-exactly":
        return "proved-partly"
    return result.verdict
