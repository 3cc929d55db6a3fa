"""The Lemma 4.5 derivation as a LaTeX document, from the exact analysis.

Order (issue 5): setting and definitions; the instance; μ, σ, C and Ĉ in
closed form; ∇Ĉ by Fact C.1, first in general, then evaluated at W*; W*
and why it is the global minimum; ∇Ĉ(W*) exactly and numerically; the BN
optimum ray and why it is one; the inequality with LHS, RHS and the verdict.
Formulas are SymPy expressions of the engine's values (general definitions
too, built from SymPy symbols), printed by render.latex.
"""

from __future__ import annotations

import sympy

from ..claims import lemma45
from ..exact import bn as exact_bn
from ..exact.linalg import rows_of
from ..exact.surd import Surd
from ..exact.symbolic import ClosedForms, closed_forms
from ..instance import example_3_2
from .latex import Document, Raw, escape, label_key, inline_number, matrix, number, tex, to_expr, vector
from .latex_lemma45_parts import bn_optimum_section, definitions, inequality_section, summary

# Per-sample vectors are written out only for batches this short.
MAX_SAMPLES_SHOWN = 8
MAX_INPUTS_SHOWN = 8


def document(report: lemma45.Report) -> Document:
    inst = report.instance
    doc = Document(rf"Lemma 4.5 of Santurkar et al.\ (2018) on {escape(inst.name)}: "
                   "an exact derivation", key=_key(inst),
                   provenance="`bnproof verify` writes a certificate of these values that the "
                   "stdlib-only checker re-verifies.")
    doc.section("The claim")
    doc.para(rf"\emph{{{escape(lemma45.TITLE)}.}} {escape(lemma45.SOURCE)}. "
             "For the closest local optima $W^*$ and $\\widehat{W}^*$ of the standard and the "
             "BN network to an initialization $W_0$:")
    doc.display(lemma45.STATEMENT)
    doc.para(rf"Refuted by {escape(lemma45.REFUTED_BY)}. Reading: one linear layer, zero bias, "
             "identity activation, $\\gamma$ and $\\beta$ constant (Section 4.1); norms and inner "
             "products are taken per neuron (Remark 3.1 of Dannemann \\& Junike); "
             "$\\|W_0-\\widehat{W}^*\\|^2$ is the squared distance from $W_0$ to the set of "
             "local minima of $\\widehat{\\mathcal{C}}$.")
    definitions(doc, inst)
    for n in report.neurons:
        forms = closed_forms(n.neuron)
        prefix = "" if inst.n == 1 else f"Neuron {n.index + 1}: "
        _instance(doc, n, inst, prefix)
        _closed_forms(doc, n, forms, prefix)
        _standard_optimum(doc, n, prefix)
        _gradient(doc, n, prefix)
        bn_optimum_section(doc, n, forms, prefix)
        inequality_section(doc, n, prefix)
    summary(doc, report)
    return doc


def _key(inst) -> str:
    """The label key: lemma-4.5 for Example 3.2, else with the instance's name, so that
    derivations on two instances can sit in one paper."""
    if inst.name == example_3_2().name:
        return "lemma-4.5"
    return "lemma-4.5-" + label_key(inst.name.removesuffix(".json"))[:60]


def _instance(doc: Document, n, inst, prefix: str) -> None:
    doc.section(f"{prefix}The instance")
    nr = n.neuron
    shape = rf"$m = {inst.m}$ samples, $d = {inst.d}$ inputs"
    loss = ("sums of squares, $s = 1$" if inst.loss == "sum"
            else rf"means of squares, $s = 1/m = {inline_number(nr.scale)}$")
    doc.para(rf"{shape}; {loss}; $\gamma = {number(nr.gamma, doc.longs, 'gamma')}$, "
             rf"$\beta = {number(nr.beta, doc.longs, 'beta')}$.")
    if _short(nr.X) and _short(nr.y):
        doc.display(rf"X = {matrix(rows_of(nr.X))}, \qquad y = {matrix(rows_of(nr.y))}")
    else:
        doc.para("The batch $X$ and targets $y$ are too large to print here; they are the "
                 "input data, read exactly.")
    doc.equation("W_0", vector(n.w0.entries(), doc.longs, "W_0"))


def _short(mat) -> bool:
    return (mat.nrows() <= 12 and mat.ncols() <= MAX_INPUTS_SHOWN
            and all(len(tex(to_expr(x))) <= 14 for x in mat.entries()))


def _sqrt_symbol():
    return Raw(r"\sqrt{R(w)}", positive=True)


def _closed_forms(doc: Document, n, f: ClosedForms, prefix: str) -> None:
    doc.section(f"{prefix}Batch statistics and losses in closed form")
    k, root = f.sigma.as_coeff_Mul()
    radicand = root.args[0]
    abbreviate = len(tex(root)) > 80
    shown_root = _sqrt_symbol() if abbreviate else root
    w = ", ".join(tex(x) for x in f.w) if len(f.w) <= 6 else rf"w_1, \ldots, w_{{{len(f.w)}}}"
    doc.para(rf"With $w = ({w})$ and $z_i(w) = \langle w, x^{{(i)}} \rangle$ the batch "
             "statistics are")
    doc.equation(r"\mu(w)", tex(f.mu))
    if abbreviate:
        doc.equation(r"\sigma(w)", rf"{tex(k)} \sqrt{{R(w)}}")
        doc.equation("R(w)", tex(radicand))
    else:
        doc.equation(r"\sigma(w)", tex(f.sigma))
    s = n.neuron.scale
    if f.loss_terms is not None:
        doc.para("The losses, one term per sample:")
        doc.steps(r"\mathcal{C}(w)", [("=", _summed(s, f.loss_terms)),
                                       ("=", tex(f.loss, order="grlex"))])
        doc.equation(r"\widehat{\mathcal{C}}(w)", _summed_tex(s, _bn_terms(n.neuron, f, k, shown_root)))
    else:
        doc.para("The losses, expanded:")
        doc.equation(r"\mathcal{C}(w)", tex(f.loss, order="grlex"))
    reduced = f.bn_loss_reduced.subs(root, shown_root)
    const, rest = reduced.as_coeff_Add()
    doc.para("Since $\\hat{y}$ has mean $0$ and $\\|\\hat{y}\\|^2 = m$, the BN loss reduces to")
    doc.equation(r"\widehat{\mathcal{C}}(w)", tex(const) + _signed(rest))


def _summed(scale, terms) -> str:
    """s·(t₁ + t₂ + …) in sample order, which SymPy's own printing would sort away."""
    return _summed_tex(scale, [tex(t, order="grlex") for t in terms])


def _summed_tex(scale, terms: list[str]) -> str:
    body = " + ".join(terms).replace("+ -", "-")
    if scale == 1:
        return body
    return rf"{tex(to_expr(scale))} \left({body}\right)"


def bn_term_parts(neuron, f: ClosedForms, k) -> list[tuple]:
    """Each sample's BN term γ(z_i(w) − μ(w))/σ(w) + β − y_i of this neuron as (factor,
    primitive linear form, β, y_i), with σ = k·√R: the term is factor·form/√R + β − y_i.
    The targets are this neuron's own column of Y (neuron.y), so every neuron of a layer
    shows its own."""
    gamma, beta = to_expr(neuron.gamma), to_expr(neuron.beta)
    parts = []
    for row, yi in zip(rows_of(neuron.X), neuron.y.entries()):
        zi = sum(to_expr(x) * wk for x, wk in zip(row, f.w))
        content, primitive = sympy.Poly(sympy.expand((zi - f.mu) / k), *f.w).primitive()
        parts.append((gamma * content, primitive.as_expr(), beta, to_expr(yi)))
    return parts


def _bn_terms(neuron, f: ClosedForms, k, root) -> list[str]:
    """Each sample's BN term in the order of its definition, γ(z_i(w) − μ(w))/σ(w) + β − y_i:
    the factor γ·c, the fraction of a primitive linear form over the root, then β, then
    the target.  SymPy's own printing folds these into one nested fraction and sorts."""
    terms = []
    for factor, primitive, beta, yi in bn_term_parts(neuron, f, k):
        fraction = rf"\frac{{{tex(primitive, order='grlex')}}}{{{tex(root)}}}"
        if factor == 0:  # the sample is the batch mean: z_i(w) − μ(w) ≡ 0
            text = ""
        elif factor == 1:
            text = fraction
        elif factor == -1:
            text = "-" + fraction
        else:
            text = rf"{tex(factor)} \cdot {fraction}"
        if beta != 0:
            text += _signed(beta)
        if yi != 0:
            text += _signed(-yi)
        text = text.strip().removeprefix("+ ") or "0"
        terms.append(rf"\left({text}\right)^{{2}}")
    return terms


def _signed(expr) -> str:
    text = tex(expr)
    return " " + text if text.startswith("-") else " + " + text


def _standard_optimum(doc: Document, n, prefix: str) -> None:
    std, nr = n.standard, n.neuron
    doc.section(f"{prefix}The standard optimum $W^*$ is the global minimum of $\\mathcal{{C}}$")
    xty = nr.X.transpose() * nr.y
    if nr.d <= MAX_INPUTS_SHOWN and _short(nr.gram) and _short(xty):
        doc.para("$\\mathcal{C}$ is quadratic; its critical points solve the normal equations "
                 "$X^\\top X w = X^\\top y$:")
        doc.display(rf"{matrix(rows_of(nr.gram))} w = {matrix(rows_of(xty))}")
    else:
        doc.para("$\\mathcal{C}$ is quadratic; its critical points solve the normal equations "
                 "$X^\\top X w = X^\\top y$, solved exactly:")
    doc.equation("W^*", vector(std.w.entries(), doc.longs, "W^*"))
    grad_zero = all(x == 0 for x in std.grad.entries())
    doc.para(rf"Substituting back, $\nabla\mathcal{{C}}(W^*) = "
             rf"{vector(std.grad.entries(), doc.longs, 'grad C(W*)')}$"
             + (" exactly." if grad_zero else "."))
    # one formula per pivot, so that a long list can break between them
    pivots = ", ".join(f"${number(p, doc.longs, 'pivot')}$" for p in std.pivots)
    if _short(std.hessian):
        doc.equation(r"\nabla^2\mathcal{C} = 2s\,X^\top X", matrix(rows_of(std.hessian)))
    if std.is_unique_minimum:
        doc.para(r"The Hessian $\nabla^2\mathcal{C} = 2s\,X^\top X$ does not depend on $w$; "
                 rf"symmetric elimination gives the pivots {pivots}, all positive, so it is "
                 r"positive definite and $\mathcal{C}$ is strictly convex. A critical point of a "
                 r"strictly convex function is its unique global minimum: $W^*$ is the global "
                 r"minimum of $\mathcal{C}$, with "
                 rf"$\mathcal{{C}}(W^*) = {number(std.loss, doc.longs, 'C(W*)')}$.")
    else:
        doc.para(rf"The Hessian $\nabla^2\mathcal{{C}}$ has pivots {pivots}; it is not positive "
                 "definite.")


def _gradient(doc: Document, n, prefix: str) -> None:
    nr, w_star = n.neuron, n.standard.w
    doc.section(rf"{prefix}The gradient of $\widehat{{\mathcal{{C}}}}$ at $W^*$ (Fact C.1)")
    doc.para(r"Write $\hat{z}_b = \gamma\hat{y}_b + \beta$ for the BN outputs and "
             r"$g_b = \partial\widehat{\mathcal{C}}/\partial\hat{z}_b = 2s(\hat{z}_b - y_b)$. "
             "Fact C.1 of Santurkar et al.\\ takes the gradient through BN:")
    doc.display(_fact_c1())
    doc.para(r"and $\nabla\widehat{\mathcal{C}}(w) = X^\top\,\partial\widehat{\mathcal{C}}/"
             r"\partial z$. Evaluated exactly at $W^*$:")
    norm = nr.normalize(w_star)
    g = nr.bn_residual(norm) * (2 * nr.scale)
    dz = exact_bn.backprop(g, norm, nr.gamma)
    sigma = norm.inv_sigma.inverse()
    sum_g = sum((e for e in g.entries()), Surd.rational(0, g.r))
    along = (norm.yhat.T * g).scalar()
    L = doc.longs
    rows = [
        (r"\mu(W^*)", number(norm.mu, L, "mu(W*)")),
        (r"\sigma(W^*)^2", number(norm.var, L, "sigma(W*)^2")),
        (r"\sigma(W^*)", number(sigma, L, "sigma(W*)", approx=True)),
    ]
    if nr.m <= MAX_SAMPLES_SHOWN:
        z = nr.X * w_star
        rows += [
            (r"z(W^*) = X W^*", vector(z.entries(), L, "z(W*)")),
            (r"\hat{y}(W^*)", vector(norm.yhat.entries(), L, "yhat(W*)")),
            (r"g", vector(g.entries(), L, "g")),
        ]
    rows += [
        (r"\sum_{k} g_k", number(sum_g, L, "sum g")),
        (r"\sum_{k} g_k\hat{y}_k", number(along, L, "<g, yhat>")),
    ]
    if nr.m <= MAX_SAMPLES_SHOWN:
        rows.append((r"\partial\widehat{\mathcal{C}}/\partial z",
                     vector(dz.entries(), L, "dC/dz", approx=True)))
    doc.aligned(rows)
    grad = n.grad_bn_at_w_star
    doc.para(r"Hence, exactly and then rounded from the exact value,")
    doc.steps(r"\nabla\widehat{\mathcal{C}}(W^*)",
              [("=", r"X^\top\frac{\partial\widehat{\mathcal{C}}}{\partial z}"),
               ("=", vector(grad.entries(), L, "grad Chat(W*)", approx=True))])
    doc.para(rf"and $\widehat{{\mathcal{{C}}}}(W^*) = {number(n.loss_bn_at_w_star, L, 'Chat(W*)', approx=True)}$. "
             + (r"Since $\nabla\widehat{\mathcal{C}}(W^*) \neq 0$, $W^*$ is not a critical point "
                r"of $\widehat{\mathcal{C}}$, so it is not a local optimum of the BN network."
                if not grad.is_zero() else r"The gradient vanishes: $W^*$ is a critical point "
                r"of $\widehat{\mathcal{C}}$."))


def _fact_c1() -> str:
    m, gamma, sigma = sympy.symbols("m gamma sigma")
    b, k = sympy.symbols("b k", integer=True)
    g, yhat = sympy.IndexedBase("g"), sympy.IndexedBase(r"\hat{y}")
    inner = sympy.Add(m * g[b], -sympy.Sum(g[k], (k, 1, m)),
                      -yhat[b] * sympy.Sum(g[k] * yhat[k], (k, 1, m)), evaluate=False)
    rhs = sympy.Mul(gamma / (m * sigma), inner, evaluate=False)
    lhs = Raw(r"\frac{\partial\widehat{\mathcal{C}}}{\partial z_{b}}")
    return tex(lhs) + " = " + sympy.latex(rhs, order="none")
