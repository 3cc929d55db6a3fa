"""Signs a program step has by its form alone (the checker's manifest signs, written
again here for the search: the checker decides, this only proposes).

A step is positive (> 0), nonnegative (≥ 0) or nonzero wherever the program is
defined and its hypotheses hold: m, a constant > 0, an input declared positive and a
hypothesis are > 0; a square root and an even power are ≥ 0; a step the program
divides by (or raises to a negative power) is ≠ 0, so an even power of it is > 0, and
so is a step ≥ 0 by its form that the program divides by (Σg² in a denominator)."""

from __future__ import annotations

from fractions import Fraction


class Forms:
    def __init__(self, program: dict):
        steps = self._steps = program["steps"]
        kinds = _kinds(program)
        positive_inputs = {n for n, t, d in program["inputs"] if d == "positive"}
        hyps = set(program["hypotheses"])
        divisors = {s[2] if s[0] == "div" else s[1] for s in steps
                    if s[0] == "div" or s[0] == "pow" and s[2] < 0}
        self.signs: list[tuple] = []
        for k, step in enumerate(steps):
            pos, nonneg, nonzero = self._of(step, kinds[k], k in hyps, positive_inputs)
            nonzero = nonzero or pos or k in divisors
            self.signs.append((pos or nonneg and nonzero, nonneg, nonzero))

    def positive(self, k: int) -> bool:
        return self.signs[k][0]

    def nonnegative(self, k: int) -> bool:
        return self.signs[k][1]

    def nonzero(self, k: int) -> bool:
        return self.signs[k][2]

    def _of(self, step: list, kind: str, hypothesis: bool, positive_inputs: set) -> tuple:
        op = step[0]
        if kind == "V":  # the sign of every entry (the checker's Manifest.of)
            if op == "input":
                return (True, True, True) if step[1] in positive_inputs else (False, False, False)
            if op == "ones":
                return True, True, True
            if op not in ("pow", "mul", "div", "add"):
                return False, False, False
        elif kind != "S":
            return False, False, False
        if hypothesis or op == "m" or op == "input" and step[1] in positive_inputs:
            return True, True, True
        if op == "const":
            c = Fraction(step[1])
            return c > 0, c >= 0, c != 0
        if op in ("input", "sum"):
            if op == "sum":  # of m ≥ 1 entries: positive if each entry is
                inner = self._step_of(step[1])
                square = inner[0] == "pow" and inner[2] % 2 == 0 or inner[0] == "mul" and inner[1] == inner[2]
                a = self.signs[step[1]]
                return a[0], a[1] or square, a[0]
            return False, False, False
        a = self.signs[step[1]]
        if op == "sqrt":
            return a[0], True, a[0]
        if op == "neg":
            return False, False, a[2]
        if op == "pow":
            even = step[2] % 2 == 0
            return a[0] or even and a[2], a[1] or even, a[2]
        b = self.signs[step[2]] if len(step) > 2 and isinstance(step[2], int) else (False, False, False)
        if op in ("mul", "div"):
            pos = a[0] and b[0]
            nonneg = pos or a[1] and (b[1] if op == "mul" else b[0])
            return pos, nonneg, a[2] and b[2]
        if op == "add":
            return a[0] and b[1] or a[1] and b[0], a[1] and b[1], False
        return False, False, False

    def _step_of(self, k: int) -> list:
        return self._steps[k]


def _kinds(program: dict) -> list[str]:
    """S, V or M for every step (the tracer's types, read again from the ops)."""
    inputs = {n: t for n, t, _ in program["inputs"]}
    out: list[str] = []
    for step in program["steps"]:
        op = step[0]
        if op == "input":
            out.append({"scalar": "S", "vector": "V", "matrix": "M"}[inputs[step[1]]])
        elif op in ("m", "const", "sum", "sqrt"):
            out.append("S")
        elif op == "ones":
            out.append("V")
        elif op in ("eye", "outer"):
            out.append("M")
        elif op in ("neg", "pow", "transpose"):
            out.append(out[step[1]])
        elif op == "grad":  # the variable's type: a gradient in a vector, a derivative in a scalar
            out.append(out[step[2]])
        elif op == "matmul":
            pair = out[step[1]] + out[step[2]]
            out.append({"MM": "M", "MV": "V", "VM": "V", "VV": "S"}[pair])
        else:  # add, sub, mul, div: the wider of the two
            a, b = out[step[1]], out[step[2]]
            out.append("M" if "M" in (a, b) else "V" if "V" in (a, b) else "S")
    return out
