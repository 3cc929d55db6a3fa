"""The SMT-LIB 2 question "is there a witness?" for an existential certificate.

The universal variables are fixed to the instance's exact rationals; each
existential coordinate is a free real.  Only the steps the residuals read (their
cone) are written: a step nothing reads is no part of the claim (an unread 1/p would
rule out p = 0); the hypotheses read x alone and are decided at x.  Every written
step is a term, except that a square root is a declared real s with s >= 0 and
s * s = radicand, its radicand >= 0 asserted, and a division asserts its divisor
!= 0: a witness must make every operation the residuals read defined.  Then every
residual must have the wanted sign.  `unsat` means no witness exists.  The text is
a pure function of the program, the instance and the kind, so the checker
regenerates it and requires the certificate's query to be exactly this text.

Why the checker binds the query, when it cannot judge the solvers' "unsat" (it is the
certificate's word, which the accepted line says and names the query's digest): the
binding is what reduces that trust to a fact anyone can re-run.  The line's "no
witness" rests on exactly one assumption, z3 and cvc5 answer unsat to this text, and
the checker has established that this text is the question "is there p?" for this
program at this instance, as the checker itself reads it (the residuals' cone, the
definedness it asks).  `bnproof check` re-runs the solvers on the recorded query
(certificate/exists.py), and a reader with this checker and any solver can do the
same without bnproof.  Unbound, a recorded query could ask anything ("(assert
false)"), and the re-run would confirm it: what the certificates of 7329b19 did ask
(every step, read or not: tests/adversarial/frozen/c5_*.json, refutations of true
claims) is rejected here by this comparison alone.  So the binding is part of what
the checker judges, not a service to `export`; export writes the same text (for a
Farkas certificate too) by calling query()."""

from fractions import Fraction

from .parse import Rejected, keys

WANT = {"inequality": "(>= {} 0.0)", "strict-inequality": "(> {} 0.0)", "identity": "(= {} 0.0)"}
FORM = {"add": "(+ {0} {1})", "sub": "(- {0} {1})", "mul": "(* {0} {1})", "neg": "(- {0})",
        "max": "(ite (>= {0} {1}) {0} {1})", "min": "(ite (<= {0} {1}) {0} {1})",
        "abs": "(ite (>= {0} 0.0) {0} (- {0}))"}
TRUST = "non-existence confirmed by z3 and cvc5 (not checked by the bnproof kernel)"
SOLVERS = {"z3": "unsat", "cvc5": "unsat"}
MAX_QUERY = 20 * 1024 * 1024


def literal(q: Fraction) -> str:
    # decimals: a bare integer is an Int in SMT-LIB, and a Real definition refuses it
    text = f"{abs(q.numerator)}.0" if q.denominator == 1 else f"(/ {abs(q.numerator)}.0 {q.denominator}.0)"
    return f"(- {text})" if q < 0 else text


def unknown_name(name: str, index) -> str:
    # "." cannot occur in a variable name: p.a_1 (a_1) and p.a.1 (a[1]) stay apart
    return "p." + name + "".join(f".{i}" for i in index)


def cone(steps: list, outputs) -> list:
    """Whether each step is read by one of the outputs (itself included); the steps are
    validated, so every operand names an earlier step."""
    live = [False] * len(steps)
    for k in outputs:
        live[k] = True
    for k in range(len(steps) - 1, -1, -1):
        op = steps[k][0]
        if live[k] and op not in ("input", "const"):
            for j in steps[k][1:2] if op == "pow" else steps[k][1:]:
                live[j] = True
    return live


def lines(steps: list, live: list, instance: dict, unknown: set, residuals: list, kind: str):
    """The query's lines, one at a time (matches() stops at the first that differs)."""
    yield f"; bnproof: is there a witness for {len(residuals)} residuals?"
    declared = set()
    for k, step in enumerate(steps):
        if not live[k]:
            continue
        op, v = step[0], f"v{k}"
        if op == "input" and step[1] in unknown:
            p = unknown_name(step[1], step[2:])
            if p not in declared:
                declared.add(p)
                yield f"(declare-const {p} Real)"
            yield f"(define-fun {v} () Real {p})"
        elif op == "input":
            value = instance[step[1]]
            for i in step[2:]:
                value = value[i]
            yield f"(define-fun {v} () Real {literal(value)})"
        elif op == "const":
            yield f"(define-fun {v} () Real {literal(Fraction(step[1]))})"
        elif op == "sqrt":
            a = f"v{step[1]}"
            yield from (f"(declare-const {v} Real)", f"(assert (>= {a} 0.0))", f"(assert (>= {v} 0.0))",
                        f"(assert (= (* {v} {v}) {a}))")
        elif op == "div":
            a, b = f"v{step[1]}", f"v{step[2]}"
            yield from (f"(assert (not (= {b} 0.0)))", f"(define-fun {v} () Real (/ {a} {b}))")
        elif op == "pow":
            n, a = step[2], f"v{step[1]}"
            term = "1.0" if n == 0 else a if n == 1 else "(* " + " ".join([a] * n) + ")"
            yield f"(define-fun {v} () Real {term})"
        elif op in FORM:
            yield f"(define-fun {v} () Real {FORM[op].format(*(f'v{j}' for j in step[1:]))})"
        else:  # exp, log, ...: not in the solvers' real arithmetic
            raise Rejected(f"nonexistence: step {k} ({op}) has no SMT-LIB form; no query can be written")
    yield from (f"(assert {WANT[kind].format(f'v{r}')})" for r in residuals)
    yield "(check-sat)"


def query(steps: list, instance: dict, unknown: set, residuals: list, kind: str) -> str:
    """The SMT-LIB text; `steps` are the certificate's (validated) steps, `instance`
    the universal variables' Fractions, `unknown` the existential names."""
    live = cone(steps, residuals)
    return "".join(line + "\n" for line in lines(steps, live, instance, unknown, residuals, kind))


def matches(text: str, steps: list, instance: dict, unknown: set, residuals: list, kind: str) -> bool:
    """Whether `text` is query(...), compared as it is written, up to the first line that
    differs: a forged query costs at most its own length and one line (a line is at most
    a 2000-digit literal or a pow's 64 operands), however long the honest query would be."""
    live = cone(steps, residuals)
    at = 0
    for line in lines(steps, live, instance, unknown, residuals, kind):
        if not text.startswith(line + "\n", at):
            return False
        at += len(line) + 1
    return at == len(text)


def check_query(method: dict, steps: list, values: dict, unknown: set, residuals: list, kind: str) -> None:
    """An "smt" nonexistence: the recorded answers and trust statement as bnproof writes
    them, and the query exactly the text above."""
    keys(method, "nonexistence", {"method", "query", "answers", "trust"})
    if method["answers"] != SOLVERS:
        raise Rejected("nonexistence.answers: both z3 and cvc5 must have answered unsat")
    if method["trust"] != TRUST:
        raise Rejected(f"nonexistence.trust: must say \"{TRUST}\"")
    if type(method["query"]) is not str or len(method["query"]) > MAX_QUERY:
        raise Rejected(f"nonexistence.query: expected the SMT-LIB text, at most {MAX_QUERY} characters")
    if not matches(method["query"], steps, values, unknown, residuals, kind):
        raise Rejected("nonexistence.query: not the query of this program and instance")
