"""The names of the papers' claims as `bnproof list` and `fuzz` show them: every id and
alias in proofs/*/*.py (tests/test_binding.py checks that this table lists them all).

A certificate may not refute a paper's claim on a program's word, under any name a
person would read as that claim's: case, slashes, dots, dashes and other punctuation
are ignored when names are compared, and every name in a paper's namespace
(santurkar2018/..., dannemann2025/...) is reserved, claim or not."""

NAMESPACES = ("santurkar2018", "dannemann2025")
CLAIMS = {  # id: its aliases
    "santurkar2018/fact-c.1": ("fact-c.1",),
    "santurkar2018/fact-c.2": ("fact-c.2",),
    "santurkar2018/fact-c.2/eq-2": ("fact-c.2/eq-2",),
    "santurkar2018/lemma-4.5": ("lemma-4.5",),
    "santurkar2018/observation-4.3": ("observation-4.3",),
    "santurkar2018/observation-4.3/minima-preserved": ("observation-4.3/minima-preserved",),
    "santurkar2018/theorem-4.1": ("theorem-4.1",),
    "santurkar2018/theorem-4.1/as-derived": ("theorem-4.1/as-derived",),
    "santurkar2018/theorem-4.2": ("theorem-4.2",),
    "santurkar2018/theorem-4.2/part-2": ("theorem-4.2/part-2",),
    "santurkar2018/theorem-4.4": ("theorem-4.4",),
    "santurkar2018/theorem-4.4/as-derived": ("theorem-4.4/as-derived",),
    "santurkar2018/theorem-c.1": ("theorem-c.1",),
    "dannemann2025/example-3.2/global-minimum": ("example-3.2/global-minimum",),
    "dannemann2025/example-3.2/gradient": ("example-3.2/gradient",),
    "dannemann2025/example-3.2/not-a-bn-optimum": ("example-3.2/not-a-bn-optimum",),
    "dannemann2025/example-3.2/ray": ("example-3.2/ray",),
    "dannemann2025/remark-2.7": ("remark-2.7",),
    "dannemann2025/remark-2.7/corrected": ("remark-2.7/corrected",),
}


def reading(name: str) -> str:
    """A name as a person reads it: lower case, ASCII letters and digits only."""
    return "".join(ch for ch in name.lower() if ch in "abcdefghijklmnopqrstuvwxyz0123456789")


NAMES = {reading(name): cid for cid, aliases in CLAIMS.items() for name in (cid, *aliases)}


def paper_claim(name: str) -> str | None:
    """The id of the paper's claim this name reads as, "" for any other name in a
    paper's namespace, None for a name that is no paper's."""
    key = reading(name)
    if key in NAMES:
        return NAMES[key]
    return "" if key.startswith(NAMESPACES) else None
