"""A normal form for people: Unicode for the terminal, LaTeX for --json and documents.
Sums are ⟨·,·⟩-free batch sums Σ y²g (Σ over the batch), roots r₁ with their radicands."""

from __future__ import annotations

from fractions import Fraction

from . import poly as P
from .algebra import Algebra, Scalar

SUPER = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
MAX_SHOWN = 12  # terms shown before "+ … (N terms)"


def names_of(claim) -> dict:
    """{input name: (Unicode, LaTeX)}: the symbol the claim declares for it (`symbols`) where
    that is one symbol (\\varepsilon, \\hat{y}), as the proof document writes it
    (render/latex_proof.symbols_of); a formula such as \\nabla_{y_j} L stays the name.  Where
    none is declared, _input writes a Greek name as its letter (eps: ε)."""
    from ..claims.symbols import symbol_text

    out = {}
    for name, latex in dict(getattr(claim, "symbols", None) or {}).items():
        text = symbol_text(latex) if isinstance(latex, str) else None
        if text is not None:
            out[name] = (text, latex.strip())
    if "eps" not in out and "epsilon" not in out and "\\epsilon" in str(getattr(claim, "statement", "")):
        out.update({n: ("ε", r"\epsilon") for n in ("eps", "epsilon")})  # the statement's own ε
    return out


def _input(name: str, latex: bool, names: dict | None = None) -> str:
    from ..claims.symbols import NAME_ALIASES, greek_name

    base, _, rest = name.partition(":")
    declared = (names or {}).get(base)
    if declared is not None:
        shown = declared[1 if latex else 0]
    elif greek_name(base) is not None:
        letter = NAME_ALIASES.get(base, base)
        shown = ("\\" + ("varepsilon" if letter == "epsilon" else letter)) if latex else greek_name(base)
    else:
        shown = base
    if rest:
        return f"{shown}_{{{rest.replace(':', ',')}}}" if latex else f"{shown}[{rest.replace(':', ',')}]"
    return shown


def _gen(alg: Algebra, g: int, latex: bool, names: dict | None = None) -> str:
    desc = alg.gens[g]
    if desc[0] == "in":
        return _input(desc[1], latex, names)
    inner = _vmono(alg, desc[1], latex, names) or "1"
    return f"H({inner})"


def _vmono(alg: Algebra, mono: tuple, latex: bool, names: dict | None = None) -> str:
    parts = []
    for g, e in mono:
        name = _gen(alg, g, latex, names)
        parts.append(name if e == 1 else (f"{name}^{{{e}}}" if latex else name + str(e).translate(SUPER)))
    return (r"\," if latex else "").join(parts)


def atom_name(alg: Algebra, v: int, latex: bool, names: dict | None = None) -> str:
    desc = alg.atoms[v]
    if desc[0] == "m":
        return "m"
    if desc[0] == "in":
        return _input(desc[1], latex, names)
    if desc[0] == "S":
        body = _vmono(alg, desc[2], latex, names) or "1"
        return rf"\textstyle\sum {body}" if latex else f"Σ{body}"
    if desc[0] == "r":
        k = sorted(alg.roots).index(v) + 1
        return f"r_{{{k}}}" if latex else "r" + str(k).translate(SUB)
    return str(desc)


def poly_text(alg: Algebra, p, latex: bool, names: dict | None = None) -> str:
    if not p:
        return "0"
    out = []
    items = sorted(P.ordered(p), key=lambda kv: (-sum(e for _, e in kv[0]), kv[0]))
    for i, (mono, c) in enumerate(items):
        if i == MAX_SHOWN:
            out.append(f" + \\dots ({len(items)} terms)" if latex else f" + … ({len(items)} terms)")
            break
        sign = "-" if c < 0 else "+"
        c = abs(c)
        factors = []
        for v, e in mono:
            name = atom_name(alg, v, latex, names)
            if alg.atoms[v][0] == "S" and (latex or len(mono) > 1 or e > 1):
                name = rf"\left({name}\right)" if latex else f"({name})"
            factors.append(name if e == 1 else (f"{name}^{{{e}}}" if latex else name + str(e).translate(SUPER)))
        coefficient = "" if c == 1 and factors else _number(c, latex)
        body = (r"\," if latex else "").join([coefficient] * bool(coefficient) + factors)
        minus = "-" if latex else "−"
        out.append((minus if sign == "-" else "") + body if i == 0 else f" {minus if sign == '-' else '+'} {body}")
    return "".join(out)


def _number(c: Fraction, latex: bool) -> str:
    if c.denominator == 1:
        return str(c.numerator)
    return rf"\tfrac{{{c.numerator}}}{{{c.denominator}}}" if latex else f"{c.numerator}/{c.denominator}"


def _scalar(alg: Algebra, s: Scalar, latex: bool, names: dict | None = None) -> str:
    num = poly_text(alg, s.n, latex, names)
    if s.d == P.ONE:
        return num
    den = poly_text(alg, s.d, latex, names)
    return rf"\frac{{{num}}}{{{den}}}" if latex else f"({num}) / ({den})"


def _roots(alg: Algebra, s: Scalar, latex: bool, names: dict | None = None) -> str:
    used = {v for v in P.variables(s.n) | P.variables(s.d) if v in alg.roots}
    parts = []
    for v in sorted(used):
        rn, rd = alg.roots[v]
        name = atom_name(alg, v, latex, names)
        radicand = _scalar(alg, Scalar(rn, rd), latex, names)
        parts.append(rf"{name} = \sqrt{{{radicand}}}" if latex else f"{name} = √({radicand})")
    if not parts:
        return ""
    return (r",\quad \text{where } " if latex else ", where ") + ", ".join(parts)


def normal_form_text(alg: Algebra, s: Scalar, claim=None) -> str:
    """In Unicode, each input in the claim's own symbol (names_of), a Greek name as its letter."""
    names = names_of(claim) if claim is not None else None
    return _scalar(alg, s, False, names) + _roots(alg, s, False, names)


def normal_form_latex(alg: Algebra, s: Scalar, claim=None) -> str:
    names = names_of(claim) if claim is not None else None
    return _scalar(alg, s, True, names) + _roots(alg, s, True, names)
