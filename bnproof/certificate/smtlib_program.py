"""SMT-LIB 2 export of a program certificate: one real per step, its definition,
and the negated obligations (see smtlib.py for the scheme).

The document is read by the checker's own `read_program` (structure, seal, claim
pin, steps, obligations), so the exporter accepts exactly the programs the checker
reads; as in the checker, every step's side condition (divisor nonzero, radicand
nonnegative) is a fact, used or not."""

from __future__ import annotations

from ..checker.program import read_program
from .smtlib import CertificateRejected, Smt, literal, stage, times

RELATION = {"positive": "(> {} 0)", "negative": "(< {} 0)", "nonpositive": "(<= {} 0)",
            "nonzero": "(not (= {} 0))"}
FORM = {"add": "(+ {0} {1})", "sub": "(- {0} {1})", "mul": "(* {0} {1})", "neg": "(- {0})",
        "max": "(ite (>= {0} {1}) {0} {1})", "min": "(ite (<= {0} {1}) {0} {1})",
        "abs": "(ite (>= {0} 0) {0} (- {0}))"}


def _define(smt: Smt, k: int, op: str, ix: tuple, n) -> None:
    v, a = f"v{k}", [f"v{j}" for j in ix]
    if op == "const":
        smt.let(v, literal(n))
    elif op == "div":
        smt.quotient(v, a[0], a[1], f"step {k}")
    elif op == "sqrt":
        smt.root(v, a[0], f"step {k}")
    elif op == "pow":
        smt.let(v, "1" if n == 0 else times(*[a[0]] * n))
    else:
        smt.let(v, FORM[op].format(*a))


def program_smt(doc: dict) -> str:
    claim, _, _, ops, facts, _ = stage(read_program, CertificateRejected, doc)
    smt = Smt()
    for k, (op, ix, n) in enumerate(ops):
        _define(smt, k, op, ix, n)
    for name, step, sign in facts:
        smt.fact(f"{name}: step {step} {sign}", RELATION[sign].format(f"v{step}"))
    return smt.text(f"bnproof program certificate {claim['id']} ({doc['digest']})")
