"""Batched random and gradient-based search in JAX: thousands of instances
per call (jit + vmap), candidates ranked by their numeric residual."""

from __future__ import annotations

import numpy as np

from ..claims.api import Claim
from .space import enforce


class BatchedResidual:
    """The claim's residual and hypotheses at one size, vmapped and jitted."""

    def __init__(self, claim: Claim, sizes: dict):
        import jax
        import jax.numpy as jnp

        from ..claims.xp import numeric
        from ..numeric.sharding import sharded

        xp = numeric()
        self.claim, self.sizes = claim, sizes

        def one(values):
            r = jnp.reshape(claim.residual(xp, **values), ())
            hs = [jnp.min(jnp.atleast_1d(h(xp, **values))) for h in claim.hypotheses]
            return r, (jnp.stack(hs) if hs else jnp.ones(1))

        def objective(values):  # what gradient search pushes down
            r, _ = one(values)
            return r if claim.kind == "inequality" else -jnp.abs(r)

        # One jitted call per batch, the batch split over every JAX device
        # (plain jax.jit when there is one device).
        self.evaluate = sharded(jax.vmap(one))
        self.gradient = sharded(jax.vmap(jax.grad(objective)))

    def scores(self, batch: dict) -> np.ndarray:
        """Lower is more violating; +inf where a hypothesis fails or nothing is finite."""
        r, h = (np.asarray(a) for a in self.evaluate(batch))
        score = r if self.claim.kind == "inequality" else -np.abs(r)
        ok = np.all(h > 1e-9, axis=1) & np.isfinite(score)
        return np.where(ok, score, np.inf)

    def descend(self, batch: dict, steps: int = 40, rate: float = 0.05) -> dict:
        """Normalized gradient steps on the residual, keeping every domain."""
        variables = {v.name: v for v in self.claim.variables}
        for _ in range(steps):
            grads = self.gradient(batch)
            norm = np.sqrt(sum(np.sum(np.asarray(g).reshape(len(g), -1) ** 2, axis=1)
                               for g in grads.values())) + 1e-12
            batch = {k: enforce(variables[k], np.nan_to_num(
                np.asarray(batch[k]) - rate * np.asarray(grads[k])
                / norm.reshape((-1,) + (1,) * (np.ndim(batch[k]) - 1)))) for k in batch}
        return batch


def candidates(scores: np.ndarray, batch: dict, k: int, threshold: float) -> list[dict]:
    """Up to k single instances whose score is below the threshold, best first."""
    order = np.argsort(scores, kind="stable")
    picked = [i for i in order[:k] if scores[i] < threshold]
    return [{name: np.asarray(arr)[i] for name, arr in batch.items()} for i in picked]
