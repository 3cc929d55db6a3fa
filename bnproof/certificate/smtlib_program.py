"""SMT-LIB 2 export of a program certificate: one real per step, its definition, and
the negated obligations (see smtlib.py for the scheme).

The document is read by the checker's own `read_program` (structure, seal, claim
binding, declared variables, steps, obligations), so the exporter accepts exactly the
programs the checker reads; as in the checker, every step's side condition (divisor
nonzero, radicand nonnegative) is a fact, used or not, and so is every declared
domain of the instance.  For a claim of the papers the checker's own formula gives the
residual R (in Q or Q(sqrt r)); the solver then confirms that R has the refuting sign
and that the program computes exactly R.

SMT-LIB's real arithmetic has no exp, log, arccos, tanh or π: a program with such a
step is not exported (NotExportable, with the step), never approximated or left
uninterpreted, which would be a different query; the checker judges it alone."""

from __future__ import annotations

from ..checker.algebra import Surd
from ..checker.program import read_program
from ..checker.variables import declared
from ..checker.series import BOUNDS
from ..errors import BnproofError, ExitCode
from .smtlib import CertificateRejected, Smt, literal, stage, times

RELATION = {"positive": "(> {} 0)", "negative": "(< {} 0)", "nonpositive": "(<= {} 0)",
            "nonzero": "(not (= {} 0))"}
FORM = {"add": "(+ {0} {1})", "sub": "(- {0} {1})", "mul": "(* {0} {1})", "neg": "(- {0})",
        "max": "(ite (>= {0} {1}) {0} {1})", "min": "(ite (<= {0} {1}) {0} {1})",
        "abs": "(ite (>= {0} 0) {0} (- {0}))"}
DOMAIN = {"positive": "(> {} 0)", "nonzero": "(not (= {} 0))"}
TRANSCENDENTAL = {*BOUNDS, "pi"}


class NotExportable(BnproofError):
    """A valid certificate whose program SMT-LIB's real arithmetic cannot state."""

    exit_code = ExitCode.BAD_INPUT


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


def _domains(smt: Smt, claim: dict, values: dict) -> None:
    """Each declared domain, entry by entry, over the instance's literals."""
    for name, _, domain in declared(claim["variables"]):
        value = values[name]
        if domain == "symmetric":
            for i in range(len(value)):
                for j in range(i):
                    smt.fact(f"{name}[{i}][{j}] = {name}[{j}][{i}] (symmetric)",
                             f"(= {literal(value[i][j])} {literal(value[j][i])})")
        elif domain in DOMAIN:
            entries = [value]
            while entries and type(entries[0]) is list:
                entries = [x for e in entries for x in e]
            for x in entries:
                smt.fact(f"{name} {domain}", DOMAIN[domain].format(literal(x)))


def _formula(smt: Smt, claim: dict, ours, residual: int) -> None:
    """The checker's own residual R: its refuting sign, and the program equal to it."""
    if type(ours) is Surd:
        root = smt.root("formula_sqrt_r", literal(ours.r), "the formula's square root")
        value = smt.let("formula_r", f"(+ {literal(ours.a)} (* {literal(ours.b)} {root}))")
    else:
        value = smt.let("formula_r", literal(ours))
    sign = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}
    smt.fact(f"the checker's formula for {claim['id']} refutes it",
             RELATION[sign[claim["kind"]]].format(value))
    smt.fact("the program's residual is the formula's", f"(= v{residual} {value})")


def program_smt(doc: dict) -> str:
    claim, program, values, ops, facts, formula = stage(read_program, CertificateRejected, doc)
    ours = None if formula is None else stage(formula, CertificateRejected, values)
    for k, (op, _, _) in enumerate(ops):
        if op in TRANSCENDENTAL:
            raise NotExportable(f"not exported: step {k} is {op}, and SMT-LIB's real arithmetic "
                                "(QF_NRA) has no exp, log, arccos, tanh or pi; check this "
                                "certificate with bnproof check (the checker encloses them)")
    smt = Smt()
    _domains(smt, claim, values)
    for k, (op, ix, n) in enumerate(ops):
        _define(smt, k, op, ix, n)
    for name, step, sign in facts:
        smt.fact(f"{name}: step {step} {sign}", RELATION[sign].format(f"v{step}"))
    if formula is not None:
        _formula(smt, claim, ours, program["residual"])
    return smt.text(f"bnproof program certificate {claim['id']} ({doc['digest']})")
