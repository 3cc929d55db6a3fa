"""The Lemma 4.5 figure: contours of C and Ĉ side by side, W0, W*, the BN optimum
ray, the closest BN optimum Ŵ*, the arrow ∇Ĉ(W*) and the two distances.

Points, the ray and every label come from the exact analysis (rounded only to
be drawn); only the contour surfaces are sampled in floats, from the closed
forms C(w) = s‖Xw − y‖² and Ĉ(w) = s(γ²m + ‖y − β1‖² − 2γ⟨c, w⟩/σ(w)).
For d > 2 the picture is the plane through W* spanned by the BN direction b
and W0 − W*; the ray and Ŵ* are projected onto it, and the title says so.
matplotlib runs headless: a Figure with the Agg canvas, never pyplot.
"""

from __future__ import annotations

import io
from fractions import Fraction
from dataclasses import dataclass

import numpy as np

from ..claims import lemma45
from ..exact.linalg import rows_of, to_fraction
from .latex import decimal

GRID = 240


@dataclass(frozen=True)
class Plane:
    """w = origin + α·u + β·v with orthonormal u, v (the identity chart for d = 2)."""

    origin: np.ndarray
    u: np.ndarray
    v: np.ndarray
    exact: bool  # True when d = 2: nothing is projected

    def coords(self, w) -> np.ndarray:
        diff = np.asarray(w, float) - self.origin
        return np.array([diff @ self.u, diff @ self.v])

    def point(self, a, b) -> np.ndarray:
        return self.origin + np.multiply.outer(a, self.u) + np.multiply.outer(b, self.v)


def _floats(mat) -> np.ndarray:
    return np.array([float(to_fraction(x)) for x in mat.entries()])


def plane_for(n: lemma45.NeuronReport) -> Plane:
    d = n.neuron.d
    if d == 2:
        return Plane(np.zeros(2), np.array([1.0, 0.0]), np.array([0.0, 1.0]), True)
    w_star, w0 = _floats(n.standard.w), _floats(n.w0)
    b = _floats(n.bn.direction) if not n.bn.constant else w0 - w_star
    u = b / np.linalg.norm(b)
    rest = (w0 - w_star) - ((w0 - w_star) @ u) * u
    if np.linalg.norm(rest) < 1e-12 * max(1.0, np.linalg.norm(w0)):
        # W0 − W* is along b: any direction orthogonal to b completes the plane
        rest = np.eye(d)[np.argmin(np.abs(u))] - u[np.argmin(np.abs(u))] * u
    return Plane(w_star, u, rest / np.linalg.norm(rest), False)


def _surfaces(n: lemma45.NeuronReport, plane: Plane, window):
    nr = n.neuron
    X, y = _array(nr.X), _floats(nr.y)
    Xc, yc = _array(nr.Xc), _floats(nr.yc)
    s, gamma, beta = (float(to_fraction(v)) for v in (nr.scale, nr.gamma, nr.beta))
    (x0, x1), (y0, y1) = window
    a, b = np.meshgrid(np.linspace(x0, x1, GRID), np.linspace(y0, y1, GRID))
    W = plane.point(a, b)  # GRID×GRID×d
    C = s * (((W @ X.T) - y) ** 2).sum(axis=-1)
    sigma = np.sqrt(((W @ Xc.T) ** 2).sum(axis=-1) / nr.m)
    const = gamma**2 * nr.m + ((y - beta) ** 2).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        Chat = s * (const - 2 * gamma * (W @ (Xc.T @ yc)) / sigma)
    Chat = np.where(sigma > 1e-9 * max(1.0, np.abs(W).max()), Chat, np.nan)  # σ = 0: undefined
    return a, b, C, Chat


def _array(mat) -> np.ndarray:
    return np.array([[float(to_fraction(x)) for x in row] for row in rows_of(mat)])


def _window(points) -> tuple:
    pts = np.array(points)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = max(float((hi - lo).max()), 1.0)
    centre = (lo + hi) / 2
    half = 0.5 * span * 1.45
    return (centre[0] - half, centre[0] + half), (centre[1] - half, centre[1] + half)


def _levels(Z, floor: float, spread: str, count: int = 16) -> np.ndarray:
    """Levels above the exact minimum.  C is quadratic: quadratic spacing gives even
    steps in distance from W*.  Ĉ varies only with the direction of w and is nearly
    flat around its optimum ray: quantiles of the sampled values show its shape."""
    values = Z[np.isfinite(Z)]
    top = float(values.max())
    if not top > floor:
        return np.array([floor + 1.0])
    if spread == "quantile":
        levels = np.quantile(values, np.linspace(0, 1, count + 1)[1:] ** 1.3)
    else:
        levels = floor + (top - floor) * np.linspace(0, 1, count + 1)[1:] ** 2
    levels = np.unique(levels[levels > floor])
    return levels if len(levels) else np.array([top])


def _exact_float(value) -> float:
    return float(value) if hasattr(value, "to_floats") else float(to_fraction(value))


def figure_bytes(report: lemma45.Report, fmt: str, neuron: int = 0) -> bytes:
    import matplotlib

    # typographic minus signs (U+2212) whatever the user's matplotlibrc says; tick labels
    # are formatted when the figure is drawn, so saving happens inside the context too
    with matplotlib.rc_context({"axes.unicode_minus": True}):
        fig = figure(report, neuron)
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, metadata={"Software": "bnproof"} if fmt == "png" else None)
    return buffer.getvalue()


def minus(text: str) -> str:
    """A number's hyphen-minus as the typographic minus sign."""
    return text.replace("-", "\u2212")


def figure(report: lemma45.Report, neuron: int = 0):
    """The matplotlib Figure (Agg canvas, not drawn yet)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import BoundaryNorm
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    n = report.neurons[neuron]
    plane = plane_for(n)
    w0, w_star = plane.coords(_floats(n.w0)), plane.coords(_floats(n.standard.w))
    closest = None if n.closest.point is None else plane.coords(_floats(n.closest.point))
    # not attained (⟨W0, b⟩ ≤ 0): the LHS is the distance to the point the ray approaches
    approached = None if n.closest.approached is None else plane.coords(_floats(n.closest.approached))
    ray_dir = None if n.bn.constant else plane.coords(_floats(n.bn.direction)) - plane.coords(
        np.zeros(n.neuron.d))
    ray_start = plane.coords(np.zeros(n.neuron.d))
    points = [w0, w_star, ray_start] + [p for p in (closest, approached) if p is not None]
    window = _window(points)
    tip = _arrow_tip(n, plane, window)
    if tip is not None:  # keep the whole arrow in view
        window = _window(points + [w_star + tip])
    a, b, C, Chat = _surfaces(n, plane, window)

    fig = Figure(figsize=(12.5, 6.4), dpi=110)
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, 2)
    panels = [(axes[0], C, _exact_float(n.standard.loss), "quadratic",
               r"$\mathcal{C}(w)$, standard network", "Blues_r", r"loss $\mathcal{C}(w)$"),
              (axes[1], Chat, _exact_float(n.bn.minimum), "quantile",
               r"$\widehat{\mathcal{C}}(w)$, BN network", "Oranges_r",
               r"BN loss $\widehat{\mathcal{C}}(w)$")]
    handles = {}
    for ax, Z, floor, spread, title, cmap, quantity in panels:
        levels = _levels(Z, floor, spread)
        bounds = np.concatenate([[floor], levels])
        # one colour per band, however unevenly the levels are spaced
        norm = BoundaryNorm(bounds, ncolors=256, extend="max")
        filled = ax.contourf(a, b, Z, levels=bounds, cmap=cmap, norm=norm, extend="max",
                             alpha=0.85)
        ax.contour(a, b, Z, levels=levels, colors="k", linewidths=0.35, alpha=0.5)
        # "%.5g" alone would print a hyphen for a negative level
        bar = fig.colorbar(filled, ax=ax, shrink=0.85,
                           format=FuncFormatter(lambda x, _: minus(f"{x:.5g}")))
        bar.set_ticks(filled.levels[::2])
        bar.set_label(quantity, fontsize=12)
        handles.update(_draw_points(ax, n, plane, w0, w_star, closest, ray_start, ray_dir, window, approached))
        ax.set_title(title, fontsize=13)
        ax.set_xlim(window[0])
        ax.set_ylim(window[1])
        ax.set_aspect("equal")
        names = ("$w_1$", "$w_2$") if plane.exact else (r"$\alpha$ (along $b$)",
                                                         r"$\beta$ (towards $W_0$)")
        ax.set_xlabel(names[0], fontsize=12)
        ax.set_ylabel(names[1], fontsize=12)
    _gradient_arrow(axes[1], n, w_star, _arrow_tip(n, plane, window), handles)
    fig.suptitle(_title(report, n), fontsize=13)
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=3, fontsize=10.5,
               frameon=False)
    top = 0.84 if n.neuron.d == 2 else 0.80  # room for the title's slice line
    fig.subplots_adjust(left=0.06, right=0.97, top=top, bottom=0.23, wspace=0.18)
    return fig


def _draw_points(ax, n, plane, w0, w_star, closest, ray_start, ray_dir, window, approached=None) -> dict:
    handles = {}
    if ray_dir is not None:
        reach = 4 * max(window[0][1] - window[0][0], window[1][1] - window[1][0])
        unit = ray_dir / np.linalg.norm(ray_dir)
        end = ray_start + reach * unit
        label = "BN optima: the ray $\\{t\\,b : t > 0\\}$" + ("" if plane.exact else " (projected)")
        (h,) = ax.plot([ray_start[0], end[0]], [ray_start[1], end[1]], color="#7b2d8e", lw=2.6,
                       label=label)
        ax.plot(*ray_start, marker="o", mfc="white", mec="#7b2d8e", ms=7)  # open: t > 0
        handles[label] = h
    lhs, rhs = n.lhs, n.rhs
    if closest is not None:
        label = rf"$\|W_0-\widehat{{W}}^*\|^2 {_q(lhs)}$ (LHS)"
        (h,) = ax.plot([w0[0], closest[0]], [w0[1], closest[1]], color="#d62728", lw=2.2, ls="--")
        handles[label] = h
    elif approached is not None:
        label = rf"$\inf\,\|W_0-\widehat{{W}}\|^2 {_q(lhs)}$ over the BN optima (LHS; not attained)"
        (h,) = ax.plot([w0[0], approached[0]], [w0[1], approached[1]], color="#d62728", lw=2.2, ls="--")
        handles[label] = h
    if rhs is not None:
        diff = n.w0 - n.standard.w
        dist2 = sum(to_fraction(x) ** 2 for x in diff.entries())
        label = rf"$\|W_0-W^*\|^2 {_q(dist2)}$; RHS ${_q(rhs)}$"
        (h,) = ax.plot([w0[0], w_star[0]], [w0[1], w_star[1]], color="#1f77b4", lw=2.2, ls=":")
        handles[label] = h
    same = bool(np.allclose(w0, w_star))
    _label(ax, w_star, "$W^* = W_0$" if same else "$W^*$", (10, 8))
    if not same:
        _label(ax, w0, "$W_0$", _away(w0, w_star))
    if closest is not None:
        _label(ax, closest, r"$\widehat{W}^*$", _away(closest, w_star))
    (h,) = ax.plot(*w_star, marker="*", ms=17, color="gold", mec="k", ls="none", zorder=3,
                   gid="W*")
    handles[rf"$W^* {_vec(n.standard.w)}$"] = h
    # where W0 = W*, a ring wider than the star, drawn above it, keeps W0 visible
    (h,) = ax.plot(*w0, marker="o", ms=24 if same else 12, mfc="none", mec="k", mew=2,
                   ls="none", zorder=4, gid="W0")
    handles[rf"$W_0 {_vec(n.w0)}$" + (r" $= W^*$" if same else "")] = h
    if closest is not None:
        (h,) = ax.plot(*closest, marker="D", ms=9, color="#d62728", mec="k", ls="none")
        handles[rf"$\widehat{{W}}^* {_vec(n.closest.point)}$"] = h
    elif approached is not None:  # open, as the ray's own end: approached, never reached
        (h,) = ax.plot(*approached, marker="D", ms=9, mfc="white", mec="#d62728", mew=2, ls="none",
                       zorder=4, gid="approached")
        where = _vec(n.closest.approached).removeprefix("= ")
        handles[rf"$\widehat{{W}}^*$ not attained: approached as $t \to 0$, at ${where}$"] = h
    return handles


def _away(point, other) -> tuple:
    """A label offset (points) on the side of ``point`` away from ``other``."""
    d = np.asarray(point, float) - np.asarray(other, float)
    if not np.any(d):
        return (10, -16)
    d = d / np.linalg.norm(d)
    return (18 * d[0] - (34 if d[0] < 0 else -4), 18 * d[1] - (14 if d[1] < 0 else 0))


def _label(ax, xy, text, offset) -> None:
    ax.annotate(text, xy=tuple(xy), xytext=offset, textcoords="offset points", fontsize=13,
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.8))


def _arrow_tip(n, plane, window) -> np.ndarray | None:
    """∇Ĉ(W*) in the plane, scaled to a fixed share of the window: its direction is the point."""
    grad = np.array(n.grad_bn_at_w_star.to_floats())
    g = np.array([grad @ plane.u, grad @ plane.v])
    if not np.any(g):
        return None
    return g / np.linalg.norm(g) * 0.28 * (window[0][1] - window[0][0])


def _gradient_arrow(ax, n, w_star, tip, handles) -> None:
    from matplotlib.lines import Line2D

    if tip is None:
        return
    ax.annotate("", xy=(w_star[0] + tip[0], w_star[1] + tip[1]), xytext=tuple(w_star),
                arrowprops=dict(arrowstyle="-|>", color="k", lw=2.2, mutation_scale=22))
    values = ", ".join(decimal(x, 3) for x in n.grad_bn_at_w_star.entries()[:5])
    more = ", \\ldots" if n.neuron.d > 5 else ""
    label = rf"$\nabla\widehat{{\mathcal{{C}}}}(W^*) \approx ({values}{more})$ (direction)"
    handles[label] = Line2D([], [], color="k", lw=2.2, marker=">", markevery=[1])


def _q(value) -> str:
    """'= p/q' (with ≈ decimal when not an integer), or '≈ decimal' when too long."""
    f = value if isinstance(value, Fraction) else to_fraction(value)
    if f.denominator == 1 and len(str(f)) <= 14:
        return f"= {f}"
    if len(str(f)) <= 14:
        return rf"= {f.numerator}/{f.denominator} \approx {float(f):.4g}"
    return rf"\approx {float(f):.5g}"


def _vec(v) -> str:
    entries = [to_fraction(x) for x in v.entries()]
    if len(entries) > 3 or any(len(str(x)) > 9 for x in entries):
        shown = ", ".join(f"{float(x):.3g}" for x in entries[:3]) + (", \\ldots" if len(entries) > 3 else "")
        return rf"\approx ({shown})"
    return "= (" + ", ".join(str(x) for x in entries) + ")"


def _title(report: lemma45.Report, n) -> str:
    inst = report.instance
    verdict = {lemma45.REFUTED: "REFUTED", lemma45.HOLDS: "holds here",
               lemma45.HYPOTHESIS_NOT_MET: "hypothesis not met"}[n.verdict]
    rel = {lemma45.REFUTED: ">", lemma45.HOLDS: r"\leq"}.get(n.verdict, ",")
    rhs = r"\mathrm{undefined}" if n.rhs is None else _q(n.rhs)
    head = "Lemma 4.5 on " + inst.name[:60].replace("$", r"\$")  # no mathtext from a file name
    if inst.n > 1:
        head += f", neuron {n.index + 1} of {inst.n}"
    # not attained: the LHS is an infimum over the BN optima, with no Ŵ* to name
    distance = r"\|W_0-\widehat{W}^*\|^2" if n.closest.point is not None else r"\inf\,\|W_0-\widehat{W}\|^2"
    line = (rf"LHS ${distance} {_q(n.lhs)}$ {'$' + rel + '$' if rel != ',' else ','} "
            rf"RHS ${rhs}$: {verdict}")
    if n.neuron.d > 2:
        line += (f"\n2-D slice of $\\mathbb{{R}}^{{{n.neuron.d}}}$ through $W^*$ spanned by the BN "
                 "direction $b$ and $W_0 - W^*$" + (f" ({_projected(n)} projected onto it)" if _projected(n) else ""))
    return f"{head}\n{line}"


def _projected(n) -> str:
    """What the slice shows projected: what is drawn, never a Ŵ* that is not attained."""
    drawn = [] if n.bn.constant else ["ray"]
    if n.closest.point is not None:
        drawn.append(r"$\widehat{W}^*$")
    elif n.closest.approached is not None:
        drawn.append(r"the point it approaches as $t \to 0$")  # Ŵ* is not attained: the legend says so
    return " and ".join(drawn)
