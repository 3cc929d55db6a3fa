"""Evaluate derivatives at points with JAX, in a separate process.

The worker starts before the exact engine has its points: it imports JAX
while the main process parses and derives, then reads one line on stdin, the
path of a JSON request, and writes one JSON answer on stdout.  Running apart
puts JAX on the second core and keeps its thread pools out of the main
process.  Compiled programs are cached on disk, so later runs skip XLA.

`bnproof verify` forks it as its first step (numeric/forked.py runs main() in
the child), so that no second interpreter starts; the API, whose caller's
process may hold threads or JAX, runs `python -m bnproof.numeric.worker`.
"""

from __future__ import annotations

import json
import os
import sys


def evaluate(request: dict) -> dict:
    import jax
    import numpy as np

    from .forward import derivatives

    X = np.asarray(request["X"], dtype=np.float64)
    Y = np.asarray(request["Y"], dtype=np.float64)
    gamma = np.asarray(request["gamma"], dtype=np.float64)
    beta = np.asarray(request["beta"], dtype=np.float64)
    scale = np.float64(request["scale"])
    out = []
    for W in request["points"]:
        values = derivatives(np.asarray(W, dtype=np.float64), X, Y, gamma, beta, scale)
        out.append({k: np.asarray(v).tolist() for k, v in values.items()})
    return {"points": out, "device": str(jax.devices()[0])}


def main() -> None:
    import jax

    from . import forward  # noqa: F401 - import and configure JAX before the request comes
    from .jax_setup import enable_compilation_cache

    enable_compilation_cache(jax)
    path = sys.stdin.readline().strip()
    if not path:
        os._exit(0)  # the main process gave up before sending work
    with open(path, encoding="utf-8") as fh:
        request = json.load(fh)
    json.dump(evaluate(request), sys.stdout)
    sys.stdout.flush()
    # JAX's runtime takes about a second to tear down; there is nothing to clean up.
    os._exit(0)


if __name__ == "__main__":
    main()
