"""The violation-rate figure of `bnproof study`: rate against m, one line per d,
95% Wilson intervals as error bars.  matplotlib headless (a Figure with the Agg
canvas, never pyplot), written atomically.

For a paper: 150 dpi; m on a categorical axis (the sizes studied, evenly
spaced); a cell that was not run (m < d), is degenerate or had no instance
meeting the hypothesis is marked, not left out silently; the caption gives the
trial count and the seed."""

from __future__ import annotations

import io
from pathlib import Path

DPI = 150


def _missing(cell) -> str | None:
    """Why a cell has no rate: None when it has one."""
    if cell is None:
        return "not run"
    if cell.degenerate:
        return "degenerate"
    if cell.rate is None:
        return "no instance met the hypothesis"
    return None


def caption(cells, seed: int | None) -> str:
    counts = sorted({c.trials for c in cells})
    trials = (f"{counts[0]:,} trials per cell" if len(counts) == 1
              else "trials per cell: " + ", ".join(f"{t:,}" for t in counts))
    seeded = "" if seed is None else f", seed {seed}"
    return (f"X (m×d), y, W0 i.i.d. N(0, 1); γ = 1, β = 0; {trials}{seeded}. "
            "× marks a cell without a rate (not run, degenerate, or no instance met the "
            "hypothesis).").replace("-", "\u2212")


def figure(cells, seed: int | None = None):
    """The Figure (not drawn yet)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.6), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ms = sorted({c.m for c in cells})
    at = {m: k for k, m in enumerate(ms)}  # categorical: position k for the k-th size
    by_cell = {(c.m, c.d): c for c in cells}
    ds = sorted({c.d for c in cells})
    for j, d in enumerate(ds):
        shift = (j - (len(ds) - 1) / 2) * 0.06  # error bars of different d side by side
        row = [c for c in cells if c.d == d and _missing(c) is None]
        if row:
            xs = [at[c.m] + shift for c in row]
            rates = [c.rate for c in row]
            lo = [c.rate - c.interval[0] for c in row]
            hi = [c.interval[1] - c.rate for c in row]
            (line, _, _) = ax.errorbar(xs, rates, yerr=[lo, hi], marker="o", capsize=3,
                                       label=f"d = {d}")
            colour = line.get_color()
        else:
            colour = f"C{j}"
        absent = [m for m in ms if _missing(by_cell.get((m, d))) is not None]
        if absent:
            ax.plot([at[m] + shift for m in absent], [0.0] * len(absent), ls="none", marker="x",
                    ms=8, mew=1.8, color=colour, label=None if row else f"d = {d}",
                    gid=f"missing d={d}")
    ax.set_xticks(range(len(ms)), [str(m) for m in ms])
    ax.set_xlim(-0.5, len(ms) - 0.5)
    ax.minorticks_off()
    ax.set_xlabel("batch size m")
    ax.set_ylabel("fraction failing (given ⟨W0, W*⟩ > 0)")
    ax.set_ylim(-0.04, 1.04)
    ax.set_title("Lemma 4.5 on Gaussian instances: sampled rate, 95% Wilson CI", fontsize=10)
    ax.grid(alpha=0.3)
    if ax.lines:
        ax.legend()
    fig.text(0.5, 0.015, caption(cells, seed), ha="center", va="bottom", fontsize=8, wrap=True)
    fig.subplots_adjust(bottom=0.24)
    return fig


def figure_bytes(cells, fmt: str = "png", seed: int | None = None) -> bytes:
    import matplotlib

    with matplotlib.rc_context({"axes.unicode_minus": True}):
        fig = figure(cells, seed)
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, dpi=DPI,
                    metadata={"Software": None} if fmt == "png" else None)
    return buffer.getvalue()


def write(path: str | Path, cells, seed: int | None = None) -> Path:
    from ..atomic import write_bytes_atomic

    fmt = "pdf" if str(path).lower().endswith(".pdf") else "png"
    return write_bytes_atomic(path, figure_bytes(cells, fmt, seed))
