"""Reports of `bnproof fuzz` and `bnproof list`."""

from __future__ import annotations

import contextlib
from fractions import Fraction

from ..program.evaluate import to_sympy
from ..search import fuzz as search

# Programs longer than this are shown unsimplified (expanding surds grows with the program).
MAX_SIMPLIFY_STEPS = 5000


@contextlib.contextmanager
def progress(enabled: bool):
    """A transient progress line on stderr; yields a tick(n=1) callback."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn

    console = Console(stderr=True)
    with Progress(SpinnerColumn(), TextColumn("searching: {task.completed} instances"),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task("fuzz", total=None)
        yield lambda n=1: bar.advance(task, n)


def _exact(value):
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return str(Fraction(value))


def residual_text(outcome) -> tuple[str, float | None]:
    import sympy

    traced = search.traced_for(outcome.claim, outcome.counterexample)
    from ..claims.decide import lookup

    expr = to_sympy(traced.steps, lookup(outcome.counterexample), traced.residual)
    if len(traced.steps) <= MAX_SIMPLIFY_STEPS:
        # sums of surds: expand, rationalize denominators, collect
        expr = sympy.expand(sympy.radsimp(sympy.expand(expr)))
    return sympy.sstr(expr), float(expr.evalf(30))


def write_certificate(outcome) -> tuple[str, str]:
    from ..certificate.io import write_atomic
    from ..certificate.program import build
    from ..checker import check_file
    from ..errors import BnproofError

    traced = search.traced_for(outcome.claim, outcome.counterexample)
    path = write_atomic(search.certificate_path(outcome.claim),
                        build(outcome.claim, outcome.counterexample, traced))
    accepted, line = check_file(path)
    if not accepted:
        raise BnproofError(f"the checker rejected the certificate just written: {line}")
    return str(path), line


def to_json(outcome, path, cert_line, timings: bool) -> dict:
    out = {
        "claim": outcome.claim.id,
        "source": outcome.claim.source,
        "statement": outcome.claim.statement,
        "verdict": outcome.verdict,
        "instances": outcome.instances,
        "seed": outcome.seed,
        "seconds": round(outcome.seconds, 3) if timings else None,
        "seconds_to_first": (round(outcome.first_seconds, 3)
                             if timings and outcome.first_seconds is not None else None),
        "phases": outcome.phases,
        "exact": outcome.exact_note,
    }
    if outcome.verdict == search.REFUTED:
        text, value = residual_text(outcome)
        out.update({
            "counterexample": {k: _exact(v) for k, v in outcome.counterexample.items()},
            "residual": text,
            "residual_float": value,
            "decided_by": outcome.decision.residual.how if outcome.decision.residual else None,
            "certificate": path,
            "certificate_check": cert_line,
        })
    return out


def _show(value) -> str:
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            return "[" + "; ".join(" ".join(str(x) for x in row) for row in value) + "]"
        return "(" + ", ".join(str(x) for x in value) + ")"
    return str(value)


def to_text(outcome, result: dict, timings: bool) -> list[str]:
    claim = outcome.claim
    lines = [f"{claim.id} — {claim.source}"]
    when = f", {outcome.seconds:.1f} s" if timings else ""
    if outcome.verdict == search.REFUTED:
        if timings and outcome.first_seconds is not None:
            when = f", found in {outcome.first_seconds:.2f} s, shrunk by {outcome.seconds:.1f} s"
        where = "" if not claim.variables else f" after {outcome.instances} instances (seed {outcome.seed}{when})"
        lines.append(f"REFUTED{where}; exact counterexample:")
        for name, value in result["counterexample"].items():
            lines.append(f"  {name} = {_show(value)}")
        relation = ("≤ 0" if claim.strict else "< 0") if claim.kind == "inequality" else "≠ 0"
        lines.append(f"  residual = {result['residual']} ≈ {result['residual_float']:.6g} {relation}"
                     f" (decided by {result['decided_by']})")
        lines.append(f"Certificate: {result['certificate']} — checked: {result['certificate_check'].split()[0]}")
    elif outcome.verdict == search.VERIFIED and not claim.variables:
        lines.append("verified exactly: the claim has no free variables and holds on its instance")
    else:
        lines.append(f"no counterexample in {outcome.instances} instances (seed {outcome.seed}{when})")
        if outcome.exact_note:
            lines.append(f"{outcome.exact_note} (a symbolic proof at those sizes, separate from the search)")
    return lines


def record_entry(outcome) -> dict:
    entry = {"verdict": outcome.verdict, "instances": outcome.instances, "seed": outcome.seed}
    if outcome.exact_note:
        entry["exact"] = outcome.exact_note
    if outcome.verdict == search.REFUTED:
        entry["certificate"] = str(search.certificate_path(outcome.claim))
    return entry


def listing(claims) -> list[dict]:
    from ..search import record

    from ..claims.api import proofs_root

    entries = record.load()
    committed = proofs_root().parent  # the certificates committed beside proofs/
    rows = []
    for claim in claims:
        entry = entries.get(claim.id, {})
        cert = committed / search.certificate_path(claim)
        verdict = entry.get("verdict", "not yet searched")
        if verdict == search.REFUTED and cert.exists():
            text = f"refuted (certificate {search.certificate_path(claim)})"
        elif verdict == search.SURVIVED:
            text = f"survived {entry['instances']} instances (seed {entry['seed']})"
        elif verdict == search.VERIFIED and not entry.get("exact"):
            text = "verified exactly (no free variables)"
        elif verdict == search.VERIFIED:
            text = f"survived {entry['instances']} instances (seed {entry['seed']})"
        else:
            text = verdict
        if entry.get("exact"):
            text += f"; {entry['exact']}"
        rows.append({
            "id": claim.id, "aliases": list(claim.aliases), "source": claim.source,
            "source_short": claim.source.split(",")[0] + ", " + ", ".join(
                p.strip() for p in claim.source.split(",")[2:4]),
            "title": claim.title, "kind": claim.kind, "verdict": verdict, "verdict_text": text,
            "certificate": str(search.certificate_path(claim)) if cert.exists() else None,
            "file": claim.path,
        })
    return rows
