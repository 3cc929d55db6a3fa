"""Every display of every bnproof document: a LaTeX formula broken where it does not fit
its line, and only there, and laid out in amsmath's environments.

pdflatex cannot break a display, so a formula wider than the column is an overfull
box.  This module reads a formula into a small tree (tokens, brace groups,
\\left…\\right pairs, environments) and estimates its printed width in points from
Computer Modern's metrics (measured with pdflatex; tests compile the results).  A
formula that fits is one line.  One that does not is broken where a reader expects
it, in this order of preference: between two equations set side by side (at a
\\quad or \\qquad), before a relation, before a binary + or −, after a comma; each
choice costs a line, and among layouts with the fewest lines the breaks of the
kinds preferred, lines filled evenly and no short last line win (a dynamic program
over the break points, as TeX breaks paragraphs).  Only a term wider than a whole
line is opened: its widest \\left…\\right pair becomes fixed \\Bigl/\\Bigr delimiters
and may break inside, at a cost, and a line that starts inside it is indented further.

LaTeX's own breqn (dmath) was weighed against this: on the same documents it broke
the same short equations before their relation ("z_i(w)" / "= φ_w(x⁽ⁱ⁾)"), left
"> 0" alone on a line, broke inside \\left…\\right, and changes math mode for the
whole host paper once loaded, which a fragment pasted into a paper must not do.

Displays (Display, at the end of this module).  A Document (latex.py) records its displays as Display objects and lays them out when
it is rendered, for the width of the text they go on: its own page (one column of
an A4 page with 2.5 cm margins) or, for a fragment, a column of a two-column article
(229.5 pt), the narrowest a paper commonly has; `render(width=…)` names another.

A formula that fits its line is one `equation`.  One that does not is an `align`
block: broken as above, where a reader expects it, aligned at its first
relation when the left side is short ("C(w) &= …" over "&= …"), continuation lines
indented by \\qquad (a term that goes on inside an opened \\Bigl…\\Bigr by another
\\quad per level, so that "− γ m S[g x]\\Bigr) x" never reads as a new term), two
equations set side by side stacked, each aligned at its own relation.  The block
has one number, on its last line.  Never multline: it pushes a last line to the
right margin.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\\[A-Za-z]+\s*|\\.|\s+|.", re.S)

RELATIONS = {"=", "<", ">", r"\leq", r"\geq", r"\le", r"\ge", r"\neq", r"\ne", r"\approx",
             r"\implies", r"\iff", r"\equiv", r"\to", r"\mapsto", r"\in", r"\notin", r"\lt",
             r"\gt", r"\coloneqq", r"\subseteq", r"\subset", r"\sim"}
BINARY = {"+", "-", r"\pm", r"\mp"}
OPENERS = RELATIONS | BINARY | {"(", "[", ",", r"\cdot", r"\times", "^", "_", r"\quad", r"\qquad"}
SPACES = {r"\quad", r"\qquad"}

# Widths in points at 10 pt (Computer Modern), measured with pdflatex: math italic
# letters, upright digits and punctuation, the operators with their spacing.
_LETTERS = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    (5.29, 4.29, 4.33, 5.20, 4.66, 5.97, 5.13, 5.76, 3.45, 4.69, 5.52, 3.18, 8.78, 6.00, 4.85, 5.03,
     4.82, 4.79, 4.69, 3.61, 5.72, 5.21, 7.43, 5.72, 5.26, 5.09, 7.50, 8.09, 7.86, 8.56, 7.96, 7.82,
     7.86, 9.12, 5.18, 6.51, 9.21, 6.81, 10.79, 9.12, 7.91, 7.81, 7.91, 7.67, 6.71, 7.23, 7.92, 8.06,
     10.83, 9.07, 8.03, 7.54)))
_CHARS = {"(": 3.89, ")": 3.89, "[": 2.78, "]": 2.78, "|": 2.78, "/": 5.0, ",": 4.45, ";": 4.45,
          ".": 2.78, "'": 2.81, "*": 5.0, "!": 2.78, "?": 4.72, ":": 8.34, "&": 0.0}
_WIDE = {
    r"\quad": 10, r"\qquad": 20, r"\ ": 3.33, r"\,": 1.67, r"\;": 2.78, r"\:": 2.22, r"\!": -1.67,
    r"\sum": 14.44, r"\prod": 12.78, r"\max": 20.3, r"\min": 18.3, r"\sup": 15, r"\inf": 12,
    r"\log": 14.6, r"\exp": 16.9, r"\ln": 10, r"\lim": 14.6, r"\det": 15.5, r"\tanh": 21.7,
    r"\arccos": 28.4, r"\sin": 13.9, r"\cos": 15.0, r"\Pr": 12.4,
    r"\nabla": 8.33, r"\partial": 5.86, r"\langle": 3.89, r"\rangle": 3.89, r"\|": 5.0,
    r"\cdot": 7.22, r"\times": 12.22, r"\ldots": 11.67, r"\cdots": 13.33, r"\dots": 11.67,
    r"\infty": 10.0, r"\top": 7.78, r"\forall": 5.56, r"\exists": 5.56, r"\approx": 13.33,
    r"\mapsto": 15.56, r"\to": 15.56, r"\implies": 27.22, r"\iff": 29.44, r"\in": 12.22,
    r"\notin": 12.22, r"\ell": 4.17, r"\surd": 8.33, r"\{": 5.0, r"\}": 5.0, r"\perp": 7.78,
    r"\alpha": 6.43, r"\beta": 6.18, r"\gamma": 5.73, r"\delta": 4.82, r"\epsilon": 4.06,
    r"\varepsilon": 4.66, r"\mu": 6.03, r"\sigma": 6.07, r"\lambda": 5.83, r"\kappa": 5.76,
    r"\varphi": 6.54, r"\phi": 5.96, r"\theta": 4.97, r"\rho": 5.17, r"\tau": 5.50, r"\pi": 6.06,
    r"\eta": 5.32, r"\omega": 6.58, r"\nu": 5.20, r"\xi": 5.0, r"\zeta": 4.6, r"\chi": 6.2,
    r"\psi": 6.9, r"\Gamma": 6.25, r"\Sigma": 7.22, r"\Delta": 8.33, r"\Lambda": 6.94,
    r"\Phi": 7.22, r"\Psi": 7.78, r"\Omega": 7.22, r"\Theta": 7.78,
    r"\bigl": 0.8, r"\bigr": 0.8, r"\Bigl": 2.0, r"\Bigr": 2.0, r"\biggl": 3.5, r"\biggr": 3.5,
    r"\Biggl": 4.5, r"\Biggr": 4.5, r"\left": 0.0, r"\right": 0.0, r"\notag": 0.0, r"\label": 0.0,
}
_WIDTH_RELATION = 13.33
_WIDTH_BINARY = 12.22
_TEXT_COMMANDS = {r"\text", r"\mathrm", r"\textrm", r"\mbox", r"\operatorname", r"\mathit", r"\textit",
                  r"\textbf", r"\mathsf", r"\mathtt", r"\texttt"}
_FONTS = {r"\mathbf", r"\mathbb", r"\mathcal", r"\boldsymbol", r"\mathfrak", r"\bm"}
_ACCENTED = {r"\hat", r"\widehat", r"\bar", r"\overline", r"\tilde", r"\widetilde", r"\vec", r"\dot",
             r"\ddot", r"\check", r"\breve", r"\underline"}
_LIMITS = {r"\sum", r"\prod", r"\max", r"\min", r"\lim", r"\sup", r"\inf"}
_PAIRS = {"(": ")", "[": "]", r"\{": r"\}", r"\langle": r"\rangle", r"\|": r"\|", "|": "|",
          ".": "."}


@dataclass
class Token:
    text: str

    @property
    def name(self) -> str:
        return self.text.strip() if self.text.startswith("\\") else self.text


@dataclass
class Opened(Token):
    """A fixed-size delimiter of a \\left…\\right pair opened so that it may break inside:
    step +1 on the left, -1 on the right."""

    step: int = 0


@dataclass
class Group:
    children: list


@dataclass
class LeftRight:
    left: str  # the delimiter after \left, e.g. "(" or "\\|"
    children: list
    right: str


@dataclass
class Env:
    name: str
    children: list


class ParseError(ValueError):
    pass


def tokenize(tex: str) -> list[Token]:
    return [Token(t) for t in _TOKEN.findall(tex)]


def parse(tex: str) -> list:
    tokens = tokenize(tex)
    nodes, pos = _parse(tokens, 0, None)
    if pos != len(tokens):
        raise ParseError("unbalanced braces or \\left/\\right")
    return nodes


def _delimiter(tokens, pos) -> tuple[str, int]:
    while pos < len(tokens) and tokens[pos].text.isspace():
        pos += 1
    if pos >= len(tokens):
        raise ParseError("\\left or \\right without a delimiter")
    return tokens[pos].name, pos + 1


def _parse(tokens, pos, until):
    nodes = []
    while pos < len(tokens):
        tok = tokens[pos]
        name = tok.name
        if name == "{":
            children, pos = _parse(tokens, pos + 1, "}")
            nodes.append(Group(children))
            continue
        if name == "}":
            if until != "}":
                raise ParseError("unbalanced braces")
            return nodes, pos + 1
        if name == r"\left":
            left, pos = _delimiter(tokens, pos + 1)
            children, pos = _parse(tokens, pos, r"\right")
            right, pos = _delimiter(tokens, pos)
            nodes.append(LeftRight(left, children, right))
            continue
        if name == r"\right":
            if until != r"\right":
                raise ParseError("\\right without \\left")
            return nodes, pos + 1
        if name == r"\begin":
            env_name, pos = _env_name(tokens, pos + 1)
            children, pos = _parse(tokens, pos, r"\end")
            end_name, pos = _env_name(tokens, pos)
            if end_name != env_name:
                raise ParseError(f"\\begin{{{env_name}}} ended by \\end{{{end_name}}}")
            nodes.append(Env(env_name, children))
            continue
        if name == r"\end":
            if until != r"\end":
                raise ParseError("\\end without \\begin")
            return nodes, pos + 1
        nodes.append(tok)
        pos += 1
    if until is not None:
        raise ParseError("unbalanced braces or \\left/\\right")
    return nodes, pos


def _env_name(tokens, pos) -> tuple[str, int]:
    if pos >= len(tokens) or tokens[pos].name != "{":
        raise ParseError("\\begin or \\end without a name")
    end = pos + 1
    while end < len(tokens) and tokens[end].name != "}":
        end += 1
    return "".join(t.text for t in tokens[pos + 1:end]), end + 1


def unparse(nodes) -> str:
    out = []
    for node in nodes:
        if isinstance(node, Token):
            out.append(node.text)
        elif isinstance(node, Group):
            out.append("{" + unparse(node.children) + "}")
        elif isinstance(node, LeftRight):
            out.append(rf"\left{_sep(node.left)}" + unparse(node.children)
                       + rf"\right{_sep(node.right)}")
        else:
            out.append(rf"\begin{{{node.name}}}" + unparse(node.children) + rf"\end{{{node.name}}}")
    return _join(out)


def _sep(delim: str) -> str:
    """A delimiter after \\left, \\right or \\Bigl: a control word keeps a space
    on both sides so that it never runs into a letter."""
    if delim.startswith("\\") and delim[1:2].isalpha():
        return " " + delim + " "
    return delim


def _join(parts: list[str]) -> str:
    text = ""
    for part in parts:
        text = glue(text, part)
    return text


def glue(text: str, piece: str) -> str:
    """Concatenate, keeping a control word apart from a following letter."""
    if text and re.search(r"\\[A-Za-z]+$", text) and piece[:1].isalpha():
        return text + " " + piece
    return text + piece


# -- width -------------------------------------------------------------------

def width(nodes, scale: float = 1.0, display: bool = True) -> float:
    """The printed width in points (display style at 10 pt), estimated."""
    total, i = 0.0, 0
    while i < len(nodes):
        node = nodes[i]
        if isinstance(node, Group):
            total += width(node.children, scale, display)
        elif isinstance(node, LeftRight):
            total += width(node.children, scale, display) + _delimiters_width(node) * scale
        elif isinstance(node, Env):
            total += _env_width(node, scale)
        else:
            used, w = _token(nodes, i, scale, display)
            total += w
            i += used
        i += 1
    return total


def _script_scale(scale: float) -> float:
    return max(0.5, scale * 0.7)


def _token(nodes, i: int, scale: float, display: bool) -> tuple[int, float]:
    """(the nodes after nodes[i] it takes as arguments, its width)."""
    node = nodes[i]
    name = node.name
    args, used = _args(nodes, i)
    if name in (r"\frac", r"\dfrac", r"\tfrac") and len(args) == 2:
        inner = scale if (display or name == r"\dfrac") and name != r"\tfrac" else _script_scale(scale)
        return used, max(width(a, inner, False) for a in args) + 2.4 * scale
    if name in ("^", "_") and args:
        first = next(j for j in range(i + 1, len(nodes))
                     if not (isinstance(nodes[j], Token) and nodes[j].text.isspace()))
        return first - i, width(args[0], _script_scale(scale), False) + 0.5 * scale
    if name in _LIMITS and display:  # limits set above and below the operator
        scripts, j = [], i + 1
        while j + 1 < len(nodes) and isinstance(nodes[j], Token) and nodes[j].name in ("^", "_"):
            scripts.append(width(_arg(nodes[j + 1]), _script_scale(scale), False))
            j += 2
        return j - i - 1, max([_WIDE[name] * scale, *scripts]) + 1.67 * scale
    if name == r"\sqrt" and args:
        return 1, width(args[0], scale, display) + (8.33 + (1.5 if _is_tall(args[0]) else 0)) * scale
    if name in _TEXT_COMMANDS and args:
        return 1, _text_width(unparse(args[0])) * scale
    if name in _FONTS and args:
        return 1, width(args[0], scale, display) * 1.1
    if name in _ACCENTED and args:
        return 1, width(args[0], scale, display)
    if name in (r"\label", r"\tag"):
        return min(used, 1), 0.0
    return 0, _token_width(node) * scale


def _arg(node) -> list:
    return node.children if isinstance(node, Group) else [node]


def _args(nodes, i) -> tuple[list, int]:
    """The brace groups (or single tokens) after position i, up to two."""
    args, j = [], i + 1
    while j < len(nodes) and len(args) < 2:
        node = nodes[j]
        if isinstance(node, Token) and node.text.isspace():
            j += 1
            continue
        args.append(_arg(node))
        j += 1
    return args, j - i - 1


def _text_width(text: str) -> float:
    """Roman text: capitals and lower-case letters at their average widths."""
    total = 0.0
    for ch in text:
        if ch.isupper():
            total += 7.2
        elif ch == " ":
            total += 3.33
        elif ch in "ilj.,;:'!|":
            total += 2.8
        elif ch in "mw":
            total += 7.5
        else:
            total += 5.0
    return total


def _token_width(tok: Token) -> float:
    name = tok.name
    if tok.text.isspace():
        return 0.0
    if name in _WIDE:
        return _WIDE[name]
    if name in RELATIONS:
        return _WIDTH_RELATION
    if name in BINARY:
        return _WIDTH_BINARY
    if isinstance(tok, Opened):  # \Bigl( : the size's extra width and the delimiter's own
        size = re.match(r"\\[A-Za-z]+", name).group()
        return _WIDE.get(size, 2.0) + _token_width(Token(name[len(size):].strip() or "."))
    if name in _LETTERS:
        return _LETTERS[name]
    if name in _CHARS:
        return _CHARS[name]
    if name.isdigit():
        return 5.0
    if name.startswith("\\"):
        if name == "\\\\":
            return 0.0
        return 7.0 if name[1:].isalpha() else 5.0
    return 5.0


def _is_tall(nodes) -> bool:
    for node in nodes:
        if isinstance(node, Token) and node.name in (r"\frac", r"\sum", r"\sqrt", r"\dfrac", r"\prod"):
            return True
        if isinstance(node, (Group, LeftRight)) and _is_tall(node.children):
            return True
        if isinstance(node, Env):
            return True
    return False


_DELIMITERS = {"(": 3.89, ")": 3.89, "[": 2.78, "]": 2.78, r"\|": 5.0, "|": 2.78, r"\langle": 3.89,
               r"\rangle": 3.89, r"\{": 5.0, r"\}": 5.0, ".": 1.2}


def _has_scripts(nodes) -> bool:
    """Scripts or a wide accent inside a pair: its delimiters reach a little further."""
    for node in nodes:
        if isinstance(node, Token) and node.name in ("_", "^", r"\widehat", r"\widetilde"):
            return True
        if isinstance(node, (Group, LeftRight)) and _has_scripts(node.children):
            return True
    return False


def _delimiters_width(pair: LeftRight) -> float:
    """A \\left…\\right pair's two delimiters: as its content is tall, they grow."""
    grow = 7.9 if any(isinstance(n, Env) for n in pair.children) else 7.4 if _is_tall(pair.children) \
        else 5.9 if _has_scripts(pair.children) else 0
    return sum(max(_DELIMITERS.get(d, 4.0), grow if d != "." else 1.2) + 0.4 for d in (pair.left, pair.right))


def _env_width(env: Env, scale: float) -> float:
    rows, row, cell = [], [], []
    for node in env.children:
        if isinstance(node, Token) and node.name == "&":
            row.append(cell)
            cell = []
        elif isinstance(node, Token) and node.name == "\\\\":
            row.append(cell)
            rows.append(row)
            row, cell = [], []
        else:
            cell.append(node)
    row.append(cell)
    rows.append(row)
    ncols = max(len(r) for r in rows)
    cols = [max(width(r[k], scale, False) if k < len(r) else 0 for r in rows) for k in range(ncols)]
    delimiters = {"pmatrix": 16, "bmatrix": 12, "vmatrix": 8, "cases": 10}.get(env.name, 0)
    return sum(cols) + 10 * scale * (ncols - 1) + delimiters * scale + (10 if env.name == "cases" else 0)


# -- breaking ---------------------------------------------------------------------

# What a break of each kind costs, beyond the line it adds (LINE): a new equation of two
# set side by side is the natural place; then a relation; then a comma of a list (between
# a vector's entries rather than inside one); then a binary + or −.  Inside an opened \Bigl…\Bigr pair each level costs INSIDE more.
LINE = 1000.0
PENALTY = {"sep": 0.0, "rel": 150.0, "comma": 200.0, "bin": 250.0}
SLACK = 100.0  # times the square of the share of a line left empty (not the last line)
INSIDE = 400.0
SHORT_LAST = 150.0  # a last line under a fifth of its line: "= φ_w(x⁽ⁱ⁾)" alone
NUMBER_BELOW = 300.0  # a last line too wide for the equation number beside it: amsmath sets it below
MIXED = 1500.0  # a line that leaves the pair it began in and ends inside another: "−1) + (2·x"
OVERFULL = 1e4  # per point over the line


@dataclass
class Line:
    """One line of a broken formula: how it begins (first, sep: a new equation, rel: a
    relation, bin: a binary + or −, comma: after a comma) and inside how many opened
    pairs."""

    nodes: list
    kind: str = "first"
    depth: int = 0

    @property
    def text(self) -> str:
        return unparse(self.nodes).strip()


@dataclass(frozen=True)
class _Break:
    end: int  # the line before it ends at nodes[end] (exclusive)
    start: int  # the next line starts at nodes[start]
    kind: str
    depth: int


def layout(tex_or_nodes, first: float, rest: float | None = None, last: float | None = None,
           aligned: bool = False) -> list[Line]:
    """The formula as lines: the first at most `first` points wide, the others (indented
    below it) at most `rest`, and the last (beside the equation number) at most `last`;
    one line if it fits.  A new equation starts where the first line does, and so
    (`aligned`: the lines are aligned at their relation) does a line that starts with a
    relation: those take `first`."""
    nodes = parse(tex_or_nodes) if isinstance(tex_or_nodes, str) else list(tex_or_nodes)
    rest = first if rest is None else rest
    last = rest if last is None else last
    if width(nodes) <= min(first, last):
        return [Line(nodes)]
    for _ in range(50):
        wide = {"first", "sep", "rel"} if aligned else {"first", "sep"}
        lines = _best(nodes, first, rest, last, wide)
        budgets = [first if line.kind in wide else rest for line in lines]
        too_wide = [line for line, b in zip(lines, budgets) if width(line.nodes) > b]
        opened = next((o for o in (_open_widest(nodes, line.nodes, rest * 0.4) for line in too_wide)
                       if o is not None), None)
        if opened is None:
            return lines
        nodes = opened
    return lines


def break_lines(tex: str, budget: float) -> list[str]:
    """The formula as one or more lines, each estimated to fit in ``budget`` points."""
    return [line.text for line in layout(tex, budget)]


def _breaks(nodes) -> list[_Break]:
    out, depth = [], 0
    for i, node in enumerate(nodes):
        if isinstance(node, Opened):
            depth += node.step
            continue
        if not isinstance(node, Token) or i == 0:
            continue
        prev = _previous(nodes, i)
        if prev is None:
            continue
        if node.name in SPACES and depth == 0:
            start = i + 1
            while start < len(nodes) and isinstance(nodes[start], Token) and nodes[start].text.isspace():
                start += 1
            if start < len(nodes):
                out.append(_Break(i, start, "sep", 0))
        elif node.name in RELATIONS and not _is_opener(prev):
            out.append(_Break(i, i, "rel", depth))
        elif node.name in BINARY and not _is_opener(prev):
            out.append(_Break(i, i, "bin", depth))
        elif node.name == "," and i + 1 < len(nodes):
            after = next((n for n in nodes[i + 1:] if not (isinstance(n, Token) and n.text.isspace())), None)
            if after is not None and not (isinstance(after, Token) and after.name in SPACES) \
                    and not (isinstance(after, Opened) and after.step < 0):
                out.append(_Break(i + 1, i + 1, "comma", depth))
    return out


def _previous(nodes, i):
    return next((n for n in reversed(nodes[:i]) if not (isinstance(n, Token) and n.text.isspace())), None)


def _is_opener(node) -> bool:
    if isinstance(node, Opened):
        return node.step > 0
    return isinstance(node, Token) and node.name in OPENERS


def _best(nodes, first: float, rest: float, last: float, wide: set) -> list[Line]:
    """The cheapest lines (a dynamic program over the break points)."""
    breaks = [_Break(0, 0, "first", 0)] + _breaks(nodes)
    ends = [b.end for b in breaks[1:]] + [len(nodes)]
    # widths of the pieces between consecutive break points, summed for a line
    points = sorted({0, len(nodes), *(b.end for b in breaks), *(b.start for b in breaks)})
    piece = {(a, b): width(nodes[a:b]) for a, b in zip(points, points[1:])}
    index = {p: k for k, p in enumerate(points)}

    def span(a: int, b: int) -> float:
        return sum(piece[(points[k], points[k + 1])] for k in range(index[a], index[b]))

    depth = [0]  # depth[k]: opened pairs around nodes[k] (before it)
    for node in nodes:
        depth.append(depth[-1] + (node.step if isinstance(node, Opened) else 0))

    def mixed(a: int, b: int) -> bool:
        low = min(depth[a:b + 1])
        return low < depth[a] and depth[b] > low

    n = len(breaks)
    cost = [0.0] + [float("inf")] * n  # cost[j]: lines up to break j (n: the end)
    choice = [0] * (n + 1)
    for j in range(1, n + 1):
        end = ends[j - 1]
        for i in range(j - 1, -1, -1):
            start = breaks[i].start
            if end <= start:
                continue
            budget = first if breaks[i].kind in wide else rest
            w = span(start, end)
            c = cost[i] + _line_cost(w, budget, breaks[i], last=(j == n))
            if j == n and w > last:
                c += NUMBER_BELOW
            if mixed(start, end):
                c += MIXED
            if c < cost[j]:
                cost[j], choice[j] = c, i
            if w > 3 * budget and i > 0:
                break  # longer lines only get wider
    lines, j = [], n
    while j > 0:
        i = choice[j]
        b = breaks[i]
        lines.append(Line(nodes[b.start:ends[j - 1]], b.kind, b.depth))
        j = i
    return lines[::-1]


def _line_cost(w: float, budget: float, begins: _Break, last: bool) -> float:
    cost = LINE + PENALTY.get(begins.kind, 0.0) + INSIDE * begins.depth
    if w > budget:  # by the points over: two lines each a little too wide beat one far too wide
        return cost + OVERFULL * (w - budget)
    slack = (budget - w) / budget
    if not last:
        return cost + SLACK * slack * slack
    return cost + (SHORT_LAST if w < budget / 5 and begins.kind != "first" else 0.0)


def _open_widest(nodes, line, limit: float) -> list | None:
    """Replace the widest \\left…\\right pair of ``line`` wider than limit by fixed-size
    delimiters with its inside spliced in, so the inside can be broken; None if there
    is none."""
    best, best_width = None, limit
    for node in line:
        if isinstance(node, LeftRight):
            w = width([node])
            if w > best_width:
                best, best_width = node, w
    if best is None:
        return None
    at = next(k for k, n in enumerate(nodes) if n is best)
    size = r"\biggl" if _is_tall(best.children) else r"\Bigl"
    return (nodes[:at] + [Opened(size + _sep(best.left), 1)] + best.children
            + [Opened(size[:-1] + "r" + _sep(best.right), -1)] + nodes[at + 1:])


# -- displays: a formula laid out for the line it is printed on --------------------

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
