"""The batched Lemma 4.5 residual (one factorization of XcᵀXc, W* by Sherman–Morrison)
against the exact engine, where floats are strained: data far from the origin, and an
exactly zero Xᵀy.

Hand-derived: X with columns (1, 0, 1, 2) and (0, 1, 1, 0), y = (1, 1, −1, 0) gives
Xᵀy = (1 + 0 − 1 + 0, 0 + 1 − 1 + 0) = 0, so W* = 0 and the Lemma's fraction is
undefined: the batched residual must not be a number there.
"""

from fractions import Fraction

import numpy as np
import pytest

from bnproof.claims import lemma45
from bnproof.exact.linalg import to_fraction
from bnproof.instance import instance_from_json
from bnproof.numeric.lemma45_batch import jax_kernel, numpy_residuals

BACKENDS = {"numpy": lambda: numpy_residuals, "jax": jax_kernel}


def exact_residual(X, y, W0, gamma=1):
    report = lemma45.analyse(instance_from_json({"X": X, "y": y, "W0": W0, "gamma": gamma}))
    return to_fraction(report.neurons[0].residual)


@pytest.mark.parametrize("backend", sorted(BACKENDS))
@pytest.mark.parametrize("offset", [0, 10**4])
def test_far_from_the_origin_the_residual_stays_accurate(backend, offset):
    rng = np.random.default_rng(7)
    X = rng.integers(-5, 6, (3, 12, 3)) + offset
    y = rng.integers(-5, 6, (3, 12))
    W0 = rng.integers(1, 4, (3, 3))
    gamma = np.array([1.0, -2.0, 1.0])
    out = BACKENDS[backend]()(X.astype(float), y.astype(float), W0.astype(float), gamma)
    for i in range(3):
        exact = exact_residual(X[i].tolist(), y[i].tolist(), W0[i].tolist(), int(gamma[i]))
        assert exact != 0
        assert abs(Fraction(float(out["residual"][i])) - exact) <= abs(exact) * Fraction(1, 10**9)


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_an_exactly_zero_least_squares_solution_gives_no_number(backend):
    X = np.array([[[1, 0], [0, 1], [1, 1], [2, 0]]], float)
    y = np.array([[1, 1, -1, 0]], float)
    out = BACKENDS[backend]()(X, y, np.array([[1.0, 2.0]]), np.ones(1))
    assert not np.isfinite(out["residual"][0])
    # one more sample that breaks the orthogonality: a number again, the exact one
    X2 = np.array([[[1, 0], [0, 1], [1, 1], [2, 0], [1, 3]]], float)
    y2 = np.array([[1, 1, -1, 0, 2]], float)
    out = BACKENDS[backend]()(X2, y2, np.array([[1.0, 2.0]]), np.ones(1))
    exact = exact_residual(X2[0].astype(int).tolist(), y2[0].astype(int).tolist(), [1, 2])
    assert float(out["residual"][0]) == pytest.approx(float(exact), rel=1e-12)
