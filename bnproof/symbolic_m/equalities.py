"""Equality hypotheses in a proof for every m: a scalar input substituted out
(docs/claims.md, "Proofs for every m").

An equality e = 0 of the claim (program["equalities"]) whose normal form's numerator
is c·m^k·x + c0, with x a scalar input, c a nonzero rational and c0 free of x and of
roots, says x = −c0/(c·m^k) on every instance (the denominator of e is nonzero
wherever e is defined, and m ≥ 1).  The program is then replayed with x read as that
value: every step's value is unchanged at every instance, so a residual that is 0 in
the replay is 0 on the claim's instances.  Roots are kept out of c0 so that the
substituted value names atoms any replay (and the checker's own algebra) shares.
Several equalities substitute one input each, in order, each read in the replay with
the earlier ones substituted.  A program that differentiates is refused: a derivative
with respect to an input does not survive replacing another input by a function of it.

The proof object is {"method": "substitution", "substitutions": [{"equality": k,
"input": name}, ...]}; the checker (checker/substitution.py) repeats the replay.

Where no substitution proves it, the equalities are tried as multipliers: the residual's
numerator N = Σ q_j·N_j as polynomials in the atoms (N_j equality j's numerator, q_j found
by sympy's division over the checker's own normal forms), so N is 0 where every N_j is
({"method": "substitution", "steps", "multipliers"}: q_j as proof steps).  This uses
equalities that fix no scalar: a product Σy·Σz = 0, several sums together.
"""

from __future__ import annotations

from fractions import Fraction

from . import poly as P
from .algebra import Scalar, TooLarge
from .evaluate import Replay
from .fragment import NotDefined, OutsideFragment

MAX_SUBSTITUTIONS = 8


def solve(alg, value: Scalar, replaced: set) -> tuple[int, Scalar] | None:
    """(x, its value) for the first atom x, a scalar input or a batch sum, in which the
    equality's numerator is c·m^k·x + c0 as above, else None."""
    n = value.n
    for v in sorted(P.variables(n)):
        desc = alg.atoms[v]
        if desc[0] not in ("in", "S") or v in replaced:
            continue
        linear, rest = {}, {}
        for exps, c in n.f.terms():
            e = exps[v]
            if e > 1:
                break
            mono = P.sparse(exps)
            (linear if e else rest)[tuple((a, x) for a, x in mono if a != v) if e else mono] = c
        else:
            if len(linear) != 1:
                continue
            (mono, c), = linear.items()
            if any(a != alg.m for a, _ in mono):
                continue
            if any(a in alg.roots or v in dict(m) for m in rest for a, _ in m):
                continue
            k = dict(mono).get(alg.m, 0)
            num = P.scale(rest, Fraction(-1) / P.fraction(c))
            den = {((alg.m, k),): Fraction(1)} if k else P.ONE
            return v, alg.normal(num, den)
    return None


def substitution_proof(program: dict, replay: Replay | None = None) -> dict | None:
    """The substitution proof of a program whose residual's normal form is nonzero, or
    None: the first equality that determines an input or a batch sum is used, then the
    next, until the residual's replay is 0 or no equality determines one.  The replays
    run in an algebra of their own (a replaced sum must not reach the caller's)."""
    found = substitute(program)
    if found is None or not found[1].values[program["residual"]].is_zero():
        return multiplier_proof(program)
    return {"method": "substitution", "substitutions": found[0]}


def substitute(program: dict) -> tuple[list, Replay] | None:
    """(the substitutions made, the last replay), stopping when the residual's replay is
    0 or no equality determines another input or sum; None when the program has no
    equalities, differentiates, or a replay fails."""
    equalities = program.get("equalities") or []
    if not equalities or any(s[0] == "grad" for s in program["steps"]):
        return None
    try:
        current = Replay(program)
        alg, replace, used, fixed = current.alg, {}, [], set()
        while len(used) < min(len(equalities), MAX_SUBSTITUTIONS):
            if current.values[program["residual"]].is_zero():
                break
            for k, step in enumerate(equalities):
                if k in [u["equality"] for u in used]:
                    continue
                found = solve(alg, current.values[step], fixed)
                if found is not None and _named(alg, program, current, found[0]) is not None:
                    break
            else:
                break
            atom, value = found
            fixed.add(atom)
            desc = alg.atoms[atom]
            if desc[0] == "in":
                replace[desc[1]] = value
                used.append({"equality": k, "input": desc[1]})
            else:
                alg.replaced[atom] = value
                used.append({"equality": k, "sum": _named(alg, program, current, atom)})
            current = Replay(program, alg, replace)
    except (TooLarge, NotDefined, OutsideFragment, ValueError):
        return None
    return used, current


def explain(program: dict) -> str:
    """For a claim not proved: what the equalities did, in the words of the reason."""
    from .show import normal_form_text

    found = substitute(program)
    if found is None:
        return "; the equalities could not be used (a program with grad, or a replay failed)"
    used, replay = found
    if not used:
        return ("; no equality fixes a scalar input or a batch sum (its numerator c·mᵏ·x + c₀, "
                "c a number, c₀ free of x and of roots), and the residual's numerator is no "
                "combination Σ qⱼ·eⱼ of the equalities' numerators (qⱼ polynomials in the sums)")
    names = ", ".join(f"{u['input']} (equality {u['equality']})" if "input" in u
                      else f"the sum of step {u['sum']} (equality {u['equality']})" for u in used)
    value = replay.values[program["residual"]]
    return f"; with {names} substituted: normal form {normal_form_text(replay.alg, value)}"


def _named(alg, program: dict, replay: Replay, atom: int):
    """How the certificate names the atom: a scalar input's name, or the first program
    step whose normal form is the batch sum itself (None: no such step)."""
    if alg.atoms[atom][0] == "in":
        return alg.atoms[atom][1]
    want = P.var(atom)
    return next((i for i, v in enumerate(replay.values[:len(program["steps"])])
                 if isinstance(v, Scalar) and v.n == want and v.d == P.ONE), None)


def find_instance_on_set(claim, fixed: dict, count: int = 3, tries: int = 8):
    """(m, instance) at the first of `count` batch sizes from the claim's smallest (at
    least 2) where a random instance moved onto the equality set (search/equalities.py:
    each equality solved exactly along one entry) is decided by the fixed-size engine to
    hold (every equality exactly 0 there, every hypothesis > 0); None if none is found."""
    import random

    from ..claims.decide import HOLDS, decide, trace
    from ..claims.prove import _random_instance
    from ..search.equalities import on_constraints
    from .trace import batch_name

    batch = batch_name(claim)
    lo, hi = claim.sizes[batch]
    start = max(lo, 2)
    for m in range(start, min(hi, start + count - 1) + 1):
        sizes = {**fixed, batch: m}
        rng = random.Random(f"{claim.id} {sorted(sizes.items())} on the set")
        try:
            traced = trace(claim, sizes)
            for _ in range(tries):
                instance = on_constraints(claim, _random_instance(claim, sizes, rng))
                if decide(claim, instance, traced).verdict == HOLDS:
                    return m, instance
        except Exception:  # the fixed-size engine could not trace it: no witness, never a crash
            continue
    return None


# ------------------------------------------------------------ multipliers

MAX_MULTIPLIER_TERMS = 200  # terms of all multipliers together: past this, "not proved"
MAX_DIVISION_TERMS = 400  # terms of the residual's or an equality's numerator that sympy divides


def multiplier_proof(program: dict) -> dict | None:
    """{"method": "substitution", "steps", "multipliers"} where the residual's numerator N
    is Σ q_j·N_j, N_j the numerator of equality j and each q_j a polynomial in the atoms
    (found with sympy's division by the equalities' numerators, over the checker's own
    normal forms, so that the checker re-derives the same polynomials), each atom read
    from a program step whose normal form is that atom; None if none is found.  Equalities
    that fix no scalar (a product Σy·Σz = 0, several sums at once) are used this way."""
    equalities = program.get("equalities") or []
    if not equalities or any(s[0] == "grad" for s in program["steps"]):
        return None
    try:
        return _multipliers(program, equalities)
    except (ValueError, ArithmeticError, RecursionError):  # the checker's reader refusing, sympy's limits
        return None
    except Exception as err:  # noqa: BLE001 - the checker's Rejected: no proof, never a crash
        if type(err).__name__ == "Rejected":
            return None
        raise


def _multipliers(program: dict, equalities: list) -> dict | None:
    import sympy

    from ..checker.roots import sign_facts
    from ..checker.symbolic_program import Evaluator, read_inputs, read_steps

    inputs = read_inputs(program["inputs"])
    types: list = []
    ops = read_steps(program["steps"], inputs, types, "program.steps")
    ev = Evaluator(inputs, sign_facts(inputs, ops, list(program["hypotheses"])))
    ev.run(ops, types)
    atoms: dict = {}  # checker atom -> sympy symbol

    def to_sympy(poly: dict):
        out = 0
        for mono, c in poly.items():
            term = sympy.Rational(c.numerator, c.denominator)
            for a, e in mono:
                if a not in atoms:
                    atoms[a] = sympy.Symbol(f"a{len(atoms)}")
                term *= atoms[a] ** e
            out += term
        return out

    polys = [ev.values[program["residual"]][0]] + [ev.values[e][0] for e in equalities]
    if any(len(p) > MAX_DIVISION_TERMS for p in polys):  # sympy's division would take its time
        return None
    numerator = to_sympy(ev.values[program["residual"]][0])
    hs = [to_sympy(ev.values[e][0]) for e in equalities]
    if not numerator or any(h == 0 for h in hs):
        return None
    gens = list(atoms.values())
    quotients, remainder = sympy.reduced(numerator, hs, *gens)
    if sympy.expand(remainder) != 0:
        return None
    symbol_step = {}
    for a, s in atoms.items():  # each atom as a program step whose normal form is the atom itself
        want = {((a, 1),): 1}
        step = next((i for i, v in enumerate(ev.values)
                     if types[i] == "S" and not v[1] and v[0] == want), None)
        symbol_step[s] = step
    steps: list = []
    start = len(program["steps"])
    memo: dict = {}

    def emit(step: list) -> int:
        key = tuple(step)
        if key not in memo:
            steps.append(step)
            memo[key] = start + len(steps) - 1
        return memo[key]

    multipliers, terms = [], 0
    for q in quotients:
        poly = sympy.Poly(sympy.expand(q), *gens)
        total = None
        for exps, c in poly.terms():
            terms += 1
            if terms > MAX_MULTIPLIER_TERMS:
                return None
            c = sympy.Rational(c)
            term = emit(["const", f"{c.p}/{c.q}" if c.q != 1 else str(c.p)])
            for s, e in zip(gens, exps):
                if e:
                    if symbol_step[s] is None:
                        return None
                    power = symbol_step[s] if e == 1 else emit(["pow", symbol_step[s], int(e)])
                    term = emit(["mul", term, power])
            total = term if total is None else emit(["add", total, term])
        multipliers.append(total if total is not None else emit(["const", "0"]))
    return {"method": "substitution", "steps": steps, "multipliers": multipliers}
