"""Cross-check the exact engine against JAX autodiff at the same points.

Tolerances scale with the size of the intermediate terms, not of the result:
at an optimum the gradient is exactly 0 while float64 leaves round-off of the
size of the terms that cancelled (STYLE.md measured 9e-11 relative error on
the result, 5e-16 on the terms).
"""

from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass
from operator import mul
from typing import TYPE_CHECKING

from ..errors import BnproofError, DegenerateInstance, Disagreement

if TYPE_CHECKING:
    from ..exact.layer import Neuron

# The exact engine is imported where it is used, not here: the worker must start
# before it (its `import jax` is the longest step of a cold `bnproof verify`).  The
# comparison is in plain floats: numpy is the worker's (JAX imports it), not ours.

RTOL = 1e-10
# The float64 cross-check compares only where every term it is summed from stays below
# this: JAX's autodiff multiplies up to three of them (σ³ in a Hessian), and beyond it a
# float64 overflow, not a wrong derivative, would be what differs.
MAX_TERM = 1e100
# Past this many weights the Hessians (size (n·d)²) are not worth shipping around.
MAX_HESSIAN_WEIGHTS = 128


@dataclass
class Point:
    label: str
    rows: list  # n weight vectors (fmpq_mat columns), one per neuron


@dataclass
class Report:
    device: str
    points: list[str]
    compared: int = 0
    worst: float = 0.0  # max |numeric − exact| / scale over everything compared
    worst_what: str = ""
    skipped: str | None = None  # why floats could not compare this instance: nothing confirmed, nothing refuted

    @property
    def ok(self) -> bool:
        return self.skipped is None and self.worst <= RTOL


def _floats(rows) -> list[list[float]]:
    from ..exact.linalg import to_fraction

    return [[float(to_fraction(x)) for x in r.entries()] for r in rows]


def batch_floats(neuron: Neuron) -> tuple[list[list[float]], list[float]]:
    """X and y of a neuron as the nearest floats to their exact entries: from the
    instance's own numbers (ints and Fractions, whose float() rounds exactly once)
    where the neuron was made from one and has not built X as a rational matrix,
    which would cost more than the floats (64000 entries at m = 1000, d = 64)."""
    instance = getattr(neuron, "_instance", None)
    if instance is not None and "X" not in vars(neuron):
        return ([[float(x) for x in row] for row in instance.X],
                [float(v) for v in instance.targets(neuron._j)])
    from ..exact.linalg import rows_of, to_fraction

    return ([[float(to_fraction(x)) for x in row] for row in rows_of(neuron.X)],
            [float(to_fraction(v)) for v in neuron.y.entries()])


def _request(neurons: list[Neuron], points: list[Point]) -> dict:
    from ..exact.linalg import to_fraction

    first = neurons[0]
    ys = [batch_floats(n)[1] for n in neurons]
    return {
        "X": batch_floats(first)[0],
        "Y": [[y[b] for y in ys] for b in range(first.m)],
        "gamma": [float(to_fraction(n.gamma)) for n in neurons],
        "beta": [float(to_fraction(n.beta)) for n in neurons],
        "scale": float(to_fraction(first.scale)),
        "points": [_floats(p.rows) for p in points],
    }


class Worker:
    """A JAX process started early; ``submit`` hands it the points, ``result``
    waits for the answer and compares it with the exact values.

    With ``fork`` (the command line, which starts it first thing) the worker is a
    fork of this process where that is safe (numeric/forked.py): no second
    interpreter start, and the modules loaded so far come with it.  Otherwise, and
    for the API, whose caller's process may hold threads or JAX, it is a fresh
    `python -m bnproof.numeric.worker`."""

    def __init__(self, fork: bool = False):
        env = dict(os.environ, JAX_ENABLE_X64="1")
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        self.path = None
        from . import forked

        if fork and forked.can_fork():
            self.proc = forked.ForkedWorker(env)
            return
        import subprocess  # here: the fork needs neither it nor tempfile before it starts

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bnproof.numeric.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )

    def submit(self, neurons: list[Neuron], points: list[Point]) -> None:
        import tempfile

        self.neurons, self.points = neurons, points
        fd, self.path = tempfile.mkstemp(prefix="bnproof-", suffix=".json")
        with os.fdopen(fd, "w") as fh:
            json.dump(_request(neurons, points), fh)
        stdin, self.proc.stdin = self.proc.stdin, None  # so communicate() only reads
        try:
            stdin.write((self.path + "\n").encode())
            stdin.close()
        except BrokenPipeError:
            # the worker ended before its request (JAX failed to import, Ctrl-C): result()
            # says so from its exit status and stderr, not this process's "broken pipe"
            try:
                stdin.close()
            except BrokenPipeError:
                pass

    def cancel(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()
        self._cleanup()

    def _cleanup(self) -> None:
        if self.path:
            try:
                os.unlink(self.path)
            except OSError:
                pass

    def result(self) -> Report:
        out, err = self.proc.communicate()
        self._cleanup()
        if self.proc.returncode != 0:
            last = (err.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
            raise BnproofError(f"the numeric cross-check did not run: {last}")
        return compare(self.neurons, self.points, json.loads(out))


def _batch(neuron: Neuron) -> tuple[list[list[float]], list[float], float]:
    """X and y in floats and ‖X‖ (Frobenius), once per neuron (the same at every point)."""
    X, y = batch_floats(neuron)
    return X, y, math.sqrt(_fsum(x * x for row in X for x in row))


def _fsum(values) -> float:
    """math.fsum, with an infinite pair (inf − inf) an overflow as any other."""
    try:
        return math.fsum(values)
    except ValueError as inf_minus_inf:
        raise OverflowError("a term overflows float64") from inf_minus_inf


def _scales(neuron: Neuron, w, batch=None) -> dict[str, float]:
    """Sizes of the terms each quantity is summed from, in floats (OverflowError where a
    term overflows float64).  Plain Python floats: the main process does not import numpy
    (0.09 s of CPU), which only the JAX worker needs."""
    from ..exact.linalg import to_fraction

    X, y, fx = _batch(neuron) if batch is None else batch
    wv = [float(to_fraction(v)) for v in w.entries()]
    s, gamma, beta = (float(to_fraction(v)) for v in (neuron.scale, neuron.gamma, neuron.beta))
    z = [_fsum(map(mul, row, wv)) for row in X]
    mean = _fsum(z) / len(z)
    zc = [v - mean for v in z]
    sigma = math.sqrt(_fsum(v * v for v in zc) / len(zc))
    zhat = [gamma * v / sigma + beta for v in zc]
    g = [2 * s * (abs(a) + abs(b)) for a, b in zip(zhat, y)]
    z_y = [abs(a) + abs(b) for a, b in zip(z, y)]
    zhat_y = [abs(a) + abs(b) for a, b in zip(zhat, y)]
    norm_g = math.sqrt(_fsum(v * v for v in g))
    scales = {
        "C": s * _fsum(v * v for v in z_y) + 1.0,
        "grad_C": 2 * s * fx * math.sqrt(_fsum(v * v for v in z_y)) + 1.0,
        "hess_C": 2 * s * fx**2 + 1.0,
        "C_hat": s * _fsum(v * v for v in zhat_y) + 1.0,
        "grad_C_hat": 3 * abs(gamma) / sigma * fx * norm_g + 1.0,
        "hess_C_hat": (2 * s * gamma**2 + 6 * abs(gamma) * norm_g) / sigma**2 * fx**2 + 1.0,
    }
    if not all(map(math.isfinite, scales.values())):  # as numpy's errstate(over="raise") said it
        raise OverflowError("a term overflows float64")
    return scales


def _exact(neuron: Neuron, w, with_hessians: bool) -> dict:
    from ..exact.linalg import to_fraction

    out = {
        "C": float(to_fraction(neuron.loss(w))),
        "grad_C": [float(to_fraction(x)) for x in neuron.grad(w).entries()],
        "C_hat": surd_float(neuron.bn_loss(w)),
        "grad_C_hat": surd_floats(neuron.bn_grad(w)),
    }
    if with_hessians:
        out["hess_C"] = [float(to_fraction(x)) for x in neuron.hessian().entries()]
        out["hess_C_hat"] = bn_hessian_floats(neuron, w)
    return out


def bn_hessian_floats(neuron: Neuron, w) -> list[float]:
    """∇²Ĉ(w)'s entries as floats, row by row, from its factored form (exact/hessian.py),
    the form whose restriction decides the second-order condition:

        H = c1·Gc + c2·u uᵀ + c3·(g uᵀ + u gᵀ),  c1, c2, u, g in Q(√r), c3 rational.

    Every entry A + B√r is formed exactly, A and B as integers over one denominator
    D, a few products each, and then rounded once (as surd_floats): the d×d matrix
    products of bn.contracted_hessian reduce thousand-bit entries by a gcd each
    (about 1 s a point at m = 1000, d = 64).  The same numbers exactly
    (tests/test_verify_once.py); over radicands that differ, the contracted form."""
    parts = hessian_parts(neuron.bn_hessian_form(w))
    return neuron.bn_hessian(w).to_floats() if parts is None else _rounded(*parts)


def hessian_parts(form) -> tuple[list[int], list[int], int, int, int] | None:
    """(A, B, D, rp, rq): H = (A + B·√(rp/rq))/D entry by entry, row by row, in integers;
    None if the factors' radicands differ (never from layer.Neuron)."""
    u, g, c1, c2 = form.u, form.g, form.c1, form.c2
    if not (u.r == g.r == c1.r == c2.r):
        return None
    rp, rq = int(u.r.p), int(u.r.q)
    gram, dgram = form.gram_c.numer_denom()
    G, dgram = [[int(x) for x in row] for row in gram.tolist()], int(dgram)
    (UA, UB), du = _over_one_denominator(u.a.entries(), u.b.entries())
    (GA, GB), dg = _over_one_denominator(g.a.entries(), g.b.entries())
    ((C1A, C1B, C2A, C2B, C3),), dc = _over_one_denominator([c1.a, c1.b, c2.a, c2.b, form.c3])
    # the terms' denominators: c1·Gc over dc·dgram, c2·u uᵀ over dc·du²·rq, c3·(g uᵀ + u gᵀ)
    # over dc·dg·du·rq (r = rp/rq written out); each scaled to den, their product's
    m1, m2, m3 = rq * du * du * dg, dgram * dg, dgram * du
    den = dc * rq * dgram * du * du * dg
    # A·den = K1·G + K2·UA UAᵀ + K3·UB UBᵀ + K4·(UA UBᵀ + UB UAᵀ) + K5·(GA UAᵀ + UA GAᵀ)
    #         + K6·(GB UBᵀ + UB GBᵀ), and B·den likewise with the L's; grouped by row
    # below, five products an entry
    K1, K2, K3, K4 = C1A * m1, C2A * rq * m2, C2A * rp * m2, C2B * rp * m2
    K5, K6 = C3 * rq * m3, C3 * rp * m3
    L1, L2, L3, L4, L5 = C1B * m1, C2A * rq * m2, C2B * rq * m2, C2B * rp * m2, C3 * rq * m3
    d = len(UA)
    a_num, b_num = [[0] * d for _ in range(d)], [[0] * d for _ in range(d)]
    for i in range(d):
        ua, ub, ga, gb, row = UA[i], UB[i], GA[i], GB[i], G[i]
        a1, a2, a3, a4 = K2 * ua + K4 * ub + K5 * ga, K3 * ub + K4 * ua + K6 * gb, K5 * ua, K6 * ub
        b1, b2, b3, b4 = L2 * ub + L3 * ua + L5 * gb, L2 * ua + L4 * ub + L5 * ga, L5 * ub, L5 * ua
        for j in range(i, d):  # H is symmetric
            a_num[i][j] = a_num[j][i] = K1 * row[j] + a1 * UA[j] + a2 * UB[j] + a3 * GA[j] + a4 * GB[j]
            b_num[i][j] = b_num[j][i] = L1 * row[j] + b1 * UA[j] + b2 * UB[j] + b3 * GA[j] + b4 * GB[j]
    return [x for row in a_num for x in row], [x for row in b_num for x in row], den, rp, rq


def _over_one_denominator(*parts) -> tuple[list[list[int]], int]:
    """Lists of fmpq as integer lists over their common denominator D (x = X/D)."""
    from math import lcm

    D = lcm(*(int(x.q) for part in parts for x in part))
    return [[int(x.p) * (D // int(x.q)) for x in part] for part in parts], D


def _rounded(a_num: list[int], b_num: list[int], den: int, rp: int, rq: int) -> list[float]:
    """(A + B·√(rp/rq))/den for each pair, to the nearest float but for an error below
    2⁻²¹⁸·|B√r|/den (√r from one integer square root, as in surd_floats)."""
    from math import isqrt

    k = 220 + max(0, (rq.bit_length() - rp.bit_length()) // 2 + 1)  # √r·2^k ≥ 2^219
    root = isqrt((rp << (2 * k)) // rq)
    return [((a << k) + b * root) / (den << k) if b else a / den for a, b in zip(a_num, b_num)]


def surd_floats(value) -> list[float]:
    """The entries a + b·√r of a Surd matrix as floats, from one rational √r within a
    relative 2⁻²¹⁹ (about the 60 digits Surd.__float__ works to, without an mpmath
    number per entry): each entry is off by less than 2⁻²¹⁸·|b√r| before its one
    rounding (int / int rounds the exact quotient), far under the float64 round-off
    the comparison allows."""
    k, root = _scaled_root(value.r)
    return [_surd_entry(a, b, k, root) for a, b in zip(value.a.entries(), value.b.entries())]


def surd_float(value) -> float:
    """A scalar Surd as surd_floats rounds it (Surd.__float__ would import mpmath, 0.02 s)."""
    return _surd_entry(value.a, value.b, *_scaled_root(value.r))


def _scaled_root(r) -> tuple[int, int]:
    """(k, ⌊√r·2^k⌋) with √r·2^k ≥ 2^219."""
    from math import isqrt

    rp, rq = int(r.p), int(r.q)
    k = 220 + max(0, (rq.bit_length() - rp.bit_length()) // 2 + 1)  # bits of √r kept below 1
    return k, isqrt((rp << (2 * k)) // rq)  # √r·2^k, from below, within 2


def _surd_entry(a, b, k: int, root: int) -> float:
    ap, aq, bp, bq = int(a.p), int(a.q), int(b.p), int(b.q)
    if bp == 0:
        return ap / aq
    return (((ap * bq) << k) + bp * root * aq) / ((aq * bq) << k)


def beyond_floats(where: str) -> Report:
    """The cross-check that could not be made: the instance's values are beyond what
    float64 carries through autodiff (`where` says which)."""
    return Report(device="", points=[], skipped=f"the instance's values are beyond float64's range ({where}); "
                  "the exact verdict and its certificate do not depend on floats")


def compare(neurons: list[Neuron], points: list[Point], answer: dict) -> Report:
    try:
        return _compare(neurons, points, answer)
    except (OverflowError, ZeroDivisionError):
        return beyond_floats("a term overflows float64")


def _flat(value) -> list:
    return [x for v in value for x in _flat(v)] if isinstance(value, list) else [value]


def _compare(neurons: list[Neuron], points: list[Point], answer: dict) -> Report:
    n, d = len(neurons), neurons[0].d
    with_hessians = n * d <= MAX_HESSIAN_WEIGHTS
    report = Report(device=answer.get("device", "?"), points=[p.label for p in points])
    batches = {}  # neuron index: X and y in floats, ‖X‖
    zero = [0.0] * (d * d)

    def check(what: str, numeric, exact, scale: float) -> None:
        numeric, exact = [float(x) for x in _flat(numeric)], [float(x) for x in _flat(exact)]
        if len(numeric) != len(exact):
            raise ValueError(f"the JAX worker's {what} has {len(numeric)} values, not {len(exact)}")
        if not all(map(math.isfinite, numeric)):
            err = math.inf
        else:
            diffs = [abs(a - b) for a, b in zip(numeric, exact)]
            if not all(map(math.isfinite, diffs)):
                raise OverflowError(what)
            err = max(diffs, default=0.0) / scale
        report.compared += len(exact)
        if err > report.worst or report.worst_what == "":
            report.worst, report.worst_what = max(err, report.worst), what

    for point, result in zip(points, answer["points"]):
        grad_C, grad_hat = result["grad_C"], result["grad_C_hat"]
        hess_C = result["hess_C"] if with_hessians else None
        hess_hat = result["hess_C_hat"] if with_hessians else None
        total_C = total_hat = 0.0
        scale_C = scale_hat = 0.0
        for j, (neuron, w) in enumerate(zip(neurons, point.rows)):
            if j not in batches:
                batches[j] = _batch(neuron)
            scales = _scales(neuron, w, batches[j])
            large = max(scales.values())
            if not large <= MAX_TERM:  # before the exact values' floats, which may not exist
                return beyond_floats(f"terms of size {large:.3g} at {point.label}")
            exact = _exact(neuron, w, with_hessians)
            total_C += exact["C"]
            total_hat += exact["C_hat"]
            scale_C += scales["C"]
            scale_hat += scales["C_hat"]
            tag = f"at {point.label}, neuron {j + 1}"
            check(f"∇C {tag}", grad_C[j], exact["grad_C"], scales["grad_C"])
            check(f"∇Ĉ {tag}", grad_hat[j], exact["grad_C_hat"], scales["grad_C_hat"])
            if with_hessians:
                for k in range(n):
                    same = k == j
                    # the (j, k) block of the (n, d, n, d) Hessian, row by row
                    block_C = [hess_C[j][a][k] for a in range(d)]
                    block_hat = [hess_hat[j][a][k] for a in range(d)]
                    check(f"∇²C {tag}" + ("" if same else f" × neuron {k + 1}"),
                          block_C, exact["hess_C"] if same else zero, scales["hess_C"])
                    check(f"∇²Ĉ {tag}" + ("" if same else f" × neuron {k + 1}"),
                          block_hat, exact["hess_C_hat"] if same else zero, scales["hess_C_hat"])
        check(f"C at {point.label}", result["C"], total_C, scale_C)
        check(f"Ĉ at {point.label}", result["C_hat"], total_hat, scale_hat)
    return report


def points_for(report) -> list[Point]:
    """The points whose exact values a Lemma 4.5 report shows: W*, the BN
    optimum direction b, the closest Ŵ* and W0 (where σ ≠ 0 for every neuron)."""
    neurons = report.neurons
    points = [Point("W*", [n.standard.w for n in neurons])]
    points.append(Point("b", [n.bn.direction if not n.bn.constant else n.standard.w
                              for n in neurons]))
    if all(n.closest.point is not None for n in neurons):
        points.append(Point("closest Ŵ*", [n.closest.point for n in neurons]))
    try:
        for n in neurons:
            n.neuron.bn_loss(n.w0)  # DegenerateInstance where σ = 0, from the moments (not from X)
        points.append(Point("W0", [n.w0 for n in neurons]))
    except DegenerateInstance:
        pass
    return points


def ensure(report: Report) -> Report:
    if report.skipped is None and not report.ok:
        raise Disagreement(
            f"exact and numeric layers disagree: {report.worst_what} is off by "
            f"{report.worst:.2e} of its scale (tolerance {RTOL:.0e}); please report this bug"
        )
    return report


