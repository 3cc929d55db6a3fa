"""Issue 13's last rough edges: a refutation document says "two sides" only where the
claim has two, a strict inequality failing with equality shows one value (not
"LHS = 0 = 0 = RHS"), an identity's sides are shown unequal, readings stand alone
and their ASCII scripts (R^m, ∇_y, ŷ^(b)) are typeset, and Lemma 4.5's natural-order
BN terms are each neuron's own on a two-neuron instance."""

import json
import re

import pytest
import sympy

import bnproof
from bnproof.claims import Claim, Var
from bnproof.claims.api import resolve
from bnproof.claims.naming import reading_paragraphs
from bnproof.render.latex import prose, tex
from test_latex import bnproof as run_bnproof
from test_latex_paper import compile_quietly

PAPERS = [c for prefix in ("santurkar2018", "dannemann2025") for c in resolve(prefix)]


def refuted(claim, examples=40):
    result = bnproof.fuzz(claim, seed=0, max_examples=examples, time_budget=60, jax=False)
    assert result.refuted, result.verdict
    return result


# ---------------------------------------------------------------- the sides of a claim

def test_an_identity_without_sides_shows_its_quantities_not_two_sides():
    text = bnproof.latex("dannemann2025/remark-2.7", fragment=True)
    assert "The quantities on the counterexample" in text
    assert "two sides" not in text and r"\text{LHS}" not in text


def test_an_inequality_with_sides_shows_the_violated_inequality():
    text = bnproof.latex("santurkar2018/theorem-4.1", fragment=True)
    assert "The two sides on the counterexample" in text
    assert r"\text{LHS} = 0 > 2 - 2 \sqrt{2} = \text{RHS}" in text


def test_a_strict_inequality_failing_with_equality_shows_one_value():
    text = bnproof.latex("santurkar2018/theorem-c.1", fragment=True)
    assert r"\text{LHS} = \text{RHS} = 0" in text
    assert not re.search(r"= 0 = 0 =", text)
    assert "only in the equality case of its strict inequality" in text


SIDES = {"LHS": lambda xp, x: x * x, "RHS": lambda xp, x: x}


def test_a_refuted_identity_shows_its_sides_unequal():
    claim = Claim(id="me/square-is-itself", source="s", statement="x^2 = x", kind="identity",
                  variables=(Var("x", ()),), residual=lambda xp, x: x * x - x, quantities=SIDES)
    text = bnproof.latex(refuted(claim), fragment=True)
    assert r"The claim asserts $\text{LHS} = \text{RHS}$; here" in text
    match = re.search(r"\\text\{LHS\} = (.+?) \\neq (.+?) = \\text\{RHS\}", text)
    assert match, text
    x = sympy.Rational(json.loads(refuted(claim).certificate)["instance"]["x"])
    assert x * x != x and (match.group(1), match.group(2)) == (tex(x * x), tex(x))


def test_a_user_strict_claim_failing_with_equality_shows_one_value():
    claim = Claim(id="me/positive-square", source="s", statement="x < x^2 + x", strict=True,
                  variables=(Var("x", ()),), residual=lambda xp, x: x * x,
                  quantities={"LHS": lambda xp, x: x, "RHS": lambda xp, x: x * x + x})
    text = bnproof.latex(refuted(claim), fragment=True)
    assert re.search(r"\\text\{LHS\} = \\text\{RHS\} = [^=]+$", text, re.M), text


def test_the_sign_of_the_sides_is_decided_exactly_or_not_shown():
    from bnproof.render.latex_program import sides_sign

    def lookup(value):
        return lambda name, index: value
    irrational = Claim(id="me/roots", source="s", statement="a", variables=(Var("x", ()),),
                       residual=lambda xp, x: x,
                       quantities={"LHS": lambda xp, x: xp.sqrt(x) * xp.sqrt(x * 8),
                                   "RHS": lambda xp, x: x * 4})  # √x·√(8x) = 2√2·x ≠ 4x
    assert sides_sign(irrational, {"x": "2"}, lookup(2)) == -1
    equal = Claim(id="me/equal", source="s", statement="a", variables=(Var("x", ()),), residual=lambda xp, x: x,
                  quantities={"LHS": lambda xp, x: xp.sqrt(x * 2) * xp.sqrt(x * 8), "RHS": lambda xp, x: x * 4})
    assert sides_sign(equal, {"x": "3"}, lookup(3)) == 0  # √6·√24 = 12 exactly
    undefined = Claim(id="me/undef", source="s", statement="a", variables=(Var("x", ()),),
                      residual=lambda xp, x: x,
                      quantities={"LHS": lambda xp, x: 1 / (x - 1), "RHS": lambda xp, x: x})
    assert sides_sign(undefined, {"x": "1"}, lookup(1)) is None  # a division by 0 is no value
    vector = Claim(id="me/vec", source="s", statement="a", variables=(Var("v", (2,)),),
                   residual=lambda xp, v: v[0], quantities={"LHS": lambda xp, v: v, "RHS": lambda xp, v: v})
    assert sides_sign(vector, {"v": ["1", "2"]}, lambda name, index: [1, 2][index[0]]) is None
    assert sides_sign(Claim(id="me/none", source="s", statement="a", variables=(Var("x", ()),),
                            residual=lambda xp, x: x), {"x": "1"}, lookup(1)) is None


# ---------------------------------------------------------------- readings

@pytest.mark.parametrize("claim", PAPERS, ids=[c.id for c in PAPERS])
def test_every_paper_claims_reading_stands_alone(claim):
    text = " ".join(reading_paragraphs(claim.reading))
    assert text, claim.id
    assert not re.search(r"\bbelow\b|second claim|both readings|the corrected claim|"
                         r"printed-condition claim|Part 2's", text, re.I), text


def test_sibling_claims_read_differently_where_they_differ():
    readings = {c.id: " ".join(reading_paragraphs(c.reading)) for c in PAPERS}
    printed, derived = readings["santurkar2018/theorem-4.1"], readings["santurkar2018/theorem-4.1/as-derived"]
    assert "read as printed, with 1/√m" in printed and "identity" in derived and printed != derived
    assert "First sentence" not in readings["santurkar2018/observation-4.3/minima-preserved"]
    assert "Second sentence" not in readings["santurkar2018/observation-4.3"]
    assert "|γ| < σ" in readings["santurkar2018/theorem-4.2/part-2/corrected"]
    assert "relative norms" not in readings["santurkar2018/theorem-4.2"]  # part 2's hypothesis only
    assert "Equation (2)" in readings["santurkar2018/fact-c.2/eq-2"]
    assert "Equation (2)" not in readings["santurkar2018/fact-c.2"]


@pytest.mark.parametrize("text,want", [
    ("y ∈ R^m is unit j", r"$y \in R^{m}$"),
    ("∇_y L̂ is then", r"$\nabla _{y} \hat{L}$"),  # one formula (issue 24: never half-typeset)
    ("∇_{y_j}L and μ_{g_j}", r"$\nabla _{y_j}L$ and $\mu_{g_j}$"),
    ("ŷ^(b) and y^(k)", r"$\hat{y}^{(b)}$ and $y^{(k)}$"),
    ("H_jj preserves", r"$H_{jj}$ preserves"),
    ("x² ≥ x", r"$x^2 \geq x$"),
    ("10^6", r"$10^{6}$"),
    ("W^* is", r"$W^{*}$ is"),
])
def test_prose_typesets_the_scripts_a_reading_writes(text, want):
    assert want in prose(text)
    assert "^{}" not in prose(text) and r"\_" not in prose(text)


@pytest.mark.parametrize("text", ["exact_sizes and program_for", "see bnproof/claims/lemma45.py"])
def test_prose_leaves_identifiers_and_paths_as_text(text):
    assert "$" not in prose(text).replace(r"\$", "")


def test_hostile_scripts_compile_and_every_paper_reading_compiles(tmp_path):
    hostile = ["a_b_c", "x²²", "x_{a_b_c}", "x_{a__b}", "σ_jⱼ", "x_{}", r"x^{\input{/etc/passwd}}",
               "μ^(x_]", "_y at the start", "^", "_", "y^(" + "b" * 40 + ")"]
    assert r"\input" not in "".join(prose(t) for t in hostile)
    readings = [prose(p) for c in PAPERS for p in reading_paragraphs(c.reading)]
    compile_quietly(tmp_path, {"readings": "\n\n".join(map(prose, hostile)) + "\n\n" + "\n\n".join(readings)})


# ---------------------------------------------------------------- Lemma 4.5 on two neurons

TWO = {"X": [[1, 1], [1, 2], [2, 3]], "Y": [[2, 1], [5, 0], [13, 4]], "W0": [[1, 3], [2, 1]],
       "gamma": [1, 2], "beta": [0, "1/2"]}


def flat(text):
    """A display's formula on one line: line breaks and big delimiters dropped."""
    text = re.sub(r"\\notag \\\\\s*&\\qquad(\\quad)* (\{\} )?", "", text)
    text = text.replace(r"\biggl(", r"\left(").replace(r"\biggr)", r"\right)")
    return " ".join(text.split())


def neuron_sections(text):
    return {int(k): body for k, body in re.findall(
        r"\\(?:sub)*section\{Neuron (\d): Batch statistics[^\n]*\n(.*?)(?=\\(?:sub)*section\{)", text, re.S)}


def test_two_neurons_each_show_their_own_bn_terms(tmp_path):
    data = tmp_path / "two.json"
    data.write_text(json.dumps(TWO))
    proc = run_bnproof("latex", "lemma-4.5", "--data", str(data), "--fragment")
    assert proc.returncode == 0, proc.stderr
    sections = neuron_sections(proc.stdout)
    assert set(sections) == {1, 2}
    root = r"\sqrt{2 w_{1}^{2} + 6 w_{1} w_{2} + 6 w_{2}^{2}}"
    # derived by hand: z − μ over σ = 3·(z − μ)/√R; neuron 1 has γ = 1, β = 0, y = (2, 5, 13)
    one = flat(sections[1])
    for term in (rf"\frac{{- w_{{1}} - 3 w_{{2}}}}{{{root}}} -2", rf"\frac{{- w_{{1}}}}{{{root}}} -5",
                 rf"\frac{{2 w_{{1}} + 3 w_{{2}}}}{{{root}}} -13"):
        assert rf"\left({term}\right)^{{2}}" in one, one
    # neuron 2: γ = 2, β = 1/2, y = (1, 0, 4): its own targets, never neuron 1's
    two = flat(sections[2])
    for term in (rf"2 \cdot \frac{{- w_{{1}} - 3 w_{{2}}}}{{{root}}} + \frac{{1}}{{2}} -1",
                 rf"2 \cdot \frac{{- w_{{1}}}}{{{root}}} + \frac{{1}}{{2}}",
                 rf"2 \cdot \frac{{2 w_{{1}} + 3 w_{{2}}}}{{{root}}} + \frac{{1}}{{2}} -4"):
        assert rf"\left({term}\right)^{{2}}" in two, two
    assert "-13" not in two and "-5" not in two
    compile_quietly(tmp_path, {"two": proc.stdout})


@pytest.mark.parametrize("loss", ["sum", "mean"])
def test_the_printed_bn_terms_sum_to_the_engines_loss_for_each_neuron(loss):
    from bnproof.exact.layer import Neuron
    from bnproof.exact.symbolic import closed_forms
    from bnproof.instance import instance_from_json
    from bnproof.render.latex_lemma45 import bn_term_parts

    instance = instance_from_json({**TWO, "loss": loss}, "two.json")
    for j in range(instance.n):
        neuron = Neuron.of(instance, j)
        f = closed_forms(neuron)
        k, root = f.sigma.as_coeff_Mul()
        parts = bn_term_parts(neuron, f, k)
        targets = [sympy.Rational(str(row[j])) for row in TWO["Y"]]
        assert [y for *_, y in parts] == targets
        total = sympy.Rational(str(neuron.scale)) * sum(
            (factor * form / root + beta - y) ** 2 for factor, form, beta, y in parts)
        assert sympy.simplify(total - f.bn_loss_reduced) == 0


# ---------------------------------------------------------------- bad input, command by command

EXAMPLE = {"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "W0": [1, 3]}
FILES = {
    "empty.json": "",
    "nan.json": '{"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, NaN], "W0": [1, 3]}',
    "dup.json": '{"X": [[1, 1], [1, 2], [2, 3]], "y": [2, 5, 13], "y": [1, 2, 3], "W0": [1, 3]}',
    "huge.json": json.dumps({**EXAMPLE, "y": [2, 5, "1e400"]}),
    "degenerate.json": json.dumps({**EXAMPLE, "X": [[1, 1], [1, 1], [1, 1]]}),
    "flat.json": '{"y": [1, 1], "g": [0, 1], "gamma": 1}',  # σ = 0: Theorem 4.1's hypothesis fails
}
BAD = [  # (argv, exit code, words of the message); {d} is the folder of FILES
    (["verify", "lemma-4.5", "--data", "{d}/missing.json"], 3, "missing.json"),
    (["verify", "lemma-4.5", "--data", "{d}/empty.json"], 3, "empty.json is not valid JSON"),
    (["verify", "lemma-4.5", "--data", "{d}/nan.json"], 3, "nan.json: NaN is not a finite number"),
    (["verify", "lemma-4.5", "--data", "{d}/dup.json"], 3, "dup.json: duplicate key 'y'"),
    (["verify", "lemma-4.5", "--data", "{d}/huge.json"], 3, "checker's limits"),
    (["verify", "lemma-4.5", "--data", "{d}/degenerate.json"], 4, "σ = 0"),
    (["verify", "theorem-4.1", "--data", "{d}/flat.json"], 5, ""),
    (["verify", "theorem-4.1", "--data", "{d}/dup.json"], 3, "dup.json: duplicate key 'y'"),
    (["plot", "lemma-4.5", "--data", "{d}/degenerate.json", "-o", "{d}/p.png"], 4, "σ = 0"),
    (["plot", "lemma-4.5", "--data", "{d}/nan.json", "-o", "{d}/p.png"], 3, "nan.json"),
    (["latex", "{d}/missing.json"], 3, "missing.json"),
    (["latex", "no-such-claim"], 3, "no certificate for 'no-such-claim'"),
    (["export", "{d}/missing.json"], 3, "missing.json: cannot read file"),
    (["export", "{d}/empty.json"], 3, "empty.json: not valid JSON"),
    (["check", "{d}/empty.json"], 3, "empty.json is empty"),
    (["prove", "no-such-claim"], 3, "unknown claim 'no-such-claim'"),
    (["prove", "{d}/missing.py"], 3, "missing.py"),
    (["fuzz", "no-such-claim"], 3, "unknown claim 'no-such-claim'"),
    (["scan", "--data", "{d}/missing.npz"], 3, "missing.npz"),
]
JSON_COMMANDS = {"verify", "fuzz", "prove", "scan"}  # one error object on stdout (check: its list)


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bad")
    for name, text in FILES.items():
        (folder / name).write_text(text)
    return folder


def run_main(capsys, argv):
    from bnproof.cli import main

    with pytest.raises(SystemExit) as done:
        main(argv)
    out = capsys.readouterr()
    return done.value.code or 0, out.out, out.err


@pytest.mark.parametrize("argv,code,words", BAD, ids=[" ".join(a[:2]) + f"->{c}" for a, c, _ in BAD])
def test_bad_input_exits_with_a_code_its_command_lists(capsys, monkeypatch, bad_files, argv, code, words):
    from bnproof.errors import COMMAND_EXIT_CODES

    monkeypatch.chdir(bad_files)  # a refutation's certificate, if any, stays here
    argv = [a.format(d=bad_files) for a in argv]
    got, out, err = run_main(capsys, argv + (["--no-crosscheck"] if argv[0] == "verify" else []))
    assert got == code, (out, err)
    assert got in COMMAND_EXIT_CODES[argv[0]]
    if code not in (0, 1, 5):
        assert err.startswith("error: ") and len(err.splitlines()) == 1 and words in err, err
        assert "Traceback" not in err
    if argv[0] in JSON_COMMANDS and code not in (0, 1, 5):
        got, out, _ = run_main(capsys, argv + ["--json"] + (["--no-crosscheck"] if argv[0] == "verify" else []))
        assert got == code and json.loads(out) == {"error": json.loads(out)["error"], "exit_code": code}


def test_a_residual_below_the_float_range_is_never_shown_as_minus_zero(capsys, monkeypatch, bad_files):
    """y = (1, 10⁴⁰⁰): Theorem 4.1's residual is about −8·10⁻⁴⁰¹, which a float rounds to −0.0."""
    from bnproof.render.unicode_math import approx_suffix

    (bad_files / "far.json").write_text('{"y": [1, "1e400"], "g": [0, 1], "gamma": 1}')
    monkeypatch.chdir(bad_files)
    code, out, _ = run_main(capsys, ["verify", "theorem-4.1", "--data", str(bad_files / "far.json"),
                                     "--no-crosscheck"])
    assert code == 1 and "REFUTED" in out
    assert "≈ −0 (nonzero: below 1e−323 in magnitude)" in " ".join(out.split())
    assert approx_suffix("0", 0.0) == " ≈ 0" and approx_suffix("1/3", 1 / 3) == " ≈ 0.333333"
    assert approx_suffix("x", None) == ""


# ---------------------------------------------------------------- statements in the terminal

@pytest.mark.parametrize("claim_id,want", [
    ("santurkar2018/theorem-4.1",
     "‖∇_{yⱼ}ℒ̂‖² ≤ γ²/σⱼ² (‖∇_{yⱼ}ℒ‖²−1/m ⟨1,∇_{yⱼ}ℒ⟩²−1/√m ⟨∇_{yⱼ}ℒ,ŷⱼ⟩²)"),
    ("dannemann2025/remark-2.7", "γⱼ=σⱼ, βⱼ=μⱼ/σⱼ ⟹ ℤ̂ₗ=ℤₗ"),
    ("santurkar2018/fact-c.1", "∂f/(∂A^{(b)}) = γ/(mσ) (m∂f/(∂C^{(b)})−Σₖ₌₁^m∂f/(∂C^{(k)})"
                               "−B^{(b)}Σₖ₌₁^m∂f/(∂C^{(k)}) B^{(k)})"),
])
def test_a_statement_reads_as_mathematics_in_the_terminal(claim_id, want):
    from bnproof.render.statement_text import statement_unicode

    assert statement_unicode(resolve(claim_id)[0].statement) == want


@pytest.mark.parametrize("latex,want", [
    (r"\frac{a+b}{c}", "(a+b)/c"), (r"\frac{ab}{cd}", "ab/(cd)"), (r"\sqrt{x+1} \sqrt{2}", "√(x+1) √2"),
    (r"\foo{x}", r"\foo x"), (r"\input{/etc/passwd}", r"\input /etc/passwd"), ("a}b{c", "a}bc"),
    (r"\hat{}", ""), ("x^", "x"), (r"x_{y_j}", "x_{yⱼ}"), (r"x^{\top} \le 1", "xᵀ ≤ 1"),
])
def test_statement_text_keeps_what_it_does_not_know_and_never_fails(latex, want):
    from bnproof.render.statement_text import statement_unicode

    assert statement_unicode(latex) == want


def test_a_statement_nested_past_the_recursion_limit_is_shown_as_written():
    from bnproof.render.statement_text import statement_unicode

    deep = "{" * 5000 + "x" + "}" * 5000
    assert statement_unicode(deep) == deep


def test_verify_prints_the_statement_typeset_and_its_latex_in_ascii(capsys, monkeypatch, bad_files):
    from bnproof.claims.api import resolve as find
    from bnproof._api.verify_claim import verify_claim

    result = verify_claim(find("theorem-4.1")[0], {"y": ["1", "2"], "g": ["0", "1"], "gamma": "1"})
    unicode, ascii_ = result.lines(unicode=True, columns=200), result.lines(unicode=False, columns=200)
    assert unicode[1] == ("statement: ‖∇_{yⱼ}ℒ̂‖² ≤ γ²/σⱼ² (‖∇_{yⱼ}ℒ‖²−1/m ⟨1,∇_{yⱼ}ℒ⟩²−1/√m "
                          "⟨∇_{yⱼ}ℒ,ŷⱼ⟩²)")
    assert ascii_[1].startswith(r"statement: \left\|\nabla_{y_j}") and ascii_[1].isascii()
