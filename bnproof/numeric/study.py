"""How often does Lemma 4.5 fail on random one-neuron instances?

For each (m, d): `trials` instances with X, y and W0 i.i.d. standard
Gaussian, γ = 1, β = 0, through the batched closed form
(lemma45_batch.residuals, sharded over all devices).  Among the instances
that meet the hypothesis ⟨W0, W*⟩ > 0, each is counted as failing
(residual < −margin), holding (> margin) or undecided in floating point
(|residual| ≤ margin, margin = √eps·(‖W0‖² + ‖W*‖²)); for d = 1 the residual
is exactly 0 whenever W0 lies on the BN ray's side, so ties are real there.
The failure rate comes with a 95% Wilson interval.  These rates are sampled
evidence.  A sample of the failures (the first K drawn) is rationalized
(bounded denominators) and decided by the exact engine
(bnproof.claims.lemma45); only those it refutes count as confirmed.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .distributed import SINGLE
from .lemma45_batch import degenerate_reason, jax_kernel

CHUNK = 8192  # at most; fixed, so the instances drawn do not depend on the number of devices
Z95 = 1.959963984540054
DENOMINATORS = (10**3, 10**6)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for k successes in n trials (None when n = 0)."""
    if n == 0:
        return None
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale)


@dataclass
class Cell:
    m: int
    d: int
    trials: int
    degenerate: str | None = None
    hypothesis_met: int = 0
    fails: int = 0
    holds: int = 0
    undecided: int = 0
    invalid: int = 0  # non-finite residual (e.g. c = 0): outside the closed form
    min_residual: float | None = None
    sampled: list = field(default_factory=list)  # (X, y, W0) float instances that fail
    exact: dict = field(default_factory=dict)  # outcome → count over the sample
    # each failure the exact engine confirmed, in sample order: {"instance": the rationalized
    # instance in verify --data's format, "residual": RHS − LHS exactly}
    confirmed: list = field(default_factory=list)

    @property
    def rate(self) -> float | None:
        return self.fails / self.hypothesis_met if self.hypothesis_met else None

    @property
    def interval(self):
        return wilson(self.fails, self.hypothesis_met)

    def to_json(self) -> dict:
        ci = self.interval
        return {
            "m": self.m, "d": self.d, "trials": self.trials, "degenerate": self.degenerate,
            "hypothesis_met": self.hypothesis_met, "fails": self.fails, "holds": self.holds,
            "undecided": self.undecided, "invalid": self.invalid, "rate": self.rate,
            "ci95": None if ci is None else list(ci), "min_residual": self.min_residual,
            "exact_sample": len(self.sampled),
            "exact_confirmed": self.exact.get("confirmed", 0),
            "exact_outcomes": dict(sorted(self.exact.items())),
        }


def draw(seed: int, m: int, d: int, chunk: int, size: int, dtype):
    """One chunk of instances, from a key that depends only on (seed, m, d, chunk)."""
    return _drawer()(seed, chunk, m, d, size, str(dtype))


@functools.lru_cache(maxsize=1)
def _drawer():
    """draw as one jitted program per (m, d, size, dtype), the seed and chunk traced:
    one compilation per cell where the operations one by one compiled again
    for every shape; threefry and the normal transform give the same bits."""
    import jax

    def drawn(seed, chunk, m, d, size, dtype):
        key = jax.random.fold_in(jax.random.fold_in(jax.random.fold_in(
            jax.random.key(seed), m), d), chunk)
        kx, ky, kw = jax.random.split(key, 3)
        return (jax.random.normal(kx, (size, m, d), dtype), jax.random.normal(ky, (size, m), dtype),
                jax.random.normal(kw, (size, d), dtype))

    return jax.jit(drawn, static_argnums=(2, 3, 4, 5))


@functools.lru_cache(maxsize=1)
def shared_kernel():
    """One jitted kernel per process: XLA compiles each (m, d, chunk) shape once,
    however many studies the process runs."""
    return jax_kernel()


def run_cell(m: int, d: int, trials: int, seed: int, confirm: int, dtype="float64",
             kernel=None, tick=None) -> Cell:
    return _run([Cell(m, d, trials, degenerate_reason(m, d))], trials, seed, confirm, dtype,
                kernel, tick, SINGLE)[0]


def chunk_length(trials: int) -> int:
    """The instances drawn for every chunk of a cell: the trials split into the
    fewest chunks of at most CHUNK, as evenly as can be.  Every chunk is drawn
    and evaluated at this one length (the last uses a prefix), so a cell is one
    XLA program, not two: a short last chunk of its own shape compiled again,
    which was half of a 10⁴-trial study on CPU and more on a GPU."""
    count = -(-trials // CHUNK)
    return -(-trials // count)


def units(cells: list, trials: int) -> list[tuple[int, int, int]]:
    """(cell, chunk, size) for every chunk of every non-degenerate cell: the work
    that processes share, fixed by the sizes and trials alone."""
    length = chunk_length(trials)
    return [(i, chunk, min(length, trials - start)) for i, cell in enumerate(cells) if not cell.degenerate
            for chunk, start in enumerate(range(0, trials, length))]


def share(ms, ds, trials: int, cluster=None) -> int:
    """The trials this process evaluates (all of them on a single host)."""
    cells = [Cell(m, d, trials, degenerate_reason(m, d)) for m in ms for d in ds]
    return sum(size for _, _, size in (cluster or SINGLE).mine(units(cells, trials)))


def tally_chunk(m: int, d: int, chunk: int, size: int, seed: int, confirm: int, dtype, kernel,
                length: int | None = None) -> dict:
    """One chunk's counts, its smallest residual among the instances that meet
    the hypothesis, and its first `confirm` failures (as float64 lists): over
    the first `size` of the `length` instances drawn (all, by default)."""
    import jax.numpy as jnp

    eps = float(jnp.finfo(dtype).eps)
    length = length or size
    X, y, W0 = draw(seed, m, d, chunk, length, dtype)
    out = {k: np.asarray(v)[:size] for k, v in kernel(X, y, W0, jnp.ones(length, dtype)).items()}
    finite = np.isfinite(out["residual"]) & np.isfinite(out["inner"])
    met = finite & (out["inner"] > 0)
    margin = np.sqrt(eps) * out["scale"]
    r = out["residual"]
    fail = met & (r < -margin)
    return {
        "invalid": int((~finite).sum()), "met": int(met.sum()), "fails": int(fail.sum()),
        "holds": int((met & (r > margin)).sum()), "undecided": int((met & (np.abs(r) <= margin)).sum()),
        "min": float(r[met].min()) if met.any() else None,
        "sampled": [[np.asarray(a[i], np.float64).tolist() for a in (X, y, W0)]
                    for i in np.flatnonzero(fail)[:confirm]],
    }


def _merge(cell: Cell, tally: dict, confirm: int) -> None:
    cell.invalid += tally["invalid"]
    cell.hypothesis_met += tally["met"]
    cell.fails += tally["fails"]
    cell.holds += tally["holds"]
    cell.undecided += tally["undecided"]
    if tally["min"] is not None:
        cell.min_residual = tally["min"] if cell.min_residual is None else min(cell.min_residual, tally["min"])
    for instance in tally["sampled"][: confirm - len(cell.sampled)]:
        cell.sampled.append(tuple(np.asarray(a, np.float64) for a in instance))


def _run(cells: list, trials: int, seed: int, confirm: int, dtype, kernel, tick, cluster) -> list:
    """Every process evaluates its share of the chunks, then confirms its share
    of the sampled failures; the shares are gathered and merged in chunk (and
    sample) order, which is why the process count changes nothing."""
    work, length = units(cells, trials), chunk_length(trials)
    if work:
        kernel = kernel or shared_kernel()
    tallies = []
    for i, chunk, size in cluster.mine(work):
        tallies.append([i, chunk, tally_chunk(cells[i].m, cells[i].d, chunk, size, seed, confirm, dtype,
                                              kernel, length)])
        if tick:
            tick(size)
    found = {(i, chunk): tally for part in cluster.gather(tallies) for i, chunk, tally in part}
    for i, chunk, _ in work:
        _merge(cells[i], found[(i, chunk)], confirm)
    samples = [(i, k) for i, cell in enumerate(cells) for k in range(len(cell.sampled))]
    mine = [[i, k, *confirmed_failure(*cells[i].sampled[k])] for i, k in cluster.mine(samples)]
    decided = {(i, k): (outcome, found) for part in cluster.gather(mine) for i, k, outcome, found in part}
    for i, k in samples:
        outcome, found = decided[(i, k)]
        cells[i].exact[outcome] = cells[i].exact.get(outcome, 0) + 1
        if found is not None:
            cells[i].confirmed.append(found)
    return cells


def rationalize(values, bound: int):
    return tuple(Fraction(float(v)).limit_denominator(bound) for v in values)


def confirm_exactly(X, y, W0) -> str:
    """'confirmed' if the exact engine refutes the Lemma on a rationalization of the
    instance; otherwise its last verdict ('holds', 'hypothesis-not-met', 'degenerate')."""
    return confirmed_failure(X, y, W0)[0]


def confirmed_failure(X, y, W0) -> tuple[str, dict | None]:
    """confirm_exactly's outcome and, when confirmed, the refuted instance as `verify
    --data` reads it, with its exact residual: the failure, for anyone to decide again."""
    from ..claims import lemma45
    from ..errors import DegenerateInstance
    from ..exact.linalg import to_fraction
    from ..instance import Instance

    outcome = "holds"
    for bound in DENOMINATORS:
        instance = Instance(
            X=tuple(rationalize(row, bound) for row in X),
            Y=tuple((v,) for v in rationalize(y, bound)),
            W0=(rationalize(W0, bound),),
            gamma=(Fraction(1),), beta=(Fraction(0),), loss="sum", name="study instance")
        try:
            report = lemma45.analyse(instance)
            outcome = report.verdict
        except DegenerateInstance:
            outcome = "degenerate"
        if outcome == lemma45.REFUTED:
            residual = str(to_fraction(report.neurons[0].residual))
            return "confirmed", {"instance": instance.to_json(), "residual": residual}
    return outcome, None


def run_study(ms, ds, trials: int, seed: int, confirm: int, dtype="float64", tick=None, cluster=None,
              kernel=None):
    """One cell per (m, d).  With a cluster (numeric/distributed.py) each process
    takes its share of the chunks and every process ends with the whole result.
    `kernel` (default: lemma45_batch.jax_kernel() on every local device) picks the devices."""
    cells = [Cell(m, d, trials, degenerate_reason(m, d)) for m in ms for d in ds]
    return _run(cells, trials, seed, confirm, dtype, kernel, tick, cluster or SINGLE)
