"""Exact values as a mathematician writes them: −54√74/1369, w₁², ⟨·,·⟩.

The exact values reach the human reports in SymPy's printed form, the very
strings `--json` carries ("-54*sqrt(74)/1369", "w1**2").  `math` re-typesets
that form token by token, so the report and the JSON show the same terms in
the same order, and SymPy is not needed to do it (a fuzz residual is only
kept as text).  The text is read, never evaluated.

A terminal whose encoding cannot show these characters (LANG=C,
PYTHONIOENCODING=ascii) gets the printed form unchanged and the report's
prose transliterated (`ascii_line`), so it never fails to print.

`wrap` breaks a long formula at its terms' boundaries (" + ", " − " outside
any parentheses) to the terminal's width, never inside a number or a square
root's argument.

`bnproof check` prints its ACCEPTED / REJECTED lines in ASCII on purpose:
they are read by scripts and CI logs, and name certificates and claim ids,
not formulas.
"""

from __future__ import annotations

import re
import shutil
import sys

from ..claims.symbols import GREEK, NAME_ALIASES, greek_name, symbol_text  # noqa: F401 - re-exported

SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
MINUS = "−"  # U+2212, not the hyphen

# numbers, names, the two-character power operator, then any single character
TOKEN = re.compile(r"\d+(?:\.\d+)?|[A-Za-z_][A-Za-z_0-9]*|\*\*|\s+|.")
INDEXED_NAME = re.compile(r"([A-Za-z]+)(\d+)")
NAMES = {"oo": "∞", "pi": "π", "E": "e"}
# Names of tools and formats that end in digits: words, not indexed mathematics (cvc5 is
# the solver, not cvc with index 5), so never subscripted.
PROPER_NAMES = frozenset({"cvc4", "cvc5", "float16", "float32", "float64", "int32", "int64", "sha256"})
# z3 may be a claim's variable (z1, z2, z3); it is the solver in text that speaks of solvers.
SOLVER_WORDS = frozenset({"cvc4", "cvc5", "solver", "solvers", "smt", "sat", "unsat"})
# Characters that say "this piece is a plain number or name": a product with one
# can be written by juxtaposition (2w₁, 54√74).
ATOM = re.compile(r"[0-9A-Za-z_₀-₉⁰-⁹π∞]+")


def math(text: str) -> str:
    """SymPy's printed form of an exact value or formula, typeset in Unicode:
    "-54*sqrt(74)/1369" -> "−54√74/1369", "2*w1**2 + 6*w1*w2" -> "2w₁² + 6w₁w₂"."""
    tokens = [t for t in TOKEN.findall(text)]
    items, rest = _group(tokens, 0)
    words = {t.lower() for t in tokens}
    proper = PROPER_NAMES | ({"z3"} if words & SOLVER_WORDS else set())
    # unbalanced text (never printed by SymPy) is shown as it came
    return text if rest != len(tokens) else _render(items, proper)


def _group(tokens: list[str], i: int) -> tuple[list, int]:
    """Tokens nested by parentheses: a "(" opens a sub-list, up to its ")"."""
    items = []
    while i < len(tokens):
        t = tokens[i]
        if t == "(":
            inner, i = _group(tokens, i + 1)
            if i >= len(tokens):  # no closing parenthesis
                return items, -1
            items.append(inner)
            i += 1
        elif t == ")":
            return items, i
        else:
            items.append(t)
            i += 1
    return items, i


def _render(items: list, proper: frozenset = PROPER_NAMES) -> str:
    out: list[str] = []  # rendered pieces; a product's "*" is decided between two pieces
    i = 0
    while i < len(items):
        t = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else None
        if isinstance(t, list):
            out.append("(" + _render(t, proper) + ")")
        elif t == "sqrt" and isinstance(nxt, list):
            inner = _render(nxt, proper)
            out.append("√" + inner if ATOM.fullmatch(inner) else f"√({inner})")
            i += 1
        elif t == "Abs" and isinstance(nxt, list):
            out.append(f"|{_render(nxt, proper)}|")
            i += 1
        elif t == "**":
            out.append(_power(nxt, proper))
            i += 1
        elif t == "*":
            out.append("*")  # resolved below, once both neighbours are rendered
        elif t == "-":
            out.append(MINUS)
        elif t[0].isalpha() or t[0] == "_":
            out.append(_name(t, proper))
        else:
            out.append(t)
        i += 1
    return "".join(_join_products(out))


def _power(exponent, proper: frozenset = PROPER_NAMES) -> str:
    if isinstance(exponent, list):
        inner = _render(exponent, proper)
        if re.fullmatch(r"−?\d+", inner):
            return inner.replace(MINUS, "-").translate(SUPERSCRIPT)
        return f"^({inner})"
    if exponent is not None and exponent.isdigit():
        return exponent.translate(SUPERSCRIPT)
    return "^" + (exponent or "")


def _name(name: str, proper: frozenset = PROPER_NAMES) -> str:
    if name in NAMES:
        return NAMES[name]
    if name.lower() in proper:
        return name
    m = INDEXED_NAME.fullmatch(name)
    return m.group(1) + m.group(2).translate(SUBSCRIPT) if m else name


def _join_products(pieces: list[str]) -> list[str]:
    """"*" between two factors: juxtaposed after a number or an indexed name
    (2w₁, 54√74, w₁w₂), a middle dot where juxtaposition would misread
    (√2·w₁ is not √(2w₁); 2·3 is not 23; ab is not a·b)."""
    out: list[str] = []
    for k, p in enumerate(pieces):
        if p != "*":
            out.append(p)
            continue
        left = out[-1] if out else ""
        right = pieces[k + 1] if k + 1 < len(pieces) else ""
        if not left or not right:
            out.append("·")
        elif right[0].isdigit() or (right[0] == MINUS):
            out.append("·")
        elif "√" in left and ATOM.fullmatch(left.rsplit("√", 1)[1] or "-"):
            out.append("·")  # √2 then w₁: juxtaposed it would read √(2w₁)
        elif left[-1].isascii() and left[-1].isalpha() and right[0].isascii() and right[0].isalpha():
            out.append("·")
        else:
            out.append("")
    return out


# -- the prose of a report, for a terminal that cannot show Unicode --------

ASCII = {
    "−": "-", "—": "--", "–": "-", "·": "*", "√": "sqrt", "≈": "~", "≠": "!=", "≤": "<=", "≥": ">=",
    "⟨": "<", "⟩": ">", "‖": "||", "→": "->", "✓": "ok", "✗": "FAILS", "…": "...", "ᵀ": "^T",
    "²": "^2", "³": "^3", "∇": "grad ", "μ": "mu", "σ": "sigma", "γ": "gamma", "β": "beta",
    "Ĉ": "C^", "Ŵ": "W^", "ŷ": "y^", "φ": "phi", "ε": "eps", "∞": "oo", "π": "pi", "×": "x",
    "±": "+/-", "⊥": "_|_", "∈": "in", "’": "'", "“": '"', "”": '"', "⁻": "^-",
}
ASCII.update({chr(0x2080 + k): str(k) for k in range(10)})  # subscripts: w₁ -> w1
ASCII.update({sup: f"^{k}" for k, sup in enumerate("⁰¹²³⁴⁵⁶⁷⁸⁹")})  # powers: w⁴ -> w^4
ASCII_TABLE = str.maketrans(ASCII)


# read before the single characters: ∇² is a Hessian, not a gradient squared
ASCII_WORDS = {"∇²": "Hess ", "Qᵀ": "Q^T ", "Xᵀ": "X^T "}


def ascii_line(line: str) -> str:
    """A report line in ASCII only: known symbols spelled out, anything else "?"."""
    for word, spelled in ASCII_WORDS.items():
        line = line.replace(word, spelled)
    return line.translate(ASCII_TABLE).encode("ascii", "replace").decode("ascii")


SAMPLE = "−√²₁⟨⟩‖✓≈—"


def unicode_ok(stream=None) -> bool:
    """Whether `stream` (default: stdout) can print the report's symbols."""
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        SAMPLE.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# -- wrapping at term boundaries ------------------------------------------

def width() -> int:
    """The terminal's width (COLUMNS wins; 80 when there is no terminal)."""
    return shutil.get_terminal_size((80, 24)).columns


def _breaks(text: str) -> list[tuple[int, int]]:
    """(position, depth) of each " + " / " − " / " - " between terms, where
    depth counts the parentheses around it; none inside a square root's
    argument, whatever its depth."""
    out, stack = [], []  # stack: for each open parenthesis, whether it is a √'s
    for k, ch in enumerate(text):
        if ch in "([{":
            stack.append(k > 0 and text[k - 1] == "√" or text[max(0, k - 4):k] == "sqrt")
        elif ch in ")]}":
            if stack:
                stack.pop()
        elif ch in "+−-" and text[k - 1:k] == " " and text[k + 1:k + 2] == " " and not any(stack):
            out.append((k - 1, len(stack)))
    return out


def wrap(head: str, body: str, columns: int | None = None) -> list[str]:
    """`head` + `body` in lines of at most `columns` characters where possible,
    broken before a " + " or " − " between terms (the outermost sum first; a
    sum inside parentheses only if the outermost level has none).  Each
    continuation line is indented under the start of `body` and begins with
    its operator.  A single term longer than the line is left whole."""
    columns = width() if columns is None else columns
    if len(head) + len(body) <= columns:
        return [head + body]
    breaks = _breaks(body)
    if not breaks:
        return [head + body]
    level = min(depth for _, depth in breaks)
    cuts = [pos for pos, depth in breaks if depth == level]
    pieces, start = [], 0
    for pos in cuts:
        pieces.append(body[start:pos])
        start = pos + 1  # the space before the operator becomes the line break
    pieces.append(body[start:])
    indent = " " * len(head)
    lines, current = [], head + pieces[0]
    for piece in pieces[1:]:
        if len(current) + 1 + len(piece) <= columns:
            current += " " + piece
        else:
            lines.append(current)
            current = indent + piece
    lines.append(current)
    return lines


def approx_suffix(exact: str, value: float | None, m=None) -> str:
    """" ≈ x" beside an exact residual, from its float; none without one.  A nonzero value
    below the float range underflows to ±0.0: shown with its bound, never as "≈ −0"."""
    import math

    m = m or (lambda text: text)
    if value is None:
        return ""
    if value == 0 and str(exact).strip() != "0":
        sign = "−" if math.copysign(1.0, value) < 0 else ""
        return f" ≈ {sign}0 (nonzero: below 1e−323 in magnitude)"
    return f" ≈ {m(format(value, '.6g'))}"

