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

from ..checker.surds import Number
from ..checker.program import read_program
from ..checker.variables import declared
from ..checker.series import BOUNDS
from ..errors import BnproofError, ExitCode
from .smtlib_terms import CertificateRejected, Smt, disj, literal, stage, times

RELATION = {"positive": "(> {} 0)", "negative": "(< {} 0)", "nonpositive": "(<= {} 0)",
            "nonzero": "(not (= {} 0))", "zero": "(= {} 0)"}  # zero: an equality hypothesis
FORM = {"add": "(+ {0} {1})", "sub": "(- {0} {1})", "mul": "(* {0} {1})", "neg": "(- {0})",
        "max": "(ite (>= {0} {1}) {0} {1})", "min": "(ite (<= {0} {1}) {0} {1})",
        "abs": "(ite (>= {0} 0) {0} (- {0}))"}
DOMAIN = {"positive": "(> {} 0)", "nonzero": "(not (= {} 0))"}
TRANSCENDENTAL = {*BOUNDS, "pi"}


class NotExportable(BnproofError):
    """A valid certificate whose program SMT-LIB's real arithmetic cannot state."""

    exit_code = ExitCode.BAD_INPUT


def _absence(smt: Smt, k: int, op: str, ix: tuple, flags: dict) -> None:
    """The guard step's "absent" as the checker decides it: a Bool a<k> for each step that
    may be absent (none in a program without guards, whose export is unchanged).  A guard
    is absent where its value is or its condition is < 0 (an absent condition is a failed
    fact); a min is absent where both operands are and otherwise takes the present one;
    every other step on a possibly absent operand has the fact that the operand is present."""
    a = [flags.get(j) for j in ix]
    if op == "guard":
        if a[1] is not None:
            smt.fact(f"step {k}: the guard's condition is present", f"(not {a[1]})")
        flags[k] = f"a{k}"
        smt.lines.append(f"(define-fun a{k} () Bool {disj([t for t in (a[0], f'(< v{ix[1]} 0)') if t])})")
    elif op == "min":
        if a[0] is not None and a[1] is not None:  # absent only if both are
            flags[k] = f"a{k}"
            smt.lines.append(f"(define-fun a{k} () Bool (and {a[0]} {a[1]}))")
    else:
        for j, flag in zip(ix, a):
            if flag is not None:
                smt.fact(f"step {k} ({op}): operand {j} is present (not an absent guarded value)",
                         f"(not {flag})")


def _define(smt: Smt, k: int, op: str, ix: tuple, n, flags: dict | None = None) -> None:
    v, a = f"v{k}", [f"v{j}" for j in ix]
    absent = [(flags or {}).get(j) for j in ix]
    if op == "guard":  # its value where present; a<k> says whether it is
        smt.let(v, a[0])
    elif op == "min" and any(absent):  # the present operand, or the smaller of two
        value = FORM["min"].format(*a)
        for flag, other in zip(absent[::-1], a):  # b absent: a; then a absent: b
            if flag is not None:
                value = f"(ite {flag} {other} {value})"
        smt.let(v, value)
    elif op == "const":
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
    if type(ours) is Number:  # Σ c √n (0 first: + takes two operands at least)
        terms = [literal(0)]
        for i, (c, n) in enumerate(ours.terms()):
            root = n > 1 and smt.root(f"formula_sqrt_{i}", literal(n), "the formula's square root")
            terms.append(f"(* {literal(c)} {root})" if root else literal(c))
        value = smt.let("formula_r", f"(+ {' '.join(terms)})")
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
    flags: dict = {}  # step -> its "absent" Bool, for the steps a guard may leave absent
    for k, (op, ix, n) in enumerate(ops):
        _absence(smt, k, op, ix, flags)
        _define(smt, k, op, ix, n, flags)
    for name, step, sign in facts:
        if step in flags:  # an absent value is no value: the fact fails
            smt.fact(f"{name}: step {step} is present", f"(not {flags[step]})")
        smt.fact(f"{name}: step {step} {sign}", RELATION[sign].format(f"v{step}"))
    if formula is not None:
        _formula(smt, claim, ours, program["residual"])
    return smt.text(f"bnproof program certificate {claim['id']} ({doc['digest']})")
