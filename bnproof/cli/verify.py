"""`bnproof verify`: decide Lemma 4.5 on an instance exactly and write a certificate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ..errors import BadInput, BnproofError, ExitCode
from .application import EPILOG, app

KNOWN_CLAIMS = {"lemma-4.5": "Santurkar et al. (2018), Lemma 4.5: BN leads to a favourable initialization"}


def _canonical(name: str) -> str:
    """lemma-4.5 under any name `bnproof list` shows for it (its id or an alias)."""
    if name in KNOWN_CLAIMS:
        return name
    from ..claims.api import named

    c = named(name)
    if c is None:
        raise BadInput(f"unknown claim {name!r}; known claims: {', '.join(KNOWN_CLAIMS)}")
    short = next((a for a in (c.id, *c.aliases) if a in KNOWN_CLAIMS), None)
    if short is None:
        raise BadInput(f"{name!r} is {c.id}, which verify cannot evaluate on an instance yet "
                       f"(verify knows {', '.join(KNOWN_CLAIMS)}); `bnproof fuzz {name}` searches it")
    return short


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
    claim = _canonical(claim)
    from ..instance import check_certifiable, example_3_2, load_instance

    instance = example_3_2() if data is None else load_instance(data)
    check_certifiable(instance)  # before any work: the checker's own size limits
    worker = None
    if crosscheck:
        from ..numeric import crosscheck as cc

        # JAX starts in its own process now and works on the second core while
        # the exact engine derives and SymPy renders.
        worker = cc.Worker()
    try:
        from ..claims import lemma45

        with _status(f"deriving the optima exactly (m = {instance.m}, d = {instance.d})"):
            report = lemma45.analyse(instance)
        if worker is not None:
            worker.submit([n.neuron for n in report.neurons], cc.points_for(report))
        from ..render import report as render

        forms = render.forms_for(report)
        numeric = None
        if worker is not None:
            numeric = cc.ensure(worker.result())
            worker = None
    finally:
        if worker is not None:
            worker.cancel()

    from ..certificate import lemma45 as certificate
    from ..certificate.io import write_atomic
    from ..checker import check_file

    with _status("writing the certificate and re-checking it independently"):
        path = write_atomic(out or _default_certificate_path(claim, data), certificate.build(report))
    accepted, line = check_file(path)
    if not accepted:
        raise BnproofError(f"the checker rejected the certificate just written: {line}")
    extras = render.Extras(numeric, str(path), "checked: " + line.split(" ", 1)[0])

    if as_json:
        typer.echo(json.dumps(render.to_json(report, forms, extras), indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        console = Console(highlight=False, soft_wrap=True)
        for text in render.to_text(report, forms, extras):
            console.print(text)
    for n in report.neurons:
        if n.verdict == lemma45.HYPOTHESIS_NOT_MET:
            where = f" for neuron {n.index + 1}" if instance.n > 1 else ""
            typer.echo(f"note: hypothesis not met{where}: ⟨W0, W*⟩ = {n.inner} ≤ 0, so Lemma 4.5 "
                       "says nothing about this instance", err=True)
    raise typer.Exit(_exit_for(report.verdict))


def _status(text: str):
    """A transient spinner on stderr for large instances, only on a terminal (it
    vanishes when done, so piped output and --json stay clean)."""
    import contextlib
    import sys

    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.console import Console

    return Console(stderr=True).status(text)


def _exit_for(verdict: str) -> int:
    from ..claims import lemma45

    return {
        lemma45.REFUTED: ExitCode.REFUTED,
        lemma45.HOLDS: ExitCode.OK,
        lemma45.HYPOTHESIS_NOT_MET: ExitCode.HYPOTHESIS_NOT_MET,
    }[verdict]


