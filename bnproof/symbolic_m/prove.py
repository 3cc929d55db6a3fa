"""Prove a claim for every batch size m (docs/claims.md, "Proofs for every m").

An identity is proved when its residual's normal form is 0 (algebra.py: the zero
test is sufficient, never necessary).  An inequality is proved with equality when
the normal form is 0, or by a manifestly nonnegative decomposition
(nonnegative.py): residual·Π denominator ≡ Σ coefficient·Π factors, each factor
≥ 0 by its form, each denominator factor > 0 by its form.  Either way the proof
is replayed by this module's zero test, then by the independent checker (the
certificate is written only if it accepts), and is not vacuous: an exact witness
instance at a small m where every hypothesis holds and the residual is defined.
A proof is of the traced program, so it is reported only when the claim's own code,
read without the tracer (bnproof.reading), computes the program's values at generic
instances of several m (crosscheck.py); a disagreement is errors.Disagreement.
Anything else is "not proved" with the normal form, or "not in the provable
fragment" with what the claim uses.
"""

from __future__ import annotations

import itertools
import math
import time

from ..claims.api import Claim
from . import nonnegative as NN
from . import poly as P
from . import squares as SQ
from .attempts import (NOT_PROVED, OUTSIDE, PROVED, PROVED_PARTLY, Attempt, at_fixed,  # noqa: F401
                       find_instance, find_witness, program_inputs)
from .sos import sos_proof
from .equalities import explain, find_instance_on_set, substitution_proof
from .algebra import Algebra, Scalar, TooLarge
from .crosscheck import gate
from .evaluate import Replay
from .fragment import NotDefined, OutsideFragment
from .proof_steps import Steps, replays
from .show import normal_form_latex, normal_form_text
from .trace import BATCH, fixed_sizes, other_sizes, program_for

# Every declared combination of the fixed sizes is attempted when there are at most this
# many (d in (1, 6) is proved at each d); beyond, trace.fixed_sizes' smallest three of each,
# and the proof is then "proved for part of the range" at best.
MAX_COMBINATIONS = 6


def attempt(claim: Claim, fixed: dict | None = None, certify: bool = True) -> Attempt:
    """Try to prove the claim for every m at these fixed sizes.  Never raises for the
    claim's mathematics: every failure is an Attempt saying why; errors.Disagreement
    (exit 7) when the traced program is not the claim's own code."""
    fixed = dict(fixed or {})
    from . import moments_n  # expectations over n i.i.d. draws: their own tracer and proof
    if moments_n.uses_laws(claim) and BATCH in claim.sizes:
        from .moments_n_prove import attempt as moments_attempt
        return moments_attempt(claim, fixed, certify)
    try:
        program = program_for(claim, fixed)
    except OutsideFragment as err:
        return Attempt(OUTSIDE, f"not in the provable fragment: {err.reason}", fixed)
    try:
        replay = Replay(program)
    except OutsideFragment as err:
        return Attempt(OUTSIDE, f"not in the provable fragment: {err.reason}", fixed, program)
    except NotDefined as err:
        return Attempt(NOT_PROVED, f"not proved: {err} (the program is defined nowhere)", fixed, program)
    except TooLarge as err:
        return Attempt(NOT_PROVED, f"not proved: {err}", fixed, program)
    value = replay.values[program["residual"]]
    text, latex = normal_form_text(replay.alg, value, claim), normal_form_latex(replay.alg, value, claim)
    equality = False
    if value.is_zero():
        if claim.kind == "inequality" and claim.strict:
            return Attempt(NOT_PROVED, "not proved: the residual is ≡ 0, so the strict inequality "
                                       "fails with equality wherever it is defined", fixed, program,
                           normal_form="0", normal_form_latex="0")
        proof = {"method": "zero"}
        equality = claim.kind == "inequality"
    elif program.get("equalities") and not (claim.kind == "inequality" and claim.strict) and \
            (substituted := substitution_proof(program)) is not None:
        proof, equality = substituted, claim.kind == "inequality"
        text = latex = "0"  # the residual's normal form on the equality set
    elif claim.kind == "identity":
        said = f"{text}{explain(program)}" if program.get("equalities") else text
        return Attempt(NOT_PROVED, f"not proved: normal form {said}", fixed, program,
                       normal_form=text, normal_form_latex=latex)
    else:
        try:
            proof = decompose(replay, program, claim.strict)
        except (TooLarge, NotDefined, OutsideFragment) as err:
            proof = None
            text = f"{text} ({err})"
        if proof is None:
            return Attempt(NOT_PROVED, f"not proved: normal form {text}, no manifestly nonnegative "
                                       "decomposition found", fixed, program,
                           normal_form=text, normal_form_latex=latex)
    # a witness of a claim with equalities lies on their set (each exactly 0 there)
    found = find_instance_on_set(claim, fixed) if claim.equalities else find_instance(claim, fixed)
    if found is None:
        return Attempt(NOT_PROVED, "not proved: no exact instance at a small m was found where the "
                                   "hypotheses hold and the residual is defined (the proof could be "
                                   "vacuous)", fixed, program, proof, normal_form=text,
                       normal_form_latex=latex)
    witness = {"m": found[0], "inputs": program_inputs(claim, program, found[1])}
    # a proof of the traced program is the claim's only if the claim's own code, read
    # without the tracer at generic instances of m = 2, 3, 4, 5, 7 and every declared m
    # (crosscheck.py; never the witness, where degenerate readings agree), computes the
    # same values (errors.Disagreement if not)
    why = gate(claim, fixed, program, avoid=[found[1]])
    if why is not None:
        return Attempt(NOT_PROVED, f"not proved: {why}", fixed, program, proof,
                       normal_form=text, normal_form_latex=latex)
    result = Attempt(PROVED, "proved for every m" + at_fixed([fixed]), fixed, program, proof, witness,
                     normal_form="0" if value.is_zero() else text,
                     normal_form_latex="0" if value.is_zero() else latex, equality=equality)
    if certify:
        from ..certificate import proof as certificate
        from ..certificate.io import CheckerRefused
        try:
            result.document = certificate.build(claim, program, proof, witness, fixed)
        except CheckerRefused as err:
            return Attempt(NOT_PROVED, f"not proved: {err}", fixed, program, proof, witness,
                           normal_form=text, normal_form_latex=latex)
    return result


def declared_combinations(claim: Claim) -> int:
    """How many choices of the fixed sizes (every size but m) the claim declares: a proof
    covers the claim only when it is proved at each of them."""
    return math.prod(max(0, hi - lo + 1) for lo, hi in (claim.sizes[n] for n in other_sizes(claim)))


def plan(claim: Claim) -> list[dict]:
    """The fixed sizes a proof is attempted at, in order: every declared combination when
    there are at most MAX_COMBINATIONS, else trace.fixed_sizes (the smallest of each)."""
    names = other_sizes(claim)
    if declared_combinations(claim) > MAX_COMBINATIONS:
        return fixed_sizes(claim)
    ranges = [range(claim.sizes[n][0], claim.sizes[n][1] + 1) for n in names]
    return [dict(zip(names, combo)) for combo in itertools.product(*ranges)]


def prove_claim(claim: Claim, certify: bool = True, deadline: float | None = None,
                on_attempt=None) -> list[Attempt]:
    """An attempt at each fixed size of plan(claim); the first failure ends the list (the
    claim is then not proved at every listed size), and so does `deadline` (time.monotonic()),
    checked before each attempt: an attempt under way is not interrupted here (a worker
    process is killed for that, search/worker.py).  `on_attempt(attempt)` hears of each."""
    from ..search.space import _check_claim_sizes

    _check_claim_sizes(claim)  # fuzz's rule: a range from 0 is bad input (Σ over m = 0 entries is 0; every m means m >= 1)
    out = []
    reserved = _reserved_name(claim)
    if reserved:  # the checker would reject the certificate only after the whole proof: say so first
        refused = Attempt(NOT_PROVED, reserved, {})
        if on_attempt is not None:
            on_attempt(refused)
        return [refused]
    if claim.exists:  # proved through a hint, the witness at every instance (exists_hint.py)
        from .exists_hint import prove_exists
        return prove_exists(claim, attempt, plan, certify, deadline, on_attempt)
    from ..errors import Disagreement
    from .every_d import attempt as every_d  # every m and every d at once, where it proves
    try:
        first = every_d(claim, certify)
    except (KeyboardInterrupt, MemoryError, Disagreement):  # a disagreement is a bug: exit 7
        raise
    except Exception:  # noqa: BLE001 - a failure of the every-d attempt is never a proof: the proofs at each d decide
        first = None
    if first is not None and first.proved:
        if on_attempt is not None:
            on_attempt(first)
        return [first]
    for fixed in plan(claim):
        if deadline is not None and time.monotonic() > deadline:
            break
        made = attempt(claim, fixed, certify)
        if made.status == OUTSIDE and first is not None and first.status == NOT_PROVED and not out:
            made = first  # traced with d symbolic, but not at a fixed d: the every-d normal form says more
        out.append(made)
        if on_attempt is not None:
            on_attempt(out[-1])
        if not out[-1].proved:
            break
    return out


def _reserved_name(claim: Claim) -> str:
    """Why the checker would refuse a proof under this claim's id (checker/named.py's rule:
    a name that reads as one of the papers' claims, but is not its exact id), or ''.  A
    paper's claim under its exact id is attempted: where it is false, its normal form says
    why, and a user's other claim under a refuted claim's id is refused by the checker."""
    from ..checker.papers import paper_claim

    paper = paper_claim(claim.id)
    if paper is not None and paper != claim.id:
        return (f"not proved: the id {claim.id} reads as the name of a claim of the papers"
                + (f" ({paper})" if paper else "") + ", which only that claim's exact id may carry; "
                "rename the claim (for example without the authors' names) to prove it")
    return ""


# ---------------------------------------------------------------- the decomposition

def decompose(replay: Replay, program: dict, strict: bool) -> dict | None:
    """The "nonnegative" (or "sos") proof object of the spec, or None if the search finds
    none: the Gram–Schmidt search (nonnegative.py), then a square over a positive
    denominator (squares.py), then sums of squares (sos.py: last, so that what the others
    prove is proved no slower)."""
    found = _gram(replay, program, strict)
    found = found if found is not None else SQ.square_proof(replay, program, strict)
    return found if found is not None else sos_proof(replay, program, strict)


def _gram(replay: Replay, program: dict, strict: bool) -> dict | None:
    alg = replay.alg
    value = replay.values[program["residual"]]
    if not P.is_monomial(value.d):
        return None
    if value.d.f.leading_coefficient() <= 0:
        return None
    hyps = list(program["hypotheses"])
    vectors = [n for n, t, _ in program["inputs"] if t == "vector"]
    positive_inputs = {alg._atom[("in", n)] for n, t, d in program["inputs"]
                       if t == "scalar" and d == "positive" and ("in", n) in alg._atom}
    for y in vectors:
        r = NN.variance_root(alg, y)
        if r is None:
            continue
        found = _search(alg, replay, program, value, y, r, [x for x in vectors if x != y],
                        hyps, positive_inputs, strict)
        if found is not None:
            return found
    return None


def _search(alg: Algebra, replay, program, value, y, r, others, hyps, positive_inputs, strict):
    fresh_names: dict = {}

    def fresh(name):
        v = alg.atom(("coordinate",) + name)
        fresh_names[v] = name
        return v

    subs = NN.substitutions(alg, y, r, others, fresh)
    q, shift = NN.substitute(value.n, subs, alg.m)
    relations = []
    for k, h in enumerate(hyps):
        hv = replay.values[h]
        if not P.is_monomial(hv.d):
            continue
        hq, hshift = NN.substitute(hv.n, subs, alg.m)
        ((hexps, hcoef),) = hv.d.f.terms()
        den = P.monomial(P.mono_mul(P.sparse(hexps), ((alg.m, hshift),) if hshift else ()), P.fraction(hcoef))
        common = P.common_monomial(hq, den)
        hq, den = P.divide_monomial(hq, common), P.divide_monomial(den, common)
        t = fresh(("t", k))
        # t = hq/den, so t·den − (hq − c·u) = c·u: a relation for each monomial u of hq
        relations.append((t, hq, den))
    nonneg = {alg.m, r} | positive_inputs | {v for v, n in fresh_names.items() if n[0] in ("P", "t")}
    options = []
    for t, hq, den in relations:
        mine = [None]
        for exps, c in hq.f.terms():
            if any(exps):
                mono, c = P.sparse(exps), P.fraction(c)
                rest = P.add(hq, P.monomial(mono, c), -1)
                mine.append((mono, P.scale(P.add(P.mul(P.var(t), den), rest, -1), 1 / c)))
        options.append(mine)
    for choice in itertools.islice(itertools.product(*options), NN.MAX_CHOICES):
        candidate = q
        for pick in choice:
            if pick is not None:
                candidate = NN.eliminate(candidate, *pick)
        if NN.manifest(candidate, nonneg):
            proof = _emit(alg, replay, program, value, candidate, shift, y, r, fresh_names, hyps,
                          positive_inputs, strict)
            if proof is not None:
                return proof
    return None


def _emit(alg, replay, program, value, poly, shift, y, r, fresh_names, hyps, positive_inputs, strict):
    steps = Steps(program)
    names = {n: i for i, s in enumerate(program["steps"]) if s[0] == "input" for n in [s[1]]}
    m_step = steps.get(["m"])
    root_factor = next((i for i, v in enumerate(replay.values[:len(program["steps"])])
                        if isinstance(v, Scalar) and program["steps"][i][0] == "sqrt"
                        and v.n == P.var(r) and v.d == P.ONE), None)
    root_positive = None
    for h in hyps:  # a denominator's σ must be > 0 by its form: √h of a hypothesis h = σ²
        if _same_root(alg, replay.values[h], r):
            root_positive = steps.get(["sqrt", h])
            break
    y_in = names[y]
    mu = steps.get(["div", steps.get(["sum", y_in]), m_step])
    yhat = None

    def hat():
        nonlocal yhat
        if yhat is None:
            if root_factor is None:
                raise _Missing
            yhat = steps.get(["div", steps.get(["sub", y_in, mu]), root_factor])
        return yhat

    coords: dict = {}

    def coordinate(x, kind):
        if (x, kind) not in coords:
            x_in = names[x]
            a = steps.get(["div", steps.get(["sum", x_in]), m_step])
            b = steps.get(["div", steps.get(["sum", steps.get(["mul", x_in, hat()])]), m_step])
            p = steps.get(["sub", steps.get(["sub", x_in, a]), steps.get(["mul", b, hat()])])
            coords[(x, "a")], coords[(x, "b")] = a, b
            coords[(x, "P")] = steps.get(["sum", steps.get(["mul", p, p])])
        return coords[(x, kind)]

    def step_of(v) -> int:
        if v == alg.m:
            return m_step
        if v == r:
            if root_factor is None:
                raise _Missing
            return root_factor
        if v in fresh_names:
            name = fresh_names[v]
            if name[0] == "t":
                return hyps[name[1]]
            return coordinate(name[1], name[0])
        desc = alg.atoms[v]
        if desc[0] == "in" and desc[1] in names:
            return names[desc[1]]
        gy = alg._gen[("in", y)]
        if desc[0] == "S" and desc[2] == ((gy, 1),):
            return steps.get(["sum", y_in])
        raise _Missing

    try:
        terms = []
        scale = P.fraction(value.d.f.leading_coefficient())
        for mono, c in sorted((P.sparse(e), P.fraction(c)) for e, c in poly.f.terms()):
            factors = []
            for v, e in mono:
                s = step_of(v)
                if e % 2:
                    factors.append(s)
                    e -= 1
                if e:
                    factors.append(steps.get(["pow", s, e]))
            terms.append({"coefficient": str(c / scale), "factors": factors})
        denominator = []
        ((dexps, _),) = value.d.f.terms()
        for v, e in P.sparse(dexps):
            if v == r:
                if root_positive is None:
                    return None
                denominator += [root_positive] * e
            elif v == alg.m or v in positive_inputs:
                denominator += [step_of(v)] * e
            else:
                return None
        denominator += [m_step] * shift
    except _Missing:
        return None
    proof = {"method": "nonnegative", "steps": steps.extra, "terms": terms, "denominator": denominator}
    return proof if replays(program, proof) else None


class _Missing(Exception):
    pass


def _same_root(alg: Algebra, h: Scalar, r: int) -> bool:
    rn, rd = alg.roots[r]
    return alg.sub(h, Scalar(rn, rd)).is_zero()
