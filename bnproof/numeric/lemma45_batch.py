"""Lemma 4.5's residual in closed form for a batch of one-neuron instances.

Per instance (X m×d, y, W0, γ): W* = (XᵀX)⁻¹Xᵀy; the BN optima are the set
{t·sign(γ)·b + v : t > 0, v ∈ ker Xc}, b = Xc⁺yc the centred least-squares
direction (bnproof/exact/optima.py derives this); so, with P the projector
onto the row space of Xc,

    LHS = ‖P W0‖² − max(⟨P W0, sign(γ) b⟩, 0)²/‖b‖²,
    RHS = ‖W0 − W*‖² − (‖W*‖² − ⟨W*, W0⟩)²/‖W*‖²,   residual = RHS − LHS.

The lemma fails where ⟨W0, W*⟩ > 0 and residual < 0.  Written once against
an array namespace (numpy or jax.numpy), batched on the leading axis.  Both
linear algebra problems go into ONE batched LAPACK call (a solve, or an
eigh when Xc has a kernel): two LAPACK calls in one jitted function
deadlocked JAX's CPU thread pool (STYLE.md).  Ranks are
structural, not thresholds: rank X = d (needs m ≥ d) and rank Xc = min(m−1, d)
for data in general position, e.g. Gaussian.
"""

from __future__ import annotations

import numpy as np


def degenerate_reason(m: int, d: int) -> str | None:
    if m < 2:
        return "m < 2: σ = 0, BN is undefined"
    if m < d:
        return f"m < d: XᵀX is singular (rank {m} < {d}), so W* is not a point"
    return None


def residuals(xp, X, y, W0, gamma):
    """Per instance: residual, lhs, rhs, inner = ⟨W0, W*⟩ and scale = ‖W0‖² + ‖W*‖²."""
    n, m, d = X.shape
    rank_c = min(m - 1, d)
    x_bar, y_bar = xp.mean(X, axis=1), xp.mean(y, axis=1)
    Xc, yc = X - x_bar[:, None, :], y - y_bar[:, None]
    # batched matmul, not einsum: numpy's einsum without optimize=True loops in C
    # element by element, 6× slower than the BLAS call behind Xᵀ @ X
    Xct = xp.swapaxes(Xc, 1, 2)
    Gc, c = Xct @ Xc, (Xct @ yc[..., None])[..., 0]
    # Xᵀy directly, not as Xcᵀyc + m·x̄ȳ: on integer data it is then exact, and an
    # exactly zero Xᵀy gives W* = 0 exactly (a non-finite residual, as it must be)
    r = (xp.swapaxes(X, 1, 2) @ y[..., None])[..., 0]
    sign = xp.sign(gamma)[:, None]
    if rank_c == d:  # no kernel: P = I, and one batched solve (5× faster than eigh)
        w_star, b = _solved(xp, m, Gc, c, r, x_bar)
        b, pw0 = b * sign, W0
    else:
        # XᵀX = XcᵀXc + m·x̄x̄ᵀ (Σ xc = 0): a sum of positive semidefinite terms, so
        # nothing cancels, and no second Gram matrix
        G = Gc + m * x_bar[:, :, None] * x_bar[:, None, :]
        w_star, b, pw0 = _with_kernel(xp, G, Gc, r, c, W0, rank_c)
        b = b * sign

    n2 = xp.sum(w_star**2, axis=1)
    inner = xp.sum(W0 * w_star, axis=1)
    rhs = xp.sum((W0 - w_star) ** 2, axis=1) - (n2 - inner) ** 2 / n2
    t = xp.maximum(xp.sum(pw0 * b, axis=1), 0.0)
    lhs = xp.sum(pw0**2, axis=1) - t**2 / xp.sum(b**2, axis=1)
    return {"residual": rhs - lhs, "lhs": lhs, "rhs": rhs, "inner": inner,
            "scale": xp.sum(W0**2, axis=1) + n2}


def _solved(xp, m, Gc, c, r, x_bar):
    """W* and b from ONE factorization of XcᵀXc, with three right-hand sides.

    b = Gc⁻¹c.  W* solves XᵀX W* = Xᵀy = r with XᵀX = Gc + m·x̄x̄ᵀ, a rank-one
    update of Gc, so by Sherman–Morrison, with u = Gc⁻¹x̄ and v = Gc⁻¹r,
        W* = v − u · m⟨x̄, v⟩ / (1 + m⟨x̄, u⟩),
    whose denominator is ≥ 1 (Gc is positive definite).  Half the LAPACK work of
    solving both systems, which is what kept XLA on CPU behind numpy."""
    sol = xp.linalg.solve(Gc, xp.stack([c, x_bar, r], axis=-1))
    b, u, v = sol[..., 0], sol[..., 1], sol[..., 2]
    scale = m * xp.sum(x_bar * v, axis=1) / (1 + m * xp.sum(x_bar * u, axis=1))
    return v - u * scale[:, None], b


def _with_kernel(xp, G, Gc, r, c, W0, rank_c):
    """ker Xc ≠ 0 (m ≤ d): b and P·W0 from the rank_c largest eigenpairs of XcᵀXc."""
    n, d = W0.shape
    lam, U = xp.linalg.eigh(xp.concatenate([G, Gc]))  # ascending eigenvalues
    lam_g, U_g, lam_c, U_c = lam[:n], U[:n], lam[n:], U[n:]

    def apply(Um, coef):  # Σ_i coef_i u_i
        return (Um @ coef[..., None])[..., 0]

    def along(Um, v):  # (u_iᵀ v)_i
        return (xp.swapaxes(Um, 1, 2) @ v[..., None])[..., 0]

    w_star = apply(U_g, along(U_g, r) / lam_g)
    top = xp.arange(d) >= d - rank_c  # the rank_c largest eigenvalues span the row space
    safe = xp.where(top, lam_c, 1.0)
    b = apply(U_c, xp.where(top, along(U_c, c) / safe, 0.0))
    pw0 = apply(U_c, xp.where(top, along(U_c, W0), 0.0))
    return w_star, b, pw0


def numpy_residuals(X, y, W0, gamma):
    with np.errstate(divide="ignore", invalid="ignore"):  # W* = 0 or c = 0: NaN, as in JAX
        return residuals(np, np.asarray(X), np.asarray(y), np.asarray(W0), np.asarray(gamma))


def jax_kernel(devices=None):
    """The residuals as one jitted call with the batch sharded over all devices."""
    import jax

    from .jax_setup import configure

    configure(jax)
    import jax.numpy as jnp

    from .sharding import sharded

    return sharded(lambda X, y, W0, gamma: residuals(jnp, X, y, W0, gamma), devices)
