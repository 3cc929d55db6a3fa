"""A Lemma 4.5 report for people (rich text) and for scripts (one JSON object).

In the JSON, exact values are in SymPy's printed form ("-54*sqrt(74)/1369");
floats sit beside them under keys ending in ``_float``.  The report for people
typesets the same strings (−54√74/1369, see unicode_math) and wraps long
formulas at the terminal's width.  The strings are written by exact_text
without importing SymPy (the import alone took longer than the whole exact
derivation); SymPy writes them only where exact_text cannot be sure of its
text (see there).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from ..claims import lemma45
from ..exact.linalg import rows_of, to_fraction
from ..exact.optima import describe_ray
from ..exact.surd import Surd
from . import exact_text, unicode_math
from .markup import escape
from .exact_text import FormsText


@dataclass(frozen=True)
class Extras:
    """What the command adds around the exact analysis."""

    crosscheck: object | None  # numeric.crosscheck.Report, or None when skipped
    certificate: str | None
    certificate_line: str | None  # the checker's verdict on it


def exact(value):
    """An exact value as a SymPy number (imports SymPy)."""
    import sympy

    if isinstance(value, Surd):
        return value.to_sympy()
    f = to_fraction(value)
    return sympy.Rational(f.numerator, f.denominator)


def s(value) -> str:
    """SymPy's printed form of an exact value; a closed form is already text."""
    if isinstance(value, str):
        return value
    if not type(value).__module__.startswith("sympy"):
        try:
            return exact_text.number(value)
        except exact_text.Unsupported:
            value = exact(value)
    import sympy

    return sympy.sstr(value)


def constant_first(expr) -> str:
    """'201 - (38*w1 + 66*w2)/sqrt(…)' rather than SymPy's constant-last order
    (for a SymPy expression; exact_text writes its forms in this order)."""
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


def fvec(v) -> list[float | str]:
    """Each entry as a float, or in scientific form where no float holds it."""
    return [exact_text.approximation(x) for x in v.entries()]


def paren(items: list[str]) -> str:
    return "(" + ", ".join(items) + ")"


def _neuron_json(n: lemma45.NeuronReport, forms: FormsText) -> dict:
    names = list(forms.w)
    bn = n.bn
    out = {
        "mu": s(forms.mu),
        "sigma": s(forms.sigma),
        "C": s(forms.loss),
        "C_hat": forms.bn_loss_reduced,
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
        "min_C_hat_float": exact_text.approximation(bn.minimum),
        "closest_bn_optimum": None if n.closest.point is None else vec(n.closest.point),
        "closest_bn_optimum_float": None if n.closest.point is None else fvec(n.closest.point),
        "closest_bn_optimum_attained": n.closest.point is not None,
        "inner_W0_W_star": s(n.inner),
        "lhs": s(n.lhs),
        "rhs": None if n.rhs is None else s(n.rhs),
        "residual": None if n.residual is None else s(n.residual),
        "lhs_float": exact_text.approximation(n.lhs),
        "rhs_float": None if n.rhs is None else exact_text.approximation(n.rhs),
        "residual_float": None if n.residual is None else exact_text.approximation(n.residual),
        "verdict": n.verdict,
    }
    return out


# The neurons' JSON of the last report written, with weak hold of that report:
# VerifyResult.of reads W*, ∇Ĉ(W*) and Ŵ* from it and `verify --json` prints it
# around the checker's line, and writing its numbers (3400-bit rationals at
# m = 1000, d = 64) costs nearly a second, so it is written once per report.
_last: tuple = (lambda: None, None, None)


def _neurons_json(report: lemma45.Report, forms: list[FormsText]) -> list[dict]:
    global _last
    held, held_forms, neurons = _last
    if held() is not report or held_forms is not forms:
        neurons = [_neuron_json(n, f) for n, f in zip(report.neurons, forms)]
        _last = (weakref.ref(report), forms, neurons)
    return _copy(neurons)  # a caller may edit its object: never the one kept here


def _copy(value):
    """A JSON value's containers copied (its strings and numbers are immutable)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def top_json(report: lemma45.Report, forms: list[FormsText], neurons: list[dict] | None = None) -> dict:
    """The report's top-level values (W*, ∇Ĉ(W*), Ŵ*, the sides), one neuron's or a list:
    to_json's without the instance, which VerifyResult.of does not need (65,000 numbers
    written as text at m = 1000, d = 64)."""
    neurons = _neurons_json(report, forms) if neurons is None else neurons
    keys = ["W_star", "grad_bn_at_W_star", "grad_bn_at_W_star_float", "bn_optimum_direction",
            "closest_bn_optimum", "closest_bn_optimum_float", "lhs", "rhs", "residual",
            "lhs_float", "rhs_float", "residual_float"]
    return {k: (neurons[0][k] if len(neurons) == 1 else [n[k] for n in neurons]) for k in keys}


def to_json(report: lemma45.Report, forms: list[FormsText], extras: Extras) -> dict:
    neurons = _neurons_json(report, forms)
    top = top_json(report, forms, neurons)
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
    out["crosscheck"] = crosscheck_json(extras.crosscheck)
    return out


def crosscheck_json(cc) -> dict | None:
    """The JAX cross-check's object in the JSON report (None where it did not run)."""
    if cc is not None and cc.skipped is not None:
        return {"backend": "jax float64 autodiff", "ok": None, "skipped": cc.skipped}
    return None if cc is None else {
        "backend": "jax float64 autodiff", "device": cc.device, "points": cc.points,
        "values_compared": cc.compared, "max_scaled_error": cc.worst, "tolerance": 1e-10,
        "ok": cc.ok,
    }


VERDICT_TEXT = {
    lemma45.REFUTED: "[bold red]REFUTED[/]: the inequality of Lemma 4.5 fails on this instance (exact).",
    lemma45.HOLDS: "[bold green]HOLDS[/] on this instance (exact). One instance is not a proof of the Lemma.",
    lemma45.HYPOTHESIS_NOT_MET: "[bold yellow]HYPOTHESIS NOT MET[/]: ⟨W0, W*⟩ ≤ 0, so Lemma 4.5 says nothing here.",
}


class Shown:
    """How the report is being written: Unicode math or the ASCII printed form,
    the width formulas wrap at, and whether a long value had to be rounded."""

    def __init__(self, unicode: bool, columns: int):
        self.unicode, self.columns, self.rounded = unicode, columns, False

    def m(self, text: str) -> str:
        return unicode_math.math(text) if self.unicode else text

    def formula(self, head: str, text: str) -> list[str]:
        # the head as it will be printed, so that continuation lines align under the formula
        head = head if self.unicode else unicode_math.ascii_line(head)
        return unicode_math.wrap(head, self.m(text), self.columns)


def _approx(v, out: Shown) -> str:
    return out.m(paren([exact_text.approx_text(x, ".4f") for x in v.entries()]))


# Exact values longer than this are shown rounded in the human report; --json has them all.
MAX_SHOWN = 48
MAX_FORM_SHOWN = 400


def show(value, out: Shown) -> str:
    text = s(value)
    if len(text) <= MAX_SHOWN:
        return out.m(text)
    out.rounded = True
    return out.m(f"≈ {exact_text.approx_text(value, '.6g')}")


def show_vec(v, out: Shown) -> str:
    texts = vec(v)
    if max(len(t) for t in texts) <= MAX_SHOWN // 2:
        return out.m(paren(texts))
    out.rounded = True
    return "≈ " + _approx(v, out)


def with_approx(v, out: Shown) -> str:
    text = show_vec(v, out)
    return text if text.startswith("≈") else f"{text} ≈ {_approx(v, out)}"


def show_form(head: str, expr, out: Shown, render=None) -> list[str]:
    """`head` and the formula, wrapped at its terms to the report's width."""
    text = render(expr) if render else s(expr)
    if len(text) <= MAX_FORM_SHOWN:
        return out.formula(head, text)
    out.rounded = True
    return [f"{head}({len(text)} characters; in --json)"]


def to_text(report: lemma45.Report, forms: list[FormsText], extras: Extras, *,
            unicode: bool | None = None, columns: int | None = None) -> list[str]:
    """Lines of rich markup.  `unicode` (default: whether stdout can show it)
    chooses typeset math or the ASCII printed form; formulas wrap at
    `columns` (default: the terminal's width)."""
    out = Shown(unicode_math.unicode_ok() if unicode is None else unicode,
                unicode_math.width() if columns is None else columns)
    inst = report.instance
    lines = [
        f"[bold]Lemma 4.5[/] ({lemma45.TITLE}) — Santurkar et al. (2018), p. 8",
        "  ‖W0 − Ŵ*‖² ≤ ‖W0 − W*‖² − (‖W*‖² − ⟨W*, W0⟩)²/‖W*‖²   if ⟨W0, W*⟩ > 0",
        "",
        f"[bold]Setting[/]: {escape(inst.name)}",  # the user's text, never markup
        f"  one linear layer, zero bias, identity activation: m = {inst.m} samples, "
        f"d = {inst.d} inputs, n = {inst.n} neuron{'s' if inst.n > 1 else ''}; "
        f"{'sums' if inst.loss == 'sum' else 'means'} of squares; BN with biased σ, no ε",
    ]
    for n, f in zip(report.neurons, forms):
        lines += _neuron_text(n, f, inst, out)
    if out.rounded:
        lines.append("")
        lines.append("Long exact values are shown rounded (≈); `--json` carries every one exactly.")
    lines.append("")
    lines.append("[bold]Verdict[/]: " + VERDICT_TEXT[report.verdict])
    cc = extras.crosscheck
    if cc is None:
        lines.append("Cross-check: skipped (--no-crosscheck)")
    elif cc.skipped is not None:
        lines.append(f"Cross-check: not made: {cc.skipped}")
    else:
        lines.append(
            f"Cross-check: JAX float64 autodiff on {cc.device} at {', '.join(cc.points)}: "
            f"{cc.compared} values agree, max scaled error {cc.worst:.1e} (tolerance 1e-10) ✓"
        )
    if extras.certificate:
        lines.append(f"Certificate: {escape(str(extras.certificate))} — {extras.certificate_line}")
    return lines if out.unicode else [unicode_math.ascii_line(line) for line in lines]


def _matrix(mat, out: Shown) -> str:
    """[a b; c d], rows separated by semicolons, as X is shown."""
    return out.m("[" + "; ".join(" ".join(s(x) for x in row) for row in rows_of(mat)) + "]")


def _neuron_text(n: lemma45.NeuronReport, f: FormsText, inst, out: Shown) -> list[str]:
    names = list(f.w)
    j = n.index
    head = "" if inst.n == 1 else f" — neuron {j + 1}"
    lines = ["", f"[bold]Instance{head}[/]"]
    if inst.m <= 12 and inst.d <= 6:
        lines.append(f"  X = {_matrix(n.neuron.X, out)}")
        lines.append("  y = " + out.m(paren(vec(n.neuron.y))))
    lines.append(f"  W0 = {show_vec(n.w0, out)},  γ = {show(n.neuron.gamma, out)},  "
                 f"β = {show(n.neuron.beta, out)}")
    ws = out.m(paren(names) if len(names) <= 6 else f"(w1, …, w{len(names)})")
    lines += ["", f"[bold]Batch statistics and losses[/]  (w = {ws})"]
    lines += show_form("  μ(w) = ", f.mu, out)
    lines += show_form("  σ(w) = ", f.sigma, out)
    scale = n.neuron.scale
    if f.loss_terms is not None:
        lines += show_form("  C(w) = ", f.loss_terms, out, lambda t: summed(scale, t))
        lines += show_form("  Ĉ(w) = ", f.bn_loss_terms, out, lambda t: summed(scale, t))
        lines += show_form("       = ", f.bn_loss_reduced, out)
    else:
        lines += show_form("  C(w) = ", f.loss, out)
        lines += show_form("  Ĉ(w) = ", f.bn_loss_reduced, out)
    std = n.standard
    coords = ", ".join(out.m(x) for x in names) if len(names) <= 6 else "w1, …, wd"
    pivots = (f"pivots {', '.join(show(p, out) for p in std.pivots)}" if len(std.pivots) <= 4
              else f"{len(std.pivots)} pivots, all > 0" if std.is_unique_minimum else "a pivot ≤ 0")
    lines += [
        "",
        "[bold]Standard optimum W*[/]",
        f"  W* = {show_vec(std.w, out)}   (normal equations XᵀX w = Xᵀy, exact)",
        f"  ∇C(W*) = {show_vec(std.grad, out)} {tick(all(x == 0 for x in std.grad.entries()))};  "
        f"∇²C positive definite {tick(std.is_unique_minimum)} ({pivots} of ∇²C in the coordinates "
        f"{coords}, symmetric elimination in that order)",
        f"  → unique global minimum, C(W*) = {show(std.loss, out)}",
        "",
        "[bold]BN optima Ŵ*[/]",
        f"  ∇Ĉ(W*) = {with_approx(n.grad_bn_at_w_star, out)}"
        + ("  ≠ 0: W* is not a BN optimum" if not n.grad_bn_at_w_star.is_zero() else "  = 0"),
        f"  Ĉ(W*) = {show(n.loss_bn_at_w_star, out)}",
    ]
    bn = n.bn
    if bn.constant:
        lines.append("  Ĉ is constant (γ = 0 or centred targets orthogonal to the centred data): "
                     "every w with σ(w) ≠ 0 is a global minimum")
    else:
        ray = out.m(describe_ray(bn, names)) if len(names) <= 2 else "the open ray t·b, t > 0"
        lines += [
            f"  local minima: {ray}   (direction b = {show_vec(bn.direction, out)})",
            "    derived: Ĉ(w) = const − 2γ⟨c, w⟩/σ(w) is scale invariant; its only critical "
            "directions are ±b, b the centred least-squares direction",
            f"    ∇Ĉ(b) = 0 ✓ exact; ∇²Ĉ(b)·b = 0 (scale invariance) {tick(bn.flat_directions_ok)}",
            *_across_the_ray(bn, out),
            "    (∇Ĉ(tb) = ∇Ĉ(b)/t and ∇²Ĉ(tb) = ∇²Ĉ(b)/t², so this holds on the whole ray)",
        ]
    lines.append(f"  min Ĉ = {show(bn.minimum, out)}"
                 + ("" if len(s(bn.minimum)) > MAX_SHOWN else
                    f" ≈ {out.m(exact_text.approx_text(bn.minimum, '.4f'))}"))
    if n.closest.point is not None:
        lines.append(f"  closest to W0: Ŵ* = {with_approx(n.closest.point, out)}")
    else:
        lines.append("  closest to W0: not attained (⟨W0, b⟩ ≤ 0); the infimum of the distance is used")
    lines += [
        "",
        f"[bold]Lemma 4.5{head}[/]",
        f"  hypothesis ⟨W0, W*⟩ = {show(n.inner, out)} "
        + ("> 0 ✓" if n.inner > 0 else "≤ 0 ✗ (not met)"),
        f"  LHS  ‖W0 − Ŵ*‖² = {_scalar_with_approx(n.lhs, out)}",
    ]
    if n.rhs is None:
        lines.append("  RHS  undefined: W* = 0")
    else:
        lines.append(f"  RHS  ‖W0 − W*‖² − (‖W*‖² − ⟨W*, W0⟩)²/‖W*‖² = "
                     f"{_scalar_with_approx(n.rhs, out)}")
        sign = "< 0" if n.residual < 0 else "≥ 0"
        lines.append(f"  residual RHS − LHS = {_scalar_with_approx(n.residual, out)} {sign} (exact)")
    return lines


# Q is written out when it is this small; larger ones are described.
MAX_BASIS_SHOWN = 12


def _across_the_ray(bn, out: Shown) -> list[str]:
    """Second order across the optimum set, with the matrix and basis the
    pivots belong to (exact/optima.bn_optima), so that a referee can redo them:
    Q's columns are the basis of {v : ⟨b, v⟩ = 0, v ⊥ ker Xc} that
    exact/linalg.kernel reads off the reduced row echelon form (a 1 in each
    free coordinate, 0 in the other free ones), and the pivots are those of
    symmetric Gaussian elimination without exchanges on Qᵀ∇²Ĉ(b)Q."""
    ok = tick(bn.second_order_ok)
    if bn.complement is None:  # d = 1: the ray is all there is
        return [f"    nothing lies across the ray (d = 1) {ok}"]
    pivots = bn.pivots
    listed = (f"pivots {', '.join(show(p, out) for p in pivots)}" if len(pivots) <= 4
              else f"{len(pivots)} pivots, all > 0" if bn.second_order_ok else "a pivot ≤ 0")
    space = "{v : ⟨b, v⟩ = 0}" if bn.kernel is None else "{v : ⟨b, v⟩ = 0, v ⊥ ker Xc}"
    q = bn.complement
    basis = (f"Q = {_matrix(q, out)}" if q.nrows() * q.ncols() <= MAX_BASIS_SHOWN
             else f"Q ({q.nrows()}×{q.ncols()})")
    return [
        f"    ∇²Ĉ positive definite across the ray {ok}: {listed} of Qᵀ∇²Ĉ(b)Q",
        f"      (symmetric elimination, no exchanges; {basis}, its columns the basis of {space} "
        "read off the reduced row echelon form: 1 in one free coordinate, 0 in the other free ones)",
    ]


def tick(ok: bool) -> str:
    return "✓" if ok else "✗"


def _scalar_with_approx(value, out: Shown) -> str:
    text = show(value, out)
    return text if text.startswith("≈") else f"{text} ≈ {out.m(exact_text.approx_text(value, '.4f'))}"


def forms_for(report: lemma45.Report) -> list[FormsText]:
    return [forms_text(n.neuron) for n in report.neurons]


def forms_text(neuron) -> FormsText:
    """A neuron's closed forms as text: written by exact_text, or by SymPy from
    exact.symbolic's expressions where exact_text cannot be sure of SymPy's text."""
    try:
        return exact_text.closed_forms_text(neuron, exact_text.MAX_TERMS_SHOWN)
    except exact_text.Unsupported:
        from ..exact.symbolic import closed_forms

    f = closed_forms(neuron)

    def texts(terms):
        return None if terms is None else [s(t) for t in terms]

    return FormsText([str(w) for w in f.w], s(f.mu), s(f.sigma), s(f.loss), texts(f.loss_terms),
                     texts(f.bn_loss_terms), constant_first(f.bn_loss_reduced))
