"""What stopped a proof for every m, named so that a user can act on it: the construct
outside the fragment ("relu"), or why a residual in the fragment was not proved ("the
residual's normal form is not 0, in the roots r₁, r₂ that do not cancel").

Read from a failed Attempt (prove.py): its status, its reason and its program.  The
words describe what the prover did not do, never what the claim is: a normal form
that is not 0 does not make the claim false (the zero test is sufficient, never
necessary), so nothing here says "false"."""

from __future__ import annotations

from .prove import NOT_PROVED, OUTSIDE, PROVED

FRAGMENT = "not in the provable fragment: "
NOT = "not proved: "
# the reason's opening (prove.attempt's words) -> the construct, for the failures that are
# not about the normal form itself
PLAIN = (
    ("the residual is ≡ 0, so the strict inequality", "a strict inequality whose residual is identically 0"),
    ("no exact instance at a small m", "no exact instance where the hypotheses hold and the residual is "
                                       "defined (a proof could be vacuous)"),
)


def construct(attempt) -> str | None:
    """The construct that blocked this attempt, or None for a proved one."""
    if attempt.status == PROVED:
        return None
    reason = attempt.reason or ""
    if attempt.status == OUTSIDE:
        what = reason[len(FRAGMENT):] if reason.startswith(FRAGMENT) else reason
        return what[len("uses "):] if what.startswith("uses ") else what
    body = reason[len(NOT):] if reason.startswith(NOT) else reason
    for opening, words in PLAIN:
        if body.startswith(opening):
            return words
    if attempt.status == NOT_PROVED and body.startswith("normal form") and attempt.program is not None:
        inequality = attempt.program.get("kind") == "inequality"
        head = ("no manifestly nonnegative decomposition of the residual's normal form" if inequality
                else "the residual's normal form is not 0")
        return head + _detail(attempt.program, inequality)
    if "defined nowhere" in body:
        return "an operation undefined at every instance: " + body.split(" (the program")[0]
    return body or None


def _detail(program: dict, inequality: bool) -> str:
    """What in the normal form the prover could not handle: the roots it keeps apart (an
    identity), the scalar inputs of odd degree with no declared sign (an inequality:
    every factor of odd degree must be ≥ 0 by its form).  Empty where the normal form
    cannot be read again (a description is never worth a failure)."""
    from . import poly as P
    from .evaluate import Replay
    from .show import atom_name

    try:
        replay = Replay(program)
        alg, value = replay.alg, replay.values[program["residual"]]
        monos = [P.sparse(exps) for p in (value.n, value.d) for exps in p.f.monoms()]
        roots = sorted({v for mono in monos for v, _ in mono if v in alg.roots})
        unsigned = []
        if inequality:
            signs = {name: domain for name, typ, domain in program["inputs"] if typ == "scalar"}
            odd = {v for mono in monos for v, e in mono if e % 2}
            unsigned = [atom_name(alg, v, False) for v in sorted(odd) if alg.atoms[v][0] == "in"
                        and signs.get(alg.atoms[v][1]) not in (None, "positive")]
        parts = []
        if unsigned:
            parts.append(f"{_names(unsigned)} of odd degree, with no declared sign")
        if roots and not inequality:
            parts.append(f"in the root{'s' if len(roots) > 1 else ''} "
                         f"{_names([atom_name(alg, r, False) for r in roots])}, which do not cancel"
                         if len(roots) > 1 else f"in the root {atom_name(alg, roots[0], False)}")
        return (": " + "; ".join(parts)) if parts else ""
    except Exception:  # noqa: BLE001 - the reason already says what was not proved
        return ""


def _names(items: list) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
