"""`bnproof verify`: decide Lemma 4.5 on an instance exactly and write a certificate."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .application import EPILOG, app
# The command's work lives in run_verify, which imports no typer (bnproof verify runs
# without typer, see fast.py); tests reach _status from here.
from .run_verify import _status, run  # noqa: F401


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
        '{"claim", "statement", "instance", "verdict", "residual", "certificate", ...}; exact values are '
        'strings, their approximations (keys ending in _float) numbers, or where no float holds one (beyond '
        '±1.8e308, or below the normal range) a string in scientific form from the exact value ("3e+320").'),
    out: Optional[Path] = typer.Option(
        None, "--out", help="Where to write the certificate (default: bnproof-out/<claim>.json, or "
        "bnproof-out/<claim>-<data stem>.json with --data; for a claim other than lemma-4.5, written only "
        "for a refutation)."),
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
    raise typer.Exit(run(claim, data, as_json, out, crosscheck))
