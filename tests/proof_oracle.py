"""What is true of a proof certificate's program, by SymPy alone (for the tamper campaign).

The program of a proof certificate (docs/certificates.md, "Proof certificates") is
interpreted here again, independently of the checker and of the engine: inputs are
SymPy symbols at a concrete batch size m, ``grad`` is SymPy's ``diff``, and the claim
is evaluated exactly at a few seeded rational points where the domains and the
hypotheses hold.  Sampling never proves a claim for every m; it only catches a
mutant the checker accepts although its claim is false somewhere (a wrong acceptance).

A program of method "every-d" (bnproof/checker/every_d.py) has tensors with axes of
length m or d; it is run here at a few (m, d) directly on exact values at each seeded
point (numpy object arrays of SymPy numbers), each division and square root checked
there: a division by 0 or a root of a negative leaves the point undefined, never a value.
"""

from __future__ import annotations

import functools
import json
import random

import numpy
import sympy

SIZES = (2, 3)
POINTS = 3
# (m, d) for every-d programs: m != d in most, so a program that mixes up the two lengths
# is seen; m = 1 (a batch of one) is a size the claims are stated for too
SIZES_MD = ((1, 2), (2, 1), (3, 2), (2, 3))
POINTS_MD = 4
# how many of a step's arguments are earlier steps (the rest are literals: an exponent, axes)
OPERANDS_MD = {"add": 2, "sub": 2, "mul": 2, "div": 2, "neg": 1, "pow": 1, "sqrt": 1, "sum": 1,
               "dot": 2, "expand": 1, "transpose": 1}


class _Undefined(Exception):
    pass


def _scalar(x) -> bool:
    return not isinstance(x, sympy.MatrixBase)


def _broadcast(a, b, op):
    if _scalar(a) and not _scalar(b):
        a = a * sympy.ones(*b.shape)
    elif _scalar(b) and not _scalar(a):
        b = b * sympy.ones(*a.shape)
    if _scalar(a):
        return op(a, b)
    return a.applyfunc(lambda _: 0) + sympy.Matrix(*a.shape, lambda i, j: op(a[i, j], b[i, j]))


def _program_values(program: dict, m: int, symbols: dict) -> list:
    values = []
    for step in program["steps"]:
        op, args = step[0], step[1:]
        v = [values[a] for a in args] if op not in ("input", "const", "pow", "grad") else None
        if op == "input":
            values.append(symbols[args[0]])
        elif op == "m":
            values.append(sympy.Integer(m))
        elif op == "const":
            values.append(sympy.Rational(args[0]))
        elif op == "ones":
            values.append(sympy.ones(m, 1))
        elif op == "eye":
            values.append(sympy.eye(m))
        elif op in ("add", "sub"):
            values.append(_broadcast(v[0], v[1], (lambda x, y: x + y) if op == "add" else (lambda x, y: x - y)))
        elif op == "mul":
            a, b = v
            if _scalar(a) or _scalar(b):
                values.append(a * b)
            else:
                values.append(a.multiply_elementwise(b))
        elif op == "div":
            values.append(v[0] / v[1])
        elif op == "neg":
            values.append(-v[0])
        elif op == "pow":
            a, k = values[args[0]], args[1]
            values.append(a**k if _scalar(a) else a.applyfunc(lambda t: t**k))
        elif op == "sqrt":
            values.append(sympy.sqrt(v[0]))
        elif op == "sum":
            values.append(sum(v[0]))
        elif op == "outer":
            values.append(v[0] * v[1].T)
        elif op == "matmul":
            a, b = v
            if a.shape[1] == 1 and b.shape[1] == 1:  # V @ V
                values.append((a.T * b)[0, 0])
            elif a.shape[1] == 1:  # V @ M
                values.append((a.T * b).T)
            else:
                values.append(a * b)
        elif op == "transpose":
            values.append(v[0].T)
        elif op == "grad":
            f, x = values[args[0]], values[args[1]]
            values.append(sympy.Matrix([sympy.diff(f, s) for s in x]))
        else:
            raise ValueError(f"unknown op {op!r}")
    return values


def _symbols(program: dict, m: int) -> dict:
    out = {}
    for name, kind, domain in program["inputs"]:
        if kind == "scalar":
            out[name] = sympy.Symbol(f"s_{name}")
        elif kind == "vector":
            out[name] = sympy.Matrix([sympy.Symbol(f"v_{name}_{i}") for i in range(m)])
        else:
            entry = (lambda i, j: sympy.Symbol(f"h_{name}_{min(i, j)}_{max(i, j)}")) if domain == "symmetric" \
                else (lambda i, j: sympy.Symbol(f"h_{name}_{i}_{j}"))
            out[name] = sympy.Matrix(m, m, entry)
    return out


def _point(program: dict, symbols: dict, rng: random.Random) -> dict:
    subs = {}
    for name, kind, domain in program["inputs"]:
        value = symbols[name]
        for s in (value if not _scalar(value) else [value]).free_symbols if not _scalar(value) else [value]:
            if s in subs:
                continue
            q = sympy.Rational(rng.randint(-4, 4), rng.choice([1, 1, 2, 3]))
            if domain == "positive":
                q = abs(q) + 1
            elif domain == "nonzero" and q == 0:
                q = sympy.Integer(1)
            subs[s] = q
    return subs


def _exact(expr):
    # no nsimplify: it guesses a closed form from 30 digits, and a guess once turned a true
    # bound's exact 0 into a negative number (the oracle then called a true claim false)
    value = sympy.radsimp(sympy.sympify(expr))
    if value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) or value.is_real is False:
        raise _Undefined
    return value


def _sign(value) -> int:
    """The sign of an exact real algebraic number: SymPy's own decision where it makes one,
    else 80 digits of evalf (adaptive precision) when they leave no doubt; a value too close to
    0 to tell, and not proved 0, says nothing about this point."""
    if value == 0 or value.is_zero:
        return 0
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    approx = value.evalf(80)
    if approx.is_real and approx.is_Number and abs(approx) > sympy.Float("1e-60", 80):
        return 1 if approx > 0 else -1
    if value.equals(0):
        return 0
    raise _Undefined


@functools.lru_cache(maxsize=256)
def _holds(program_text: str, kind: str, strict: bool) -> bool:
    program = json.loads(program_text)
    rng = random.Random(0)
    for m in SIZES:
        symbols = _symbols(program, m)
        values = _program_values(program, m, symbols)
        for _ in range(POINTS):
            subs = _point(program, symbols, rng)
            try:
                if any(_sign(_exact(values[h].xreplace(subs))) <= 0 for h in program["hypotheses"]):
                    continue
                s = _sign(_exact(values[program["residual"]].xreplace(subs)))
            except (_Undefined, ZeroDivisionError, TypeError):
                continue
            ok = s == 0 if kind == "identity" else s > 0 if strict else s >= 0
            if not ok:
                return False
    return True


# ------------------------------------------------------------------ every m and every d

def _cell(x):
    # a 0-d array filled in place: numpy.array(x) may try to read a SymPy value as a sequence
    out = numpy.empty((), dtype=object)
    out[()] = x
    return out


def _tensor(shape, entry):
    out = numpy.empty(shape, dtype=object)
    for idx in numpy.ndindex(*shape):
        out[idx] = entry(idx)
    return out


def _rational(rng, domain):
    q = sympy.Rational(rng.randint(-4, 4), rng.choice([1, 1, 2, 3]))
    if domain == "positive":
        return abs(q) + 1
    if domain == "nonzero" and q == 0:
        return sympy.Integer(1)
    return q


def _inputs_md(program: dict, m: int, d: int, rng: random.Random) -> dict:
    shapes = {"scalar": (), "vector": (m,), "feature": (d,), "matrix": (m, d)}
    return {name: _tensor(shapes[kind], lambda _: _rational(rng, domain))
            for name, kind, domain in program["inputs"]}


def _nonzero(x) -> None:
    if _sign(_exact(x)) == 0:
        raise _Undefined


def _elementwise(a, b, f):
    if a.shape and b.shape and a.shape != b.shape:
        raise ValueError(f"shapes {a.shape} and {b.shape}")
    shape = a.shape or b.shape
    return _tensor(shape, lambda idx: f(a[idx if a.shape else ()], b[idx if b.shape else ()]))


def _power(x, k: int):
    if k < 0:
        _nonzero(x)
    return sympy.Integer(1) if k == 0 else x**k


def _values_md(program: dict, m: int, d: int, given: dict) -> list:
    """Each step's value at (m, d) on the inputs `given`, as an array whose shape is the
    lengths of the step's axes; _Undefined where a step is not defined."""
    length = {"m": m, "d": d}
    values: list = []
    for step in program["steps"]:
        op, args = step[0], step[1:]
        v = [values[a] for a in args[:OPERANDS_MD.get(op, 0)]]
        if op == "input":
            out = given[args[0]]
        elif op == "const":
            out = _cell(sympy.Rational(args[0]))
        elif op in ("m", "d"):
            out = _cell(sympy.Integer(length[op]))
        elif op == "eye":
            n = length[args[0]]
            out = _tensor((n, n), lambda idx: sympy.Integer(int(idx[0] == idx[1])))
        elif op in ("add", "sub", "mul"):
            f = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}[op]
            out = _elementwise(v[0], v[1], f)
        elif op == "div":
            if v[1].shape:
                raise ValueError("div by a tensor")
            _nonzero(v[1][()])
            out = _elementwise(v[0], v[1], lambda x, y: x / y)
        elif op == "neg":
            out = _tensor(v[0].shape, lambda idx: -v[0][idx])
        elif op == "pow":
            out = _tensor(v[0].shape, lambda idx: _power(v[0][idx], args[1]))
        elif op == "sqrt":
            if v[0].shape:
                raise ValueError("sqrt of a tensor")
            if _sign(_exact(v[0][()])) < 0:
                raise _Undefined
            out = _cell(sympy.sqrt(v[0][()]))
        elif op == "sum":  # the entries along axis args[1] added up, in order
            a, p = v[0], args[1]
            out = _tensor(a.shape[:p] + a.shape[p + 1:],
                          lambda idx: sympy.Add(*(a[idx[:p] + (k,) + idx[p:]] for k in range(a.shape[p]))))
        elif op == "dot":  # axis ia of a against axis ib of b; a's other axes, then b's
            (a, b), (ia, ib) = v, args[2:]
            if a.shape[ia] != b.shape[ib]:
                raise ValueError("dot over axes of different lengths")
            ra = a.shape[:ia] + a.shape[ia + 1:]
            out = _tensor(ra + b.shape[:ib] + b.shape[ib + 1:], lambda idx: sympy.Add(*(
                a[idx[:ia] + (k,) + idx[ia:len(ra)]] * b[idx[len(ra):][:ib] + (k,) + idx[len(ra):][ib:]]
                for k in range(a.shape[ia]))))
        elif op == "expand":  # a broadcast: a's axis k is axis positions[k] of the target
            a, (target, positions) = v[0], args[1:]
            if a.shape != tuple(length[target[p]] for p in positions):
                raise ValueError("expand: the value's axes are not the target's")
            out = _tensor(tuple(length[t] for t in target), lambda idx: a[tuple(idx[p] for p in positions)])
        elif op == "transpose":
            out = v[0].T
        else:
            raise ValueError(f"unknown op {op!r}")
        values.append(out)
    return values


@functools.lru_cache(maxsize=256)
def _holds_every_d(program_text: str, kind: str, strict: bool) -> bool:
    program = json.loads(program_text)
    rng = random.Random(0)
    for m, d in SIZES_MD:
        for _ in range(POINTS_MD):
            given = _inputs_md(program, m, d, rng)
            try:
                values = _values_md(program, m, d, given)
                if any(_sign(_exact(values[h][()])) <= 0 for h in program["hypotheses"]):
                    continue
                s = _sign(_exact(values[program["residual"]][()]))
            except _Undefined:
                continue
            if not (s == 0 if kind == "identity" else s > 0 if strict else s >= 0):
                return False
    return True


def proof_holds(doc: dict) -> bool:
    """False if the certificate's program, read as its claim, is false at a sampled point."""
    program = doc["program"]
    if type(doc.get("proof")) is dict and doc["proof"].get("method") == "every-d":
        return _holds_every_d(json.dumps(program, sort_keys=True), program["kind"], bool(program["strict"]))
    return _holds(json.dumps(program, sort_keys=True), program.get("kind", doc["claim"]["kind"]),
                  bool(program.get("strict", False)))
