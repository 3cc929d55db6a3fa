"""A claim's source, shortened for a listing: the authors and year, then where in
the paper, without the title ("Santurkar et al. (2018), Lemma 4.5, p. 8")."""

from __future__ import annotations


def parts(source: str) -> list[str]:
    """The source's comma-separated parts; a comma inside parentheses ("(the proof's
    condition γ ≤ σ, strict)") belongs to its part."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(source):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append(source[start:k].strip())
            start = k + 1
    out.append(source[start:].strip())
    return out


def short_source(source: str) -> str:
    """The authors and year, and the next two parts after the title (the claim, the page),
    whole: a parenthesis is never cut."""
    pieces = parts(source)
    return pieces[0] + ", " + ", ".join(pieces[2:4])
