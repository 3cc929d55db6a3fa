"""A moments-n proof certificate (expectations over a batch of m i.i.d. draws, proved
for every m) as a LaTeX derivation: the claim as printed, the notation (power sums
P_k, moments μ_k), each expectation the program takes, from the power sums it is of
to its polynomial in m and the moments, and the residual over its denominator, 0.

Every formula is printed from the independent checker's own replay
(checker/moments_n.py) of the certificate it has accepted; nothing is read from the
certificate as text but the claim's statement (through the statement grammar) and
its source (escaped)."""

from __future__ import annotations

from ..checker import moments_n as CM
from .latex import Document, fraction, mathit, tt

MAX_SHOWN = 12  # expectations shown; a longer program says how many it left out


def _variable(v: str) -> str:
    if v == "n":
        return "m"
    if v.startswith("mu"):
        return rf"\mu_{{{v[2:]}}}"
    if v.startswith("P"):
        return rf"P_{{{v.split('.')[1]}}}"
    if v.startswith("in:"):  # a scalar input: its name (letters, digits and _ only)
        return mathit(v[3:])
    if v.startswith("s"):
        return rf"x_{{{int(v.split('.')[1]) + 1}}}"
    return "x"


def _monomial(mono: tuple) -> str:
    order = sorted(mono, key=lambda ve: (ve[0] != "n", ve[0]))
    return " ".join(_variable(v) + (f"^{{{e}}}" if e > 1 else "") for v, e in order)


def polynomial(p: dict) -> str:
    if not p:
        return "0"
    out = ""
    for mono, c in sorted(p.items(), key=lambda mc: (-sum(e for _, e in mc[0]), str(mc[0]))):
        sign, a = ("-" if c < 0 else "+"), abs(c)
        body = _monomial(mono)
        text = fraction(a) if not body else (body if a == 1 else rf"{fraction(a)}\,{body}")
        out += (f" {sign} " if out else ("-" if sign == "-" else "")) + text
    return out


def rational(num: dict, den: dict) -> str:
    return polynomial(num) if den == CM.ONE else rf"\frac{{{polynomial(num)}}}{{{polynomial(den)}}}"


def document(doc: dict, checker_line: str, name_: str, source=None) -> Document:
    claim, program = doc["claim"], doc["program"]
    laws = program["laws"]
    values, _ = CM.replay(program, laws)
    residual, _ = CM.residual_value(program, laws)
    key = claim["id"] + "".join(f"-{k}{v}" for k, v in sorted(doc["fixed"].items()))
    out = Document(rf"Proof of {tt(claim['id'])} for every batch size", key=key,
                   provenance=(f"Certificate {name_}: a proof for every batch size m of an identity "
                               f"over i.i.d. draws, a program of {len(program['steps'])} steps,\nreplayed "
                               "by the stdlib-only checker in its own algebra (the formulas below are "
                               f"printed from it):\n{' '.join(checker_line.split())}"))
    out.claim("The claim", claim["source"], claim["statement"])
    out.para("Its residual $R$ is 0 exactly when the claim holds. We show that it is so for every "
             "batch size $m$ and every law of $X$ whose moments exist.")
    out.section("Notation")
    out.para(r"A batch holds $m$ independent draws $x_1, \dots, x_m$ of $X$; $P_k = \sum_{b=1}^m x_b^k$ "
             r"is its $k$-th power sum and $\mu_k = \mathbb{E}[X^k]$ the $k$-th moment of $X$. "
             r"A product of power sums is a sum over which of its factors fall on the same draw: "
             r"$\mathbb{E}[P_{k_1} \cdots P_{k_r}] = \sum_{\pi} m(m-1)\cdots(m-|\pi|+1) "
             r"\prod_{\beta \in \pi} \mu_{\sum_{j \in \beta} k_j}$ over the set partitions $\pi$ "
             r"of the factors (distinct draws are independent). A batch of a fixed size $N$ is "
             r"written $x_1, \dots, x_N$, and $\mathbb{E}[x_1^{a_1} \cdots x_N^{a_N}] = "
             r"\mu_{a_1} \cdots \mu_{a_N}$.")
    out.section("The expectations")
    expects = [i for i, s in enumerate(program["steps"]) if s[0] == "expect"]
    for i in expects[:MAX_SHOWN]:
        inner = values[program["steps"][i][1]]
        out.equation(rf"\mathbb{{E}}\Big[{rational(inner.num, inner.den)}\Big]",
                     rational(values[i].num, values[i].den))
    if len(expects) > MAX_SHOWN:
        out.para(f"({len(expects) - MAX_SHOWN} more expectations of the program are not shown.)")
    out.section("The residual")
    out.para("Combining the expectations as the claim does, over the common denominator:")
    out.equation("R", rational(residual.num, residual.den))
    out.section("Conclusion")
    out.para("The numerator is the zero polynomial in $m$ and the moments, so for every batch size "
             "$m \\ge 1$ and every law whose moments exist, wherever the claim is defined,")
    out.display("R = 0")
    out.para(f"that is, the identity holds for every $m$. It is defined at $m = {doc['witness']['m']}$ "
             "on the certificate's witness law, so the statement is not vacuous.")
    return out
