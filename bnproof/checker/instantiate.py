"""A symbolic-length program at a concrete batch size m: an ordinary straight-line
program of scalar steps in the format of program certificates (program.py), so the
exact evaluator checks a proof's witness and the SMT-LIB exporter states the proved
identity at that m.

Inputs of one name become the same steps (a vector y: ["input", "y", i]; a symmetric H:
["input", "H", i, j] with i <= j, so its entries above and below the diagonal are one
value).  ["grad", f, x] is differentiated here, in reverse mode over the scalar steps
already emitted: every step in f's cone gets an adjoint, each a few new steps (the
adjoint of a square root s divides by 2s, so the gradient is defined only where the
root is > 0, as the derivative of the square root requires)."""

from fractions import Fraction
from heapq import heappop, heappush

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

    def input(self, name: str):
        if name not in self.read:
            kind, domain = self.inputs[name]
            m = range(self.m)
            self.read[name] = (
                self.emit(["input", name]) if kind == "S" else
                [self.emit(["input", name, i]) for i in m] if kind == "V" else
                self.matrix_input(name, domain == "symmetric"))
        return self.read[name]

    def matrix_input(self, name: str, symmetric: bool) -> list:
        cells = {}
        for i in range(self.m):
            for j in range(self.m):
                key = (min(i, j), max(i, j)) if symmetric else (i, j)
                if key not in cells:
                    cells[key] = self.emit(["input", name, *key])
        return [[cells[(min(i, j), max(i, j)) if symmetric else (i, j)] for j in range(self.m)]
                for i in range(self.m)]

    def op(self, name: str, *args) -> int:
        return self.emit([name, *args])

    def total(self, xs: list) -> int:
        out = xs[0]
        for x in xs[1:]:
            out = self.op("add", out, x)
        return out

    def dot(self, u: list, v: list) -> int:
        return self.total([self.op("mul", a, b) for a, b in zip(u, v)])


def broadcast(e: Emitter, x, t: str, to: str):
    if t == to:
        return x
    return [x] * e.m if to == "V" else [[x] * e.m for _ in range(e.m)]


def elementwise(e: Emitter, name: str, x, y):
    if type(x) is list:
        return [elementwise(e, name, a, b) for a, b in zip(x, y)]
    return e.op(name, x, y)


def each(fn, x):
    return [each(fn, a) for a in x] if type(x) is list else fn(x)


def instantiate(inputs: list, ops: list, types: list, m: int) -> tuple:
    """(scalar steps, each symbolic step's scalar step indices: an int, a list, or a list of
    lists).  inputs, ops and types as symbolic_program.read_inputs and read_steps give them."""
    e = Emitter(inputs, m)
    vals = []
    for k, (op, args, literal) in enumerate(ops):
        xs = [vals[j] for j in args]
        ts = [types[j] for j in args]
        vals.append(scalar_step(e, op, xs, ts, literal, types[k], args, ops, vals))
    return e.steps, vals


def scalar_step(e: Emitter, op, xs, ts, literal, t, args, ops, vals):
    m = range(e.m)
    if op == "input":
        return e.input(literal)
    if op in ("m", "const"):
        return e.const(e.m if op == "m" else literal)
    if op == "ones":
        return [e.const(1)] * e.m
    if op == "eye":
        return [[e.const(int(i == j)) for j in m] for i in m]
    if op in ("add", "sub"):
        return elementwise(e, op, broadcast(e, xs[0], ts[0], t), broadcast(e, xs[1], ts[1], t))
    if op == "neg":
        return each(lambda a: e.op("neg", a), xs[0])
    if op == "mul":
        if ts == ["S", "S"] or ts == ["V", "V"]:
            return elementwise(e, "mul", *xs)
        s, x = (xs[0], xs[1]) if ts[0] == "S" else (xs[1], xs[0])
        return each(lambda a: e.op("mul", s, a), x)
    if op == "div":
        return each(lambda a: e.op("div", a, xs[1]), xs[0])
    if op == "pow":
        if literal >= 0:
            return each(lambda a: e.op("pow", a, literal), xs[0])
        return e.op("div", e.const(1), e.op("pow", xs[0], -literal))
    if op == "sqrt":
        return e.op("sqrt", xs[0])
    if op == "sum":
        return e.total(xs[0])
    if op == "outer":
        return [[e.op("mul", a, b) for b in xs[1]] for a in xs[0]]
    if op == "transpose":
        return [list(col) for col in zip(*xs[0])]
    if op == "matmul":
        x, y = xs
        if ts == ["V", "V"]:
            return e.dot(x, y)
        if ts == ["M", "V"]:
            return [e.dot(row, y) for row in x]
        cols = [list(col) for col in zip(*y)]
        if ts == ["V", "M"]:
            return [e.dot(x, col) for col in cols]
        return [[e.dot(row, col) for col in cols] for row in x]
    # grad: x is an input step, whose scalar steps are e.read[name] (one for a scalar input)
    if ts[1] == "S":
        return gradient(e, xs[0], [xs[1]])[0]
    return gradient(e, xs[0], xs[1])


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
