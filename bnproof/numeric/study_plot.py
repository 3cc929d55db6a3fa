"""The violation-rate figure of `bnproof study`: rate against m, one line per d,
95% Wilson intervals as error bars.  matplotlib headless (a Figure with the Agg
canvas, never pyplot), written atomically."""

from __future__ import annotations

import io
from pathlib import Path


def figure_bytes(cells, fmt: str = "png") -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for d in sorted({c.d for c in cells}):
        row = [c for c in cells if c.d == d and c.rate is not None]
        if not row:
            continue
        ms = [c.m for c in row]
        rates = [c.rate for c in row]
        lo = [c.rate - c.interval[0] for c in row]
        hi = [c.interval[1] - c.rate for c in row]
        ax.errorbar(ms, rates, yerr=[lo, hi], marker="o", capsize=3, label=f"d = {d}")
    ax.set_xscale("log")
    ms = sorted({c.m for c in cells})
    ax.set_xticks(ms, [str(m) for m in ms])  # the sizes studied, not powers of ten
    ax.minorticks_off()
    ax.set_xlabel("batch size m")
    ax.set_ylabel("fraction failing (given ⟨W0, W*⟩ > 0)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Lemma 4.5 on Gaussian instances: sampled rate, 95% Wilson CI", fontsize=10)
    ax.grid(alpha=0.3)
    if ax.lines:
        ax.legend()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, metadata={"Software": None} if fmt == "png" else None)
    return buffer.getvalue()


def write(path: str | Path, cells) -> Path:
    from ..atomic import write_bytes_atomic

    fmt = "pdf" if str(path).lower().endswith(".pdf") else "png"
    return write_bytes_atomic(path, figure_bytes(cells, fmt))
