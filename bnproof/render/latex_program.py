"""A refutation certificate of the program kind as a LaTeX document: the claim as
printed, the counterexample, and the violated residual, exactly.

The certificate has already been accepted by the independent checker; the
values here are recomputed from its instance and straight-line program by
the exact evaluator (bnproof.program.evaluate), never read from text as code.
The quantities a claim names (Claim.quantities: LHS, RHS, μ, σ, ŷ, …) are traced
with the claim language's exact namespace, as the residual is, and evaluated on
the instance the same way; the functions come from the claim object the user
gave, never from the certificate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy

from ..claims import xp as namespaces
from ..claims.decide import _inputs as input_array, _node as node
from ..program.evaluate import DomainError, decide_sign, run, to_sympy, tree_sizes
from ..program.trace import TRANSCENDENTAL, Program
from .latex import Document, decimal, escape, mathit, matrix, number, text_style, tt, vector
from .latex_text import safe_statement

# A residual whose expression tree (shared subexpressions counted each time)
# is larger than this is shown only as a rounded decimal from a rigorous
# enclosure; expanding it exactly could take very long.
MAX_TREE = 10_000_000
ENCLOSURE_BITS = 256
DECIMAL_BITS = (64, 256, 1024, 4096)  # the shown decimal's ball, finer until it has its digits

_GREEK_NAMES = {"gamma", "beta", "sigma", "mu", "lambda", "kappa", "alpha", "delta", "epsilon",
                "theta", "rho", "tau", "phi", "psi", "omega", "eta", "xi", "nu", "zeta", "chi",
                "varepsilon", "varphi", "vartheta"}
_ALIASES = {"lam": "lambda", "eps": "epsilon"}  # names a claim writes for lambda (a keyword), ε

SIGN_WORDS = {
    "inequality": ("residual", "< 0", r"the inequality fails (its residual must be $\ge 0$)"),
    "strict-inequality": ("residual", r"\le 0",
                          r"the strict inequality fails (its residual must be $> 0$)"),
    "identity": ("residual", r"\neq 0", r"the identity fails (its residual must be $0$)"),
}


@dataclass(frozen=True)
class Evaluated:
    hypotheses: list  # exact SymPy values, or None where too large to show
    residual: sympy.Expr | None
    residual_decimal: str
    equalities: list = ()  # exact SymPy values (each 0: the checker proved it), or None
    guards: tuple = (0, 0)  # (guarded values, of which present) on this instance


def variable(name: str, statement: str = "") -> str:
    """A certificate variable name (checked: [A-Za-z_][A-Za-z0-9_]*) as math; eps and
    epsilon as the ε the statement writes (\\varepsilon, unless it writes \\epsilon)."""
    base = _ALIASES.get(name, name)
    if base == "epsilon" and not re.search(r"\\epsilon(?![A-Za-z])", statement):
        return r"\varepsilon"
    if base in _GREEK_NAMES:
        return "\\" + base
    if re.fullmatch(r"[A-Za-z]", base):
        return base
    return mathit(base)


def _inputs(instance: dict):
    def lookup(name, index):
        value = instance[name]
        for i in index:
            value = value[i]
        return Fraction(value)  # canonical "p/q", already checked; Fraction parses, never evaluates
    return lookup


def evaluate(doc: dict) -> Evaluated:
    program, inputs = doc["program"], _inputs(doc["instance"])
    steps, sizes = program["steps"], tree_sizes(program["steps"])

    def exact(index):
        if sizes[index] > MAX_TREE:
            return None
        return sympy.radsimp(sympy.expand(to_sympy(steps[: index + 1], inputs, index)))

    residual = exact(program["residual"])
    if residual is not None and residual.is_Rational:
        shown = decimal(residual, 10)
    else:
        shown = _rigorous_decimal(steps, inputs, program["residual"], 10)
        if shown is None:
            value = run(steps, inputs, ENCLOSURE_BITS)[program["residual"]]
            shown = decimal(sympy.Rational(value.lo + value.hi) / 2, 10)
    return Evaluated([exact(h) for h in program["hypotheses"]], residual, shown,
                     [exact(e) for e in program.get("equalities", ())], _guards(steps, inputs))


def _rigorous_decimal(steps: list, inputs, index: int, digits: int) -> str | None:
    """The decimal of an irrational value from a ball that excludes 0 and is narrow enough
    for its digits, or None.  SymPy's evalf gives up on a cancellation without saying so:
    tanh(1000) - 1 (about -5e-869) came out as 0.0 in a refutation."""
    for bits in DECIMAL_BITS:
        try:
            value = run(steps, inputs, bits)[index]
        except ArithmeticError:
            return None
        lo, hi = value.lo, value.hi
        if lo is None or hi is None or lo <= 0 <= hi:
            continue
        if (hi - lo) * 10 ** (digits + 2) <= min(abs(lo), abs(hi)):
            return decimal(sympy.Rational(lo + hi) / 2, digits)
    return None


def _guards(steps: list, inputs) -> tuple[int, int]:
    """(the guard steps, those whose value is present): at 64 bits, an absent step is
    the interval with no ends; the checker decided every guard the residual reads."""
    count = sum(step[0] == "guard" for step in steps)
    if not count:
        return 0, 0
    try:
        values = run(steps, inputs, 64)
    except ArithmeticError:  # counted only for the reader: the certificate stands
        return count, None
    return count, sum(step[0] == "guard" and values[k].lo is not None for k, step in enumerate(steps))


def document(doc: dict, checker_line: str, name: str, source=None) -> Document:
    """source: the Claim the certificate is of, where known (its symbols and hypothesis
    names are then used); None shows the certificate's own variable names."""
    claim = doc["claim"]
    statement = safe_statement(claim["statement"])
    out = Document(rf"Refutation of {tt(claim['id'])}", key=claim["id"],
                   provenance=_provenance(doc, checker_line, name))
    out.claim("The claim as printed", claim["source"], statement)
    kind = claim["kind"]
    out.para("Its residual is a quantity that is "
             + {"inequality": r"$\ge 0$", "strict-inequality": r"$> 0$",
                "identity": r"$= 0$"}[kind]
             + " exactly when the claim holds on an instance (for an inequality, the right side "
             "minus the left side).")
    out.reading(source)
    _counterexample(out, doc["instance"], source)
    _residual(out, doc, evaluate(doc), source)
    return out


def _provenance(doc: dict, checker_line: str, name: str) -> str:
    """Comment lines for the top of the document: how it was checked (not the paper's voice)."""
    how = (r"exact rationals and rigorous intervals (\exp, \log, \arccos, \tanh and \pi "
           "enclosed by integer series with proved truncation bounds)" if _transcendental(doc)
           else "exact rationals and rigorous intervals")
    return (f"Certificate {name}: the instance and the residual as a straight-line program of "
            f"{len(doc['program']['steps'])} steps,\nreplayed by the stdlib-only checker with "
            f"{how}:\n{' '.join(checker_line.split())}")


def symbol(name: str, source, statement: str | None = None) -> str:
    """A variable as the statement writes it (the claim's `symbols`), else by its name
    (eps as the statement's ε); `statement`: the certificate's, where there is no claim."""
    written = getattr(source, "symbols", {}).get(name)
    if written:
        return safe_statement(written)
    return variable(name, str(getattr(source, "statement", None) or statement or ""))


def _hypothesis_names(count: int, source, instance: dict) -> list[str]:
    """What each scalar hypothesis measures, as LaTeX text, where the claim says: the
    name given with claims.hypothesis(…), else its function's name (`def variance` →
    variance), else "" (then it is only h_k); an array-valued hypothesis names its
    entries "name, i of n"."""
    from ..claims.naming import hypothesis_name
    functions = list(getattr(source, "hypotheses", ()))
    counts = entry_counts(source, instance, functions) if functions else None
    if counts is None or sum(counts) != count:
        return [""] * count  # cannot tell which entry is whose: numbers only, never a wrong name
    names = []
    for function, n in zip(functions, counts):
        text = _hypothesis_text(hypothesis_name(function), getattr(function, "__name__", ""))
        names.extend(text + (f", {i} of {n}" if n > 1 and text else "") for i in range(1, n + 1))
    return names


def _hypothesis_text(given: str | None, function_name: str) -> str:
    """LaTeX text for a hypothesis name: words escaped, $…$ through the statement grammar."""
    if given is not None:
        pieces = given.split("$")
        return "".join(escape(p) if k % 2 == 0 else "$" + safe_statement(p) + "$"
                       for k, p in enumerate(pieces))
    word = function_name.strip("_")
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", word):
        return escape(word.replace("_", " "))
    return ""


def _counterexample(out: Document, instance: dict, source=None) -> None:
    from .laws import grouped

    out.section("The counterexample")
    rows, laws = [], []
    for key, value, is_law in grouped(source, {k: instance[k] for k in sorted(instance)}):
        if not is_law:
            rows.append((symbol(key, source), _value(value, out)))
            continue
        name = symbol(key, source)
        laws.append(f"${name}$")
        rows.extend((rf"\Pr({name} = {_value(point, out)})", number(p, out.longs, f"P({key})"))
                    for point, p in value)
    if laws:  # the law's support and weights are what the certificate holds
        out.para(" and ".join(laws) + (" is a discrete law" if len(laws) == 1 else " are discrete laws")
                 + " (the certificate holds its support points and positive weights; a "
                 "probability is its weight over their sum):")
    out.aligned(rows)


def _value(value, out: Document) -> str:
    if isinstance(value, str):
        return number(Fraction(value), out.longs, "instance value")
    if value and all(isinstance(v, list) for v in value):
        return matrix([[Fraction(x) for x in row] for row in value])
    return r"\left(" + ", ".join(_value(v, out) for v in value) + r"\right)"


def _residual(out: Document, doc: dict, ev: Evaluated, source=None) -> None:
    kind = doc["claim"]["kind"]
    _, violated, meaning = SIGN_WORDS[kind]
    if ev.hypotheses or ev.equalities:
        out.section("The hypotheses hold")
    if ev.hypotheses:
        out.para("Each hypothesis of the claim must be positive; on the counterexample, each "
                 "is named and its exact value shown:")
        names = _hypothesis_names(len(ev.hypotheses), source, doc["instance"])
        rows = []
        for k, h in enumerate(ev.hypotheses, 1):
            shown = number(h, out.longs, f"hypothesis {k}") if h is not None else None
            value = (rf"$h_{{{k}}} > 0$ (decided by intervals)" if shown is None else
                     rf"$h_{{{k}}} {'' if shown.startswith(chr(92) + 'approx') else '= '}{shown} > 0$")
            value = text_style(value)  # a list item is running text
            rows.append(f"{names[k - 1]}: {value}" if names[k - 1] else value)
        out.items(rows)
    if ev.equalities:
        out.para("The equality hypotheses of the claim hold exactly on this instance (each is "
                 "exactly $0$, not within a rounding of $0$):")
        out.aligned([(rf"e_{{{k}}}", number(e, out.longs, f"equality {k}") if e is not None
                      else r"0 \quad \text{(exactly; too large to expand here)}")
                     for k, e in enumerate(ev.equalities, 1)])
    _quantities(out, doc, source)
    out.section("The violated residual")
    if ev.guards[0]:
        count, present = ev.guards
        out.para(f"The residual is built from {count} guarded values" + (
            f", {present} of which are present on this instance" if present is not None else "")
            + r": a guarded value is")
        out.display(r"\operatorname{guard}(v, g) = \begin{cases} v & \text{if } g \ge 0, \\ "
                    r"\text{absent} & \text{if } g < 0, \end{cases}")
        out.para(r"a minimum skips absent values (for the distance to a set, the candidates that do "
                 r"not qualify), and any other operation on an absent value, or an absent result, "
                 r"is undefined, never $+\infty$.  Each condition's sign was decided exactly.")
    out.para("Evaluated exactly on the counterexample, the residual is")
    if ev.residual is not None:
        exact = number(ev.residual, out.longs, "residual")
        if ev.residual.is_Rational:
            out.equation(r"\text{residual}", f"{exact} {violated}")
        else:
            out.steps(r"\text{residual}", [("=", exact),
                                           (r"\approx", f"{ev.residual_decimal} {violated}")])
    else:
        out.equation(r"\text{residual}", rf"{ev.residual_decimal} {violated}", rel=r"\approx")
    rounded = ev.residual is None or not ev.residual.is_Rational
    how = ("by rigorous enclosures, never by the rounded decimal" if _transcendental(doc)
           else "exactly")
    out.para(rf"so {meaning}: \textbf{{the claim is refuted}} on this instance."
             + (f" The decimal is rounded from the exact value; the sign is decided {how}."
                if rounded else ""))
    if kind == "strict-inequality" and ev.residual is not None and ev.residual == 0:
        out.para(r"The residual is exactly $0$: the two sides are equal, so the claim fails "
                 r"only in the equality case of its strict inequality, which the statement as "
                 r"printed (with $<$) excludes.")


def _quantities(out: Document, doc: dict, source) -> None:
    """The claim's named quantities (LHS, RHS, μ, σ, ŷ, ...) on the counterexample, and
    the violated inequality between LHS and RHS where the claim names both."""
    if not getattr(source, "quantities", None):
        return
    values = quantities(source, doc["instance"], _inputs(doc["instance"]), MAX_TREE)
    names = [name for name, _ in values]
    both = "LHS" in names and "RHS" in names
    # "two sides" only where the claim names both; an identity such as Remark 2.7's names
    # the batch statistics and the output it compares, which are no sides
    out.section("The two sides on the counterexample" if both else "The quantities on the counterexample")
    rows = []
    for name, entries in values:
        shown = _name(name)
        if entries is None:
            rows.append((shown, r"\text{(undefined here, or too large to expand)}"))
        elif len(entries) == 1:  # a decimal beside an irrational value only: 1/2 needs none
            rows.append((shown, number(entries[0], out.longs, name, approx=not entries[0].is_Rational)))
        else:
            rows.append((shown, vector(entries, out.longs, name, approx=True)))
    out.aligned(rows)
    sides = dict(values)
    lhs, rhs = sides.get("LHS"), sides.get("RHS")
    if not (lhs and rhs and len(lhs) == len(rhs) == 1):
        return
    sign = sides_sign(source, doc["instance"], _inputs(doc["instance"]))
    if sign is None:
        return  # undecided (or undefined): no relation is shown rather than a guessed one
    kind = doc["claim"]["kind"]
    wanted = {"identity": "=", "strict-inequality": "<"}.get(kind, r"\le")
    out.para(rf"The claim asserts $\text{{LHS}} {wanted} \text{{RHS}}$; here")
    left, right = number(lhs[0], out.longs, "LHS"), number(rhs[0], out.longs, "RHS")
    if sign == 0:  # one value, not "LHS = 0 = 0 = RHS"
        out.display(rf"\text{{LHS}} = \text{{RHS}} = {left}")
    else:
        relation = r"\neq" if kind == "identity" else (">" if sign > 0 else "<")
        out.display(rf"\text{{LHS}} = {left} {relation} {right} = \text{{RHS}}")


def _name(name: str) -> str:
    """A quantity's name as math: LHS and RHS as words, other names as the claim writes them."""
    if name in ("LHS", "RHS"):
        return rf"\text{{{name}}}"
    return safe_statement(name)


def _transcendental(doc: dict) -> bool:
    return any(step[0] in TRANSCENDENTAL for step in doc["program"]["steps"])


# -- the quantities a claim names, evaluated exactly on the counterexample -------------

def quantities(claim, instance: dict, lookup, max_tree: int) -> list[tuple[str, list | None]]:
    """[(LaTeX name, exact entries or None where too large or undefined)] in the claim's order;
    a scalar quantity has one entry."""
    sizes = _sizes(claim, instance)
    return [(name, _entries(claim, sizes, function, lookup, max_tree))
            for name, function in getattr(claim, "quantities", {}).items()]


def sides_sign(claim, instance: dict, lookup) -> int | None:
    """The sign of LHS − RHS (the claim's quantities of those names, scalars), decided
    exactly by the engine (an exact zero test, never a rounded comparison); None when
    undecided, undefined or not two scalars."""
    functions = getattr(claim, "quantities", {})
    lhs, rhs = functions.get("LHS"), functions.get("RHS")
    if lhs is None or rhs is None:
        return None
    program = Program()
    xp = namespaces.trace(program)
    values = {v.name: input_array(program, v, claim.shape_of(v, _sizes(claim, instance)))
              for v in claim.variables}
    try:
        gap = lhs(xp, **values) - rhs(xp, **values)
        if isinstance(gap, np.ndarray):
            return None
        index = node(program, gap).index
        return decide_sign(program.steps, lookup, index).sign
    except (ValueError, TypeError, ArithmeticError, DomainError):
        return None


def entry_counts(claim, instance: dict, functions) -> list[int] | None:
    """How many scalar entries each function (a hypothesis) has at the instance's sizes,
    traced as the certificate's program was; None when one cannot be traced."""
    try:
        sizes = _sizes(claim, instance)
    except (KeyError, TypeError, ValueError):
        return None
    counts = []
    for function in functions:
        program = Program()
        xp = namespaces.trace(program)
        values = {v.name: input_array(program, v, claim.shape_of(v, sizes)) for v in claim.variables}
        try:
            value = function(xp, **values)
        except (ValueError, TypeError, ArithmeticError):
            return None
        counts.append(value.size if isinstance(value, np.ndarray) else 1)
    return counts


def _sizes(claim, instance: dict) -> dict:
    sizes = {}
    for v in claim.variables:
        shape = np.shape(np.array(instance[v.name], dtype=object))
        for name, n in zip(v.shape, shape):
            if not isinstance(name, int):
                sizes[name] = n
    return sizes


def _entries(claim, sizes, function, lookup, max_tree):
    program = Program()
    xp = namespaces.trace(program)
    values = {v.name: input_array(program, v, claim.shape_of(v, sizes)) for v in claim.variables}
    try:
        value = function(xp, **values)
        items = value.ravel() if isinstance(value, np.ndarray) else [value]
        indices = [node(program, item).index for item in items]
    except (ValueError, TypeError, ArithmeticError):
        return None
    if _tree(program.steps, indices) > max_tree:
        return None
    try:
        return [sympy.radsimp(sympy.expand(to_sympy(program.steps[: i + 1], lookup, i)))
                for i in indices]
    except (ValueError, TypeError, ArithmeticError, KeyError, IndexError):
        return None  # undefined on this instance (a guard left it absent, a division by 0)


def _tree(steps: list, indices: list) -> int:
    sizes = tree_sizes(steps)
    return sum(sizes[i] for i in indices) if indices else 0
