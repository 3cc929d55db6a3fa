"""Scan time per BN layer of an MLP: bnproof (jit) against eager JAX, in one run.

Both run the same scan of each BN layer (L-BFGS for W* and for the BN optimum,
then ‖∇Ĉ(k·W*)‖), a fixed number of optimizer steps each (--steps; tol = 0,
so every fit runs its steps unless the line search stalls).  bnproof: the
compiled path of `bnproof scan` (jitted L-BFGS chunks, the layer's input
computed once).  Eager: the same code under jax.disable_jit(), i.e. op by op,
as a straightforward JAX script would run.  Data: a synthetic Gaussian batch,
ten classes, cross-entropy, tanh.  The default size is the issue's
784-1024-1024-10 MLP on 4096 samples; --quick is 784-256-256-10 on 1024.

    python bench/scan_layer.py [--quick] [--steps 5] [--dtype float64|float32]
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from bnproof.numeric import network as net  # noqa: E402
from bnproof.numeric import scan as numeric_scan  # noqa: E402


def time_layers(params, spec, X, Y, steps, scanners):
    times, reports = [], []
    for layer in spec.bn_layers:
        start = time.perf_counter()
        report = numeric_scan.scan_layer(params, spec, layer, X, Y, 0.0, steps,
                                         scanner=scanners.get(layer))
        jax.block_until_ready(report.residual)
        times.append(time.perf_counter() - start)
        reports.append(report)
    return times, reports


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="784-256-256-10 on 1024 samples")
    ap.add_argument("--sizes", default=None, help="e.g. 784,1024,1024,10")
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--steps", type=int, default=5, help="L-BFGS steps per optimum")
    ap.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    ap.add_argument("--no-eager", action="store_true", help="skip the eager baseline")
    args = ap.parse_args()
    sizes = tuple(int(s) for s in (args.sizes or ("784,256,256,10" if args.quick else "784,1024,1024,10")).split(","))
    m = args.samples or (1024 if args.quick else 4096)
    spec = net.Spec(sizes, activation="tanh", loss="xent", dtype=args.dtype)
    rng = np.random.default_rng(0)
    X = jax.numpy.asarray(rng.standard_normal((m, sizes[0])), args.dtype)
    Y = jax.numpy.asarray(np.eye(sizes[-1])[rng.integers(0, sizes[-1], m)], args.dtype)
    params = net.init(jax.random.key(0), spec)
    precision = jax.config.jax_default_matmul_precision or "default"
    print(f"device: {jax.devices()[0]} ({jax.device_count()} device(s)), jax {jax.__version__}, "
          f"{args.dtype} (matmul precision {precision}); MLP {'-'.join(map(str, sizes))} with BN, "
          f"m = {m}, {args.steps} L-BFGS steps per optimum")

    scanners = {layer: numeric_scan.LayerScanner(params, spec, layer, 0.0) for layer in spec.bn_layers}
    first, _ = time_layers(params, spec, X, Y, args.steps, scanners)  # includes compilation
    jit_times, jit_reports = time_layers(params, spec, X, Y, args.steps, scanners)
    print(f"{'layer':<7}{'W shape':<12}{'jit first (compile)':>20}{'jit':>10}{'eager':>10}{'eager / jit':>13}")
    eager_times = [None] * len(jit_times)
    if not args.no_eager:
        with jax.disable_jit():
            eager_times, eager_reports = time_layers(params, spec, X, Y, args.steps, {})
        # the same computation, so the same answer to rounding (which L-BFGS's steps amplify)
        tol = 1e-6 if args.dtype == "float64" else 1e-3
        for a, b in zip(jit_reports, eager_reports):
            ra, rb = np.nan_to_num(a.residual), np.nan_to_num(b.residual)
            gap = float(np.max(np.abs(ra - rb) / (np.abs(rb) + 1.0)))
            print(f"layer {a.layer}: largest |jit − eager| / (|eager| + 1) over the neurons' residuals: {gap:.1e}")
            if gap > tol:
                raise SystemExit(f"layer {a.layer}: eager and jit residuals disagree beyond {tol:g}")
    for report, f, j, e in zip(jit_reports, first, jit_times, eager_times):
        shape = "×".join(map(str, report.shape))
        eager = "–" if e is None else f"{e:.2f} s"
        ratio = "–" if e is None else f"{e / j:.1f}×"
        print(f"{report.layer:<7}{shape:<12}{f:>18.2f} s{j:>8.2f} s{eager:>10}{ratio:>13}")


if __name__ == "__main__":
    main()
