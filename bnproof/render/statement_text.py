"""A claim's statement (its LaTeX source) as Unicode text for a terminal report:
\\left\\|\\nabla_{y_j}\\widehat{\\mathcal{L}}\\right\\|^2 \\leq \\frac{\\gamma^2}{\\sigma_j^2}
reads ‖∇_{yⱼ}ℒ̂‖² ≤ γ²/σⱼ².

The text is only read, token by token, never evaluated; a command this module does
not know is shown as it is written (\\foo), so nothing is lost, only left untypeset.
The LaTeX documents print the statement through the statement grammar instead
(latex_text.safe_statement); this is for the terminal only.
"""

from __future__ import annotations

import re
import unicodedata

TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_]|\s+|.", re.S)

SYMBOLS = {
    **{name: ch for name, ch in zip(
        "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi "
        "rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi "
        "Omega".split(), "αβγδεεζηθθικλμνξπρστυφφχψωΓΔΘΛΞΠΣΦΨΩ")},
    "|": "‖", "lVert": "‖", "rVert": "‖", "Vert": "‖", "langle": "⟨", "rangle": "⟩", "nabla": "∇",
    "partial": "∂", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "neq": "≠", "ne": "≠", "cdot": "·",
    "times": "×", "top": "ᵀ", "in": "∈", "notin": "∉", "forall": "∀", "exists": "∃", "implies": "⟹",
    "Rightarrow": "⇒", "Leftrightarrow": "⇔", "iff": "⟺", "to": "→", "mapsto": "↦", "infty": "∞",
    "sum": "Σ", "prod": "∏", "cap": "∩", "cup": "∪", "subseteq": "⊆", "subset": "⊂", "ell": "ℓ",
    "approx": "≈", "equiv": "≡", "pm": "±", "mid": "|", "ldots": "…", "dots": "…", "cdots": "⋯",
    "perp": "⊥", "circ": "∘", "setminus": "∖", "emptyset": "∅", "lvert": "|", "rvert": "|",
    "min": "min", "max": "max", "log": "log", "exp": "exp", "sup": "sup", "inf": "inf", "det": "det",
    "arg": "arg", "tanh": "tanh", "arccos": "arccos", "{": "{", "}": "}", "%": "%", "&": "&", "#": "#",
    "quad": "  ", "qquad": "  ", ",": " ", ";": " ", ":": " ", " ": " ", "!": "",
}
RELATIONS = set("≤≥≠⟹⇒⇔⟺∈∉→↦≈≡⊆⊂")  # set apart by spaces, as TeX spaces a relation
SIZES = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr",
         "Biggl", "Biggr", "displaystyle", "textstyle", "limits", "nolimits"}
INNER = {"text", "textrm", "mathrm", "mathbf", "mathit", "mathsf", "boldsymbol", "operatorname", "textbf",
         "textit", "mathnormal", "bm"}
ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "bar": "\u0304", "overline": "\u0304", "tilde": "\u0303",
           "widetilde": "\u0303", "dot": "\u0307", "vec": "\u20d7"}
CALLIGRAPHIC = {"L": "ℒ", "H": "ℋ", "F": "ℱ", "B": "ℬ", "E": "ℰ", "M": "ℳ", "R": "ℛ", "I": "ℐ"}
BLACKBOARD = {"R": "ℝ", "Z": "ℤ", "N": "ℕ", "Q": "ℚ", "C": "ℂ", "E": "𝔼", "P": "ℙ"}
SUPER = dict(zip("0123456789+-−=()niTt", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱᵀᵗ")) | {"ᵀ": "ᵀ", "*": "*", "′": "′"}
SUB = dict(zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))


def statement_unicode(latex: str) -> str:
    """The statement typeset in Unicode, as far as this module knows its commands."""
    tokens = _tokens(str(latex))
    try:
        text, _ = _sequence(tokens, 0, stop=None)
    except RecursionError:  # nested past any statement a paper prints: shown as written
        return str(latex)
    text = re.sub(FRACTION_END + r"(?=[\w(√∂∇‖⟨])", " ", text).replace(FRACTION_END, "")
    return unicodedata.normalize("NFC", re.sub(r"\s+", " ", text).strip())  # ŷ as one character


FRACTION_END = "\x00"  # after a/b, a letter that follows is set apart: 1/m ŷ, not 1/mŷ


def _tokens(text: str) -> list[str]:
    """Tokens, with the spaces after a control word dropped (as TeX drops them)."""
    out = []
    for t in TOKEN.findall(text):
        if t.isspace() and out and re.fullmatch(r"\\[A-Za-z]+", out[-1]):
            continue
        out.append(t)
    return out


def _sequence(tokens: list[str], i: int, stop: str | None) -> tuple[str, int]:
    out = []
    while i < len(tokens):
        t = tokens[i]
        if t == stop:
            return "".join(out), i + 1
        piece, i = _atom(tokens, i)
        if piece in ("^", "_"):
            arg, i = _argument(tokens, i)
            out.append(_script(arg, SUPER if piece == "^" else SUB, piece))
        else:
            out.append(piece)
    return "".join(out), i


def _argument(tokens: list[str], i: int) -> tuple[str, int]:
    """One argument: a braced group or a single atom (spaces skipped)."""
    while i < len(tokens) and tokens[i].isspace():
        i += 1
    if i >= len(tokens):
        return "", i
    if tokens[i] == "{":
        return _sequence(tokens, i + 1, "}")
    return _atom(tokens, i)


def _atom(tokens: list[str], i: int) -> tuple[str, int]:
    t = tokens[i]
    if t == "{":
        return _sequence(tokens, i + 1, "}")
    if t in ("^", "_"):
        return t, i + 1
    if t.isspace():
        return " ", i + 1
    if t == "-":
        return "−", i + 1
    if t in ("~", "&"):
        return " ", i + 1
    if not t.startswith("\\"):
        return t, i + 1
    name = t[1:]
    if name in SIZES:
        if i + 1 < len(tokens) and tokens[i + 1] in (".",):
            return "", i + 2  # \left. is no delimiter
        return "", i + 1
    if name in ("frac", "tfrac", "dfrac"):
        top, i = _argument(tokens, i + 1)
        bottom, i = _argument(tokens, i)
        return f"{_wrapped(top, product_ok=True)}/{_wrapped(bottom)}{FRACTION_END}", i
    if name == "sqrt":
        body, i = _argument(tokens, i + 1)
        return "√" + _wrapped(body), i
    if name in ACCENTS:
        body, i = _argument(tokens, i + 1)
        if not body.strip():
            return "", i
        return (body + ACCENTS[name]) if len(body) == 1 else f"({body}){ACCENTS[name]}", i
    if name == "mathcal":
        body, i = _argument(tokens, i + 1)
        return CALLIGRAPHIC.get(body, body), i
    if name == "mathbb":
        body, i = _argument(tokens, i + 1)
        return BLACKBOARD.get(body, body), i
    if name in INNER:
        return _argument(tokens, i + 1)
    if name in SYMBOLS:
        symbol = SYMBOLS[name]
        return (f" {symbol} " if symbol in RELATIONS else symbol), i + 1
    return t + " ", i + 1  # unknown: shown as written, set apart from what follows


def _script(text: str, table: dict, mark: str) -> str:
    text = text.strip()
    if not text:
        return ""
    if all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    if len(text) == 1:
        return mark + text
    return mark + "{" + text + "}"


def _wrapped(text: str, product_ok: bool = False) -> str:
    """A fraction's part or a root's argument in parentheses where it is more than one
    symbol (a numerator may be a product: (ab)/c = a·(b/c))."""
    text = text.replace(FRACTION_END, "").strip()
    marks = "\u0300-\u036f\u20d7⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾₀-₉ᵀⁿⁱᵗₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ′*"
    single = re.fullmatch(rf"(\d+(\.\d+)?|√?[^\W\d_]?[{marks}]*|[^\s()+−,=<>≤≥]?[{marks}]*)", text)
    product = re.fullmatch(rf"[\w{marks}√ℒℋℓ∂∇]+", text)
    bracketed = len(text) >= 2 and text[0] + text[-1] in ("()", "⟨⟩", "‖‖") and _balanced(text[1:-1])
    return text if single or bracketed or (product_ok and product) else f"({text})"


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0
