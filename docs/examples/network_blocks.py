"""Network blocks that match the papers: biases, leaky slope, train/test BN.

``blocks.mlp`` takes ``Layer(W, b, gamma, beta, mu, var)``: a linear layer with a
bias, then BN in train mode (the statistics of the batch), or in test mode (μ, σ²
given); ``batch=`` normalizes points that are not in the batch with the batch's
statistics; ``slope=`` is the leaky-ReLU's α.

* TEST_MODE_IS_TRAIN_MODE (true, exact value 0): test-mode BN with the batch's
  own statistics equals train mode on the batch.
* OUTSIDE_POINT_BOUNDED (false): "a point outside the batch is normalized to
  |ŷ| ≤ √(m − 1)" (true for the batch's own samples, false for a new point).
"""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import Layer, bn_stats, mlp


def _gap(xp, X, W, b, gamma, beta):
    Z = X @ W.T + b
    mu, var = bn_stats(xp, Z)
    head = xp.asarray([[xp.q(1)]])
    train = mlp(xp, X, [Layer(W, b, gamma, beta), head], "leaky_relu", slope=xp.q(1, 10))
    test = mlp(xp, X, [Layer(W, b, gamma, beta, mu, var), head], "leaky_relu", slope=xp.q(1, 10))
    return xp.sum(xp.abs(train - test))


TEST_MODE_IS_TRAIN_MODE = Claim(
    id="gallery/network_blocks/test-mode-with-batch-statistics-is-train-mode",
    source="bnproof gallery",
    statement=r"\mathrm{BN}_{\mu_B, \sigma_B^2}(y) = \mathrm{BN}_{\mathrm{train}}(y)",
    variables=(Var("X", ("m", 1)), Var("W", (1, 1)), Var("b", (1,)), Var("gamma", (1,), "nonzero"),
               Var("beta", (1,))),
    sizes={"m": (2, 3)},
    hypotheses=(lambda xp, X, W, b, gamma, beta: bn_stats(xp, X @ W.T + b)[1][0],),
    residual=_gap,
    kind="identity",
)


def _outside_margin(xp, X, p):
    m = X.shape[0]
    W, one, zero = xp.asarray([[xp.q(1)]]), xp.ones(1), xp.zeros(1)
    yhat = mlp(xp, p, [Layer(W, gamma=one, beta=zero), W], "identity", batch=X)[0, 0]
    return (m - 1) - yhat ** 2  # |ŷ| ≤ √(m − 1)  ⟺  (m − 1) − ŷ² ≥ 0


OUTSIDE_POINT_BOUNDED = Claim(
    id="gallery/network_blocks/outside-point-normalized-within-sqrt-m-1",
    source="bnproof gallery (a false claim)",
    statement=r"|\hat y(p)| \le \sqrt{m - 1}",
    variables=(Var("X", ("m", 1)), Var("p", (1, 1))),
    sizes={"m": (2, 3)},
    hypotheses=(lambda xp, X, p: bn_stats(xp, X)[1][0],),
    residual=_outside_margin,
)

EXPECTED = {
    TEST_MODE_IS_TRAIN_MODE.id: "survived",
    OUTSIDE_POINT_BOUNDED.id: "refuted",
}
