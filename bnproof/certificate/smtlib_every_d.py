"""SMT-LIB 2 export of an every-d proof certificate at one batch size m and feature
count d (`bnproof export CERT.proof.json --m N --d N`).

The tensor program is written out at (m, d) here, entry by entry, into SMT terms: this
is deliberately not the checker's `every_d.instantiate`, so that z3 and cvc5 judge the
program through a second instantiation (index arithmetic of sums, dots, broadcasts and
transposes written again).  Only the strict reading of the document (envelope, seal,
claim, steps and their axes, the claim's inputs, every conditioned step read) is the
checker's (every_d.read_statement), as for every other export.

As in smtlib_proof.py: every input entry is a free real, every scalar domain, every
hypothesis > 0 and every step's side condition (each division's divisor != 0, each
root's radicand >= 0, used or not) are asserted with the claim's negation, so `unsat`
confirms the claim at (m, d) wherever the program is defined.  The proof (normal form
or squares) and the witness are not used."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from ..checker import every_d as reading
from ..errors import BadInput
from .smtlib_program import DOMAIN
from .smtlib_terms import CertificateRejected, Smt, conj, literal, plus, stage, times

MAX_M = MAX_D = 64
# operands written in all (entries times the length each sums over): beyond, the query
# is refused before it is built, so a hostile (m, d) costs no more than this
MAX_OPERANDS = 400_000
NEGATION = {"identity": "(not (= {} 0))", "inequality": "(< {} 0)",
            "strict-inequality": "(<= {} 0)"}
CLAIMED = {"identity": "= 0", "inequality": ">= 0", "strict-inequality": "> 0"}


def named_id(doc) -> str:
    """The certificate's claim id for a message, whatever the (still unread) document holds."""
    claim = doc.get("claim") if type(doc) is dict else None
    name = claim.get("id") if type(claim) is dict else None
    return name if type(name) is str and name.isprintable() and len(name) <= 200 else "the certificate"


def _cost(ops: list, m: int, d: int) -> int:
    """Operands the written-out program has, from the axes alone (nothing built yet)."""
    size, total = {"m": m, "d": d}, 0
    for op, args, lit, axes in ops:
        cells = 1
        for a in axes:
            cells *= size[a]
        if op == "sum":
            cells *= size[ops[args[0]][3][lit[0]]]
        elif op == "dot":
            cells *= 2 * size[ops[args[0]][3][lit[0]]]
        elif op == "pow":
            cells *= max(1, abs(lit[0]))
        total += cells
        if total > MAX_OPERANDS:
            break
    return total


class _Writer:
    """Each program step's value as a dict index tuple -> SMT term (a name or a literal)."""

    def __init__(self, m: int, d: int, domains: dict):
        self.size, self.domains = {"m": m, "d": d}, domains
        self.smt, self.n = Smt(), 0

    def name(self) -> str:
        self.n += 1
        return f"v{self.n - 1}"

    def let(self, expr: str) -> str:
        return self.smt.let(self.name(), expr)

    def cells(self, axes):
        return product(*(range(self.size[a]) for a in axes))

    def step(self, k: int, op: str, vals: list, shapes: list, lit, axes) -> dict:
        if op == "input":
            out = {}
            for idx in self.cells(axes):
                v = self.smt.fresh(self.name())
                self.smt.lines[-1] += f" ; {lit}" + "".join(f"[{i}]" for i in idx)
                if self.domains.get(lit) in DOMAIN:
                    self.smt.fact(f"{lit} {self.domains[lit]}", DOMAIN[self.domains[lit]].format(v))
                out[idx] = v
            return out
        if op in ("const", "m", "d"):
            return {(): literal(Fraction(lit) if op == "const" else self.size[op])}
        if op == "eye":
            return {(i, j): "1" if i == j else "0" for i, j in self.cells(axes)}
        if op in ("add", "sub", "mul"):
            sign = {"add": "+", "sub": "-", "mul": "*"}[op]
            return {idx: self.let(f"({sign} {vals[0][idx if shapes[0] else ()]} "
                                  f"{vals[1][idx if shapes[1] else ()]})") for idx in self.cells(axes)}
        if op == "div":  # a tensor by a scalar: one divisor, one side condition
            den = vals[1][()]
            self.smt.fact(f"step {k}: divisor nonzero", f"(not (= {den} 0))")
            return {idx: self.let(f"(/ {a} {den})") for idx, a in vals[0].items()}
        if op == "neg":
            return {idx: self.let(f"(- {a})") for idx, a in vals[0].items()}
        if op == "pow":
            n = lit[0]
            if n >= 0:
                return {idx: "1" if n == 0 else self.let(times(*[a] * n)) for idx, a in vals[0].items()}
            a = vals[0][()]  # a negative power: scalars only (the reading's limit)
            den = self.let(times(*[a] * -n))
            return {(): self.smt.quotient(self.name(), "1", den, f"step {k}")}
        if op == "sqrt":
            return {(): self.smt.root(self.name(), vals[0][()], f"step {k}")}
        if op == "sum":
            p, length = lit[0], self.size[shapes[0][lit[0]]]
            return {idx: self.let(plus(vals[0][idx[:p] + (j,) + idx[p:]] for j in range(length)))
                    for idx in self.cells(axes)}
        if op == "expand":
            positions = lit[1]
            return {idx: vals[0][tuple(idx[p] for p in positions)] for idx in self.cells(axes)}
        if op == "transpose":
            return {(i, j): vals[0][(j, i)] for i, j in self.cells(axes)}
        if op == "dot":
            ia, ib = lit
            na, length = len(shapes[0]) - 1, self.size[shapes[0][ia]]
            out = {}
            for idx in self.cells(axes):
                ra, rb = idx[:na], idx[na:]
                out[idx] = self.let(plus(f"(* {vals[0][ra[:ia] + (j,) + ra[ia:]]} {vals[1][rb[:ib] + (j,) + rb[ib:]]})"
                                         for j in range(length)))
            return out
        raise CertificateRejected(f"certificate program.steps[{k}]: {op} is not exported")  # pragma: no cover


def every_d_smt(doc: dict, m: int, d) -> str:
    """The SMT-LIB 2 text of an every-d proof at (m, d): assumptions asserted, the claim
    negated (unsat confirms it there)."""
    if type(m) is not int or not 1 <= m <= MAX_M:
        raise BadInput(f"--m must be an integer from 1 to {MAX_M}")
    if d is None:
        raise BadInput(f"{named_id(doc)} is a proof for every m and "
                       "every d (method every-d): give the feature count to state it at too, e.g. --d 2")
    if type(d) is not int or not 1 <= d <= MAX_D:
        raise BadInput(f"--d must be an integer from 1 to {MAX_D}")
    claim, inputs, ops, residual, hyps, _, _ = stage(reading.read_statement, CertificateRejected, doc)
    if _cost(ops, m, d) > MAX_OPERANDS:
        raise BadInput(f"the program at m = {m}, d = {d} is too large to state (more than "
                       f"{MAX_OPERANDS} operands); give a smaller --m or --d")
    w = _Writer(m, d, {n: dom for n, _, dom in inputs})
    values: list = []
    for k, (op, args, lit, axes) in enumerate(ops):
        values.append(w.step(k, op, [values[j] for j in args], [ops[j][3] for j in args], lit, axes))
    for i, h in enumerate(hyps):
        w.smt.fact(f"hypothesis {i} > 0", f"(> {values[h][()]} 0)")
    kind, facts = claim["kind"], w.smt.facts
    assumed = [f"(define-fun assumption{i} () Bool {f}) ; {what}" for i, (what, f) in enumerate(facts)]
    return "\n".join([
        f"; bnproof proof certificate {claim['id']} ({doc['digest']}) at m = {m}, d = {d}",
        f"; the claim: residual {CLAIMED[kind]} wherever every step is defined and every "
        "hypothesis holds",
        "; asserted: the domains, the hypotheses and every step's side condition, and the "
        "claim's negation; unsat confirms the claim at this m and d",
        "(set-logic QF_NRA)",
        *w.smt.lines, *assumed,
        f"(assert {conj(f'assumption{i}' for i in range(len(facts)))})",
        f"(assert {NEGATION[kind].format(values[residual][()])})",
        "(check-sat)", "(exit)", ""])
