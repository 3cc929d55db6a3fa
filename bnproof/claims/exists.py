"""Existential claims at one instance: is there a witness p with every residual
r_i(x, p) >= 0 (> 0, == 0)?  Decided three ways, never by sampling:

  * a witness, confirmed by the exact engine (every residual's sign decided at x, p).
    Candidates come, in this order, from the claim's hints (claims/exists_hints.py;
    a hint may be irrational at x, its program is then composed with the claim's),
    z3 (a rational model; linear problems exactly), the float point of z3's
    algebraic model and of the numeric search (search/witness_numeric.py), rounded
    to simple fractions (claims/exists_rational.py), the activation patterns of a
    piecewise-linear claim (claims/exists_pieces.py), and coordinates pinned to
    simple fractions with the rest solved by z3.  Where a candidate came from
    does not matter: only the exact engine's confirmation does;
  * no witness, where the traced program is affine in p (a structural degree
    analysis, the checker's own: checker/farkas.py) with rational coefficients at
    x: the rows come from the exact engine at p = 0 and the unit vectors, z3 solves
    the primal (a rational witness) or the Farkas dual (rational multipliers);
  * no witness otherwise (polynomial, piecewise, irrational coefficients): z3 and
    cvc5 must both answer unsat on the query the checker regenerates
    (checker/exists_query.py); anything less is undecided.

Each solver call gets a share of the instance's time (claims/exists_budget.py):
an `unknown` costs that share, never the search.

Only the steps that the residuals and hypotheses read must be defined: a step
nothing reads (the ŷ that normalize(...)[1] computes beside σ, a dead 1/x) is no
part of the claim, so it neither puts an instance outside nor rules out a witness.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..checker.exists_query import cone, query, unknown_name
from ..checker.farkas import degree
from ..program.evaluate import DomainError, Evaluator
from ..program.trace import Program
from . import exists_budget as budget
from . import exists_hints as hints
from . import exists_pieces as pieces
from . import exists_rational as rational
from . import xp as namespaces
from .api import Claim
from .decide import _inputs, _node, lookup, outside_domains
from .exists_budget import SOLVER_SECONDS, Allowance
from .naming import hypothesis_label

WITNESS, NO_WITNESS, OUTSIDE, UNDECIDED = "witness", "no-witness", "outside-hypotheses", "undecided"


@dataclass(frozen=True)
class ExistsTraced:
    steps: list
    residuals: tuple[int, ...]
    hypotheses: tuple[int, ...]
    coordinates: tuple  # (name, index) of every existential entry, in order
    degrees: list  # each step's degree in p (2: above 1, or not polynomial)
    # whether the residuals or hypotheses read each step: only those must be defined (a
    # step nothing reads, such as the ŷ that normalize(...)[1] computes, is no part of it)
    live: list
    hints: tuple = ()  # a HintProgram per hint of the claim (None: it does not trace)
    hint_notes: tuple = ()  # why a hint does not trace
    labels: tuple[str, ...] = ()  # how a message names each hypothesis entry (naming.hypothesis_label)

    def label(self, k: int) -> str:
        return self.labels[k] if k < len(self.labels) else f"hypothesis {k + 1}"

    @property
    def affine(self) -> bool:
        return all(self.degrees[r] <= 1 for r in self.residuals)


@dataclass
class Inner:
    verdict: str  # WITNESS | NO_WITNESS | OUTSIDE | UNDECIDED
    detail: str = ""
    witness: dict | None = None  # existential name -> exact value (nested lists)
    method: str | None = None  # "farkas" or "smt" for NO_WITNESS
    multipliers: list = field(default_factory=list)
    query: str | None = None
    hint: int | None = None  # a WITNESS that is hint `hint`'s program (irrational at x): witness None
    events: list = field(default_factory=list)  # the solver calls made (exists_budget.Event)


def kind_of(claim: Claim) -> str:
    return "strict-inequality" if claim.kind == "inequality" and claim.strict else claim.kind


def trace(claim: Claim, sizes: dict) -> ExistsTraced:
    """The residuals (every entry of an array residual) and hypotheses as one program
    whose inputs are the universal and the existential variables."""
    if getattr(claim, "equalities", ()):  # the search would draw instances off the set
        raise ValueError(f"claim {claim.id}: equalities are not supported with existential variables")
    program = Program()
    for v in claim.variables + claim.exists:
        program.reserve(math.prod(int(n) for n in claim.shape_of(v, sizes)))
    xp = namespaces.trace(program)
    values = {v.name: _inputs(program, v, claim.shape_of(v, sizes)) for v in claim.variables}
    unknowns = {v.name: _inputs(program, v, claim.shape_of(v, sizes)) for v in claim.exists}
    out = claim.residual(xp, **values, **unknowns)
    entries = out.ravel() if isinstance(out, np.ndarray) else [out]
    residuals = tuple(_node(program, e).index for e in entries)
    hyps, labels = [], []
    for number, h in enumerate(claim.hypotheses, 1):
        value = h(xp, **values, **unknowns)
        entries = value.ravel() if isinstance(value, np.ndarray) else [value]
        hyps.extend(_node(program, e).index for e in entries)
        labels.extend(hypothesis_label(number, h, i, len(entries)) for i in range(1, len(entries) + 1))
    steps = program.steps
    names = {v.name for v in claim.exists}
    degrees = degree(steps, names)
    if any(degrees[h] for h in hyps):
        raise ValueError(f"claim {claim.id}: a hypothesis depends on an existential variable; "
                         "hypotheses may only depend on the universal variables")
    coordinates = tuple((v.name, index) for v in claim.exists
                        for index in itertools.product(*(range(n) for n in claim.shape_of(v, sizes))))
    traced_hints, notes = hints.trace_hints(claim, sizes, coordinates)
    return ExistsTraced(steps, residuals, tuple(hyps), coordinates, degrees,
                        cone(steps, residuals + tuple(hyps)), labels=tuple(labels),
                        hints=tuple(traced_hints), hint_notes=tuple(notes))


def nest(claim: Claim, sizes: dict, point: dict) -> dict:
    """{(name, index): value} as {name: nested lists}."""
    out = {}
    for v in claim.exists:
        shape = claim.shape_of(v, sizes)
        arr = np.empty(shape, dtype=object)
        for index in itertools.product(*(range(n) for n in shape)):
            arr[index] = Fraction(point.get((v.name, index), 0))
        out[v.name] = arr.tolist() if shape else arr[()]
    return out


def confirms(claim: Claim, traced: ExistsTraced, instance: dict, witness: dict) -> bool:
    """Every residual decided exactly with the wanted sign at (x, p)."""
    evaluator = Evaluator(traced.steps, lookup({**instance, **witness}))
    try:
        signs = [evaluator.sign(r).sign for r in traced.residuals]
    except DomainError:
        return False
    return all(s is not None and claim.holds(s) for s in signs)


def _outside(claim: Claim, traced: ExistsTraced, instance: dict) -> tuple[str, str] | None:
    """(verdict, why) if the hypotheses fail or cannot be decided, or an operation on x
    alone that the claim reads is undefined; None when x is inside the claim."""
    why = outside_domains(claim, instance)
    if why is not None:
        return OUTSIDE, f"outside the claim's declared domains: {why}"
    evaluator = Evaluator(traced.steps, lookup(instance))
    deg = traced.degrees
    frontier = sorted({r for r in traced.residuals if not deg[r]} | _feeds_p(traced))
    try:
        for n, h in enumerate(traced.hypotheses):
            sign = evaluator.sign(h)
            if sign.sign is None:
                return UNDECIDED, f"{traced.label(n)}: {sign.how}"
            if sign.sign != 1:
                return OUTSIDE, f"{traced.label(n)} is not > 0"
        for k in frontier:
            if evaluator.sign(k).sign is None:
                return UNDECIDED, f"step {k} on the instance alone could not be decided"
    except DomainError as err:
        return OUTSIDE, f"outside the claim's domain: {err}"
    return None


def _feeds_p(traced: ExistsTraced) -> set[int]:
    """The p-free steps that a p-dependent step of the claim reads."""
    out = set()
    for k, step in enumerate(traced.steps):
        if traced.live[k] and traced.degrees[k] and step[0] not in ("input", "const"):
            out.update(j for j in (step[1:2] if step[0] == "pow" else step[1:]) if not traced.degrees[j])
    return out


def decide_inner(claim: Claim, traced: ExistsTraced, instance: dict, sizes: dict,
                 solver_seconds: float = SOLVER_SECONDS, allowance: Allowance | None = None,
                 numeric=None) -> Inner:
    """Witness, no witness (with its proof), outside, or undecided: never raises.
    `allowance`: the instance's share of the search's time (else `solver_seconds`);
    `numeric`: the numeric witness search (search/witness_numeric.py), if any."""
    allowance = allowance or Allowance.of(solver_seconds)
    inner = _decide(claim, traced, instance, sizes, allowance, numeric)
    inner.events = list(allowance.events)
    return inner


def _decide(claim, traced, instance, sizes, allowance, numeric) -> Inner:
    try:
        outside = _outside(claim, traced, instance)
        if outside is not None:
            return Inner(*outside)
        if any(step[0] == "tanh" and live for step, live in zip(traced.steps, traced.live)):
            return Inner(UNDECIDED, "tanh is not algebraic: no exact decision")
        found = _hinted(claim, traced, instance, sizes)
        if found is not None:
            return found
        rows = _rows(claim, traced, instance, sizes) if traced.affine else None
        if rows is not None:
            return _linear(claim, traced, instance, sizes, *rows, allowance)
        return _nonlinear(claim, traced, instance, sizes, allowance, numeric)
    except KeyboardInterrupt:
        raise
    except Exception as err:  # noqa: BLE001 - never a verdict it did not earn
        return Inner(UNDECIDED, f"{type(err).__name__}: {err}")


def _hinted(claim, traced: ExistsTraced, instance: dict, sizes: dict) -> Inner | None:
    """The first hint whose value at x the exact engine confirms as a witness."""
    for n, program in enumerate(traced.hints):
        if program is None:
            continue
        try:
            found = _hint(claim, traced, instance, sizes, n, program)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception:  # noqa: BLE001 - a hint only proposes: the other searches go on
            continue
        if found is not None:
            return found
    return None


def _hint(claim, traced: ExistsTraced, instance: dict, sizes: dict, n: int, program) -> Inner | None:
    values, why = hints.rational_values(program, instance)
    if why is not None:
        return None
    if values is not None:
        witness = nest(claim, sizes, dict(zip(traced.coordinates, values)))
        if confirms(claim, traced, instance, witness):
            return Inner(WITNESS, f"hint {n + 1}, confirmed exactly", witness)
        return None
    names = {v.name for v in claim.exists}
    steps, offset = hints.compose(program, traced.steps, names, traced.coordinates)
    if hints.composed_holds(claim, steps, [offset + r for r in traced.residuals], instance):
        return Inner(WITNESS, f"hint {n + 1} (irrational at this instance), confirmed exactly", hint=n)
    return None


def _exact_at(claim, traced: ExistsTraced, instance: dict, sizes: dict, point: dict) -> list | None:
    """The residuals' exact values at (x, p); None if one is not known to be rational."""
    evaluator = Evaluator(traced.steps, lookup({**instance, **nest(claim, sizes, point)}))
    out = []
    for r in traced.residuals:
        evaluator.sign(r)
        value = evaluator.exact.get(r)
        if value is None:
            return None  # irrational (or not known to be rational): the Farkas route is closed
        out.append(value)
    return out


def _rows(claim, traced: ExistsTraced, instance: dict, sizes: dict):
    """(A, b): residual i is b_i + A_i . p exactly (the program is affine in p), or None
    if a coefficient is not known to be rational."""
    b = _exact_at(claim, traced, instance, sizes, {})
    if b is None:
        return None
    columns = []
    for c in traced.coordinates:
        at = _exact_at(claim, traced, instance, sizes, {c: Fraction(1)})
        if at is None:
            return None
        columns.append([v - w for v, w in zip(at, b)])
    a = [[col[i] for col in columns] for i in range(len(b))]
    return a, b


def _real(z3, q: Fraction):
    return z3.RealVal(f"{q.numerator}/{q.denominator}")


def _fraction(value) -> Fraction:
    return Fraction(value.as_fraction())


def _linear(claim, traced, instance, sizes, a, b, allowance: Allowance) -> Inner:
    import z3

    kind, n = kind_of(claim), len(traced.coordinates)
    primal = z3.Solver()
    p = [z3.Real(f"p{j}") for j in range(n)]
    for row, bi in zip(a, b):
        term = z3.Sum([_real(z3, q) * pj for q, pj in zip(row, p) if q]) + _real(z3, bi) if any(row) \
            else _real(z3, bi)
        primal.add(term >= 0 if kind == "inequality" else term > 0 if kind == "strict-inequality"
                   else term == 0)
    answer = budget.z3_check(primal, allowance.share(0.5), allowance, "linear")
    if answer == "sat":
        model = primal.model()
        point = {c: _fraction(model.evaluate(pj, model_completion=True)) for c, pj in zip(traced.coordinates, p)}
        witness = nest(claim, sizes, point)
        if confirms(claim, traced, instance, witness):
            return Inner(WITNESS, "a rational witness (z3, linear), confirmed exactly", witness)
        return Inner(UNDECIDED, "z3's witness was not confirmed by the exact engine")
    if answer != "unsat":
        return Inner(UNDECIDED, f"z3 answered {answer} on the linear system")
    y = _dual(z3, a, b, kind, allowance)
    if y is None:
        return Inner(UNDECIDED, "the linear system is infeasible but z3 found no Farkas multipliers")
    return Inner(NO_WITNESS, "a Farkas certificate (z3, exact rationals)", method="farkas", multipliers=y)


def _dual(z3, a, b, kind, allowance: Allowance) -> list | None:
    """Rational multipliers y with sum y_i a_i = 0 and the refuting sign of sum y_i b_i."""
    solver = z3.Solver()
    y = [z3.Real(f"y{i}") for i in range(len(b))]
    columns = len(a[0]) if a else 0
    for j in range(columns):
        terms = [_real(z3, a[i][j]) * y[i] for i in range(len(b)) if a[i][j]]
        if terms:
            solver.add(z3.Sum(terms) == 0)
    total = z3.Sum([_real(z3, bi) * yi for bi, yi in zip(b, y)] + [z3.RealVal(0)])
    if kind != "identity":
        solver.add(*[yi >= 0 for yi in y])
    if kind == "inequality":
        solver.add(total == -1)
    elif kind == "strict-inequality":
        solver.add(z3.Sum(y + [z3.RealVal(0)]) == 1, total <= 0)
    else:
        solver.add(total == 1)
    if budget.z3_check(solver, allowance.share(1.0), allowance, "dual") != "sat":
        return None
    model = solver.model()
    return [_fraction(model.evaluate(yi, model_completion=True)) for yi in y]


def _nonlinear(claim, traced, instance, sizes, allowance: Allowance, numeric) -> Inner:
    import z3

    names = {v.name for v in claim.exists}
    kind = kind_of(claim)
    text = query(traced.steps, instance, names, list(traced.residuals), kind)
    tried: set = set()

    def confirmed(point: dict) -> dict | None:
        key = tuple(sorted(point.items()))
        if key in tried:
            return None
        tried.add(key)
        witness = nest(claim, sizes, point)
        return witness if confirms(claim, traced, instance, witness) else None

    # z3 first, briefly: it settles most questions at once; an unknown is asked again at the end
    answer, model, floats = _z3_witness(z3, text, traced, {}, allowance, "witness",
                                        cap=budget.QUICK_SECONDS)
    if answer == "unsat":
        return _no_witness(text, allowance)
    if model is not None and (witness := confirmed(model)) is not None:
        return Inner(WITNESS, "a rational witness (z3), confirmed exactly", witness)
    points = [] if floats is None else [_as_point(traced, floats)]
    if numeric is not None:
        points += [_Point(q.p, "the numeric search's point", q.jacobian, q.active)
                   for q in numeric.search(instance, budget.clock() + allowance.left() / 2)]
    found = _near(traced, allowance, points, confirmed)
    if found is None:
        found = _pieces(z3, claim, traced, instance, sizes, allowance, points, confirmed)
    if found is None:
        found = _pinned(z3, claim, traced, instance, allowance, points, confirmed)
    if found is not None:
        return found
    if answer not in ("sat", "unsat"):  # z3 again, with half of what is left
        answer, model, floats = _z3_witness(z3, text, traced, {}, allowance, "witness", 1 / 2)
        if answer == "unsat":
            return _no_witness(text, allowance)
        if model is not None and (witness := confirmed(model)) is not None:
            return Inner(WITNESS, "a rational witness (z3), confirmed exactly", witness)
        if floats is not None and (found := _near(traced, allowance, [_as_point(traced, floats)],
                                                  confirmed)) is not None:
            return found
    said = ("z3 finds a witness, but no rational one the exact engine confirms" if answer == "sat"
            else f"z3 answered {answer}")
    searched = "; no rational witness near the numeric search's points" if numeric is not None else ""
    return Inner(UNDECIDED, said + searched)


def _near(traced, allowance: Allowance, points: list, confirmed) -> Inner | None:
    """The simplest fractions near each point, in turn."""
    for point in points:
        for candidate in rational.rounded(point.p):
            if allowance.left() <= 0:
                return None
            if (witness := confirmed(dict(zip(traced.coordinates, candidate)))) is not None:
                return Inner(WITNESS, f"a rational witness near {point.origin}, confirmed exactly", witness)
    return None


@dataclass(frozen=True)
class _Point:
    p: object  # floats, in traced.coordinates' order
    origin: str
    jacobian: object = None
    active: object = None


def _as_point(traced, floats: list) -> _Point:
    return _Point(floats, "z3's algebraic model")


def _z3_witness(z3, text: str, traced, pinned: dict, allowance: Allowance, purpose: str,
                fraction: float = 1 / 3, cap: float | None = None):
    """(z3's answer, the model as an exact point or None, the model in floats or None)."""
    solver = z3.Solver()
    solver.from_string(text.replace("(check-sat)", ""))
    seconds = allowance.share(fraction)
    answer = budget.z3_check(solver, seconds if cap is None else min(cap, seconds), allowance, purpose)
    if answer != "sat":
        return answer, None, None
    model, exact, floats = solver.model(), dict(pinned), []
    for c in traced.coordinates:
        if c in pinned:
            floats.append(float(pinned[c]))
            continue
        value = model.evaluate(z3.Real(unknown_name(*c)), model_completion=True)
        if z3.is_rational_value(value):
            exact[c] = _fraction(value)
            floats.append(float(exact[c]))
        elif z3.is_algebraic_value(value):  # irrational: simple fractions near it may still do
            floats.append(float(Fraction(value.approx(20).as_fraction())))
        else:
            return answer, None, None
    return answer, (exact if len(exact) == len(traced.coordinates) else None), floats


def _no_witness(text: str, allowance: Allowance) -> Inner:
    """z3 answered unsat in this process: z3 and cvc5 in their own must both say so."""
    answers = {s: budget.external(text, s, allowance.proof_share(), allowance) for s in ("z3", "cvc5")}
    if all(v == "unsat" for v in answers.values()):
        return Inner(NO_WITNESS, "z3 and cvc5 answer unsat", method="smt", query=text)
    return Inner(UNDECIDED, "no witness by z3, but the solvers answered "
                 + ", ".join(f"{k}: {v}" for k, v in answers.items()))


def _pieces(z3, claim, traced, instance, sizes, allowance: Allowance, points, confirmed) -> Inner | None:
    """Each activation pattern's linear piece, those of the proposed points first."""
    names = {v.name for v in claim.exists}
    if not pieces.applies(traced, names) or not _rational_coefficients(traced, instance):
        return None
    split = pieces.split_steps(traced)
    first = []
    for point in points:
        q = {c: Fraction(float(v)) for c, v in zip(traced.coordinates, point.p)}
        pattern = pieces.pattern_at(traced, instance, nest(claim, sizes, q), split)
        if pattern is not None:
            first.append(pattern)
    for pattern in pieces.patterns(split, first):
        if allowance.left() <= 0:
            return None
        steps = pieces.piece(traced.steps, pattern)
        text = pieces.query(steps, instance, names, list(traced.residuals), kind_of(claim),
                            pieces.conditions(traced.steps, pattern))
        answer, model, floats = _z3_witness(z3, text, traced, {}, allowance, "piece", 1 / 4,
                                            cap=budget.QUICK_SECONDS)
        candidates = [model] if model is not None else []
        if floats is not None:
            candidates += [dict(zip(traced.coordinates, q)) for q in rational.rounded(floats)]
        for point in candidates:
            if (witness := confirmed(point)) is not None:
                return Inner(WITNESS, "a rational witness of one activation pattern's linear piece (z3), "
                                      "confirmed exactly", witness)
    return None


def _rational_coefficients(traced, instance: dict) -> bool:
    """Whether every value on x alone that a p-dependent step reads is rational: then each
    piece is a linear program over the rationals, which z3 decides at once (with an
    irrational coefficient it is a nonlinear question again, not worth a pattern's time)."""
    evaluator = Evaluator(traced.steps, lookup(instance))
    try:
        for k in sorted(_feeds_p(traced)):
            if evaluator.sign(k).sign is None or evaluator.exact.get(k) is None:
                return False
    except DomainError:
        return False
    return True


def _pinned(z3, claim, traced, instance, allowance: Allowance, points, confirmed) -> Inner | None:
    """All coordinates but a few pinned to simple fractions near a numeric point (zero
    first), the others solved by z3: every choice of free coordinates at one level of
    simplicity before the next."""
    names = {v.name for v in claim.exists}
    choices = []
    for point in points[:2]:
        if point.jacobian is not None:
            choices += [(free, rational.pins(point.p, free)) for free in
                        rational.free_sets(point.jacobian, point.active)]
    for level in range(max((len(p) for _, p in choices), default=0)):
        for free, levels in choices:
            if level >= len(levels):
                continue
            if allowance.left() <= 0:
                return None
            at = {traced.coordinates[j]: q for j, q in levels[level].items()}
            steps = [["const", str(at[(s[1], tuple(s[2:]))])] if s[0] == "input" and s[1] in names
                     and (s[1], tuple(s[2:])) in at else s for s in traced.steps]
            text = query(steps, instance, names, list(traced.residuals), kind_of(claim))
            answer, model, floats = _z3_witness(z3, text, traced, at, allowance, "completion", 1 / 4,
                                                cap=budget.QUICK_SECONDS)
            candidates = [model] if model is not None else []
            if floats is not None:
                candidates += [dict(zip(traced.coordinates, q)) for q in rational.rounded(floats)]
            for candidate in candidates:
                if (witness := confirmed(candidate)) is not None:
                    return Inner(WITNESS, "a rational witness: coordinates pinned to simple fractions, "
                                          "the rest solved by z3, confirmed exactly", witness)
    return None
