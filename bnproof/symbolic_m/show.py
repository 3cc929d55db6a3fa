"""A normal form for people: Unicode for the terminal, LaTeX for --json and documents.
Sums are ⟨·,·⟩-free batch sums Σ y²g (Σ over the batch), roots r₁ with their radicands."""

from __future__ import annotations

from fractions import Fraction

from .algebra import Algebra, Scalar

GREEK = {"gamma": ("γ", r"\gamma"), "beta": ("β", r"\beta"), "lam": ("λ", r"\lambda"),
         "sigma": ("σ", r"\sigma"), "mu": ("μ", r"\mu")}
SUPER = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
MAX_SHOWN = 12  # terms shown before "+ … (N terms)"


def _input(name: str, latex: bool) -> str:
    base, _, rest = name.partition(":")
    shown = GREEK.get(base, (base, base))[1 if latex else 0]
    if rest:
        return f"{shown}_{{{rest.replace(':', ',')}}}" if latex else f"{shown}[{rest.replace(':', ',')}]"
    return shown


def _gen(alg: Algebra, g: int, latex: bool) -> str:
    desc = alg.gens[g]
    if desc[0] == "in":
        return _input(desc[1], latex)
    inner = _vmono(alg, desc[1], latex) or "1"
    return f"H({inner})"


def _vmono(alg: Algebra, mono: tuple, latex: bool) -> str:
    parts = []
    for g, e in mono:
        name = _gen(alg, g, latex)
        parts.append(name if e == 1 else (f"{name}^{{{e}}}" if latex else name + str(e).translate(SUPER)))
    return (r"\," if latex else "").join(parts)


def atom_name(alg: Algebra, v: int, latex: bool) -> str:
    desc = alg.atoms[v]
    if desc[0] == "m":
        return "m"
    if desc[0] == "in":
        return _input(desc[1], latex)
    if desc[0] == "S":
        body = _vmono(alg, desc[2], latex) or "1"
        return rf"\textstyle\sum {body}" if latex else f"Σ{body}"
    if desc[0] == "r":
        k = sorted(alg.roots).index(v) + 1
        return f"r_{{{k}}}" if latex else "r" + str(k).translate(SUB)
    return str(desc)


def poly_text(alg: Algebra, p: dict, latex: bool) -> str:
    if not p:
        return "0"
    out = []
    items = sorted(p.items(), key=lambda kv: (-sum(e for _, e in kv[0]), kv[0]))
    for i, (mono, c) in enumerate(items):
        if i == MAX_SHOWN:
            out.append(f" + \\dots ({len(items)} terms)" if latex else f" + … ({len(items)} terms)")
            break
        sign = "-" if c < 0 else "+"
        c = abs(c)
        factors = []
        for v, e in mono:
            name = atom_name(alg, v, latex)
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


def _scalar(alg: Algebra, s: Scalar, latex: bool) -> str:
    num = poly_text(alg, s.n, latex)
    if s.d == {(): 1}:
        return num
    den = poly_text(alg, s.d, latex)
    return rf"\frac{{{num}}}{{{den}}}" if latex else f"({num}) / ({den})"


def _roots(alg: Algebra, s: Scalar, latex: bool) -> str:
    used = {v for mono in list(s.n) + list(s.d) for v, _ in mono if v in alg.roots}
    parts = []
    for v in sorted(used):
        rn, rd = alg.roots[v]
        name = atom_name(alg, v, latex)
        radicand = _scalar(alg, Scalar(rn, rd), latex)
        parts.append(rf"{name} = \sqrt{{{radicand}}}" if latex else f"{name} = √({radicand})")
    if not parts:
        return ""
    return (r",\quad \text{where } " if latex else ", where ") + ", ".join(parts)


def normal_form_text(alg: Algebra, s: Scalar) -> str:
    return _scalar(alg, s, False) + _roots(alg, s, False)


def normal_form_latex(alg: Algebra, s: Scalar) -> str:
    return _scalar(alg, s, True) + _roots(alg, s, True)
