"""What is true of a proof certificate's program, by SymPy alone (for the tamper campaign).

The program of a proof certificate (docs/certificates.md, "Proof certificates") is
interpreted here again, independently of the checker and of the engine: inputs are
SymPy symbols at a concrete batch size m, ``grad`` is SymPy's ``diff``, and the claim
is evaluated exactly at a few seeded rational points where the domains and the
hypotheses hold.  Sampling never proves a claim for every m; it only catches a
mutant the checker accepts although its claim is false somewhere (a wrong acceptance).
"""

from __future__ import annotations

import functools
import json
import random

import sympy

SIZES = (2, 3)
POINTS = 3


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


def proof_holds(doc: dict) -> bool:
    """False if the certificate's program, read as its claim, is false at a sampled point."""
    program = doc["program"]
    return _holds(json.dumps(program, sort_keys=True), program.get("kind", doc["claim"]["kind"]),
                  bool(program.get("strict", False)))
