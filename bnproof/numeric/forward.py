"""Forward passes of the standard and BN layers in JAX, written from the
definitions (Definition 2.6 of Dannemann & Junike), not from the exact
engine's closed forms, so that autodiff of them can catch a wrong formula."""

from __future__ import annotations

import jax

from .jax_setup import configure

configure(jax)

import jax.numpy as jnp  # noqa: E402


def standard_loss(W, X, Y, scale):
    """C(W) = scale · Σ_b Σ_j (⟨W_j, x_b⟩ − Y_bj)²."""
    Z = X @ W.T
    return scale * jnp.sum((Z - Y) ** 2)


def batch_norm(Z, gamma, beta):
    """γ (Z − μ)/σ + β per column, with the biased batch variance and no ε."""
    mu = jnp.mean(Z, axis=0)
    sigma = jnp.sqrt(jnp.mean((Z - mu) ** 2, axis=0))
    return gamma * (Z - mu) / sigma + beta


def bn_loss(W, X, Y, gamma, beta, scale):
    """Ĉ(W) = scale · Σ_b Σ_j (BN(X Wᵀ)_bj − Y_bj)²."""
    return scale * jnp.sum((batch_norm(X @ W.T, gamma, beta) - Y) ** 2)


@jax.jit
def derivatives(W, X, Y, gamma, beta, scale):
    """Values, gradients and Hessians of C and Ĉ at W, all by autodiff."""
    return {
        "C": standard_loss(W, X, Y, scale),
        "grad_C": jax.grad(standard_loss)(W, X, Y, scale),
        "hess_C": jax.hessian(standard_loss)(W, X, Y, scale),
        "C_hat": bn_loss(W, X, Y, gamma, beta, scale),
        "grad_C_hat": jax.grad(bn_loss)(W, X, Y, gamma, beta, scale),
        "hess_C_hat": jax.hessian(bn_loss)(W, X, Y, gamma, beta, scale),
    }
