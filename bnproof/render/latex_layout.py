"""Displays laid out for the line they are printed on.

A Document (latex.py) records its displays as Display objects and lays them out when
it is rendered, for the width of the text they go on: its own page (one column of
an A4 page with 2.5 cm margins) or, for a fragment, a column of a two-column article
(229.5 pt), the narrowest a paper commonly has; `render(width=…)` names another.

A formula that fits its line is one `equation`.  One that does not is an `align`
block: broken by latex_break where a reader expects it, aligned at its first
relation when the left side is short ("C(w) &= …" over "&= …"), continuation lines
indented by \\qquad (a term that goes on inside an opened \\Bigl…\\Bigr by another
\\quad per level, so that "− γ m S[g x]\\Bigr) x" never reads as a new term), two
equations set side by side stacked, each aligned at its own relation.  The block
has one number, on its last line.  Never multline: it pushes a last line to the
right margin.
"""

from __future__ import annotations

from dataclasses import dataclass

from .latex_break import RELATIONS, Line, Token, layout, parse, unparse, width

PAGE = 455.2  # \textwidth of the full document: A4, 2.5 cm margins (latex.PREAMBLE)
COLUMN = 229.5  # \columnwidth of \documentclass[twocolumn]{article}
NUMBER = 32.0  # an equation number "(12)" and the space amsmath keeps before it
ERROR = 1.04  # the width estimate falls at most this much short (measured against pdflatex)
INDENT = 20.0  # \qquad, a continuation line's indent
SHORT_LEFT = 0.4  # a left side up to this share of the line is aligned at its relation
RELATION = 14.0


def budget(text_width: float) -> float:
    """The estimated width a display's line may take on a text `text_width` points wide
    (the line that carries the equation number: NUMBER less)."""
    return text_width / ERROR


@dataclass
class Display:
    """A display of a Document, laid out when the document is rendered: kind "display" (one
    formula), "steps" (lhs rel₁ r₁ rel₂ r₂ …) or "aligned" ((lhs, rhs) rows at =)."""

    kind: str
    args: tuple
    label: str | None  # \label{…}; None: unnumbered (a statement the report quotes)

    def latex(self, line: float) -> str:
        return {"display": _display, "steps": _steps, "aligned": _aligned}[self.kind](line, self.label,
                                                                                     *self.args)


def _equation(formula: str, label: str | None) -> str:
    if label is None:
        return "\\begin{equation*}\n" + formula.strip() + "\n\\end{equation*}"
    return "\\begin{equation}" + label + "\n" + formula.strip() + "\n\\end{equation}"


def _align(rows: list[str], label: str | None) -> str:
    if label is None:
        return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"
    # one number for the block, on its last row; align (not aligned) may break across pages
    rows = [row + r" \notag" for row in rows[:-1]] + [rows[-1] + " " + label]
    return "\\begin{align}\n" + " \\\\\n".join(rows) + "\n\\end{align}"


def _display(line: float, label: str, formula: str) -> str:
    nodes = parse(formula)
    number = NUMBER / ERROR
    if width(nodes) <= line:  # beside its number, or (amsmath's choice) with the number below
        return _equation(formula, label)
    # flush left, continuation lines indented; or, where the left side is short, aligned
    # at the first relation: whichever opens fewer pairs and takes fewer lines
    flush = layout(nodes, line, line - INDENT, line - INDENT - number)
    rows = [f"&{_unary(flush[0].text)}"] + [_row(piece, line, aligned=False) for piece in flush[1:]]
    at = _first_relation(nodes)
    if at is not None and not _starts_with_text(nodes) and width(nodes[:at]) <= SHORT_LEFT * line:
        left = width(nodes[:at])
        lines = layout(nodes[at:], line - left, line - left - INDENT, line - left - INDENT - number,
                       aligned=True)
        if _quality(lines) <= _quality(flush):
            rows = [f"{unparse(nodes[:at]).strip()} &{lines[0].text}"]
            rows += [_row(piece, line, aligned=True) for piece in lines[1:]]
    return _align(rows, label)


def _quality(lines: list[Line]) -> tuple:
    """Lower is better: lines that start inside an opened pair, then lines."""
    return (sum(piece.depth > 0 for piece in lines), len(lines))


def _steps(line: float, label: str, lhs: str, rights: list) -> str:
    rights = [_relation(rel, right) for rel, right in rights]
    if len(rights) == 1:
        one = f"{lhs} {rights[0][0]} {rights[0][1]}"
        if width(parse(one)) <= line:
            return _equation(one, label)
    rows = _rows(line, [(lhs, rel, right) for rel, right in rights[:1]]
                 + [("", rel, right) for rel, right in rights[1:]], width(parse(lhs)))
    return _align(rows, label)


def _aligned(line: float, label: str, rows: list) -> str:
    rows = [(lhs, *_relation("=", rhs)) for lhs, rhs in rows]
    left = max(width(parse(lhs)) for lhs, _, _ in rows)
    return _align(_rows(line, rows, left), label)


def _rows(line: float, rows: list, left: float) -> list[str]:
    """(lhs, rel, rhs) rows aligned at their relations, each right side broken to fit; a
    left side too wide to align at goes on a line of its own."""
    out = []
    wide = left > SHORT_LEFT * line
    for k, (lhs, rel, rhs) in enumerate(rows):
        number = NUMBER / ERROR if k == len(rows) - 1 else 0.0  # the block's number: its last line
        if wide:
            if lhs:
                out.append(f"&{lhs}")
            pieces = layout(rhs, line - INDENT - RELATION, line - 2 * INDENT, line - 2 * INDENT - number)
            out.append(rf"&\qquad {rel} {pieces[0].text}")
            out += [r"&\qquad" + _row(p, line, aligned=False)[1:] for p in pieces[1:]]
            continue
        pieces = layout(rhs, line - left - RELATION, line - left - INDENT, line - left - INDENT - number,
                        aligned=True)
        out.append(f"{lhs} &{rel} {pieces[0].text}")
        out += [_row(p, line, aligned=True) for p in pieces[1:]]
    return out


def _row(piece: Line, line: float, aligned: bool) -> str:
    """A continuation line: a relation aligned under the one above; a new equation (two set
    side by side, stacked) at its own relation or flush left; a term indented, further
    inside an opened pair."""
    text = piece.text
    if piece.kind == "rel":
        return ("&" if aligned else r"&\qquad ") + text
    if piece.kind == "sep":
        nodes = piece.nodes
        at = _first_relation(nodes)
        if aligned and at is not None and not _starts_with_text(nodes) \
                and width(nodes[:at]) <= SHORT_LEFT * line:
            return f"{unparse(nodes[:at]).strip()} &{unparse(nodes[at:]).strip()}"
        return ("&" if not aligned and not _starts_with_text(nodes) else r"&\qquad ") + text
    return "&" + r"\qquad" + r"\quad" * piece.depth + " " + (_continued(text) if piece.kind == "bin" else
                                                               _unary(text))


def _first_relation(nodes) -> int | None:
    for k, node in enumerate(nodes):
        if k and isinstance(node, Token) and node.name in RELATIONS:
            return k
    return None


def _starts_with_text(nodes) -> bool:
    first = next((n for n in nodes if not (isinstance(n, Token) and n.text.isspace())), None)
    return isinstance(first, Token) and first.name in (r"\text", r"\quad", r"\qquad")


def _relation(rel: str, right: str) -> tuple[str, str]:
    """'= \\approx x' reads as '\\approx x': a rounded value takes ≈ as its relation."""
    if rel == "=" and right.startswith(r"\approx"):
        return r"\approx", right[len(r"\approx"):].strip()
    return rel, right


def _unary(line: str) -> str:
    """A line of an align that starts with a minus sign (−26 of a vector's third entry):
    braced, as align's cell begins with an empty atom that would make the minus binary."""
    return "{-}" + line[1:] if line[:1] == "-" else line


def _continued(line: str) -> str:
    """A continuation line that starts with + or − keeps binary spacing."""
    return "{} " + line if line[:1] in "+-" or line.startswith((r"\pm", r"\mp")) else line
