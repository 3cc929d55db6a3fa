"""Break a long LaTeX math formula into lines that fit the page.

pdflatex cannot break a display, so a formula wider than the text block is an
overfull box.  This module reads a formula into a small tree (tokens, brace
groups, \\left…\\right pairs, environments), estimates its printed width in
points, and splits it at top-level relations, binary + and − and commas.
When one \\left…\\right pair is itself too wide, its delimiters become fixed
\\biggl/\\biggr ones, which may sit on different lines, and its inside is split.
The width estimate is deliberately pessimistic; tests compile the results.
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

# Widths in points at 10 pt (Computer Modern), rounded up.
_WIDE = {
    r"\quad": 10, r"\qquad": 20, r"\ ": 3.4, r"\,": 1.7, r"\;": 2.8, r"\:": 2.2, r"\!": -1.7,
    r"\sum": 15, r"\prod": 15, r"\max": 18, r"\min": 16, r"\sup": 15, r"\inf": 12,
    r"\log": 13, r"\exp": 16, r"\ln": 9, r"\lim": 14, r"\implies": 28, r"\iff": 28,
    r"\nabla": 8.5, r"\partial": 6, r"\langle": 4, r"\rangle": 4, r"\|": 5.5, r"\cdot": 8,
    r"\times": 12.5, r"\ldots": 14, r"\cdots": 14, r"\dots": 14, r"\infty": 10, r"\top": 8,
    r"\forall": 6, r"\exists": 6, r"\approx": 14, r"\mapsto": 21, r"\to": 21,
}
_PAIRS = {"(": ")", "[": "]", r"\{": r"\}", r"\langle": r"\rangle", r"\|": r"\|", "|": "|",
          ".": "."}


@dataclass
class Token:
    text: str

    @property
    def name(self) -> str:
        return self.text.strip() if self.text.startswith("\\") else self.text


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
    """A delimiter after \\left, \\right or \\biggl: a control word keeps a space
    on both sides so that it never runs into a letter."""
    if delim.startswith("\\") and delim[1:2].isalpha():
        return " " + delim + " "
    return delim


def _join(parts: list[str]) -> str:
    """Concatenate, keeping a control word apart from a following letter."""
    text = ""
    for part in parts:
        if text and re.search(r"\\[A-Za-z]+$", text) and part[:1].isalpha():
            text += " "
        text += part
    return text


# -- width -------------------------------------------------------------------

def width(nodes, scale: float = 1.0, display: bool = True) -> float:
    total, i = 0.0, 0
    while i < len(nodes):
        node = nodes[i]
        if isinstance(node, Group):
            total += width(node.children, scale, display)
        elif isinstance(node, LeftRight):
            tall = _is_tall(node.children)
            total += width(node.children, scale, display) + (7 if tall else 4) * scale * 2
        elif isinstance(node, Env):
            total += _env_width(node, scale)
        else:
            name = node.name
            args, used = _args(nodes, i)
            if name in (r"\frac", r"\dfrac", r"\tfrac") and len(args) == 2:
                inner = scale if display else scale * 0.7
                total += max(width(a, inner, False) for a in args) + 3 * scale
                i += used
            elif name in ("^", "_") and args:
                total += width(args[0], scale * 0.7, False)
                i += 1
            elif name == r"\sqrt" and args:
                total += width(args[0], scale, display) + 9 * scale
                i += 1
            elif name in (r"\text", r"\mathrm", r"\textrm", r"\mbox") and args:
                total += 5.2 * scale * len(unparse(args[0]))
                i += 1
            elif name in (r"\mathbf", r"\mathbb", r"\mathcal", r"\mathit", r"\hat", r"\widehat",
                          r"\bar", r"\overline", r"\tilde", r"\widetilde", r"\boldsymbol",
                          r"\operatorname", r"\mathtt") and args:
                total += width(args[0], scale, display) * 1.15
                i += 1
            else:
                total += _token_width(node) * scale
        i += 1
    return total


def _args(nodes, i) -> tuple[list, int]:
    """The brace groups (or single tokens) after position i, up to two."""
    args, j = [], i + 1
    while j < len(nodes) and len(args) < 2:
        node = nodes[j]
        if isinstance(node, Token) and node.text.isspace():
            j += 1
            continue
        args.append(node.children if isinstance(node, Group) else [node])
        j += 1
    return args, j - i - 1


def _token_width(tok: Token) -> float:
    name = tok.name
    if tok.text.isspace():
        return 0.0
    if name in _WIDE:
        return _WIDE[name]
    if name in RELATIONS:
        return 14.5
    if name in BINARY:
        return 12.5
    if name.startswith("\\"):
        return 7.0 if name[1:].isalpha() else 4.0
    if name.isdigit():
        return 5.0
    if name.isalpha():
        return 6.0 if name.isupper() else 5.5
    if name in "()[]|":
        return 4.0
    if name == ",":
        return 4.5
    return 5.0


def _is_tall(nodes) -> bool:
    for node in nodes:
        if isinstance(node, Token) and node.name in (r"\frac", r"\sum", r"\sqrt", r"\dfrac"):
            return True
        if isinstance(node, (Group, LeftRight)) and _is_tall(node.children):
            return True
        if isinstance(node, Env):
            return True
    return False


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
    return sum(cols) + 12 * scale * ncols


# -- breaking ---------------------------------------------------------------------

def _is_break_before(nodes, i) -> bool:
    """A line may start at nodes[i]: a relation or a binary + or −, at top level."""
    node = nodes[i]
    if not isinstance(node, Token) or i == 0:
        return False
    if node.name in RELATIONS:
        return True
    if node.name not in BINARY:
        return False
    prev = next((n for n in reversed(nodes[:i]) if not (isinstance(n, Token) and n.text.isspace())),
                None)
    return prev is not None and not (isinstance(prev, Token) and prev.name in OPENERS)


def _segments(nodes) -> list[list]:
    """Split at break points; a comma ends its segment (the break comes after it)."""
    segments, current = [], []
    for i, node in enumerate(nodes):
        if current and _is_break_before(nodes, i):
            segments.append(current)
            current = []
        current.append(node)
        if isinstance(node, Token) and node.name == "," and i + 1 < len(nodes):
            segments.append(current)
            current = []
    if current:
        segments.append(current)
    return segments


def _open_widest(nodes, line, limit: float) -> list | None:
    """Replace the widest \\left…\\right pair of ``line`` wider than limit by
    fixed-size delimiters with its inside spliced in, so the inside can be
    broken; None if there is none."""
    best, best_width = None, limit
    for node in line:
        if isinstance(node, LeftRight):
            w = width([node])
            if w > best_width:
                best, best_width = node, w
    if best is None:
        return None
    at = _index_of(nodes, best)
    size = r"\biggl" if _is_tall(best.children) else r"\Bigl"
    opened = []
    if best.left != ".":
        opened.append(Token(size + _sep(best.left)))
    opened.extend(best.children)
    if best.right != ".":
        opened.append(Token(size[:-1] + "r" + _sep(best.right)))
    return nodes[:at] + opened + nodes[at + 1:]


def break_lines(tex: str, budget: float) -> list[str]:
    """The formula as one or more lines, each estimated to fit in ``budget`` points."""
    nodes = parse(tex)
    for _ in range(50):
        lines = _pack(_segments(nodes), budget)
        too_wide = [line for line in lines if width(line) > budget]
        if not too_wide:
            break
        opened = None
        for line in too_wide:
            opened = _open_widest(nodes, line, budget * 0.5)
            if opened is not None:
                break
        if opened is None:
            break
        nodes = opened
    return [unparse(line).strip() for line in lines]


def _index_of(nodes, node) -> int | None:
    for i, n in enumerate(nodes):
        if n is node:
            return i
    return None


def _pack(segments, budget: float) -> list[list]:
    lines, current, used = [], [], 0.0
    for seg in segments:
        w = width(seg)
        if current and used + w > budget:
            lines.append(current)
            current, used = [], 0.0
        current = current + seg
        used += w
    if current:
        lines.append(current)
    return lines
