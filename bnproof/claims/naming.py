"""What a referee reads of a claim besides its statement: hypotheses by name, and
the reading (how ambiguous notation is read) as paragraphs.

A hypothesis is a function whose value must be > 0; a refutation document
shows each one's value on the counterexample, and a bare "h_2 = 3 > 0" tells a
referee nothing.  `hypothesis(text, f)` attaches a name to the function itself
(an attribute, so the function stays the one the claim calls: tracing,
file:line blame and the Law wrapper see no difference).
"""

from __future__ import annotations

ATTRIBUTE = "bnproof_name"


def hypothesis(text: str, function=None):
    """Name a hypothesis: `hypothesis("the batch variance $\\sigma^2$", f)`, or as a
    decorator, `@hypothesis("…")`.  The text says what the value measures, in
    words with `$…$` for mathematics (the statement grammar applies to it)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a hypothesis name is non-empty text")
    if text.count("$") % 2:
        raise ValueError(f"hypothesis name {text!r}: unbalanced $")

    def mark(f):
        if not callable(f):
            raise ValueError(f"hypothesis({text!r}, …) names a function of (xp, **variables)")
        setattr(f, ATTRIBUTE, text)
        return f

    return mark if function is None else mark(function)


def hypothesis_name(function) -> str | None:
    """The name given with `hypothesis`, looking through wrappers (a Law's), else None."""
    seen = 0
    while function is not None and seen < 16:  # a wrapper chain, never a cycle
        name = getattr(function, ATTRIBUTE, None)
        if isinstance(name, str):
            return name
        function, seen = getattr(function, "__wrapped__", None), seen + 1
    return None


def reading_paragraphs(reading: str) -> list[str]:
    """A claim's `reading` as paragraphs of one line each.  A reading taken from a
    module docstring starts with its one-line title (the claim's source again): that
    first paragraph is left out when more follow."""
    paragraphs = [" ".join(p.split()) for p in str(reading or "").strip().split("\n\n")]
    paragraphs = [p for p in paragraphs if p]
    first = str(reading or "").strip().split("\n\n")[0]
    if len(paragraphs) > 1 and "\n" not in first.strip():
        paragraphs = paragraphs[1:]
    return paragraphs


def reading_lines(reading: str, columns: int | None = None) -> list[str]:
    """The reading for a terminal report: 'Read as: …' wrapped to `columns` (default:
    the terminal's width); none for a claim without one."""
    import shutil
    import textwrap

    text = " ".join(reading_paragraphs(reading))
    if not text:
        return []
    head = "" if text.startswith("Reading") else "Read as: "
    columns = columns or shutil.get_terminal_size((100, 24)).columns
    return textwrap.wrap(head + text, width=max(40, columns), subsequent_indent="  ",
                         break_on_hyphens=False)


def hypothesis_label(number: int, function, entry: int = 1, entries: int = 1) -> str:
    """How a message names hypothesis `number` (from 1, in the claim's order): by the
    name given with `hypothesis`, else by its function's own name (never "<lambda>"),
    with the entry of an array-valued one: 'hypothesis 2 (the batch variance
    $\\sigma^2$)', 'hypothesis 1 (gram_minors, entry 2 of 3)'."""
    name = hypothesis_name(function)
    if name is None:
        own = getattr(function, "__name__", "")
        name = own if own.isidentifier() else None
    parts = [p for p in (name, f"entry {entry} of {entries}" if entries > 1 else None) if p]
    return f"hypothesis {number}" + (f" ({', '.join(parts)})" if parts else "")
