"""MLPs with batch normalization in plain JAX: a static ``Spec`` and a
pytree of arrays (a tuple of one dict per linear layer).

Layer l maps H ↦ Z = H Wᵀ, then, for a BN layer, Z ↦ γ(Z − μ)/σ + β with the
biased batch variance and no ε (Definition 2.6 of Dannemann & Junike), else
Z ↦ Z + b; every layer but the last applies the activation.  BN layers carry
no bias: BN removes it (μ absorbs it), as in the Lemma's setting.  The
hidden layers always have BN; ``bn_output`` adds it to the output layer
too, which with no hidden layer is exactly the one-layer setting of
Lemma 4.5 (Section 4.1 of Santurkar et al.).

``plain=l`` runs layer l without its BN (no γ, β either): the "standard
network" that Lemma 4.5 compares with, the other layers unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import jax

from .jax_setup import configure

configure(jax)  # float64 available, float32 chosen per array and never rounded to TF32

import jax.numpy as jnp  # noqa: E402

from .forward import batch_norm  # noqa: E402  (the definition, written once)

LEAKY_SLOPE = 0.01
ACTIVATIONS = {
    "identity": lambda z: z,
    "relu": lambda z: jnp.maximum(z, 0),
    "leaky-relu": lambda z: jnp.where(z >= 0, z, LEAKY_SLOPE * z),
    "tanh": jnp.tanh,
}
LOSSES = ("squared", "xent")
AFFINE = ("fixed", "learned")
DTYPES = ("float64", "float32")


@dataclass(frozen=True)
class Spec:
    sizes: tuple[int, ...]  # input width, hidden widths…, output width
    activation: str = "relu"
    loss: str = "squared"
    bn_output: bool = False
    affine: str = "fixed"  # γ, β constants (the Lemma's reading) or learned
    dtype: str = "float64"

    def __post_init__(self):
        # Programming errors, not user input: the CLI validates before building a Spec.
        assert len(self.sizes) >= 2 and all(s >= 1 for s in self.sizes), self.sizes
        assert self.activation in ACTIVATIONS and self.loss in LOSSES
        assert self.affine in AFFINE and self.dtype in DTYPES

    @property
    def depth(self) -> int:
        return len(self.sizes) - 1

    def has_bn(self, layer: int) -> bool:
        return layer < self.depth - 1 or self.bn_output

    @property
    def bn_layers(self) -> list[int]:
        return [layer for layer in range(self.depth) if self.has_bn(layer)]

    @property
    def jnp_dtype(self):
        return jnp.dtype(self.dtype)


def init(key, spec: Spec) -> tuple[dict, ...]:
    """W ~ N(0, 1/fan_in) (scale 2/fan_in for ReLU-like units), γ = 1, β = 0, b = 0."""
    gain = 2.0 if spec.activation in ("relu", "leaky-relu") else 1.0
    params = []
    for layer, key in enumerate(jax.random.split(key, spec.depth)):
        fan_in, fan_out = spec.sizes[layer], spec.sizes[layer + 1]
        W = jax.random.normal(key, (fan_out, fan_in), spec.jnp_dtype) * jnp.sqrt(gain / fan_in)
        p = {"W": W.astype(spec.jnp_dtype)}
        if spec.has_bn(layer):
            p["gamma"] = jnp.ones(fan_out, spec.jnp_dtype)
            p["beta"] = jnp.zeros(fan_out, spec.jnp_dtype)
        else:
            p["b"] = jnp.zeros(fan_out, spec.jnp_dtype)
        params.append(p)
    return tuple(params)


def apply_layer(p: dict, spec: Spec, layer: int, H, plain: bool = False):
    Z = H @ p["W"].T
    if spec.has_bn(layer):
        if not plain:
            Z = batch_norm(Z, p["gamma"], p["beta"])
    else:
        Z = Z + p["b"]
    return Z if layer == spec.depth - 1 else ACTIVATIONS[spec.activation](Z)


def forward_from(params, spec: Spec, start: int, H, plain: int | None = None):
    """The network's output from layer ``start`` on, given that layer's input H."""
    for layer in range(start, spec.depth):
        H = apply_layer(params[layer], spec, layer, H, plain=layer == plain)
    return H


def forward(params, spec: Spec, X, plain: int | None = None):
    return forward_from(params, spec, 0, X, plain)


def input_of(params, spec: Spec, layer: int, X):
    """The input that layer ``layer`` sees: fixed while only that layer's weights move."""
    H = X
    for k in range(layer):
        H = apply_layer(params[k], spec, k, H)
    return H


def loss_of(out, Y, spec: Spec):
    """Mean over samples: squared, Σ_j (out − Y)²; cross-entropy, −Σ_j Y log softmax(out),
    Y one-hot or rows of probabilities."""
    m = out.shape[0]
    if spec.loss == "squared":
        return jnp.sum((out - Y) ** 2) / m
    return -jnp.sum(Y * jax.nn.log_softmax(out, axis=1)) / m


def loss(params, spec: Spec, X, Y, plain: int | None = None):
    return loss_of(forward(params, spec, X, plain), Y, spec)


def layer_variables(params, spec: Spec, layer: int, bn: bool) -> dict:
    """What moves when layer ``layer`` is optimized: W, and γ, β of a BN layer when learned."""
    p = params[layer]
    names = ["W"] + (["gamma", "beta"] if bn and spec.affine == "learned" else [])
    return {name: p[name] for name in names}


def layer_loss(variables: dict, params, spec: Spec, layer: int, H, Y, bn: bool):
    """The loss as a function of one layer's variables, the others fixed; H is that
    layer's input (``input_of``), so earlier layers are not recomputed."""
    params = params[:layer] + ({**params[layer], **variables},) + params[layer + 1:]
    return loss_of(forward_from(params, spec, layer, H, plain=None if bn else layer), Y, spec)
