"""The certificate of a Lemma 4.5 verdict (format version 2).

Witnesses in the most compact exact form the checker verifies: W* (unique) as
rationals; the kernel of Xc as integer vectors in echelon form over one common
factor; per neuron
the BN optimum direction as a primitive integer vector and the projection of W0 onto
the kernel.  Everything else (distances, the residual, the verdicts) the checker
recomputes.  Built only if the checker accepts it."""

from __future__ import annotations

from fractions import Fraction
from math import gcd, lcm

import flint

from .. import __version__
from ..claims import lemma45
from ..exact.linalg import to_fraction
from .io import FORMAT, VERSION, checked, seal

FACTS = ("normal-equations", "unique-minimum", "bn-optimum-set", "closest-bn-optimum",
         "hypothesis", "residual")


def _q(x) -> str:
    return str(to_fraction(x))


def _rationals(v) -> list[str]:
    return [_q(x) for x in v.entries()]


def _primitive(values) -> list[str]:
    """The positive multiple of a rational vector with coprime integer entries."""
    values = [to_fraction(x) for x in values]
    scale = lcm(1, *(x.denominator for x in values))
    ints = [int(x * scale) for x in values]
    g = gcd(*ints) or 1
    return [str(x // g) for x in ints]


def _kernel(mat) -> list[list[str]]:
    """The engine's basis (the columns: a 1 at each vector's own free coordinate, 0 at the
    others') times one common factor, the smallest that makes it integer: echelon form
    with a common pivot value, as the checker wants it."""
    if mat is None:
        return []
    values = [to_fraction(x) for x in mat.entries()]  # row by row
    scale = lcm(1, *(x.denominator for x in values))
    ints = [int(x * scale) for x in values]
    g, k = gcd(*ints) or 1, mat.ncols()
    return [[str(ints[r * k + c] // g) for r in range(mat.nrows())] for c in range(k)]


def _projection(kernel, w0):
    """The orthogonal projection of w0 onto the span of the kernel's columns."""
    if kernel is None:
        return flint.fmpq_mat(w0.nrows(), 1)
    return kernel * (kernel.transpose() * kernel).solve(kernel.transpose() * w0)


def _neuron(n: lemma45.NeuronReport) -> dict:
    if n.bn.constant:
        bn = {"kind": "constant"}
    else:
        bn = {"kind": "ray", "direction": _primitive(n.bn.direction.entries()),
              "projection": _rationals(_projection(n.bn.kernel, n.w0))}
    return {"W_star": _rationals(n.standard.w), "bn_optimum": bn, "verdict": n.verdict}


def build(report: lemma45.Report) -> dict:
    """The sealed certificate; CheckerRefused if the independent checker rejects it."""
    return checked(unchecked(report))


def unchecked(report: lemma45.Report) -> dict:
    """The sealed certificate, not yet shown to the checker: for a writer that has the
    checker read the exact bytes it writes (_api/verify.py), so that it runs once."""
    kernel = report.neurons[0].bn.kernel  # ker Xc: one for every neuron
    document = {
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "claim": {"id": lemma45.ID, "source": lemma45.SOURCE, "statement": lemma45.STATEMENT},
        "instance": _instance(report.instance),
        "witnesses": {
            "kernel": _kernel(kernel),
            "neurons": [_neuron(n) for n in report.neurons],
        },
        "obligations": [{"neuron": j, "fact": fact} for j in range(report.instance.n) for fact in FACTS],
        "verdict": report.verdict,
    }
    return seal(document)


def _instance(inst) -> dict:
    def s(x) -> str:  # an int prints as its Fraction does, without making one
        return str(x) if type(x) is int else str(Fraction(x))

    return {
        "X": [[s(x) for x in row] for row in inst.X],
        "Y": [[s(x) for x in row] for row in inst.Y],
        "W0": [[s(x) for x in row] for row in inst.W0],
        "gamma": [s(x) for x in inst.gamma],
        "beta": [s(x) for x in inst.beta],
        "loss": inst.loss,
    }
