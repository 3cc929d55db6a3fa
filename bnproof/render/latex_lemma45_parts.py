"""Sections of the Lemma 4.5 document: the definitions, the BN optimum ray,
the inequality and the summary (latex_lemma45 assembles them)."""

from __future__ import annotations

from math import gcd, lcm

import sympy

from ..claims import lemma45
from ..exact.linalg import dot, rows_of, to_fraction
from ..exact.symbolic import ClosedForms
from .latex import Document, decimal, inline_number, matrix, number, tex, to_expr, vector


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
