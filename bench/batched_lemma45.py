"""Instances/s of the batched Lemma 4.5 residual, side by side in one run.

bnproof: one jitted call over the whole batch, sharded over every JAX device
(bnproof.numeric.lemma45_batch.jax_kernel).  Against: batched numpy written the
textbook way (Gram matrices by batched matmul, both normal equations in one
stacked LAPACK solve: what a user would write, and bnproof's own numpy path
until 2026-11-23), bnproof's closed form run through numpy, a plain
per-instance numpy loop, and a naive per-instance JAX call (jitted once,
called once per instance).  Data: X, y, W0 i.i.d. N(0, 1), γ = 1.
Compilation is timed apart.  The batched routes run in turn, round after
round (--repeats), and their medians are compared, since the machine is
shared.  The residuals of all routes are compared before any figure is printed.

    python bench/batched_lemma45.py [--n 100000] [--m 32] [--d 8] [--dtype float64]
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from bnproof.numeric.lemma45_batch import jax_kernel, numpy_residuals  # noqa: E402


def one_instance(xp, X, y, W0):
    """The textbook route for one instance (m > d, so XcᵀXc is invertible)."""
    w_star = xp.linalg.solve(X.T @ X, X.T @ y)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    b = xp.linalg.solve(Xc.T @ Xc, Xc.T @ yc)
    n2 = w_star @ w_star
    rhs = xp.sum((W0 - w_star) ** 2) - (n2 - w_star @ W0) ** 2 / n2
    lhs = W0 @ W0 - xp.maximum(W0 @ b, 0.0) ** 2 / (b @ b)
    return rhs - lhs


def textbook_numpy(X, y, W0):
    """The same residual batched in numpy the textbook way (m > d): XᵀX and XcᵀXc by
    batched matmul, both normal equations in one stacked LAPACK solve."""
    n = X.shape[0]
    Xc, yc = X - X.mean(axis=1, keepdims=True), y - y.mean(axis=1, keepdims=True)
    Xt, Xct = np.swapaxes(X, 1, 2), np.swapaxes(Xc, 1, 2)
    both = np.linalg.solve(np.concatenate([Xt @ X, Xct @ Xc]),
                           np.concatenate([Xt @ y[..., None], Xct @ yc[..., None]]))[..., 0]
    w_star, b = both[:n], both[n:]
    n2 = np.sum(w_star**2, axis=1)
    rhs = np.sum((W0 - w_star) ** 2, axis=1) - (n2 - np.sum(W0 * w_star, axis=1)) ** 2 / n2
    lhs = np.sum(W0**2, axis=1) - np.maximum(np.sum(W0 * b, axis=1), 0.0) ** 2 / np.sum(b**2, axis=1)
    return rhs - lhs


def rate(count, seconds):
    return count / seconds if seconds > 0 else float("inf")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="batch size for the batched routes")
    ap.add_argument("--loop-n", type=int, default=3000, help="instances for the per-instance routes")
    ap.add_argument("--m", type=int, default=32)
    ap.add_argument("--d", type=int, default=8)
    ap.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    if args.m <= args.d:
        raise SystemExit("this bench needs m > d (the per-instance routes invert XcᵀXc)")
    dt = np.dtype(args.dtype)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((args.n, args.m, args.d)).astype(dt)
    y = rng.standard_normal((args.n, args.m)).astype(dt)
    W0 = rng.standard_normal((args.n, args.d)).astype(dt)
    gamma = np.ones(args.n, dt)
    print(f"device: {jax.devices()[0]} ({jax.device_count()} device(s)), jax {jax.__version__}, "
          f"dtype {args.dtype}, m = {args.m}, d = {args.d}")

    kernel = jax_kernel()
    start = time.perf_counter()
    jax.block_until_ready(kernel(X, y, W0, gamma))
    compile_s = time.perf_counter() - start
    routes = {"bnproof (jit, sharded batch)": lambda: np.asarray(kernel(X, y, W0, gamma)["residual"]),
              "numpy batched, textbook (baseline)": lambda: textbook_numpy(X, y, W0),
              "bnproof's closed form in numpy": lambda: numpy_residuals(X, y, W0, gamma)["residual"]}
    times = {name: [] for name in routes}
    cpu = {name: [] for name in routes}  # CPU seconds of every thread: less noisy on a shared machine
    outputs = {}
    for _ in range(args.repeats):  # in turn, round after round: noise falls on all alike
        for name, route in routes.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            outputs[name] = jax.block_until_ready(route())
            times[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    results = [(name, rate(args.n, statistics.median(times[name])), args.n) for name in routes]
    ours = outputs["bnproof (jit, sharded batch)"]

    k = min(args.loop_n, args.n)
    start = time.perf_counter()
    loop = np.array([one_instance(np, X[i], y[i], W0[i]) for i in range(k)])
    results.append(("numpy loop, one instance at a time", rate(k, time.perf_counter() - start), k))

    naive = jax.jit(lambda X, y, W0: one_instance(jnp, X, y, W0))
    jax.block_until_ready(naive(X[0], y[0], W0[0]))  # compile once, not timed
    start = time.perf_counter()
    per_call = np.array([float(naive(X[i], y[i], W0[i])) for i in range(k)])
    results.append(("naive JAX, one jitted call per instance", rate(k, time.perf_counter() - start), k))

    tol = 1e-6 if args.dtype == "float64" else 1e-1
    for name, other in (("numpy batched", outputs["numpy batched, textbook (baseline)"][:k]),
                        ("bnproof in numpy", outputs["bnproof's closed form in numpy"][:k]),
                        ("numpy loop", loop), ("naive JAX", per_call)):
        if not np.allclose(other, ours[:k], rtol=tol, atol=tol):
            raise SystemExit(f"{name} disagrees with bnproof's residuals")

    print(f"bnproof compile + first call: {compile_s:.2f} s (not in the rates)")
    print(f"medians of {args.repeats} interleaved rounds for the batched routes")
    print(f"{'route':<42} {'instances':>10} {'instances/s':>14} {'bnproof / this':>15}")
    for name, r, count in results:
        print(f"{name:<42} {count:>10} {r:>14.3g} {results[0][1] / r:>14.2f}×")
    ratio = results[0][1] / results[1][1]
    print(f"bnproof / batched numpy: {ratio:.2f}× ({'goal met' if ratio >= 1 else 'goal missed'}: at least 1.0×)")
    print("CPU seconds per batch (all threads, medians): " + ", ".join(
        f"{name} {statistics.median(cpu[name]):.3f}" for name in routes))


if __name__ == "__main__":
    main()
