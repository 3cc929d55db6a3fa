"""L-BFGS to a stated gradient tolerance, in JAX, on any pytree of arrays.

Why our own: scan must say whether ‖∇f‖ ≤ tol was reached, and for the
1024×1024 layers of a real network only a limited-memory method fits
(BFGS in jax.scipy keeps a dense n×n matrix).  It is the textbook
two-loop recursion (Nocedal & Wright, Alg. 7.4) with Armijo backtracking;
a pair (s, y) with sᵀy ≤ 0 is skipped, which keeps the direction a
descent direction on non-convex losses.  Steps run in jitted chunks, so a
progress bar can tick between chunks while the loop stays compiled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree

HISTORY = 10
CHUNK = 25  # steps per compiled call
ARMIJO = 1e-4
MAX_HALVINGS = 60


class _State(NamedTuple):
    x: jax.Array
    f: jax.Array
    g: jax.Array
    S: jax.Array  # (HISTORY, n) steps
    Y: jax.Array  # (HISTORY, n) gradient changes
    head: jax.Array  # next slot of the ring buffer
    count: jax.Array  # pairs stored (≤ HISTORY)
    steps: jax.Array
    stalled: jax.Array  # the line search found no decrease: precision is exhausted


@dataclass(frozen=True)
class Result:
    x: object  # the pytree at the end
    value: float
    grad_norm: float
    steps: int
    converged: bool  # ‖∇f‖ ≤ tol
    reason: str  # "converged", "max-steps" or "stalled"


def _direction(state: _State):
    """−H·g by the two-loop recursion over the stored pairs, newest first."""
    idx = (state.head - 1 - jnp.arange(HISTORY)) % HISTORY
    valid = jnp.arange(HISTORY) < state.count
    rho = jnp.where(valid, 1.0 / jnp.sum(state.S[idx] * state.Y[idx], axis=1), 0.0)

    def back(i, carry):
        q, alphas = carry
        a = rho[i] * jnp.dot(state.S[idx[i]], q)
        return q - a * state.Y[idx[i]], alphas.at[i].set(a)

    q, alphas = jax.lax.fori_loop(0, HISTORY, back, (state.g, jnp.zeros(HISTORY, state.g.dtype)))
    newest_s, newest_y = state.S[idx[0]], state.Y[idx[0]]
    gnorm = jnp.linalg.norm(state.g)
    scale = jnp.where(state.count > 0, jnp.dot(newest_s, newest_y) / jnp.dot(newest_y, newest_y),
                      1.0 / jnp.maximum(gnorm, jnp.finfo(state.g.dtype).tiny))
    r = scale * q

    def forward(k, r):
        i = HISTORY - 1 - k
        b = rho[i] * jnp.dot(state.Y[idx[i]], r)
        return r + state.S[idx[i]] * (alphas[i] - b)

    d = -jax.lax.fori_loop(0, HISTORY, forward, r)
    return jnp.where(jnp.dot(d, state.g) < 0, d, -state.g / jnp.maximum(gnorm, 1.0))


def _step(fun, value_and_grad, state: _State) -> _State:
    d = _direction(state)
    slope = jnp.dot(state.g, d)
    eps = jnp.finfo(state.x.dtype).eps
    f1, g1 = value_and_grad(state.x + d)
    # The unit step is taken on Armijo's condition, or, once f is flat to
    # round-off, when it lowers ‖∇f‖ (Hager & Zhang's approximate Wolfe idea):
    # near an optimum, f can no longer tell a better point from a worse one.
    flat = (f1 <= state.f + 4 * eps * jnp.abs(state.f)) & (
        jnp.linalg.norm(g1) < jnp.linalg.norm(state.g))
    unit = jnp.isfinite(f1) & ((f1 <= state.f + ARMIJO * slope) | flat)

    def backtrack(_):
        def shorter(carry):
            t, _, k = carry
            t = t * 0.5
            return t, fun(state.x + t * d), k + 1

        def too_long(carry):
            t, f_new, k = carry
            ok = f_new <= state.f + ARMIJO * t * slope
            return (~ok | ~jnp.isfinite(f_new)) & (k < MAX_HALVINGS)

        t, f_new, _ = jax.lax.while_loop(too_long, shorter, (jnp.ones((), state.x.dtype), f1, 0))
        ok = (f_new <= state.f + ARMIJO * t * slope) & jnp.isfinite(f_new) & (f_new < state.f)
        x = jnp.where(ok, state.x + t * d, state.x)
        f, g = value_and_grad(x)
        return x, f, g, ok

    x, f, g, found = jax.lax.cond(unit, lambda _: (state.x + d, f1, g1, True), backtrack, None)
    s, y = x - state.x, g - state.g
    keep = found & (jnp.dot(s, y) > 1e-10 * jnp.linalg.norm(s) * jnp.linalg.norm(y))
    S = jnp.where(keep, state.S.at[state.head].set(s), state.S)
    Y = jnp.where(keep, state.Y.at[state.head].set(y), state.Y)
    return _State(x, f, g, S, Y,
                  jnp.where(keep, (state.head + 1) % HISTORY, state.head),
                  jnp.where(keep, jnp.minimum(state.count + 1, HISTORY), state.count),
                  state.steps + 1, ~found)


def make_minimizer(fun: Callable, example, tol: float):
    """A function (x0, *args, max_steps) → Result minimizing fun(x, *args) over the
    pytree x; compiled once per shape, reusable for every layer of that shape."""
    _, unravel = ravel_pytree(example)

    def flat(v, args):
        return fun(unravel(v), *args)

    @jax.jit
    def start(x0, args):
        v, _ = ravel_pytree(x0)
        f, g = jax.value_and_grad(flat)(v, args)
        z = jnp.zeros((HISTORY, v.size), v.dtype)
        return _State(v, f, g, z, z, 0, 0, 0, jnp.zeros((), bool))

    @jax.jit
    def chunk(state, args, limit, tol):
        # tol is an argument, not a constant of the program: one compiled program
        # (and one entry of a persistent compilation cache) serves every tolerance
        def running(s):
            return (jnp.linalg.norm(s.g) > tol) & ~s.stalled & (s.steps < limit)

        body = lambda s: _step(lambda v: flat(v, args),  # noqa: E731
                               lambda v: jax.value_and_grad(flat)(v, args), s)
        return jax.lax.while_loop(running, body, state)

    def minimize(x0, args=(), max_steps: int = 1000, tick=None) -> Result:
        state = start(x0, args)
        # in x's dtype, as the Python float it replaces was (a weakly typed constant)
        bound = jnp.asarray(tol, state.g.dtype)
        while True:
            limit = min(int(state.steps) + CHUNK, max_steps)
            state = chunk(state, args, limit, bound)
            gnorm, steps = float(jnp.linalg.norm(state.g)), int(state.steps)
            if tick:
                tick(steps)
            if gnorm <= tol or bool(state.stalled) or steps >= max_steps or not jnp.isfinite(gnorm):
                break
        converged = gnorm <= tol
        reason = "converged" if converged else ("stalled" if bool(state.stalled) else "max-steps")
        return Result(unravel(state.x), float(state.f), gnorm, steps, converged, reason)

    return minimize
