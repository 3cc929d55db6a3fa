"""Existential claims at one instance: is there a witness p with every residual
r_i(x, p) >= 0 (> 0, == 0)?  Decided three ways, never by sampling:

  * a witness, confirmed by the exact engine (every residual's sign decided at x, p);
  * no witness, where the traced program is affine in p (a structural degree
    analysis, the checker's own: checker/farkas.py) with rational coefficients at
    x: the rows come from the exact engine at p = 0 and the unit vectors, z3 solves
    the primal (a rational witness) or the Farkas dual (rational multipliers);
  * no witness otherwise (polynomial, piecewise, irrational coefficients): z3 and
    cvc5 must both answer unsat on the query the checker regenerates
    (checker/exists_query.py); anything less is undecided.

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
from . import xp as namespaces
from .api import Claim
from .decide import _inputs, _node, lookup, outside_domains

WITNESS, NO_WITNESS, OUTSIDE, UNDECIDED = "witness", "no-witness", "outside-hypotheses", "undecided"
SOLVER_SECONDS = 20.0  # per solver, per instance


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
    hyps = []
    for h in claim.hypotheses:
        value = h(xp, **values, **unknowns)
        hyps.extend(_node(program, e).index for e in (value.ravel() if isinstance(value, np.ndarray)
                                                      else [value]))
    steps = program.steps
    names = {v.name for v in claim.exists}
    degrees = degree(steps, names)
    if any(degrees[h] for h in hyps):
        raise ValueError(f"claim {claim.id}: a hypothesis depends on an existential variable; "
                         "hypotheses may only depend on the universal variables")
    coordinates = tuple((v.name, index) for v in claim.exists
                        for index in itertools.product(*(range(n) for n in claim.shape_of(v, sizes))))
    return ExistsTraced(steps, residuals, tuple(hyps), coordinates, degrees,
                        cone(steps, residuals + tuple(hyps)))


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
                return UNDECIDED, f"hypothesis {n + 1}: {sign.how}"
            if sign.sign != 1:
                return OUTSIDE, f"hypothesis {n + 1} is not > 0"
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
                 solver_seconds: float = SOLVER_SECONDS) -> Inner:
    """Witness, no witness (with its proof), outside, or undecided: never raises."""
    try:
        outside = _outside(claim, traced, instance)
        if outside is not None:
            return Inner(*outside)
        if any(step[0] == "tanh" and live for step, live in zip(traced.steps, traced.live)):
            return Inner(UNDECIDED, "tanh is not algebraic: no exact decision")
        rows = _rows(claim, traced, instance, sizes) if traced.affine else None
        if rows is not None:
            return _linear(claim, traced, instance, sizes, *rows, solver_seconds)
        return _nonlinear(claim, traced, instance, sizes, solver_seconds)
    except KeyboardInterrupt:
        raise
    except Exception as err:  # noqa: BLE001 - never a verdict it did not earn
        return Inner(UNDECIDED, f"{type(err).__name__}: {err}")


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


def _linear(claim, traced, instance, sizes, a, b, seconds) -> Inner:
    import z3

    kind, n = kind_of(claim), len(traced.coordinates)
    primal = z3.Solver()
    primal.set("timeout", int(seconds * 1000))
    p = [z3.Real(f"p{j}") for j in range(n)]
    for row, bi in zip(a, b):
        term = z3.Sum([_real(z3, q) * pj for q, pj in zip(row, p) if q]) + _real(z3, bi) if any(row) \
            else _real(z3, bi)
        primal.add(term >= 0 if kind == "inequality" else term > 0 if kind == "strict-inequality"
                   else term == 0)
    answer = primal.check()
    if answer == z3.sat:
        model = primal.model()
        point = {c: _fraction(model.evaluate(pj, model_completion=True)) for c, pj in zip(traced.coordinates, p)}
        witness = nest(claim, sizes, point)
        if confirms(claim, traced, instance, witness):
            return Inner(WITNESS, "a rational witness (z3, linear), confirmed exactly", witness)
        return Inner(UNDECIDED, "z3's witness was not confirmed by the exact engine")
    if answer != z3.unsat:
        return Inner(UNDECIDED, f"z3 answered {answer} on the linear system")
    y = _dual(z3, a, b, kind, seconds)
    if y is None:
        return Inner(UNDECIDED, "the linear system is infeasible but z3 found no Farkas multipliers")
    return Inner(NO_WITNESS, "a Farkas certificate (z3, exact rationals)", method="farkas", multipliers=y)


def _dual(z3, a, b, kind, seconds) -> list | None:
    """Rational multipliers y with sum y_i a_i = 0 and the refuting sign of sum y_i b_i."""
    solver = z3.Solver()
    solver.set("timeout", int(seconds * 1000))
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
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    return [_fraction(model.evaluate(yi, model_completion=True)) for yi in y]


def _nonlinear(claim, traced, instance, sizes, seconds) -> Inner:
    import z3

    from ..certificate.solvers import solve

    names = {v.name for v in claim.exists}
    text = query(traced.steps, instance, names, list(traced.residuals), kind_of(claim))
    solver = z3.Solver()
    solver.set("timeout", int(seconds * 1000))
    solver.from_string(text.replace("(check-sat)", ""))
    answer = solver.check()
    if answer == z3.sat:
        witness = _model_witness(z3, claim, traced, sizes, solver.model())
        if witness is not None and confirms(claim, traced, instance, witness):
            return Inner(WITNESS, "a rational witness (z3), confirmed exactly", witness)
        return Inner(UNDECIDED, "z3 finds a witness, but no rational one the exact engine confirms")
    if answer != z3.unsat:
        return Inner(UNDECIDED, f"z3 answered {answer}")
    answers = {s: solve(text, s, seconds) for s in ("z3", "cvc5")}
    if all(v == "unsat" for v in answers.values()):
        return Inner(NO_WITNESS, "z3 and cvc5 answer unsat", method="smt", query=text)
    return Inner(UNDECIDED, "no witness by z3, but the solvers answered "
                 + ", ".join(f"{k}: {v}" for k, v in answers.items()))


def _model_witness(z3, claim, traced, sizes, model) -> dict | None:
    point = {}
    for c in traced.coordinates:
        value = model.evaluate(z3.Real(unknown_name(*c)), model_completion=True)
        if z3.is_rational_value(value):
            point[c] = _fraction(value)
        elif z3.is_algebraic_value(value):  # irrational: a nearby rational may still do
            point[c] = Fraction(value.approx(30).as_fraction()).limit_denominator(10**12)
        else:
            return None
    return nest(claim, sizes, point)
