"""BN building blocks for claims, written once against an ``xp`` namespace
(bnproof.claims.xp), so they run exactly, symbolically and in JAX alike.

Notation of Santurkar et al. (2018), Section 4.1 and Appendix C: y ∈ R^m is
one unit's pre-BN activations over a batch, ŷ = (y − μ)/σ (biased σ, no ε),
z = γŷ + β; g = ∂L/∂z and H = ∂²L/∂z² describe an arbitrary loss at z.
"""

from __future__ import annotations

import itertools

from ..program.trace import refuse


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


def activate(xp, x, activation: str, slope=None):
    """slope: the leaky-ReLU's α in max(u, αu), a rational (xp.q(1, 10)); 1/100 if None."""
    if activation == "identity":
        return x
    if activation == "abs":
        return xp.abs(x)
    if activation not in ACTIVATIONS:
        raise refuse(ValueError(f"activation must be one of {ACTIVATIONS}"))
    if activation == "leaky_relu" and slope is not None:
        return xp.maximum(x, x * slope)
    return getattr(xp, activation)(x)


def bn_columns(xp, Z, gamma, beta):
    """BN of every unit (column) of a batch Z (m × n), biased σ, no ε."""
    mu = xp.mean(Z, axis=0)
    sigma = xp.sqrt(xp.mean((Z - mu) ** 2, axis=0))
    return (Z - mu) / sigma * gamma + beta


def mlp(xp, X, layers, activation: str = "relu", *, slope=None, batch=None):
    """A multi-layer network with BN after every hidden linear layer:
    layers = [(W, γ, β), ..., W_last] (zero biases, train-mode BN, as in the papers'
    setting), or Layer objects (biases, test-mode statistics).  With `batch`, BN's
    statistics are those of the batch (propagated through the earlier layers) and X
    is normalized with them: evaluation at points that are not in the batch.
    Piecewise-linear activations stay exact (max/abs); tanh is decided by rigorous
    balls (an exactly-zero value through it stays undecided)."""
    H, B = X, batch
    for layer in layers[:-1]:
        layer = as_layer(layer)
        U = pre_activation(xp, layer, H)
        UB = U if B is None else pre_activation(xp, layer, B)
        mu, var = layer.statistics(xp, UB)
        H = activate(xp, bn_apply(xp, U, mu, var, layer.gamma, layer.beta), activation, slope)
        if B is not None:
            B = activate(xp, bn_apply(xp, UB, mu, var, layer.gamma, layer.beta), activation, slope)
    return pre_activation(xp, as_layer(layers[-1]), H)


class Layer:
    """A linear layer W x + b, then BN with γ, β (none if gamma is None): train mode
    (the statistics of the batch it sees) unless mu and var are given (test mode)."""

    def __init__(self, W, b=None, gamma=None, beta=None, mu=None, var=None):
        if (mu is None) != (var is None):
            raise refuse(ValueError("test-mode BN needs both mu and var"))
        self.W, self.b, self.gamma, self.beta, self.mu, self.var = W, b, gamma, beta, mu, var

    def statistics(self, xp, U):
        return (self.mu, self.var) if self.mu is not None else bn_stats(xp, U)


def as_layer(layer) -> Layer:
    if isinstance(layer, Layer):
        return layer
    if isinstance(layer, tuple):
        W, gamma, beta = layer
        return Layer(W, gamma=gamma, beta=beta)
    return Layer(layer)


def pre_activation(xp, layer: Layer, H):
    U = H @ layer.W.T
    return U if layer.b is None else U + layer.b


def bn_stats(xp, U):
    """μ and σ² (biased) of every unit (column) of a batch U (m × n)."""
    mu = xp.mean(U, axis=0)
    return mu, xp.mean((U - mu) ** 2, axis=0)


def bn_apply(xp, U, mu, var, gamma, beta):
    """γ (U − μ)/√σ² + β with the given statistics (test mode; train mode with the
    batch's own); gamma None: no BN."""
    if gamma is None:
        return U
    return (U - mu) / xp.sqrt(var) * gamma + beta


SLOPES = {"relu": (1, 0), "abs": (1, -1), "identity": (1, 1)}


def regions(xp, layers, activation: str = "relu", *, slope=None, batch=None):
    """The network as an affine map region by region (test-mode BN: each layer is
    affine, then a piecewise-linear activation): for every activation pattern, the
    rows ⟨a, x⟩ ≤ b that define its region, and the output (M, t), output = M x + t.
    `batch` fixes train-mode statistics as in mlp."""
    fold = None  # the sign that picks the branch, as a multiple of z (None: z itself)
    if activation == "leaky_relu":
        on_off = (1, slope if slope is not None else xp.q(1, 100))
        # max(z, αz) is z where (1 − α)z ≥ 0, else αz: for α > 1 the branches swap sides
        fold = xp.q(1) - on_off[1]
    elif activation in SLOPES:
        on_off = SLOPES[activation]
    else:
        raise refuse(ValueError(f"regions need a piecewise-linear activation, not {activation!r}"))
    layers = [as_layer(layer) for layer in layers]
    d = layers[0].W.shape[1]
    pieces = [([], [[1 if i == j else 0 for j in range(d)] for i in range(d)], [0] * d)]
    B = batch
    for layer in layers[:-1]:
        UB = None if B is None else pre_activation(xp, layer, B)
        mu, var = layer.statistics(xp, UB) if layer.mu is not None or UB is not None else (None, None)
        if mu is None and layer.gamma is not None:  # without BN no statistics are used
            raise refuse(ValueError("regions need test-mode statistics (mu, var) or a batch"))
        if B is not None:
            B = activate(xp, bn_apply(xp, UB, mu, var, layer.gamma, layer.beta), activation, slope)
        pieces = [grown for piece in pieces for grown in _split(xp, layer, mu, var, piece, on_off, fold)]
    last = layers[-1]
    return [(rows, *_affine(xp, last.W, last.b, M, t)) for rows, M, t in pieces]


def _affine(xp, W, b, M, t):
    """(W M, W t + b) for the affine map x ↦ M x + t followed by W, b."""
    n, d = W.shape[0], len(M[0])
    WM = [[sum((W[i, k] * M[k][j] for k in range(len(M))), xp.q(0)) for j in range(d)] for i in range(n)]
    Wt = [sum((W[i, k] * t[k] for k in range(len(t))), xp.q(0)) + (0 if b is None else b[i])
          for i in range(n)]
    return WM, Wt


def _split(xp, layer, mu, var, piece, on_off, fold=None):
    rows, M, t = piece
    U_M, U_t = _affine(xp, layer.W, layer.b, M, t)
    n = len(U_M)
    if layer.gamma is not None:  # BN with fixed statistics is affine: scale and shift
        scale = [layer.gamma[j] / xp.sqrt(var[j]) for j in range(n)]
        U_M = [[x * scale[j] for x in U_M[j]] for j in range(n)]
        U_t = [(U_t[j] - mu[j]) * scale[j] + layer.beta[j] for j in range(n)]
    for pattern in itertools.product((0, 1), repeat=n):  # 0: on (z ≥ 0), 1: off (z ≤ 0)
        new_rows, new_M, new_t = list(rows), [], []
        for j, off in enumerate(pattern):
            sign = 1 if off else -1  # on: −z ≤ 0; off: z ≤ 0 (z scaled by fold, if any)
            a, c = (U_M[j], U_t[j]) if fold is None else ([x * fold for x in U_M[j]], U_t[j] * fold)
            new_rows.append(([sign * x for x in a], -sign * c))
            k = on_off[off]
            new_M.append([x * k for x in U_M[j]])
            new_t.append(U_t[j] * k)
        yield new_rows, new_M, new_t


def level_set(xp, layers, level, activation: str = "relu", *, unit: int = 0, slope=None,
              batch=None) -> list:
    """The decision boundary {x : f(x)_unit = level} (the preimage of a hyperplane
    under the earlier layers, a "folded" hyperplane), as a union of polyhedra, one
    per activation pattern: bnproof.claims.sets measures distances to it."""
    out = []
    for rows, M, t in regions(xp, layers, activation, slope=slope, batch=batch):
        w, c = M[unit], level - t[unit]
        out.append(rows + [(w, c), ([-x for x in w], -c)])
    return out
