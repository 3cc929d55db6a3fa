"""Proof method "sos": a sum of squares whose denominators may be 0, with a case for each
(docs/certificates.md, "Proof certificates"; docs/claims.md, "Proofs for every m").

The main part is a "nonnegative" proof (nonnegative.check_nonnegative: residual * prod(denominator)
= sum(coefficient * prod(factors)), every factor manifestly >= 0), in which each case's
`pivot` counts as > 0.  A pivot is a proof or program step sum(q*q) (or sum(q^2)) of a
vector step q whose normal form is c*x - sum_w c_w * w, with x the case's vector input, c
a nonzero number and each w the ones vector or another vector input (the coefficients
c_w may be anything).  Cauchy-Schwarz divides by B = sum(b*b) this way.

Why the cases cover what the pivots assume: at an instance where the program is defined
and the hypotheses hold, take the pivot with the smallest step index that is not > 0.
Every step before it is defined (its divisors are > 0 by the pivots before it, or by
form), so q is, and sum(q*q) = 0 makes q = 0 entrywise: x = sum_w (c_w / c) * w there.
The instance is then an instance of the program with x read as lambda_0 * 1 + sum_w
lambda_w * w for fresh real scalars lambda, and the case's own proof shows the residual
>= 0 at every such instance: "zero" (its normal form is 0), "undefined" (a step divides
by a value whose normal form is 0, so no instance of the case is in the claim), or
"nonnegative".  When every pivot is > 0 the main part applies.  A program with a grad
step is refused: a derivative does not survive replacing an input by other vectors."""

from .nonnegative import check_nonnegative  # proof.py dispatches here
from .parse import Rejected, array, keys
from .symbolic_length import ONE
from .symbolic_program import Evaluator, read_steps

MAX_CASES = 8
MAX_DEPTH = 3  # a case of a case of a case
FRESH = "#lambda"  # the case's scalars: no input name starts with "#"


class Undefined(Exception):
    """A step divides by a scalar whose normal form is 0: undefined wherever it is met."""


class CaseEvaluator(Evaluator):
    """The program with each vector input `name` of `subs` read as lambda_0 * 1 + sum
    lambda_w * w (the cases of a case: a later span never holds an earlier name, whose
    generator no longer occurs); the lambdas are scalar inputs of unknown sign."""

    def __init__(self, inputs: list, signs: dict, subs: list):
        fresh = {f"{FRESH}{i}_{j}": 0 for i, (_, span) in enumerate(subs) for j in range(len(span))}
        super().__init__(inputs + [(n, "S", "real") for n in fresh], {**signs, **fresh})
        self.subs = {name: (i, span) for i, (name, span) in enumerate(subs)}
        inverse = self.alg.inverse

        def guarded(x, where):
            if not x[0]:
                raise Undefined(where)
            return inverse(x, where)

        self.alg.inverse = guarded

    def vector(self, name: str, depth: int = 0) -> dict:
        if name not in self.subs:
            return {((("v", name), 1),): self.alg.const(1)}
        if depth > len(self.subs):
            raise Rejected("proof.cases: the cases' spans name each other in a circle")
        a, (i, span) = self.alg, self.subs[name]
        out = {}
        for j, w in enumerate(span):
            v = {ONE: a.const(1)} if w == ONE else self.vector(w, depth + 1)
            out = a.vadd(out, a.vscale(v, a.atom(("s", f"{FRESH}{i}_{j}"))))
        return out

    def step(self, op, xs, ts, literal, args, where):
        if op == "input" and literal in self.subs:
            return self.vector(literal)
        return super().step(op, xs, ts, literal, args, where)


def lambda_steps(subs, first: int = 0) -> list:
    """One scalar step for each lambda of the substitutions from `first` on: a case's own
    proof reads them at the indices right after the program's steps (and its parent's)."""
    return [("input", (), f"{FRESH}{i}_{j}") for i, (_, span) in enumerate(subs) if i >= first
            for j in range(len(span))]


def pivot_vector(all_ops: list, types: list, p: int, where: str) -> int:
    """q, for a pivot step sum(q*q) or sum(q^2)."""
    op, args, _ = all_ops[p]
    if op == "sum":
        inner_op, inner, n = all_ops[args[0]]
        if inner_op == "mul" and inner[0] == inner[1] or inner_op == "pow" and n == 2:
            if types[inner[0]] == "V":
                return inner[0]
    raise Rejected(f"{where}: step {p} is not a sum of squares sum(q*q) of a vector step q")


def span_of(alg, q: dict, name: str, vectors: set, where: str) -> list:
    """The vectors (ONE, other vector inputs) that q = c*name - ... is a combination of."""
    target = ((("v", name), 1),)
    c = q.get(target)
    if c is None or c[1] or list(c[0]) != [ONE]:
        raise Rejected(f"{where}: the pivot's vector is not a nonzero number times the input "
                       f"{name} plus other vectors")
    span = []
    for mono in sorted(q, key=repr):
        if mono == target:
            continue
        if mono == ONE:
            span.append(ONE)
        elif len(mono) == 1 and mono[0][1] == 1 and type(mono[0][0]) is tuple and \
                mono[0][0][0] == "v" and mono[0][0][1] in vectors and mono[0][0][1] != name:
            span.append(mono[0][0][1])
        else:
            raise Rejected(f"{where}: the pivot's vector holds a monomial other than the ones "
                           "vector and single vector inputs")
    return span


def outcome(inputs: list, ops: list, types: list, signs: dict, subs: list):
    """(evaluator, None) after replaying the case, or (None, where) if it is undefined."""
    ev = CaseEvaluator(inputs, signs, subs)
    try:
        ev.run(ops, types[:len(ops)])
    except Undefined as err:
        return None, str(err)
    return ev, None


def check_sos(ev: Evaluator, proof: dict, ops: list, types: list, residual: int, hyps: set,
              positive: set, strict: bool, vectors: frozenset, inputs: list, signs: dict,
              subs: tuple = ()) -> str:
    """subs: the substitutions of the case this proof is of (none for the program)."""
    if strict:
        raise Rejected("proof: the method \"sos\" proves >= 0, not a strict inequality")
    proof = keys(proof, "proof", {"method", "steps", "terms", "denominator", "cases"})
    if any(op == "grad" for op, _, _ in ops):
        raise Rejected("proof: cases that replace an input in a program that differentiates (grad)")
    cases = array(proof["cases"], "proof.cases", MAX_CASES)
    if not cases:
        raise Rejected("proof.cases: none given (a proof without cases is \"nonnegative\")")
    count = len(ops)
    base = list(types[:count])
    extra = read_steps(proof["steps"], [], list(base), "proof.steps", proof=True)
    total = count + len(extra)
    read = []
    for i, case in enumerate(cases):
        where = f"proof.cases[{i}]"
        case = keys(case, where, {"pivot", "input", "proof"})
        p = case["pivot"]
        if type(p) is not int or not 0 <= p < total:
            raise Rejected(f"{where}.pivot: not the index of one of the {total} steps")
        read.append((where, case))
    pivots = {case["pivot"] for _, case in read}
    main = {"method": "nonnegative", "steps": proof["steps"], "terms": proof["terms"],
            "denominator": proof["denominator"]}
    said = check_nonnegative(ev, main, ops, types, residual, set(hyps) | pivots, positive, False, vectors)
    all_ops = ops + extra
    names = {n for n, t, _ in inputs if t == "V"}
    for where, case in read:
        name = case["input"]
        if type(name) is not str or name not in names:
            raise Rejected(f"{where}.input: not a vector input of the program")
        q = pivot_vector(all_ops, types, case["pivot"], f"{where}.pivot")
        span = span_of(ev.alg, ev.values[q], name, names, f"{where}.pivot")
        check_case(case["proof"], inputs, ops, base, signs, residual, hyps, positive,
                   vectors - {name}, subs + ((name, span),), f"{where}.proof")
    return f"{said}, with {len(read)} case{'s' if len(read) > 1 else ''} for a pivot that may be 0"


def check_case(proof, inputs, ops, types, signs, residual, hyps, positive, vectors, subs,
               where) -> None:
    """ops, types: the program's steps and its parent case's lambdas; this case's lambdas
    follow them."""
    method = proof.get("method") if type(proof) is dict else None
    fresh = lambda_steps(subs, len(subs) - 1)
    ops, types = ops + fresh, list(types) + ["S"] * len(fresh)
    ev, undefined = outcome(inputs, ops, types, signs, list(subs))
    if method == "undefined":
        keys(proof, where, {"method"})
        if ev is not None:
            raise Rejected(f"{where}: the program is defined in this case (no step divides by a "
                           "value whose normal form is 0)")
        return
    if ev is None:
        raise Rejected(f"{where}: the program is undefined in this case ({undefined}); its proof "
                       "must say \"undefined\"")
    if method == "zero":
        keys(proof, where, {"method"})
        if not ev.alg.is_zero(ev.values[residual]):
            raise Rejected(f"{where}: the residual's normal form in this case is not 0")
    elif method in ("nonnegative", "sos") and (method == "nonnegative" or len(subs) < MAX_DEPTH):
        try:
            if method == "nonnegative":
                check_nonnegative(ev, proof, ops, list(types), residual, set(hyps), positive, False,
                                  vectors)
            else:  # the cases of a case, a few deep
                check_sos(ev, proof, ops, list(types), residual, hyps, positive, False, vectors,
                          inputs, signs, subs)
        except Undefined as err:  # a proof step, not the program: the proof is wrong here
            raise Rejected(f"{where}: {err} divides by a value whose normal form is 0 in this case")
    else:
        raise Rejected(f"{where}.method: must be \"zero\", \"undefined\", \"nonnegative\" or "
                       f"\"sos\" (cases at most {MAX_DEPTH} deep)")
