"""Datasets for `bnproof scan`: scikit-learn's bundled digits (no download), a
synthetic regression set, or the user's own ``.npz``.  Each is one batch
(the whole set, as in the papers: the batch is the learning set).

A user's file is read with ``allow_pickle=False`` (never unpickled) and
checked before use; every problem is a one-line BadInput.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import BadInput

MAX_SAMPLES = 1_000_000
MAX_FEATURES = 100_000
MAX_CLASSES = 10_000
BUILTIN = ("digits", "synthetic")


@dataclass(frozen=True)
class Dataset:
    name: str
    X: np.ndarray  # m×d inputs
    Y: np.ndarray  # m×n targets (one-hot for class labels)
    classes: bool  # Y is one-hot class labels

    @property
    def m(self) -> int:
        return self.X.shape[0]


def _subsample(data: Dataset, samples: int | None, rng: np.random.Generator) -> Dataset:
    if samples is None or samples >= data.m:
        return data
    keep = np.sort(rng.choice(data.m, size=samples, replace=False))
    return Dataset(data.name, data.X[keep], data.Y[keep], data.classes)


def _one_hot(labels: np.ndarray) -> np.ndarray:
    return np.eye(int(labels.max()) + 1)[labels]


def digits(samples: int | None, rng: np.random.Generator) -> Dataset:
    """8×8 images, pixels scaled to [0, 1], ten classes one-hot."""
    from sklearn.datasets import load_digits

    raw = load_digits()
    data = Dataset("digits", raw.data / 16.0, _one_hot(raw.target), True)
    return _subsample(data, samples, rng)


def synthetic(samples: int | None, features: int, rng: np.random.Generator) -> Dataset:
    """X ~ N(0, I), y = sin(⟨a, x⟩) + ⟨c, x⟩²/d + 0.1·noise: smooth, non-linear, one output."""
    m = samples or 512
    X = rng.standard_normal((m, features))
    a, c = rng.standard_normal(features), rng.standard_normal(features)
    y = np.sin(X @ a / np.sqrt(features)) + (X @ c) ** 2 / features + 0.1 * rng.standard_normal(m)
    return Dataset("synthetic", X, y[:, None], False)


def _array(archive, key: str, path: Path) -> np.ndarray:
    try:
        value = archive[key]
    except ValueError as err:  # object arrays refused: allow_pickle=False
        raise BadInput(f"{path}: array {key!r} cannot be read without unpickling ({err}); "
                       "save plain numeric arrays") from None
    except (OSError, zipfile.BadZipFile, KeyError) as err:
        raise BadInput(f"{path}: array {key!r} is unreadable: {err}") from None
    if value.dtype.kind not in "biuf":
        raise BadInput(f"{path}: array {key!r} has dtype {value.dtype}; expected real numbers")
    return value


def load_npz(path: str | Path, samples: int | None, rng: np.random.Generator) -> Dataset:
    """Keys: X (m×d numbers) and y: m integer class labels, m real targets, or an m×n
    target matrix."""
    path = Path(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except OSError as err:
        raise BadInput(f"cannot read {path}: {err.strerror or err}") from None
    except (ValueError, zipfile.BadZipFile, EOFError) as err:
        raise BadInput(f"{path} is not a .npz archive of arrays: {err}") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise BadInput(f"{path} is a single .npy array; save X and y with numpy.savez")
    with archive:
        keys = set(archive.files)
        missing = [k for k in ("X", "y") if k not in keys]
        if missing:
            raise BadInput(f"{path}: missing array {missing[0]!r} (expected X, m×d, and y)")
        unknown = sorted(keys - {"X", "y"})
        if unknown:
            raise BadInput(f"{path}: unknown array {unknown[0]!r} (expected only X and y)")
        X, y = _array(archive, "X", path), _array(archive, "y", path)
    return _subsample(_validated(path, X, y), samples, rng)


def _validated(path: Path, X: np.ndarray, y: np.ndarray) -> Dataset:
    if X.ndim != 2:
        raise BadInput(f"{path}: X must be 2-D (m×d), got shape {X.shape}")
    m, d = X.shape
    if m < 2 or d < 1:
        raise BadInput(f"{path}: X is {m}×{d}; BN needs at least 2 samples and 1 feature")
    if m > MAX_SAMPLES or d > MAX_FEATURES:
        raise BadInput(f"{path}: X is {m}×{d}; at most {MAX_SAMPLES} samples, {MAX_FEATURES} features")
    if y.ndim not in (1, 2) or y.shape[0] != m:
        raise BadInput(f"{path}: y has shape {y.shape}; expected ({m},) or ({m}, n) to match X")
    for key, value in (("X", X), ("y", y)):
        if not np.all(np.isfinite(value)):
            raise BadInput(f"{path}: {key} contains NaN or inf")
    if y.ndim == 1 and y.dtype.kind in "biu":
        if y.min() < 0 or y.max() >= MAX_CLASSES:
            raise BadInput(f"{path}: class labels in y must lie in 0…{MAX_CLASSES - 1}")
        return Dataset(path.name, X.astype(np.float64), _one_hot(y.astype(np.int64)), True)
    Y = y.astype(np.float64).reshape(m, -1)
    return Dataset(path.name, X.astype(np.float64), Y, False)
