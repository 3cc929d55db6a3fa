"""The certificate of a Lemma 4.5 verdict (format version 1).

Every number is an exact rational string; the checker recomputes each
witness from the instance with its own formulas and compares."""

from __future__ import annotations

from .. import __version__
from ..claims import lemma45
from ..exact.linalg import rows_of, to_fraction
from .io import FORMAT, VERSION, seal


def _q(x) -> str:
    return str(to_fraction(x))


def _vec(v) -> list[str]:
    return [_q(x) for x in v.entries()]


def _neuron(n: lemma45.NeuronReport) -> dict:
    if n.bn.constant:
        bn = {"kind": "constant"}
    else:
        bn = {
            "kind": "ray",
            "direction": _vec(n.bn.direction),
            "kernel": [] if n.bn.kernel is None else [_vec(col) for col in _columns(n.bn.kernel)],
        }
    grad = n.grad_bn_at_w_star
    return {
        "W_star": _vec(n.standard.w),
        "bn_optimum": bn,
        "closest_bn_optimum": None if n.closest.point is None else _vec(n.closest.point),
        # ∇Ĉ(W*) = rational + coefficients·√radicand, entrywise
        "grad_bn_at_W_star": {
            "rational": _vec(grad.a),
            "coefficients": _vec(grad.b),
            "radicand": _q(grad.r),
        },
        "inner_W0_W_star": _q(n.inner),
        "lhs": _q(n.lhs),
        "rhs": None if n.rhs is None else _q(n.rhs),
        "residual": None if n.residual is None else _q(n.residual),
        "verdict": n.verdict,
    }


def _columns(mat):
    import flint

    return [flint.fmpq_mat([[row[k]] for row in rows_of(mat)]) for k in range(mat.ncols())]


OBLIGATIONS = [
    ("normal-equations", "Xᵀ X W* = Xᵀ y: W* is a critical point of C"),
    ("unique-minimum", "Xᵀ X is positive definite: W* is the unique global minimum of C"),
    ("bn-optimum-set", "the stated ray (or constancy) satisfies the characterization of the local minima of Ĉ"),
    ("closest-bn-optimum", "the stated point is the nearest point of the BN optimum set to W0"),
    ("grad-bn-at-W-star", "∇Ĉ(W*) equals the stated value and is nonzero"),
    ("hypothesis", "the sign of ⟨W0, W*⟩"),
    ("residual", "RHS − LHS of the printed inequality, and its sign"),
]


def build(report: lemma45.Report) -> dict:
    document = {
        "format": FORMAT,
        "version": VERSION,
        "bnproof_version": __version__,
        "claim": {"id": lemma45.ID, "source": lemma45.SOURCE, "statement": lemma45.STATEMENT},
        "instance": _instance(report.instance),
        "witnesses": {"neurons": [_neuron(n) for n in report.neurons]},
        "obligations": [
            {"neuron": j, "fact": fact} for j in range(report.instance.n) for fact, _ in OBLIGATIONS
        ],
        "verdict": report.verdict,
    }
    return seal(document)


def _instance(inst) -> dict:
    return {
        "X": [[str(x) for x in row] for row in inst.X],
        "Y": [[str(x) for x in row] for row in inst.Y],
        "W0": [[str(x) for x in row] for row in inst.W0],
        "gamma": [str(x) for x in inst.gamma],
        "beta": [str(x) for x in inst.beta],
        "loss": inst.loss,
    }
