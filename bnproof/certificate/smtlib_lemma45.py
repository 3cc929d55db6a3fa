"""SMT-LIB 2 export of a Lemma 4.5 certificate: every fact the checker establishes
(docs/certificates.md, "Obligations") as formulas over the instance and the stated
witnesses, for the solver to confirm (see smtlib.py for the scheme).

The document is read by the checker's own `read_lemma` (structure, seal, claim, shapes,
work bound); the instance and the witnesses enter as exact literals and everything
derived from them (means, the centred batch, c, t, the distances, the right-hand
side) is defined in the file, so the solver, not this module, does the arithmetic.
Facts about all vectors (X has full column rank; the kernel spans ker Xc; the
projection lies in its span) become implications over fresh reals, which the negated
goal quantifies existentially."""

from __future__ import annotations

from fractions import Fraction

from ..checker.lemma import CLAIM_ID, HOLDS, NOT_MET, REFUTED, read_lemma
from ..checker.parse import Rejected
from .smtlib_terms import CertificateRejected, Smt, conj, disj, literal, plus, stage, times


def _dot(u, v) -> str:
    return plus(times(a, b) for a, b in zip(u, v))


def _square(u) -> str:
    return plus(times(a, a) for a in u)


def _zero(u) -> str:
    return conj(f"(= {a} 0)" for a in u)


def _nonzero(u) -> str:
    return disj(f"(not (= {a} 0))" for a in u)


def _read(doc: dict):
    """The checker's reading, and the document verdict's consistency with the neurons'."""
    X, Y, W0, gamma, kernel, _, neurons = read_lemma(doc)
    verdicts = [w["verdict"] for w in neurons]
    if doc["verdict"] != (REFUTED if REFUTED in verdicts else NOT_MET if NOT_MET in verdicts else HOLDS):
        raise Rejected("document verdict does not follow from the neuron verdicts")
    return X, Y, W0, gamma, kernel, neurons


def _for_all(smt: Smt, name: str, d: int, premises, conclusion) -> str:
    """premises(u) => conclusion(u) for a fresh vector u: universal once negated."""
    u = [smt.fresh(f"{name}{k}") for k in range(d)]
    return f"(=> {conj(premises(u))} {conclusion(u)})"


def _kernel(smt: Smt, Xc, V) -> None:
    """ker Xc has the stated basis: in it, independent in echelon form, spanning it."""
    d = len(Xc[0])
    rows = lambda u: [_dot(row, u) for row in Xc]  # noqa: E731
    smt.fact("bn-optimum-set: Xc != 0", _nonzero([x for row in Xc for x in row]))
    for i, v in enumerate(V):
        smt.fact(f"kernel vector {i} in ker Xc", _zero(rows(v)))
        others = V[:i] + V[i + 1:]
        smt.fact(f"kernel vector {i} alone nonzero at some coordinate (independence)",
                 disj(conj([f"(not (= {v[p]} 0))", *(f"(= {u[p]} 0)" for u in others)]) for p in range(d)))
    smt.fact("the kernel vectors span ker Xc", _for_all(
        smt, "span", d, lambda u: [*(f"(= {x} 0)" for x in rows(u)), *(f"(= {_dot(v, u)} 0)" for v in V)],
        _zero))


def _neuron(smt: Smt, j: int, X, Xc, V, y, w0, gamma, w: dict) -> None:
    m, d = len(X), len(X[0])
    p = f"n{j}_"
    lit = lambda v: [literal(x) for x in v]  # noqa: E731
    fact = lambda name, formula: smt.fact(f"neuron {j} {name}", formula)  # noqa: E731
    cols = lambda A: [[row[k] for row in A] for k in range(d)]  # noqa: E731
    y, w0, g = lit(y), lit(w0), literal(gamma)
    ws = [smt.let(f"{p}wstar{k}", x) for k, x in enumerate(lit(w["W_star"]))]

    # normal-equations and unique-minimum (X z = 0 only for z = 0: X^T X is positive definite)
    xw = [smt.let(f"{p}xw{r}", _dot(row, ws)) for r, row in enumerate(X)]
    fact("normal-equations", conj(f"(= {_dot(col, xw)} {_dot(col, y)})" for col in cols(X)))
    fact("unique-minimum", _for_all(smt, f"{p}z", d, lambda z: [f"(= {_dot(row, z)} 0)" for row in X], _zero))

    ybar = smt.let(f"{p}ybar", times(literal(Fraction(1, m)), plus(y)))
    c = [smt.let(f"{p}c{k}", _dot(col, [f"(- {v} {ybar})" for v in y])) for k, col in enumerate(cols(Xc))]
    if w["direction"] is None:
        fact("bn-optimum-set: constant", f"(or (= {g} 0) {_zero(c)})")
        lhs = "0"  # every w with sigma(w) != 0 is optimal: the infimum is 0
    else:
        b = [smt.let(f"{p}b{k}", x) for k, x in enumerate(lit(w["direction"]))]
        xb = [smt.let(f"{p}xcb{r}", _dot(row, b)) for r, row in enumerate(Xc)]
        gb = [smt.let(f"{p}gcb{k}", _dot(col, xb)) for k, col in enumerate(cols(Xc))]  # Xc^T Xc b
        # Xc^T Xc b = mu sign(gamma) c with mu > 0; mu is then <Xc^T Xc b, c>/(sign(gamma) |c|^2)
        sgn = f"(ite (> {g} 0) 1 (- 1))"
        mu = smt.quotient(f"{p}mu", _dot(gb, c), f"(* {sgn} {_square(c)})", f"neuron {j} bn-optimum-set mu")
        fact("bn-optimum-set: ray", conj([
            f"(not (= {g} 0))", _nonzero(c), f"(> {mu} 0)",
            conj(f"(= {a} (* {mu} {sgn} {ck}))" for a, ck in zip(gb, c)),
            *(f"(= {_dot(b, v)} 0)" for v in V)]))
        # closest-bn-optimum: the projection P w0 lies in span(kernel) (orthogonal to all
        # that is orthogonal to it) and w0 - P w0 is orthogonal to the kernel
        P = lit(w["projection"])
        rest = [f"(- {a} {q})" for a, q in zip(w0, P)]
        fact("closest-bn-optimum: projection", conj([
            _for_all(smt, f"{p}perp", d, lambda u: [f"(= {_dot(v, u)} 0)" for v in V],
                     lambda u: f"(= {_dot(P, u)} 0)"),
            *(f"(= {_dot(v, rest)} 0)" for v in V)]))
        t = smt.quotient(f"{p}t", _dot(w0, b), _square(b), f"neuron {j} closest-bn-optimum t")
        gap = [f"(- {a} (* (ite (> {t} 0) {t} 0) {bk}))" for a, bk in zip(rest, b)]
        lhs = smt.let(f"{p}lhs", _square(gap))

    inner = smt.let(f"{p}inner", _dot(w0, ws))
    if w["verdict"] == NOT_MET:
        fact("hypothesis", f"(<= {inner} 0)")
        return
    fact("hypothesis", f"(> {inner} 0)")
    n2 = smt.let(f"{p}normsq", _square(ws))
    q = smt.quotient(f"{p}q", f"(* (- {n2} {inner}) (- {n2} {inner}))", n2, f"neuron {j} residual")
    rhs = smt.let(f"{p}rhs", f"(- {_square(f'(- {a} {z})' for a, z in zip(w0, ws))} {q})")
    fact("residual", f"(< (- {rhs} {lhs}) 0)" if w["verdict"] == REFUTED else f"(>= (- {rhs} {lhs}) 0)")


def lemma_smt(doc: dict) -> str:
    X, Y, W0, gamma, kernel, neurons = stage(_read, CertificateRejected, doc)
    m, d = len(X), len(X[0])
    smt = Smt()
    lx = [[literal(x) for x in row] for row in X]
    xbar = [smt.let(f"xbar{k}", times(literal(Fraction(1, m)), plus(row[k] for row in lx)))
            for k in range(d)]
    Xc = [[smt.let(f"xc{r}_{k}", f"(- {row[k]} {xbar[k]})") for k in range(d)] for r, row in enumerate(lx)]
    V = [[smt.let(f"v{i}_{k}", literal(x)) for k, x in enumerate(v)] for i, v in enumerate(kernel)]
    _kernel(smt, Xc, V)
    for j, w in enumerate(neurons):
        _neuron(smt, j, lx, Xc, V, [row[j] for row in Y], W0[j], gamma[j], w)
    return smt.text(f"bnproof certificate {CLAIM_ID} {doc['verdict']} ({doc['digest']})")
