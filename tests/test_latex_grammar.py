"""The statement grammar (render/latex_text.py, safe_statement): every harmful primitive is
refused, whatever way it is spelled, and the math of ordinary papers passes and
compiles with amsmath and amssymb."""

import pytest

from bnproof.errors import BadInput
from bnproof.render.latex import Document
from bnproof.render.latex_text import safe_statement
from test_latex import compile_pdf

HARMFUL = ["input", "include", "write", "openout", "openin", "read", "def", "edef", "gdef",
           "xdef", "let", "futurelet", "catcode", "csname", "immediate", "newcommand",
           "renewcommand", "providecommand", "special", "directlua", "expandafter",
           "scantokens", "uppercase", "lowercase", "lccode", "InputIfFileExists",
           "IfFileExists", "UseName", "ExpandArgs", "NewDocumentCommand", "DeclareMathOperator",
           "pdfshellescape", "pdfprimitive", "everymath", "everypar", "shipout", "usepackage",
           "makeatletter", "endinput", "stop", "batchmode", "message", "typeout", "ifx",
           "ifnum", "ifcsname", "romannumeral", "string", "noexpand", "afterassignment",
           "aftergroup", "global", "setlength", "verb", "halign", "vadjust", "AtEndDocument",
           "ExplSyntaxOn", "lstinputlisting", "verbatiminput", "includegraphics", "ShellEscape",
           "scantextokens", "primitive", "pdfprimitive", "expanded", "AddToHook", "UseHook",
           "endlinechar", "hyphenchar", "fontdimen", "luaescapestring", "readline"]

HOSTILE = [
    r"x \leq y \input{/etc/passwd}",
    r"x \input /etc/passwd",
    r"x\write18{rm -rf ~}",
    r"\immediate\write18{ls}",
    "x ^^5cinput{/etc/passwd}",
    "x ^^5c^^69nput",
    r"\csname input\endcsname{/etc/passwd}",
    r"\expandafter\csname in put\endcsname",
    r"\UseName{input}{/etc/passwd}",
    r"\begin{input}{/etc/passwd}\end{input}",
    r"\begin{document}x\end{document}",
    r"\end{document}",
    r"x \end",
    r"\left( x",
    r"x \right)",
    r"{x",
    r"x}",
    r"}{",
    r"\frac{1}{2",
    "x # y",
    "x % y",
    "x $ y $",
    r"\catcode`\^=7",
    r"\def\x{1}\x",
    r"\let\leq\input",
    "x \n\n y",
    "x \u2264 y",
    "x \x00 y",
    "x \\",
    "{" * 60 + "x" + "}" * 60,
]

ORDINARY = [
    r"\ell(\theta) \Rightarrow \ell(\theta') \le \ell(\theta)",
    r"A \cap B \subseteq A \cup B",
    r"\frac{\partial \mathcal{L}}{\partial \hat{y}_i} = \nabla_{y_j} L",
    r"\|W_0 - \widehat{W}^*\|^2 \le \|W_0 - W^*\|^2 - \frac{\left(\|W^*\|^2 - \langle W^*, W_0\rangle\right)^2}{\|W^*\|^2}",
    r"\forall \varepsilon > 0\ \exists \delta > 0 : |x - y| < \delta \implies |f(x) - f(y)| < \varepsilon",
    r"\mathbb{E}[s^2] = \operatorname{Var}(X), \quad \Pr(X \in A) \geq 0",
    r"\sum_{i=1}^m \hat y_i = 0, \qquad \prod_{k} a_k \ne 0",
    r"\int_0^1 f(t)\,dt \approx \iint_{\Omega} g \, dA",
    r"\lim_{n \to \infty} \sup_{x \in \mathbb{R}} |f_n(x)| = 0",
    r"\liminf_{t \to 0} \inf_x h \leqslant \limsup_{t \to 0} \max_x h",
    r"f(x) = \begin{cases} x & \text{if } x \ge 0, \\ 0 & \text{otherwise} \end{cases}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix} \begin{bmatrix} 1 \\ 0 \end{bmatrix}",
    r"\det(A) \neq 0 \iff \ker A = \{0\} \Leftrightarrow \dim \ker A = 0",
    r"\lVert x \rVert_2 \cdot \lvert y \rvert \geqslant \langle x, y \rangle",
    r"\sqrt[3]{x} + \sqrt{\tfrac{1}{m}\sum_i (z_i - \mu)^2} \in [0, \infty)",
    r"x \mapsto \tanh(x), \quad \arccos(\cos \theta) = \theta",
    r"\mathbf{1}^\top \hat{y} = 0, \quad \boldsymbol{\gamma} \odot \hat y + \boldsymbol{\beta}",
    r"A \otimes B, \; A \oplus B, \; A \setminus B, \; \emptyset \neq \varnothing",
    r"\neg (p \land q) \equiv \lnot p \lor \lnot q",
    r"a \ll b, \ c \gg d, \ p \prec q \preceq r \sim s \simeq t \cong u \propto v",
    r"u \perp v, \quad u \parallel w, \quad a \mid b, \quad a \nmid c",
    r"\overbrace{a + b}^{n} + \underbrace{c}_{m} + \overline{z} + \tilde x + \vec v",
    r"\xrightarrow{f} \overset{\text{def}}{=} \underset{x}{\arg\min}\, \operatorname*{arg\,max}_w",
    r"\lfloor x \rfloor \le x \le \lceil x \rceil, \quad \binom{n}{k} \in \mathbb{N}",
    r"\mathfrak{g}, \mathcal{C}, \mathrm{d}x, \mathsf{T}, \mathtt{x}, \mathit{loss}",
    r"\aleph_0 < 2^{\aleph_0}, \quad \hbar, \Re z, \Im z, \nabla^2 f \succeq 0",
    r"\bigcup_i A_i \supseteq \bigcap_i A_i, \quad x \notin \emptyset, \quad X \ni x",
    r"\Bigl( \sum_k g_k \Bigr)^2 \leq m \sum_k g_k^2",
    r"\dots, \cdots, \ldots, \vdots, \ddots, \quad \gets, \hookrightarrow, \Longrightarrow",
    r"a \triangleq b, \quad x \coloneq y \text{ is not amsmath, } x := y",
    r"\gamma\frac{\varphi_w(x) - \mu(w)}{\sigma(w)} + \beta \tag{BN}",
    r"\sigma_B^2 = \frac{1}{m} \sum_{b=1}^m (x_b - \mu_B)^2 \quad\text{and}\quad \epsilon > 0",
]


@pytest.mark.parametrize("name", HARMFUL)
def test_each_harmful_command_is_refused(name):
    with pytest.raises(BadInput, match=rf"\\{name}\b"):
        safe_statement(rf"x \le y \{name}{{z}}")


@pytest.mark.parametrize("statement", HOSTILE)
def test_hostile_statements_are_refused(statement):
    with pytest.raises(BadInput, match="statement"):
        safe_statement(statement)


def test_ordinary_statements_pass_and_compile(tmp_path):
    ordinary = [s for s in ORDINARY if r"\coloneq" not in s]  # mathtools: undefined, but harmless
    assert safe_statement(ORDINARY[29]) == ORDINARY[29]
    doc = Document("ordinary statements")
    for statement in ordinary:
        assert safe_statement(statement) == statement
        doc.display(statement)
    tex = tmp_path / "ordinary.tex"
    tex.write_text(doc.render(fragment=False))
    compile_pdf(tex)


def test_iff_is_a_relation_not_a_conditional():
    assert safe_statement(r"p \iff q") == r"p \iff q"
