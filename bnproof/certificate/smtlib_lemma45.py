"""SMT-LIB 2 export of a Lemma 4.5 certificate: the seven facts of each neuron
(docs/certificates.md, "Obligations") as formulas over the instance and the stated
witnesses, for the solver to confirm (see smtlib.py for the scheme).

The instance and the witnesses enter as exact literals; everything derived from
them (means, the centred batch, c, σ(W*), t, the projection onto the kernel, the
gradient, the right-hand side) is defined in the file, so the solver, not this
module, does the arithmetic.  Facts that quantify over all vectors (X has full
column rank; the stated kernel spans ker Xc) become implications over fresh reals
z, which the negated goal quantifies existentially."""

from __future__ import annotations

from fractions import Fraction

from ..checker.lemma import (CLAIM_ID, FACTS, HOLDS, INSTANCE, NEURON, NOT_MET, REFUTED, SOURCE,
                             STATEMENT, TOP)
from ..checker.parse import MAX_D, Rejected, array, check_envelope, keys, rational, take, tensor, vector
from .smtlib import CertificateRejected, Smt, conj, disj, literal, plus, stage, times


def _optional(value, path: str):
    return None if value is None else rational(value, path)


def _witnesses(j: int, w: dict, d: int) -> dict:
    path = f"witnesses.neurons[{j}]"
    keys(w, path, NEURON)
    grad = keys(w["grad_bn_at_W_star"], path + ".grad_bn_at_W_star", {"rational", "coefficients", "radicand"})
    bn = w["bn_optimum"]
    kind = bn.get("kind") if type(bn) is dict else None
    if kind not in ("ray", "constant"):
        raise Rejected(f"{path}.bn_optimum: kind must be \"ray\" or \"constant\"")
    keys(bn, path + ".bn_optimum", {"kind", "direction", "kernel"} if kind == "ray" else {"kind"})
    point = w["closest_bn_optimum"]
    if w["verdict"] not in (REFUTED, HOLDS, NOT_MET):
        raise Rejected(f"{path}.verdict: not one of {REFUTED}, {HOLDS}, {NOT_MET}")
    return {
        "W_star": vector(w["W_star"], path + ".W_star", d),
        "ray": bn["kind"] == "ray",
        "b": vector(bn["direction"], path + ".bn_optimum.direction", d) if bn["kind"] == "ray" else None,
        "kernel": [vector(v, f"{path}.bn_optimum.kernel[{i}]", d) for i, v in
                   enumerate(array(bn["kernel"], path + ".bn_optimum.kernel", MAX_D))]
        if bn["kind"] == "ray" else [],
        "point": None if point is None else vector(point, path + ".closest_bn_optimum", d),
        "ra": vector(grad["rational"], path + ".grad_bn_at_W_star.rational", d),
        "co": vector(grad["coefficients"], path + ".grad_bn_at_W_star.coefficients", d),
        "r": rational(grad["radicand"], path + ".grad_bn_at_W_star.radicand"),
        "inner": rational(w["inner_W0_W_star"], path + ".inner_W0_W_star"),
        "lhs": rational(w["lhs"], path + ".lhs"),
        "rhs": _optional(w["rhs"], path + ".rhs"),
        "residual": _optional(w["residual"], path + ".residual"),
        "verdict": w["verdict"],
    }


def _instance(inst: dict):
    """(X, Y, W0, gamma, loss) as Fractions, with the checker's shapes and caps."""
    keys(inst, "instance", {*INSTANCE, "loss"})
    if inst["loss"] not in ("sum", "mean"):
        raise Rejected("instance.loss: must be \"sum\" or \"mean\"")
    X, Y, W0, gamma, _beta = take({k: tensor(inst[k], "instance." + k) for k in INSTANCE},
                                  X="md", Y="mn", W0="nd", gamma="n", beta="n")
    if len(X) < 2:
        raise Rejected("instance.X: at least 2 samples are needed (m >= 2)")
    return X, Y, W0, gamma, inst["loss"]


def _parse(doc: dict):
    """Structure and values."""
    keys(doc, "document", TOP)
    keys(doc["claim"], "claim", {"id", "source", "statement"})
    X, Y, W0, gamma, loss = _instance(doc["instance"])
    n, d = len(gamma), len(X[0])
    neurons = array(keys(doc["witnesses"], "witnesses", {"neurons"})["neurons"], "witnesses.neurons", MAX_D, n)
    for i, item in enumerate(array(doc["obligations"], "obligations", 7 * MAX_D)):
        keys(item, f"obligations[{i}]", {"neuron", "fact"})
    return X, Y, W0, gamma, loss, [_witnesses(j, w, d) for j, w in enumerate(neurons)]


def _bind(doc: dict, neurons: list) -> None:
    check_envelope(doc)
    claim = doc["claim"]
    if (claim["id"], claim["statement"], claim["source"]) != (CLAIM_ID, STATEMENT, SOURCE):
        raise Rejected(f"claim: id, statement or source differs from {CLAIM_ID}")
    want = [{"neuron": j, "fact": fact} for j in range(len(neurons)) for fact in FACTS]
    items = doc["obligations"]
    if len(items) != len(want) or any(type(i["neuron"]) is not int or i != w for i, w in zip(items, want)):
        raise Rejected("obligations: not the seven facts of each neuron in order")
    verdicts = [w["verdict"] for w in neurons]
    if doc["verdict"] != (REFUTED if REFUTED in verdicts else NOT_MET if NOT_MET in verdicts else HOLDS):
        raise Rejected("document verdict does not follow from the neuron verdicts")


def _dot(u, v) -> str:
    return plus(times(a, b) for a, b in zip(u, v))


def _square(u) -> str:
    return plus(times(a, a) for a in u)


def _eq(u, v) -> str:
    return conj(f"(= {a} {b})" for a, b in zip(u, v))


def _zero(u) -> str:
    return conj(f"(= {a} 0)" for a in u)


def _neuron(smt: Smt, j: int, X: list, Xc: list, y: list, w0: list, gamma, s, w: dict) -> None:
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
    z = [smt.fresh(f"{p}z{k}") for k in range(d)]
    fact("unique-minimum", f"(=> {_zero([_dot(row, z) for row in X])} {_zero(z)})")

    # bn-optimum-set
    ybar = smt.let(f"{p}ybar", times(literal(Fraction(1, m)), plus(y)))
    c = [smt.let(f"{p}c{k}", _dot(col, [f"(- {v} {ybar})" for v in y])) for k, col in enumerate(cols(Xc))]
    fact("bn-optimum-set: Xc != 0", disj(f"(not (= {x} 0))" for row in Xc for x in row))
    if w["ray"]:
        b = [smt.let(f"{p}b{k}", x) for k, x in enumerate(lit(w["b"]))]
        V = [[smt.let(f"{p}v{i}_{k}", x) for k, x in enumerate(lit(v))] for i, v in enumerate(w["kernel"])]
        xb = [smt.let(f"{p}xcb{r}", _dot(row, b)) for r, row in enumerate(Xc)]
        fact("bn-optimum-set: ray", conj([
            f"(not (= {g} 0))", disj(f"(not (= {x} 0))" for x in c),
            conj(f"(= {_dot(col, xb)} (ite (> {g} 0) {ck} (- {ck})))" for col, ck in zip(cols(Xc), c)),
            *(conj([_zero([_dot(row, v) for row in Xc]), f"(= {_dot(b, v)} 0)"]) for v in V)]))
        # the kernel spans ker Xc: no nonzero u in ker Xc is orthogonal to all of it
        u = [smt.fresh(f"{p}u{k}") for k in range(d)]
        fact("bn-optimum-set: kernel spans ker Xc",
             f"(=> {conj([_zero([_dot(row, u) for row in Xc]), *(f'(= {_dot(v, u)} 0)' for v in V)])} "
             f"{_zero(u)})")
        # closest-bn-optimum: P w0 = sum a_i v_i with <v_i, w0 - P w0> = 0 (always solvable)
        a = [smt.fresh(f"{p}alpha{i}") for i in range(len(V))]
        P = [smt.let(f"{p}pw{k}", plus(times(ai, v[k]) for ai, v in zip(a, V))) for k in range(d)]
        for i, v in enumerate(V):
            smt.lines.append(f"(assert (= {_dot(v, P)} {_dot(v, w0)}))")
        t = smt.quotient(f"{p}t", _dot(w0, b), _square(b), f"neuron {j} closest-bn-optimum t")
        if w["point"] is not None:
            pt = [f"(+ (* {t} {bk}) {pk})" for bk, pk in zip(b, P)]
            fact("closest-bn-optimum", conj([f"(> {t} 0)", _eq(lit(w["point"]), pt),
                  f"(= {literal(w['lhs'])} {_square(f'(- {a_} {q})' for a_, q in zip(w0, pt))})"]))
        else:
            fact("closest-bn-optimum", conj([f"(<= {t} 0)",
                 f"(= {literal(w['lhs'])} {_square(f'(- {a_} {q})' for a_, q in zip(w0, P))})"]))
    else:
        fact("bn-optimum-set: constant", f"(or (= {g} 0) {_zero(c)})")
        moves = disj(f"(not (= {_dot(row, w0)} 0))" for row in Xc)
        fact("closest-bn-optimum", conj([f"(= {literal(w['lhs'])} 0)",
             conj([moves, _eq(lit(w["point"]), w0)]) if w["point"] is not None else f"(not {moves})"]))

    # grad-bn-at-W-star: -(2 s gamma / sigma) (c - <c, W*> Xc^T Xc W* / (m sigma^2)), sigma^2 = rho
    xcw = [smt.let(f"{p}xcw{r}", _dot(row, ws)) for r, row in enumerate(Xc)]
    rho = smt.let(f"{p}rho", times(literal(Fraction(1, m)), _square(xcw)))
    fact("grad-bn-at-W-star: sigma(W*) != 0", f"(not (= {rho} 0))")
    sigma = smt.root(f"{p}sigma", rho, f"neuron {j} grad-bn-at-W-star sigma")
    inv = smt.quotient(f"{p}invsigma", "1", sigma, f"neuron {j} grad-bn-at-W-star 1/sigma")
    kk = smt.quotient(f"{p}kk", _dot(c, ws), times(str(m), rho), f"neuron {j} grad-bn-at-W-star")
    sr = smt.root(f"{p}sqrtr", literal(w["r"]), f"neuron {j} grad-bn-at-W-star stated radicand")
    scale = times("(- 2)", literal(s), g, inv)
    grad = [f"(* {scale} (- {ck} (* {kk} {_dot(col, xcw)})))" for ck, col in zip(c, cols(Xc))]
    stated = [f"(+ {a_} (* {b_} {sr}))" for a_, b_ in zip(lit(w["ra"]), lit(w["co"]))]
    fact("grad-bn-at-W-star", _eq(grad, stated))

    # hypothesis and residual
    inner = literal(w["inner"])
    fact("hypothesis", conj([f"(= {inner} {_dot(w0, ws)})",
                             f"(<= {inner} 0)" if w["verdict"] == NOT_MET else f"(> {inner} 0)"]))
    n2 = smt.let(f"{p}normsq", _square(ws))
    if w["rhs"] is None or w["residual"] is None:
        fact("residual: rhs and residual null exactly when W* = 0",
             f"(= {n2} 0)" if w["rhs"] is None and w["residual"] is None else "false")
        if w["verdict"] != NOT_MET:
            fact("residual: a verdict other than hypothesis-not-met needs a residual", "false")
        return
    q = smt.quotient(f"{p}q", f"(* (- {n2} {inner}) (- {n2} {inner}))", n2, f"neuron {j} residual")
    dist = _square(f"(- {a_} {b_})" for a_, b_ in zip(w0, ws))
    rhs, res = literal(w["rhs"]), literal(w["residual"])
    sign = {REFUTED: f"(< {res} 0)", HOLDS: f"(>= {res} 0)", NOT_MET: "true"}[w["verdict"]]
    fact("residual", conj([f"(= {rhs} (- {dist} {q}))", f"(= {res} (- {rhs} {literal(w['lhs'])}))",
                           sign]))


def lemma_smt(doc: dict) -> str:
    X, Y, W0, gamma, loss, neurons = stage(_parse, CertificateRejected, doc)
    stage(_bind, CertificateRejected, doc, neurons)
    m, d = len(X), len(X[0])
    smt = Smt()
    lx = [[literal(x) for x in row] for row in X]
    xbar = [smt.let(f"xbar{k}", times(literal(Fraction(1, m)), plus(row[k] for row in lx)))
            for k in range(d)]
    Xc = [[smt.let(f"xc{r}_{k}", f"(- {row[k]} {xbar[k]})") for k in range(d)] for r, row in enumerate(lx)]
    s = Fraction(1) if loss == "sum" else Fraction(1, m)
    for j, w in enumerate(neurons):
        _neuron(smt, j, lx, Xc, [row[j] for row in Y], W0[j], gamma[j], s, w)
    return smt.text(f"bnproof certificate {CLAIM_ID} {doc['verdict']} ({doc['digest']})")
