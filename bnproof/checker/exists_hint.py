"""An existential claim proved for every m through its hint (docs/claims.md, "Existential
variables", "Proofs for every m").

"For every x meeting the hypotheses there are p with R(x, p) = 0" holds when a hint h,
a function of x, is such that R(x, h(x)) = 0 for every x meeting the hypotheses, h(x)
being DEFINED there.  The certificate is a proof certificate of the program with h
substituted (an ordinary proof for every m, checked by proof.py), its claim object
marked with "exists": the existential variables, which of the claim's hints is the
witness, and "defined", the program's definedness obligations: every step it divides
by (or raises to a negative power) nonzero, every radicand >= 0, wherever the
hypotheses hold and the inputs are in their domains.  An ordinary proof assumes every
step defined; here that assumption is what makes p = h(x) a witness, so it is proved:

* the obligations listed must be exactly those the checker reads off the program (so
  none can be dropped), in order;
* each is established, in order, by signs a step has by its form alone (Manifest, with
  NO step assumed nonzero for being a divisor: that is what is proved here), where a
  step whose normal form is c * m^j times a hypothesis' normal form (c > 0 rational) is
  > 0 (the hypothesis is > 0, m >= 1), and a radicand shown >= 0 makes its root real.

Normal forms are read in the program's own replay; a root in a normal form is the root
of a radicand established >= 0 before it (the obligations come in step order).
A program that differentiates (grad) is refused: a differentiated root needs its
radicand > 0, a fact this module does not track."""

from __future__ import annotations

import copy

from .nonnegative import Manifest
from .parse import Rejected, array, check_envelope, keys, sha256_of
from .proof import TOP, check_proof, read_statement
from .roots import sign_facts
from .symbolic_length import M
from .symbolic_program import Evaluator
from .variables import declared

EXISTS = {"variables", "hint", "defined"}
MAX_HINT, MAX_EXISTS = 64, 64


def obligations(ops: list, types: list) -> list:
    """[[step, "nonzero" | "nonnegative"], ...]: each divisor and negative power's base,
    each radicand, in the order of the steps that need them, each once."""
    out, seen = [], set()
    for op, args, n in ops:
        need = None
        if op == "div":
            need = [args[1], "nonzero"]
        elif op == "pow" and n < 0:
            need = [args[0], "nonzero"]
        elif op == "sqrt":
            need = [args[0], "nonnegative"]
        if need is not None and tuple(need) not in seen:
            seen.add(tuple(need))
            out.append(need)
    return out


def _proportional(alg, value: tuple, hyp: tuple) -> bool:
    """value = c * m^j * hyp with c > 0 rational and j an integer (> 0 where hyp is, m >= 1),
    by cross-multiplication: N1 * D2 = c * m^j * N2 * D1."""
    (n1, d1), (n2, d2) = value, hyp
    if not n1 or not n2:
        return False
    left, right = alg.pmul(n1, alg.expand(d2)), alg.pmul(n2, alg.expand(d1))
    lead_l, lead_r = max(left), max(right)
    c = left[lead_l] / right[lead_r]
    j = dict(lead_l).get(M, 0) - dict(lead_r).get(M, 0)
    if c <= 0:
        return False
    m_power = lambda k: {((M, k),): 1} if k else {(): 1}  # noqa: E731
    left = alg.pmul(left, m_power(max(0, -j)))
    right = alg.pmul(right, m_power(max(0, j)))
    return not alg.padd(left, right, -c)


def _by_hypothesis(ev, value: tuple, hyps: list) -> bool:
    """value a positive multiple of a hypothesis (so > 0 where the hypotheses hold)."""
    return any(_proportional(ev.alg, value, ev.values[h]) for h in hyps)


def check_defined(claim_exists: dict, inputs: list, ops: list, types: list, hyps: list, ev) -> int:
    """The number of obligations, each established; Rejected at the first that is not."""
    if any(op == "grad" for op, _, _ in ops):
        raise Rejected("claim.exists: a program that differentiates (grad) is outside the proofs "
                       "through a hint (a differentiated root needs its radicand > 0)")
    given = array(claim_exists["defined"], "claim.exists.defined", len(ops) + 1)
    want = obligations(ops, types)
    # == alone reads 3.0 and true as the steps 3 and 1: every index elsewhere must be an int
    if given != want or any(type(g) is not list or type(g[0]) is not int for g in given):
        missing = next((w for w in want if w not in given), None)
        raise Rejected("claim.exists.defined: not the program's definedness obligations"
                       + (f" (step {missing[0]} {missing[1]} is missing)" if missing else ""))
    positive = {n for n, t, d in inputs if t == "S" and d == "positive"}
    vectors = frozenset(n for n, t, d in inputs if t == "V" and d == "positive")
    # no divisor assumed nonzero: that is what is proved here; a step proved > 0 below
    # joins the hypotheses, the steps > 0 by assumption, for the obligations after it
    facts = Manifest(ops, types, set(hyps), positive, frozenset(), vectors)
    for k, want_sign in want:
        if types[k] != "S":
            raise Rejected(f"claim.exists.defined: step {k} is not a scalar")
        if not facts.positive(k) and _by_hypothesis(ev, ev.values[k], hyps):
            facts.hyps.add(k)
            facts.memo.clear()
        ok = facts.nonzero(k) if want_sign == "nonzero" else facts.nonnegative(k)
        # k^2 a positive multiple of a hypothesis: k != 0 where it holds
        ok = ok or want_sign == "nonzero" and _by_hypothesis(ev, ev.alg.mul(ev.values[k], ev.values[k]), hyps)
        if not ok:
            said = "!= 0" if want_sign == "nonzero" else ">= 0"
            raise Rejected(f"claim.exists.defined: step {k} is not shown {said} wherever the hypotheses "
                           "hold (the hint may be undefined there)")
    return len(want)


def unmarked(doc: dict) -> tuple:
    """(the existential marking, the same certificate without it, sealed again), once the
    original's keys, envelope and digest are checked: what proof.py then reads is exactly
    what was sealed, less the marking.  The kernel sends here a claim object with "exists"."""
    keys(doc, "document", TOP)
    check_envelope(doc)
    marking = keys(doc["claim"]["exists"], "claim.exists", EXISTS)
    plain = copy.deepcopy({k: v for k, v in doc.items() if k != "digest"})
    del plain["claim"]["exists"]
    plain["digest"] = sha256_of(plain)
    return marking, plain


def check_exists_hint(doc: dict) -> str:
    """An existential claim proved for every m through its hint: the ordinary proof of the
    substituted program (proof.py), then every definedness obligation proved."""
    marking, plain = unmarked(doc)
    hint = marking["hint"]
    if type(hint) is not int or not 0 <= hint < MAX_HINT:
        raise Rejected(f"claim.exists.hint: expected the index of one of the claim's hints (0 to {MAX_HINT - 1})")
    names = [name for name, _, _ in declared(array(marking["variables"], "claim.exists.variables", MAX_EXISTS))]
    if not names:
        raise Rejected("claim.exists.variables: an existential claim names at least one variable")
    if type(plain.get("proof")) is dict and plain["proof"].get("method") in ("every-d", "moments-n"):
        raise Rejected("proof.method: a proof through a hint is of a symbolic-length program")
    line = check_proof(plain)
    claim, inputs, ops, types, residual, hyps = read_statement(plain)
    if any(name in names for name, _, _ in declared(claim["variables"])):
        raise Rejected("claim.exists.variables: an existential variable is also a universal one")
    ev = Evaluator(inputs, sign_facts(inputs, ops, hyps))
    ev.run(ops, types)
    n = check_defined(marking, inputs, ops, types, hyps, ev)
    line = line.replace("every step defined", "every step defined, which is proved")
    head, sep, tail = line.partition(" proved for every m")
    return (f"{head} (there exist {', '.join(names)}) proved for every m{tail[:tail.find(':')]} "
            f"(witness: the claim's hint {hint}, defined wherever the hypotheses hold: "
            f"{n} obligation{'s' if n != 1 else ''} proved){tail[tail.find(':'):]}")
