"""Decision boundaries of BN–ReLU units: where their hyperplanes cut the batch.

In train mode, unit j of a BN layer outputs z_bj = γ_j ŷ_bj + β_j, and its
ReLU switches on the hyperplane z = 0 in its input space.  ŷ has mean 0 and
is not identically 0, so with β = 0 the hyperplane always passes between
samples of the batch: the unit is active on some sample and inactive on
another.  With β ≠ 0 nothing of the kind holds: |ŷ_b| ≤ √(m − 1), so a
β below −|γ|√(m − 1) switches the unit off on the whole batch ("dead").

Two claims about the second layer of a two-layer BN–ReLU network
(``blocks.mlp``), searched with ``bnproof fuzz docs/examples/decision_boundaries.py``:
CUTS holds (it survives, and is a negative control); NEVER_DEAD is false,
and the fuzzer finds the dead unit, exactly.
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import bn_columns, mlp

VARIABLES = (
    Var("X", ("m", "d")),
    Var("W1", ("n", "d")), Var("gamma1", ("n",), "nonzero"), Var("beta1", ("n",)),
    Var("W2", ("k", "n")), Var("gamma2", ("k",), "nonzero"),
)
SIZES = {"m": (2, 4), "d": (1, 2), "n": (1, 2), "k": (1, 2)}


def _variance(xp, Z):
    return xp.mean((Z - xp.mean(Z, axis=0)) ** 2, axis=0)


def _layers(xp, X, W1, gamma1, beta1, W2):
    """Layer 1's pre-BN activations and layer 2's (a one-layer mlp read out by W2)."""
    Z1 = X @ W1.T
    return Z1, mlp(xp, X, [(W1, gamma1, beta1), W2])


def _nondegenerate(xp, X, W1, gamma1, beta1, W2, gamma2, beta2=None):
    """σ > 0 in every BN unit of both layers (BN is undefined otherwise)."""
    Z1, Z2 = _layers(xp, X, W1, gamma1, beta1, W2)
    return xp.minimum(xp.min(_variance(xp, Z1)), xp.min(_variance(xp, Z2)))


def _second_layer(xp, X, W1, gamma1, beta1, W2, gamma2, beta2):
    _, Z2 = _layers(xp, X, W1, gamma1, beta1, W2)
    return bn_columns(xp, Z2, gamma2, beta2)


def _cut_margin(xp, X, W1, gamma1, beta1, W2, gamma2):
    """min over units of min(max_b z_bj, max_b −z_bj): > 0 iff every unit's
    hyperplane has samples strictly on both sides."""
    Z = _second_layer(xp, X, W1, gamma1, beta1, W2, gamma2, xp.zeros(W2.shape[0]))
    return xp.min(xp.minimum(xp.max(Z, axis=0), xp.max(-Z, axis=0)))


CUTS = Claim(
    id="examples/bn-relu-hyperplanes-cut-the-batch",
    source="bnproof docs, decision-boundary example (β = 0)",
    statement=r"\beta = 0 \implies \forall j\ \exists b, b'\colon z_{bj} > 0 > z_{b'j}",
    title="with β = 0, every BN–ReLU unit's hyperplane passes between samples of its batch",
    variables=VARIABLES,
    sizes=SIZES,
    hypotheses=(_nondegenerate,),
    residual=_cut_margin,
    strict=True,
)


NEVER_DEAD = Claim(
    id="examples/bn-relu-units-never-dead",
    source="bnproof docs, decision-boundary example (a false folk claim)",
    statement=r"\forall j\ \exists b\colon \mathrm{ReLU}(z_{bj}) > 0",
    title="every BN–ReLU unit fires on some sample of its batch",
    variables=VARIABLES + (Var("beta2", ("k",)),),
    sizes=SIZES,
    hypotheses=(_nondegenerate,),
    residual=lambda xp, X, W1, gamma1, beta1, W2, gamma2, beta2: xp.min(xp.max(
        _second_layer(xp, X, W1, gamma1, beta1, W2, gamma2, beta2), axis=0)),
    strict=True,
)


# What `bnproof.fuzz(claim, seed=0, max_examples=60, time_budget=300, jax=False).verdict` says
# (tests/test_gallery.py).  The ids keep their examples/ prefix: docs and tests cite them.
EXPECTED = {
    "examples/bn-relu-hyperplanes-cut-the-batch": "survived",
    "examples/bn-relu-units-never-dead": "refuted",
}
