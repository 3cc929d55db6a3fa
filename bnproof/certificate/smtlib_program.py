"""SMT-LIB 2 export of a program certificate: one real per step, its definition,
and the negated obligations (see smtlib.py for the scheme).

The grammar is the one of docs/certificates.md, "Program certificates", read
with the checker's parsing primitives; as in the checker, every step's side
condition (divisor nonzero, radicand nonnegative) is a fact, used or not."""

from __future__ import annotations

from ..checker import formulas
from ..checker.parse import Rejected, array, check_envelope, keys, kind_of, tensor
from ..checker.program import ID, NAME, MAX_STEPS, SIGN, TOP, parse_steps
from ..errors import BadInput
from .smtlib import CertificateRejected, Smt, literal, stage, times

RELATION = {"positive": "(> {} 0)", "negative": "(< {} 0)", "nonpositive": "(<= {} 0)",
            "nonzero": "(not (= {} 0))"}
FORM = {"add": "(+ {0} {1})", "sub": "(- {0} {1})", "mul": "(* {0} {1})", "neg": "(- {0})",
        "max": "(ite (>= {0} {1}) {0} {1})", "min": "(ite (<= {0} {1}) {0} {1})",
        "abs": "(ite (>= {0} 0) {0} (- {0}))"}


def _parse(doc: dict):
    """Structure and values (BadInput on failure)."""
    keys(doc, "document", TOP)
    claim = keys(doc["claim"], "claim", {"id", "source", "statement", "kind"})
    program = keys(doc["program"], "program", {"steps", "residual", "hypotheses"})
    if type(claim["id"]) is not str or not ID.fullmatch(claim["id"]):
        raise Rejected("claim.id: expected 1 to 100 printable ASCII characters without spaces")
    if type(claim["kind"]) is not str or claim["kind"] not in SIGN:
        raise Rejected("claim.kind: must be \"inequality\", \"strict-inequality\" or \"identity\"")
    inst = doc["instance"]
    if type(inst) is not dict or not all(NAME.fullmatch(name) for name in inst):
        raise Rejected(f"instance: expected an object keyed by variable names, got {kind_of(inst)}")
    ops = parse_steps(program["steps"], {name: tensor(v, "instance." + name) for name, v in inst.items()})
    facts = [("hypothesis", h, "positive") for h in array(program["hypotheses"], "program.hypotheses",
                                                         MAX_STEPS)]
    facts.append(("residual", program["residual"], SIGN[claim["kind"]]))
    for name, step, _ in facts:
        if type(step) is not int or not 0 <= step < len(ops):
            raise Rejected(f"program: a {name} is not the index of one of the {len(ops)} steps")
    return claim, ops, facts


def _bind(doc: dict, claim: dict, facts: list) -> None:
    """Seal, claim binding and obligations, as the checker requires (CertificateRejected)."""
    check_envelope(doc)
    formulas.bound(claim)  # a claim of the papers must carry its own text (the checker's pin)
    if doc["verdict"] != "refuted":
        raise Rejected("document verdict: a program certificate can only say \"refuted\"")
    want = [{"fact": name, "value": step, "sign": sign} for name, step, sign in facts]
    items = doc["obligations"]
    if type(items) is not list or len(items) != len(want) or any(
            type(i) is not dict or type(i.get("value")) is not int or i != w for i, w in zip(items, want)):
        raise Rejected("obligations: not one hypothesis entry per program hypothesis, then the residual")


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
    claim, ops, facts = stage(_parse, BadInput, doc)
    stage(_bind, CertificateRejected, doc, claim, facts)
    smt = Smt()
    for k, (op, ix, n) in enumerate(ops):
        _define(smt, k, op, ix, n)
    for name, step, sign in facts:
        smt.fact(f"{name}: step {step} {sign}", RELATION[sign].format(f"v{step}"))
    return smt.text(f"bnproof program certificate {claim['id']} ({doc['digest']})")
