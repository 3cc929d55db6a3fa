"""`bnproof verify`: decide Lemma 4.5 on an instance exactly and write a certificate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from .application import EPILOG, app


def _default_certificate_path(claim: str, data: Optional[Path]) -> Path:
    name = claim if data is None else f"{claim}-{data.stem}"
    return Path("certificates") / f"{name}.json"


@app.command(epilog=EPILOG)
def verify(
    claim: str = typer.Argument(..., help="A claim id or alias (see `bnproof list`), or a claim file "
                                          "FILE.py with one claim."),
    data: Optional[Path] = typer.Option(
        None, "--data", help='Instance as JSON, one key per variable of the claim, e.g. for lemma-4.5 '
        '{"X": [[...]], "y": [...] or "Y": [[...]], "W0": [...], "gamma", "beta"}. Numbers: '
        'integers, "p/q" or decimals, read exactly. Default for lemma-4.5: Example 3.2 of '
        "Dannemann & Junike (2025); required for every other claim."),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object (one claim, one instance): "
        '{"claim", "statement", "instance", "verdict", "residual", "certificate", ...}.'),
    out: Optional[Path] = typer.Option(
        None, "--out", help="Where to write the certificate (default for lemma-4.5: "
        "certificates/<claim>.json, or certificates/<claim>-<data stem>.json; for any other claim: "
        "bnproof-out/<claim id>-<data stem>.json, written only for a refutation)."),
    crosscheck: bool = typer.Option(True, "--crosscheck/--no-crosscheck",
                                    help="Cross-check every exact derivative with JAX autodiff."),
) -> None:
    """Decide a claim on an instance exactly, cross-check it and write a certificate.

    Every number is derived by the exact engine (rationals and square roots, never
    floats), every derivative is compared with JAX autodiff, and the certificate is
    re-verified by the independent checker before the verdict is printed.  Any
    claim can be decided on your own instance (--data): the verdict (refuted,
    holds, outside-hypotheses or undecided), the exact residual and, for a
    refutation, a certificate."""
    from .._api.verify import canonical, instance_of, run

    chosen = canonical(claim)
    if not isinstance(chosen, str):
        _verify_claim(chosen, data, out, as_json)
    claim = chosen
    instance = instance_of(data)  # refused before any work if the checker would refuse it
    result = run(claim, instance, crosscheck=crosscheck, status=_status,
                 out=out or _default_certificate_path(claim, data))
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        console = Console(highlight=False, soft_wrap=True)
        for text in result.lines():
            console.print(text)
    import sys

    from ..claims import lemma45
    from ..render import report as render, unicode_math

    report = result.report
    # typeset as in the report, rounded when long (a 1000-sample instance has a 300-digit ⟨W0, W*⟩)
    shown = render.Shown(unicode_math.unicode_ok(sys.stderr), unicode_math.width())
    for n in report.neurons:
        if n.verdict == lemma45.HYPOTHESIS_NOT_MET:
            where = f" for neuron {n.index + 1}" if instance.n > 1 else ""
            value = render.show(n.inner, shown)
            value = value if value.startswith("≈") else f"= {value}"
            note = (f"note: hypothesis not met{where}: ⟨W0, W*⟩ {value} ≤ 0, "
                    "so Lemma 4.5 says nothing about this instance")
            typer.echo(note if shown.unicode else unicode_math.ascii_line(note), err=True)
    raise typer.Exit(result.exit_code)


def _verify_claim(claim, data: Optional[Path], out: Optional[Path], as_json: bool) -> None:
    """Any claim but Lemma 4.5, on the user's --data."""
    from .._api.verify import claim_data
    from .._api.verify_claim import verify_claim

    raw = claim_data(claim, data)
    if out is None:
        from .fuzz import DEFAULT_OUT_DIR

        out = Path(DEFAULT_OUT_DIR) / f"{claim.id}-{data.stem}.json"
    result = verify_claim(claim, raw, out=out)
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        for line in result.lines():
            typer.echo(line)
    raise typer.Exit(result.exit_code)


def _status(text: str):
    """A transient spinner on stderr for large instances, only on a terminal (it
    vanishes when done, so piped output and --json stay clean)."""
    import contextlib
    import sys

    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.console import Console

    return Console(stderr=True).status(text)
