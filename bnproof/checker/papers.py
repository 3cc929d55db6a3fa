"""The names of the papers' claims as `bnproof list` and `fuzz` show them: every id and
alias in proofs/*/*.py (tests/test_binding.py checks that this table lists them all).

A certificate may not refute a paper's claim on a program's word, under any name a
person would read as that claim's: case, slashes, dots, dashes and other punctuation
are ignored when names are compared, and every name in a paper's namespace
(santurkar2018/..., dannemann2025/...) or naming one of its authors is reserved,
claim or not."""

import html
import re
import unicodedata
from urllib.parse import unquote

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
    "santurkar2018/theorem-4.2/part-2/corrected": ("theorem-4.2/part-2/corrected",),
    "santurkar2018/theorem-4.2/part-2/gamma-below-sigma": ("theorem-4.2/part-2/gamma-below-sigma",),
    "santurkar2018/theorem-4.4": ("theorem-4.4",),
    "santurkar2018/theorem-4.4/as-derived": ("theorem-4.4/as-derived",),
    "santurkar2018/theorem-4.4/intended": ("theorem-4.4/intended",),
    "santurkar2018/theorem-c.1": ("theorem-c.1",),
    "dannemann2025/example-3.2/global-minimum": ("example-3.2/global-minimum",),
    "dannemann2025/example-3.2/gradient": ("example-3.2/gradient",),
    "dannemann2025/example-3.2/not-a-bn-optimum": ("example-3.2/not-a-bn-optimum",),
    "dannemann2025/example-3.2/ray": ("example-3.2/ray",),
    "dannemann2025/remark-2.7": ("remark-2.7",),
    "dannemann2025/remark-2.7/corrected": ("remark-2.7/corrected",),
}


# how a name is read, beyond case and punctuation: escapes decoded (theorem%2D4.1,
# theorem&#45;4.1), look-alike characters folded (the0rem-4.l), leading zeros dropped
# (theorem-04.01) and the usual abbreviations expanded (thm-4.1)
ABBREVIATIONS = {"thm": "theorem", "th": "theorem", "theo": "theorem", "theor": "theorem",
                 "thrm": "theorem", "lem": "lemma", "lma": "lemma", "obs": "observation",
                 "obsv": "observation", "rem": "remark", "rmk": "remark", "ex": "example",
                 "eg": "example", "exa": "example", "expl": "example"}
# the papers' authors: a name that cites them (santurkar-et-al-2018/theorem-4.1,
# dannemann-junike/remark-2.7) is a paper's name, reserved like its namespace
AUTHORS = ("santurkar", "tsipras", "ilyas", "madry", "dannemann", "junike")
LOOK_ALIKE = str.maketrans("0il", "o11")


def reading(name: str) -> str:
    """A name as a person reads it: escapes decoded, compatibility characters folded,
    lower case, leading zeros and abbreviations normalized, ASCII letters and digits
    only, look-alikes (0 and o, 1, i and l) made one."""
    for _ in range(4):  # %252D reads as %2D reads as -; each round only shortens the text
        name = html.unescape(unquote(name))
    name = unicodedata.normalize("NFKC", name).lower()
    name = re.sub(r"[0-9]+", lambda m: m.group().lstrip("0") or "0", name)
    name = re.sub(r"(?<![a-z0-9])[a-z]+(?![a-z])", lambda m: ABBREVIATIONS.get(m.group(), m.group()), name)
    return "".join(ch for ch in name if ch in "abcdefghijklmnopqrstuvwxyz0123456789").translate(LOOK_ALIKE)


NAMES = {reading(name): cid for cid, aliases in CLAIMS.items() for name in (cid, *aliases)}


def paper_claim(name: str) -> str | None:
    """The id of the paper's claim this name reads as, "" for any other name in a
    paper's namespace, None for a name that is no paper's."""
    key = reading(name)
    if key in NAMES:
        return NAMES[key]
    if key.startswith(tuple(map(reading, NAMESPACES))) or any(reading(a) in key for a in AUTHORS):
        return ""
    return None
