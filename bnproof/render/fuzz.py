"""Reports of `bnproof fuzz` and `bnproof list`, and the certificates fuzz writes."""

from __future__ import annotations

import shutil
import sys
import time
from fractions import Fraction

from ..errors import ExitCode
from ..search import fuzz as search

# The run's exit code is its most serious verdict's.
EXIT_CODES = {search.REFUTED: ExitCode.REFUTED, search.UNDECIDED: ExitCode.UNDECIDED,
              search.VACUOUS: ExitCode.VACUOUS, search.SURVIVED: ExitCode.OK,
              search.VERIFIED: ExitCode.OK}
PRECEDENCE = (search.REFUTED, search.UNDECIDED, search.VACUOUS)


def exit_code(verdicts: list[str]) -> ExitCode:
    for verdict in PRECEDENCE:
        if verdict in verdicts:
            return EXIT_CODES[verdict]
    return ExitCode.OK


class ProgressLine:
    """One transient status line on stderr, only when stderr is a terminal:
    drawn with a carriage return, erased before anything else is printed, so
    that no frame is ever left in front of the next line."""

    FRAMES = "|/-\\"
    EVERY = 0.1  # seconds between redraws

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.shown = False
        self.frame = 0
        self.last = 0.0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.clear()

    def show(self, claim_id: str, coverage, left: float, budget: float) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.last < self.EVERY:
            return
        self.last, self.frame = now, self.frame + 1
        total = coverage.total()
        # the budget first: a narrow terminal cuts the end of the line, never what is left
        text = (f"{self.FRAMES[self.frame % len(self.FRAMES)]} {left:.0f} s of {budget:g} s left; "
                f"{claim_id}: {total.drawn} instances, {total.met} met the hypotheses")
        width = shutil.get_terminal_size((80, 24)).columns - 1
        sys.stderr.write("\r" + text[:width] + "\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False


def write_certificate(claim, refutation, directory="certificates") -> str:
    """Write a refutation's certificate as DIRECTORY/<claim id>.json, atomically.
    Its text was accepted by the checker before the refutation existed
    (search.certify), so a rejected certificate is never written.  The committed
    certificates/ is the directory only when the user asked to record (fuzz
    --record); otherwise it is --out-dir, so a search never replaces a committed
    certificate with another counterexample."""
    from pathlib import Path

    from ..atomic import write_text_atomic

    path = Path(directory) / search.certificate_path(claim).relative_to("certificates")
    try:
        unchanged = path.read_text(encoding="ascii") == refutation.document
    except (OSError, UnicodeDecodeError):
        unchanged = False
    if not unchanged:
        write_text_atomic(path, refutation.document)
    return str(path)


def _exact(value):
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return str(Fraction(value))


def _seconds(value, timings: bool):
    return round(value, 3) if timings and value is not None else None


def to_json(outcome, path: str | None, timings: bool, witness_path: str | None = None) -> dict:
    """One claim's JSON object (`fuzz --json`, FuzzResult.to_json): an existential claim that
    survived with checked witnesses also names its witness certificate (`witness_path`,
    None where it was kept in memory)."""
    total = outcome.coverage.total()
    out = {
        "claim": outcome.claim.id,
        "source": outcome.claim.source,
        "statement": outcome.claim.statement,
        "verdict": outcome.verdict,
        "reason": outcome.reason,
        "instances": total.drawn,
        "met_hypotheses": total.met,
        "defined": total.defined,
        "coverage": outcome.coverage.rows(),
        "seed": outcome.seed,
        "seconds": _seconds(outcome.seconds, timings),
        "seconds_to_first": _seconds(outcome.first_seconds, timings),
        "stopped": outcome.stopped,
        "phases": outcome.phases,
        "exact": outcome.exact_note,
        "undecided_candidates": outcome.undecided_candidates,
        "notes": list(outcome.notes),
        # the proof for every m (symbolic_m/survivor.py): its outcome, or why none was attempted
        "proof": outcome.proof,
    }
    ref = outcome.refutation
    if outcome.verdict == search.REFUTED and ref is not None:
        out.update({
            "counterexample": {v.name: _exact(ref.instance[v.name]) for v in outcome.claim.variables},
            "residual": ref.residual_text,
            "residual_float": ref.residual_float,
            "decided_by": ref.decided_by,
            "certificate": path,
            "certificate_check": f"ACCEPTED {path}: {ref.established}",
        })
    if getattr(outcome, "witnesses", None) and outcome.verdict == search.SURVIVED:
        out["witness_certificate"] = witness_path
        out["witness_certificate_check"] = f"ACCEPTED {witness_path}" if witness_path else "ACCEPTED (in memory)"
    return out


def _show(value) -> str:
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            return "[" + "; ".join(" ".join(str(x) for x in row) for row in value) + "]"
        return "(" + ", ".join(str(x) for x in value) + ")"
    return str(value)


def _count(outcome, timings: bool, more: str = "") -> str:
    """"(seed S, T s, time budget exhausted)"."""
    parts = [f"seed {outcome.seed}"]
    if timings:
        parts.append(f"{outcome.seconds:.1f} s")
    if outcome.stopped == search.BUDGET:
        parts.append("time budget exhausted")
    return f"({', '.join(parts)}{more})"


def to_text(outcome, result: dict, timings: bool, *, unicode: bool | None = None,
            columns: int | None = None) -> list[str]:
    """The report's lines: exact values typeset (1 − √2) when stdout can show
    them (`unicode`, default: ask stdout), else ASCII; a long residual wraps at
    its terms to `columns` (default: the terminal's width)."""
    from . import unicode_math

    unicode = unicode_math.unicode_ok() if unicode is None else unicode
    lines = _text(outcome, result, timings, unicode, columns)
    return lines if unicode else [unicode_math.ascii_line(line) for line in lines]


def _text(outcome, result: dict, timings: bool, unicode: bool, columns: int | None) -> list[str]:
    from ..claims.naming import reading_lines
    from . import unicode_math

    def m(text: str) -> str:
        return unicode_math.math(text) if unicode else text

    claim = outcome.claim
    lines = [f"{claim.id} — {claim.source}"]
    total = outcome.coverage.total()
    if outcome.verdict == search.REFUTED:
        when = f", {outcome.seconds:.1f} s" if timings else ""
        if timings and outcome.first_seconds is not None:
            when = f", found in {outcome.first_seconds:.2f} s, shrunk by {outcome.seconds:.1f} s"
        if outcome.stopped:
            when += f"; shrinking cut short by the {outcome.stopped}"
        where = "" if not claim.variables else f" after {total.drawn} instances (seed {outcome.seed}{when})"
        lines += reading_lines(claim.reading, columns)
        lines.append(f"REFUTED{where}; exact counterexample:")
        from . import laws  # a law as its values and their probabilities, not its two variables

        for name, value, is_law in laws.grouped(claim, result["counterexample"]):
            lines.append(f"  {laws.text(name, value, _show, m)}" if is_law else f"  {name} = {m(_show(value))}")
        relation = ("≤ 0" if claim.strict else "< 0") if claim.kind == "inequality" else "≠ 0"
        approx = unicode_math.approx_suffix(result["residual"], result["residual_float"], m)
        lines += unicode_math.wrap("  residual = ", f"{m(result['residual'])}{approx} {relation}"
                                   f" (decided by {result['decided_by']})", columns)
        lines.append(f"Certificate: {result['certificate']} — checked: ACCEPTED")
        return lines
    if not claim.variables:
        if outcome.verdict == search.VERIFIED:
            lines.append("verified exactly: the claim has no free variables and holds on its instance")
        else:
            lines.append(f"{outcome.verdict}: {outcome.reason}")
        return lines
    met = f"{total.met} met the hypotheses"
    if total.defined != total.met:
        met += f", {total.defined} with the residual defined"
    if outcome.verdict == search.SURVIVED and claim.exists:
        lines.append(f"a witness found for each of the {total.met} instances that met the hypotheses "
                     f"({total.drawn} drawn) " + _count(outcome, timings))
    elif outcome.verdict in (search.SURVIVED, search.VERIFIED):
        lines.append(f"no counterexample in {total.drawn} instances, {met} " + _count(outcome, timings))
    elif outcome.verdict == search.VACUOUS:
        lines.append(f"vacuous: {outcome.reason} ({total.drawn} instances drawn, " + _count(outcome, timings)[1:])
    else:
        lines.append(f"undecided: {outcome.reason} ({total.drawn} instances, {met}, " + _count(outcome, timings)[1:])
    if total.drawn:
        lines.append(outcome.coverage.text())
    if outcome.undecided_candidates:
        lines.append(f"{outcome.undecided_candidates} nominated instances could not be decided exactly")
    if outcome.exact_note:
        lines.append(f"{outcome.exact_note} (a symbolic proof at those sizes, separate from the search)")
    lines.extend(outcome.notes)
    from ..symbolic_m.survivor import report_lines

    lines.extend(report_lines(outcome.proof, outcome.verdict))  # a failed attempt is never silent
    return lines


def record_entry(outcome) -> dict:
    total = outcome.coverage.total()
    entry = {"verdict": outcome.verdict, "instances": total.drawn, "met_hypotheses": total.met,
             "seed": outcome.seed}
    if outcome.exact_note:
        entry["exact"] = outcome.exact_note
    if outcome.reason:
        entry["reason"] = outcome.reason
    if outcome.verdict == search.REFUTED:
        entry["certificate"] = str(search.certificate_path(outcome.claim))
    return entry


def listing(claims) -> list[dict]:
    from ..claims.api import proofs_root
    from .sources import short_source
    from ..search import record

    entries = record.load()
    committed = proofs_root().parent  # the certificates committed beside proofs/
    rows = []
    for claim in claims:
        entry = entries.get(claim.id, {})
        cert = committed / search.certificate_path(claim)
        verdict = entry.get("verdict", "not yet searched")
        if verdict == search.REFUTED and cert.exists():
            text = f"refuted (certificate {search.certificate_path(claim)})"
        elif verdict == search.SURVIVED or (verdict == search.VERIFIED and entry.get("exact")):
            text = f"survived {entry['instances']} instances (seed {entry['seed']})"
        elif verdict == search.VERIFIED:
            text = "verified exactly (no free variables)"
        elif verdict in (search.VACUOUS, search.UNDECIDED) and entry.get("reason"):
            text = f"{verdict}: {entry['reason']}"
        else:
            text = verdict
        if entry.get("exact"):
            text += f"; {entry['exact']}"
        rows.append({
            "id": claim.id, "aliases": list(claim.aliases), "source": claim.source,
            "source_short": short_source(claim.source),
            "title": claim.title, "kind": claim.kind, "verdict": verdict, "verdict_text": text,
            "certificate": str(search.certificate_path(claim)) if cert.exists() else None,
            "file": claim.path,
        })
    return rows
