"""BN building blocks for claims, written once against an ``xp`` namespace
(bnproof.claims.xp), so they run exactly, symbolically and in JAX alike.

Notation of Santurkar et al. (2018), Section 4.1 and Appendix C: y ∈ R^m is
one unit's pre-BN activations over a batch, ŷ = (y − μ)/σ (biased σ, no ε),
z = γŷ + β; g = ∂L/∂z and H = ∂²L/∂z² describe an arbitrary loss at z.
"""

from __future__ import annotations


def stats(xp, y):
    """μ and σ of a batch (divide by m)."""
    mu = xp.mean(y)
    return mu, xp.sqrt(xp.mean((y - mu) ** 2))


def normalize(xp, y):
    """ŷ = (y − μ)/σ, with σ."""
    mu, sigma = stats(xp, y)
    return (y - mu) / sigma, sigma


def batch_norm(xp, y, gamma, beta):
    yhat, _ = normalize(xp, y)
    return gamma * yhat + beta


def backprop(xp, g, yhat, sigma, gamma):
    """Fact C.1: ∂f/∂y = γ/(mσ) (m g − 1⟨1, g⟩ − ŷ⟨g, ŷ⟩), g = ∂f/∂z."""
    m = g.shape[0]
    return gamma / (sigma * m) * (g * m - xp.sum(g) - yhat * xp.sum(g * yhat))


def jacobian(xp, yhat, sigma):
    """Fact C.2: ∂ŷ_b/∂y_k = (1/σ)(1[b = k] − 1/m − ŷ_b ŷ_k/m)."""
    m = yhat.shape[0]
    return (xp.eye(m) - xp.q(1, m) - xp.outer(yhat, yhat) * xp.q(1, m)) / sigma


def hessian_y(xp, g, H, yhat, sigma, gamma):
    """∂²f/∂y² for f with ∂f/∂z = g and ∂²f/∂z² = H (derived in bnproof, checked
    against SymPy and JAX): γ² J H J − γ/(mσ²)·(Πg ŷᵀ + ŷ (Πg)ᵀ + ⟨g, ŷ⟩Π − (3/m)⟨g, ŷ⟩ŷŷᵀ)."""
    m = g.shape[0]
    J = jacobian(xp, yhat, sigma)
    centred = g - xp.mean(g)
    proj = xp.eye(m) - xp.q(1, m)
    gy = xp.sum(g * yhat)
    bend = (xp.outer(centred, yhat) + xp.outer(yhat, centred) + proj * gy
            - xp.outer(yhat, yhat) * gy * xp.q(3, m))
    return (J @ H @ J) * gamma**2 - bend * gamma / (sigma**2 * m)


def norm2(xp, v):
    return xp.sum(v * v)


ACTIVATIONS = ("identity", "relu", "leaky_relu", "abs", "tanh")


def activate(xp, x, activation: str):
    if activation == "identity":
        return x
    if activation == "abs":
        return xp.abs(x)
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}")
    return getattr(xp, activation)(x)


def bn_columns(xp, Z, gamma, beta):
    """BN of every unit (column) of a batch Z (m × n), biased σ, no ε."""
    mu = xp.mean(Z, axis=0)
    sigma = xp.sqrt(xp.mean((Z - mu) ** 2, axis=0))
    return (Z - mu) / sigma * gamma + beta


def mlp(xp, X, layers, activation: str = "relu"):
    """A multi-layer network with BN after every hidden linear layer:
    layers = [(W, γ, β), ..., W_last]; zero biases, as in the papers' setting.
    Piecewise-linear activations stay exact (max/abs); tanh is numeric only."""
    H = X
    for W, gamma, beta in layers[:-1]:
        H = activate(xp, bn_columns(xp, H @ W.T, gamma, beta), activation)
    return H @ layers[-1].T
