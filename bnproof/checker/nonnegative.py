"""The proof method "nonnegative": residual × denominator = a sum of terms with
positive coefficients whose factors are manifestly >= 0 (Manifest: signs a step
has by its form alone).  Below proof.py, which dispatches a proof to it, and sos.py,
whose cases it proves."""

from __future__ import annotations

from .parse import Rejected, array, keys, rational
from .symbolic_program import Evaluator, read_steps

MAX_TERMS, MAX_FACTORS = 2000, 64


class Manifest:
    """Signs that a step has by its form alone, wherever it is defined: positive (> 0),
    nonnegative (>= 0) or nonzero.  Hypothesis steps are > 0 by assumption, and a step
    the program divides by (or raises to a negative power) is nonzero wherever the
    program is defined: so an even power of it is > 0, and so is a step >= 0 by its form
    that the program divides by (a sum of squares in a denominator)."""

    def __init__(self, steps: list, types: list, hypotheses: set, positive_inputs: set,
                 divisors: frozenset = frozenset(), positive_vectors: frozenset = frozenset()):
        self.steps, self.types = steps, types
        self.hyps, self.inputs, self.divisors = hypotheses, positive_inputs, divisors
        self.vectors = positive_vectors
        self.memo = {}

    def positive(self, k: int) -> bool:
        return self.sign(k)[0]

    def nonnegative(self, k: int) -> bool:
        return self.sign(k)[1]

    def nonzero(self, k: int) -> bool:
        return self.sign(k)[2]

    def sign(self, k: int) -> tuple:
        if k not in self.memo:  # operands are earlier steps: fill the memo bottom-up
            for j in range(k + 1):
                if j not in self.memo:
                    pos, nonneg = self.of(j)
                    nonzero = pos or j in self.divisors or self.nonzero_of(j)
                    if nonneg and nonzero:
                        pos = True
                    self.memo[j] = pos, nonneg, nonzero
        return self.memo[k]

    def nonzero_of(self, k: int) -> bool:
        op, args, n = self.steps[k]
        if self.types[k] != "S":
            return False
        if op == "const":
            return n != 0
        if op in ("neg", "pow"):
            return self.memo[args[0]][2]
        if op in ("mul", "div"):
            return self.memo[args[0]][2] and self.memo[args[1]][2]
        return False

    def of(self, k: int) -> tuple:
        """(> 0, >= 0) by form.  For a vector step, the sign of every entry: an input declared
        positive, ones, and +, ×, ÷, powers of such (a scalar operand by its own sign); a
        vector is never in hyps or divisors, so its entries are nonzero only where > 0, and
        the scalar rules below give no more than that."""
        op, args, n = self.steps[k]
        t = self.types[k]
        if t not in ("S", "V"):
            return False, False
        if t == "S" and k in self.hyps or op in ("m", "ones") or op == "const" and n > 0 \
                or op == "input" and n in (self.inputs if t == "S" else self.vectors):
            return True, True
        s = [self.memo[j] for j in args]
        if op == "const":
            return False, n == 0
        if op == "sqrt":
            return s[0][0], True
        if op == "pow":
            return s[0][0] or n % 2 == 0 and s[0][2], s[0][1] or n % 2 == 0
        if op in ("mul", "div"):
            pos = s[0][0] and s[1][0]
            return pos, pos or s[0][1] and (s[1][1] if op == "mul" else s[1][0])
        if op == "add":
            return (s[0][0] and s[1][1] or s[0][1] and s[1][0]), s[0][1] and s[1][1]
        if op == "sum":  # of m >= 1 entries: positive if each entry is
            p = self.steps[args[0]]
            return s[0][0], s[0][1] or (p[0] == "pow" and p[2] % 2 == 0 or
                                        p[0] == "mul" and p[1][0] == p[1][1])
        return False, False


def divisors(ops: list) -> frozenset:
    """The program's steps it divides by or raises to a negative power: each is nonzero
    wherever every step of the program is defined."""
    return frozenset(args[1] if op == "div" else args[0] for op, args, n in ops
                     if op == "div" or op == "pow" and n < 0)


def check_defined(ops: list, manifest: Manifest, start: int) -> None:
    """Proof steps must be defined wherever the program is: a divisor and a negative
    power's base manifestly > 0, a radicand manifestly >= 0."""
    for i, (op, args, n) in enumerate(ops):
        k = start + i
        if op == "div" and not manifest.positive(args[1]) or \
                op == "pow" and n < 0 and not manifest.positive(args[0]):
            raise Rejected(f"proof step {k}: divides by step {args[-1] if op == 'div' else args[0]}, "
                           "which is not manifestly > 0")
        if op == "sqrt" and not manifest.nonnegative(args[0]):
            raise Rejected(f"proof step {k}: the square root of step {args[0]}, which is not "
                           "manifestly >= 0")


def index(value, where: str, count: int, types: list, want: str = "S") -> int:
    if type(value) is not int or not 0 <= value < count:
        raise Rejected(f"{where}: not the index of one of the {count} steps")
    if types[value] != want:
        raise Rejected(f"{where}: step {value} is not a scalar")
    return value


def check_nonnegative(ev: Evaluator, proof: dict, ops: list, types: list, residual: int,
                      hyps: set, positive_inputs: set, strict: bool,
                      positive_vectors: frozenset = frozenset()) -> str:
    proof = keys(proof, "proof", {"method", "steps", "terms", "denominator"})
    start = len(ops)
    extra = read_steps(proof["steps"], [], types, "proof.steps", proof=True)
    manifest = Manifest(ops + extra, types, hyps, positive_inputs, divisors(ops), positive_vectors)
    check_defined(extra, manifest, start)
    ev.run(extra, types)
    count, alg = len(types), ev.alg
    lhs = ev.values[residual]
    for i, d in enumerate(array(proof["denominator"], "proof.denominator", MAX_FACTORS)):
        d = index(d, f"proof.denominator[{i}]", count, types)
        if not manifest.positive(d):
            raise Rejected(f"proof.denominator[{i}]: step {d} is not manifestly > 0")
        lhs = alg.mul(lhs, ev.values[d])
    rhs, strict_term = alg.const(0), False
    for i, term in enumerate(array(proof["terms"], "proof.terms", MAX_TERMS)):
        term = keys(term, f"proof.terms[{i}]", {"coefficient", "factors"})
        c = rational(term["coefficient"], f"proof.terms[{i}].coefficient")
        if c <= 0:
            raise Rejected(f"proof.terms[{i}]: the coefficient is not > 0")
        value, positive = alg.const(c), True
        for j, f in enumerate(array(term["factors"], f"proof.terms[{i}].factors", MAX_FACTORS)):
            f = index(f, f"proof.terms[{i}].factors[{j}]", count, types)
            if not manifest.nonnegative(f):
                raise Rejected(f"proof.terms[{i}].factors[{j}]: step {f} is not manifestly >= 0")
            positive = positive and manifest.positive(f)
            value = alg.mul(value, ev.values[f])
        strict_term = strict_term or positive
        rhs = alg.add(rhs, value)
    if strict and not strict_term:
        raise Rejected("proof: a strict claim needs a term whose factors are all manifestly > 0")
    if not alg.is_zero(alg.add(lhs, rhs, -1)):
        raise Rejected("proof: residual * denominator minus the sum of the terms does not reduce to 0")
    return "> 0" if strict else ">= 0"
