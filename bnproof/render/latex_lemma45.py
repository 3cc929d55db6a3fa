"""The Lemma 4.5 derivation as a LaTeX document, from the exact analysis.

Order (issue 5): setting and definitions; the instance; μ, σ, C and Ĉ in
closed form; ∇Ĉ by Fact C.1, first in general, then evaluated at W*; W*
and why it is the global minimum; ∇Ĉ(W*) exactly and numerically; the BN
optimum ray and why it is one; the inequality with LHS, RHS and the verdict.
Formulas are SymPy expressions of the engine's values (general definitions
too, built from SymPy symbols), printed by render.latex.
"""

from __future__ import annotations

from math import gcd, lcm

import sympy

from ..claims import lemma45
from ..exact import bn as exact_bn
from ..exact.linalg import dot, rows_of, to_fraction
from ..exact.surd import Surd
from ..exact.symbolic import ClosedForms, closed_forms
from ..instance import example_3_2
from .latex import (Document, Raw, decimal, escape, inline_number, label_key, matrix, number, tex, to_expr,
                    vector)

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


def definitions(doc: Document, inst) -> None:
    """The network, the BN transform and the losses, built from SymPy symbols."""
    doc.section("Setting and definitions")
    # written out, not printed by SymPy: its printer reorders terms (-mu + phi) and braces indices
    doc.para(r"One neuron of a linear layer with zero bias and identity activation, and the same "
             r"neuron followed by batch normalization with constant $\gamma$ and $\beta$; the batch "
             r"is the whole learning set $x^{(1)}, \ldots, x^{(m)} \in \mathbb{R}^d$ with targets "
             r"$y^{(1)}, \ldots, y^{(m)}$:")
    doc.display(r"\varphi_w(x) = \sum_{k=1}^{d} w_k x_k, \qquad z_i(w) = \varphi_w(x^{(i)})")
    doc.display(r"\mu(w) = \frac{1}{m} \sum_{i=1}^{m} z_i(w), \qquad "
                r"\sigma(w) = \sqrt{\frac{1}{m} \sum_{i=1}^{m} \bigl(z_i(w) - \mu(w)\bigr)^2}")
    doc.display(r"\widehat{\varphi}_w(x) = \gamma\,\frac{\varphi_w(x) - \mu(w)}{\sigma(w)} + \beta")
    doc.para(r"($\sigma$ is the biased standard deviation, without $\varepsilon$.) The losses of the "
             r"standard and the BN network, with $s = 1$ for sums of squares (the papers) or "
             r"$s = 1/m$ for means:")
    doc.display(r"\mathcal{C}(w) = s \sum_{i=1}^{m} \bigl(\varphi_w(x^{(i)}) - y^{(i)}\bigr)^2, "
                r"\qquad \widehat{\mathcal{C}}(w) = s \sum_{i=1}^{m} "
                r"\bigl(\widehat{\varphi}_w(x^{(i)}) - y^{(i)}\bigr)^2")
    del inst


def ray_equation(direction) -> str | None:
    """b₂·w₁ = b₁·w₂ with coprime integer coefficients, for a direction in the plane."""
    b1, b2 = (to_fraction(x) for x in direction.entries())
    if b1 == 0 or b2 == 0:
        return None
    den = lcm(b1.denominator, b2.denominator)
    p, q = int(b2 * den), int(b1 * den)
    g = gcd(p, q)
    p, q = p // g, q // g
    if p < 0:
        p, q = -p, -q
    w1, w2 = sympy.symbols("w1 w2")
    sign = ">" if b1 > 0 else "<"
    return rf"{tex(p * w1)} = {tex(q * w2)}, \quad w_{{1}} {sign} 0"


def bn_optimum_section(doc: Document, n, forms: ClosedForms, prefix: str) -> None:
    bn, nr, L = n.bn, n.neuron, doc.longs
    doc.section(rf"{prefix}The local minima of $\widehat{{\mathcal{{C}}}}$: a ray")
    doc.para(r"\emph{Scale invariance.} For $t > 0$, $\mu(tw) = t\,\mu(w)$ since $\mu$ is linear, "
             r"and $\sigma(tw) = t\,\sigma(w)$ since $\sigma(w)^2$ is a quadratic form. "
             r"So $\hat{y}(tw) = \hat{y}(w)$ and $\widehat{\mathcal{C}}(tw) = "
             r"\widehat{\mathcal{C}}(w)$: the local minima of $\widehat{\mathcal{C}}$ form cones.")
    if bn.constant:
        doc.para(r"Here $\gamma = 0$ or $c = X_c^\top y_c = 0$, so $\widehat{\mathcal{C}}$ is "
                 rf"constant, ${number(bn.minimum, L, 'min Chat')}$: every $w$ with "
                 r"$\sigma(w) \neq 0$ is a global minimum.")
        _closest(doc, n)
        return
    Xc = nr.Xc
    c = Xc.transpose() * nr.yc
    gram_c = nr.gram_c
    doc.para(r"\emph{Centred least squares.} With $X_c$ and $y_c$ the centred batch and targets "
             r"and $c = X_c^\top y_c$, the reduced form reads "
             r"$\widehat{\mathcal{C}}(w) = s\bigl(\gamma^2 m + \|y - \beta\mathbf{1}\|^2 - "
             r"2\gamma\langle c, w\rangle/\sigma(w)\bigr)$ with $\sigma(w)^2 = "
             r"w^\top X_c^\top X_c\, w/m$. By Cauchy--Schwarz in the inner product of "
             r"$X_c^\top X_c$, $\langle c, w\rangle/\sigma(w)$ is largest exactly in the direction "
             r"$b$ of the centred least-squares problem $X_c^\top X_c\, b = c$ "
             r"($b \perp \ker X_c$) and smallest in the direction $-b$; there are no other "
             r"critical directions. For $\gamma > 0$ the minima lie on the ray of $b$, for "
             r"$\gamma < 0$ on that of $-b$.")
    if _fits(gram_c) and _fits(c):
        doc.display(rf"X_c^\top X_c = {matrix(rows_of(gram_c))}, \qquad c = {matrix(rows_of(c))}")
    doc.equation("b", vector(bn.direction.entries(), L, "b")
                + ("" if nr.gamma > 0 else r"\quad (\text{sign of } \gamma \text{ included})"))
    ray = ray_equation(bn.direction) if nr.d == 2 and bn.kernel is None else None
    doc.para(r"So the local minima of $\widehat{\mathcal{C}}$ are the open ray "
             r"$\{t\,b : t > 0\}$"
             + (rf" plus $\ker X_c$ (dimension {bn.kernel.ncols()})" if bn.kernel is not None else "")
             + (rf", that is ${ray}$." if ray else ".")
             + " At $b$, exactly: "
             + rf"$\nabla\widehat{{\mathcal{{C}}}}(b) = {vector(bn.grad.entries(), L, 'grad Chat(b)')}$"
             + ("" if bn.first_order_ok else r" (\emph{not} $0$)")
             + r"; $\nabla^2\widehat{\mathcal{C}}(b)\,b = 0$ by scale invariance"
             + ("" if bn.flat_directions_ok else r" (\emph{which fails here})")
             + r"; the Hessian is positive definite across the ray"
             + (rf", pivots {_pivots(bn.pivots, L)}"
                if bn.pivots and len(bn.pivots) <= 4 else "")
             + ("" if bn.second_order_ok else r" (\emph{which fails here})")
             + r". As $\nabla\widehat{\mathcal{C}}(tb) = \nabla\widehat{\mathcal{C}}(b)/t$ and "
             r"$\nabla^2\widehat{\mathcal{C}}(tb) = \nabla^2\widehat{\mathcal{C}}(b)/t^2$, this "
             r"holds on the whole ray. The minimum value is "
             rf"$\min\widehat{{\mathcal{{C}}}} = {number(bn.minimum, L, 'min Chat', approx=True)}$.")
    _closest(doc, n)


def _pivots(pivots, longs) -> str:
    # one formula per pivot, so that a long list can break between them
    return ", ".join(f"${number(p, longs, 'pivot')}$" for p in pivots)


def _fits(mat) -> bool:
    return (mat.nrows() <= 8 and mat.ncols() <= 8
            and all(len(tex(to_expr(x))) <= 14 for x in mat.entries()))


def _closest(doc: Document, n) -> None:
    close, L = n.closest, doc.longs
    if close.point is None:
        doc.para(r"\emph{The closest BN optimum.} $\langle W_0, b\rangle \le 0$: no point of the "
                 r"open ray is nearest to $W_0$; the infimum of the squared distance, "
                 rf"${number(n.lhs, L, 'LHS', approx=True)}$, is approached as $t \to 0$ and is "
                 r"used as $\|W_0 - \widehat{W}^*\|^2$.")
        return
    if close.scale is None:
        doc.para(r"\emph{The closest BN optimum} is $W_0$ itself.")
        return
    doc.para(r"\emph{The closest BN optimum} to $W_0$ is its projection onto the ray, $t^*b$ "
             r"with $t^* = \langle W_0, b\rangle/\|b\|^2$"
             + (r", plus the projection of $W_0$ onto $\ker X_c$" if n.bn.kernel is not None else "")
             + ":")
    doc.aligned([("t^*", number(close.scale, L, "t*")),
                 (r"\widehat{W}^*", vector(close.point.entries(), L, "closest BN optimum",
                                           approx=True))])


def inequality_section(doc: Document, n, prefix: str) -> None:
    L = doc.longs
    doc.section(f"{prefix}The inequality of Lemma 4.5, evaluated")
    w0, w_star = n.w0, n.standard.w
    inner = n.inner
    doc.para(rf"Hypothesis: $\langle W_0, W^*\rangle = {number(inner, L, '<W0, W*>')}$"
             + (r" $> 0$, so the Lemma applies." if inner > 0 else
                r" $\le 0$: the hypothesis fails and the Lemma says nothing here."))
    doc.steps(r"\text{LHS}", [("=", r"\|W_0 - \widehat{W}^*\|^2"),
                              ("=", number(n.lhs, L, "LHS", approx=True))])
    if n.rhs is None:
        doc.para(r"The right-hand side is undefined: $W^* = 0$.")
        return
    diff = w0 - w_star
    a, b = dot(diff, diff), dot(w_star, w_star)
    parts = [number(a, L, "|W0 - W*|^2"), number(b, L, "|W*|^2"), number(inner, L, "<W*, W0>")]
    if all(not p.startswith(r"\approx") for p in parts):
        substituted = rf"{parts[0]} - \frac{{\left({parts[1]} - {parts[2]}\right)^{{2}}}}{{{parts[1]}}}"
    else:
        substituted = None
    rights = [("=", r"\|W_0 - W^*\|^2 - \frac{\left(\|W^*\|^2 - \langle W^*, W_0\rangle\right)^2}"
                    r"{\|W^*\|^2}")]
    if substituted:
        rights.append(("=", substituted))
    rights.append(("=", number(n.rhs, L, "RHS", approx=True)))
    doc.steps(r"\text{RHS}", rights)
    residual = n.residual
    relation = "<" if residual < 0 else (">" if residual > 0 else "=")
    doc.equation(r"\text{RHS} - \text{LHS}",
                 number(residual, L, "residual", approx=True) + f" {relation} 0")
    doc.para(_conclusion(n))


def _conclusion(n) -> str:
    if n.verdict == lemma45.REFUTED:
        return (r"\textbf{Conclusion.} The residual is negative, exactly: "
                r"$\|W_0 - \widehat{W}^*\|^2$ exceeds the bound, so \textbf{Lemma 4.5 is false} on "
                r"this instance, although its hypothesis holds.")
    if n.verdict == lemma45.HOLDS:
        return (r"\textbf{Conclusion.} The inequality holds on this instance (exactly). One "
                r"instance is not a proof of the Lemma.")
    return (r"\textbf{Conclusion.} $\langle W_0, W^*\rangle \le 0$: the hypothesis is not met, so "
            r"the Lemma makes no claim about this instance.")


def summary(doc: Document, report: lemma45.Report) -> None:
    doc.section("Summary")
    entries = []
    for n in report.neurons:
        head = "" if report.instance.n == 1 else f"Neuron {n.index + 1}: "
        # a line may break after any comma of a long tuple (a narrow column, a long W*)
        w_star = r",\allowbreak\ ".join(_short_inline(x) for x in n.standard.w.entries())
        grad = r",\allowbreak\ ".join(decimal(e, 4) for e in n.grad_bn_at_w_star.entries())
        line = (rf"{head}$W^* = ({w_star})$; $\nabla\widehat{{\mathcal{{C}}}}(W^*) \approx "
                rf"({grad})$; LHS ${_inline_approx(n.lhs)}$")
        if n.rhs is not None:
            line += rf"; RHS ${_inline_approx(n.rhs)}$; residual ${_inline_approx(n.residual)}$"
        entries.append(line + f"; verdict: {n.verdict}.")
    doc.items(entries)
    verdict = {lemma45.REFUTED: r"\textbf{refuted}", lemma45.HOLDS: "holds on this instance",
               lemma45.HYPOTHESIS_NOT_MET: "hypothesis not met"}[report.verdict]
    doc.para(rf"Verdict on this instance: {verdict} (exact rational and $\mathbb{{Q}}(\sqrt{{r}})$ "
             r"arithmetic; decimals are rounded from the exact values).")


def _inline_approx(value) -> str:
    exact = _short_inline(value)
    if to_fraction(value).denominator == 1:
        return f"= {exact}"
    return rf"= {exact} \approx {decimal(value)}"


def _short_inline(value) -> str:
    text = inline_number(value)
    return text if len(text) <= 40 else r"\ldots"
