"""Lemma 4.5 of Santurkar et al. on each BN layer of a network, numerically.

For BN layer l, with every other layer fixed at W0's values:
  * W*: a local minimum of the standard network's loss in W_l (layer l
    without its BN, the rest unchanged), reached from W0 by L-BFGS;
  * Ŵ: a local minimum of the BN network's loss, reached from W0.  Its
    scale orbit {diag(t)·Ŵ + V : t > 0, rows of V in ker Hc} (Hc the
    centred input of the layer) consists of optima too: BN is invariant to
    a positive scale per unit and blind to directions that are constant
    over the batch.  The closest BN optimum is the nearest point of that
    set, per neuron: ‖P w0‖² − max(⟨P w0, P ŵ⟩, 0)²/‖P ŵ‖², P the projector
    onto the row space of Hc.  Other optima may exist; only this set is known;
  * the residual as printed, per neuron (Remark 3.1 of Dannemann & Junike):
    RHS − LHS with RHS = ‖w0 − w*‖² − (‖w*‖² − ⟨w*, w0⟩)²/‖w*‖² and
    LHS = ‖w0 − ŵ*‖², when ⟨w0, w*⟩ > 0;
  * ‖∇_W Ĉ(k·W*)‖ with k = ⟨w*, w0⟩/‖w*‖² per neuron: the proof assumes
    k·W* is a BN optimum, so this should be 0 (≤ tol) for the proof to apply.
Everything here is sampled floating-point evidence, never a proof.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np

from ..errors import BadInput, DegenerateInstance
from . import network as net
from .lbfgs import make_minimizer

HOLDS, FAILS, UNDECIDED, NO_HYPOTHESIS = "holds", "fails", "undecided", "hypothesis-not-met"


@dataclass(frozen=True)
class Fit:
    value: float
    grad_norm: float
    steps: int
    converged: bool
    reason: str

    def to_json(self) -> dict:
        return {"loss": self.value, "grad_norm": self.grad_norm, "steps": self.steps,
                "converged": self.converged, "reason": self.reason}


@dataclass
class LayerReport:
    layer: int  # from 1
    shape: tuple[int, int]  # (out, in)
    standard: Fit
    bn: Fit
    grad_norm_at_kw: float  # ‖∇_W Ĉ(k·W*)‖ over the neurons that meet the hypothesis
    kernel_dim: int  # dim ker Hc
    residual: np.ndarray  # per neuron; NaN where ⟨w0, w*⟩ ≤ 0
    lhs: np.ndarray
    rhs: np.ndarray
    margin: np.ndarray  # |residual| below this is within floating-point error
    tol: float
    w_star: np.ndarray = field(repr=False, default=None)  # W* and Ŵ as found (not in JSON)
    w_hat: np.ndarray = field(repr=False, default=None)
    verdict: str = field(init=False)

    def __post_init__(self):
        met = np.isfinite(self.residual)
        if not met.any():
            self.verdict = NO_HYPOTHESIS
        elif (self.residual[met] < -self.margin[met]).any():
            self.verdict = FAILS if self.standard.converged and self.bn.converged else UNDECIDED
        elif (self.residual[met] < self.margin[met]).any() or not (
                self.standard.converged and self.bn.converged):
            self.verdict = UNDECIDED
        else:
            self.verdict = HOLDS

    @property
    def hypothesis_met(self) -> int:
        return int(np.isfinite(self.residual).sum())

    @property
    def violated(self) -> int:
        met = np.isfinite(self.residual)
        return int((self.residual[met] < -self.margin[met]).sum())

    @property
    def worst(self) -> tuple[int, float] | None:
        if not self.hypothesis_met:
            return None
        j = int(np.nanargmin(self.residual))
        return j + 1, float(self.residual[j])

    def to_json(self) -> dict:
        worst = self.worst

        def floats(a):
            return [None if not np.isfinite(x) else float(x) for x in a]

        return {
            "layer": self.layer, "shape": list(self.shape), "verdict": self.verdict,
            "neurons": self.shape[0], "hypothesis_met": self.hypothesis_met,
            "violated": self.violated,
            "worst_neuron": None if worst is None else worst[0],
            "min_residual": None if worst is None else worst[1],
            "grad_norm_bn_at_kW*": self.grad_norm_at_kw, "tol": self.tol,
            "kernel_dim": self.kernel_dim,
            "standard": self.standard.to_json(), "bn": self.bn.to_json(),
            "residual": floats(self.residual), "lhs": floats(self.lhs), "rhs": floats(self.rhs),
        }


def check_targets(spec: net.Spec, Y: np.ndarray) -> None:
    if spec.loss == "xent":
        rows_ok = np.all(Y >= 0) and np.allclose(Y.sum(axis=1), 1.0)
        if not rows_ok:
            raise BadInput("cross-entropy needs class labels (integer y) or rows of probabilities; "
                           "use --loss squared for real-valued targets")


def row_space_projector(H: np.ndarray) -> tuple[np.ndarray, int]:
    """P onto the row space of the centred input Hc, and dim ker Hc (numerical rank
    with the usual threshold eps·max(m, d)·λ_max on the eigenvalues of HcᵀHc)."""
    Hc = H - H.mean(axis=0)
    lam, U = np.linalg.eigh(Hc.T @ Hc)
    keep = lam > np.finfo(H.dtype).eps * max(H.shape) * max(lam.max(), 0.0) * 10
    return U[:, keep] @ U[:, keep].T, int((~keep).sum())


def lemma_terms(W0, W_star, W_hat, P, eps: float):
    """Per-neuron LHS, RHS, residual (NaN where ⟨w0, w*⟩ ≤ 0) and error margin."""
    W0, W_star, W_hat = (np.asarray(a, np.float64) for a in (W0, W_star, W_hat))
    inner = np.sum(W0 * W_star, axis=1)
    n2 = np.sum(W_star**2, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rhs = np.sum((W0 - W_star) ** 2, axis=1) - (n2 - inner) ** 2 / n2
        p0, ph = W0 @ P, W_hat @ P  # P is symmetric
        along = np.maximum(np.sum(p0 * ph, axis=1), 0.0)
        lhs = np.sum(p0**2, axis=1) - along**2 / np.sum(ph**2, axis=1)
    residual = np.where(inner > 0, rhs - lhs, np.nan)
    margin = np.sqrt(eps) * (np.sum(W0**2, axis=1) + n2 + 1.0)
    return lhs, rhs, residual, margin


class LayerScanner:
    """Compiled minimizers and gradients for one layer shape, reused across calls."""

    def __init__(self, params, spec: net.Spec, layer: int, tol: float):
        self.spec, self.layer, self.tol = spec, layer, tol

        def loss(variables, params, H, Y, bn):
            return net.layer_loss(variables, params, spec, layer, H, Y, bn)

        std = lambda v, p, H, Y: loss(v, p, H, Y, False)  # noqa: E731
        bn = lambda v, p, H, Y: loss(v, p, H, Y, True)  # noqa: E731
        self.fit_standard = make_minimizer(std, net.layer_variables(params, spec, layer, False), tol)
        self.fit_bn = make_minimizer(bn, net.layer_variables(params, spec, layer, True), tol)
        self.grad_bn = jax.jit(jax.grad(bn))


_SCANNERS: dict = {}
_KEPT = 16  # scanners (compiled programs) kept per process, the oldest dropped first


def shared_scanner(params, spec: net.Spec, layer: int, tol: float) -> LayerScanner:
    """The LayerScanner for this spec, layer, tolerance and variable shapes, built
    once per process: scanning again (another seed, the same data twice) reuses
    its compiled minimizers instead of tracing and compiling them anew."""
    shapes = tuple((name, tuple(v.shape), str(v.dtype)) for bn in (False, True)
                   for name, v in net.layer_variables(params, spec, layer, bn).items())
    key = (spec, layer, float(tol), shapes)
    scanner = _SCANNERS.pop(key, None) or LayerScanner(params, spec, layer, tol)
    _SCANNERS[key] = scanner  # the most recently used last
    while len(_SCANNERS) > _KEPT:
        del _SCANNERS[next(iter(_SCANNERS))]
    return scanner


def scan_layer(params, spec: net.Spec, layer: int, X, Y, tol: float, max_steps: int,
               tick=None, scanner: LayerScanner | None = None) -> LayerReport:
    scanner = scanner or shared_scanner(params, spec, layer, tol)
    H = net.input_of(params, spec, layer, X)
    args = (params, H, Y)
    W0 = params[layer]["W"]
    z = np.asarray(H @ W0.T)
    if np.any(np.std(z, axis=0) == 0):
        raise DegenerateInstance(f"σ = 0 in BN layer {layer + 1} at W0: a unit is constant over "
                                 "the batch; use more samples or another seed")
    std = scanner.fit_standard(net.layer_variables(params, spec, layer, False), args,
                               max_steps, tick)
    bn = scanner.fit_bn(net.layer_variables(params, spec, layer, True), args, max_steps, tick)
    W_star, W_hat = std.x["W"], bn.x["W"]
    P, kernel_dim = row_space_projector(np.asarray(H, np.float64))
    eps = float(jnp.finfo(spec.jnp_dtype).eps)
    lhs, rhs, residual, margin = lemma_terms(W0, W_star, W_hat, P, eps)
    met = np.isfinite(residual)
    k = np.where(met, np.sum(np.asarray(W0) * np.asarray(W_star), axis=1)
                 / np.sum(np.asarray(W_star) ** 2, axis=1), 1.0)
    variables = {**net.layer_variables(params, spec, layer, True),
                 "W": W_star * jnp.asarray(k, W_star.dtype)[:, None]}
    g = np.asarray(scanner.grad_bn(variables, *args)["W"])
    grad_kw = float(np.linalg.norm(g[met])) if met.any() else float("nan")
    fit = lambda r: Fit(r.value, r.grad_norm, r.steps, r.converged, r.reason)  # noqa: E731
    return LayerReport(layer + 1, tuple(W0.shape), fit(std), fit(bn), grad_kw, kernel_dim,
                       residual, lhs, rhs, margin, tol, np.asarray(W_star), np.asarray(W_hat))


def scan(params, spec: net.Spec, X, Y, tol: float, max_steps: int, tick=None) -> list[LayerReport]:
    check_targets(spec, np.asarray(Y))
    X, Y = jnp.asarray(X, spec.jnp_dtype), jnp.asarray(Y, spec.jnp_dtype)
    return [scan_layer(params, spec, layer, X, Y, tol, max_steps, tick)
            for layer in spec.bn_layers]


def lemma_setting(spec: net.Spec, layer: int) -> str | None:
    """Why layer `layer` (from 0) is not Lemma 4.5's setting, or None when it is: the
    output layer, with BN, no activation after it, a squared loss, γ and β constants
    (the earlier layers, fixed, only make its input)."""
    if layer != spec.depth - 1:
        return "a hidden layer: the loss reaches it through the layers after it"
    if not spec.bn_output:
        return "the output layer has no BN"
    if spec.loss != "squared":
        return "the loss is not squared"
    if spec.affine != "fixed":
        return "γ and β are learned"
    return None


# Decimal places tried, in turn, where the floats' own rationals (2⁻⁵² and finer) would make a
# certificate beyond the checker's limits (a hidden layer's tanh outputs): one common
# denominator keeps the exact engine's numbers short, where nearest rationals would not
PLACES = (None, 6, 3)


def lemma_instance(params, spec: net.Spec, layer: int, X, Y, name: str,
                   places: int | None = None) -> dict:
    """Layer `layer` in Lemma 4.5's setting (lemma_setting) as `verify --data` reads it:
    its input as X, the targets, W0, γ and β, each float written as the exact rational
    it is ("p/q"), so that verify decides the very instance the scan computed on, or
    rounded to `places` decimal places; the loss is the mean over the batch, as the scan's."""
    from fractions import Fraction

    H = np.asarray(net.input_of(params, spec, layer, jnp.asarray(X, spec.jnp_dtype)), np.float64)
    p = params[layer]

    def exact(values) -> list:
        if np.ndim(values):
            return [exact(v) for v in values]
        q = Fraction(float(values))
        return str(q if places is None else Fraction(round(q * 10**places), 10**places))

    Y = np.asarray(jnp.asarray(Y, spec.jnp_dtype), np.float64)  # the targets as the scan's loss saw them
    return {"X": exact(H), "Y": exact(Y), "W0": exact(np.asarray(p["W"], np.float64)),
            "gamma": exact(np.asarray(p["gamma"], np.float64)), "beta": exact(np.asarray(p["beta"], np.float64)),
            "loss": "mean", "name": name}
