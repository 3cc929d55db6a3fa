"""Prove a claim for every batch size m and every feature count d at once (proof method
"every-d"; docs/claims.md, "Proofs for every m", "Every d").

The claim is traced with m and d symbolic (columns.py); the residual's normal form is
computed in the tensor algebra of the independent checker (bnproof/checker/every_d.py:
fully contracted sums are atoms of the every-m scalar algebra, named by a canonical
form), so that the certificate is what the prover itself decided with, and there is one
such algebra to trust, the checker's.  Proved when that form is 0, or for an inequality
R >= 0 when R is a manifestly nonnegative multiple of a full sum of squares
(every_d_squares.py), with a witness at a small (m, d), after the second reading agrees
at several (m, d) (crosscheck.py).

Anything else returns an Attempt that is not proved (or None where the claim's shapes
are not those of this fragment): the caller then proves the claim at each d of its
range as before, so a claim outside this fragment keeps its per-d proofs.
"""

from __future__ import annotations

from fractions import Fraction

from ..claims.api import Claim
from . import columns
from .fragment import OutsideFragment
from .attempts import NOT_PROVED, OUTSIDE, PROVED, Attempt, find_instance
from .trace import batch_name

PROVED_TEXT = "proved for every m and every d"


def applies(claim: Claim) -> tuple[str, str] | None:
    """(batch size, feature count) of a claim whose shapes this prover reads, else None."""
    batch = batch_name(claim)
    if batch is None:
        return None
    feature = columns.sizes_of(claim, batch)
    return None if feature is None else (batch, feature)


def attempt(claim: Claim, certify: bool = True) -> Attempt | None:
    names = applies(claim)
    if names is None:
        return None
    batch, feature = names
    try:
        program = columns.program_for(claim, batch, feature)
    except OutsideFragment as err:
        return Attempt(OUTSIDE, f"not in the every-d fragment: {err.reason}", {})
    from ..checker.every_d import Evaluator, read_inputs, read_steps
    from ..checker.parse import Rejected

    try:
        inputs = read_inputs(program["inputs"])
        ops = read_steps(program["steps"], inputs)
        ev = Evaluator(inputs)
        ev.run(ops)
    except Rejected as err:  # beyond the checker's limits (a sum over too many indices): outside
        return Attempt(OUTSIDE, f"not in the every-d fragment: {err}", {}, program)
    value = ev.t.value(ev.values[program["residual"]])
    proof = {"method": "every-d"}
    if not ev.alg.is_zero(value):
        text = normal_form_text(value, ev.alg)
        squares, why = None, ""
        if claim.kind == "inequality" and not claim.strict:  # R >= 0 as c·Σ T∘T
            from .every_d_squares import search

            squares, why = search(program, ops)
        if squares is None:
            return Attempt(NOT_PROVED, f"not proved for every d: the residual's normal form is not 0: {text}"
                           + (f"; {why}" if why else ""), {}, program, normal_form=text, normal_form_latex="")
        proof["squares"] = squares
    elif claim.kind == "inequality" and claim.strict:
        return Attempt(NOT_PROVED, "not proved: the residual is ≡ 0, so the strict inequality fails "
                                   "with equality wherever it is defined", {}, program)
    lo = claim.sizes[feature][0]
    found = find_instance(claim, {feature: lo})
    if found is None:
        return Attempt(NOT_PROVED, "not proved: no exact instance at a small m was found where the "
                                   "hypotheses hold and the residual is defined (the proof could be "
                                   "vacuous)", {}, program, proof)
    m, instance = found
    witness = {"m": m, "d": lo, "inputs": {v.name: _exact(instance[v.name]) for v in claim.variables}}
    from .crosscheck import gate_every_d

    why = gate_every_d(claim, program, batch, feature, avoid=[instance])
    if why is not None:
        return Attempt(NOT_PROVED, f"not proved: {why}", {}, program, proof)
    squared = "squares" in proof
    result = Attempt(PROVED, PROVED_TEXT, {}, program, proof, witness, normal_form="" if squared else "0",
                     normal_form_latex="" if squared else "0",
                     equality=claim.kind == "inequality" and not squared)
    if certify:
        from ..certificate.io import CheckerRefused

        try:
            result.document = build(claim, program, proof, witness)
        except CheckerRefused as err:
            return Attempt(NOT_PROVED, f"not proved: {err}", {}, program, proof, witness)
    return result


def build(claim: Claim, program: dict, proof: dict, witness: dict) -> dict:
    """The sealed certificate, accepted by the independent checker (CheckerRefused if not):
    the proof certificate of every method, with nothing fixed and a witness at (m, d)."""
    from .. import __version__
    from ..certificate.io import FORMAT, VERSION, checked, seal
    from ..certificate.program import claim_object

    return checked(seal({
        "format": FORMAT, "version": VERSION, "bnproof_version": __version__, "kind": "proof",
        "claim": claim_object(claim, 0), "program": program, "fixed": {}, "proof": proof,
        "witness": {"m": int(witness["m"]), "d": int(witness["d"]), "inputs": witness["inputs"]},
    }))


def _exact(value):
    value = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(value, (list, tuple)):
        return [_exact(v) for v in value]
    return str(Fraction(value))


def bind_difference(claim: Claim, doc: dict, where: str, second_reading) -> str | None:
    """`bnproof check --claim` for a certificate of method "every-d": the program must be
    the one this tracer gives for the claim, the witness's d in the claim's range, and the
    second reading must agree at several (m, d); else the first difference, in words."""
    names = applies(claim)
    if names is None:
        return f"{claim.id} in {where} has no every-d program (its shapes are not (), (m,), (d,), (m, d))"
    batch, feature = names
    lo, hi = claim.sizes[feature]
    if not lo <= doc["witness"]["d"] <= hi:
        return f"the proof's witness is at {feature} = {doc['witness']['d']}, outside {claim.id}'s range {lo}..{hi}"
    try:
        traced = columns.program_for(claim, batch, feature)
    except OutsideFragment as err:
        return f"{claim.id} in {where} has no every-d program: {err.reason}"
    if traced != doc["program"]:
        return f"the program is not the one {where} gives for {claim.id} (a proof of another program)"
    from .crosscheck import gate_every_d

    return second_reading(lambda: gate_every_d(claim, doc["program"], batch, feature))


BATCH_LETTERS, FEATURE_LETTERS = "iklabc", "jpqrst"
MAX_SHOWN = 400  # characters of a normal form shown; the rest is "…"


def normal_form_text(value, alg) -> str:
    """The checker's normal form N/D in Unicode: atoms m, d, the scalar inputs, roots r_k and
    the fully summed products Σ_{i,j} X[i,j]·w[j]."""
    num, den = value
    text = _polynomial(num)
    factors = [(f"({_polynomial(dict(f))})" if len(f) > 1 else _polynomial(dict(f))) + (f"^{e}" if e > 1 else "")
               for f, e in den.items()]
    if factors:
        text = f"({text}) / ({'·'.join(factors)})"
    roots = "".join(f", r{k} = √({_polynomial(n)}{' / …' if d else ''})" for k, (n, d) in enumerate(alg.radicands))
    text += f", where{roots[1:]}" if roots else ""
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def _atom(atom) -> str:
    if atom[0] in ("m", "d"):
        return atom[0]
    if atom[0] == "s":
        return atom[1]
    if atom[0] == "r":
        return f"r{atom[1]}"
    letters: dict = {}
    for f in atom[1]:
        for x in f[1:]:
            if x not in letters:
                pool = BATCH_LETTERS if x[1] == "m" else FEATURE_LETTERS
                used = sum(1 for y in letters if y[1] == x[1])
                letters[x] = pool[used] if used < len(pool) else f"{pool[0]}{used}"
    body = "·".join(f"{f[0]}[{','.join(letters[x] for x in f[1:])}]" for f in atom[1])
    return f"Σ_{{{','.join(letters.values())}}} {body}"


def _polynomial(p: dict) -> str:
    if not p:
        return "0"
    out = ""
    for mono, c in sorted(p.items(), key=lambda mc: str(mc[0])):
        body = "·".join(f"({_atom(a)})" + (f"^{e}" if e > 1 else "") if a[0] == "G" else _atom(a) + (f"^{e}" if e > 1 else "")
                        for a, e in mono)
        sign, c = ("−" if c < 0 else "+"), abs(c)
        term = str(c) if not body else body if c == 1 else f"{c}·{body}"
        out += (f" {sign} " if out else ("−" if sign == "−" else "")) + term
    return out
