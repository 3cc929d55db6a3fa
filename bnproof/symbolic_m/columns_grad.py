"""Reverse-mode derivatives of an every-d program's steps (columns.py: xp.grad), written
as ordinary steps of the same program.

Nothing here is trusted: the checker replays the steps written, whatever rule wrote
them, and before a proof is reported the second reading compares the program with the
claim's own code, whose xp.grad it differentiates itself, at several (m, d).  A wrong
rule here is therefore a disagreement (exit 7), never a proof.
"""

from __future__ import annotations

from .column_steps import OPERANDS
from .fragment import outside


def _operands(step: list) -> list:
    return step[1:1 + OPERANDS.get(step[0], 0)]


class _Writer:
    def __init__(self, rec):
        self.rec = rec

    def e(self, step: list) -> int:
        return self.rec.emit(step)

    def axes(self, i: int) -> tuple:
        return self.rec.axes[i]

    def const(self, q) -> int:
        return self.e(["const", str(q)])

    def sum_all(self, g: int) -> int:
        while self.axes(g):
            g = self.e(["sum", g, len(self.axes(g)) - 1])
        return g

    def unbroadcast(self, g: int, target: tuple) -> int:
        """g summed to the axes of an operand that was broadcast (a scalar, or itself)."""
        if self.axes(g) == target:
            return g
        if target:
            outside("a derivative through a broadcast the every-d program does not write", self.rec)
        return self.sum_all(g)

    def place(self, x: int, joint: tuple, positions: list) -> int:
        """x broadcast to `joint`, its axis k at positions[k] (transposed first where the
        positions are not in order)."""
        if any(p >= q for p, q in zip(positions, positions[1:])):
            x, positions = self.e(["transpose", x]), positions[::-1]
        return self.e(["expand", x, list(joint), positions])

    def sum_over(self, g: int, positions) -> int:
        for p in sorted(positions, reverse=True):
            g = self.e(["sum", g, p])
        return g

    def in_order(self, g: int, rank: int, contracted: int) -> int:
        """g, whose axes are an operand's with its contracted axis moved last, in the
        operand's order (by position: a square (d, d) operand has equal axes either way)."""
        return self.e(["transpose", g]) if rank == 2 and contracted == 0 else g


def gradient(rec, out: int, var: int) -> int:
    """The step of ∂out/∂var (var's axes), out a scalar step."""
    w = _Writer(rec)
    steps = rec.steps
    depends = {var: True}
    for i in range(var + 1, out + 1):
        depends[i] = any(depends.get(j, False) for j in _operands(steps[i]))
    adjoint = {out: w.const(1)}
    for i in range(out, var, -1):
        if i not in adjoint or not depends.get(i):
            continue
        for j, contribution in _rules(w, i, steps[i], adjoint[i], depends):
            adjoint[j] = contribution if j not in adjoint else w.e(["add", adjoint[j], contribution])
    if var in adjoint:
        return adjoint[var]
    zero = w.const(0)
    return zero if not rec.axes[var] else w.e(["expand", zero, list(rec.axes[var]), []])


def _rules(w: _Writer, i: int, step: list, g: int, depends: dict):
    """(operand, its contribution to the adjoint) for each operand that depends on the
    variable; a generator, so only those contributions are written."""
    op = step[0]
    want = [j for j in _operands(step) if depends.get(j)]
    if op == "add":
        for j in want:
            yield j, w.unbroadcast(g, w.axes(j))
    elif op == "sub":
        a, b = step[1:3]
        if a in want:
            yield a, w.unbroadcast(g, w.axes(a))
        if b in want:
            yield b, w.unbroadcast(w.e(["neg", g]), w.axes(b))
    elif op == "mul":
        a, b = step[1:3]
        if a in want:
            yield a, w.unbroadcast(w.e(["mul", g, b]), w.axes(a))
        if b in want:
            yield b, w.unbroadcast(w.e(["mul", g, a]), w.axes(b))
    elif op == "div":
        a, s = step[1:3]
        if a in want:
            yield a, w.e(["div", g, s])
        if s in want:
            t = w.sum_all(w.e(["mul", g, a]))
            yield s, w.e(["neg", w.e(["div", t, w.e(["pow", s, 2])])])
    elif op == "neg":
        yield step[1], w.e(["neg", g])
    elif op == "pow":
        a, k = step[1], step[2]
        if k:
            slope = w.const(k) if k == 1 else w.e(["mul", w.const(k), w.e(["pow", a, k - 1])])
            yield a, w.e(["mul", g, slope])
    elif op == "sqrt":
        yield step[1], w.e(["div", g, w.e(["mul", w.const(2), i])])
    elif op == "sum":
        a, p = step[1], step[2]
        axes = w.axes(a)
        yield a, w.e(["expand", g, list(axes), [q for q in range(len(axes)) if q != p]])
    elif op == "expand":
        a, target, positions = step[1], step[2], step[3]
        yield a, w.sum_over(g, set(range(len(target))) - set(positions))
    elif op == "transpose":
        yield step[1], w.e(["transpose", g])
    elif op == "dot":
        a, b, ia, ib = step[1:5]
        aa, ab = w.axes(a), w.axes(b)
        ra, rb = aa[:ia] + aa[ia + 1:], ab[:ib] + ab[ib + 1:]
        joint = (*ra, *rb, aa[ia])
        last = len(joint) - 1
        big = w.place(g, joint, list(range(len(ra) + len(rb))))
        if a in want:  # Σ over b's other axes of g · b, the contracted axis last, then in a's order
            pb = [len(ra) + (q if q < ib else q - 1) if q != ib else last for q in range(len(ab))]
            t = w.sum_over(w.e(["mul", big, w.place(b, joint, pb)]), range(len(ra), len(ra) + len(rb)))
            yield a, w.in_order(t, len(aa), ia)
        if b in want:
            pa = [(q if q < ia else q - 1) if q != ia else last for q in range(len(aa))]
            t = w.sum_over(w.e(["mul", big, w.place(a, joint, pa)]), range(len(ra)))
            yield b, w.in_order(t, len(ab), ib)
    elif op not in ("input", "const", "m", "d", "eye"):
        outside(f"a derivative of the step {op}", w.rec)


def substitute(rec, i: int, probe: int, x: int) -> int:
    """Step i written again with the placeholder `probe` replaced by the step x."""
    memo = {probe: x}

    def again(j: int) -> int:
        if j in memo:
            return memo[j]
        if j < probe:  # emitted before the placeholder: it cannot read it
            memo[j] = j
            return j
        step = rec.steps[j]
        n = OPERANDS.get(step[0], 0)
        operands = [again(k) for k in step[1:1 + n]]
        memo[j] = j if operands == step[1:1 + n] else rec.emit([step[0], *operands, *step[1 + n:]])
        return memo[j]

    return again(i)
