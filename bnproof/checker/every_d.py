"""Proof certificates for every batch size m AND every feature count d (proof method
"every-d"; docs/claims.md, "Proofs for every m", "Every d").

The program's values are tensors whose axes have length m (the batch) or d (the
features), both symbols.  Its inputs are scalars, batch vectors (m,), feature vectors
(d,) and batch matrices (m, d), and no step can name a particular d, column or entry:
d is only ever a length (an axis) or the scalar ["d"].  So the program is one and the
same straight-line program at every d (d-uniform by its form).

A tensor is a sum of terms c · Π factors: c a scalar of the every-m algebra
(symbolic_length.Algebra), each factor an input's entry (X[i, j], y[i], w[j]) whose
indices are the tensor's own axes (free) or summed over (bound).  Each rule is an
identity of finite sums, true at every m, d >= 1:
  1. a sum over an index that no factor reads is m (or d) times the term; the identity's
     entries δ[a, b] (xp.eye) are summed out, Σ_a δ[a, b] F(a) = F(b);
  2. a sum over the indices of factor groups that share no bound index is the product
     of the groups' sums (the index ranges are independent), so a group whose indices
     are all bound is one scalar, an atom ("G", key) of the algebra;
  3. renaming bound indices does not change a sum.  key is the least form of the group
     over every renaming of its bound indices (all permutations, tried one by one), so
     two groups with one key are the same sum at every m and d; two equal sums with
     different keys only keep a true identity from reducing, never prove a false one.
The scalar algebra treats every atom as an indeterminate.  A residual whose normal form
is 0 is therefore 0 for every value the atoms take, so at every m, d >= 1 and every
input where each step is defined and each hypothesis > 0 (symbolic_length.py's
argument for roots and divisions, unchanged).

The certificate is a proof certificate (same envelope, digest and claim object, read by
proof.py's readers) with "fixed": {}, "proof": {"method": "every-d"}, a witness {"m",
"d", "inputs"} (X as m rows of d entries) and a program of inputs of shapes (), (m,),
(d,), (m, d) and of the steps in ARITY, each value of at most 3 axes ("m" or "d");
docs/certificates.md, "Every m and every d", has the format.

An inequality R >= 0 may instead carry "proof": {"method": "every-d", "squares": ...}:
R - sum_k c_k (sum of T_k * T_k over all axes) has normal form 0, each c_k manifestly
>= 0 (every_d_squares.py has the format and the argument).

The witness is an exact instance at a small (m, d): the program is written out there as
an ordinary scalar program (instantiate) and evaluated exactly (program.py), every step
defined and every hypothesis > 0, so the statement is not vacuous.  That the program is
the claim's residual is trusted, as for every proof certificate; `bnproof prove`
compares it with the claim's own code at several (m, d) before it writes one."""

from itertools import permutations, product
from math import factorial

from .every_d_squares import check_squares
from .instantiate import Emitter, write
from .live_steps import require_read
from .parse import Rejected, keys, rational, sha256_of
from .proof import (KIND, PROGRAM, TOP, assumptions, evaluate_witness, proved_zero, read_claim,  # noqa: F401
                    read_outputs, read_witness, said_at)  # KIND, PROGRAM, TOP: the exporter reads with them
from .symbolic_length import Algebra
from .symbolic_program import each_step, earlier, read_inputs as read_typed_inputs
from .variables import declared

SHAPES = {"scalar": (), "vector": ("m",), "feature": ("d",), "matrix": ("m", "d")}
# an input's type is named by itself here; only a scalar keeps a domain (a vector's is dropped)
DOMAINS = {"scalar": ("real", "nonzero", "positive"), "vector": ("real",), "feature": ("real",),
           "matrix": ("real",)}
ARITY = {"input": 1, "const": 1, "m": 0, "d": 0, "eye": 1, "add": 2, "sub": 2, "mul": 2, "div": 2,
         "neg": 1, "pow": 2, "sqrt": 1, "sum": 2, "dot": 4, "expand": 3, "transpose": 1}
OPERANDS = {"add": 2, "sub": 2, "mul": 2, "div": 2, "neg": 1, "pow": 1, "sqrt": 1, "sum": 1,
            "dot": 2, "expand": 1, "transpose": 1}
MAX_STEPS, MAX_RANK, MAX_TERMS, MAX_FACTORS = 4000, 3, 2000, 16
MAX_POW, MAX_TENSOR_POW, MAX_INPUTS, MAX_CONST_DIGITS = 64, 8, 64, 200
# renamings tried for one group's canonical form: beyond, the group is rejected (a
# limit on the checker's work, never a guess)
MAX_RENAMINGS = 5040
MAX_WITNESS_M, MAX_WITNESS_D, MAX_SCALAR_STEPS, MAX_CELLS = 32, 16, 400_000, 2_000_000
M, D = ("m",), ("d",)


# ------------------------------------------------------------------ the program

def read_inputs(value) -> list:
    """program.inputs as (name, type, domain), read as the every-m reader reads them
    (symbolic_program.py) with this family's types and domains."""
    return read_typed_inputs(value, {kind: kind for kind in SHAPES}, DOMAINS, MAX_INPUTS)


def read_steps(steps, inputs: list) -> list:
    """Each step as (op, operands, literal, axes), axes the tuple of "m"/"d" of its value:
    the step list read as the every-m reader reads it, with this family's operations."""
    by_name = {n: k for n, k, _ in inputs}
    ops = []
    for i, at, op, args in each_step(steps, "program.steps", ARITY, MAX_STEPS):
        operands, literal = args[:OPERANDS.get(op, 0)], args[OPERANDS.get(op, 0):]
        earlier(operands, i, at)
        axes = _axes(op, [ops[j][3] for j in operands], literal, by_name, at)
        if op == "const":
            literal = rational(literal[0], at + "[1]", MAX_CONST_DIGITS)
        elif op == "input":
            literal = literal[0]
        ops.append((op, tuple(operands), literal, axes))
    return ops


def _axes(op, shapes, literal, by_name, at) -> tuple:
    def need(ok, what):
        if not ok:
            raise Rejected(f"{at}: {what}")

    if op == "input":
        need(type(literal[0]) is str and literal[0] in by_name, "input names no declared input")
        return SHAPES[by_name[literal[0]]]
    if op in ("const", "m", "d"):
        return ()
    if op == "eye":
        need(literal[0] in ("m", "d"), "eye of a length that is not m or d")
        return (literal[0], literal[0])
    if op in ("add", "sub", "mul"):
        a, b = shapes
        need(a == b or not a or not b, f"{op} of shapes {a} and {b} (one must be a scalar, or both alike)")
        return a or b
    if op == "div":
        need(not shapes[1], "div by a value that is not a scalar")
        return shapes[0]
    if op in ("neg", "transpose"):
        need(op == "neg" or len(shapes[0]) == 2, "transpose of a value that is not 2-d")
        return shapes[0][::-1] if op == "transpose" else shapes[0]
    if op == "pow":
        k = literal[0]
        limit = MAX_TENSOR_POW if shapes[0] else MAX_POW
        need(type(k) is int and (-limit if not shapes[0] else 0) <= k <= limit,
             f"the exponent of pow must be an integer within the limits ({limit})")
        return shapes[0]
    if op == "sqrt":
        need(not shapes[0], "sqrt of a value that is not a scalar")
        return ()
    if op == "sum":
        p = literal[0]
        need(type(p) is int and 0 <= p < len(shapes[0]), "sum over an axis the value does not have")
        return shapes[0][:p] + shapes[0][p + 1:]
    if op == "dot":
        (a, b), (ia, ib) = shapes, literal
        need(type(ia) is int and type(ib) is int and 0 <= ia < len(a) and 0 <= ib < len(b)
             and a[ia] == b[ib], "dot over axes of different lengths")
        out = a[:ia] + a[ia + 1:] + b[:ib] + b[ib + 1:]
        need(len(out) <= MAX_RANK, f"a value of more than {MAX_RANK} axes")
        return out
    if op == "expand":
        target, positions = literal
        need(type(target) is list and len(target) <= MAX_RANK and all(t in ("m", "d") for t in target)
             and type(positions) is list and len(positions) == len(shapes[0])
             and all(type(p) is int for p in positions)
             and all(0 <= p < len(target) for p in positions)
             and all(p < q for p, q in zip(positions, positions[1:]))
             and all(target[p] == s for p, s in zip(positions, shapes[0])),
             "expand: not a broadcast of the value's axes into the target's, in order")
        return tuple(target)
    raise Rejected(f"{at}: unknown operation")  # pragma: no cover - ARITY has every op


# ------------------------------------------------------------------ tensors

def _bound(label) -> bool:
    return label[0] == "b"


def _relabel(factors, mapping) -> tuple:
    return tuple(sorted((f[0], *(mapping.get(x, x) for x in f[1:])) for f in factors))


def canonical(factors, charge=None) -> tuple:
    """The least form of these factors over every renaming of their bound indices, each
    kind ("m", "d") renamed among itself; free indices keep their names.  charge(units)
    is told of the renamings tried (the checker's work limit)."""
    kinds = {"m": sorted({x for f in factors for x in f[1:] if _bound(x) and x[1] == "m"}),
             "d": sorted({x for f in factors for x in f[1:] if _bound(x) and x[1] == "d"})}
    if factorial(len(kinds["m"])) * factorial(len(kinds["d"])) > MAX_RENAMINGS:
        raise Rejected(f"a sum over more indices than the checker renames ({MAX_RENAMINGS} renamings)")
    if charge is not None:
        charge(factorial(len(kinds["m"])) * factorial(len(kinds["d"])))
    best = None
    for pm in permutations(range(len(kinds["m"]))):
        for pd in permutations(range(len(kinds["d"]))):
            mapping = {x: ("b", "m", k) for x, k in zip(kinds["m"], pm)}
            mapping.update({x: ("b", "d", k) for x, k in zip(kinds["d"], pd)})
            form = _relabel(factors, mapping)
            if best is None or form < best:
                best = form
    return best if best is not None else ()


class Tensors:
    """Tensor values over one scalar algebra."""

    def __init__(self, alg: Algebra):
        self.alg = alg

    def scalar(self, s) -> dict:
        return {(): s} if not self.alg.is_zero(s) else {}

    def value(self, t: dict):
        """A tensor of no axes as a scalar."""
        return t.get((), self.alg.const(0))

    def put(self, out: dict, factors, coef) -> None:
        """Add coef · Π factors to out, its closed groups taken out as atoms."""
        factors, coef = self.kronecker(list(factors), coef)
        if len(factors) > MAX_FACTORS:
            raise Rejected(f"a term of more than {MAX_FACTORS} factors (the checker's limit)")
        groups = _groups(factors)
        kept = []
        for group in groups:
            if any(not _bound(x) for f in group for x in f[1:]):
                kept.extend(group)
            else:
                coef = self.alg.mul(coef, self.alg.atom(("G", canonical(group, self.alg.charge))))
        key = canonical(kept, self.alg.charge)
        out[key] = self.alg.add(out[key], coef) if key in out else coef
        if self.alg.is_zero(out[key]):
            del out[key]
        if len(out) > MAX_TERMS:
            raise Rejected(f"a tensor of more than {MAX_TERMS} terms (the checker's limit)")

    def kronecker(self, factors: list, coef) -> tuple:
        """The identity's entries δ[a, b] (factor "=") summed out: Σ_a δ[a, b] F(a) = F(b) for a
        summed index a (b of the same length), δ[a, a] = 1 (then Σ_a over nothing else is
        the length m or d); a δ of two free indices stays, its indices in order."""
        while True:
            k = next((k for k, f in enumerate(factors) if f[0] == "=" and (_bound(f[1]) or _bound(f[2]))), None)
            if k is None:
                return [("=", *sorted(f[1:])) if f[0] == "=" else f for f in factors], coef
            _, a, b = factors.pop(k)
            if a == b:
                if not any(a in f[1:] for f in factors):
                    coef = self.alg.mul(coef, self.alg.atom(M if a[1] == "m" else D))
                continue
            gone, kept = (a, b) if _bound(a) else (b, a)
            factors = [(f[0], *(kept if x == gone else x for x in f[1:])) for f in factors]

    def add(self, a: dict, b: dict, c=1) -> dict:
        out = dict(a)
        for key, s in b.items():
            t = self.alg.add(out[key], s, c) if key in out else self.alg.add(self.alg.const(0), s, c)
            if self.alg.is_zero(t):
                out.pop(key, None)
            else:
                out[key] = t
        return out

    def mul(self, a: dict, b: dict) -> dict:
        out = {}
        for ka, ca in a.items():
            shift = 1 + max((x[2] for f in ka for x in f[1:] if _bound(x)), default=-1)
            for kb, cb in b.items():
                moved = tuple((f[0], *((x[0], x[1], x[2] + shift) if _bound(x) else x for x in f[1:]))
                              for f in kb)
                self.put(out, ka + moved, self.alg.mul(ca, cb))
        return out

    def scale(self, a: dict, s) -> dict:
        out = {}
        for k, c in a.items():
            self.put(out, k, self.alg.mul(c, s))
        return out

    def rename(self, a: dict, free: dict, kind: str | None = None) -> dict:
        """Free index p renamed free[p] (a free name ("f", q) or a bound one); where kind is
        given, a term that does not read the index bound by the renaming is that index's
        length (m or d) times itself."""
        out = {}
        summed = [v for v in free.values() if _bound(v)]
        for k, c in a.items():
            factors = tuple((f[0], *(free.get(x[1], x) if x[0] == "f" else x for x in f[1:])) for f in k)
            if summed and not any(x in summed for f in factors for x in f[1:]):
                c = self.alg.mul(c, self.alg.atom(M if kind == "m" else D))
            self.put(out, factors, c)
        return out

    def sum(self, a: dict, axes: tuple, p: int) -> dict:
        free = {q: ("f", q - 1) for q in range(p + 1, len(axes))}
        free[p] = ("b", axes[p], 10_000)  # a fresh name; canonical() renames it
        return self.rename(a, free, axes[p])

    def expand(self, a: dict, positions: list) -> dict:
        return self.rename(a, {k: ("f", p) for k, p in enumerate(positions)})

    def transpose(self, a: dict) -> dict:
        return self.rename(a, {0: ("f", 1), 1: ("f", 0)})


def _groups(factors) -> list:
    """The factors in groups connected by shared bound indices."""
    groups: list = []
    for f in factors:
        mine = [g for g in groups if any(_bound(x) and any(x in h[1:] for h in g) for x in f[1:])]
        merged = [f] + [h for g in mine for h in g]
        groups = [g for g in groups if all(g is not h for h in mine)] + [merged]
    return groups


class Evaluator:
    """The program's values in normal form."""

    def __init__(self, inputs: list):
        signs = {n: (1 if d == "positive" else 0) for n, k, d in inputs if k == "scalar"}
        self.alg = Algebra(set(), signs)
        self.t = Tensors(self.alg)
        self.kinds = {n: k for n, k, _ in inputs}
        self.values: list = []

    def run(self, ops: list) -> None:
        """The values of the steps not yet run: a proof's extra steps continue the program's."""
        for i in range(len(self.values), len(ops)):
            op, args, literal, _ = ops[i]
            self.values.append(self.step(op, [self.values[j] for j in args],
                                         [ops[j][3] for j in args], literal, f"program.steps[{i}]"))

    def step(self, op, vals, shapes, literal, where):
        t, alg = self.t, self.alg
        if op == "input":
            kind = self.kinds[literal]
            if kind == "scalar":
                return t.scalar(alg.atom(("s", literal)))
            free = tuple(("f", p) for p in range(len(SHAPES[kind])))
            return {((literal, *free),): alg.const(1)}
        if op == "const":
            return t.scalar(alg.const(literal))
        if op in ("m", "d"):
            return t.scalar(alg.atom((op,)))
        if op == "eye":
            return {(("=", ("f", 0), ("f", 1)),): alg.const(1)}
        if op == "add":
            return t.add(*vals)
        if op == "sub":
            return t.add(*vals, -1)
        if op == "neg":
            return t.add({}, vals[0], -1)
        if op == "mul":
            return t.mul(*vals)
        if op == "div":
            return t.scale(vals[0], alg.inverse(t.value(vals[1]), where))
        if op == "pow":
            if not shapes[0]:
                return t.scalar(alg.power(t.value(vals[0]), literal[0], where))
            out = t.scalar(alg.const(1))
            for _ in range(literal[0]):
                out = t.mul(out, vals[0])
            return out
        if op == "sqrt":
            return t.scalar(alg.sqrt(t.value(vals[0]), where))
        if op == "sum":
            return t.sum(vals[0], shapes[0], literal[0])
        if op == "expand":
            return t.expand(vals[0], literal[1])
        if op == "transpose":
            return t.transpose(vals[0])
        # dot, Σ_k a[.., k, ..] b[.., k, ..]: both moved to joint axes, k the last
        (a, b), (ia, ib) = shapes, literal
        ra, rb = [x for q, x in enumerate(a) if q != ia], [x for q, x in enumerate(b) if q != ib]
        joint = (*ra, *rb, a[ia])
        pa = [q if q < ia else (len(joint) - 1 if q == ia else q - 1) for q in range(len(a))]
        pb = [len(ra) + (q if q < ib else q - 1) if q != ib else len(joint) - 1 for q in range(len(b))]
        both = t.mul(t.rename(vals[0], {q: ("f", p) for q, p in enumerate(pa)}),
                     t.rename(vals[1], {q: ("f", p) for q, p in enumerate(pb)}))
        return t.sum(both, joint, len(joint) - 1)


# ------------------------------------------------------------------ at a concrete (m, d)

def instantiate(inputs: list, ops: list, m: int, d: int) -> tuple[list, list]:
    """The program at batch size m and d features as an ordinary scalar program (the
    format of program certificates, inputs ["input", name, *indices]); returns (steps,
    the scalar step of each rank-0 program step, None for the others)."""
    size = {"m": m, "d": d}
    e = Emitter([], m, MAX_SCALAR_STEPS, f"m = {m}, d = {d}")  # its steps and constants; inputs are written here
    visited = [0]

    def cells(axes):
        count = 1
        for a in axes:
            count *= size[a]
        visited[0] += count
        if visited[0] > MAX_CELLS:
            raise Rejected(f"the program at m = {m}, d = {d} has more than {MAX_CELLS} entries in all")
        return product(*(range(size[a]) for a in axes))

    kinds = {n: k for n, k, _ in inputs}
    values: list = []
    for op, args, literal, axes in ops:
        vals = [values[j] for j in args]
        shapes = [ops[j][3] for j in args]
        if op == "input":
            out = {idx: e.emit(["input", literal, *idx]) for idx in cells(SHAPES[kinds[literal]])}
        elif op in ("const", "m", "d"):
            out = {(): e.const(literal if op == "const" else size[op])}
        elif op == "expand":
            out = {idx: vals[0][tuple(idx[p] for p in literal[1])] for idx in cells(axes)}
        elif op == "pow" and literal[0] == 0:
            out = {idx: e.const(1) for idx in vals[0]}
        else:  # pow's exponent, sum's axis, dot's axes; eye and the rest read none
            out = write(e, op, vals, shapes, literal[0] if op in ("pow", "sum") else literal, axes, cells, size)
        values.append(out)
    return e.steps, [v.get(()) if not ops[i][3] else None for i, v in enumerate(values)]


# ------------------------------------------------------------------ the certificate

def expected_inputs(variables: list) -> tuple[list, str, str]:
    """The program inputs the claim's variables give, and the names of its batch size and
    feature count: every 2-d variable is (batch, features), the batch named by them."""
    matrices = {tuple(shape) for _, shape, _ in variables if len(shape) == 2}
    if len(matrices) != 1:
        raise Rejected("claim.variables: a proof for every d needs one shape (batch, features) of "
                       "its 2-d variables")
    (batch, feature), = matrices
    if type(batch) is not str or type(feature) is not str or batch == feature:
        raise Rejected("claim.variables: the batch size and feature count must be two size names")
    out = []
    for name, shape, domain in variables:
        kind = {(): "scalar", (batch,): "vector", (feature,): "feature",
                (batch, feature): "matrix"}.get(tuple(shape))
        if kind is None or domain == "symmetric":
            raise Rejected(f"claim.variables: {name} of shape {shape} ({domain}) is outside the "
                           "every-d fragment")
        out.append([name, kind, domain if kind == "scalar" else "real"])
    return out, batch, feature


def read_statement(doc: dict) -> tuple:
    """Everything of an every-d certificate but its proof and witness, read as proof.py
    reads an every-m one (envelope, seal, claim, program keys and kind; the residual and
    hypotheses scalar steps; every conditioned step read) with this family's inputs and
    steps.  Returns (claim, inputs, ops, residual, hypotheses, batch name, feature name)."""
    claim, program = read_claim(doc, equalities=False)
    expected, batch, feature = expected_inputs(declared(claim["variables"]))
    keys(doc["fixed"], "fixed", set())  # nothing is fixed: every m and every d
    inputs = read_inputs(program["inputs"])
    if [list(i) for i in program["inputs"]] != expected:
        raise Rejected("program.inputs: not the inputs the claim's declared variables give")
    ops = read_steps(program["steps"], inputs)
    residual, hyps = read_outputs(program, [axes for *_, axes in ops], ())
    require_read([args for _, args, _, _ in ops], [residual, *hyps],
                 lambda k: ops[k][0] in ("div", "sqrt") or ops[k][0] == "pow" and ops[k][2][0] < 0)
    return claim, inputs, ops, residual, hyps, batch, feature


def check_every_d(doc: dict) -> str:
    """A proof certificate of method "every-d"; returns what was established."""
    claim, inputs, ops, residual, hyps, batch, feature = read_statement(doc)
    program, proof = doc["program"], doc["proof"]
    squares = type(proof) is dict and "squares" in proof  # an inequality: every_d_squares.py
    if keys(proof, "proof", {"method", "squares"} if squares else {"method"})["method"] != "every-d":
        raise Rejected("proof.method: this checker reads \"every-d\" here")
    ev = Evaluator(inputs)
    ev.run(ops)
    if squares:
        if claim["kind"] != "inequality":
            raise Rejected("proof.squares: sums of squares prove only a non-strict inequality")
        count = check_squares(proof["squares"], program, inputs, ops, ev, read_steps)
        said = f">= 0 as a sum of {count} square{'s' if count > 1 else ''} with coefficients >= 0"
    else:
        said = proved_zero(claim, ev.alg.is_zero(ev.t.value(ev.values[residual])))
    sizes, values = read_witness(doc["witness"], inputs, {"m": MAX_WITNESS_M, "d": MAX_WITNESS_D}, SHAPES)
    evaluate_witness(*instantiate(inputs, ops, sizes["m"], sizes["d"]), values, hyps)
    names = "" if (batch, feature) == ("m", "d") else f" (m is {batch}, d is {feature})"
    return (f"{claim['id']} proved for every m and every d{names}: residual {said} (assuming "
            f"{assumptions([], hyps)}; witness at {said_at(sizes)}; trusting program {sha256_of(program)[:23]})")
