"""`bnproof verify CLAIM --data FILE` for any claim: its exact verdict on the
user's own instance, the exact residual, and for a refutation a certificate the
independent checker has accepted (in memory before anything is written)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..claims.decide import HOLDS, OUTSIDE, REFUTED, UNDECIDED
from ..errors import BadInput, BnproofError, ExitCode

EXIT_CODES = {REFUTED: ExitCode.REFUTED, HOLDS: ExitCode.OK, OUTSIDE: ExitCode.HYPOTHESIS_NOT_MET,
              UNDECIDED: ExitCode.UNDECIDED}


@dataclass(frozen=True)
class ClaimVerifyResult:
    """The verdict of a claim on one instance: "refuted", "holds",
    "outside-hypotheses" or "undecided", with the reason, the exact residual
    (SymPy text; None where it is undefined or not reached) and, for a
    refutation, the certificate's text, accepted by the independent checker, and
    where it was written (None if nowhere)."""

    claim_id: str
    source: str
    statement: str
    instance: dict = field(repr=False)
    verdict: str
    reason: str
    residual: str | None
    residual_float: float | None
    certificate: str | None = field(repr=False)
    certificate_path: Path | None
    certificate_check: str | None
    reading: str = field(default="", repr=False)  # the claim's: how its notation is read

    @property
    def exit_code(self) -> int:
        return int(EXIT_CODES[self.verdict])

    def to_json(self) -> dict:
        """The object `bnproof verify --json` prints (the keys it shares with Lemma 4.5's:
        claim, source, statement, instance, verdict, residual, residual_float, certificate,
        certificate_check)."""
        return {"claim": self.claim_id, "source": self.source, "statement": self.statement,
                "instance": self.instance, "verdict": self.verdict, "reason": self.reason,
                "residual": self.residual, "residual_float": self.residual_float,
                "certificate": None if self.certificate_path is None else str(self.certificate_path),
                "certificate_check": self.certificate_check}

    def lines(self, unicode: bool | None = None, columns: int | None = None) -> list[str]:
        """The report `bnproof verify` prints: the residual typeset (1 − √2, not
        SymPy's 1 - sqrt(2)) and wrapped at its terms to `columns` (default: the
        terminal's width); unicode=False (default: when stdout cannot show it)
        gives the ASCII fallback.  to_json keeps SymPy's text."""
        from ..render import unicode_math

        unicode = unicode_math.unicode_ok() if unicode is None else unicode
        m = unicode_math.math if unicode else str
        from ..claims.naming import reading_lines

        from ..render.statement_text import statement_unicode

        # the statement typeset (‖∇_{yⱼ}ℒ̂‖² ≤ …); its LaTeX source where Unicode cannot be shown
        lines = [f"{self.claim_id} — {self.source}"]
        lines += unicode_math.wrap("statement: ", statement_unicode(self.statement) if unicode else self.statement,
                                   columns)
        lines += reading_lines(self.reading, columns)
        lines.append(f"{self.verdict.upper()}: {self.reason}")
        if self.residual is not None:
            approx = unicode_math.approx_suffix(self.residual, self.residual_float, m)
            lines += unicode_math.wrap("  residual = ", f"{m(self.residual)}{approx}", columns)
        if self.certificate_check is not None:
            where = self.certificate_path or "kept in memory"
            lines.append(f"Certificate: {where} — checked: {self.certificate_check.split(' ', 1)[0]}")
        return lines if unicode else [unicode_math.ascii_line(line) for line in lines]

    def text(self, unicode: bool = True) -> str:
        return "\n".join(self.lines(unicode))

    def __str__(self) -> str:
        return self.text()


def verify_claim(claim, data, out: str | Path | None = None, crosscheck: bool = True) -> ClaimVerifyResult:
    """Decide `claim` (a Claim) exactly on `data` (the parsed JSON object of
    `--data`); write a refutation's certificate to `out` if given.  The verdict stands
    only when the second reading agrees (errors.Disagreement, exit 7, when it reads
    otherwise; undecided when it cannot confirm); crosscheck=False skips its JAX part."""
    from .claim_data import claim_instance, to_strings

    instance = claim_instance(claim, data)  # refused outside the claim's declared sizes
    verdict, reason, text = decided(claim, instance, floats=crosscheck)
    residual, approx = (None, None) if claim.exists or verdict == OUTSIDE else _residual(claim, instance)
    path = check = None
    if text is not None:
        path, check = _written(text, out)
    return ClaimVerifyResult(claim.id, claim.source, claim.statement,
                             {k: to_strings(v) for k, v in instance.items()}, verdict, reason,
                             residual, approx, text, path, check, claim.reading)


def decided(claim, instance: dict, floats: bool = True) -> tuple[str, str, str | None]:
    """(verdict, reason, certificate text or None): where `verify CLAIM --data` and
    `bnproof.verify` decide a claim on one instance (already read exactly and within the
    claim's declared sizes)."""
    if claim.exists:
        return _existential(claim, instance)
    return _universal(claim, instance, floats)


def _sizes(claim, instance: dict) -> dict:
    from ..claims.decide import sizes_of

    return sizes_of(claim, instance)


def _universal(claim, instance: dict, floats: bool) -> tuple[str, str, str | None]:
    from ..certificate.io import CheckerRefused, pretty
    from ..certificate.program import build
    from ..checker import Rejected, check_document
    from ..claims.decide import decide, trace
    from ..claims.second_reading import instance_verdict

    try:
        traced = trace(claim, _sizes(claim, instance))
    except Exception as err:  # noqa: BLE001 - the claim's own code, traced on the user's sizes
        raise _untraceable(err, claim) from None
    decision = decide(claim, instance, traced=traced)
    # the traced program's verdict, read again from the claim's own code without the tracer
    why = instance_verdict(claim, instance, decision, floats=floats)
    if why is not None:
        return UNDECIDED, f"{decision.verdict}, but {why}", None
    if decision.verdict == HOLDS:
        return HOLDS, f"the residual's sign is decided by {decision.residual.how}", None
    if decision.verdict != REFUTED:
        return decision.verdict, decision.detail, None
    try:
        text = pretty(build(claim, instance, traced)) + "\n"
        check_document(json.loads(text))  # the very text to be written, checked again
    except (CheckerRefused, Rejected) as err:
        return UNDECIDED, f"an exact violation, but the checker cannot certify it: {err}", None
    return REFUTED, f"the residual's sign is decided by {decision.residual.how}", text


def _existential(claim, instance: dict) -> tuple[str, str, str | None]:
    from ..claims.exists import NO_WITNESS, WITNESS, decide_inner, trace
    from ..search.exists import _certified, read_witness

    sizes = _sizes(claim, instance)
    try:
        traced = trace(claim, sizes)
    except Exception as err:  # noqa: BLE001 - the claim's own code
        raise _untraceable(err, claim) from None
    inner = decide_inner(claim, traced, instance, sizes)
    if inner.verdict == WITNESS:
        why = read_witness(claim, instance, sizes, inner)
        if why is not None:
            return UNDECIDED, f"a witness of the traced program, but {why}", None
        found = inner.witness if inner.hint is None else f"hint {inner.hint + 1}'s values, irrational here"
        return HOLDS, f"a witness exists: {found}", None
    if inner.verdict == NO_WITNESS:
        found, why = _certified(claim, instance, sizes, traced, inner)
        if found is None:
            return UNDECIDED, f"no witness, but the checker cannot certify it: {why}", None
        return REFUTED, found.established, found.document
    return inner.verdict, inner.detail, None


def _untraceable(err: Exception, claim) -> BadInput:
    """A claim that cannot be traced at the user's sizes: with the claim file's
    file:line where its own code is to blame (as fuzz says it); bad input either
    way, since the sizes are the user's too."""
    from ..claims.blame import claim_error

    blamed = claim_error(err, claim)
    if blamed is not None:
        return blamed
    return BadInput(f"claim {claim.id} cannot be traced at these sizes: {type(err).__name__}: {err}")


def _residual(claim, instance: dict) -> tuple[str | None, float | None]:
    """The residual written out exactly (SymPy) and as a float, as fuzz shows it."""
    from ..search.certify import Refutation, described

    shown = described(claim, Refutation(instance, "", "", ""))
    return shown.residual_text, shown.residual_float


def _written(text: str, out) -> tuple[Path | None, str]:
    """Where the certificate went (None: kept in memory) and the checker's line on it."""
    from ..checker import Rejected, check_document

    if out is None:
        try:
            return None, f"ACCEPTED (in memory): {check_document(json.loads(text))}"
        except Rejected as err:
            raise BnproofError(f"the checker rejected the certificate just built: {err}") from None
    from ..atomic import write_text_atomic
    from ..checker import check_file

    try:
        path = write_text_atomic(out, text)
    except OSError as err:
        raise BadInput(f"cannot write the certificate to {out}: {err.strerror or err}") from None
    accepted, line = check_file(path)
    if not accepted:
        raise BnproofError(f"the checker rejected the certificate just written: {line}")
    return Path(path), line
