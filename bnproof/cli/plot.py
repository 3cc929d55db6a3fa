"""`bnproof plot`: the Lemma 4.5 figure, C and Ĉ side by side."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import BadInput
from .application import EPILOG, app

FORMATS = {".png": "png", ".pdf": "pdf"}


@app.command(epilog=EPILOG)
def plot(
    claim: str = typer.Argument(..., help="The claim to draw: lemma-4.5."),
    data: Optional[Path] = typer.Option(
        None, "--data", help="Instance as JSON (the format of `verify --data`). "
        "Default: Example 3.2 of Dannemann & Junike (2025)."),
    out: Path = typer.Option(..., "-o", "--out", help="The figure to write: FILE.png or FILE.pdf."),
    neuron: int = typer.Option(1, "--neuron", help="Which neuron to draw, for n > 1 (from 1)."),
) -> None:
    """Draw contours of C and Ĉ side by side with W0, W*, the BN optimum ray, the
    closest BN optimum, ∇Ĉ(W*) and the two distances of the inequality.

    For d > 2 the figure is the 2-D slice through W* spanned by the BN direction
    and W0 − W*, and says so in its title."""
    from ..claims.api import only_lemma

    only_lemma(claim, "`bnproof plot` draws lemma-4.5")
    fmt = FORMATS.get(out.suffix.lower())
    if fmt is None:
        raise BadInput(f"cannot tell the format of {out}: name it FILE.png or FILE.pdf")
    from ..claims import lemma45
    from ..instance import example_3_2, load_instance

    from .._api.files import refuse_special

    if data is not None:
        refuse_special(data)  # a FIFO would block the read for ever
    instance = example_3_2() if data is None else load_instance(data)
    if not 1 <= neuron <= instance.n:
        raise BadInput(f"--neuron {neuron}: the instance has {instance.n} neuron"
                       f"{'s' if instance.n > 1 else ''} (1 to {instance.n})")
    report = lemma45.analyse(instance)
    from ..atomic import write_bytes_atomic
    from ..render.plot import figure_bytes

    try:
        figure = figure_bytes(report, fmt, neuron - 1)
    except OverflowError:  # the exact analysis is done; only its drawing, in floats, cannot be
        raise BadInput("the instance's values are beyond float64's range: the figure, drawn in floats, "
                       "cannot show them (`bnproof verify` decides the instance exactly)") from None
    write_bytes_atomic(out, figure)
    typer.echo(f"wrote {out}", err=True)
