"""Evaluate derivatives at points with JAX, in a separate process.

Reads one JSON request on stdin, writes one JSON answer on stdout.  Running
apart lets JAX start and compile on the second core while the exact engine
works, and keeps JAX's thread pools out of the main process.
"""

from __future__ import annotations

import json
import sys


def evaluate(request: dict) -> dict:
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
    import jax

    return {"points": out, "device": str(jax.devices()[0])}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        request = json.load(fh)
    json.dump(evaluate(request), sys.stdout)


if __name__ == "__main__":
    main()
