"""A symbolic-length program (docs/certificates.md, "Proof certificates"): its inputs
and steps read strictly, each step's type (S scalar, V vector of length m, M m x m
matrix) inferred, and its values computed in normal form (symbolic_length.py).

Matrices are a I + sum_H b_H H + sum_k outer(u_k, w_k); a product of two matrices that
both hold an H (H @ H) is outside this checker's fragment and rejected, as is H^T of a
matrix input not declared symmetric."""

import re

from .parse import Rejected, array, rational, show
from .symbolic_length import MAX_OUTERS, ONE, Algebra

MAX_STEPS, MAX_POW, MAX_CONST_DIGITS, MAX_INPUTS = 20_000, 64, 200, 256
INPUT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}(:[0-9]{1,4})?")
TYPES = {"scalar": "S", "vector": "V", "matrix": "M"}
DOMAINS = {"S": ("real", "nonzero", "positive"), "V": ("real", "positive"), "M": ("symmetric", "real")}
ARITY = {"input": 1, "m": 0, "const": 1, "ones": 0, "eye": 0, "add": 2, "sub": 2, "mul": 2,
         "div": 2, "neg": 1, "pow": 2, "sqrt": 1, "sum": 1, "outer": 2, "matmul": 2,
         "transpose": 1, "grad": 2}
MUL = {("S", "S"): "S", ("S", "V"): "V", ("V", "S"): "V", ("S", "M"): "M", ("M", "S"): "M",
       ("V", "V"): "V"}
ADD = {("S", "S"): "S", ("V", "V"): "V", ("M", "M"): "M", ("S", "V"): "V", ("V", "S"): "V",
       ("S", "M"): "M", ("M", "S"): "M"}
MATMUL = {("M", "M"): "M", ("M", "V"): "V", ("V", "M"): "V", ("V", "V"): "S"}


def read_inputs(value, types: dict = TYPES, domains: dict = DOMAINS, most: int = MAX_INPUTS) -> list:
    """program.inputs: [[name, type, domain], ...] as (name, types[type], domain), the
    domain one of domains[types[type]].  The type tables are the family's: this
    program's (scalar, vector, matrix) by default, every_d.py's its own."""
    out = []
    for i, item in enumerate(array(value, "program.inputs", most)):
        where = f"program.inputs[{i}]"
        if type(item) is not list or len(item) != 3 or not all(type(x) is str for x in item):
            raise Rejected(f"{where}: expected [name, type, domain]")
        name, kind, domain = item
        if not INPUT_NAME.fullmatch(name) or name in (n for n, _, _ in out):
            raise Rejected(f"{where}: {show(name)} is not a new input name")
        if kind not in types or domain not in domains[types[kind]]:
            raise Rejected(f"{where}: {show(kind)} {show(domain)} is not a type and domain of an input")
        out.append((name, types[kind], domain))
    return out


def each_step(steps, where: str, arity: dict, most: int):
    """(index, path, op, arguments) of each step whose operation is in the family's table
    `arity` and has that many arguments: the structure both families' readers share."""
    for i, step in enumerate(array(steps, where, most)):
        at = f"{where}[{i}]"
        if type(step) is not list or not step or type(step[0]) is not str or step[0] not in arity:
            raise Rejected(f"{at}: expected a list that starts with a known operation")
        op, args = step[0], step[1:]
        if len(args) != arity[op]:
            raise Rejected(f"{at}: {op} takes {arity[op]} arguments, got {len(args)}")
        yield i, at, op, args


def earlier(operands, count: int, at: str) -> None:
    """Each operand the index of one of the `count` steps before this one."""
    for j in operands:
        if type(j) is not int or not 0 <= j < count:
            raise Rejected(f"{at}: operand {show(str(j))} is not the index of an earlier step")


def read_steps(steps, inputs: list, types: list, where: str, proof: bool = False) -> list:
    """Steps as (op, operand indices, literal), appended after `types` (the types of the
    steps before them), each operand an earlier step of the right type.  Proof steps may
    not read an input or differentiate."""
    by_name = {n: (t, d) for n, t, d in inputs}
    ops = []
    for _, at, op, args in each_step(steps, where, ARITY, MAX_STEPS):
        k = len(types)
        if proof and op in ("input", "grad"):
            raise Rejected(f"{at}: {op} is not allowed among the proof's steps")
        literal = None
        if op == "input":
            if type(args[0]) is not str or args[0] not in by_name:
                raise Rejected(f"{at}: input names no declared input")
            literal, args = args[0], []
        elif op == "const":
            literal, args = rational(args[0], at + "[1]", MAX_CONST_DIGITS), []
        elif op == "pow":
            literal, args = args[1], args[:1]
            if type(literal) is not int or abs(literal) > MAX_POW:
                raise Rejected(f"{at}: the exponent of pow must be an integer from -{MAX_POW} to {MAX_POW}")
        earlier(args, k, at)
        types.append(type_of(op, [types[j] for j in args], literal, by_name, at))
        if op == "grad" and (ops_input(ops, types, args[1], k - len(ops)) is None):
            raise Rejected(f"{at}: grad must be taken with respect to a vector or scalar input step")
        ops.append((op, tuple(args), literal))
    return ops


def ops_input(ops: list, types: list, j: int, start: int):
    """The input name of step j if it is a vector or scalar input step of these ops, else None."""
    if j < start or types[j] not in ("V", "S"):
        return None
    op, _, name = ops[j - start]
    return name if op == "input" else None


def type_of(op: str, ts: list, literal, by_name: dict, at: str) -> str:
    table = {"add": ADD, "sub": ADD, "mul": MUL, "matmul": MATMUL}
    if op in table:
        if tuple(ts) not in table[op]:
            raise Rejected(f"{at}: {op} of {ts[0]} and {ts[1]} is not in the fragment")
        return table[op][tuple(ts)]
    fixed = {"m": "S", "const": "S", "ones": "V", "eye": "M"}
    if op in fixed:
        return fixed[op]
    if op == "input":
        return by_name[literal][0]
    want = {"div": ts[1:] == ["S"], "neg": True, "pow": ts == ["S"] or ts == ["V"] and op == "pow" and literal >= 0,
            "sqrt": ts == ["S"], "sum": ts == ["V"], "outer": ts == ["V", "V"],
            "transpose": ts == ["M"], "grad": ts in (["S", "V"], ["S", "S"])}[op]
    if not want:
        raise Rejected(f"{at}: {op} of {', '.join(ts)} is not in the fragment")
    if op == "grad":  # a gradient (V) for a vector input, a derivative (S) for a scalar one
        return ts[1]
    return {"sum": "S", "outer": "M"}.get(op, ts[0])


class Evaluator:
    """Normal forms of the steps, in order."""

    def __init__(self, inputs: list, signs: dict | None = None, replace: dict | None = None):
        """signs: roots.sign_facts of the program (the domains alone when None); replace:
        a scalar input's name, or a batch sum's atom ("S", w), -> the normal form it is read
        as (substitution.py)."""
        self.inputs = {n: (t, d) for n, t, d in inputs}
        self.replace = dict(replace or {})
        if signs is None:
            signs = {n: 1 if d == "positive" else 0 for n, t, d in inputs if t == "S"}
        self.alg = Algebra({n for n, t, d in inputs if t == "M" and d == "symmetric"}, signs)
        self.alg.replaced = {k: v for k, v in self.replace.items() if type(k) is tuple}
        self.values, self.types = [], []

    def run(self, ops: list, types: list) -> None:
        start = len(self.values)
        for i, (op, args, literal) in enumerate(ops):
            k = start + i
            xs = [self.values[j] for j in args]
            ts = [self.types[j] for j in args]
            self.values.append(self.step(op, xs, ts, literal, args, f"step {k}"))
            self.types.append(types[k])

    def step(self, op, xs, ts, literal, args, where):
        a = self.alg
        if op == "input":
            kind = self.inputs[literal][0]
            if kind == "S" and literal in self.replace:
                num, den = self.replace[literal]
                return dict(num), dict(den)
            return (a.atom(("s", literal)) if kind == "S" else
                    {((("v", literal), 1),): a.const(1)} if kind == "V" else
                    (a.const(0), {literal: a.const(1)}, []))
        if op == "m":
            return a.atom(("m",))
        if op == "const":
            return a.const(literal)
        if op == "ones":
            return {ONE: a.const(1)}
        if op == "eye":
            return a.const(1), {}, []
        if op in ("add", "sub"):
            return self.add(xs, ts, 1 if op == "add" else -1)
        if op == "neg":
            return self.scale(xs[0], ts[0], a.const(-1))
        if op == "mul":
            if ts == ["V", "V"]:
                return a.vmul(*xs)
            if ts == ["S", "S"]:
                return a.mul(*xs)
            s, x, t = (xs[0], xs[1], ts[1]) if ts[0] == "S" else (xs[1], xs[0], ts[0])
            return self.scale(x, t, s)
        if op == "div":
            return self.scale(xs[0], ts[0], a.inverse(xs[1], where))
        if op == "pow":
            if ts[0] == "S":
                return a.power(xs[0], literal, where)
            out = {ONE: a.const(1)}
            for _ in range(literal):
                out = a.vmul(out, xs[0])
            return out
        if op == "sqrt":
            return a.sqrt(xs[0], where)
        if op == "sum":
            return a.total(xs[0])
        if op == "outer":
            return a.const(0), {}, [(xs[0], xs[1])]
        if op == "transpose":
            return self.transpose(xs[0], where)
        if op == "matmul":
            return self.matmul(xs, ts, where)
        if ts[1] == "S":
            return a.derivative(xs[0], self.scalar_atom(args[1]))
        return a.grad(xs[0], ("v", self.ops_name(args[1])))

    def ops_name(self, j: int) -> str:
        v = self.values[j]
        ((gen, _),) = next(iter(v))  # an input vector: the single generator ("v", name)
        return gen[1]

    def scalar_atom(self, j: int) -> tuple:
        ((atom_, _),) = next(iter(self.values[j][0]))  # a scalar input: the atom ("s", name)
        return atom_

    def add(self, xs, ts, c):
        a = self.alg
        if ts[0] != ts[1]:  # broadcasting: a scalar times ones, or times the all-ones matrix
            xs = [self.broadcast(x, t, "V" if "V" in ts else "M") for x, t in zip(xs, ts)]
            ts = ["V" if "V" in ts else "M"] * 2
        x, y = xs
        if ts[0] == "S":
            return a.add(x, y, c)
        if ts[0] == "V":
            return a.vadd(x, y, c)
        hs = dict(x[1])
        for name, b in y[1].items():
            hs[name] = a.add(hs[name], b, c) if name in hs else a.mul(a.const(c), b)
        outers = x[2] + [(a.vscale(u, a.const(c)), w) for u, w in y[2]]
        return self.matrix(a.add(x[0], y[0], c), hs, outers)

    def broadcast(self, x, t, to):
        if t != "S":
            return x
        ones = {ONE: self.alg.const(1)}
        return self.alg.vscale(ones, x) if to == "V" else (self.alg.const(0), {}, [(self.alg.vscale(ones, x), ones)])

    def matrix(self, alpha, hs, outers):
        hs = {n: b for n, b in hs.items() if not self.alg.is_zero(b)}
        outers = [(u, w) for u, w in outers if u and w]
        if len(outers) > MAX_OUTERS:
            raise Rejected(f"a matrix with more than {MAX_OUTERS} outer products (the checker's limit)")
        return alpha, hs, outers

    def scale(self, x, t, s):
        a = self.alg
        if t == "S":
            return a.mul(x, s)
        if t == "V":
            return a.vscale(x, s)
        return self.matrix(a.mul(x[0], s), {n: a.mul(b, s) for n, b in x[1].items()},
                           [(a.vscale(u, s), w) for u, w in x[2]])

    def symmetric(self, hs, where):
        for name in hs:
            if name not in self.alg.symmetric:
                raise Rejected(f"{where}: the transpose of {show(name)}, a matrix input not declared "
                               "symmetric, is outside this checker's fragment")

    def transpose(self, x, where):
        self.symmetric(x[1], where)
        return x[0], dict(x[1]), [(w, u) for u, w in x[2]]

    def apply(self, hs, v):
        out = {}
        for name, b in hs.items():
            out = self.alg.vadd(out, self.alg.vscale(self.alg.apply(name, v), b))
        return out

    def matvec(self, x, v):
        a = self.alg
        out = a.vadd(a.vscale(v, x[0]), self.apply(x[1], v))
        for u, w in x[2]:
            out = a.vadd(out, a.vscale(u, a.dot(w, v)))
        return out

    def matmul(self, xs, ts, where):
        a = self.alg
        x, y = xs
        if ts == ["V", "V"]:
            return a.dot(x, y)
        if ts == ["M", "V"]:
            return self.matvec(x, y)
        if ts == ["V", "M"]:  # v^T M = (M^T v)^T
            return self.matvec(self.transpose(y, where), x)
        (p, hp, op_), (q, hq, oq) = x, y
        if hp and hq:
            raise Rejected(f"{where}: a product H @ H is outside this checker's fragment")
        hs = {n: a.mul(p, b) for n, b in hq.items()}
        for n, b in hp.items():
            hs[n] = a.mul(b, q)
        outers = [(a.vscale(u, p), w) for u, w in oq] + [(a.vscale(u, q), w) for u, w in op_]
        outers += [(self.apply(hp, u), w) for u, w in oq]
        if op_ and hq:
            self.symmetric(hq, where)
            outers += [(u, self.apply(hq, w)) for u, w in op_]
        outers += [(a.vscale(u, a.dot(w, u2)), w2) for u, w in op_ for u2, w2 in oq]
        return self.matrix(a.mul(p, q), hs, outers)
