"""xp.expect and xp.var in the reference reading: exact enumeration of the batches.

E[f(xp, B, *args)] over a batch B of n i.i.d. draws from a discrete law with
k support points is Σ over the kⁿ index tuples of Π p_i · f(B): the batches
are enumerated one by one and f runs on each, with no moment algebra and no
requirement that f be a polynomial (the engine's route, claims/moments.py,
is independent of this one).  Beyond MAX_BATCHES batches the reading is
inconclusive.  The law is what a Law variable gives the claim's functions:
a claims.law.Distribution, whose support and probabilities are arrays of the
reading's own values (only its data layout is used).
"""

from __future__ import annotations

import itertools
import numbers

import numpy as np

from .arrays import exact_array
from .errors import Inconclusive
from .session import current

MAX_BATCHES = 4096


def _batches(law, n):
    support = getattr(law, "support", None)
    probabilities = getattr(law, "probabilities", None)
    if support is None or probabilities is None:
        raise TypeError(f"xp.expect: the law must be a Law variable of the claim, got {type(law).__name__}")
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"xp.expect: the number of samples must be an integer >= 1, got {n!r}")
    support = np.asarray(support, dtype=object)
    k, n = int(support.shape[0]), int(n)
    # counted up to the cap, never computed: k**n of the claim's n = 10**12 is a
    # 10¹²-bit integer (a hang), and a one-point law's single batch has n samples
    batches = 1
    for _ in range(min(n, MAX_BATCHES + 1)):
        batches *= k
        if batches > MAX_BATCHES:
            break
    if batches > MAX_BATCHES or n > MAX_BATCHES:
        current().stop(Inconclusive(f"xp.expect: {k}^{n} batches of {n} samples, over the reference's cap "
                                    f"of {MAX_BATCHES}"))
    p = np.asarray(probabilities, dtype=object)
    for index in itertools.product(range(k), repeat=n):
        weight = p[index[0]]
        for i in index[1:]:
            weight = weight * p[i]
        yield weight, exact_array(support[list(index)])


def expectation(xp, f, law, n, args, second: bool):
    first = square = None
    for weight, batch in _batches(law, n):
        value = f(xp, batch, *args)
        value = np.asarray(value, dtype=object) if isinstance(value, (list, tuple)) else value
        term = value * weight
        first = term if first is None else first + term
        if second:
            term2 = value * value * weight
            square = term2 if square is None else square + term2
    return square - first * first if second else first
