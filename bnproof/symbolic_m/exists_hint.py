"""Existential claims proved for every m through their hints (docs/claims.md,
"Existential variables" and "Proofs for every m").

"For every x meeting the hypotheses there are p with R(x, p) = 0 (≥ 0)" holds for
every m when, for one of the claim's hints h (a function of x), the universal claim
R(x, h(x)) = 0 (≥ 0) is proved for every m and h(x) — with every other step of the
substituted program — is DEFINED wherever the hypotheses hold: h is then the witness
at every instance.  So the claim is traced with p replaced by h(x) (`substituted`: an
ordinary universal Claim whose code calls the claim's residual at the hint's values),
proved by the every-m prover, and its certificate is the ordinary proof certificate of
that program with the claim object marked "exists" (the existential variables, the
hint's index, and the definedness obligations, which the checker proves again:
checker/exists_hint.py).  A vector residual of an identity is proved as Σ r∘r = 0
(every entry 0, for real entries).  The second reading compares the substituted
program with the claim's own code — its residual read at the hint's values — at
generic instances, as for every proof (crosscheck.gate on the substituted claim)."""

from __future__ import annotations

import time
from dataclasses import replace

from ..claims.api import Claim
from .attempts import NOT_PROVED, OUTSIDE, PROVED, Attempt

PROVED_TEXT = "proved for every m (witness: the claim's hint)"


def _vector(reason: str) -> bool:
    """The tracer's reasons for a residual that is a vector (trace.py, the namespace)."""
    return "a residual that is not one scalar" in reason or "a residual on every entry" in reason


class HintShape(ValueError):
    """A hint that returns other names than the existential variables'."""


def _values(claim: Claim, hint, xp, universal: dict) -> dict:
    names = [v.name for v in claim.exists]
    got = hint(xp, **universal)
    if not isinstance(got, dict):
        if len(names) != 1:
            raise HintShape(f"a hint of {len(names)} existential variables returns a dict by name")
        got = {names[0]: got}
    if sorted(got) != sorted(names):
        raise HintShape(f"the hint returns {sorted(got)}, not the existential variables {sorted(names)}")
    return got


def _residual_of(claim: Claim, hint, squared: bool):
    def residual(xp, **universal):
        r = claim.residual(xp, **universal, **_values(claim, hint, xp, universal))
        return xp.sum(r * r) if squared else r  # every entry 0 exactly when their squares' sum is
    return residual


def _with_hint(claim: Claim, hint, function):
    return lambda xp, **universal: function(xp, **universal, **_values(claim, hint, xp, universal))


def substituted(claim: Claim, k: int, squared: bool = False) -> Claim:
    """The universal claim R(x, h_k(x)) (an identity's vector residual: Σ R∘R, `squared`):
    same id, texts, kind, variables and sizes."""
    hint = claim.hints[k]
    return replace(claim, exists=(), hints=(), residual=_residual_of(claim, hint, squared),
                   hypotheses=tuple(_with_hint(claim, hint, h) for h in claim.hypotheses),
                   equalities=tuple(_with_hint(claim, hint, e) for e in claim.equalities),
                   quantities={}, symbols={}, exact_sizes=None)


def claim_object(claim: Claim, k: int, program: dict, equalities: int = 0) -> dict:
    """The proof certificate's claim object, marked as an existential claim proved through
    hint k, with the program's definedness obligations (the checker's own list)."""
    from ..certificate.program import claim_object as plain
    from ..checker.exists_hint import obligations
    from ..checker.symbolic_program import read_inputs, read_steps

    body = plain(claim, equalities)
    types: list = []
    ops = read_steps(program["steps"], read_inputs(program["inputs"]), types, "program.steps")
    body["exists"] = {"variables": [{"name": v.name, "shape": list(v.shape), "domain": v.domain}
                                    for v in claim.exists],
                      "hint": k, "defined": obligations(ops, types)}
    return body


def reads_existential(claim: Claim, fixed: dict, k: int | None = None) -> str | None:
    """fuzz's own rules (claims/exists.trace, at the smallest sizes): hypotheses and
    equalities read the universal variables only, and hint k gives each existential
    variable a value of its declared shape.  Substituted, a hypothesis that reads p would
    read the hint, which then chooses the instances it is proved on (a⁴p² > 0 at p = 1/a
    says a ≠ 0, and "∀a ∃p: p·a = 1" is false at a = 0); a hint of another shape is no
    witness (p = y for a scalar p makes "y_b = p for every b" hold).  The reason, or None."""
    from ..claims.exists import trace

    sizes = {**{name: lo for name, (lo, _) in claim.sizes.items()}, **fixed}
    probe = replace(claim, equalities=(), hypotheses=tuple(claim.hypotheses) + tuple(claim.equalities))
    try:
        traced = trace(probe, sizes)
    except ValueError as err:
        if "depends on an existential variable" in str(err):
            return ("a hypothesis or an equality depends on an existential variable; they may only "
                    "depend on the universal variables")
        return (f"the claim cannot be traced at fixed sizes to check that its hypotheses read only the "
                f"universal variables ({err})")
    except Exception as err:  # noqa: BLE001 - fuzz could not read this claim either: nothing is checked
        return (f"the claim cannot be traced at fixed sizes to check that its hypotheses read only the "
                f"universal variables ({type(err).__name__}: {err})")
    if k is not None and (k >= len(traced.hints) or traced.hints[k] is None):
        note = next((n for n in traced.hint_notes if n.startswith(f"hint {k + 1} ")), "")
        return (f"hint {k} does not trace at {sizes} (a value of another shape than its variable's, "
                f"or an error): {note.split('could not be traced: ', 1)[-1]}")
    return None


def attempt(claim: Claim, k: int, fixed: dict, universal_attempt, certify: bool = True) -> Attempt:
    """The every-m prover (`universal_attempt`, prove.attempt: passed in, since prove.py
    dispatches here) on the claim with hint k substituted, then the certificate."""
    why = reads_existential(claim, fixed, k)
    if why is not None:
        return Attempt(OUTSIDE, f"not in the provable fragment: {why}", fixed)
    made = universal_attempt(substituted(claim, k), fixed, certify=False)
    if made.status == OUTSIDE and _vector(made.reason) and claim.kind == "identity":
        made = universal_attempt(substituted(claim, k, squared=True), fixed, certify=False)
    if not made.proved:
        return made
    made.reason = PROVED_TEXT + made.reason[len("proved for every m"):]
    if certify:
        from ..certificate import proof as certificate
        from ..certificate.io import CheckerRefused

        body = claim_object(claim, k, made.program, len(made.program.get("equalities", ())))
        try:
            made.document = certificate.build(body, made.program, made.proof, made.witness, fixed)
        except CheckerRefused as err:
            said = str(err)
            if "claim.exists.defined" in said:  # the hint (or a step at its values) may be undefined
                said = ("the hint is not shown defined wherever the hypotheses hold (a division by a "
                        "value not shown ≠ 0, or a root of one not shown ≥ 0; add the hypothesis that "
                        "makes it so): " + said[said.index("claim.exists.defined"):])
            return Attempt(NOT_PROVED, f"not proved: {said}", fixed, made.program, made.proof, made.witness,
                           normal_form=made.normal_form, normal_form_latex=made.normal_form_latex)
    return made


def prove_exists(claim: Claim, universal_attempt, plan, certify: bool = True, deadline: float | None = None,
                 on_attempt=None) -> list[Attempt]:
    """prove_claim for an existential claim: each hint in turn, at each fixed size of
    plan(claim); the first hint proved at every size is the witness.  Without hints, or
    where none is proved, the attempts of the last hint tried (or one saying why).
    prove.py passes its `attempt` and `plan`, so that this module does not import it back."""
    if not claim.hints:
        out = [Attempt(OUTSIDE, "not in the provable fragment: existential variables without a hint "
                                "(hints=: the witness as functions of the universal variables)", {})]
        if on_attempt is not None:
            on_attempt(out[0])
        return out
    last: list = []
    for k in range(len(claim.hints)):
        tried: list = []
        for fixed in plan(claim):
            if deadline is not None and time.monotonic() > deadline:
                break
            try:
                made = attempt(claim, k, fixed, universal_attempt, certify)
            except HintShape as err:
                made = Attempt(NOT_PROVED, f"not proved: hint {k}: {err}", fixed)
            tried.append(made)
            if not made.proved:
                break
        if tried and all(a.proved for a in tried):
            last = tried
            break
        last = tried
        if len(claim.hints) > 1 and last and not last[-1].proved:
            last[-1].reason = f"{last[-1].reason} (hint {k})"
    for a in last:
        if on_attempt is not None:
            on_attempt(a)
    return last


def bind_difference(claim, doc: dict, where: str, second_reading) -> str | None:
    """The first difference between an accepted hint-proof certificate and the claim of
    its id (`bnproof check --claim`): the claim must be existential with that hint, its
    claim object the marked one, the program the one the substituted claim traces to,
    and the claim's own code (its residual at the hint's values) must compute it."""
    from ..claims.sizes import sizes_difference
    from .trace import batch_name, program_for

    mark = doc["claim"].get("exists")
    if not claim.exists:
        return f"{claim.id} in {where} has no existential variables, but the certificate proves it through a hint"
    k = mark.get("hint") if isinstance(mark, dict) else None
    if type(k) is not int or not 0 <= k < len(claim.hints):
        return f"{claim.id} in {where} has no hint {k} (it has {len(claim.hints)})"
    why = sizes_difference(claim, doc["fixed"], "the proof is at")
    if why is None and batch_name(claim) is not None:
        why = sizes_difference(claim, {batch_name(claim): doc["witness"]["m"]}, "the proof's witness is at")
    if why is not None:
        return why
    why = reads_existential(claim, doc["fixed"], k)
    if why is not None:
        return f"{claim.id} in {where}: {why}"
    sub = substituted(claim, k)
    try:
        try:
            traced = program_for(sub, doc["fixed"])
        except Exception as err:  # noqa: BLE001 - a vector residual of an identity: Σ R∘R
            if not _vector(str(err)) or claim.kind != "identity":
                raise
            sub = substituted(claim, k, squared=True)
            traced = program_for(sub, doc["fixed"])
    except Exception as err:  # noqa: BLE001 - outside the fragment, or the user's code raised
        return f"{claim.id} in {where} with hint {k} has no symbolic-length program at {doc['fixed']}: {err}"
    if claim_object(claim, k, traced, len(traced.get("equalities", ()))) != doc["claim"]:
        return f"the claim object differs from that of {claim.id} in {where} with hint {k}"
    if traced != doc["program"]:
        return f"the program is not the one {where} gives for {claim.id} with hint {k} substituted"
    from .crosscheck import gate

    return second_reading(lambda: gate(sub, doc["fixed"], doc["program"]))


__all__ = ["PROVED", "PROVED_TEXT", "attempt", "bind_difference", "prove_exists", "substituted"]
