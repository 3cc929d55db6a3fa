"""Inequalities for every m and every d by structural squares (proof method "every-d"
with "squares"; docs/claims.md, "Every d").

A claim R >= 0 is proved when R - sum_k c_k S_k has normal form 0 in the every-d tensor
algebra (every_d.py), where S_k = sum over all axes of T_k * T_k (the checker forms the
square itself from the tensor step T_k, so a term is a square by construction) and each
c_k is a scalar whose normal form is manifestly >= 0: every monomial of its numerator has
a positive coefficient and every atom in it an even exponent, or is m, d or a scalar input
declared positive; a denominator factor of odd exponent obeys the same rule.  Then
R = sum c_k S_k >= 0 wherever every step is defined.

The certificate's "proof" is {"method": "every-d", "squares": {"steps", "terms"}}: steps
continue the program's step list (same format, indices after the program's), terms a
list of [c, t], c the index of a scalar step and t of any step.  The extra steps must add
no condition of their own to "every step defined" (else a forged T = sqrt(R) would
"prove" R >= 0 by assuming it): no sqrt, no negative power, a division only by m, d or a
nonzero constant.  Program steps they read are defined by the proof's assumption."""

from .parse import Rejected, array, keys

MAX_SQUARES, MAX_EXTRA_STEPS = 16, 256


def check_squares(squares, program: dict, inputs: list, ops: list, ev, read_steps) -> int:
    """Rejected unless residual = sum c_k S_k with each c_k manifestly >= 0; returns the
    number of terms.  ev has run the program's ops; read_steps is every_d.py's reader
    (passed in: every_d.py imports this module)."""
    keys(squares, "proof.squares", {"steps", "terms"})
    extra = array(squares["steps"], "proof.squares.steps", MAX_EXTRA_STEPS)
    every = read_steps(program["steps"] + extra, inputs)
    n0 = len(ops)
    for i in range(n0, len(every)):
        op, args, literal, _ = every[i]
        at = f"proof.squares.steps[{i - n0}]"
        if op == "sqrt" or op == "pow" and literal[0] < 0:
            raise Rejected(f"{at}: {op} could be undefined (a square step adds no condition)")
        if op == "div":
            d_op, _, d_lit, _ = every[args[1]]
            if not (d_op in ("m", "d") or d_op == "const" and d_lit != 0):
                raise Rejected(f"{at}: a division by a value other than m, d or a nonzero constant")
    ev.run(every)  # the extra steps, after the program's
    terms = array(squares["terms"], "proof.squares.terms", MAX_SQUARES)
    if not terms:
        raise Rejected("proof.squares.terms: no square")
    alg, t = ev.alg, ev.t
    positive = {n for n, k, d in inputs if k == "scalar" and d == "positive"}
    rest = t.value(ev.values[program["residual"]])
    for k, term in enumerate(terms):
        where = f"proof.squares.terms[{k}]"
        if type(term) is not list or len(term) != 2 or not all(type(j) is int for j in term) \
                or not all(0 <= j < len(every) for j in term) or every[term[0]][3]:
            raise Rejected(f"{where}: expected [scalar step, step]")
        c = t.value(ev.values[term[0]])
        if not nonnegative(c, positive):
            raise Rejected(f"{where}: the coefficient is not manifestly >= 0")
        axes = every[term[1]][3]
        square = t.mul(ev.values[term[1]], ev.values[term[1]])
        for q in range(len(axes)):
            square = t.sum(square, axes[q:], 0)
        rest = alg.add(rest, alg.mul(c, t.value(square)), -1)
    if not alg.is_zero(rest):
        raise Rejected("proof: the residual minus the sum of the squares does not have normal form 0")
    return len(terms)


def _nonnegative(poly: dict, positive: set) -> bool:
    for mono, x in poly.items():
        if x < 0:
            return False
        for atom, e in mono:
            if e % 2 and not (atom in (("m",), ("d",)) or atom[0] == "s" and atom[1] in positive):
                return False
    return True


def nonnegative(value: tuple, positive: set) -> bool:
    """A scalar's normal form N/D manifestly >= 0 (a divisor is nonzero where defined)."""
    num, den = value
    return _nonnegative(num, positive) and all(
        not e % 2 or _nonnegative(dict(factor), positive) for factor, e in den.items())
