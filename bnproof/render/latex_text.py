"""Text from outside, made safe for LaTeX: the one way it reaches a document.

`escape` (plain, untrusted text: every special escaped), `mathit` (an identifier in
math), `tt` (file names, digests), `prose` (a claim's reading: words with Unicode
mathematics) and `safe_statement` (a statement as printed: LaTeX math, checked); in
math mode, as Jupyter's MathJax and pdflatex both read it, `math_tt` (an id, spelled)
and `math_words` (prose among mathematics).

A reading is written for a terminal, in words and Unicode (‖X‖ ≤ λ, ∇_{y_j}L,
(I − ŷŷᵀ/m)g).  `prose` typesets each formula in it as one piece of mathematics,
its letters, numbers and operators included: "$\\|X\\| \\leq \\lambda$", never the
half-typeset "$\\|$X$\\|$ $\\leq$ $\\lambda$" of a symbol-by-symbol reading.  Nothing
is evaluated, and no character reaches the output but through a fixed table or
escape(): an unknown one ends the formula and is escaped as text.

`safe_statement`: a certificate's statement is text someone else wrote, and LaTeX is a
programming language (\\input, \\write, \\catcode, ^^ escapes).  A paper's
statement may use any of the math vocabulary of amsmath and amssymb, so
control words are not allow-listed; instead (docs/certificates.md,
"Statements in LaTeX"):

- the grammar: printable ASCII only; no '%', '#', '$' or '^^' (comments,
  macro parameters, leaving math mode, character escapes); no blank line;
  control words made of letters, or one non-letter (\\, \\{ \\|);
  balanced braces, \\left/\\right and \\begin/\\end; environments only from a
  list of math environments (\\begin{NAME} calls \\NAME by name);
- a deny-list of what can do harm: file and terminal I/O, definitions and
  assignments of meaning or catcodes, names built from text (\\csname,
  \\UseName), expansion tricks and conditionals, and engine escapes
  (\\special, \\directlua, \\pdf…).

Anything else is a one-line BadInput naming the problem.
"""

from __future__ import annotations

import re
import unicodedata

from ..errors import BadInput
from .latex_break import ParseError, glue, parse

_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
    "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}", "<": r"$<$",
    ">": r"$>$", "|": r"$|$",
}
_UNICODE_TEXT = {"–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "…": r"\ldots{}",
                 "×": r"$\times$", "−": "-", "≤": r"$\leq$", "≥": r"$\geq$", "≠": r"$\neq$"}
_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c"}


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


def mathit(name: str) -> str:
    """An identifier (a variable's name: letters, digits and _) as one italic word in math."""
    return r"\mathit{" + escape(name) + "}"


def tt(text: str) -> str:
    """Typewriter text that may break after / - . : _ (file names, digests)."""
    out = escape(text)
    for ch in ("/", "-", ".", ":"):
        out = out.replace(ch, ch + r"\allowbreak{}")
    return r"\texttt{" + out.replace(r"\_", r"\_\allowbreak{}") + "}"


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
# In math mode (a Jupyter display, typeset by MathJax, or by pdflatex after nbconvert):
# each LaTeX special as a control sequence both read in math mode
_MATH_SPECIALS = {"_": r"\_", "#": r"\#", "$": r"\$", "%": r"\%", "&": r"\&", "{": r"\{", "}": r"\}",
                  "|": r"\vert ", "\\": r"\backslash ", "~": r"\sim "}
_MATH_TT_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789./()[]")
_MATH_TT_BRACED = set("-+=<>,:;!?*@'")


def math_tt(text: str) -> str:
    r"""Any text (an id) as one \mathtt{...} in math mode: each character itself, braced or
    a math-mode control sequence; '?' for what has none (non-ASCII, ^, quotes)."""
    out = []
    for ch in str(text)[:200]:
        if ch in _MATH_TT_PLAIN:
            out.append(ch)
        elif ch in _MATH_TT_BRACED:
            out.append("{" + ch + "}")
        else:
            out.append(r"\ " if ch == " " else _MATH_SPECIALS.get(ch, "?"))
    return r"\mathtt{" + "".join(out) + "}"


def math_words(text: str) -> str:
    r"""Prose (possibly holding outside text: an exception's message) among mathematics, as
    pdflatex's amsmath and MathJax both read it: runs of plain characters in \text{...}
    and every special, and each mathematical character of a reading (σ, ≤, r₁), in math
    mode between them.  MathJax reads no control sequence inside \text{} (\text{a\_b}
    shows the backslash, and a '$' there opens math), and pdflatex no special there."""
    out, run = [], []

    def flush():
        if run:
            out.append(r"\text{" + "".join(run) + "}")
            run.clear()

    for ch in str(text):
        ch = " " if ch in "\t\n\r" else ch
        tex = _MATH_SPECIALS.get(ch) or {"^": r"\hat{}", "<": "<", ">": ">", "…": r"\ldots "}.get(ch) \
            or _PROSE_MATH.get(ch)
        if tex is None and (" " <= ch <= "~" or ch.isalpha()):
            run.append(ch)
            continue
        flush()
        out.append(("{}" + tex if tex[0] in "^_" else tex) if tex else "?")
    flush()
    return "".join(out)


_SCRIPT_CHARS = re.compile("[²³⁴¹ᵀ⁻₀₁₂₃₄₅₆₇₈₉ⱼᵢₖₘ]")
# ASCII that a formula may hold between its symbols; the ones a formula may not end with
# (or, the first three, start with) are given back to the text
_CONNECT = {"=": "=", "+": "+", "-": "-", "/": "/", "(": "(", ")": ")", "[": "[",
            "]": "]", "|": "|", "<": "<", ">": ">", ",": ",", ":": ":"}
_NO_END = set("=+-/(<>,:[")
_NO_START = set("=+/)<>,:]")
# One-letter words that are words, not variables, unless they stand in a formula (a_i)
_WORDS = {"a", "A"}
# Words of prose that look like a letter and a full stop
_ABBREVIATIONS = re.compile(r"(?:e\.g\.|i\.e\.|cf\.|etc\.|vs\.)")
# Function names written before their parenthesis: log(x), Var(X), BN(y), softplus(t)
_OPERATORS = {"log": r"\log", "exp": r"\exp", "min": r"\min", "max": r"\max", "sup": r"\sup",
              "inf": r"\inf", "det": r"\det", "tanh": r"\tanh", "arccos": r"\arccos", "sin": r"\sin",
              "cos": r"\cos"}


class _Item:
    """One piece of the reading: kind M (mathematics), L (a word of letters), N (a number),
    C (an ASCII connector), S (space) or T (text); `tex` is its LaTeX in math (M)."""

    __slots__ = ("kind", "raw", "tex", "math", "script")

    def __init__(self, kind: str, raw: str, tex: str = "", script: str = ""):
        self.kind, self.raw, self.tex, self.math = kind, raw, tex, kind == "M"
        self.script = script  # the kind of script its LaTeX ends with (^ or _), if any


def prose(text: str) -> str:
    """Plain prose with Unicode mathematics (σ, ‖·‖, ⟨·,·⟩, x², Xᵀ, ŷ) as LaTeX text: each
    formula in it (its symbols, the variables, numbers and operators between them) one
    $…$, the words through escape().  The ASCII scripts a reading writes (R^m, ∇_y,
    ∇_{y_j}L, ŷ^(b), H_jj, 10^6) are typeset with their base: a one-letter word, a
    number or a mathematical character, never a longer identifier (exact_sizes and a
    path such as bnproof/claims/lemma45.py stay text)."""
    items = _items(unicodedata.normalize("NFC", str(text)))
    _mark_words(items)
    return _emit(items, _runs(items))


def _items(text: str) -> list[_Item]:
    items: list[_Item] = []
    k = 0
    while k < len(text):
        ch = text[k]
        hatted = _hatted(text, k)
        abbreviation = _ABBREVIATIONS.match(text, k) if ch.isalpha() and not (
            k and text[k - 1].isalnum()) else None
        if hatted:
            items.append(_Item("M", text[k:k + hatted[1]], hatted[0]))
            k += hatted[1]
        elif abbreviation:
            items.append(_Item("T", abbreviation.group()))
            k = abbreviation.end()
        elif ch == "*" and _is_base(items):  # W* is W^*, a star on its letter
            base = items.pop()
            items.append(_Item("M", base.raw + ch, _base_tex(base) + _after(base, "^") + "^{*}", "^"))
            k += 1
        elif text.startswith("'s", k) and not text[k + 2:k + 3].isalpha():
            items.append(_Item("T", "'s"))  # y's entries, Theorem 4.1's: the possessive stays text
            k += 2
        elif ch in "^_" and _is_base(items) and _script(text, k):
            body, used = _script(text, k)
            base = items.pop()
            items.append(_Item("M", base.raw + text[k:k + used],
                               _base_tex(base) + _after(base, ch) + ch + "{" + body + "}", ch))
            k += used
        elif ch in _PROSE_MATH:
            latex = _PROSE_MATH[ch]
            if ch == "Σ" and text[k + 1:k + 2] == "_":
                latex = r"\sum"  # Σ_b (…): a sum over b; Σ alone is a covariance matrix
            if _SCRIPT_CHARS.match(ch) and _is_base(items):
                base = items.pop()
                items.append(_Item("M", base.raw + ch, _base_tex(base) + _after(base, latex[:1]) + latex,
                                   latex[:1]))
            else:
                items.append(_Item("M", ch, latex))
            k += 1
        elif ch.isascii() and ch.isalpha():
            word = re.match(r"[A-Za-z](?:[A-Za-z](?!\u0302))*", text[k:]).group()  # L̂ has a hat
            items.append(_Item("L", word))
            k += len(word)
        elif ch.isdigit():
            number = re.match(r"\d+(?:\.\d+)?", text[k:]).group()
            items.append(_Item("N", number))
            k += len(number)
        elif ch.isspace():
            items.append(_Item("S", ch))
            k += 1
        elif ch in _CONNECT:
            items.append(_Item("C", ch))
            k += 1
        else:
            items.append(_Item("T", ch))
            k += 1
    return items


def _is_base(items: list[_Item]) -> bool:
    """Whether the last item can carry a script: a mathematical character, a one-letter
    word or a number."""
    if not items:
        return False
    last = items[-1]
    return last.kind in ("M", "N") or (last.kind == "L" and len(last.raw) == 1)


def _base_tex(item: _Item) -> str:
    return item.tex if item.kind == "M" else item.raw


def _after(base: _Item, kind: str) -> str:
    """{} before a script that follows one of its own kind (x²² is x^2{}^2: a double
    superscript does not compile)."""
    return "{}" if base.script == kind else ""


def _mark_words(items: list[_Item]) -> None:
    """Which words are mathematics: a function name glued to its parenthesis (log(x),
    BN(c·y)); a one-letter word but a and A, and not a section's letter (Appendix C.3);
    a word glued to a mathematical character (λI, ᵀHg); a and A in a formula (a_i)."""
    for k, item in enumerate(items):
        if item.kind != "L":
            continue
        before = items[k - 1] if k else None
        after = items[k + 1] if k + 1 < len(items) else None
        glued = (before is not None and before.kind == "M") or (after is not None and after.kind == "M")
        numbered = after is not None and after.raw == "." and k + 2 < len(items) and items[k + 2].kind == "N"
        if after is not None and after.raw == "(" and (item.raw in _OPERATORS or 1 < len(item.raw) <= 8
                                                       and _formula_follows(items, k + 2)):
            item.math = True
            item.tex = _OPERATORS.get(item.raw) or r"\mathrm{" + item.raw + "}"
        elif len(item.raw) == 1 and item.raw not in _WORDS and not numbered:
            item.math, item.tex = True, item.raw
        elif glued:
            item.math, item.tex = True, item.raw
    for k, item in enumerate(items):
        if item.kind == "L" and item.raw in _WORDS and not item.math:
            near = [items[j] for j in (k - 1, k + 1) if 0 <= j < len(items)]
            if any(n.kind == "M" for n in near):
                item.math, item.tex = True, item.raw


def _formula_follows(items: list[_Item], k: int) -> bool:
    """Whether the parenthesis before items[k] holds mathematics and no words: BN(c·y)."""
    depth, math = 1, False
    while k < len(items) and depth:
        item = items[k]
        if item.raw == "(":
            depth += 1
        elif item.raw == ")":
            depth -= 1
        elif item.kind == "T" or (item.kind == "L" and len(item.raw) > 1):
            return False
        math = math or item.kind in ("M", "N") or item.kind == "L"
        k += 1
    return math and depth == 0


def _runs(items: list[_Item]) -> list[tuple[int, int]]:
    """[start, end) of each formula: the items between two words of text that hold
    mathematics, split where the text goes on (a comma or colon and a space outside any
    bracket, a parenthesis the formula does not close), less what a formula does not
    start or end with."""
    runs, k = [], 0
    while k < len(items):
        if not items[k].math:
            k += 1
            continue
        start = k
        while start > 0 and items[start - 1].kind in ("N", "C", "S") and not items[start - 1].math:
            start -= 1
        end = k
        while end < len(items) and (items[end].math or items[end].kind in ("N", "C", "S")):
            end += 1
        runs.extend(_split(items, start, end))
        k = max(end, k + 1)
    return runs


_OPEN, _CLOSE = {"(": ")", "[": "]", "⟨": "⟩", "{": "}"}, {")": "(", "]": "[", "⟩": "⟨", "}": "{"}


def _split(items: list[_Item], start: int, end: int) -> list[tuple[int, int]]:
    start, end = _trim(items, start, end)
    if not any(item.math for item in items[start:end]):
        return []
    stack = []
    for k in range(start, end):
        raw = items[k].raw[:1]  # ⟩² closes as ⟩ does
        if raw in _OPEN:
            stack.append(k)
        elif raw in _CLOSE:
            if not stack or items[stack[-1]].raw[:1] != _CLOSE[raw]:
                return _split(items, start, k) + _split(items, k + 1, end)  # the text's parenthesis
            stack.pop()
        elif raw in ",:" and not stack and k + 1 < end and items[k + 1].kind == "S":
            return _split(items, start, k) + _split(items, k + 1, end)  # γ = 1, β = 0
    if stack:  # an opening the formula does not close
        k = stack[0]
        return _split(items, start, k) + _split(items, k + 1, end)
    return [(start, end)]


def _trim(items: list[_Item], start: int, end: int) -> tuple[int, int]:
    while start < end and (items[start].kind == "S" or items[start].raw in _NO_START
                           and not items[start].math):
        start += 1
    while end > start and (items[end - 1].kind == "S" or items[end - 1].raw in _NO_END
                           and not items[end - 1].math):
        end -= 1
    return start, end


def _emit(items: list[_Item], runs: list[tuple[int, int]]) -> str:
    out, k = [], 0
    starts = dict(runs)
    while k < len(items):
        if k in starts:
            end = starts[k]
            out.append("$" + re.sub(r"\s+", " ", _math(items[k:end])).strip() + "$")
            k = end
            continue
        item = items[k]
        text = "$" + (item.tex or item.raw) + "$" if item.math else escape(item.raw)
        if item.raw == '"':  # "identical loss": opening and closing quotes, not two closing ones
            text = "``" if not out or out[-1][-1:] in (" ", "(", "") else "''"
        if item.raw == "/" and k + 1 < len(items) and items[k + 1].kind == "L":
            text += r"\allowbreak{}"  # a path (bnproof/claims/lemma45.py) may break after its slashes
        out.append(text)
        k += 1
    return "".join(out)


def _math(items: list[_Item]) -> str:
    out = ""
    k = 0
    while k < len(items):
        item = items[k]
        if item.raw == "√" and k + 1 < len(items) and items[k + 1].kind != "S":
            body, used = _root(items, k + 1)
            if body is not None:
                out = glue(out, r"\sqrt{" + body + "}")
                k += used + 1
                continue
        if item.kind == "S":
            piece = " "
        elif item.math or item.kind in ("M", "L"):
            piece = item.tex or item.raw
        elif item.kind == "N":
            piece = item.raw
        elif item.kind == "C":
            piece = _CONNECT[item.raw]
        else:
            piece = escape(item.raw)
        out = glue(out, piece)
        k += 1
    return out


def _root(items: list[_Item], k: int) -> tuple[str | None, int]:
    """The argument of √ at items[k]: one symbol (√m, √2) or a parenthesised group
    (√(c³)), as math, and how many items it takes."""
    first = items[k]
    if first.raw != "(":
        return _math([first]), 1
    depth = 0
    for j in range(k, len(items)):
        depth += items[j].raw == "(" and not items[j].math
        depth -= items[j].raw == ")" and not items[j].math
        if depth == 0:
            return _math(items[k + 1:j]), j - k + 1
    return None, 0


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


# -- a statement as printed: LaTeX math from a certificate ---------------------------

MAX_CHARS = 2000
MAX_DEPTH = 40  # nested groups; deeper is not a formula, and TeX's own limit is a crash

# Primitives and kernel/package commands that read or write files, define or
# redefine commands, change catcodes, build control sequence names from text,
# expand in ways a formula never needs, or reach the engine or the shell.
DENIED = set("""
input endinput include includeonly InputIfFileExists IfFileExists includegraphics
read readline openin openout closein closeout write immediate newwrite newread message
typeout wlog errmessage errhelp show showbox showthe showlists showtokens showhyphens
def edef gdef xdef let futurelet glet long outer protected global globaldefs
newcommand renewcommand providecommand DeclareRobustCommand DeclareMathOperator
DeclareMathSymbol DeclareMathAlphabet newenvironment renewenvironment
NewDocumentCommand RenewDocumentCommand ProvideDocumentCommand DeclareDocumentCommand
NewDocumentEnvironment NewCommandCopy ExpandArgs UseName csname endcsname csdef csgdef
csedef csxdef csuse cslet csletcs letcs ifcsname ifdefined
catcode lccode uccode sfcode mathcode delcode uppercase lowercase scantokens
detokenize unexpanded noexpand expandafter afterassignment aftergroup string meaning
romannumeral number numexpr dimexpr glueexpr muexpr chardef mathchardef countdef
dimendef skipdef toksdef muskipdef count dimen skip toks muskip setbox box copy
newcount newdimen newskip newtoks newbox newlength setlength addtolength setcounter
addtocounter stepcounter refstepcounter newcounter settowidth settoheight settodepth
special directlua latelua luaexec luadirect shipout output outputpenalty deadcycles
everypar everymath everydisplay everyhbox everyvbox everyjob everycr everyeof
stop dump batchmode nonstopmode scrollmode errorstopmode jobname
usepackage RequirePackage documentclass LoadClass makeatletter makeatother
ExplSyntaxOn ExplSyntaxOff AtBeginDocument AtEndDocument AtBeginDvi AtBeginShipout
AtEndOfClass AtEndOfPackage addto patchcmd pretocmd apptocmd
halign valign noalign omit span cr crcr vadjust insert mark marks topmark
begingroup endgroup bgroup egroup verb lstinline url path href
loop repeat loopexit tracingall tracingonline font fontdimen hyphenation patterns
hyphenchar skewchar endlinechar newlinechar escapechar deadcycles maxdeadcycles
interactionmode pagegoal pagetotal insertpenalties holdinginserts
""".split())
# Families whose every member is a conditional, an engine primitive, or a definition.
DENIED_PREFIXES = ("if", "pdf", "tracing", "every", "new", "renew", "New", "Renew", "Provide",
                   "Declare", "lua", "Lua", "Expl", "xe", "XeTeX", "synctex", "Use", "AddTo",
                   "RemoveFrom", "ActivateGeneric")
# compared without case: \\ShellEscape, \\scantextokens, \\expanded, \\primitive
DENIED_PARTS = ("input", "include", "file", "write", "read", "catcode", "csname", "shell",
                "special", "lua", "scan", "expand", "primitive")
ALLOWED_ANYWAY = {"iff"}  # a relation, not a conditional

ENVIRONMENTS = {"cases", "matrix", "pmatrix", "bmatrix", "Bmatrix",
                "vmatrix", "Vmatrix", "smallmatrix", "aligned", "alignedat", "gathered",
                "split", "subarray", "array"}

_CHARS = re.compile(r"[ -~\t\n]*")
_CONTROL = re.compile(r"\\([A-Za-z]+|[^A-Za-z]|$)")


def denied(name: str) -> bool:
    """Whether the control word \\name is on the deny-list."""
    if name in ALLOWED_ANYWAY:
        return False
    return (name in DENIED or name.startswith(DENIED_PREFIXES)
            or any(part in name.lower() for part in DENIED_PARTS))


def safe_statement(statement) -> str:
    """The statement if it is math notation that cannot act on the system or the
    document; BadInput naming the problem otherwise."""
    if not isinstance(statement, str) or not statement.strip():
        raise BadInput("the certificate's claim statement is not a non-empty string")
    if len(statement) > MAX_CHARS:
        raise BadInput(f"the claim statement has more than {MAX_CHARS} characters")
    if _CHARS.fullmatch(statement) is None:
        char = next(c for c in statement if not _CHARS.fullmatch(c))
        raise BadInput(f"the claim statement contains {char!r}: write it as a LaTeX command "
                       "(printable ASCII only)")
    for char, why in (("%", "a comment"), ("#", "a macro parameter"), ("$", "leaves math mode")):
        if char in statement:
            raise BadInput(f"the claim statement contains {char!r} ({why}), which is not "
                           "allowed in a formula printed from a certificate")
    if "^^" in statement:
        raise BadInput("the claim statement contains '^^' (a TeX character escape)")
    if re.search(r"\n[ \t]*\n", statement):
        raise BadInput("the claim statement contains a blank line (a paragraph break)")
    for match in _CONTROL.finditer(statement):
        name = match.group(1)
        if not name:
            raise BadInput("the claim statement ends with a lone backslash")
        if name.isalpha() and denied(name):
            raise BadInput(f"the claim statement uses \\{name}, which is not allowed in a "
                           "formula printed from a certificate (it can read or write files, "
                           "define commands or change how TeX reads its input)")
    _check_structure(statement)
    return statement


def _check_structure(statement: str) -> None:
    depth = deepest = 0
    for char in re.sub(r"\\.", "", statement):  # an escaped \{ is not a group
        depth += (char == "{") - (char == "}")
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise BadInput(f"the claim statement nests groups more than {MAX_DEPTH} deep")
    for match in re.finditer(r"\\(begin|end)\s*(\{[^{}]*\})?", statement):
        name = (match.group(2) or "{}")[1:-1].strip()
        if name not in ENVIRONMENTS:
            raise BadInput(f"the claim statement uses \\{match.group(1)}{{{name}}}: only the math "
                           "environments " + ", ".join(sorted(ENVIRONMENTS)) + " are allowed")
    try:
        parse(statement)
    except ParseError as err:
        raise BadInput(f"the claim statement is not a well-formed formula: {err}") from None
