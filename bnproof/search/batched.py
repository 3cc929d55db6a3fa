"""Batched random and gradient-based search in JAX: thousands of instances
per call (jit + vmap), candidates ranked by their numeric residual.

Gradient steps first push instances that fail a hypothesis toward meeting it
(up the smallest hypothesis), and only instances inside the hypotheses down
the residual, so claims whose hypotheses hold on thin sets are still searched.

Equality hypotheses (Claim.equalities) hold on sets a random draw never meets:
every batch, and every gradient step, is projected onto them by Gauss-Newton
steps x ← x − J⁺ e(x) (the least move that cancels the equalities to first
order; symmetric variables are not moved, as in search/equalities.py).  This is
floats nominating only: exactify re-solves each rationalized candidate exactly
(search/equalities.py), and the exact engine requires every equality to be 0.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..claims.api import Claim
from .screen import EQUALITY_SLACK, HYPOTHESIS_FLOOR, equality_gap, plausible
from .space import enforce, jittered

PROJECTION_STEPS = 8  # Gauss-Newton steps onto the equality set (one suffices where it is affine)


@dataclass(frozen=True)
class BatchScreen:
    r: np.ndarray  # the residual
    score: np.ndarray  # lower is more violating (the residual, or −|r| for identities)
    hmin: np.ndarray  # the smallest hypothesis value per instance (+1 without hypotheses)
    met: np.ndarray  # every hypothesis > 0, and every equality within EQUALITY_SLACK of 0
    defined: np.ndarray  # met, and the residual is finite

    def rank(self) -> np.ndarray:
        """Instances in the hypotheses by score first, then the others, closest
        to meeting the hypotheses first."""
        secondary = np.where(self.defined, self.score, -np.nan_to_num(self.hmin, nan=-np.inf))
        return np.lexsort((np.nan_to_num(secondary, nan=np.inf), ~self.defined))


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
            # an empty array of hypotheses asks nothing (every entry > 0 holds vacuously)
            hs = [jnp.min(v) for v in (jnp.atleast_1d(h(xp, **values)) for h in claim.hypotheses)
                  if v.size]
            return r, (jnp.stack(hs) if hs else jnp.ones(1))

        def objective(values):  # what gradient search pushes down
            r = one(values)[0]
            return r if claim.kind == "inequality" else -jnp.abs(r)

        def unmet(values):  # pushed down while a hypothesis fails: the smallest one goes up
            return -jnp.min(one(values)[1])

        # One jitted call per batch, the batch split over every JAX device
        # (plain jax.jit when there is one device).
        self.evaluate = sharded(jax.vmap(one))
        self.gradient = sharded(jax.vmap(jax.grad(objective)))
        self.unmet_gradient = sharded(jax.vmap(jax.grad(unmet))) if claim.hypotheses else None
        self.projected = sharded(jax.vmap(_projection(claim, xp))) if claim.equalities else None
        self.gap = sharded(jax.vmap(lambda values: equality_gap(jnp, claim, xp, values))) \
            if claim.equalities else None

    def project(self, batch: dict) -> dict:
        """The batch moved onto the equality set (unchanged without equalities).  An
        instance the projection leaves outside a declared domain, or not finite, is
        kept as it was: off the set, the screen counts it outside the claim."""
        if self.projected is None:
            return batch
        moved = {k: np.asarray(v) for k, v in self.projected(batch).items()}
        n = len(next(iter(moved.values())))
        keep = np.ones(n, dtype=bool)
        for v in self.claim.variables:
            x = moved[v.name].reshape(n, -1)
            keep &= np.isfinite(x).all(axis=1)
            if v.domain == "positive":
                keep &= (x > 0).all(axis=1)
            elif v.domain == "nonzero":
                keep &= (x != 0).all(axis=1)
        return {k: np.where(keep.reshape((-1,) + (1,) * (np.ndim(x) - 1)), x, np.asarray(batch[k]))
                for k, x in moved.items()}

    def screen(self, batch: dict) -> BatchScreen:
        r, h = (np.asarray(a) for a in self.evaluate(batch))
        score = r if self.claim.kind == "inequality" else -np.abs(r)
        hmin = np.min(h, axis=1)
        met = hmin > HYPOTHESIS_FLOOR  # False where NaN
        if self.gap is not None:  # on the equality set, to rounding
            met &= np.asarray(self.gap(batch)) <= EQUALITY_SLACK
        return BatchScreen(r, score, hmin, met, met & np.isfinite(score))

    def scores(self, batch: dict) -> np.ndarray:
        """Lower is more violating; +inf where a hypothesis fails or nothing is finite."""
        s = self.screen(batch)
        return np.where(s.defined, s.score, np.inf)

    def nominated(self, batch: dict, s: BatchScreen) -> np.ndarray:
        """Instances in the hypotheses whose residual looks violated beyond its rounding noise."""
        r = s.r
        with np.errstate(all="ignore"):
            moved = [np.asarray(self.evaluate(jittered(batch, sign, batched=True))[0]) for sign in (1, -1)]
            noise = np.nan_to_num(np.maximum(np.abs(moved[0] - r), np.abs(moved[1] - r)), nan=0.0)
            return s.defined & plausible(self.claim, r, noise)

    def descend(self, batch: dict, steps: int = 40, rate: float = 0.05, deadline: float | None = None) -> dict:
        """Normalized gradient steps, each a fraction of the instance's own size
        (so large instances move far enough), keeping every domain.  An
        instance outside the hypotheses climbs toward them; once inside, a step
        that would leave them is refused and its step size halved.  No step
        starts after the monotonic deadline."""
        variables = {v.name: v for v in self.claim.variables}
        met = self.screen(batch).met
        rates = np.full(len(met), rate)

        def per_instance(a, like):
            return a.reshape((-1,) + (1,) * (np.ndim(like) - 1))

        for _ in range(steps):
            if deadline is not None and time.monotonic() > deadline:
                break
            grads = {k: np.asarray(g) for k, g in self.gradient(batch).items()}
            if self.unmet_gradient is not None and not met.all():
                toward = self.unmet_gradient(batch)
                grads = {k: np.where(per_instance(~met, g), np.asarray(toward[k]), g) for k, g in grads.items()}
            norm = np.sqrt(sum(np.sum(np.nan_to_num(g).reshape(len(g), -1) ** 2, axis=1)
                               for g in grads.values())) + 1e-12
            size = 1 + np.sqrt(sum(np.sum(np.asarray(x).reshape(len(x), -1) ** 2, axis=1)
                                   for x in batch.values()))
            step = rates * size / norm
            moved = self.project({k: enforce(variables[k], np.nan_to_num(
                np.asarray(batch[k]) - per_instance(step, batch[k]) * np.nan_to_num(grads[k]))) for k in batch})
            now_met = self.screen(moved).met
            refused = met & ~now_met
            rates = np.where(refused, rates / 2, rates)
            batch = {k: np.where(per_instance(refused, v), np.asarray(batch[k]), v) for k, v in moved.items()}
            met = met | now_met
        return batch


def _projection(claim: Claim, xp):
    """One instance moved by PROJECTION_STEPS Gauss-Newton steps x ← x − J⁺ e(x) toward
    {e = 0}, e every entry of every equality (J its Jacobian, zero on symmetric variables)."""
    import jax
    import jax.numpy as jnp
    from jax.flatten_util import ravel_pytree

    fixed = {v.name for v in claim.variables if v.domain == "symmetric"}  # one entry moves two

    def project(values):
        values = {k: jnp.asarray(v, dtype=float) for k, v in values.items()}
        flat, unravel = ravel_pytree(values)
        mask, _ = ravel_pytree({k: jnp.full(jnp.shape(v), 0.0 if k in fixed else 1.0)
                                for k, v in values.items()})

        def equalities(z):
            vals = unravel(z)
            return jnp.concatenate([jnp.ravel(jnp.asarray(e(xp, **vals), dtype=float))
                                    for e in claim.equalities] + [jnp.zeros(1)])

        for _ in range(PROJECTION_STEPS):
            jacobian = jax.jacfwd(equalities)(flat) * mask
            # masked again: J⁺'s rows for the zeroed columns are 0 only to rounding (an
            # H100's SVD left ~1e-17 there, which moved symmetric matrices off symmetry)
            flat = flat - mask * jnp.nan_to_num(jnp.linalg.pinv(jacobian) @ equalities(flat))
        return unravel(flat)

    return project


def candidates(scores: np.ndarray, batch: dict, k: int, mask: np.ndarray) -> list[dict]:
    """Up to k single instances among the nominated (mask), most violating first."""
    order = np.argsort(np.where(mask, scores, np.inf), kind="stable")
    picked = [i for i in order[:k] if mask[i]]
    return [{name: np.asarray(arr)[i] for name, arr in batch.items()} for i in picked]
