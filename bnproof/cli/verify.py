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
    claim: str = typer.Argument(..., help="The claim to verify: lemma-4.5."),
    data: Optional[Path] = typer.Option(
        None, "--data", help='Instance as JSON: {"X": [[...]], "y": [...] or "Y": [[...]], '
        '"W0": [...], "gamma", "beta"}. Numbers: integers, "p/q" or decimals, read exactly. '
        "Default: Example 3.2 of Dannemann & Junike (2025)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the report."),
    out: Optional[Path] = typer.Option(
        None, "--out", help="Where to write the certificate "
        "(default: certificates/<claim>.json, or certificates/<claim>-<data stem>.json)."),
    crosscheck: bool = typer.Option(True, "--crosscheck/--no-crosscheck",
                                    help="Cross-check every exact derivative with JAX autodiff."),
) -> None:
    """Decide a claim on an instance exactly, cross-check it and write a certificate.

    Every number is derived by the exact engine (rationals and square roots, never
    floats), every derivative is compared with JAX autodiff, and the certificate is
    re-verified by the independent checker before the verdict is printed."""
    from .._api.verify import canonical, instance_of, run

    claim = canonical(claim)
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
    from ..claims import lemma45

    report = result.report
    for n in report.neurons:
        if n.verdict == lemma45.HYPOTHESIS_NOT_MET:
            where = f" for neuron {n.index + 1}" if instance.n > 1 else ""
            typer.echo(f"note: hypothesis not met{where}: ⟨W0, W*⟩ = {n.inner} ≤ 0, so Lemma 4.5 "
                       "says nothing about this instance", err=True)
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
