"""Every-d inequalities R >= 0 by structural squares: R = c · S, S the full sum of T∘T
for a tensor T the program itself suggests (checker/every_d_squares.py has the
certificate and why it is sound).

Candidates T, in order: every value the program squares (mul(t, t), pow(t, 2),
dot(t, t) over one axis), A·v for a Gram matrix AᵀA the program forms and each vector v
of the right length (wᵀAᵀAw = ‖Aw‖²), then every other vector or matrix step, then
every other scalar step (T² for a scalar T).
Coefficients: a positive rational times one monomial μ (1, 1/m, 1/d, m, d, times s²
for a scalar input s or s for one declared positive).  First one term R = a·μ·S over
MAX_CANDIDATES tensors, then two, R = a·μ·S + b·ν·S' over the first
MAX_PAIR_CANDIDATES (exact 2×2 linear algebra over the monomials of the normal forms,
all cleared to one least common denominator); past either bound, "not proved" names
it.  Every match is exact, over the checker's own normal forms, and the checker then
verifies the certificate anyway."""

from __future__ import annotations

from fractions import Fraction

MAX_CANDIDATES = 48
MAX_PAIR_CANDIDATES = 12  # sums of two squares: pairs of (candidate, monomial) among these
SIZE_FACTORS = ((), (("m", -1),), (("d", -1),), (("m", 1),), (("d", 1),))


def _candidates(steps: list, axes: list) -> list:
    """Each a step index, or ("dot", A, v): the new step A·v for a Gram matrix AᵀA."""
    out: list = []

    def add(c):
        if c not in out:
            out.append(c)

    for i, s in enumerate(steps):
        op = s[0]
        if op == "mul" and s[1] == s[2] or op == "pow" and s[2] == 2 or op == "dot" and s[1] == s[2] and s[3] == s[4]:
            add(s[1])
    for i, s in enumerate(steps):  # Gram matrices AᵀA: dot(transpose(A), A, 1, 0)
        if s[0] == "dot" and s[3] == 1 and s[4] == 0 and steps[s[1]] == ["transpose", s[2]]:
            a = s[2]
            for v, ax in enumerate(axes):
                if ax == (axes[a][1],):
                    add(("dot", a, v))
    for i, ax in enumerate(axes):  # tensors first: a scalar is a square of one term
        if ax:
            add(i)
    for i, ax in enumerate(axes):
        if not ax and steps[i][0] not in ("const", "m", "d"):
            add(i)
    return out


def _monomials(inputs: list) -> list:
    scalars = [(n, d) for n, k, d in inputs if k == "scalar"]
    extra = [()] + [((("s", n), 2),) for n, _ in scalars] + [((("s", n), 1),) for n, d in scalars if d == "positive"]
    return [size + e for size in SIZE_FACTORS for e in extra]


def _cleared(alg, x, lcm):
    num, den = x
    return alg.pmul(num, alg.expand({f: e - den.get(f, 0) for f, e in lcm.items()}))


def _ratio(alg, r, y):
    """a with r = a·y exactly, else None."""
    lcm = {f: max(r[1].get(f, 0), y[1].get(f, 0)) for f in {*r[1], *y[1]}}
    p, q = _cleared(alg, r, lcm), _cleared(alg, y, lcm)
    if not q or len(p) != len(q):
        return None
    mono = next(iter(q))
    if mono not in p:
        return None
    a = p[mono] / q[mono]
    return a if all(p.get(k) == a * x for k, x in q.items()) else None


def _square(run, every, index):
    """Σ over all axes of T∘T, T the value of step index."""
    value = run.values[index]
    square, shape = run.t.mul(value, value), every[index][3]
    for q in range(len(shape)):
        square = run.t.sum(square, shape[q:], 0)
    return run.t.value(square)


def _mu(alg, mono):
    mu = alg.const(1)
    for atom, e in mono:
        mu = alg.mul(mu, alg.power(alg.atom((atom,) if atom in ("m", "d") else atom), e, "μ"))
    return mu


def search(program: dict, ops: list):
    """(proof.squares, None) if R = a·μ·S for a > 0 and one candidate, or a sum of two such
    terms among the first MAX_PAIR_CANDIDATES candidates, else (None, why)."""
    from ..checker.every_d import Evaluator, read_steps
    from ..checker.every_d_squares import nonnegative
    from ..checker.parse import Rejected

    steps, axes = program["steps"], [o[3] for o in ops]
    tensors = _candidates(steps, axes)
    if len(tensors) > MAX_CANDIDATES:
        tensors = tensors[:MAX_CANDIDATES]
        bound = f" (searched the first {MAX_CANDIDATES} candidate squares only)"
    else:
        bound = ""
    inputs = [tuple(i) for i in program["inputs"]]
    positive = {n for n, k, d in inputs if k == "scalar" and d == "positive"}
    monomials = _monomials(inputs)
    for cand in tensors:
        extra = [] if type(cand) is int else [["dot", cand[1], cand[2], 1, 0]]
        try:
            every = read_steps(steps + extra, inputs)
            run = Evaluator(inputs)  # a fresh algebra: one candidate's work never spends another's
            run.alg.limit *= 4
            run.run(every)
            t_index = len(every) - 1 if extra else cand
            s = _square(run, every, t_index)
            if run.alg.is_zero(s):
                continue
            rr = run.t.value(run.values[program["residual"]])
            for mono in monomials:
                mu = _mu(run.alg, mono)
                a = _ratio(run.alg, rr, run.alg.mul(mu, s))
                if a is not None and a > 0 and nonnegative(run.alg.mul(run.alg.const(a), mu), positive):
                    return _certificate(len(steps), extra, [(t_index, a, mono)]), None
        except Rejected:
            continue
    try:
        found = _pairs(program, tensors[:MAX_PAIR_CANDIDATES], monomials, inputs, positive)
    except Rejected:
        found = None
    if found is not None:
        return found, None
    return None, (f"not proved for every d: no square of the {len(tensors)} candidates times a "
                  f"nonnegative monomial ({len(monomials)} tried), nor a sum of two among the first "
                  f"{MAX_PAIR_CANDIDATES}, equals the residual{bound}")


def _pairs(program, tensors, monomials, inputs, positive):
    """R = a·μ·S + b·ν·S' with a, b > 0, over one algebra (its roots numbered once)."""
    from ..checker.every_d import Evaluator, read_steps
    from ..checker.every_d_squares import nonnegative

    steps = program["steps"]
    extra = [["dot", c[1], c[2], 1, 0] for c in tensors if type(c) is not int]
    every = read_steps(steps + extra, inputs)
    run = Evaluator(inputs)
    run.alg.limit *= 16
    run.run(every)
    alg, where, k = run.alg, [], len(steps)
    for c in tensors:
        where.append(c if type(c) is int else k)
        k += type(c) is not int
    columns = []
    for index in where:
        s = _square(run, every, index)
        if not alg.is_zero(s):
            columns += [(index, mono, alg.mul(_mu(alg, mono), s)) for mono in monomials]
    r = run.t.value(run.values[program["residual"]])
    lcm: dict = dict(r[1])
    for _, _, y in columns:
        for f, e in y[1].items():
            lcm[f] = max(lcm.get(f, 0), e)
    p = _cleared(alg, r, lcm)
    qs = [_cleared(alg, y, lcm) for _, _, y in columns]
    need = set(p)
    for i in range(len(columns)):
        for j in range(i + 1, len(columns)):
            if not need <= set(qs[i]) | set(qs[j]):
                continue
            ab = _solve2(qs[i], qs[j], p)
            if ab is None or min(ab) <= 0:
                continue
            terms = [(columns[i][0], ab[0], columns[i][1]), (columns[j][0], ab[1], columns[j][1])]
            if all(nonnegative(alg.mul(alg.const(a), _mu(alg, mono)), positive) for _, a, mono in terms):
                return _certificate(len(steps), extra, terms)
    return None


def _solve2(q1: dict, q2: dict, p: dict):
    """(a, b) with a·q1 + b·q2 = p exactly, when q1 and q2 are independent; else None."""
    rows = [(q1.get(u, 0), q2.get(u, 0), p.get(u, 0)) for u in {*q1, *q2, *p}]
    first = next((row for row in rows if row[0] or row[1]), None)
    if first is None:
        return None
    for row in rows:
        det = first[0] * row[1] - first[1] * row[0]
        if det:
            a = (first[2] * row[1] - first[1] * row[2]) / det
            b = (first[0] * row[2] - first[2] * row[0]) / det
            return (a, b) if all(a * x + b * y == z for x, y, z in rows) else None
    return None


def _certificate(n0: int, extra: list, terms: list) -> dict:
    """proof.squares: the extra steps, then each term's coefficient a·μ as steps."""
    steps = list(extra)

    def emit(step):
        steps.append(step)
        return n0 + len(steps) - 1

    out = []
    for t_index, a, mono in terms:
        c = emit(["const", str(a)])
        for atom, e in mono:
            if atom in ("m", "d"):
                x = emit([atom])
                c = emit(["div", c, x] if e < 0 else ["mul", c, x])
            else:
                x = emit(["input", atom[1]])
                c = emit(["mul", c, emit(["pow", x, e]) if e != 1 else x])
        out.append([c, t_index])
    return {"steps": steps, "terms": out}
