"""Batches split over several JAX devices give the same numbers as one device.

XLA_FLAGS must be set before JAX is imported, so the check runs in a fresh
process with four CPU devices."""

import json
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import json
    import jax
    import numpy as np
    from bnproof.numeric.lemma45_batch import jax_kernel
    from bnproof.numeric import study
    from bnproof.claims.api import resolve
    from bnproof.search.batched import BatchedResidual

    assert jax.device_count() == 4, jax.devices()
    rng = np.random.default_rng(0)
    # 1001 is not a multiple of 4: the padding is exercised.  The study cell below draws
    # the same shape (one chunk of 1001 trials at m = 8, d = 2), so it runs the programs
    # compiled here instead of compiling two more (the compile is most of this check).
    n, m, d = 1001, 8, 2
    X, y, W0 = rng.standard_normal((n, m, d)), rng.standard_normal((n, m)), rng.standard_normal((n, d))
    gamma = np.ones(n)
    four = jax_kernel()
    one = jax_kernel(devices=jax.devices()[:1])
    a, b = four(X, y, W0, gamma), one(X, y, W0, gamma)
    # Equal to rounding: LAPACK's batched eigh may round the last bit differently for
    # different batch lengths (each device gets a quarter), so not bit for bit.
    same = all(np.allclose(np.asarray(a[k]), np.asarray(b[k]), rtol=1e-12, atol=1e-12 * 50)
               for k in a)

    # The same through a full study cell: counts do not depend on the device count.
    cell4 = study.run_cell(m, d, n, 1, 2, kernel=four).to_json()
    cell1 = study.run_cell(m, d, n, 1, 2, kernel=one).to_json()
    low4, low1 = cell4.pop("min_residual"), cell1.pop("min_residual")
    assert abs(low4 - low1) <= 1e-12 * abs(low1), (low4, low1)

    # bnproof fuzz's batched residual: its jit now shards the batch too.
    (claim,) = resolve("lemma-4.5")
    kernel = BatchedResidual(claim, {"m": 4, "d": 2})
    batch = {"X": rng.standard_normal((10, 4, 2)), "y": rng.standard_normal((10, 4)),
             "W0": rng.standard_normal((10, 2)), "gamma": np.ones(10)}
    r4, h4 = kernel.evaluate(batch)
    import jax.numpy as jnp
    from bnproof.claims.xp import numeric
    xp = numeric()
    r1 = jax.jit(jax.vmap(lambda v: claim.residual(xp, **v)))(batch)
    print(json.dumps({
        "same": bool(same), "shards": len(a["residual"].sharding.device_set),
        "cells_equal": cell4 == cell1, "fails": cell4["fails"],
        "fuzz_same": bool(np.array_equal(np.asarray(r4), np.asarray(r1).reshape(-1))),
        "fuzz_shards": len(r4.sharding.device_set) if r4.shape[0] % 4 == 0 else None,
        "fuzz_devices": kernel.evaluate.devices,
    }))
""")


# The check compares sharded with unsharded programs of one process, compiled alike: XLA's
# older CPU emitters compile them in about half the time (the process's CPU: 8.5 s → 5 s).
# An XLA that no longer knows the flag refuses to start ("Unknown flag"): run without it.
FAST_COMPILE = "--xla_cpu_use_fusion_emitters=false"


def test_sharded_batches_equal_unsharded():
    for extra in (" " + FAST_COMPILE, ""):
        env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4" + extra,
                   JAX_PLATFORMS="cpu", JAX_ENABLE_X64="1")
        proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env)
        if not (extra and proc.returncode != 0 and "Unknown flag in XLA_FLAGS" in proc.stderr):
            break
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["same"], "sharded residuals differ from the single-device ones"
    assert result["shards"] == 4
    assert result["cells_equal"] and result["fails"] > 0
    assert result["fuzz_same"] and result["fuzz_devices"] == 4
