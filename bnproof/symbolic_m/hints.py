"""What a user could change so that a claim not proved for every m is proved: a domain
to declare ("declare c positive") or a hypothesis that is missing ("y is not
constant").  A hint is given only where the prover can tell: the claim with that one
change is attempted in full (normal form or decomposition, exact witness, second
reading) and proved.  A hint is never a verdict about the claim as written; the
changed claim is a different claim, and nothing about it is certified or written."""

from __future__ import annotations

import time
from dataclasses import replace

from .prove import NOT_PROVED, at_fixed, attempt
from .trace import batch_name

MAX_CANDIDATES = 6  # what-if attempts per failed attempt, at most
AFTER = "with it, the proof for every m goes through"


def hint(claim, failed, deadline: float | None = None) -> str | None:
    """The first change, in order, with which the failed attempt's fixed sizes are
    proved; None when none is (or `deadline`, time.monotonic(), passes first)."""
    # without a normal form (too large, undefined everywhere) the changed claim would fail the same way
    if failed.status != NOT_PROVED or not failed.normal_form or claim.exists:
        return None
    try:
        candidates = _candidates(claim)[:MAX_CANDIDATES]
    except Exception:  # noqa: BLE001 - a claim that cannot be changed so gives no hint, and no failure
        return None
    for words, changed in candidates:
        if deadline is not None and time.monotonic() > deadline:
            return None
        try:
            proved = attempt(changed, failed.fixed, certify=False).proved
        except Exception:  # noqa: BLE001 - a changed claim that cannot be attempted gives no hint
            proved = False
        if proved:  # at the failed attempt's fixed sizes: the hint says no more than that
            return f"{words} ({AFTER}{at_fixed([failed.fixed])})"
    return None


def _candidates(claim) -> list[tuple[str, object]]:
    """(words, the claim changed so) for each change worth an attempt: every scalar
    without a sign declared positive, one at a time, then all of them together; then
    each batch vector assumed not constant (its batch variance > 0)."""
    out = []
    unsigned = [v for v in claim.variables if v.shape == () and v.domain in ("real", "nonzero")]
    for var in unsigned:
        out.append((f'declare {var.name} positive: Var("{var.name}", (), "positive")',
                    _with_domains(claim, {var.name})))
    if len(unsigned) > 1:
        names = [v.name for v in unsigned]
        out.append((f"declare {', '.join(names)} positive", _with_domains(claim, set(names))))
    args = ", ".join(["xp", *(v.name for v in claim.variables)])
    for var in claim.variables:
        if tuple(var.shape) == (batch_name(claim),) and var.domain == "real":
            name = var.name
            out.append((f"add the hypothesis that {name} is not constant (its batch variance is > 0), "
                        f"e.g. lambda {args}: xp.mean(({name} - xp.mean({name})) ** 2)",
                        replace(claim, hypotheses=tuple(claim.hypotheses) + (_not_constant(name),))))
    return out


def _with_domains(claim, names: set):
    return replace(claim, variables=tuple(replace(v, domain="positive") if v.name in names else v
                                          for v in claim.variables))


def _not_constant(name: str):
    def not_constant(xp, **values):
        y = values[name]
        return xp.mean((y - xp.mean(y)) ** 2)
    return not_constant
