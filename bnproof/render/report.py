"""A Lemma 4.5 report for people (rich text) and for scripts (one JSON object).

Exact values are SymPy strings ("-54*sqrt(74)/1369"); floats sit beside them
under keys ending in ``_float``.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from ..claims import lemma45
from ..exact.linalg import rows_of, to_fraction
from ..exact.optima import describe_ray
from ..exact.surd import Surd
from ..exact.symbolic import ClosedForms, closed_forms


@dataclass(frozen=True)
class Extras:
    """What the command adds around the exact analysis."""

    crosscheck: object | None  # numeric.crosscheck.Report, or None when skipped
    certificate: str | None
    certificate_line: str | None  # the checker's verdict on it


def exact(value) -> sympy.Expr:
    if isinstance(value, Surd):
        return value.to_sympy()
    f = to_fraction(value)
    return sympy.Rational(f.numerator, f.denominator)


def s(value) -> str:
    return sympy.sstr(value if isinstance(value, sympy.Basic) else exact(value))


def constant_first(expr) -> str:
    """'201 - (38*w1 + 66*w2)/sqrt(…)' rather than SymPy's constant-last order."""
    const, rest = expr.as_coeff_Add()
    if const == 0:
        return s(expr)
    text = s(rest)
    return f"{s(const)} - {text[1:]}" if text.startswith("-") else f"{s(const)} + {text}"


def summed(scale, terms) -> str:
    """s·(t1 + t2 + …) in sample order, which SymPy's own printing would sort away."""
    body = " + ".join(s(t) for t in terms)
    return body if scale == 1 else f"({s(scale)})*({body})"


def vec(v) -> list[str]:
    if isinstance(v, Surd):
        return [s(e) for e in v.entries()]
    return [s(x) for x in v.entries()]


def fvec(v) -> list[float]:
    if isinstance(v, Surd):
        return v.to_floats()
    return [float(to_fraction(x)) for x in v.entries()]


def paren(items: list[str]) -> str:
    return "(" + ", ".join(items) + ")"


def _neuron_json(n: lemma45.NeuronReport, forms: ClosedForms) -> dict:
    names = [str(w) for w in forms.w]
    bn = n.bn
    out = {
        "mu": s(forms.mu),
        "sigma": s(forms.sigma),
        "C": s(forms.loss),
        "C_hat": constant_first(forms.bn_loss_reduced),
        "W_star": vec(n.standard.w),
        "grad_C_at_W_star": vec(n.standard.grad),
        "hessian_C": [[s(x) for x in row] for row in rows_of(n.standard.hessian)],
        "hessian_C_positive_definite": n.standard.is_unique_minimum,
        "C_at_W_star": s(n.standard.loss),
        "C_hat_at_W_star": s(n.loss_bn_at_w_star),
        "grad_bn_at_W_star": vec(n.grad_bn_at_w_star),
        "grad_bn_at_W_star_float": fvec(n.grad_bn_at_w_star),
        "bn_optimum_direction": None if bn.constant else vec(bn.direction),
        "bn_optimum_set": describe_ray(bn, names),
        "bn_optimum_kernel": [] if bn.kernel is None else [
            [s(x) for x in row] for row in rows_of(bn.kernel.transpose())],
        "bn_first_order_ok": bn.first_order_ok,
        "bn_second_order_ok": bn.second_order_ok,
        "min_C_hat": s(bn.minimum),
        "min_C_hat_float": float(bn.minimum) if isinstance(bn.minimum, Surd) else float(to_fraction(bn.minimum)),
        "closest_bn_optimum": None if n.closest.point is None else vec(n.closest.point),
        "closest_bn_optimum_float": None if n.closest.point is None else fvec(n.closest.point),
        "closest_bn_optimum_attained": n.closest.point is not None,
        "inner_W0_W_star": s(n.inner),
        "lhs": s(n.lhs),
        "rhs": None if n.rhs is None else s(n.rhs),
        "residual": None if n.residual is None else s(n.residual),
        "lhs_float": float(to_fraction(n.lhs)),
        "rhs_float": None if n.rhs is None else float(to_fraction(n.rhs)),
        "residual_float": None if n.residual is None else float(to_fraction(n.residual)),
        "verdict": n.verdict,
    }
    return out


def to_json(report: lemma45.Report, forms: list[ClosedForms], extras: Extras) -> dict:
    neurons = [_neuron_json(n, f) for n, f in zip(report.neurons, forms)]
    keys = ["W_star", "grad_bn_at_W_star", "grad_bn_at_W_star_float", "bn_optimum_direction",
            "closest_bn_optimum", "closest_bn_optimum_float", "lhs", "rhs", "residual",
            "lhs_float", "rhs_float", "residual_float"]
    top = {k: (neurons[0][k] if len(neurons) == 1 else [n[k] for n in neurons]) for k in keys}
    inst = report.instance
    out = {
        "claim": lemma45.ID,
        "source": lemma45.SOURCE,
        "statement": lemma45.STATEMENT,
        "instance": {"name": inst.name, "m": inst.m, "d": inst.d, "n": inst.n, "loss": inst.loss,
                     **inst.to_json()},
        "verdict": report.verdict,
        **top,
        "neurons": neurons,
        "certificate": extras.certificate,
        "certificate_check": extras.certificate_line,
    }
    cc = extras.crosscheck
    out["crosscheck"] = None if cc is None else {
        "backend": "jax float64 autodiff", "device": cc.device, "points": cc.points,
        "values_compared": cc.compared, "max_scaled_error": cc.worst, "tolerance": 1e-10,
        "ok": cc.ok,
    }
    return out


VERDICT_TEXT = {
    lemma45.REFUTED: "[bold red]REFUTED[/]: the inequality of Lemma 4.5 fails on this instance (exact).",
    lemma45.HOLDS: "[bold green]HOLDS[/] on this instance (exact). One instance is not a proof of the Lemma.",
    lemma45.HYPOTHESIS_NOT_MET: "[bold yellow]HYPOTHESIS NOT MET[/]: ⟨W0, W*⟩ ≤ 0, so Lemma 4.5 says nothing here.",
}


def _approx(v) -> str:
    return paren([f"{x:.4f}" for x in fvec(v)])


# Exact values longer than this are shown rounded in the human report; --json has them all.
MAX_SHOWN = 48
MAX_FORM_SHOWN = 400


def show(value, short: list) -> str:
    text = s(value)
    if len(text) <= MAX_SHOWN:
        return text
    short.append(True)
    return f"≈ {float(exact(value)):.6g}"


def show_vec(v, short: list) -> str:
    texts = vec(v)
    if max(len(t) for t in texts) <= MAX_SHOWN // 2:
        return paren(texts)
    short.append(True)
    return "≈ " + _approx(v)


def with_approx(v, short: list) -> str:
    text = show_vec(v, short)
    return text if text.startswith("≈") else f"{text} ≈ {_approx(v)}"


def show_form(expr, short: list, render=None) -> str:
    text = render(expr) if render else s(expr)
    if len(text) <= MAX_FORM_SHOWN:
        return text
    short.append(True)
    return f"({len(text)} characters; in --json)"


def to_text(report: lemma45.Report, forms: list[ClosedForms], extras: Extras) -> list[str]:
    """Lines of rich markup."""
    inst = report.instance
    lines = [
        f"[bold]Lemma 4.5[/] ({lemma45.TITLE}) — Santurkar et al. (2018), p. 8",
        "  ‖W0 − Ŵ*‖² ≤ ‖W0 − W*‖² − (‖W*‖² − ⟨W*, W0⟩)²/‖W*‖²   if ⟨W0, W*⟩ > 0",
        "",
        f"[bold]Setting[/]: {inst.name}",
        f"  one linear layer, zero bias, identity activation: m = {inst.m} samples, "
        f"d = {inst.d} inputs, n = {inst.n} neuron{'s' if inst.n > 1 else ''}; "
        f"{'sums' if inst.loss == 'sum' else 'means'} of squares; BN with biased σ, no ε",
    ]
    short: list = []
    for n, f in zip(report.neurons, forms):
        lines += _neuron_text(n, f, inst, short)
    if short:
        lines.append("")
        lines.append("Long exact values are shown rounded (≈); `--json` carries every one exactly.")
    lines.append("")
    lines.append("[bold]Verdict[/]: " + VERDICT_TEXT[report.verdict])
    cc = extras.crosscheck
    if cc is None:
        lines.append("Cross-check: skipped (--no-crosscheck)")
    else:
        lines.append(
            f"Cross-check: JAX float64 autodiff on {cc.device} at {', '.join(cc.points)}: "
            f"{cc.compared} values agree, max scaled error {cc.worst:.1e} (tolerance 1e-10) ✓"
        )
    if extras.certificate:
        lines.append(f"Certificate: {extras.certificate} — {extras.certificate_line}")
    return lines


def _neuron_text(n: lemma45.NeuronReport, f: ClosedForms, inst, short: list) -> list[str]:
    names = [str(w) for w in f.w]
    j = n.index
    head = "" if inst.n == 1 else f" — neuron {j + 1}"
    rows = rows_of(n.neuron.X)
    lines = ["", f"[bold]Instance{head}[/]"]
    if inst.m <= 12 and inst.d <= 6:
        lines.append("  X = [" + "; ".join(" ".join(s(x) for x in r) for r in rows) + "]")
        lines.append("  y = " + paren(vec(n.neuron.y)))
    lines.append(f"  W0 = {show_vec(n.w0, short)},  γ = {show(n.neuron.gamma, short)},  "
                 f"β = {show(n.neuron.beta, short)}")
    lines += [
        "",
        f"[bold]Batch statistics and losses[/]  (w = {paren(names) if len(names) <= 6 else f'(w1, …, w{len(names)})'})",
        f"  μ(w) = {show_form(f.mu, short)}",
        f"  σ(w) = {show_form(f.sigma, short)}",
    ]
    scale = n.neuron.scale
    if f.loss_terms is not None:
        lines.append(f"  C(w) = {show_form(f.loss_terms, short, lambda t: summed(scale, t))}")
        lines.append(f"  Ĉ(w) = {show_form(f.bn_loss_terms, short, lambda t: summed(scale, t))}")
        lines.append(f"       = {show_form(f.bn_loss_reduced, short, constant_first)}")
    else:
        lines.append(f"  C(w) = {show_form(f.loss, short)}")
        lines.append(f"  Ĉ(w) = {show_form(f.bn_loss_reduced, short, constant_first)}")
    std = n.standard
    pivots = ", ".join(show(p, short) for p in std.pivots) if len(std.pivots) <= 4 else "all > 0"
    lines += [
        "",
        "[bold]Standard optimum W*[/]",
        f"  W* = {show_vec(std.w, short)}   (normal equations XᵀX w = Xᵀy, exact)",
        f"  ∇C(W*) = {show_vec(std.grad, short)} {tick(all(x == 0 for x in std.grad.entries()))};  "
        f"∇²C positive definite (pivots {pivots}) {tick(std.is_unique_minimum)}",
        f"  → unique global minimum, C(W*) = {show(std.loss, short)}",
        "",
        "[bold]BN optima Ŵ*[/]",
        f"  ∇Ĉ(W*) = {with_approx(n.grad_bn_at_w_star, short)}"
        + ("  ≠ 0: W* is not a BN optimum" if not n.grad_bn_at_w_star.is_zero() else "  = 0"),
        f"  Ĉ(W*) = {show(n.loss_bn_at_w_star, short)}",
    ]
    bn = n.bn
    if bn.constant:
        lines.append("  Ĉ is constant (γ = 0 or centred targets orthogonal to the centred data): "
                     "every w with σ(w) ≠ 0 is a global minimum")
    else:
        lines += [
            f"  local minima: {describe_ray(bn, names) if len(names) <= 2 else 'the open ray t·b, t > 0'}"
            f"   (direction b = {show_vec(bn.direction, short)})",
            "    derived: Ĉ(w) = const − 2γ⟨c, w⟩/σ(w) is scale invariant; its only critical "
            "directions are ±b, b the centred least-squares direction",
            f"    ∇Ĉ(b) = 0 ✓ exact; ∇²Ĉ(b)·b = 0 (scale invariance) "
            f"{'✓' if bn.flat_directions_ok else '✗'}; ∇²Ĉ positive definite across the ray "
            f"{'✓' if bn.second_order_ok else '✗'}"
            + (f" (pivots {', '.join(show(p, short) for p in bn.pivots)})"
               if bn.pivots and len(bn.pivots) <= 4 else ""),
            "    (∇Ĉ(tb) = ∇Ĉ(b)/t and ∇²Ĉ(tb) = ∇²Ĉ(b)/t², so this holds on the whole ray)",
        ]
    lines.append(f"  min Ĉ = {show(bn.minimum, short)}"
                 + ("" if len(s(bn.minimum)) > MAX_SHOWN else f" ≈ {float(exact(bn.minimum)):.4f}"))
    if n.closest.point is not None:
        lines.append(f"  closest to W0: Ŵ* = {with_approx(n.closest.point, short)}")
    else:
        lines.append("  closest to W0: not attained (⟨W0, b⟩ ≤ 0); the infimum of the distance is used")
    lines += [
        "",
        f"[bold]Lemma 4.5{head}[/]",
        f"  hypothesis ⟨W0, W*⟩ = {show(n.inner, short)} "
        + ("> 0 ✓" if n.inner > 0 else "≤ 0 ✗ (not met)"),
        f"  LHS  ‖W0 − Ŵ*‖² = {_scalar_with_approx(n.lhs, short)}",
    ]
    if n.rhs is None:
        lines.append("  RHS  undefined: W* = 0")
    else:
        lines.append(f"  RHS  ‖W0 − W*‖² − (‖W*‖² − ⟨W*, W0⟩)²/‖W*‖² = "
                     f"{_scalar_with_approx(n.rhs, short)}")
        sign = "< 0" if n.residual < 0 else "≥ 0"
        lines.append(f"  residual RHS − LHS = {_scalar_with_approx(n.residual, short)} {sign} (exact)")
    return lines


def tick(ok: bool) -> str:
    return "✓" if ok else "✗"


def _scalar_with_approx(value, short: list) -> str:
    text = show(value, short)
    return text if text.startswith("≈") else f"{text} ≈ {float(to_fraction(value)):.4f}"


def forms_for(report: lemma45.Report) -> list[ClosedForms]:
    return [closed_forms(n.neuron) for n in report.neurons]
