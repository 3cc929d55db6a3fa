"""A sum-of-squares search for an inequality's residual (docs/claims.md, "Proofs for every
m", sums of squares): R·D = Σ c·μ·L² with D > 0 by form, c > 0, μ a product of atoms ≥ 0
and L polynomials in atoms and in sums of squares Σ_i q(i)² of per-entry expressions.

Gram–Schmidt over the batch vectors: the basis v_1, …, v_n is the ones vector (when a
sum Σx of degree 1 occurs) and the input vectors whose batch sums of degree ≤ 2 make
up the residual.  With q_1 = v_1, q_k = v_k − Σ_{t<k} ℓ_kt q_t, ℓ_kt = ⟨v_k, q_t⟩/d_t and
d_t = ‖q_t‖² (d = m for the ones vector), every sum is ⟨v_j, v_k⟩ = Σ_t ℓ_jt ℓ_kt d_t, a
polynomial; Cauchy–Schwarz becomes d_1·d_2.  The substituted numerator (or the numerator
as it is) is accepted when it is manifest (every coefficient > 0, every variable of odd
degree ≥ 0) or when an exact LDLᵀ of its Gram matrix over half-degree monomials has no
negative pivot, for the whole numerator or per group of terms with the same odd powers
of variables ≥ 0.  A d_t the proof divides by may be 0 (b = 0, a constant batch): the
certificate (method "sos") then has a case for it, v_t replaced by a combination of the
earlier vectors, in which the checker finds the residual 0, the program undefined, or a
"nonnegative" proof of the case's own (checker/sos.py).  A numerator ρ·A + B with ρ a
product of roots is multiplied by 2ρA first (_Root).  Nothing here is trusted:
proof_steps.replays and the checker redo it all.

Bounded: at most MAX_VECTORS basis vectors (their orders all tried), a Gram matrix of
at most MAX_GRAM monomials, and MAX_WORK term products in all; past a bound the search
raises TooLarge, and the claim is "not proved" with that reason.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from . import poly as P
from . import squares as SQ
from .algebra import TooLarge, Vector
from .evaluate import Replay
from .forms import Forms
from .proof_steps import Steps, replays, replays_in

# basis vectors, the ones vector included: a proof in four (Gram's determinant of four
# vectors, wᵀSw at d = 3) is found, but its ℓ's nest so deep that writing it out and
# replaying it took minutes
MAX_VECTORS = 3
MAX_GRAM = 24  # half-degree monomials in one Gram matrix
MAX_WORK = 400_000  # term products, all strategies together
# A decomposition found is written out as proof steps and replayed twice (proof_steps.replays,
# the checker), which costs far more than the search: so the numerator searched is small,
# and only a few decompositions are written out.
MAX_NUMERATOR = 60  # terms
MAX_EMITTED = 8  # decompositions written out and replayed, the cases' included
MAX_DEPTH = 3  # cases of cases, as deep as the checker takes them (checker/sos.py)
ONES = "1"


class GramTooLarge(TooLarge):
    """One Gram matrix past MAX_GRAM: the next reading (another basis order) may fit."""


class Budget:
    """Work units: one per product of two terms, one per Gram entry updated; and the
    decompositions written out (at most MAX_EMITTED)."""

    def __init__(self, limit: int = MAX_WORK):
        self.used, self.limit, self.emitted = 0, limit, 0

    def emit(self) -> None:
        self.emitted += 1
        if self.emitted > MAX_EMITTED:
            raise TooLarge(f"the sum-of-squares search wrote out {MAX_EMITTED} decompositions "
                           "that its replay did not confirm")

    def charge(self, units: int) -> None:
        self.used += units
        if self.used > self.limit:
            raise TooLarge(f"the sum-of-squares search needs more than {self.limit} work units")


LAST = {"work": 0}  # the work of the latest search (tests read it)


def sos_proof(replay, program: dict, strict: bool, budget: Budget | None = None) -> dict | None:
    """The "nonnegative" or "sos" proof object, or None; TooLarge past a bound."""
    if strict:  # a sum of squares is ≥ 0 only
        return None
    budget = budget or Budget()
    LAST["work"] = 0
    try:
        return _search(replay, program, budget, ())
    finally:
        LAST["work"] = budget.used


def _search(replay, program, budget: Budget, nested, original=None):
    """nested: the substitutions ((input, span), …) of the case of the program `original`
    that replay is (_CaseReplay: `program` is then original with the case's scalars λ
    appended as inputs and steps), whose proof may have cases of its own up to MAX_DEPTH;
    () for the program itself."""
    forms = Forms(program)
    got = SQ.cleared(replay, program, forms)
    if got is None:
        return None
    fl, N, D, chosen = got
    if len(N) > MAX_NUMERATOR:
        raise TooLarge(f"the sum-of-squares search takes numerators of at most {MAX_NUMERATOR} "
                       f"terms, this one has {len(N)}")
    alg = replay.alg
    numerator = fl.back(N)
    ((dexps, dcoef),) = D.to_dict().items()
    kappa = Fraction(int(dcoef.p), int(dcoef.q))
    denominator_atoms = [(fl.atoms[i], e) for i, e in enumerate(dexps) if e]
    emit = _Emitter(replay, program, forms, chosen, denominator_atoms, kappa, nested, budget)
    emit.original = original or program
    bound: list = []  # a Gram matrix past MAX_GRAM in one reading need not be so in the next
    proof = _readings(alg, program, numerator, emit, budget, bound, None)
    if proof is None and not nested:
        root = _root_form(alg, numerator, emit)
        if root is not None:
            proof = _readings(alg, program, root.polynomial, emit, budget, bound, root)
    if proof is None and bound:
        raise TooLarge(bound[0])
    return proof


def _readings(alg, program, numerator, emit, budget, bound, root):
    """The numerator as it is, then in Gram–Schmidt coordinates in each order of the basis."""
    nonneg = {v for v in P.variables(numerator) if emit.nonnegative(v)}

    def attempt(p, order, names, more):
        try:
            found = _decomposed(p, nonneg | more, budget)
        except GramTooLarge as err:
            bound.append(str(err))
            return None
        return None if found is None else emit.proof(found, order, names, root)

    proof = attempt(numerator, [], {}, set())
    if proof is not None:
        return proof
    basis = _basis(alg, numerator, program)
    if basis is None:
        return None
    ones, vectors = basis
    if len(vectors) + ones > MAX_VECTORS:
        raise TooLarge(f"the sum-of-squares search's Gram basis has {len(vectors) + ones} vectors "
                       f"(at most {MAX_VECTORS}, the ones vector included)")
    for order in itertools.permutations(vectors):
        order = ([ONES] if ones else []) + list(order)
        gs = _GramSchmidt(alg, order)
        substituted = gs.substitute(numerator, budget)
        if substituted is not None:
            proof = attempt(substituted, order, gs.names, gs.nonnegative)
            if proof is not None:
                return proof
    return None


class _Root:
    """N = ρ·A + B with ρ a product of roots (ρ² = W_n/(c·M_d)), A > 0 by form: then
    2ρA·N·c·M_d = P + c·M_d·(ρA + B)² with P = W_n·A² − c·M_d·B², and N ≥ 0 where ρ > 0
    once P is a sum of squares (√m·‖z‖ − ⟨ŷ, z⟩: P is Cauchy–Schwarz's)."""

    def __init__(self, rho, a, b, polynomial, scale, md):
        self.rho, self.a, self.b = rho, a, b
        self.polynomial, self.scale, self.md = polynomial, scale, md


def _root_form(alg, numerator: dict, emit):
    roots = [v for v in P.variables(numerator) if v in alg.roots]
    if not roots:
        return None
    groups: dict = {}
    for exps, c in numerator.f.terms():
        mono = P.sparse(exps)
        rho = tuple((v, e) for v, e in mono if v in alg.roots)
        rest = tuple((v, e) for v, e in mono if v not in alg.roots)
        groups.setdefault(rho, {})[rest] = c
    if set(groups) - {()} == set() or len(groups) > 2 or any(e != 1 for r in groups for _, e in r):
        return None
    (rho,) = set(groups) - {()}
    a, b = P.poly(groups[rho]), P.poly(groups.get((), {}))
    if not P.is_monomial(a) or a.f.leading_coefficient() <= 0 or \
            any(not emit.positive(v) for v, _ in P.common_monomial(a)):
        return None
    wn, wd = P.const(1), P.const(1)
    for r, _ in rho:
        rn, rd = alg.roots[r]
        if any(v in alg.roots for v in P.variables(rn) | P.variables(rd)):
            return None  # a root inside a radicand: ρ² would not be free of roots
        wn, wd = P.mul(wn, rn), P.mul(wd, rd)
    if not P.is_monomial(wd):
        return None
    ((mdexps, scale),) = wd.f.terms()
    md, scale = P.sparse(mdexps), P.fraction(scale)
    if scale <= 0 or any(not emit.positive(v) for v, _ in md):
        return None
    polynomial = P.add(P.mul(wn, P.mul(a, a)), P.mul(wd, P.mul(b, b)), -1)
    return _Root(P.var(rho[0][0]) if len(rho) == 1 else P.monomial(rho), a, b, polynomial, scale, md)


# ---------------------------------------------------------------- the basis and coordinates

def _basis(alg, p: dict, program: dict):
    """(ones needed, vector inputs) when every batch sum in p is Σ of a product of at most
    two input vectors; None otherwise."""
    vector_inputs = {n for n, t, _ in program["inputs"] if t == "vector"}
    ones, names = False, set()
    for v in P.variables(p):
        desc = alg.atoms[v]
        if desc[0] != "S":
            continue
        degree = 0
        for g, e in desc[2]:
            gen = alg.gens[g]
            if gen[0] != "in" or gen[1] not in vector_inputs:
                return None
            names.add(gen[1])
            degree += e
        if degree > 2:
            return None
        ones = ones or degree == 1
    if not names:
        return None
    return ones, sorted(names)


class _GramSchmidt:
    """Fresh atoms d_t and ℓ_kt for one order of the basis, and each sum in them."""

    def __init__(self, alg, order: list):
        self.alg, self.order = alg, order
        self.index = {v: k for k, v in enumerate(order)}
        self.names: dict = {}  # fresh atom -> ("d", t) | ("l", k, t)
        self.d, self.l = {}, {}
        for t, v in enumerate(order):
            if v == ONES:
                self.d[t] = alg.m
            else:
                self.d[t] = self._fresh(("d", tuple(order), t))
            for s in range(t):
                self.l[(t, s)] = self._fresh(("l", tuple(order), t, s))
        self.nonnegative = {a for t, a in self.d.items()}

    def _fresh(self, desc):
        a = self.alg.atom(("sos",) + desc)
        self.names[a] = desc
        return a

    def coefficient(self, k: int, t: int) -> dict:
        return P.const(1) if k == t else P.var(self.l[(k, t)])

    def entry(self, j: int, k: int) -> dict:
        """⟨v_j, v_k⟩ = Σ_{t ≤ min(j, k)} ℓ_jt ℓ_kt d_t."""
        out: dict = {}
        for t in range(min(j, k) + 1):
            term = P.mul(P.mul(self.coefficient(j, t), self.coefficient(k, t)), P.var(self.d[t]))
            out = P.add(out, term)
        return out

    def substitute(self, p: dict, budget: Budget) -> dict | None:
        alg = self.alg
        subs = {}
        for v in P.variables(p):
            desc = alg.atoms[v]
            if desc[0] != "S":
                continue
            names = []
            for g, e in desc[2]:
                names += [alg.gens[g][1]] * e
            if len(names) == 1:
                names.append(ONES)
            if any(n not in self.index for n in names):
                return None
            subs[v] = self.entry(self.index[names[0]], self.index[names[1]])
        out: dict = {}
        powers: dict = {}
        for exps, c in p.f.terms():
            term = P.const(c)
            for v, e in P.sparse(exps):
                if v in subs:
                    if (v, e) not in powers:
                        powers[(v, e)] = _power(subs[v], e, budget)
                    factor = powers[(v, e)]
                else:
                    factor = {((v, e),): Fraction(1)}
                budget.charge(len(term) * len(factor))
                term = P.mul(term, factor)
            budget.charge(len(term))
            out = P.add(out, term)
        return out


def _power(p: dict, e: int, budget: Budget) -> dict:
    out = P.const(1)
    for _ in range(e):
        budget.charge(len(out) * len(p))
        out = P.mul(out, p)
    return out


# ---------------------------------------------------------------- the decomposition

def _decomposed(p: dict, nonneg: set, budget: Budget):
    """[(c, μ, L)] with p = Σ c·μ·L², c > 0, μ a monomial whose odd powers are of variables
    in nonneg; None if the manifest reading, one LDLᵀ of p over the monomial all its terms
    share, and an LDLᵀ for each product μ of nonnegative variables (the terms whose odd
    powers of them are μ: d_a(1 − ℓ)² + d_b) all fail."""
    if not p:
        return None
    terms = P.ordered(p)
    if all(c > 0 and all(e % 2 == 0 or v in nonneg for v, e in mono) for mono, c in terms):
        return [(c, mono, P.const(1)) for mono, c in terms]
    common = P.common_monomial(p)
    if not any(e % 2 and v not in nonneg for v, e in common):
        found = _ldl(P.divide_monomial(p, common), budget)
        if found is not None:
            return [(c, common, square) for c, square in found]
    groups: dict = {}
    for mono, c in terms:
        mu = tuple((v, 1) for v, e in mono if e % 2 and v in nonneg)
        groups.setdefault(mu, {})[P.mono_div(mono, mu)] = c
    if len(groups) < 2:
        return None
    out = []
    for mu, part in sorted(groups.items()):
        found = _ldl(P.poly(part), budget)
        if found is None:
            return None
        out += [(c, mu, square) for c, square in found]
    return out


def _ldl(p: dict, budget: Budget):
    """[(c, L)] with p = Σ c·L², from an exact LDLᵀ of one Gram matrix of p over the
    monomials whose squares are terms of p with a positive coefficient."""
    terms = P.ordered(p)
    half = sorted(tuple((v, e // 2) for v, e in mono) for mono, c in terms
                  if c > 0 and all(e % 2 == 0 for _, e in mono))
    if not half:
        return None
    if len(half) > MAX_GRAM:
        raise GramTooLarge(f"the sum-of-squares search's Gram matrix has {len(half)} monomials "
                       f"(at most {MAX_GRAM})")
    n = len(half)
    budget.charge(n * n)
    pairs: dict = {}
    for i in range(n):
        for j in range(i, n):
            pairs.setdefault(P.mono_mul(half[i], half[j]), []).append((i, j))
    Q = [[Fraction(0)] * n for _ in range(n)]
    for mono, c in terms:
        found = pairs.get(mono)
        if not found:
            return None
        diagonal = [(i, j) for i, j in found if i == j]
        if diagonal:  # a square's coefficient on its diagonal entry
            (i, _), = diagonal
            Q[i][i] += c
            continue
        share = c / (2 * len(found))
        for i, j in found:
            Q[i][j] += share
            Q[j][i] += share
    out = []
    left = list(range(n))
    while left:
        budget.charge(len(left) * len(left))
        k = next((i for i in left if Q[i][i] > 0), None)
        if k is None:
            if any(Q[i][j] for i in left for j in left):
                return None  # a zero or negative pivot with a nonzero row: not PSD this way
            break
        pivot = Q[k][k]
        row = {j: Q[k][j] / pivot for j in left if Q[k][j]}
        for i in left:
            factor = Q[i][k]
            if factor:
                for j in row:
                    Q[i][j] -= factor * row[j]
        left.remove(k)
        out.append((pivot, P.poly({half[j]: x for j, x in row.items()})))
        if any(Q[i][i] < 0 for i in left):
            return None
    return out


# ---------------------------------------------------------------- the certificate

class _Emitter:
    """Proof steps for the decomposition, from the program's own steps."""

    def __init__(self, replay, program, forms, chosen, denominator_atoms, kappa, nested, budget):
        self.nested, self.budget = nested, budget
        self.replay, self.program, self.forms = replay, program, forms
        self.chosen, self.denominator_atoms, self.kappa = chosen, denominator_atoms, kappa
        self._Steps = Steps

    def nonnegative(self, v: int) -> bool:
        steps = self._Steps(self.program)
        builder = SQ._Builder(self.replay.alg, self.replay.values, self.program, self.forms, steps)
        try:
            builder.nonnegative_atom(v)
            return True
        except SQ._Missing:
            return False

    def positive(self, v: int) -> bool:
        steps = self._Steps(self.program)
        builder = SQ._Builder(self.replay.alg, self.replay.values, self.program, self.forms, steps)
        try:
            builder.positive_atom(v, 1)
            return True
        except SQ._Missing:
            return False

    def proof(self, found: list, order: list, names: dict, root=None) -> dict | None:
        self.budget.emit()
        alg, values, program = self.replay.alg, self.replay.values, self.program
        steps = self._Steps(program)
        builder = SQ._Builder(alg, values, program, self.forms, steps)
        inputs = {s[1]: i for i, s in enumerate(program["steps"]) if s[0] == "input"}
        q, d, ell, pivots = {}, {}, {}, {}

        def q_step(t):
            if t not in q:
                v = order[t]
                if v == ONES:
                    q[t] = steps.get(["ones"])
                else:
                    cur = inputs[v]
                    for s in range(t):
                        cur = steps.get(["sub", cur, steps.get(["mul", l_step(t, s), q_step(s)])])
                    q[t] = cur
            return q[t]

        def d_step(t):
            if t not in d:
                if order[t] == ONES:
                    d[t] = steps.get(["m"])
                else:
                    qt = q_step(t)
                    d[t] = steps.get(["sum", steps.get(["mul", qt, qt])])
            return d[t]

        def l_step(k, t):
            if (k, t) not in ell:
                vk = inputs[order[k]]
                inner = vk if order[t] == ONES else steps.get(["mul", vk, q_step(t)])
                ell[(k, t)] = steps.get(["div", steps.get(["sum", inner]), d_step(t)])
                if order[t] != ONES:
                    pivots[d[t]] = order[t]
            return ell[(k, t)]

        def var(v):
            if v == alg.m:
                return steps.get(["m"])
            if v in names:
                desc = names[v]
                return d_step(desc[2]) if desc[0] == "d" else l_step(desc[2], desc[3])
            return builder.atom(v)

        def nonneg_var(v):
            if v == alg.m:
                return steps.get(["m"])
            if v in names and names[v][0] == "d":
                return d_step(names[v][2])
            return builder.nonnegative_atom(v)

        def polynomial(p):
            total = None
            for mono, c in P.ordered(p):
                term = None
                for v, e in mono:
                    x = var(v)
                    x = x if e == 1 else steps.get(["pow", x, e])
                    term = x if term is None else steps.get(["mul", term, x])
                if term is None or c != 1:
                    const = steps.get(["const", str(c)])
                    term = const if term is None else steps.get(["mul", const, term])
                total = term if total is None else steps.get(["add", total, term])
            return total

        try:
            terms = []
            for c, mu, square in found:
                factors = []
                for v, e in mu:
                    if e % 2:
                        factors.append(nonneg_var(v))
                    if e > 1:
                        factors.append(steps.get(["pow", var(v), e - e % 2]))
                coefficient = c / self.kappa / (root.scale if root else 1)
                if P.is_constant(square):  # a number: into c
                    coefficient *= P.fraction(square.f.leading_coefficient()) ** 2
                else:
                    factors.append(steps.get(["pow", polynomial(square), 2]))
                terms.append({"coefficient": str(coefficient), "factors": factors})
            denominator = [k if tag == "step" else steps.get(["pow", k, 2]) for tag, k in self.chosen]
            for a, e in self.denominator_atoms:
                denominator += builder.positive_atom(a, e)
            if root is not None:  # 2ρA and M_d divide, c·M_d·(ρA + B)² is one more term
                rho_a = P.mul(root.rho, root.a)
                denominator.append(steps.get(["mul", steps.get(["const", "2"]), polynomial(rho_a)]))
                factors = []
                for a, e in root.md:
                    denominator += builder.positive_atom(a, e)
                    factors += [steps.get(["pow", var(a), e])] if e % 2 == 0 else \
                        [nonneg_var(a)] + ([steps.get(["pow", var(a), e - 1])] if e > 1 else [])
                factors.append(steps.get(["pow", polynomial(P.add(rho_a, root.b)), 2]))
                terms.append({"coefficient": str(1 / self.kappa), "factors": factors})
                for r in P.variables(root.rho):
                    for k, name in _norms(program, builder.atom(r), self.forms):
                        pivots[k] = name
        except SQ._Missing:
            return None
        proof = {"method": "nonnegative", "steps": steps.extra, "terms": terms,
                 "denominator": denominator}
        if pivots:
            if len(self.nested) >= MAX_DEPTH:  # the checker's bound on cases of cases
                return None
            proof["method"] = "sos"
            proof["cases"] = [{"pivot": p, "input": pivots[p], "proof": {"method": "zero"}}
                              for p in sorted(pivots)]
            if not _cases(self.original, proof, self.budget, self.nested):
                return None
        if self.nested:
            return proof if _replays(_CaseReplay(self.original, self.nested), proof) else None
        return proof if replays(program, proof) else None


def _norms(program: dict, k: int, forms) -> list:
    """(step, input) for each Σx∘x (x a vector input) that step k is computed from and that
    is not > 0 by its form: a root √(m·Σz²) is > 0 only once z = 0 is a case."""
    steps, out, seen, todo = program["steps"], [], set(), [k]
    while todo:
        j = todo.pop()
        if j in seen or not isinstance(j, int) or j >= len(steps):
            continue
        seen.add(j)
        step = steps[j]
        if step[0] == "sum" and not forms.positive(j):
            inner = steps[step[1]]
            x = inner[1] if inner[0] == "mul" and inner[1] == inner[2] or \
                inner[0] == "pow" and inner[2] == 2 else None
            if x is not None and steps[x][0] == "input":
                out.append((j, steps[x][1]))
        todo += [a for a in step[1:] if isinstance(a, int) and not isinstance(a, bool)] \
            if step[0] not in ("const", "input", "pow") else [step[1]] if step[0] == "pow" else []
    return out


def _replays(replay, proof: dict) -> bool:
    """proof_steps.replays in a case: residual·Π denominator − Σ terms ≡ 0 there."""
    return replays_in(replay, replay.residual, proof)


def _cases(program: dict, proof: dict, budget: Budget, subs: tuple) -> bool:
    """Each case's proof: "zero" or "undefined" as the checker finds it, else a
    "nonnegative" proof found again in the program with the input replaced."""
    from .fragment import NotDefined, OutsideFragment

    settled = _settle(program, proof, subs)
    if settled is None:
        return False
    for case, (span, method) in zip(proof["cases"], settled):
        if method is not None:
            case["proof"] = {"method": method}
            continue
        try:
            inner = subs + ((case["input"], span),)
            replay = _CaseReplay(program, inner)
            found = _search(replay, replay.program, budget, inner, program)
        except (TooLarge, NotDefined, OutsideFragment, ValueError):
            return False
        if found is None:
            return False
        case["proof"] = found
    return True


def _settle(program: dict, proof: dict, subs: tuple = ()) -> list | None:
    """For each case of a proof of the program (or of its case `subs`): (the span as the
    checker reads it, "zero" or "undefined" as the checker finds it, or None for
    neither); None where a pivot is not one (the checker judges the whole certificate
    again).  Asked of the checker's own case replay (checker/sos.py), so that the case
    proofs written here are the ones it will find."""
    from ..checker.parse import Rejected
    from ..checker.roots import sign_facts
    from ..checker.sos import Undefined, lambda_steps, outcome, pivot_vector, span_of
    from ..checker.symbolic_program import read_inputs, read_steps

    try:
        inputs = read_inputs(program["inputs"])
        types: list = []
        ops = read_steps(program["steps"], inputs, types, "program.steps")
        signs = sign_facts(inputs, ops, program["hypotheses"])
        fresh = lambda_steps(subs)
        ops, types = ops + fresh, types + ["S"] * len(fresh)
        ev, _ = outcome(inputs, ops, types, signs, list(subs))
        if ev is None:
            return None
        extra = read_steps(proof["steps"], [], types, "proof.steps", proof=True)
        ev.run(extra, types)
        names = {n for n, t, _ in inputs if t == "V"}
        out = []
        for case in proof["cases"]:
            q = pivot_vector(ops + extra, types, case["pivot"], "case")
            span = span_of(ev.alg, ev.values[q], case["input"], names, "case")
            case_ev, _ = outcome(inputs, ops, types, signs, list(subs) + [(case["input"], span)])
            if case_ev is None:
                out.append((span, "undefined"))
            else:
                zero = case_ev.alg.is_zero(case_ev.values[program["residual"]])
                out.append((span, "zero" if zero else None))
    except (Rejected, Undefined):
        return None
    return out


class _CaseReplay(Replay):
    """The program's values with each vector input of `subs` read as λ_0·1 + Σ λ_w·w (fresh
    scalars λ; w = () the ones vector): the case as the checker replays it (checker/sos.py).
    Its `program` has the λ as scalar inputs, each read by one step after the program's,
    where the checker puts them (checker/sos.py lambda_steps), so a case's proof names them."""

    def __init__(self, program: dict, subs: tuple):
        self.subs = {name: (i, span) for i, (name, span) in enumerate(subs)}
        fresh = [f"#lambda{i}_{j}" for i, (_, span) in enumerate(subs) for j in range(len(span))]
        self.program = {**program, "inputs": program["inputs"] + [[n, "scalar", "real"] for n in fresh],
                        "steps": program["steps"] + [["input", n] for n in fresh]}
        super().__init__(self.program)
        self.residual = program["residual"]

    def _vector(self, name: str, depth: int = 0) -> Vector:
        alg = self.alg
        if name not in self.subs:
            return Vector({((alg.gen(("in", name)), 1),): alg.const(1)})
        if depth > len(self.subs):
            raise ValueError("the cases' spans name each other in a circle")
        i, span = self.subs[name]
        out = Vector({})
        for j, w in enumerate(span):
            lam = alg.var(alg.atom(("in", f"#lambda{i}_{j}")))
            v = alg.ones() if w == () else self._vector(w, depth + 1)
            out = alg.vec_add(out, alg.vec_scale(v, lam))
        return out

    def _step(self, step):
        if step[0] != "input" or step[1] not in self.subs:
            return super()._step(step)
        return self._vector(step[1])
