"""Replay a symbolic-length program (spec §1) in the algebra: the normal form of
every step.  Wrong arity, a type mismatch or an unknown op is a ValueError."""

from __future__ import annotations

from fractions import Fraction

from .algebra import Algebra, Matrix, Scalar, Vector
from .fragment import OutsideFragment
from .roots import sign_facts

ARITY = {"input": 1, "m": 0, "const": 1, "ones": 0, "eye": 0, "add": 2, "sub": 2, "mul": 2,
         "div": 2, "neg": 1, "pow": 2, "sqrt": 1, "sum": 1, "outer": 2, "matmul": 2,
         "transpose": 1, "grad": 2}


def kind(value) -> str:
    return "S" if isinstance(value, Scalar) else "V" if isinstance(value, Vector) else "M"


class Replay:
    """The values of a program's steps, and of proof steps appended after them."""

    def __init__(self, program: dict, algebra: Algebra | None = None, replace: dict | None = None):
        """replace: scalar input name -> the Scalar it is read as (equalities.py: an input an
        equality hypothesis determines, substituted out; the same algebra's atoms)."""
        self.alg = algebra or Algebra()
        self.replace = dict(replace or {})
        self.alg.signs = sign_facts(program)  # before any step: a root's normal form uses them
        self.inputs = {name: (typ, domain) for name, typ, domain in program["inputs"]}
        self.values: list = []
        self.input_of: dict[int, str] = {}
        self._matrix_input = None
        self.run(program["steps"])

    def run(self, steps: list, allow_input: bool = True) -> None:
        for step in steps:
            if not isinstance(step, list) or not step or step[0] not in ARITY:
                raise ValueError(f"unknown step {step!r}")
            if len(step) - 1 != ARITY[step[0]]:
                raise ValueError(f"step {step!r}: wrong arity")
            if step[0] == "input" and not allow_input:
                raise ValueError("an input step among proof steps")
            self.values.append(self._step(step))

    def _arg(self, step, k):
        i = step[k]
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self.values):
            raise ValueError(f"step {step!r}: operand {i!r} is not an earlier step")
        return self.values[i]

    def _step(self, step):
        alg, op = self.alg, step[0]
        if op == "input":
            name = step[1]
            if name not in self.inputs:
                raise ValueError(f"unknown input {name!r}")
            typ, _ = self.inputs[name]
            self.input_of[len(self.values)] = name
            if typ == "scalar":
                if name in self.replace:
                    return self.replace[name]
                return alg.var(alg.atom(("in", name)))
            if typ == "vector":
                return Vector({((alg.gen(("in", name)), 1),): alg.const(1)})
            if self.inputs[name][1] != "symmetric":  # the algebra's H is symmetric (Hᵀ = H)
                raise OutsideFragment("uses a matrix input that is not symmetric")
            if self._matrix_input not in (None, name):
                raise OutsideFragment("uses two matrix inputs")
            self._matrix_input = name
            return Matrix(alg.const(0), alg.const(1), [])
        if op == "m":
            return alg.var(alg.m)
        if op == "const":
            return alg.const(Fraction(step[1]))
        if op == "ones":
            return alg.ones()
        if op == "eye":
            return Matrix(alg.const(1), alg.const(0), [])
        a = self._arg(step, 1)
        ka = kind(a)
        if op == "neg":
            return {"S": alg.neg, "V": lambda v: alg.vec_scale(v, alg.const(-1)),
                    "M": lambda x: alg.mat_scale(x, alg.const(-1))}[ka](a)
        if op == "pow":
            k = step[2]
            if not isinstance(k, int) or isinstance(k, bool) or abs(k) > 64:
                raise ValueError(f"step {step!r}: the exponent must be an integer, |k| ≤ 64")
            if ka == "S":
                return alg.pow(a, k)
            if ka == "V" and k >= 0:
                return alg.vec_pow(a, k)
            raise ValueError(f"step {step!r}: a power of a {ka}")
        if op == "sqrt":
            self._need(step, ka, "S")
            return alg.sqrt(a)
        if op == "sum":
            self._need(step, ka, "V")
            return alg.vec_sum(a)
        if op == "transpose":
            self._need(step, ka, "M")
            return alg.transpose(a)
        if op == "grad":
            self._need(step, ka, "S")
            x = step[2]
            typ = self.inputs[self.input_of[x]][0] if x in self.input_of else None
            if typ == "scalar":  # ∂f/∂c, a scalar
                return alg.derivative(a, alg.atom(("in", self.input_of[x])))
            if typ != "vector":
                raise ValueError(f"step {step!r}: grad is with respect to an input vector or scalar")
            return alg.grad(a, alg.gen(("in", self.input_of[x])))
        b = self._arg(step, 2)
        return self._binary(step, op, a, b, ka, kind(b))

    @staticmethod
    def _need(step, got, want):
        if got != want:
            raise ValueError(f"step {step!r}: expects a {want}, got a {got}")

    def _binary(self, step, op, a, b, ka, kb):
        alg = self.alg
        pair = ka + kb
        if op in ("add", "sub"):
            sign = 1 if op == "add" else -1
            if pair == "SS":
                return alg.add(a, b, sign)
            if pair == "VV":
                return alg.vec_add(a, b, sign)
            if pair == "MM":
                return alg.mat_add(a, b, sign)
            if pair in ("SV", "VS"):
                s, v = (a, b) if ka == "S" else (b, a)
                sv = alg.vec_scale(alg.ones(), s)
                return alg.vec_add(sv, v, sign) if ka == "S" else alg.vec_add(v, sv, sign)
            if pair in ("SM", "MS"):
                s, x = (a, b) if ka == "S" else (b, a)
                sm = alg.mat_all(s)
                return alg.mat_add(sm, x, sign) if ka == "S" else alg.mat_add(x, sm, sign)
        if op == "mul":
            if pair == "SS":
                return alg.mul(a, b)
            if pair in ("SV", "VS"):
                return alg.vec_scale(b, a) if ka == "S" else alg.vec_scale(a, b)
            if pair in ("SM", "MS"):
                return alg.mat_scale(b, a) if ka == "S" else alg.mat_scale(a, b)
            if pair == "VV":
                return alg.vec_mul(a, b)
        if op == "div" and kb == "S":
            inverse = alg.div(alg.const(1), b)
            if ka == "S":
                return alg.div(a, b)
            return alg.vec_scale(a, inverse) if ka == "V" else alg.mat_scale(a, inverse)
        if op == "outer" and pair == "VV":
            return Matrix(alg.const(0), alg.const(0), [(a, b)])
        if op == "matmul":
            if pair == "MM":
                return alg.mat_mat(a, b)
            if pair == "MV":
                return alg.mat_vec(a, b)
            if pair == "VM":
                return alg.mat_vec(alg.transpose(b), a)
            if pair == "VV":
                return alg.dot(a, b)
        raise ValueError(f"step {step!r}: {op} of a {ka} and a {kb}")
