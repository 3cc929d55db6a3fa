"""The closest known names to a claim name that names nothing: "did you mean …?".

Every command that takes a claim id says which known ids and aliases are
nearest to a mistyped one (difflib's ratio, case ignored), so that a typo costs
one look at the message rather than a trip through `bnproof list`.
"""

from __future__ import annotations

import difflib
from typing import Iterable

CUTOFF = 0.6  # difflib's default: "lema-4.5" finds lemma-4.5, "xyz" finds nothing
MOST = 3
NEAR_BEST = 0.5  # in edits: only the names about as close as the closest (theorem-4.1 for theorm-4.1, not theorem-4.2)


def names_of(claims) -> list[str]:
    """What a user may type for these claims: each id, each alias, and each paper's
    prefix (santurkar2018), which fuzz and prove take for all of its claims."""
    out: dict[str, None] = {}
    for c in claims:
        for name in (c.id, *c.aliases):
            out[name] = None
        if "/" in c.id:
            out[c.id.split("/", 1)[0]] = None
    return list(out)


def closest(name: str, candidates: Iterable[str]) -> list[str]:
    """The candidates nearest to `name`, best first (at most MOST)."""
    by_lower: dict[str, str] = {}
    for c in candidates:
        by_lower.setdefault(c.lower(), c)
    typed = str(name).lower()
    scored = []
    for lower, original in by_lower.items():
        matcher = difflib.SequenceMatcher(None, typed, lower)
        if matcher.real_quick_ratio() >= CUTOFF and matcher.quick_ratio() >= CUTOFF:
            ratio = matcher.ratio()
            if ratio >= CUTOFF:
                # about the characters to change: comparable between long and short names
                scored.append(((1 - ratio) * (len(typed) + len(lower)) / 2, original))
    if not scored:
        return []
    scored.sort()
    return [n for edits, n in scored if edits <= scored[0][0] + NEAR_BEST][:MOST]


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """"; did you mean lemma-4.5?" (or "a, b or c?"), or "" when nothing is close."""
    found = closest(name, candidates)
    if not found:
        return ""
    listed = found[0] if len(found) == 1 else ", ".join(found[:-1]) + f" or {found[-1]}"
    return f"; did you mean {listed}?"


def unknown_claim(name: str, candidates: Iterable[str], hint: str = "`bnproof list` shows every claim") -> str:
    """The one-line message for a claim name that names nothing, with the nearest of
    `candidates` (every known claim's names: names_of(claims.api.all_claims()))."""
    return f"unknown claim {name!r}{did_you_mean(name, candidates)} ({hint})"
