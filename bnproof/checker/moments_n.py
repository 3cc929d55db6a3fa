"""Proof certificates of expectations over a batch of n i.i.d. draws, for every n
(proof method "moments-n"; docs/certificates.md).

The program (symbolic_m/moments_n.py) is replayed with this module's own moment algebra
over the checker's polynomials (symbolic_length.Algebra: dicts {monomial: Fraction}, a
monomial a sorted tuple of (variable, exponent)); a value is num/den with den free of draws.  Variables: n, the moments
"mu<k>" = E[X^k], and per batch b (the step that made it) its sample "x<b>", its
power sums "P<b>.<k>" and its draws "s<b>.<i>".

The expectation of a monomial is computed here by a recursive expansion over which
draws coincide, memoised on the multiset of exponents accumulated so far: the
power-sum factors are taken one at a time, and each either falls on one of the
distinct draws already in play (its exponent adds to that draw's) or on a new draw,
which can be chosen in n − (draws in play) ways; at the end each distinct draw
contributes its moment.  (The engine enumerates set partitions instead.)  Draws of
a batch of fixed size are distinct and independent: s^a contributes mu<a>.

Accepted: the residual's numerator is the zero polynomial, so the residual is 0 at
every n >= 1 and for every law whose moments exist (treated as independent symbols),
wherever every division is defined; and the program evaluated at the witness's n
and law has every division defined (not vacuous).  That the program is the claim's
residual is trusted, as for every proof certificate.  Standard library only."""

from fractions import Fraction

from .live_steps import require_read
from .named import named
from .parse import Rejected, array, check_envelope, keys, rational, sha256_of, tensor
from .symbolic_length import Algebra
from .variables import declared

TOP = {"format", "version", "bnproof_version", "kind", "claim", "program", "fixed", "proof",
       "witness", "digest"}
PROGRAM = {"laws", "lengths", "inputs", "steps", "residual", "kind"}
MAX_STEPS, MAX_MOMENT, MAX_FIXED_DRAWS, MAX_FACTORS = 20000, 24, 16, 10
MAX_WITNESS_N, MAX_POINTS = 32, 16
# work units of polynomial arithmetic over one replay, and terms of divisors evaluated: one
# product's bound alone let 20000 steps of products near it run for days (the gallery
# needs under 10^4)
MAX_WORK = 500_000
_replaying = [None]  # the normal forms' polynomial arithmetic of the replay under way
ONE = {(): Fraction(1)}


# ---------------------------------------------------------------- polynomials

def ring() -> Algebra:
    """The polynomial arithmetic of the normal forms (symbolic_length.Algebra: its work
    charge and its limits on terms, coefficients and exponents), with the replay's work
    limit; outside a replay, a fresh one for each operation."""
    return _replaying[0] or Algebra(set())


def p_add(a, b, sign=1):
    return ring().padd(a, b, sign)


def p_mul(a, b):
    return ring().pmul(a, b)


def p_pow(a, k):
    return ring().ppow(a, k)


def p_var(name):
    return {((name, 1),): Fraction(1)}


def p_const(c):
    return {(): Fraction(c)} if c else {}


def random_vars(p):
    """The draw-dependent variables of p (anything but n, the moments and the inputs)."""
    return {v for m in p for v, _ in m if v != "n" and not v.startswith(("mu", "in:"))}


def evaluate(p, point):
    total = Fraction(0)
    for m, c in p.items():
        t = c
        for v, e in m:
            t *= point[v] ** e
        total += t
    return total


# ---------------------------------------------------------------- expectation

def expectation(num, batch):
    """E[num] over the draws of `batch` (None: num is deterministic)."""
    if batch is None:
        return num
    out = {}
    for mono, c in num.items():
        fixed, factors, const = ONE, [], []
        for v, e in mono:
            if v.startswith(f"P{batch}."):
                factors += [int(v.split(".")[1])] * e
            elif v.startswith(f"s{batch}."):
                fixed = p_mul(fixed, moment(e))
            elif v == f"x{batch}":
                raise Rejected("program: an expectation of a batch vector")
            else:
                const.append((v, e))
        if len(factors) > MAX_FACTORS:
            raise Rejected(f"program: a product of more than {MAX_FACTORS} batch sums")
        memo = {}
        term = p_mul({tuple(const): c}, p_mul(fixed, coincide(tuple(factors), (), memo)))
        out = p_add(out, term)
    return out


def moment(k):
    if not 1 <= k <= MAX_MOMENT:
        raise Rejected(f"program: a moment E[X^{k}] outside 1..{MAX_MOMENT}")
    return p_var(f"mu{k}")


def coincide(factors, draws, memo):
    """E of the remaining power-sum factors, `draws` the exponents of the distinct draws
    already in play (a sorted tuple: which draw is which does not matter)."""
    key = (factors, draws)
    if key in memo:
        return memo[key]
    if not factors:
        out = ONE
        for d in draws:
            out = p_mul(out, moment(d))
    else:
        k, rest = factors[0], factors[1:]
        out = {}
        for j in range(len(draws)):  # the factor's draw is one already in play
            merged = tuple(sorted(draws[:j] + (draws[j] + k,) + draws[j + 1:]))
            out = p_add(out, coincide(rest, merged, memo))
        choices = p_add(p_var("n"), p_const(len(draws)), -1)  # a new draw: n − |draws| ways
        out = p_add(out, p_mul(choices, coincide(rest, tuple(sorted(draws + (k,))), memo)))
    memo[key] = out
    return out


# ---------------------------------------------------------------- the program

class Value:
    __slots__ = ("num", "den", "batch", "vector")

    def __init__(self, num, den=ONE, batch=None, vector=False):
        self.num, self.den, self.batch, self.vector = num, den, batch, vector


def _operand(step, pos, values, path):
    i = step[pos]
    if type(i) is not int or not 0 <= i < len(values) or values[i] is None:
        raise Rejected(f"{path}: operand {pos} is not an earlier value step")
    return values[i]


def replay(program: dict, laws: list) -> tuple[list, list]:
    """The values of the program's steps (None for a batch step), and the divisions
    (their divisor values) the witness must define, within MAX_WORK."""
    _replaying[0] = Algebra(set())
    _replaying[0].limit = MAX_WORK
    try:
        return _replay(program, laws)
    finally:
        _replaying[0] = None


def _replay(program: dict, laws: list) -> tuple[list, list]:
    steps = array(program["steps"], "program.steps", MAX_STEPS)
    inputs = [name for name, _ in read_inputs(program)]
    values, divisors, batches = [], [], {}
    for i, step in enumerate(steps):
        path = f"program.steps[{i}]"
        if type(step) is not list or not step or type(step[0]) is not str:
            raise Rejected(f"{path}: expected [op, ...]")
        op, size = step[0], len(step)
        if op == "n" and size == 1:
            v = Value(p_var("n"))
        elif op == "input" and size == 2 and step[1] in inputs:
            v = Value(p_var(f"in:{step[1]}"))
        elif op == "const" and size == 2:
            v = Value(p_const(rational(step[1], path + "[1]")))
        elif op == "batch" and size == 3 and step[1] in laws:
            if step[2] == "n":
                v = Value(p_var(f"x{i}"), ONE, i, vector=True)
            elif type(step[2]) is int and 1 <= step[2] <= MAX_FIXED_DRAWS:
                batches[i] = step[2]
                v = None
            else:
                raise Rejected(f"{path}: a batch of n draws or of 1..{MAX_FIXED_DRAWS} draws")
        elif op == "draw" and size == 3:
            b, k = step[1], step[2]
            if type(b) is not int or b not in batches or type(k) is not int or not 0 <= k < batches[b]:
                raise Rejected(f"{path}: not a draw of an earlier batch of fixed size")
            v = Value(p_var(f"s{b}.{k}"), ONE, b)
        elif op in ("add", "sub", "mul", "div") and size == 3:
            a, b = _operand(step, 1, values, path), _operand(step, 2, values, path)
            if a.batch is not None and b.batch is not None and a.batch != b.batch:
                raise Rejected(f"{path}: values of two batches combined")
            batch, vector = a.batch if a.batch is not None else b.batch, a.vector or b.vector
            if op in ("add", "sub"):
                num = p_add(p_mul(a.num, b.den), p_mul(b.num, a.den), 1 if op == "add" else -1)
                den = p_mul(a.den, b.den)
            elif op == "mul":
                num, den = p_mul(a.num, b.num), p_mul(a.den, b.den)
            else:
                if random_vars(b.num) or not b.num:
                    raise Rejected(f"{path}: a division by a value that depends on the draws, or is 0")
                divisors.append(b)
                num, den = p_mul(a.num, b.den), p_mul(a.den, b.num)
            v = Value(num, den, batch, vector)
        elif op == "neg" and size == 2:
            a = _operand(step, 1, values, path)
            v = Value(p_add({}, a.num, -1), a.den, a.batch, a.vector)
        elif op == "pow" and size == 3:
            a, k = _operand(step, 1, values, path), step[2]
            if type(k) is not int or not 0 <= k <= MAX_MOMENT:
                raise Rejected(f"{path}: a power other than an integer 0..{MAX_MOMENT}")
            v = Value(p_pow(a.num, k), p_pow(a.den, k), a.batch, a.vector)
        elif op == "sum" and size == 2:
            a = _operand(step, 1, values, path)
            if not a.vector:
                raise Rejected(f"{path}: a sum of what is not a batch vector")
            v = Value(summed(a.num, a.batch), a.den, a.batch)
        elif op == "expect" and size == 2:
            a = _operand(step, 1, values, path)
            if a.vector:
                raise Rejected(f"{path}: an expectation of a batch vector")
            v = Value(expectation(a.num, a.batch), a.den)
        else:
            raise Rejected(f"{path}: unknown step {op!r} of {size} entries")
        values.append(v)
    return values, divisors


def summed(num, batch):
    """Σ over the batch: the sample's power x^k becomes the power sum P_k, x^0 becomes n."""
    out = {}
    for mono, c in num.items():
        rest = tuple((v, e) for v, e in mono if v != f"x{batch}")
        k = sum(e for v, e in mono if v == f"x{batch}")
        if k > MAX_MOMENT:
            raise Rejected(f"program: a power sum above P{MAX_MOMENT}")
        factor = p_var(f"P{batch}.{k}") if k else p_var("n")
        out = p_add(out, p_mul({rest: c}, factor))
    return out


def residual_value(program: dict, laws: list):
    """The residual's (num, den) with every step replayed; Rejected for a malformed program."""
    values, divisors = replay(program, laws)
    r = program["residual"]
    if type(r) is not int or not 0 <= r < len(values) or values[r] is None:
        raise Rejected("program.residual: not a value step")
    v = values[r]
    if v.vector or v.batch is not None and random_vars(v.num):
        raise Rejected("program.residual: depends on the draws")
    return v, divisors


def _reads(step: list) -> list:
    """The earlier steps a validated step reads (a draw reads its batch)."""
    count = {"add": 2, "sub": 2, "mul": 2, "div": 2, "neg": 1, "pow": 1, "sum": 1, "expect": 1,
             "draw": 1}.get(step[0], 0)
    return step[1:1 + count]


def read_inputs(program: dict) -> list:
    """program.inputs: [[name, domain], ...], the claim's scalar inputs beside its law."""
    out = []
    for i, entry in enumerate(array(program["inputs"], "program.inputs", 16)):
        if type(entry) is not list or len(entry) != 2 or type(entry[0]) is not str \
                or entry[1] not in ("real", "positive", "nonzero") or entry[0] in (e[0] for e in out):
            raise Rejected(f"program.inputs[{i}]: expected [name, real | positive | nonzero], each name once")
        out.append((entry[0], entry[1]))
    return out


def point_of(n: int, support: list, weights: list, inputs: dict | None = None) -> dict:
    total = sum(weights)
    probs = [w / total for w in weights]
    point = {"n": Fraction(n), **{f"in:{k}": Fraction(v) for k, v in (inputs or {}).items()}}
    for k in range(1, MAX_MOMENT + 1):
        point[f"mu{k}"] = sum(p * s ** k for p, s in zip(probs, support))
    return point


def value_at(program: dict, laws: list, n: int, support: list, weights: list, inputs: dict | None = None):
    """The residual at batch size n over the law (support, weights) and the scalar inputs'
    values: a Fraction, or None where a division is undefined."""
    v, divisors = residual_value(program, laws)
    point = point_of(n, support, weights, inputs)
    # one divisor of many terms, divided by at every step, is evaluated at each
    if sum(len(d.num) + len(d.den) for d in divisors) > MAX_WORK:
        raise Rejected(f"program: more than {MAX_WORK} terms of divisors to evaluate (the checker's work limit)")
    for d in divisors:
        if evaluate(d.num, point) == 0 or evaluate(d.den, point) == 0:
            return None
    return evaluate(v.num, point) / evaluate(v.den, point)


# ---------------------------------------------------------------- the certificate

def _variables(claim: dict, program: dict) -> tuple[list, list, list]:
    variables = declared(claim["variables"])
    laws = array(program["laws"], "program.laws", 4)
    lengths = array(program["lengths"], "program.lengths", 4)
    if len(laws) != 1:
        raise Rejected("program.laws: exactly one law")
    inputs = dict(read_inputs(program))
    expected = []
    for name, shape, domain in variables:
        if name in inputs:
            ok = shape == [] and domain == inputs[name]
        elif name in lengths:
            ok = shape == ["m"] and domain == "real"
        elif name.endswith("_support") and name[:-8] in laws:
            ok = len(shape) == 1 and domain == "real"
        elif name.endswith("_weights") and name[:-8] in laws:
            ok = len(shape) == 1 and domain == "positive"
        else:
            ok = False
        if not ok:
            raise Rejected(f"claim.variables: {name} is not a law's or a batch length's variable")
        expected.append(name)
    wanted = set(lengths) | set(inputs) | {f"{law}{s}" for law in laws for s in ("_support", "_weights")}
    if set(expected) != wanted:
        raise Rejected("program: its laws and lengths are not the claim's variables")
    return variables, laws, lengths


def check_moments_n(doc: dict) -> str:
    keys(doc, "document", TOP)
    check_envelope(doc)
    if doc["kind"] != "proof":
        raise Rejected("kind: a proof certificate says \"proof\"")
    claim = keys(doc["claim"], "claim", {"id", "source", "statement", "kind", "variables"})
    named(claim)
    if claim["kind"] != "identity":
        raise Rejected("claim.kind: the moments-n method proves identities only")
    keys(doc["proof"], "proof", {"method"})
    program = keys(doc["program"], "program", PROGRAM)
    if program["kind"] != "identity":
        raise Rejected("program.kind: must be \"identity\"")
    variables, laws, lengths = _variables(claim, program)
    fixed = doc["fixed"]
    if type(fixed) is not dict or any(type(v) is not int or not 1 <= v <= MAX_POINTS for v in fixed.values()):
        raise Rejected("fixed: sizes must be integers from 1 to 16")
    v, _ = residual_value(program, laws)  # validates every step and its operands
    steps = program["steps"]
    require_read([_reads(step) for step in steps], [program["residual"]], lambda k: steps[k][0] == "div")
    if v.num:
        raise Rejected("proof: the residual's numerator is not the zero polynomial in n and the moments")
    n, support, weights, values = _witness(doc["witness"], variables, laws, lengths, fixed)
    if value_at(program, laws, n, support, weights, values) is None:
        raise Rejected(f"witness: a division of the program is undefined at n = {n} on the witness's law")
    return (f"{claim['id']} proved for every n: residual = 0 for every law with those moments "
            f"(assuming every division defined; witness at n = {n}; trusting program "
            f"{sha256_of(program)[:23]})")


def _witness(value, variables, laws, lengths, fixed) -> tuple:
    witness = keys(value, "witness", {"m", "inputs"})
    n = witness["m"]
    if type(n) is not int or not 1 <= n <= MAX_WITNESS_N:
        raise Rejected(f"witness.m: expected an integer from 1 to {MAX_WITNESS_N}")
    given = keys(witness["inputs"], "witness.inputs", {name for name, _, _ in variables})
    law = laws[0]
    support = tensor(given[law + "_support"], "witness.inputs.support")
    weights = tensor(given[law + "_weights"], "witness.inputs.weights")
    values = {}
    for name, shape, domain in variables:
        if not shape:
            value = tensor(given[name], f"witness.inputs.{name}")
            if type(value) is not Fraction or domain == "positive" and value <= 0 \
                    or domain == "nonzero" and value == 0:
                raise Rejected(f"witness.inputs.{name}: expected a number in its domain ({domain})")
            values[name] = value
            continue
        size = shape[0]
        count = n if size == "m" else fixed.get(size, size)
        entries = tensor(given[name], f"witness.inputs.{name}")
        if type(entries) is not list or len(entries) != count or any(type(x) is not Fraction for x in entries):
            raise Rejected(f"witness.inputs.{name}: expected {count} numbers")
    if any(w <= 0 for w in weights):
        raise Rejected("witness.inputs: a weight is not > 0")
    return n, support, weights, values
