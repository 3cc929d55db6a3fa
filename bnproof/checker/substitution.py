"""Proof method "substitution": equality hypotheses that determine a scalar input or a
batch sum (docs/certificates.md, "Proof certificates").

The claim's equalities e_k = 0 hold exactly on its instances.  A substitution names an
equality k and a scalar input x, or a program step whose normal form is one batch sum
x = S[w] (Σy; replaced wherever the replay forms S[w]).  The checker reads e_k's
normal form N/D in its own replay of the program and requires N = c * m^j * x + c0 with c a nonzero rational and
c0 free of x and of root symbols: then x = -c0/(c m^j) wherever e_k is defined and 0
(D is nonzero there, m >= 1).  The program is replayed again with x read as that value;
every step keeps its value at every instance of the claim, so a residual whose replay
is 0 is 0 there.  Substitutions apply in order, each read in the replay with the
earlier ones substituted.  Root symbols are kept out of c0 because they are numbered by
the replay that met them, not by their radicand.  A program with a grad step is
refused: a derivative does not survive replacing an input by a function of another.
Nothing is taken from the proof but which equality and which input."""

from .nonnegative import index
from .parse import Rejected, array, keys
from .roots import atom_of
from .symbolic_length import M
from .symbolic_program import Evaluator, read_steps

MAX_SUBSTITUTIONS = 8


def solved(alg, value: tuple, x: tuple, name: str, where: str) -> tuple:
    """The value of the atom x (named `name` in messages) that the equality with normal
    form `value` fixes."""
    num, _ = value
    linear, rest = [], {}
    for mono, c in num.items():
        powers = dict(mono)
        e = powers.pop(x, 0)
        if e > 1:
            raise Rejected(f"{where}: the equality is not linear in {name}")
        if any(type(a) is tuple and a[0] == "r" for a in powers):
            raise Rejected(f"{where}: the equality's value for {name} holds a square root")
        if e:
            linear.append((powers, c))
        else:
            rest[mono] = c
    if len(linear) != 1 or any(a != M for a in linear[0][0]):
        raise Rejected(f"{where}: the coefficient of {name} in the equality is not a nonzero "
                       "number times a power of m")
    powers, c = linear[0]
    value = ({mono: -x / c for mono, x in rest.items()}, {})
    j = powers.get(M, 0)
    return alg.mul(value, alg.power(alg.atom(M), -j, where)) if j else value


def sum_atom(ev: Evaluator, step, count: int, where: str) -> tuple:
    """The batch sum ("S", w) that program step `step` is, in the replay so far."""
    if type(step) is not int or not 0 <= step < count or ev.types[step] != "S":
        raise Rejected(f"{where}.sum: not the index of a scalar step")
    num, den = ev.values[step]
    atom = None if den else atom_of(tuple(num.items()))  # N/D is an atom: D = 1, N = 1 * atom
    if type(atom) is not tuple or atom[0] != "S":
        raise Rejected(f"{where}.sum: step {step} is not a batch sum")
    return atom


def replay(inputs: list, ops: list, types: list, signs: dict, replace: dict) -> Evaluator:
    ev = Evaluator(inputs, signs, replace)
    ev.run(ops, types)
    return ev


def check_substitution(proof: dict, inputs: list, ops: list, types: list, signs: dict,
                       residual: int, equalities: list) -> int:
    """The number of substitutions (or multipliers), once the residual's replay with them
    is 0 (or its numerator is the multipliers' combination of the equalities')."""
    if type(proof) is dict and "multipliers" in proof:
        return check_multipliers(proof, inputs, ops, types, signs, residual, equalities)
    proof = keys(proof, "proof", {"method", "substitutions"})
    subs = array(proof["substitutions"], "proof.substitutions", MAX_SUBSTITUTIONS)
    if not subs:
        raise Rejected("proof.substitutions: none given")
    if any(op == "grad" for op, _, _ in ops):
        raise Rejected("proof: a substitution in a program that differentiates (grad)")
    scalars = {n for n, t, _ in inputs if t == "S"}
    replace: dict = {}
    ev = replay(inputs, ops, types, signs, replace)
    for i, sub in enumerate(subs):
        where = f"proof.substitutions[{i}]"
        sub = keys(sub, where, {"equality", "input" if type(sub) is dict and "input" in sub else "sum"})
        k = sub["equality"]
        if type(k) is not int or not 0 <= k < len(equalities):
            raise Rejected(f"{where}.equality: not the index of one of the claim's "
                           f"{len(equalities)} equalities")
        if "input" in sub:
            name = sub["input"]
            if type(name) is not str or name not in scalars or name in replace:
                raise Rejected(f"{where}.input: not a scalar input that is still free")
            key, atom = name, ("s", name)
        else:
            key = atom = sum_atom(ev, sub["sum"], len(ops), where)
            name = f"the batch sum of step {sub['sum']}"
        replace[key] = solved(ev.alg, ev.values[equalities[k]], atom, name, where)
        ev = replay(inputs, ops, types, signs, replace)
    if not ev.alg.is_zero(ev.values[residual]):
        raise Rejected("proof: the residual, with the inputs the equalities fix substituted, does "
                       "not reduce to 0")
    return len(subs)



def check_multipliers(proof: dict, inputs: list, ops: list, types: list, signs: dict,
                      residual: int, equalities: list) -> int:
    """Equalities used as multipliers: the residual's numerator N equals sum_j q_j * N_j,
    N_j the numerator of equality j, q_j a proof step (+, -, *, constants and powers >= 0
    of program steps: defined wherever the program is).  On the equality set each N_j is
    0 (e_j = N_j/D_j with D_j nonzero where e_j is defined), so N is 0 there, and so is the
    residual N/D.  The identity is checked in this checker's own normal form."""
    proof = keys(proof, "proof", {"method", "steps", "multipliers"})
    if any(op == "grad" for op, _, _ in ops):
        raise Rejected("proof: multipliers in a program that differentiates (grad)")
    extra = read_steps(proof["steps"], inputs, types, "proof.steps", proof=True)
    for i, (op, _, n) in enumerate(extra):
        if op in ("div", "sqrt") or op == "pow" and n < 0:
            raise Rejected(f"proof.steps[{i}]: a multiplier is a polynomial in the program's steps "
                           "(no division, no root)")
    count = len(ops) + len(extra)
    qs = [index(q, f"proof.multipliers[{j}]", count, types)
          for j, q in enumerate(array(proof["multipliers"], "proof.multipliers", len(equalities),
                                      len(equalities)))]
    if not equalities:
        raise Rejected("proof.multipliers: the claim states no equality hypotheses")
    ev = replay(inputs, ops + extra, types, signs, {})
    alg = ev.alg
    total = (ev.values[residual][0], {})
    for q, e in zip(qs, equalities):
        total = alg.add(total, alg.mul(ev.values[q], (ev.values[e][0], {})), -1)
    if not alg.is_zero(total):
        raise Rejected("proof: the residual's numerator is not the multipliers' combination of the "
                       "equalities' numerators")
    return len(qs)
