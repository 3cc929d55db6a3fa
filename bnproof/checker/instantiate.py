"""A symbolic-length program at a concrete batch size m: an ordinary straight-line
program of scalar steps in the format of program certificates (program.py), so the
exact evaluator checks a proof's witness and the SMT-LIB exporter states the proved
identity at that m.

Inputs of one name become the same steps (a vector y: ["input", "y", i]; a symmetric H:
["input", "H", i, j] with i <= j, so its entries above and below the diagonal are one
value).  ["grad", f, x] is differentiated here, in reverse mode over the scalar steps
already emitted: every step in f's cone gets an adjoint, each a few new steps (the
adjoint of a square root s divides by 2s, so the gradient is defined only where the
root is > 0, as the derivative of the square root requires).

The steps both families have are written by write(), for every_d.py too: a value maps
the index tuples over its axes to scalar steps."""

from fractions import Fraction
from heapq import heappop, heappush
from itertools import product

from .parse import Rejected

MAX_M, MAX_SCALAR_STEPS = 64, 1_000_000
# scalar steps visited by all gradients together: each visits only its function's cone, so
# a certificate that repeats ["grad", f, x] pays for every repetition
MAX_GRADIENT_WORK = 4_000_000


class Emitter:
    """The scalar steps written so far, one step per constant; also every_d.py's (most:
    its own limit, at: its sizes for a message)."""

    def __init__(self, inputs: list, m: int, most: int = MAX_SCALAR_STEPS, at: str = ""):
        if type(m) is not int or not 1 <= m <= MAX_M:
            raise Rejected(f"instantiate: m must be an integer from 1 to {MAX_M}")
        self.m, self.steps, self.consts = m, [], {}
        self.most, self.at = most, at or f"m = {m}"
        self.inputs = {n: (t, d) for n, t, d in inputs}
        self.read = {}
        self.gradient_work = 0

    def emit(self, step: list) -> int:
        if len(self.steps) >= self.most:
            raise Rejected(f"the program at {self.at} has more than {self.most} scalar steps")
        self.steps.append(step)
        return len(self.steps) - 1

    def const(self, q) -> int:
        q = Fraction(q)
        if q not in self.consts:
            self.consts[q] = self.emit(["const", str(q)])
        return self.consts[q]

    def input(self, name: str) -> dict:
        """An input's cells, written once however often the program reads it."""
        if name not in self.read:
            kind, domain = self.inputs[name]
            self.read[name] = (
                {(): self.emit(["input", name])} if kind == "S" else
                {(i,): self.emit(["input", name, i]) for i in range(self.m)} if kind == "V" else
                self.matrix_input(name, domain == "symmetric"))
        return self.read[name]

    def matrix_input(self, name: str, symmetric: bool) -> dict:
        cells = {}
        for i in range(self.m):
            for j in range(self.m):
                key = (min(i, j), max(i, j)) if symmetric else (i, j)
                if key not in cells:
                    cells[key] = self.emit(["input", name, *key])
        return {(i, j): cells[(min(i, j), max(i, j)) if symmetric else (i, j)]
                for i in range(self.m) for j in range(self.m)}

    def op(self, name: str, *args) -> int:
        return self.emit([name, *args])

    def total(self, xs: list) -> int:
        out = xs[0]
        for x in xs[1:]:
            out = self.op("add", out, x)
        return out


AXES = {"S": (), "V": ("m",), "M": ("m", "m")}


def instantiate(inputs: list, ops: list, types: list, m: int) -> tuple:
    """(scalar steps, each symbolic step's scalar step indices: an int, a list, or a list of
    lists).  inputs, ops and types as symbolic_program.read_inputs and read_steps give them."""
    e = Emitter(inputs, m)
    vals = []
    for k, (op, args, literal) in enumerate(ops):
        vals.append(scalar_step(e, op, [vals[j] for j in args], [types[j] for j in args], literal, types[k]))
    rows = range(m)
    return e.steps, [v[()] if t == "S" else [v[(i,)] for i in rows] if t == "V" else
                     [[v[(i, j)] for j in rows] for i in rows] for v, t in zip(vals, types)]


def scalar_step(e: Emitter, op, xs, ts, literal, t) -> dict:
    """A symbolic step's cells (index tuple -> scalar step), by write() where every_d.py's
    writer has the same step."""
    size = {"m": e.m}
    shapes = [AXES[x] for x in ts]

    def cells(axes):
        return product(*(range(e.m) for _ in axes))

    if op == "input":
        return e.input(literal)
    if op in ("m", "const"):
        return {(): e.const(e.m if op == "m" else literal)}
    if op == "ones":
        return {(i,): e.const(1) for i in range(e.m)}
    if op == "outer":
        return {(i, j): e.op("mul", xs[0][(i,)], xs[1][(j,)]) for i, j in cells(AXES["M"])}
    if op == "mul" and ts[0] != "S" and ts[1] == "S":  # V * S written as S * V (the exporter's text unchanged)
        xs, shapes = xs[::-1], shapes[::-1]
    if op == "sum":
        return write(e, "sum", xs, shapes, 0, (), cells, size)
    if op == "matmul":  # the last axis of the first against the first of the second
        return write(e, "dot", xs, shapes, (len(shapes[0]) - 1, 0), AXES[t], cells, size)
    if op == "grad":  # x is an input step: its cells are its scalar input steps
        return dict(zip(xs[1], gradient(e, xs[0][()], list(xs[1].values()))))
    return write(e, op, xs, shapes, literal, AXES[t], cells, size)


def write(e: Emitter, op: str, xs: list, shapes: list, literal, axes: tuple, cells, size: dict) -> dict:
    """A step of either family written out cell by cell (every_d.py writes with it too):
    values map index tuples over their axes to scalar steps, in the order of cells(axes)
    (which may count them); a scalar operand of add, sub, mul or div is broadcast.
    literal: pow's exponent, sum's axis, dot's two axes (the result's axes are the first
    operand's others, then the second's)."""
    if op == "eye":
        return {(i, j): e.const(int(i == j)) for i, j in cells(axes)}
    if op in ("add", "sub", "mul", "div"):
        return {idx: e.op(op, xs[0][idx if shapes[0] else ()], xs[1][idx if shapes[1] else ()])
                for idx in cells(axes)}
    if op == "neg":
        return {idx: e.op("neg", a) for idx, a in xs[0].items()}
    if op == "pow":
        if literal >= 0:
            return {idx: e.op("pow", a, literal) for idx, a in xs[0].items()}
        return {idx: e.op("div", e.const(1), e.op("pow", a, -literal)) for idx, a in xs[0].items()}
    if op == "sqrt":
        return {(): e.op("sqrt", xs[0][()])}
    if op == "sum":
        n = size[shapes[0][literal]]
        return {idx: e.total([xs[0][idx[:literal] + (k,) + idx[literal:]] for k in range(n)]) for idx in cells(axes)}
    if op == "transpose":
        return {(i, j): xs[0][(j, i)] for i, j in cells(axes)}
    if op != "dot":
        raise Rejected(f"instantiate: no writer for {op}")  # pragma: no cover - every reader's ops are above
    (a, b), (ia, ib) = shapes, literal
    out = {}
    for idx in cells(axes):
        ra, rb = idx[:len(a) - 1], idx[len(a) - 1:]
        out[idx] = e.total([e.op("mul", xs[0][ra[:ia] + (k,) + ra[ia:]], xs[1][rb[:ib] + (k,) + rb[ib:]])
                            for k in range(size[a[ia]])])
    return out


def gradient(e: Emitter, f: int, xs: list) -> list:
    """The adjoints of the steps xs in the scalar step f, by reverse accumulation."""
    adj = {f: e.const(1)}
    pending = [-f]  # the cone of f, latest step first (a max-heap of step indices)

    def acc(j: int, v: int) -> None:
        if j in adj:
            adj[j] = e.op("add", adj[j], v)
        else:
            adj[j] = v
            heappush(pending, -j)

    while pending:
        k = -heappop(pending)
        e.gradient_work += 1
        if e.gradient_work > MAX_GRADIENT_WORK:
            raise Rejected(f"instantiate: the gradients visit more than {MAX_GRADIENT_WORK} scalar "
                           "steps (the checker's work limit)")
        z, (op, *args) = adj[k], e.steps[k]
        if op == "add":
            acc(args[0], z)
            acc(args[1], z)
        elif op == "sub":
            acc(args[0], z)
            acc(args[1], e.op("neg", z))
        elif op == "neg":
            acc(args[0], e.op("neg", z))
        elif op == "mul":
            acc(args[0], e.op("mul", z, args[1]))
            acc(args[1], e.op("mul", z, args[0]))
        elif op == "div":  # z * a/b: d/da = 1/b, d/db = -(a/b)/b
            acc(args[0], e.op("div", z, args[1]))
            acc(args[1], e.op("neg", e.op("mul", z, e.op("div", k, args[1]))))
        elif op == "pow":
            a, n = args
            if n == 1:
                acc(a, z)
            elif n > 1:
                acc(a, e.op("mul", z, e.op("mul", e.const(n), e.op("pow", a, n - 1))))
        elif op == "sqrt":
            acc(args[0], e.op("div", z, e.op("mul", e.const(2), k)))
        elif op not in ("const", "input"):
            raise Rejected(f"instantiate: no derivative of {op}")
    zero = e.const(0)
    return [adj.get(x, zero) for x in xs]
