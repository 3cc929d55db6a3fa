"""LaTeX output: a small document builder and a printer for exact values.

Every formula in a bnproof document is printed here from engine objects
(SymPy expressions, Q(√r) numbers, rationals), never typed by hand.  Long
formulas are broken into multline lines (latex_break); long exact numbers
are shown rounded in equations and written out in full, with break points,
in a closing section.  Decimals are computed from the exact value with
SymPy's arbitrary-precision evaluation and always carry ≈.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy

from .. import __version__
from ..errors import BadInput
from ..exact.linalg import to_fraction
from ..exact.surd import Surd
from .latex_break import break_lines, width, parse

# The estimated width of a display line.  A plain article's text is 345 pt wide and
# the equation number takes about 25 pt; the estimate can fall 10% short, so aim lower.
LINE_BUDGET = 170.0
# An exact value whose LaTeX is longer than this is rounded in formulas.
MAX_EXACT_CHARS = 60
DIGITS = 6

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[a4paper,margin=2.5cm]{geometry}
\usepackage{amsmath,amssymb}
\allowdisplaybreaks
\setlength{\multlinegap}{0pt}
"""

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}", "<": r"$<$",
    ">": r"$>$", "|": r"$|$",
}
_UNICODE_TEXT = {"–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "…": r"\ldots{}",
                 "×": r"$\times$", "−": "-", "≤": r"$\leq$", "≥": r"$\geq$", "≠": r"$\neq$"}


def escape(text: str) -> str:
    """Plain (possibly untrusted) text as LaTeX text: specials escaped, accents
    kept where pdflatex knows them, anything else replaced by '?'."""
    out = []
    for ch in str(text):
        if ch in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[ch])
        elif ch in _UNICODE_TEXT:
            out.append(_UNICODE_TEXT[ch])
        elif " " <= ch <= "~":
            out.append(ch)
        elif ch in "\t\n\r":
            out.append(" ")
        else:
            base = unicodedata.normalize("NFD", ch)
            if len(base) == 2 and " " <= base[0] <= "~" and base[0].isalpha() and base[1] in _ACCENTS:
                out.append("\\" + _ACCENTS[base[1]] + "{" + base[0] + "}")
            else:
                out.append("?")
    return "".join(out)


# Mathematical characters in prose (a claim's reading), as math-mode LaTeX
_PROSE_MATH = {
    **{ch: "\\" + name for ch, name in zip(
        "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ",
        "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau "
        "upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega".split())},
    "‖": r"\|", "⟨": r"\langle ", "⟩": r"\rangle ", "∇": r"\nabla ", "∂": r"\partial ", "≤": r"\leq ",
    "≥": r"\geq ", "≠": r"\neq ", "−": "-", "√": r"\surd ", "²": "^2", "³": "^3", "⁴": "^4", "¹": "^1",
    "ᵀ": r"^\top ", "⁻": "^-", "∈": r"\in ", "→": r"\to ", "∞": r"\infty ", "·": r"\cdot ",
    "×": r"\times ", "∑": r"\sum ", "≈": r"\approx ", "≡": r"\equiv ", "∀": r"\forall ",
    "∃": r"\exists ", "⊆": r"\subseteq ", "∩": r"\cap ", "∪": r"\cup ", "ℝ": r"\mathbb{R}",
    "±": r"\pm ", "∘": r"\circ ", "↦": r"\mapsto ", "⇒": r"\Rightarrow ", "⊥": r"\perp ",
    "{": r"\{", "}": r"\}",  # braces of a set: in text, OT1 has no brace glyphs
    **{chr(0x2080 + k): f"_{k}" for k in range(10)}, "ⱼ": "_j", "ᵢ": "_i", "ₖ": "_k", "ₘ": "_m",
}


def prose(text: str) -> str:
    """Plain prose with Unicode mathematics (σ, ‖·‖, ⟨·,·⟩, x², Xᵀ, ŷ) as LaTeX text: the
    mathematical characters in math mode, one $…$ per run, the rest through escape().
    The ASCII scripts a reading writes (R^m, ∇_y, ∇_{y_j}L, ŷ^(b), H_jj) are typeset
    with their base: a one-letter word or a mathematical character, never a longer
    identifier (exact_sizes stays text)."""
    items: list[tuple[bool, str]] = []  # (in math?, LaTeX)
    text = unicodedata.normalize("NFC", str(text))
    k = 0
    while k < len(text):
        ch = text[k]
        hatted = _hatted(text, k)
        if hatted:
            items.append((True, hatted[0]))
            k += hatted[1]
            continue
        script = _script(text, k) if ch in "^_" and _base(items, text, k) else None
        if script:
            body, used = script
            if not items[-1][0]:
                items[-1] = (True, items[-1][1])  # the base letter joins the script in math
            items.append((True, _after(items, ch) + ch + "{" + body + "}"))
            k += used
            continue
        if ch in _PROSE_MATH:
            if _SCRIPT_CHARS.match(ch) and _base(items, text, k) and not items[-1][0]:
                items[-1] = (True, items[-1][1])  # x² as $x^2$, not x$^2$
            items.append((True, _after(items, _PROSE_MATH[ch][:1]) + _PROSE_MATH[ch]))
        else:  # a path (bnproof/claims/lemma45.py) may break after its slashes
            items.append((False, escape(ch) + (r"\allowbreak{}" if ch == "/" and text[k + 1:k + 2].isalpha()
                                               else "")))
        k += 1
    out, run = [], []
    for in_math, latex in items:
        if in_math:
            run.append(latex)
            continue
        if run:
            out.append("$" + "".join(run).strip() + "$")
            run = []
        out.append(latex)
    if run:
        out.append("$" + "".join(run).strip() + "$")
    return "".join(out)


_SCRIPT_CHARS = re.compile("[²³⁴¹ᵀ⁻₀₁₂₃₄₅₆₇₈₉ⱼᵢₖₘ]")


def _after(items: list, kind: str) -> str:
    """{} before a script that follows one of its own kind (x²² is x^2{}^2: a double
    superscript does not compile)."""
    return "{}" if kind in "^_" and items and items[-1][0] and items[-1][1].startswith(kind) else ""


def _hatted(text: str, k: int) -> tuple[str, int] | None:
    """A letter with a hat (ŷ, Ĥ, or L followed by a combining hat) as \\hat{…}, and the
    characters it takes."""
    ch = text[k]
    if ch.isascii() and ch.isalpha() and text[k + 1:k + 2] == "\u0302":
        return r"\hat{" + ch + "}", 2
    base = unicodedata.normalize("NFD", ch)
    if len(base) == 2 and base[1] == "\u0302" and base[0].isascii() and base[0].isalpha():
        return r"\hat{" + base[0] + "}", 1
    return None


def _base(items: list, text: str, k: int) -> bool:
    """Whether what precedes text[k] can carry a script: a mathematical character, or a
    one-letter (or one-digit) word."""
    if not items or k == 0:
        return False
    if items[-1][0]:
        return True
    before = text[k - 1]
    return before.isascii() and before.isalnum() and not (k >= 2 and text[k - 2].isalnum())


def _script(text: str, k: int) -> tuple[str, int] | None:
    """The script after the ^ or _ at text[k] as math, and the characters it takes: a
    braced group, a parenthesised one (ŷ^(b)), or one or two letters or digits."""
    rest = text[k + 1:]
    if rest[:1] in ("{", "("):
        close = "}" if rest[0] == "{" else ")"
        depth, end = 0, None
        for j, c in enumerate(rest):
            depth += c == rest[0]
            depth -= c == close
            if depth == 0:
                end = j
                break
        if end is None or end > 20:
            return None
        inner = _math_chars(rest[1:end])
        if inner is None:
            return None
        return (inner if rest[0] == "{" else "(" + inner + ")"), end + 2
    match = re.match(r"[A-Za-z0-9]{1,2}(?![A-Za-z0-9])|\*", rest)
    if match is None:
        return None
    return match.group(), match.end() + 1


def _math_chars(text: str) -> str | None:
    """A short run of letters, digits and mathematical characters as math, or None (also
    for a subscript that would not compile: y__j, y_j_k, _j)."""
    if re.search(r"__|^_|_$|_[^_]*_|\^", text):
        return None
    out = []
    for k, ch in enumerate(text):
        if ch.isascii() and (ch.isalnum() or ch in "_,+-*=()"):
            out.append(ch)
        elif _hatted(text, k):
            out.append(_hatted(text, k)[0])
        elif ch in _PROSE_MATH and ch not in "{}":
            out.append(_PROSE_MATH[ch])
        elif ch == "\u0302":
            continue
        else:
            return None
    return "".join(out).strip()


def tt(text: str) -> str:
    """Typewriter text that may break after / - . : _ (file names, digests)."""
    out = escape(text)
    for ch in ("/", "-", ".", ":"):
        out = out.replace(ch, ch + r"\allowbreak{}")
    return r"\texttt{" + out.replace(r"\_", r"\_\allowbreak{}") + "}"


_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c"}


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
    displays in order), so that a paper can \\eqref any of them."""

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
        # running text: a fraction stays on its line (text style), never a stacked display one
        self.parts.append(re.sub(r"\\[dt]?frac(?![A-Za-z])", r"\\tfrac", text))

    def _label(self) -> str:
        self.labels.append(f"bnproof:{self.key}:eq{len(self.labels) + 1}")
        return "\\label{" + self.labels[-1] + "}"

    def display(self, formula: str) -> None:
        """One formula, broken into multline lines when it would not fit."""
        lines = break_lines(formula, LINE_BUDGET)
        if len(lines) == 1:
            self.parts.append("\\begin{equation}" + self._label() + "\n" + lines[0]
                              + "\n\\end{equation}")
            return
        body = " \\\\\n".join(_continued(line) if k else line for k, line in enumerate(lines))
        self.parts.append("\\begin{multline}" + self._label() + "\n" + body + "\n\\end{multline}")

    def equation(self, lhs: str, rhs: str, rel: str = "=") -> None:
        """lhs rel rhs; when too long, the right side goes on aligned lines below."""
        self.steps(lhs, [(rel, rhs)])

    def steps(self, lhs: str, rights: list[tuple[str, str]]) -> None:
        """lhs rel₁ r₁ rel₂ r₂ …, one step per line, aligned at the relations;
        a step too long for its line is broken and continued below."""
        rights = [_relation(rel, right) for rel, right in rights]
        if len(rights) == 1:
            one = f"{lhs} {rights[0][0]} {rights[0][1]}"
            if width(parse(one)) <= LINE_BUDGET:
                self.parts.append("\\begin{equation}" + self._label() + "\n" + one
                                  + "\n\\end{equation}")
                return
        rows = []
        for k, (rel, right) in enumerate(rights):
            first = lhs if k == 0 else ""
            pieces = break_lines(right, LINE_BUDGET - width(parse(lhs)) - 20)
            rows.append(f"{first} &{rel} {pieces[0]}")
            rows.extend(rf"&\qquad {_continued(p)}" for p in pieces[1:])
        self._align(rows)

    def aligned(self, rows: list[tuple[str, str]]) -> None:
        """lhs = rhs rows aligned at =; a row too long for its line is continued below."""
        lines = []
        for lhs, rhs in rows:
            rel, rhs = _relation("=", rhs)
            pieces = break_lines(rhs, LINE_BUDGET - width(parse(lhs)) - 20)
            lines.append(f"{lhs} &{rel} {pieces[0]}")
            lines.extend(rf"&\qquad {_continued(p)}" for p in pieces[1:])
        self._align(lines)

    def _align(self, rows: list[str]) -> None:
        # one number for the block, on its last row; align (not aligned) may break across pages
        rows = [row + r" \notag" for row in rows[:-1]] + [rows[-1] + " " + self._label()]
        self.parts.append("\\begin{align}\n" + " \\\\\n".join(rows) + "\n\\end{align}")

    def items(self, entries: list[str]) -> None:
        # enumerate, not itemize: the bullet would pull in a bitmap TS1 font
        # ragged right: an item of long exact numbers has little glue to justify with
        self.parts.append("\\begin{flushleft}\n\\begin{enumerate}\n"
                          + "\n".join(rf"\item {e}" for e in entries)
                          + "\n\\end{enumerate}\n\\end{flushleft}")

    def render(self, fragment: bool, level: str | None = None) -> str:
        """The whole document, or (fragment) its body for \\input into a paper, with
        headings from `level` down (section, subsection, subsubsection, paragraph)."""
        top = level or (FRAGMENT_LEVEL if fragment else "section")
        if top not in LEVELS[:4]:
            raise BadInput(f"--level must be one of {', '.join(LEVELS[:4])}, not {top!r}")
        parts = list(self.parts)
        if self.longs.entries:
            parts.extend(self.longs.latex())
        body = "\n\n".join(p.latex(top) if isinstance(p, Heading) else p for p in parts) + "\n"
        header = (f"% Generated by bnproof {__version__}; every formula and number comes from "
                  "the exact engine.\n")
        header += "".join(f"% {line}\n" for line in self.provenance.splitlines())
        if fragment:  # for \input: the host document has its own title and preamble
            return (header + f"% {_comment(self.title)}\n% needs \\usepackage{{amsmath,amssymb}}; "
                    f"equations are labelled bnproof:{self.key}:eqN\n\n" + body)
        return (header + PREAMBLE + rf"\title{{{self.title}}}" + "\n" + r"\author{}" + "\n"
                + r"\date{}" + "\n" + "\\begin{document}\n\\maketitle\n\n" + body
                + "\\end{document}\n")


def _comment(text: str) -> str:
    return " ".join(text.split())


def _relation(rel: str, right: str) -> tuple[str, str]:
    """'= \\approx x' reads as '\\approx x': a rounded value takes ≈ as its relation."""
    if rel == "=" and right.startswith(r"\approx"):
        return r"\approx", right[len(r"\approx"):].strip()
    return rel, right


def _continued(line: str) -> str:
    """A continuation line that starts with + or − keeps binary spacing."""
    return "{} " + line if line[:1] in "+-" or line.startswith((r"\pm", r"\mp")) else line
