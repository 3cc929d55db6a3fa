"""The numeric witness search: where might a witness p be, at this instance x?

As the counterexample search nominates instances in floats and lets the exact
engine decide, this nominates witnesses: the violation of the residuals (every
entry of r(x, p), the claim's own code in float64) is driven to 0 over the
existential variables by Levenberg-Marquardt steps from several seeded starts
(p = 0, p = 1, and random points on the instance's scale).  The violation of
an entry is r itself for an identity, min(r − τ, 0) for an inequality (τ a small
margin, so that rounding the point keeps it inside).  The hypotheses read x
alone, so they take no part.  In JAX float64 (jit; the residual and its
Jacobian compiled once per size) where the search uses JAX, else in numpy
float64 with central differences.  What comes out is floats: claims/exists.py
rounds them to simple fractions and the exact engine decides."""

from __future__ import annotations

import contextlib
import math
import warnings
from dataclasses import dataclass

import numpy as np

from ..claims import exists_budget as budget

STARTS = 6
ITERATIONS = 60
MARGIN = 1e-4  # τ: an inequality's entries are pushed this far inside
SOLVED = 1e-24  # squared violation below which a start has converged


@dataclass(frozen=True)
class Point:
    p: np.ndarray  # the existential coordinates, flat, in ExistsTraced.coordinates' order
    violation: float  # squared violation at p
    jacobian: np.ndarray  # d r / d p at p (rows: residual entries)
    active: np.ndarray  # the entries the point is held by (identities: all; else r near 0)


@contextlib.contextmanager
def _quiet():
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


class NumericWitness:
    """`search(instance, deadline)`: candidate points, least violation first."""

    def __init__(self, claim, sizes: dict, coordinates: tuple, use_jax: bool = False, seed: int = 0):
        self.claim, self.sizes = claim, sizes
        self.shapes = [(v.name, tuple(claim.shape_of(v, sizes))) for v in claim.exists]
        self.n = len(coordinates)
        self.rng = np.random.default_rng(seed)
        self.kind = "strict-inequality" if claim.kind == "inequality" and claim.strict else claim.kind
        self._jax = None
        if use_jax:
            with contextlib.suppress(Exception):  # no JAX: numpy does the same, slower
                self._jax = self._compile()

    def _unflat(self, p, xnp):
        out, at = {}, 0
        for name, shape in self.shapes:
            size = math.prod(shape)
            out[name] = xnp.reshape(p[at:at + size], shape) if shape else p[at]
            at += size
        return out

    def _inputs(self, instance: dict) -> dict:
        out = {}
        for v in self.claim.variables:
            a = np.asarray(instance[v.name], dtype=object)
            out[v.name] = np.vectorize(float, otypes=[np.float64])(a) if a.shape else float(a[()])
        return out

    def _compile(self):
        import jax
        import jax.numpy as jnp

        from ..claims.xp import numeric

        xp = numeric()
        claim = self.claim

        def residuals(x, p):
            return jnp.ravel(jnp.asarray(claim.residual(xp, **x, **self._unflat(p, jnp)), dtype=jnp.float64))

        values = jax.jit(jax.vmap(residuals, in_axes=(None, 0)))
        jacobian = jax.jit(jax.vmap(jax.jacfwd(residuals, argnums=1), in_axes=(None, 0)))
        return values, jacobian

    # -- r and dr/dp for a batch of points ------------------------------------------

    def _values(self, x, P) -> np.ndarray:
        if self._jax is not None:
            return np.asarray(self._jax[0](x, P), dtype=float)
        from ..claims.xp import floating

        xp = floating()
        return np.stack([np.ravel(np.asarray(self.claim.residual(xp, **x, **self._unflat(p, np)),
                                             dtype=float)) for p in P])

    def _jacobians(self, x, P, R) -> np.ndarray:
        if self._jax is not None:
            return np.asarray(self._jax[1](x, P), dtype=float)
        out = np.empty(R.shape + (self.n,))
        for j in range(self.n):
            h = 1e-6 * (1 + np.abs(P[:, j]))
            up, down = P.copy(), P.copy()
            up[:, j] += h
            down[:, j] -= h
            out[:, :, j] = (self._values(x, up) - self._values(x, down)) / (2 * h)[:, None]
        return out

    def _violation(self, R) -> np.ndarray:
        if self.kind == "identity":
            return R
        return np.minimum(R - MARGIN, 0.0)

    # -- the search ------------------------------------------------------------------

    def starts(self, instance: dict) -> np.ndarray:
        scale = 1.0 + max((abs(float(v)) for v in _flat(instance.values())), default=0.0)
        draws = self.rng.normal(0.0, scale, size=(STARTS - 2, self.n))
        return np.vstack([np.zeros((1, self.n)), np.ones((1, self.n)), draws])

    def search(self, instance: dict, deadline: float) -> list[Point]:
        if not self.n:
            return []
        starts = self.starts(instance)
        with _quiet():
            for _ in range(2):
                try:
                    return self._search(self._inputs(instance), starts, deadline)
                except KeyboardInterrupt:
                    raise
                except Exception:  # noqa: BLE001 - the claim in floats: no nomination, never a verdict
                    if self._jax is None:
                        return []
                    self._jax = None  # a claim JAX cannot compile (a Python branch on a value): numpy
        return []

    def _search(self, x, P, deadline) -> list[Point]:
        E = self._violation(self._values(x, P))
        cost = _cost(E)
        damping = np.full(len(P), 1e-3)
        for _ in range(ITERATIONS):
            if budget.clock() > deadline or np.mean(cost < SOLVED) >= 0.5:
                break
            R = self._values(x, P)
            J = self._jacobians(x, P, R)
            if self.kind != "identity":  # entries inside the margin exert no pull
                J = np.where((R - MARGIN < 0)[:, :, None], J, 0.0)
            E = self._violation(R)
            trial = P.copy()
            for s in range(len(P)):
                if not (np.all(np.isfinite(J[s])) and np.all(np.isfinite(E[s]))):
                    continue
                A = J[s].T @ J[s]
                A[np.diag_indices_from(A)] += damping[s] * (1 + np.diag(A))
                with contextlib.suppress(np.linalg.LinAlgError):
                    trial[s] = P[s] - np.linalg.solve(A, J[s].T @ E[s])
            new = _cost(self._violation(self._values(x, trial)))
            better = new < cost
            P = np.where(better[:, None], trial, P)
            cost = np.where(better, new, cost)
            damping = np.where(better, damping / 3, np.minimum(damping * 4, 1e12))
        R = self._values(x, P)
        J = self._jacobians(x, P, R)
        order = np.argsort(cost)
        points, seen = [], set()
        for s in order:
            if not np.isfinite(cost[s]):
                continue
            key = tuple(np.round(P[s], 9))
            if key in seen:
                continue
            seen.add(key)
            # the entries that hold the point where it is: every one of an identity, else those
            # at the margin (an entry well inside leaves its coordinates free)
            active = np.ones(R.shape[1], dtype=bool) if self.kind == "identity" else R[s] <= 2 * MARGIN
            points.append(Point(P[s].copy(), float(cost[s]), J[s], active))
        return points


def _cost(E) -> np.ndarray:
    c = np.sum(np.asarray(E, dtype=float) ** 2, axis=1)
    return np.where(np.isfinite(c), c, np.inf)


def _flat(values) -> list:
    out = []
    for v in values:
        a = np.asarray(v, dtype=object)
        out.extend(a.reshape(-1).tolist() if a.shape else [a[()]])
    return out

