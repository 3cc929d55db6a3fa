"""xp.grad(f, p) at a computed point p (a scalar, or an array of scalars of the fixed
side: ∇L(c·w), L's gradient at w = g·v/‖v‖): forward-mode differentiation of the
recorded program, written as ordinary steps.

f is traced once at fresh placeholder scalars t_k (the program records its steps);
for each k the steps of f's cone are recorded again with t replaced by p, each with its
tangent ∂/∂t_k as more steps (sum, product and quotient rules; ∂√a = ∂a/(2√a)).  The
result is plain program steps: no ["grad", …] step, so the checker replays it as any
other, and the second reading (crosscheck.py), which differentiates the claim's own
code along fresh symbols, compares it at generic instances.  Values f reads from
outside are constants here, as in the exact engines, so a closure is no concern.  A
nested xp.grad inside f, and a tangent through a matrix, are outside the fragment."""

from __future__ import annotations

from .fragment import outside
from .values import Recorder, SymMatrix, SymScalar, SymVector, _sum

_KINDS = {"S": SymScalar, "V": SymVector, "M": SymMatrix}


def at_point(rec: Recorder, f: int, probes: list[int], point: list) -> list:
    """∂f/∂t_k with each t_j := point[j], for every k: SymScalars (constant 0 where f does
    not depend on t_k)."""
    values: dict[int, object] = {}
    substitute = dict(zip(probes, point))
    out = []
    for k in probes:
        tangents: dict[int, object] = {}
        t = _tangent(rec, f, k, substitute, values, tangents)
        out.append(rec.const(0) if t is None else t)
    return out


def _wrap(rec: Recorder, i: int):
    kind = rec.kinds.get(i)
    if kind is None:
        outside("a derivative at a computed point through a step of unknown type", rec)
    return _KINDS[kind](rec, i)


def _value(rec, i, substitute, values):
    """Step i with the placeholders replaced by the point (the step itself where its cone
    holds none)."""
    if i in values:
        return values[i]
    if i in substitute:
        values[i] = substitute[i]
        return values[i]
    step = rec.steps[i]
    op = step[0]
    if op in ("input", "const", "m", "ones", "eye"):
        values[i] = _wrap(rec, i)
        return values[i]
    if op == "grad":
        outside("a gradient inside the function of a gradient at a computed point", rec)
    operands = step[1:2] if op == "pow" else step[1:]
    args = [_value(rec, j, substitute, values) for j in operands]
    if all(a._index == j for a, j in zip(args, operands)):  # no placeholder in its cone
        values[i] = _wrap(rec, i)
    else:
        values[i] = _apply(rec, op, args, step)
    return values[i]


def _apply(rec, op, args, step):
    if op == "add":
        return args[0] + args[1]
    if op == "sub":
        return args[0] - args[1]
    if op == "mul":
        return args[0] * args[1]
    if op == "div":
        return args[0] / args[1]
    if op == "matmul":
        return args[0] @ args[1]
    if op == "neg":
        return -args[0]
    if op == "pow":
        return args[0] ** step[2]
    if op == "sqrt":
        return SymScalar(rec, rec.emit(["sqrt", args[0]._index]))
    if op == "sum":
        return _sum(args[0])
    if op == "transpose":
        return args[0].T
    if op == "outer":
        return SymMatrix(rec, rec.emit(["outer", args[0]._index, args[1]._index]))
    outside(f"a derivative at a computed point through {op}", rec)


def _lift(rec, t, kind: str):
    """A tangent t as a value of this kind: a scalar broadcast over a vector is itself
    times the ones vector (as add and sub broadcast it)."""
    if t is None or t._kind == kind:
        return t
    if t._kind == "S" and kind == "V":
        return t * SymVector(rec, rec.emit(["ones"]))
    outside("a derivative at a computed point through a matrix", rec)


def _tangent(rec, i, k, substitute, values, tangents):
    """∂(step i)/∂t_k at the point, or None where it is 0."""
    if i in tangents:
        return tangents[i]
    step = rec.steps[i]
    op = step[0]
    kind = rec.kinds.get(i)
    if i == k:
        out = rec.const(1)
    elif i in substitute or op in ("input", "const", "m", "ones", "eye"):
        out = None
    else:
        if op == "grad":
            outside("a gradient inside the function of a gradient at a computed point", rec)
        if kind == "M" or op in ("transpose", "outer"):
            ts = [_tangent(rec, j, k, substitute, values, tangents) for j in step[1:]]
            if any(t is not None for t in ts):
                outside("a derivative at a computed point through a matrix", rec)
            out = None
        else:
            out = _rule(rec, op, step, i, k, substitute, values, tangents)
    out = _lift(rec, out, kind) if out is not None and kind is not None else out
    tangents[i] = out
    return out


def _rule(rec, op, step, i, k, substitute, values, tangents):
    def T(j):
        return _tangent(rec, j, k, substitute, values, tangents)

    def V(j):
        return _value(rec, j, substitute, values)

    a = step[1]
    ta = T(a)
    if op in ("neg", "sqrt", "sum", "pow"):
        if ta is None:
            return None
        if op == "neg":
            return -ta
        if op == "sum":
            return _sum(ta)
        if op == "sqrt":
            return ta / (2 * V(i))
        power = step[2]
        if power == 0:
            return None
        return ta if power == 1 else power * V(a) ** (power - 1) * ta
    b = step[2]
    tb = T(b)
    if ta is None and tb is None:
        return None
    if op in ("add", "sub"):
        if tb is None:
            return ta
        if ta is None:
            return tb if op == "add" else -tb
        return ta + tb if op == "add" else ta - tb
    if op in ("mul", "matmul"):
        product = (lambda x, y: x * y) if op == "mul" else (lambda x, y: x @ y)
        left = None if ta is None else product(ta, V(b))
        right = None if tb is None else product(V(a), tb)
        return left if right is None else right if left is None else left + right
    if op == "div":  # (ta − (a/b)·tb)/b
        top = ta if tb is None else (-(V(i) * tb) if ta is None else ta - V(i) * tb)
        return top / V(b)
    outside(f"a derivative at a computed point through {op}", rec)


# ------------------------------------------------------------------ reverse mode, for a batch vector

def gradient_at(rec: Recorder, f: int, probe: int, point) -> object:
    """∇f with the placeholder batch vector `probe` := point (a SymVector), by reverse
    accumulation over f's recorded steps, written again at the point: a SymVector."""
    values: dict[int, object] = {}
    substitute = {probe: point}
    cone = _depending(rec, f, probe)
    adjoint: dict[int, object] = {f: rec.const(1)}
    for k in sorted(cone, reverse=True):
        z = adjoint.pop(k, None)
        if k == probe:
            return _lift(rec, z, "V") if z is not None else SymVector(rec, rec.emit(["ones"])) * 0
        if z is None:
            continue
        for j, a in _pullback(rec, k, z, substitute, values):
            if j in cone:
                kind = "V" if j == probe else rec.kinds.get(j)
                a = _reduce(rec, a, kind)
                adjoint[j] = a if j not in adjoint else adjoint[j] + a
    return SymVector(rec, rec.emit(["ones"])) * 0


def _depending(rec: Recorder, f: int, probe: int) -> set:
    """The steps of f's cone whose value depends on the placeholder."""
    seen: dict[int, bool] = {}
    order, stack = [], [f]
    while stack:  # the cone, then each step's dependence from its operands (earlier first)
        i = stack.pop()
        if i in seen:
            continue
        seen[i] = False
        order.append(i)
        step = rec.steps[i]
        if step[0] not in ("input", "const", "m", "ones", "eye"):
            stack.extend(step[1:2] if step[0] == "pow" else step[1:])
    for i in sorted(order):
        step = rec.steps[i]
        if i == probe:
            seen[i] = True
        elif step[0] not in ("input", "const", "m", "ones", "eye"):
            seen[i] = any(seen.get(j, False) for j in (step[1:2] if step[0] == "pow" else step[1:]))
    return {i for i, d in seen.items() if d}


def _reduce(rec, a, kind: str):
    """An adjoint as the kind of its step: a vector adjoint of a scalar broadcast over the
    batch is its sum."""
    if a._kind == kind:
        return a
    if a._kind == "V" and kind == "S":
        return _sum(a)
    if a._kind == "S" and kind == "V":
        return a * SymVector(rec, rec.emit(["ones"]))
    outside("a gradient at a computed point through a matrix", rec)


def _pullback(rec, k, z, substitute, values):
    """(operand, its share of the adjoint z of step k) for each operand of step k."""
    step = rec.steps[k]
    op = step[0]

    def V(j):
        return _value(rec, j, substitute, values)

    if op == "grad":
        outside("a gradient inside the function of a gradient at a computed point", rec)
    if rec.kinds.get(k) == "M" or op in ("transpose", "outer"):
        outside("a gradient at a computed point through a matrix", rec)
    a = step[1]
    if op == "neg":
        return [(a, -z)]
    if op == "sum":
        return [(a, z * SymVector(rec, rec.emit(["ones"])))]
    if op == "sqrt":
        return [(a, z / (2 * V(k)))]
    if op == "pow":
        power = step[2]
        if power == 0:
            return []
        return [(a, z if power == 1 else z * (power * V(a) ** (power - 1)))]
    b = step[2]
    if any(rec.kinds.get(j) == "M" for j in (a, b)):
        outside("a gradient at a computed point through a matrix", rec)
    if op == "add":
        return [(a, z), (b, z)]
    if op == "sub":
        return [(a, z), (b, -z)]
    if op in ("mul", "matmul"):  # V @ V is Σ a∘b: its pullback is the elementwise one
        return [(a, z * V(b)), (b, z * V(a))]
    if op == "div":  # d(a/b) = da/b − (a/b)·db/b
        return [(a, z / V(b)), (b, -(z * V(k)) / V(b))]
    outside(f"a gradient at a computed point through {op}", rec)
