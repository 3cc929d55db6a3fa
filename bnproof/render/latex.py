"""The LaTeX composition layer: every document bnproof writes is assembled here.

A per-claim document (latex_program, latex_exists, latex_proof, latex_every_d,
latex_moments_n, latex_lemma45) is a Document: headings, paragraphs, lists and
displays, rendered as a whole document or as a fragment for \\input into a paper.
The paper's report (paper_report) puts those fragments under its own headings.  Three
things are done in one place each, for all of them:

- text from outside goes in through latex_text (escape, mathit, tt, prose,
  safe_statement), re-exported here;
- every display is laid out by latex_break, for the width of its page or of the
  column a fragment goes in (a formula is broken only where it does not fit);
- every frame (comments, preamble, title, document environment; a fragment's
  header) is frame()'s.

Every formula is printed from engine objects (SymPy expressions, Q(√r) numbers,
rationals), never typed by hand.  Long exact numbers are shown rounded in equations
and written out in full, with break points, in a closing section.  Decimals are
computed from the exact value with SymPy's arbitrary-precision evaluation and
always carry ≈.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy

from .. import __version__
from ..errors import BadInput
from ..exact.linalg import to_fraction
from ..exact.surd import Surd
from .latex_break import COLUMN, PAGE, Display, budget
from .latex_text import escape, mathit, prose, safe_statement, tt  # noqa: F401  (re-exported: render modules and tests import them here)

# An exact value whose LaTeX is longer than this is rounded in formulas.
MAX_EXACT_CHARS = 60
DIGITS = 6


# -- exact values --------------------------------------------------------------

def to_expr(value) -> sympy.Expr:
    """An engine value (Surd, fmpq, Fraction, int, SymPy) as an exact SymPy number."""
    if isinstance(value, sympy.Basic):
        return value
    if isinstance(value, Surd):
        return value.to_sympy()
    f = to_fraction(value) if not isinstance(value, (int, Fraction)) else Fraction(value)
    return sympy.Rational(f.numerator, f.denominator)


class Raw(sympy.Symbol):
    """A SymPy symbol printed verbatim: notation such as \\varphi_w(x), which
    SymPy's own name parsing would turn into \\varphi_{w(x)}."""

    def _latex(self, printer) -> str:
        return self.name


def tex(expr, inline: bool = False, order: str | None = None) -> str:
    """SymPy's printer; inline fractions as a/b; order="grlex" prints a polynomial's
    terms by falling degree (6w₁² + 18w₁w₂ + 14w₂² − 66w₁ …), as a paper does, where
    SymPy's default lex order interleaves degrees (… − 66w₁ + 14w₂² …)."""
    return sympy.latex(expr, fold_short_frac=inline, inv_trig_style="full", order=order)


def decimal(value, digits: int = DIGITS) -> str:
    """A rounded decimal of an exact value, as LaTeX (no ≈), from exact evaluation."""
    expr = to_expr(value)
    if expr == 0:
        return "0"
    x = mpmath.mpf(str(sympy.N(expr, digits + 15)))
    text = mpmath.nstr(x, digits, min_fixed=-4, max_fixed=8)
    if "e" in text:
        mant, exp = text.split("e")
        return rf"{mant} \cdot 10^{{{int(exp)}}}"
    return text


@dataclass
class LongValues:
    """Exact values too long for a formula, written out at the end of the document."""

    entries: list = field(default_factory=list)

    def add(self, name: str, value) -> str:
        """value: one number, or a list of numbers (a vector)."""
        if isinstance(value, list):
            self.entries.append((name, [to_expr(v) for v in value], True))
        else:
            self.entries.append((name, [to_expr(value)], False))
        return f"({len(self.entries)})"

    def latex(self) -> list[str]:
        out = [Heading(0, "Long exact values", numbered=False),
               "Values shown rounded above, in full; lines break between groups of ten digits."]
        for k, (name, exprs, is_vector) in enumerate(self.entries, 1):
            body = ",\\allowbreak\\ ".join(chunked_digits(tex(e, inline=True)) for e in exprs)
            if is_vector:
                body = r"\bigl(" + body + r"\bigr)"
            out.append(rf"({k}) {escape(name)}: $" + body + "$\n")
        # ragged right: a justified line of digits has no glue to stretch
        return [out[0], "\\begin{flushleft}\n" + out[1] + "\n\n" + "\n\n".join(out[2:])
                + "\\end{flushleft}"]


def number(value, longs: LongValues, name: str, approx: bool = False) -> str:
    """An exact value for a formula: exact when short (with ≈ decimal if asked and
    not already an integer), else its decimal and a pointer to the long values."""
    expr = to_expr(value)
    text = tex(expr)
    if len(text) <= MAX_EXACT_CHARS:
        if approx and not expr.is_Integer:
            return rf"{text} \approx {decimal(expr)}"
        return text
    ref = longs.add(name, expr)
    return rf"\approx {decimal(expr)}\ \text{{[exact: {ref}]}}"


def vector(values, longs: LongValues, name: str, approx: bool = False) -> str:
    """A tuple of exact values: exact entries when all are short."""
    exprs = [to_expr(v) for v in values]
    texts = [tex(e) for e in exprs]
    if max(len(t) for t in texts) <= MAX_EXACT_CHARS // 2 or len(exprs) == 1:
        if max(len(t) for t in texts) <= MAX_EXACT_CHARS:
            body = r"\left(" + ", ".join(texts) + r"\right)"
            if approx and not all(e.is_Rational for e in exprs):
                body += r" \approx \left(" + ", ".join(decimal(e, 4) for e in exprs) + r"\right)"
            return body
    ref = longs.add(name, exprs)
    return (r"\approx \left(" + ", ".join(decimal(e, 4) for e in exprs) + r"\right)"
            + rf"\ \text{{[exact: {ref}]}}")


def matrix(rows) -> str:
    return (r"\begin{pmatrix}" + r" \\ ".join(" & ".join(tex(to_expr(x)) for x in row)
                                                for row in rows) + r"\end{pmatrix}")


def inline_number(value) -> str:
    """a/b in running text (copyable, searchable in the PDF)."""
    return tex(to_expr(value), inline=True)


def fraction(c: Fraction) -> str:
    """A rational as \\frac{p}{q}, or p when it is an integer."""
    return str(c.numerator) if c.denominator == 1 else rf"\frac{{{c.numerator}}}{{{c.denominator}}}"


def chunked_digits(text: str, group: int = 10) -> str:
    r"""A long LaTeX number with \allowbreak between digit groups, for running text."""
    out, run = [], 0
    for ch in text:
        out.append(ch)
        run = run + 1 if ch.isdigit() else 0
        if run and run % group == 0:
            out.append(r"\allowbreak ")
    return "".join(out)


# -- the document ---------------------------------------------------------------

# Heading commands from the top; a fragment starts at the level the user chooses.
LEVELS = ("section", "subsection", "subsubsection", "paragraph", "subparagraph")
FRAGMENT_LEVEL = "subsection"


@dataclass(frozen=True)
class Heading:
    depth: int  # 0 for a section of the document, 1 for a subsection, ...
    title: str
    numbered: bool = True

    def latex(self, top: str) -> str:
        index = min(LEVELS.index(top) + self.depth, len(LEVELS) - 1)
        star = "" if self.numbered else "*"
        return "\\" + LEVELS[index] + star + "{" + self.title + "}"


def label_key(text: str) -> str:
    """A claim id as the part of a label (letters, digits, '.', '-'): stable across runs."""
    return re.sub(r"[^A-Za-z0-9.-]+", "-", text).strip("-") or "claim"


class Document:
    """Sections, paragraphs and displays, assembled into a document or a fragment.

    Every display is numbered and labelled bnproof:KEY:eqN (N counts the
    displays in order), so that a paper can \\eqref any of them; only a statement the
    paper's report quotes is not (numbered=False)."""

    def __init__(self, title: str, key: str = "claim", provenance: str = ""):
        self.title = title
        self.key = label_key(key)
        self.provenance = provenance  # comment lines at the top: how the document was made
        self.parts: list = []
        self.longs = LongValues()
        self.labels: list[str] = []

    def section(self, title: str) -> None:
        self.parts.append(Heading(0, title))

    def subsection(self, title: str) -> None:
        self.parts.append(Heading(1, title))

    def para(self, text: str) -> None:
        self.parts.append(text_style(text))

    def _label(self) -> str:
        self.labels.append(f"bnproof:{self.key}:eq{len(self.labels) + 1}")
        return "\\label{" + self.labels[-1] + "}"

    def display(self, formula: str, numbered: bool = True) -> None:
        """One formula; broken, when rendered, only if it does not fit its line."""
        self.parts.append(Display("display", (formula,), self._label() if numbered else None))

    def claim(self, title: str, source: str, statement: str, numbered: bool = True) -> None:
        """The claim as its paper prints it, under the heading `title`: where it is from
        (text, escaped) and its statement (LaTeX math, through the statement grammar)."""
        self.section(title)
        self.para(escape(source) + ":")
        self.display(safe_statement(statement), numbered)

    def reading(self, claim) -> None:
        """How the claim reads the paper's notation (its `reading`), where the claim is known."""
        from ..claims.naming import reading_paragraphs

        paragraphs = reading_paragraphs(getattr(claim, "reading", ""))
        if paragraphs:
            self.section("How the claim is read")
            for paragraph in paragraphs:
                self.para(prose(paragraph))

    def equation(self, lhs: str, rhs: str, rel: str = "=") -> None:
        """lhs rel rhs; when too long, the right side goes on aligned lines below."""
        self.steps(lhs, [(rel, rhs)])

    def steps(self, lhs: str, rights: list[tuple[str, str]]) -> None:
        """lhs rel₁ r₁ rel₂ r₂ …, one step per line, aligned at the relations (one line
        where the whole fits); a step too long for its line is broken and continued below."""
        self.parts.append(Display("steps", (lhs, list(rights)), self._label()))

    def aligned(self, rows: list[tuple[str, str]]) -> None:
        """lhs = rhs rows aligned at =; a row too long for its line is continued below."""
        self.parts.append(Display("aligned", (list(rows),), self._label()))

    def items(self, entries: list[str]) -> None:
        self.parts.append(items(entries))

    def include(self, other: "Document", title: str) -> None:
        """`other` as a section of this document headed `title`: its headings one level
        down, its displays keeping their labels (its own key), its long values at its end."""
        self.section(title)
        parts = other.parts + (other.longs.latex() if other.longs.entries else [])
        self.parts.extend(Heading(p.depth + 1, p.title, p.numbered) if isinstance(p, Heading) else p
                          for p in parts)
        self.labels.extend(other.labels)

    def render(self, fragment: bool, level: str | None = None, width: float | None = None) -> str:
        """The whole document, or (fragment) its body for \\input into a paper, with
        headings from `level` down (section, subsection, subsubsection, paragraph).
        Displays are laid out for a text `width` points wide: by default the document's
        own page, or for a fragment a column of a two-column article (latex_break)."""
        top = level or (FRAGMENT_LEVEL if fragment else "section")
        if top not in LEVELS[:4]:
            raise BadInput(f"--level must be one of {', '.join(LEVELS[:4])}, not {top!r}")
        line = budget(width or (COLUMN if fragment else PAGE))
        parts = list(self.parts)
        if self.longs.entries:
            parts.extend(self.longs.latex())
        body = "\n\n".join(p.latex(top) if isinstance(p, Heading) else
                            p.latex(line) if isinstance(p, Display) else p for p in parts) + "\n"
        comments = self.provenance.splitlines()
        if fragment:  # for \input: the host document has its own title and preamble
            comments.append(_comment(self.title))
        return frame(body, title=self.title, fragment=fragment, comments=comments,
                     note=f"equations are labelled bnproof:{self.key}:eqN")


def text_style(text: str) -> str:
    """Running text (a paragraph, a list item): a fraction stays on its line (text style),
    never a stacked display one."""
    return re.sub(r"\\[dt]?frac(?![A-Za-z])", r"\\tfrac", text)


def items(entries: list[str]) -> str:
    """A numbered list of entries, each LaTeX text."""
    # enumerate, not itemize: the bullet would pull in a bitmap TS1 font
    # ragged right: an item of long exact numbers has little glue to justify with
    return ("\\begin{flushleft}\n\\begin{enumerate}\n" + "\n".join(rf"\item {e}" for e in entries)
            + "\n\\end{enumerate}\n\\end{flushleft}")


def _comment(text: str) -> str:
    return " ".join(text.split())


# -- the frame: every document bnproof writes, and every fragment ----------------------

def preamble(columns: int = 1, packages: tuple[str, ...] = ()) -> str:
    """An A4 article with amsmath and amssymb (the page latex_break lays displays out for,
    PAGE and COLUMN), in one or two columns, with the packages a document needs beyond them."""
    options = "10pt,twocolumn" if columns == 2 else "10pt"
    text = (rf"\documentclass[{options}]{{article}}" + "\n\\usepackage[a4paper,margin=2.5cm]{geometry}\n"
            "\\usepackage{amsmath,amssymb}\n\\allowdisplaybreaks\n")
    text += "".join(rf"\usepackage{{{package}}}" + "\n" for package in packages)
    return text + ("\\raggedbottom\n" if columns == 2 else "")


def frame(body: str, *, title: str, fragment: bool, comments: list[str] = (), note: str = "",
          made_by: str = "", columns: int = 1, packages: tuple[str, ...] = ()) -> str:
    """The one frame of a bnproof document: comment lines at the top (how it was made), then
    the preamble, the title and the document environment around the body; or, for a
    fragment to \\input into a paper, the comments, the packages it needs and the body."""
    header = [f"Generated by bnproof {__version__}{made_by}; every formula and number comes from "
              "the exact engine.", *comments]
    if fragment:
        needs = "needs \\usepackage{" + ",".join(("amsmath", "amssymb", *packages)) + "}"
        return _comments(header + [needs + (f"; {note}" if note else "")]) + "\n" + body
    return (_comments(header) + preamble(columns, packages) + rf"\title{{{title}}}" + "\n\\author{}\n"
            "\\date{}\n\\begin{document}\n\\maketitle\n\n" + body + "\\end{document}\n")


def _comments(lines: list[str]) -> str:
    return "".join(f"% {line}\n" for line in lines)
