"""A proof certificate (proved for every batch size m) as a LaTeX derivation: the claim
as printed, the notation (batch sums S[w] = Σ_{i=1}^m w_i, the roots and what they
are), the assumptions, the residual's two sides expanded in the sums, the cancellation
over their common denominator (the relations r² = … used), and "= 0 for every m"; for
the nonnegative method, the decomposition into manifestly nonnegative terms; for the sos
method, that decomposition (its pivots, sums of squares, counted positive) and a
paragraph per case where a pivot is 0: the input it fixes as a combination λ₀·1 + Σ λ_w·w
and how the case closes (R = 0, the claim undefined there, its own decomposition, or
cases of its own), each replayed by the checker's own case evaluator (checker/sos.py).

Every formula is printed from the independent checker's own normal forms
(checker/symbolic_program.py, symbolic_length.py), recomputed here from the certificate
the checker has accepted; nothing is read from the certificate as text but the claim's
statement (through the statement grammar) and its source (escaped)."""

from __future__ import annotations

import re
from fractions import Fraction

from ..checker.proof import read_statement
from ..checker.roots import sign_facts
from ..checker.sos import FRESH, CaseEvaluator, lambda_steps, outcome, pivot_vector, span_of
from ..checker.symbolic_length import M, ONE
from ..checker.symbolic_program import Evaluator
from .latex import Document, fraction, tt
from .latex_break import COLUMN, budget, parse, width
from .latex_program import symbol, variable

KIND_WORDS = {"identity": "= 0", "inequality": r"\ge 0", "strict-inequality": "> 0"}
DOMAIN_WORDS = {"nonzero": r"\neq 0", "positive": "> 0"}
# a residual that is a function of one operand, zero where that operand is
THROUGH = {"sum", "pow", "neg", "sqrt", "mul"}
ORDER = {"s": 0, "m": 1, "S": 2, "r": 3}
CHUNK = 12  # terms per display: a display cannot break across pages in the host paper  # factors of a term: scalars, m, sums, roots


class Names:
    """LaTeX for the checker's atoms and generators: inputs, S[w], roots (σ where a root
    is the batch standard deviation of an input vector)."""

    def __init__(self, alg, inputs: list, symbols: dict | None = None):
        self.alg, self.roots, self.parts = alg, {}, 0
        self.symbols = symbols or {}  # an input's base name -> its symbol (symbols_of)
        self.fresh: dict = {}  # a case's lambda (FRESH name) -> its symbol (set by _cases)
        vectors = [n for n, t, _ in inputs if t == "V"]
        for k, radicand in enumerate(alg.radicands):
            for v in vectors:
                if alg.is_zero(alg.add(radicand, variance(alg, v), -1)):
                    self.roots[k] = (r"\sigma" if len(vectors) == 1 or v == "y" else
                                     rf"\sigma_{{{name(v, self.symbols)}}}"), v
                    break

    def root(self, k: int) -> str:
        return self.roots[k][0] if k in self.roots else f"r_{{{k + 1}}}"

    def atom(self, a: tuple) -> str:
        if a == M:
            return "m"
        if a[0] == "s" and a[1].startswith(FRESH):  # a case's scalar lambda (checker/sos.py)
            return self.fresh[a[1]]
        if a[0] == "s":
            return name(a[1], self.symbols)
        if a[0] == "r":
            return self.root(a[1])
        return rf"S[{self.vmono(a[1])}]"

    def gen(self, g: tuple) -> str:
        if g[0] == "v":
            return name(g[1], self.symbols)
        return "(" + name(g[1], self.symbols) + (self.vmono(g[2]) or r"\mathbf{1}") + ")"

    def vmono(self, w: tuple) -> str:
        return r"\,".join(self.gen(g) + (f"^{{{e}}}" if e > 1 else "") for g, e in w)

    def poly(self, p: dict) -> str:
        if not p:
            return "0"
        # by falling degree, a positive term first, as a paper writes a polynomial
        items = sorted(p.items(), key=lambda kv: (-sum(e for _, e in kv[0]), repr(kv[0])))
        first = next((i for i, (_, c) in enumerate(items) if c > 0), 0)
        items.insert(0, items.pop(first))
        out = []
        for i, (mono, c) in enumerate(items):
            mono = sorted(mono, key=lambda ae: (ORDER.get(ae[0][0], 9), repr(ae[0])))
            factors = r"\,".join(self.atom(a) + (f"^{{{e}}}" if e > 1 else "") for a, e in mono)
            body = factors if abs(c) == 1 and factors else (fraction(abs(c)) + (r"\," + factors if factors else ""))
            out.append(("-" if c < 0 else "") + body if i == 0 else (" - " if c < 0 else " + ") + body)
        return "".join(out)

    def factor(self, f: tuple, e: int) -> str:
        p = dict(f)
        text = self.poly(p)
        if len(p) > 1 or any(c < 0 for c in p.values()):
            text = rf"\left({text}\right)"
        return text + (f"^{{{e}}}" if e > 1 else "")

    def denominator(self, den: dict) -> str:
        return r"\,".join(self.factor(f, e) for f, e in sorted(den.items(), key=repr))

    def scalar(self, s: tuple) -> str:
        num, den = s
        if not den:
            return self.poly(num)
        d = self.denominator(den)
        inside = self.poly(num)
        if len(num) > 1:
            inside = rf"\left({inside}\right)"
        elif inside.startswith("-"):  # one term: its sign leads, never "\frac{1}{m}\,-S[x]"
            return rf"-\frac{{1}}{{{d}}}\,{inside[1:]}"
        return rf"\frac{{1}}{{{d}}}\,{inside}"

    def vector(self, v: dict) -> str:
        if not v:
            return "0"
        out = []
        for i, (w, s) in enumerate(sorted(v.items(), key=repr)):
            coefficient = self.scalar(s)
            if len(s[0]) > 1 and not s[1]:
                coefficient = rf"\left({coefficient}\right)"
            term = coefficient + r"\,\mathbf{1}" if w == ONE else (
                self.vmono(w) if coefficient == "1" else rf"{coefficient}\,{self.vmono(w)}")
            out.append(term if i == 0 else (term if term.startswith("-") else "+ " + term))
        return " ".join(out)

    def value(self, value, t: str) -> str:
        return self.scalar(value) if t == "S" else self.vector(value)

    def _overflows(self, lhs: str, num: dict, den: dict) -> bool:
        """Whether lhs = \\frac{1}{den}\\,\\Bigl(term with the widest term of num would be
        wider than a column (latex_break's estimate): the first line a break can leave."""
        head = width(parse(rf"{lhs} = \frac{{1}}{{{self.denominator(den)}}}\,\Bigl("))
        widest = max(width(parse(self.poly({mono: c}))) for mono, c in num.items())
        return head + widest > budget(COLUMN)

    def show(self, out, lhs: str, value, t: str = "S", rel: str = "=", after: str = "") -> None:
        """lhs = value as displays no taller than a column: a long numerator, or one over a
        denominator of sums, is written P_1 + P_2 + ..., each part CHUNK terms, displayed
        after it."""
        num, den = value if t == "S" else ({}, {})
        # a sum over a denominator of sums: written \frac{1}{D}(P), P displayed after, since a
        # line can break only between terms and D with a first term overflows a column
        compound = len(num) > 1 and any(len(f) > 1 for f in den) and self._overflows(lhs, num, den)
        if t != "S" or len(num) <= CHUNK and not compound:
            out.equation(lhs, self.value(value, t) + after, rel)
            return
        items = sorted(num.items(), key=repr)
        parts = [dict(items[i:i + CHUNK]) for i in range(0, len(items), CHUNK)]
        self.parts += len(parts)
        first = self.parts - len(parts) + 1
        names = " + ".join(f"P_{{{first + i}}}" for i in range(len(parts)))
        whole = rf"\frac{{1}}{{{self.denominator(den)}}}\,\left({names}\right)" if den else names
        out.equation(lhs, whole + after, rel)
        out.para(f"where, in {len(items)} terms,")
        for i, part in enumerate(parts):
            out.equation(f"P_{{{first + i}}}", self.poly(part))


def variance(alg, v: str) -> tuple:
    """S[v^2]/m - (S[v]/m)^2 in the checker's algebra."""
    m = alg.atom(M)
    inv = alg.inverse(m, "m")
    square = alg.mul(alg.atom(("S", ((("v", v), 2),))), inv)
    mean = alg.mul(alg.atom(("S", ((("v", v), 1),))), inv)
    return alg.add(square, alg.mul(mean, mean), -1)


def name(input_name: str, symbols: dict | None = None) -> str:
    """An input as math: y, \\gamma, its symbol where the claim gives one (symbols_of); a
    column X:j as X_{j+1}, an entry w:j as w_{j+1}."""
    base, _, rest = input_name.partition(":")
    shown = (symbols or {}).get(base) or variable(base)
    if not rest:
        return shown
    return shown + "_{" + ",".join(str(int(j) + 1) for j in rest.split(":")) + "}"


# A symbol that can stand for a variable in every formula of a proof, sums, entries and
# powers included: one letter, a Greek letter, or one letter in a font or under an accent.
# The others (y_j, \nabla_{y_j}\mathcal{L}: a unit's vector, a gradient) are named once,
# "in the notation of the statement", and the proof keeps the variable's own name.
ONE_SYMBOL = re.compile(r"[A-Za-z]|\\[A-Za-z]+|\\(?:mathbf|boldsymbol|mathit|mathrm|mathcal|mathsf|hat|"
                        r"tilde|bar|widehat|widetilde)\{[A-Za-z]\}")


def symbols_of(inputs: list, source, statement: str) -> dict:
    """{base name: symbol} for the inputs the proof writes in the claim's own symbols: those
    the claim declares (its `symbols`) as one symbol, and the names of a Greek letter
    written short (eps: \\varepsilon, or \\epsilon where the statement writes that)."""
    out = {}
    for n, _, _ in inputs:
        base = n.partition(":")[0]
        written = symbol(base, source, statement).strip()
        if ONE_SYMBOL.fullmatch(written):
            out[base] = written
    return out


def principal(ops: list, types: list, values: list, alg, k: int) -> int:
    """The step whose two sides the derivation compares: from the residual down through
    sums, squares and negations of a value that is itself 0, to a difference."""
    while True:
        op, args, literal = ops[k]
        same = op != "mul" or args[0] == args[1]
        if op in THROUGH and same and (op != "pow" or literal > 0) and is_zero(alg, values[args[0]], types[args[0]]):
            k = args[0]
            continue
        return k


def is_zero(alg, value, t: str) -> bool:
    return alg.is_zero(value) if t == "S" else t == "V" and not value


def document(doc: dict, checker_line: str, name_: str, source=None) -> Document:
    """The derivation for an accepted proof certificate; source: its Claim, where known."""
    claim, inputs, ops, types, residual, hyps = read_statement(doc)
    ev = Evaluator(inputs, sign_facts(inputs, ops, hyps))  # the checker's normal form, signs and all
    ev.run(ops, types)
    names = Names(ev.alg, inputs, symbols_of(inputs, source, claim["statement"]))
    method = doc["proof"]["method"]
    # one proof per fixed size (d = 1, 2, 3): each its own labels in one paper
    key = claim["id"] + "".join(f"-{k}{v}" for k, v in sorted(doc["fixed"].items()))
    out = Document(rf"Proof of {tt(claim['id'])} for every batch size", key=key,
                   provenance=_provenance(doc, checker_line, name_))
    out.claim("The claim", claim["source"], claim["statement"])
    kind = claim["kind"]
    out.para(f"Its residual $R$ is a quantity that is ${KIND_WORDS[kind]}$ exactly when the claim "
             "holds on an instance (for an inequality, the right side minus the left side). "
             "We show that it is so for every batch size $m$"
             + (", at " + ", ".join(f"${k} = {v}$" for k, v in sorted(doc["fixed"].items()))
                if doc["fixed"] else "") + ".")
    out.reading(source)
    used = _notation(out, doc, inputs, ev, names, source)
    _assumptions(out, inputs, hyps, ev, names)
    _sides(out, ops, types, residual, ev, names, used)
    if method in ("nonnegative", "sos"):
        signs = sign_facts(inputs, ops, hyps)
        labels = _decomposition(out, doc["proof"], ops, types, hyps, inputs, names,
                                Evaluator(inputs, signs), {})
        if method == "sos":
            _cases(out, doc["proof"], ops, types, residual, hyps, inputs, names, signs, ev, (), labels)
    _conclusion(out, kind, method, doc["witness"]["m"])
    return out


def _notation(out, doc, inputs, ev, names, source) -> set:
    out.section("Notation")
    vectors = [name(n, names.symbols) for n, t, _ in inputs if t == "V"]
    scalars = [name(n, names.symbols) for n, t, _ in inputs if t == "S"]
    matrices = [name(n, names.symbols) for n, t, _ in inputs if t == "M"]
    parts = []
    if vectors:
        parts.append(_list(vectors) + (r" are vectors" if len(vectors) > 1 else " is a vector")
                     + r" in $\mathbb{R}^m$")
    if matrices:
        parts.append(_list(matrices) + r" a symmetric $m \times m$ matrix")
    if scalars:
        parts.append(_list(scalars) + (" are real numbers" if len(scalars) > 1 else " is a real number"))
    text = "; ".join(parts) + ". "
    given = getattr(source, "symbols", {}) or {}
    said = [f"${name(n, names.symbols)}$ is ${symbol(n, source)}$" for n, _, _ in inputs
            if n in given and symbol(n, source) != name(n, names.symbols)]
    if said:
        text += "In the notation of the statement, " + ", ".join(said) + ". "
    text += ("Products and powers of vectors are taken entrywise, and for a vector $w$ we write "
             r"$S[w] = \sum_{i=1}^m w_i$ (so $S[1] = m$).")
    out.para(text)
    if any(g for g in _generators(ev)):
        out.para(r"For a vector $w$, $(Hw)$ is the matrix $H$ applied to it; as $H$ is symmetric, "
                 r"$S[u\,(Hw)] = u^\top H w = S[w\,(Hu)]$.")
    atoms = sorted({a for v in ev.values if type(v) is tuple and len(v) == 2 and type(v[0]) is dict
                    for mono in v[0] for a, _ in mono if a[0] == "S"}, key=repr)
    if atoms:
        out.para("The sums that occur below are")
        out.aligned([(names.atom(a), r"\sum_{i=1}^m " + _entry(names, a[1])) for a in atoms])
    if ev.alg.radicands:
        roots = []
        for k, radicand in enumerate(ev.alg.radicands):
            roots.append((names.root(k) + "^2", names.scalar(radicand)))
        said = [k for k in names.roots]
        out.para("Each square root is a symbol whose square is its radicand"
                 + (": " + ", ".join(
                     rf"${names.root(k)} \ge 0$ is the batch standard deviation of "
                     rf"${name(names.roots[k][1], names.symbols)}$, with mean $\mu = \frac{{1}}{{m}}\,S[{name(names.roots[k][1], names.symbols)}]$"
                     for k in said) if said else "") + "; the relations used are")
        out.aligned(roots)
        signed = sorted(n for n, v in ev.alg.signs.items() if v)
        if signed:
            out.para("A square whose sign is known leaves a root before it is named: "
                     r"$\sqrt{a^2 X} = a\sqrt{X}$ for $a > 0$ and $-a\sqrt{X}$ for $a < 0$ (here "
                     + _list([names.atom(("s", n)) for n in signed])
                     + r"), and $\sqrt{a^4 X} = a^2\sqrt{X}$ whatever the sign of $a$.")
    return {a for a in atoms}


def _list(items: list) -> str:
    items = [f"${x}$" for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _generators(ev):
    return [w for v in ev.values if type(v) is dict for w in v for g, _ in w if g[0] == "H"]


def _entry(names: Names, w: tuple) -> str:
    """The i-th entry of a vector monomial: y_i^2 g_i, (Hg)_i."""
    parts = []
    for g, e in w:
        shown = name(g[1], names.symbols)
        base = f"{shown}_i" if g[0] == "v" else names.gen(g) + "_i"
        if "_" in shown and g[0] == "v":  # a column X_{1}: its entry X_{i,1}
            base = shown.replace("_{", "_{i,")
        parts.append(base + (f"^{{{e}}}" if e > 1 else ""))
    return r"\,".join(parts)


def _assumptions(out, inputs, hyps, ev, names) -> None:
    out.section("Assumptions")
    domains = [f"${name(n, names.symbols)} {DOMAIN_WORDS[d]}$" for n, t, d in inputs if d in DOMAIN_WORDS]
    text = ("The claim is read wherever every division in it is by a nonzero number and every "
            "square root is of a nonnegative one (a root that is differentiated, of a positive one)")
    text += (", for every " + ", ".join(domains) if domains else "")
    out.para(text + (", and under the hypotheses" if hyps else "") + ".")
    if hyps:
        for i, h in enumerate(hyps, 1):
            names.show(out, f"h_{{{i}}}", ev.values[h], after=" > 0")


def _sides(out, ops, types, residual, ev, names, used) -> None:
    alg = ev.alg
    out.section("The residual in normal form")
    k = principal(ops, types, ev.values, alg, residual)
    op, args, _ = ops[k]
    if k != residual:
        out.para(f"The residual is built from a {'vector' if types[k] == 'V' else 'quantity'} $D$ "
                 "(through sums, squares or negations) and is $0$ wherever $D$ is; $D$ is a "
                 "difference of two terms.")
    if op in ("sub", "add") and types[k] in ("S", "V") and types[args[0]] == types[args[1]] == types[k]:
        a, b = (ev.values[j] for j in args)
        what = "D" if k != residual else "R"
        out.para(f"Expanded in the sums, ${what} = T_1 {'-' if op == 'sub' else '+'} T_2$ with")
        names.show(out, "T_1", a, types[k])
        names.show(out, "T_2", b, types[k])
        if types[k] == "S":
            _cancellation(out, alg, a, b, -1 if op == "sub" else 1, names)
        else:
            out.para("Term by term (each coefficient a quantity as above), the two sides have the "
                     "same expansion once the relations are used, so $D = 0$.")
        if k == residual and types[k] == "S":
            return  # the cancellation's display is R's normal form
    else:
        out.para("Expanded in the sums, with the relations used,")
    names.show(out, "R", ev.values[residual])


def _cancellation(out, alg, a, b, c, names) -> None:
    (na, da), (nb, db) = a, b
    lcm = {f: max(da.get(f, 0), db.get(f, 0)) for f in {*da, *db}}
    left = alg.pmul(na, alg.expand({f: e - da.get(f, 0) for f, e in lcm.items()}))
    right = alg.pmul(nb, alg.expand({f: e - db.get(f, 0) for f, e in lcm.items()}))
    before = alg.padd(left, right, c)
    den = r"\,".join(names.factor(f, e) for f, e in sorted(lcm.items(), key=repr)) or "1"
    sign = "-" if c < 0 else "+"
    if any(len(f) > 1 for f in lcm):  # a denominator of sums: its own line, not a column's
        out.para("Over the common denominator")
        out.display(den)
        text = f"the numerator of $T_1 {sign} T_2$ expands into {len(left)} and {len(right)} terms"
    else:
        text = (f"Over the common denominator ${den}$, the numerator of $T_1 {sign} T_2$ expands "
                f"into {len(left)} and {len(right)} terms")
    result = alg.normal(before, lcm)
    if not before:
        out.para(text + ", which cancel term by term:")
    else:
        out.para(text + f", {len(before)} after like terms are collected; with each root's square "
                 "replaced by its radicand, they " + ("cancel:" if alg.is_zero(result) else "reduce to"))
    names.show(out, f"R = T_1 {sign} T_2", result)


def _decomposition(out, proof, ops, types, hyps, inputs, names, ev, labels, case: str = "") -> dict:
    """R·denominator = Σ coefficient·factors, the factors labelled q_k (numbered on from
    `labels`, the ones already used); ev: the program's evaluator (a case's, in a case) not
    yet run.  For sos, each pivot counts positive: where it is 0 is one of its cases."""
    from ..checker.symbolic_program import read_steps

    all_types = list(types)
    extra = read_steps(proof["steps"], [], all_types, "proof.steps", proof=True)
    ev.run(ops + extra, all_types)
    names = _names(ev.alg, inputs, names)
    every = ops + extra
    pivots = {c["pivot"]: f"{case}{i}" for i, c in enumerate(proof.get("cases", ()), 1)}
    if not case:
        out.section("A sum of nonnegative terms")
    factors = sorted({f for term in proof["terms"] for f in term["factors"]} | set(proof["denominator"]))
    first = len(labels) + 1
    label = {f: f"q_{{{i}}}" for i, f in enumerate(factors, first)}
    labels.update({(case, f): v for f, v in label.items()})
    out.para(("In this case, with" if case else "With") + " the quantities, each nonnegative by its form "
             "(as noted beside it),")
    for f in factors:
        why = (rf"\text{{a sum of squares; case {pivots[f]} if $0$}}" if f in pivots
               else _why(every, f, set(hyps), inputs))
        names.show(out, label[f], ev.values[f], after=r",\quad " + why)
    den = r"\,".join(_powers([label[d] for d in proof["denominator"]]))
    terms = []
    for term in proof["terms"]:
        c = Fraction(term["coefficient"])
        body = r"\,".join(_powers([label[f] for f in term["factors"]]))
        terms.append((fraction(c) if c != 1 or not body else "") + (r"\," if c != 1 and body else "") + body)
    out.para("the residual satisfies, as the expansion of both sides (with the relations) shows,")
    out.equation(f"R\\,{den}" if den else "R", " + ".join(terms))
    positive = ("positive (a pivot, a sum of squares, where it is not $0$; where it is, a case "
                "below applies)" if pivots else "positive")
    out.para(f"Each $q_k$ is nonnegative; those multiplying $R$ on the left are {positive}, and every "
             "coefficient is positive, so $R$ is a sum of nonnegative terms divided by a positive "
             "number" + (" wherever no pivot is $0$." if pivots else "."))
    return labels


def _names(alg, inputs, names) -> Names:
    """Names for another evaluator's algebra (its own roots), the same symbols and lambdas."""
    out = Names(alg, inputs, names.symbols)
    out.fresh = names.fresh
    return out


LAMBDAS = (r"\lambda", r"\mu", r"\nu")  # a case's scalars, one letter a level (sos.MAX_DEPTH)


def _cases(out, proof, ops, types, residual, hyps, inputs, names, signs, ev, subs, labels,
           case: str = "") -> None:
    """A paragraph per case of an sos proof (of the program, or of its case `subs`): the pivot
    Σq∘q = 0 makes q = 0, which fixes the case's input as a combination of the others; the
    program replayed with it (checker/sos.py) closes the case.  ev: the evaluator, run, that
    the proof's steps are read in."""
    from ..checker.symbolic_program import read_steps

    fresh = lambda_steps(subs)  # the program's steps, then the lambdas, then the proof's
    all_types = list(types) + ["S"] * len(fresh)
    extra = read_steps(proof["steps"], [], all_types, "proof.steps", proof=True)
    ev.run(extra, all_types)
    every = ops + fresh + extra
    vectors = {n for n, t, _ in inputs if t == "V"}
    if not case:
        out.section("Where a pivot is 0")
        out.para("Each case below is that of one pivot being $0$ while those computed before it, in "
                 "the order of the steps, are positive (so that it is defined); its proof holds for "
                 "every value of the case's new real numbers.")
    for i, c in enumerate(proof["cases"], 1):
        number = f"{case}{i}"
        q = pivot_vector(every, all_types, c["pivot"], "case")
        x = c["input"]
        span = span_of(ev.alg, ev.values[q], x, vectors, "case")
        level = len(subs)
        vecs = [r"\mathbf{1}" if w == ONE else name(w, names.symbols) for w in span]
        fresh = {f"{FRESH}{level}_{j}": LAMBDAS[level] + "_{" + ("0" if w == ONE else v) + "}"
                 for j, (w, v) in enumerate(zip(span, vecs))}
        names.fresh = {**names.fresh, **fresh}
        shown = name(x, names.symbols)
        combo = " + ".join(lam + r"\," + v for lam, v in zip(fresh.values(), vecs)) or "0"
        out.subsection(f"Case {number}")
        pivot = labels.get((case, c["pivot"]))
        out.para(f"The pivot {'$' + pivot + '$' if pivot else 'of this case'} is $S[u^{{2}}]$ "
                 "for the vector")
        names.show(out, "u", ev.values[q], "V")
        plural = "s" if len(span) > 1 else ""
        out.para("and where it is $0$, $u = 0$ entrywise, so that "
                 + (f"${shown}$ is a combination of the others: for real number{plural} "
                    f"${', '.join(fresh.values())}$," if span else f"${shown}$ is $0$:"))
        out.equation(shown, combo)
        _close(out, c["proof"], ops, types, residual, hyps, inputs, names, signs, ev,
               subs + ((x, span),), labels, number, f"With ${shown}$ so replaced throughout the claim")


def _close(out, proof, ops, types, residual, hyps, inputs, names, signs, parent, subs, labels, number,
           lead):
    """How case `number` closes: the program (ops, types) with its substitutions (subs)."""
    fresh = lambda_steps(subs)
    count = len(ops)
    full, full_types = ops + fresh, list(types) + ["S"] * len(fresh)
    case_ev, undefined = outcome(inputs, full, full_types, signs, list(subs))
    method = proof["method"]
    if method == "undefined":
        k = int(undefined.split()[-1]) if undefined and undefined.split()[-1].isdigit() else None
        op, args, _ = ops[k] if k is not None and k < count else ("", (), None)
        divisor = args[1] if op == "div" else args[0] if op == "pow" else None
        if divisor is None or parent.types[divisor] != "S":
            out.para(lead + ", a step of the claim divides by a quantity whose normal form is "
                     "$0$: the claim is defined nowhere in this case, which leaves nothing to show.")
            return
        out.para(lead + ", it divides by the quantity")
        names.show(out, "D", parent.values[divisor])
        out.para("whose normal form, with the substitution, is $0$: the claim is defined nowhere in "
                 "this case, which leaves nothing to show.")
        return
    case_names = _names(case_ev.alg, inputs, names)
    if method == "zero":
        out.para(lead + ", the residual's normal form is")
        case_names.show(out, "R", case_ev.values[residual])
        out.para("so the claim holds in this case, with equality.")
        return
    key = f"{number}."
    out.para(lead + (", the residual is again a sum of nonnegative terms, with cases of its own."
                     if method == "sos" else ", the residual is a sum of nonnegative terms."))
    labels = _decomposition(out, proof, full, full_types, hyps, inputs, case_names,
                            CaseEvaluator(inputs, signs, list(subs)), labels, key)
    if method == "sos":
        _cases(out, proof, ops, types, residual, hyps, inputs, case_names, signs, case_ev, subs,
               labels, key)


def _powers(labels: list) -> list:
    counts: dict = {}
    for x in labels:
        counts[x] = counts.get(x, 0) + 1
    return [x + (f"^{{{n}}}" if n > 1 else "") for x, n in counts.items()]


def _why(ops: list, k: int, hyps: set, inputs: list, depth: int = 0) -> str:
    """Words for why step k is manifestly >= 0 (the checker decided that it is)."""
    op, args, n = ops[k]
    positive = {name_ for name_, t, d in inputs if d == "positive"}
    if k in hyps:
        return r"\text{a hypothesis}"
    if op == "m":
        return r"\text{the batch size}"
    if op == "input" and n in positive:
        return r"\text{positive}"
    if op == "const":
        return r"\text{a constant}"
    if op == "sqrt":
        return r"\text{a square root}"
    if op == "pow" and n % 2 == 0:
        return r"\text{a square}" if n == 2 else r"\text{an even power}"
    if op == "sum":
        return r"\text{a sum of squares}"
    if op == "pow" and depth < 4:
        return _why(ops, args[0], hyps, inputs, depth + 1)
    return r"\text{a product or sum of such}"


def _conclusion(out, kind, method, witness_m) -> None:
    out.section("Conclusion")
    if method == "zero" and kind == "identity":
        said = r"R = 0"
        words = "the identity holds"
    elif method == "zero":
        said = r"R = 0 \ge 0"
        words = "the inequality holds, with equality"
    elif method == "substitution":  # the equalities fix inputs; substituted, R's normal form is 0
        said = r"R = 0" if kind == "identity" else r"R = 0 \ge 0"
        words = (("the identity holds" if kind == "identity" else "the inequality holds, with equality")
                 + " (on the set where the claim's equalities hold: each scalar input an equality "
                   "fixes is substituted by its value, and R's normal form is then 0)")
    else:
        said = r"R > 0" if kind == "strict-inequality" else r"R \ge 0"
        words = "the inequality holds"
    out.para("No step above depends on the value of $m$, so for every batch size $m \\ge 1$, "
             "wherever the claim is defined and its assumptions hold,")
    out.display(said)
    out.para(f"that is, {words} for every $m$. The assumptions can all be met: they hold on an "
             f"instance with $m = {witness_m}$.")


def _provenance(doc: dict, checker_line: str, name_: str) -> str:
    return (f"Certificate {name_}: a proof for every batch size m, the residual as a "
            f"symbolic-length program of {len(doc['program']['steps'])} steps,\nreplayed by the "
            f"stdlib-only checker in its own normal forms (the formulas below are printed from "
            f"them):\n{' '.join(checker_line.split())}")
