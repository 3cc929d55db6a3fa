"""An existential certificate as a LaTeX document: the claim, the instance at which
no witness exists, and why: the affine system and its Farkas multipliers (their
combination cancels every existential variable and leaves an impossible
constant), or the statement of what is trusted (z3 and cvc5).

The certificate has already been accepted by the independent checker; the rows
are recomputed from its program by the exact engine, never read from text."""

from __future__ import annotations

import itertools
from fractions import Fraction

from ..program.evaluate import Evaluator
from .latex import Document, escape, tex, to_expr, tt
from .latex_program import _counterexample, variable

WANT = {"inequality": r"\ge 0", "strict-inequality": "> 0", "identity": "= 0"}
IMPOSSIBLE = {"inequality": "< 0", "strict-inequality": r"\le 0", "identity": r"\neq 0"}
MAX_ROWS = 40  # rows shown; the rest are summed all the same


def _coordinates(doc: dict) -> list:
    sizes = doc["sizes"]
    out = []
    for var in doc["claim"]["exists"]:
        shape = [s if isinstance(s, int) else sizes[s] for s in var["shape"]]
        out.extend((var["name"], index) for index in itertools.product(*(range(n) for n in shape)))
    return out


def _values(doc: dict, point: dict) -> list:
    instance = doc["instance"]

    def get(name, index):
        if name not in instance:
            return point.get((name, tuple(index)), Fraction(0))
        value = instance[name]
        for i in index:
            value = value[i]
        return Fraction(value)  # canonical "p/q", already checked; parsed, never evaluated

    evaluator = Evaluator(doc["program"]["steps"], get)
    out = []
    for r in doc["program"]["residuals"]:
        evaluator.sign(r)
        out.append(evaluator.exact[r])  # rational: the checker accepted the Farkas rows
    return out


def _name(coordinate) -> str:
    name, index = coordinate
    return variable(name) + (f"_{{{','.join(str(i + 1) for i in index)}}}" if index else "")


def _row(a: list, b: Fraction, names: list) -> str:
    terms = [f"{tex(to_expr(q))}\\,{n}" for q, n in zip(a, names) if q]
    terms.append(tex(to_expr(b)) if b or not terms else "")
    return " + ".join(t for t in terms if t).replace("+ -", "- ") or "0"


def document(doc: dict, checker_line: str, name: str) -> Document:
    claim, kind = doc["claim"], doc["claim"]["kind"]
    unknowns = ", ".join(variable(v["name"]) for v in claim["exists"])
    out = Document(rf"Refutation of {tt(claim['id'])}: no witness exists", key=claim["id"],
                   provenance=(f"Certificate {name}: the instance, the residual as a straight-line "
                               "program and the proof of non-existence,\nre-derived by the "
                               f"stdlib-only checker:\n{' '.join(checker_line.split())}"))
    out.claim("The claim as printed", claim["source"], claim["statement"])
    out.para(rf"It says: for every instance meeting the hypotheses there are ${unknowns}$ with every "
             rf"entry $r_i$ of the residual ${WANT[kind]}$.  It is refuted by an instance at which "
             "no such values exist.")
    _counterexample(out, doc["instance"])
    method = doc["nonexistence"]
    if method["method"] == "farkas":
        _farkas(out, doc, kind)
    else:
        out.section("Why no witness exists")
        out.para(r"The residual is not affine in the existential variables (or its coefficients are "
                 r"irrational here), so the question ``is there a witness?'' was put to two SMT "
                 r"solvers, with the instance fixed and every square root and quotient required to be "
                 r"defined.  Both answered \texttt{unsat}, as the certificate records.  This is trusted, not checked: "
                 r"\emph{" + escape(method["trust"]) + r"}.  The query is in the certificate "
                 r"(" + str(method["query"].count("\n")) + " lines), to be put to the solvers "
                 r"again.")
    return out


def _farkas(out: Document, doc: dict, kind: str) -> None:
    coords = _coordinates(doc)
    b = _values(doc, {})
    columns = [[v - w for v, w in zip(_values(doc, {c: Fraction(1)}), b)] for c in coords]
    a = [[col[i] for col in columns] for i in range(len(b))]
    names = [_name(c) for c in coords]
    y = [Fraction(v) for v in doc["nonexistence"]["multipliers"]]
    out.section("Why no witness exists")
    out.para(r"The residual is affine in the existential variables, with rational coefficients at "
             r"this instance.  A witness would satisfy every row:")
    rows = [(rf"r_{{{i + 1}}}", rf"{_row(a[i], b[i], names)} \qquad (\text{{wanted: }} r_{{{i + 1}}} {WANT[kind]})")
            for i in range(min(len(b), MAX_ROWS))]
    out.aligned(rows)
    if len(b) > MAX_ROWS:
        out.para(f"and {len(b) - MAX_ROWS} more rows.")
    total = sum((yi * bi for yi, bi in zip(y, b)), Fraction(0))
    sign = "" if kind == "identity" else r" $y_i \ge 0$,"
    out.para(rf"Farkas' lemma: the multipliers{sign} "
             rf"$y = ({', '.join(tex(to_expr(v)) for v in y)})$ cancel every existential variable, "
             r"$\sum_i y_i\, a_i = 0$, so for any witness")
    out.equation(r"\sum_i y_i\, r_i", f"{tex(to_expr(total))} {IMPOSSIBLE[kind]}")
    out.para(r"while every $r_i$ " + rf"${WANT[kind]}$ would make it " +
             {"inequality": r"$\ge 0$", "strict-inequality": r"$> 0$", "identity": "$0$"}[kind]
             + r": \textbf{no witness exists}, and the claim is refuted on this instance.")

