"""SMT-LIB 2 export of a proof certificate at one batch size m (`bnproof export
CERT.proof.json --m N`): the claim the certificate proves for every m, stated at that
m for z3 or cvc5 to confirm on their own.

The symbolic-length program is instantiated at m by the checker (instantiate.py: the
scalar steps of a program certificate, `grad` differentiated in reverse mode), each
input entry a free real (a symmetric matrix's entries above and below the diagonal one
real).  Asserted: every declared domain, every hypothesis > 0, and every step's side
condition (divisor != 0, radicand >= 0), used or not, as "proved for every m" assumes
them; then the negation of the claim: residual != 0 (identity), < 0 (inequality),
<= 0 (strict).  So `unsat` says the claim holds at this m wherever the program is
defined.  The proof itself (method, terms) is not used: the solver judges the
program at m by itself, so a certificate whose proof the checker rejects still exports
(and a false claim answers `sat`).  An every-d certificate is stated at m and a
feature count d as well (smtlib_every_d.py: its own instantiation of the tensor
program, not the checker's); d is refused for any other."""

from __future__ import annotations

from fractions import Fraction

from ..checker.instantiate import MAX_M, instantiate
from ..errors import BadInput
from ..checker.proof import read_statement
from .smtlib_terms import CertificateRejected, Smt, conj, literal, stage
from .smtlib_program import DOMAIN, _define
from .smtlib_every_d import every_d_smt, named_id

NEGATION = {"identity": "(not (= {} 0))", "inequality": "(< {} 0)",
            "strict-inequality": "(<= {} 0)"}
CLAIMED = {"identity": "= 0", "inequality": ">= 0", "strict-inequality": "> 0"}


def _inputs(smt: Smt, k: int, step: list, domains: dict) -> None:
    """An input entry as a free real, with its scalar domain as an assumption."""
    name, index = step[1], step[2:]
    smt.fresh(f"v{k}")
    smt.lines[-1] += f" ; {name}" + "".join(f"[{i}]" for i in index)
    if domains.get(name) in DOMAIN:
        smt.fact(f"{name} {domains[name]}", DOMAIN[domains[name]].format(f"v{k}"))


def proof_smt(doc: dict, m: int, d: int | None = None) -> str:
    """The SMT-LIB 2 text: assumptions asserted, the claim negated (unsat confirms it at m;
    an every-d proof at m and d, smtlib_every_d.py, which needs d and alone takes it)."""
    if type(doc.get("proof")) is dict and doc["proof"].get("method") == "every-d":
        return every_d_smt(doc, m, d)
    if d is not None:
        raise BadInput("--d applies to a proof for every d (method every-d) only; "
                       f"{named_id(doc)} has no feature count to set")
    if type(m) is not int or not 1 <= m <= MAX_M:
        raise BadInput(f"--m must be an integer from 1 to {MAX_M}")
    claim, inputs, ops, types, residual, hyps = stage(read_statement, CertificateRejected, doc)
    steps, vals = stage(instantiate, CertificateRejected, inputs, ops, types, m)
    domains = {name: domain for name, _, domain in inputs}
    smt = Smt()
    for k, (op, *args) in enumerate(steps):
        if op == "input":
            _inputs(smt, k, [op, *args], domains)
        elif op == "const":
            smt.let(f"v{k}", literal(Fraction(args[0])))  # "p/q" as instantiate wrote it
        elif op == "pow":
            _define(smt, k, op, (args[0],), args[1])
        else:
            _define(smt, k, op, tuple(args), None)
    for i, h in enumerate(hyps):
        smt.fact(f"hypothesis {i} > 0", f"(> v{vals[h]} 0)")
    from ..checker.proof import read_equalities  # the claim's equality hypotheses: exactly 0

    for i, e in enumerate(read_equalities(claim, doc["program"], ops, types)):
        smt.fact(f"equality {i} = 0", f"(= v{vals[e]} 0)")
    kind = claim["kind"]
    assumed = [f"(define-fun assumption{i} () Bool {f}) ; {what}"
               for i, (what, f) in enumerate(smt.facts)]
    return "\n".join([
        f"; bnproof proof certificate {claim['id']} ({doc['digest']}) at m = {m}",
        f"; the claim: residual {CLAIMED[kind]} wherever every step is defined and every "
        "hypothesis holds",
        "; asserted: the domains, the hypotheses and every step's side condition, and the "
        "claim's negation; unsat confirms the claim at this m",
        "(set-logic QF_NRA)",
        *smt.lines, *assumed,
        f"(assert {conj(f'assumption{i}' for i in range(len(smt.facts)))})",
        f"(assert {NEGATION[kind].format(f'v{vals[residual]}')})",
        "(check-sat)", "(exit)", ""])
