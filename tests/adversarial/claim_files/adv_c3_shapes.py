"""Helpers of the class-3 claims: introspection that numpy answers one way and a
traced value another."""
import numpy as np


def centred(xp, v):
    """v itself for a numpy array; v − μ for anything else (a traced batch vector)."""
    if isinstance(v, np.ndarray):
        return v
    return v - xp.mean(v)


def count(v):
    """The number of entries, 1 for an object without `size`."""
    return getattr(v, "size", 1)


def rows(v):
    """len(v), 1 for an object without a length."""
    try:
        return len(v)
    except TypeError:
        return 1
