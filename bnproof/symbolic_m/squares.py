"""A residual that is a square over a positive denominator (docs/claims.md, "Proofs for
every m").  First as written: a residual ≥ 0 by its form (forms.py: (a − b)²/(Σy² + 1),
an even power over a sum of squares the claim divides by) is its own one-term proof.
Then in normal form, where the square is not written out: R = c · μ · L² / D with c > 0, μ a product of atoms ≥ 0 by their form (m, an
input declared positive, a root), L any polynomial in the atoms, and D a product of
steps of the program that are > 0 by their form (forms.py: a sum of squares the claim
divides by, σ² where the claim divides by σ, m, a declared-positive input).

The search multiplies R by such steps while they cancel a factor of its denominator
(python-flint's gcd), until the denominator is a monomial in atoms that have steps > 0;
it then factors the numerator and accepts it when every factor of odd multiplicity is
an atom ≥ 0 by its form.  The proof it writes ("nonnegative": one term, the factors of
μ and pow(L, 2), over the denominators) is replayed by the zero test of
R · Π denominator − c · μ · L² (proof_steps.replays), then by the independent checker, which
re-derives every normal form and every sign by form: nothing here is trusted.
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq_mpoly_ctx

from . import poly as P
from .algebra import Scalar
from .forms import Forms
from .proof_steps import Steps, replays

MAX_ROUNDS = 6  # denominators multiplied in, at most
MAX_TERMS = 400  # a numerator larger than this is not factored (a proof is never worth a hang)


class _Flint:
    """The prover's polynomials in a context of their own atoms only, in atom order (flint
    factors there; the prover's contexts hold every atom numbered so far)."""

    def __init__(self, atoms):
        self.atoms = sorted(atoms)
        self.index = {a: i for i, a in enumerate(self.atoms)}
        names = tuple(f"a{a}" for a in self.atoms) or ("unused",)
        self.ctx = fmpq_mpoly_ctx.get(names, "lex")

    def poly(self, p):
        terms = {}
        for exps, c in p.f.terms():
            mine = [0] * max(1, len(self.atoms))
            for v, e in P.sparse(exps):
                mine[self.index[v]] = e
            terms[tuple(mine)] = c
        return self.ctx.from_dict(terms)

    def back(self, f):
        return P.poly({tuple((self.atoms[i], int(e)) for i, e in enumerate(exps) if e): c
                       for exps, c in f.terms()})


def _cancel(n, d):
    g = n.gcd(d)
    if not g.is_one():
        n, rn = divmod(n, g)
        d, rd = divmod(d, g)
        assert rn.is_zero() and rd.is_zero()
    return n, d


def _reduced(alg, value: Scalar) -> tuple[dict, dict]:
    """value = n/d with every r² in d replaced by its radicand too (n and d polynomials)."""
    d, multiplier = alg.reduce(value.d)
    return P.mul(value.n, multiplier), d


def square_proof(replay, program: dict, strict: bool) -> dict | None:
    """The "nonnegative" proof object for R = c·μ·L²/D, or None."""
    forms = Forms(program)
    residual = program["residual"]
    if forms.positive(residual) or not strict and forms.nonnegative(residual):
        # ≥ 0 (> 0) by its form as written, (a − b)²/(Σy² + 1) say: the residual is its own term
        proof = {"method": "nonnegative", "steps": [],
                 "terms": [{"coefficient": "1", "factors": [residual]}], "denominator": []}
        return proof if replays(program, proof) else None
    if strict:  # a square is ≥ 0 only: a strict claim needs a term > 0 by its form
        return None
    got = cleared(replay, program, forms)
    if got is None:
        return None
    fl, N, D, chosen = got
    return _emit(replay, program, forms, fl, N, D, chosen)


def cleared(replay, program: dict, forms: Forms):
    """(fl, N, D, chosen): the residual times the product of the steps `chosen` (each
    ("step", k), > 0 by its form, or ("square", k), the square of a nonzero step) is N/D,
    N a python-flint polynomial in fl's atoms and D a monomial; None where the
    denominator does not clear so (sos.py uses it too)."""
    alg, values = replay.alg, replay.values
    count = len(program["steps"])
    value = values[program["residual"]]
    if value.is_zero() or len(value.n) > MAX_TERMS:
        return None
    n, d = _reduced(alg, value)
    # the denominators a proof may use: program steps > 0 by form, squares of nonzero ones
    candidates = []
    for k in range(count):
        v = values[k]
        if not isinstance(v, Scalar) or program["steps"][k][0] == "const":
            continue
        if forms.positive(k):
            candidates.append((("step", k), v))
        elif forms.nonzero(k):
            candidates.append((("square", k), alg.mul(v, v)))
    reduced = [(tag, _reduced(alg, v)) for tag, v in candidates]
    atoms = P.variables(n) | P.variables(d)
    for _, (cn, cd) in reduced:
        atoms |= P.variables(cn) | P.variables(cd)
    fl = _Flint(atoms)
    N, D = _cancel(fl.poly(n), fl.poly(d))
    chosen = []
    for _ in range(MAX_ROUNDS):
        if len(D) == 1:
            break
        best = None
        for tag, (cn, cd) in reduced:
            common = fl.poly(cn).gcd(D)
            if not common.is_constant() and (best is None or common.total_degree() > best[0]):
                best = (common.total_degree(), tag, cn, cd)
        if best is None:
            return None
        _, tag, cn, cd = best
        chosen.append(tag)
        N, D = _cancel(N * fl.poly(cn), D * fl.poly(cd))
    if len(D) != 1:
        return None
    return fl, N, D, chosen


def _emit(replay, program, forms, fl, N, D, chosen) -> dict | None:

    alg, values = replay.alg, replay.values
    steps = Steps(program)
    ((dexps, dcoef),) = D.to_dict().items()
    kappa = Fraction(int(dcoef.p), int(dcoef.q))
    if len(N) > MAX_TERMS:
        return None
    constant, factors = N.factor()
    coefficient = Fraction(int(constant.p), int(constant.q)) / kappa
    if coefficient <= 0:
        return None
    builder = _Builder(alg, values, program, forms, steps)
    try:
        denominator = []
        for tag, k in chosen:
            denominator.append(k if tag == "step" else steps.get(["pow", k, 2]))
        for i, e in enumerate(dexps):
            if e:
                denominator += builder.positive_atom(fl.atoms[i], e)
        odd, half = [], fl.ctx.from_dict({(0,) * max(1, len(fl.atoms)): 1})
        for f, e in factors:
            if e % 2:
                if len(f) != 1:
                    raise _Missing
                ((exps, c),) = f.terms()
                used = [i for i, e in enumerate(exps) if e]
                if c != 1 or len(used) != 1 or exps[used[0]] != 1:
                    raise _Missing
                odd.append(builder.nonnegative_atom(fl.atoms[used[0]]))
            half = half * f ** (e // 2)
        square = steps.get(["pow", builder.polynomial(fl.back(half)), 2])
    except _Missing:
        return None
    proof = {"method": "nonnegative", "steps": steps.extra,
             "terms": [{"coefficient": str(coefficient), "factors": odd + [square]}],
             "denominator": denominator}
    return proof if replays(program, proof) else None


class _Missing(Exception):
    pass


class _Builder:
    """Proof steps for atoms and polynomials in them, from the program's own steps."""

    def __init__(self, alg, values, program, forms, steps):
        self.alg, self.values, self.program, self.forms, self.steps = alg, values, program, forms, steps
        self.inputs = {s[1]: i for i, s in enumerate(program["steps"]) if s[0] == "input"}

    def _exact(self, a: int):
        """A program step whose normal form is the atom itself, if any."""
        target = P.var(a)
        for k, v in enumerate(self.values[:len(self.program["steps"])]):
            if isinstance(v, Scalar) and v.n == target and v.d == P.ONE:
                return k
        return None

    def atom(self, a: int) -> int:
        desc = self.alg.atoms[a]
        if desc[0] == "m":
            return self.steps.get(["m"])
        if desc[0] == "in" and desc[1] in self.inputs:
            return self.inputs[desc[1]]
        if desc[0] == "S":
            return self.steps.get(["sum", self.vector(desc[2])])
        k = self._exact(a)
        if k is None:
            raise _Missing
        return k

    def vector(self, mono: tuple) -> int:
        out = None
        for g, e in mono:
            gen = self.alg.gens[g]
            if gen[0] != "in" or gen[1] not in self.inputs:
                raise _Missing  # H(w): no step of the program names it
            x = self.inputs[gen[1]]
            x = x if e == 1 else self.steps.get(["pow", x, e])
            out = x if out is None else self.steps.get(["mul", out, x])
        if out is None:
            raise _Missing
        return out

    def positive_atom(self, a: int, e: int) -> list[int]:
        """Denominator steps > 0 by form whose product is a^e."""
        desc = self.alg.atoms[a]
        if desc[0] == "m" or desc[0] == "in" and self.alg.signs.get(desc[1]) == 1 \
                and desc[1] in self.inputs and self.forms.positive(self.inputs[desc[1]]):
            return [self.atom(a)] * e
        k = self._exact(a)
        if k is not None and self.forms.positive(k):
            return [k] * e
        if k is not None and self.forms.nonzero(k) and e % 2 == 0:
            return [self.steps.get(["pow", k, 2])] * (e // 2)
        raise _Missing

    def nonnegative_atom(self, a: int) -> int:
        desc = self.alg.atoms[a]
        if desc[0] == "m":
            return self.atom(a)
        if desc[0] == "in" and desc[1] in self.inputs and self.forms.positive(self.inputs[desc[1]]):
            return self.inputs[desc[1]]
        k = self._exact(a)
        if k is not None and self.forms.nonnegative(k):
            return k
        raise _Missing

    def polynomial(self, p) -> int:
        total = None
        for mono, c in P.ordered(p):
            term = None
            for v, e in mono:
                x = self.atom(v)
                x = x if e == 1 else self.steps.get(["pow", x, e])
                term = x if term is None else self.steps.get(["mul", term, x])
            if term is None or c != 1:
                const = self.steps.get(["const", str(c)])
                term = const if term is None else self.steps.get(["mul", const, term])
            total = term if total is None else self.steps.get(["add", total, term])
        if total is None:
            raise _Missing
        return total
