"""How results show in Jupyter: LaTeX in math mode and HTML, both safe.

Every string that comes from a claim or a certificate (ids, sources,
statements, reasons) is escaped in HTML; in LaTeX, a statement passes only
through the allow-list of latex_text.safe_statement (else it is left out), an id is
spelled out character by character in \\mathtt (latex_text.math_tt) and prose goes
through latex_text.math_words, so nothing a claim says can leave math mode or run a
macro.  Exact values are printed from
Fractions and SymPy expressions, never parsed from text."""

from __future__ import annotations

import html
from fractions import Fraction

MAX_LATEX = 2000  # a residual whose LaTeX is longer is shown as a decimal

def math_text(text: str) -> str:
    r"""Any text as \mathtt{...} (render/latex_text.math_tt: the one escaper)."""
    from ..render.latex_text import math_tt

    return math_tt(text)


def statement_latex(statement: str) -> str | None:
    """The claim's statement if it is plain formula notation, else None."""
    from ..errors import BadInput
    from ..render.latex_text import safe_statement

    try:
        return safe_statement(statement)
    except BadInput:
        return None


def fraction_latex(x) -> str:
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    sign = "-" if x < 0 else ""
    return rf"{sign}\frac{{{abs(x.numerator)}}}{{{x.denominator}}}"


def value_latex(value) -> str:
    """A scalar, vector or matrix of exact rationals."""
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (list, tuple)) for v in value):
            rows = [" & ".join(fraction_latex(x) for x in row) for row in value]
            return r"\begin{pmatrix}" + r" \\ ".join(rows) + r"\end{pmatrix}"
        return r"\left(" + ", ".join(value_latex(v) for v in value) + r"\right)"
    return fraction_latex(value)


def value_text(value) -> str:
    """As the command line prints it: (1, 0, 0), [0; 1], 3/2."""
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (list, tuple)) for v in value):
            return "[" + "; ".join(" ".join(str(Fraction(x)) for x in row) for row in value) + "]"
        return "(" + ", ".join(value_text(v) for v in value) + ")"
    return str(Fraction(value))


def variable_latex(name: str) -> str:
    """A variable's name as math: gamma → \\gamma, W1 → \\mathit{W1}."""
    import re

    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        from ..render.latex_program import variable

        return variable(name)
    return math_text(name)


def relation(kind: str, strict: bool) -> tuple[str, str]:
    """(LaTeX, text) of how a violating residual compares with 0."""
    if kind == "identity":
        return r"\neq 0", "≠ 0"
    return (r"\le 0", "≤ 0") if strict else ("< 0", "< 0")


def residual_latex(certificate: str) -> str | None:
    """The residual of a program certificate, exactly, from its program (SymPy
    on the instance's Fractions; nothing is parsed), or None."""
    import json

    from ..render.latex import decimal, tex
    from ..render.latex_program import evaluate

    try:
        evaluated = evaluate(json.loads(certificate))
    except Exception:  # noqa: BLE001 - only the display fails; the result stands
        return None
    if evaluated.residual is None:
        return r"\approx " + evaluated.residual_decimal
    text = tex(evaluated.residual)
    if len(text) > MAX_LATEX:
        return r"\approx " + decimal(evaluated.residual, 10)
    if not evaluated.residual.is_Rational:
        text += r" \approx " + evaluated.residual_decimal
    return text


def aligned(rows: list[str]) -> str:
    """Display math for Jupyter: $$\\begin{aligned} ... \\end{aligned}$$."""
    return "$$\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}$$"


def esc(text) -> str:
    return html.escape(str(text), quote=True)


def html_block(title: str, rows: list[tuple[str, str]], notes: list[str], math: str | None = None) -> str:
    """A title, display math (typeset by Jupyter's MathJax, which finds $$...$$ in
    HTML output), a two-column table of exact values as text (inside <details>
    when there is math, else open) and notes; every argument is escaped here."""
    out = ['<div class="bnproof-result">', f"<p><strong>{esc(title)}</strong></p>"]
    if math:
        out.append(f'<div class="bnproof-math">{esc(math)}</div>')
    if rows:
        if math:
            out.append("<details><summary>exact values as text</summary>")
        out.append("<table>")
        out.extend(f"<tr><td><code>{esc(k)}</code></td><td><code>{esc(v)}</code></td></tr>"
                   for k, v in rows)
        out.append("</table>")
        if math:
            out.append("</details>")
    out.extend(f"<p>{esc(n)}</p>" for n in notes if n)
    out.append("</div>")
    return "\n".join(out)
