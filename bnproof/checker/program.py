"""Program certificates: the refutation of any claim as a straight-line program
over the instance (docs/certificates.md, "Program certificates").

The checker cannot know that the program computes the claim's residual, so the
accepted line names the program's digest: that is the trust assumption.  Values
stay exact Fractions while rational; from the first irrational square root on
they are intervals [lo, hi]/2^b with integers lo, hi rounded outward, and b
grows until every obligation is decided."""

from __future__ import annotations

import operator
import re
from fractions import Fraction
from math import isqrt

from .parse import Rejected, array, check_envelope, keys, kind_of, rational, sha256_of, show

MAX_STEPS, MAX_DEPTH, MAX_POW = 200_000, 16, 64
MAX_BITS, MAX_WORK = 100_000, 10**13  # see Meter
PRECISIONS = (64, 256, 1024, 4096)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
_ID = re.compile(r"[!-~]{1,100}")  # printable ASCII without spaces: one clean output line
TOP = {"format", "version", "bnproof_version", "claim", "instance", "program", "obligations",
       "verdict", "digest"}
# a strict inequality (printed "<") is refuted by a residual ≤ 0, equality included
SIGN = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}
ARITY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "max": 2, "min": 2, "pow": 2,
         "neg": 1, "sqrt": 1, "abs": 1}
EXACT = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
         "max": max, "min": min, "neg": operator.neg, "abs": abs}
INTERVAL = {"add": lambda a, c, d, e: (a + d, c + e), "sub": lambda a, c, d, e: (a - e, c - d),
            "max": lambda a, c, d, e: (max(a, d), max(c, e)),
            "min": lambda a, c, d, e: (min(a, d), min(c, e))}
# (lo, hi) -> True (proved), False (refuted), None (undecided at this precision)
DECIDE = {"positive": lambda lo, hi: True if lo > 0 else False if hi <= 0 else None,
          "negative": lambda lo, hi: True if hi < 0 else False if lo >= 0 else None,
          "nonpositive": lambda lo, hi: True if hi <= 0 else False if lo > 0 else None,
          "nonzero": lambda lo, hi: True if lo > 0 or hi < 0 else False if lo == hi == 0 else None}


def program_digest(program) -> str:
    """"sha256:<hex>" of the canonical JSON of the "program" value."""
    return sha256_of(program)


def rational_sqrt(q: Fraction) -> Fraction | None:
    """sqrt(q) if q >= 0 is the square of a rational, else None (q is in lowest
    terms, so it is a square exactly when numerator and denominator are)."""
    a, b = isqrt(q.numerator), isqrt(q.denominator)
    return Fraction(a, b) if a * a == q.numerator and b * b == q.denominator else None


def tensor(value, path: str, depth: int = 0):
    """A rational, or nested lists of them, as Fractions."""
    if type(value) is not list:
        return rational(value, path)
    if depth == MAX_DEPTH:
        raise Rejected(f"{path}: lists nested deeper than {MAX_DEPTH} levels")
    return [tensor(x, f"{path}[{i}]", depth + 1) for i, x in enumerate(value)]


def named(value) -> str:
    """An index, or what stands in its place, for a message."""
    return (str(value) if type(value) is int else kind_of(value))[:40]


def lookup(args: list, variables: dict, where: str) -> Fraction:
    if not args or type(args[0]) is not str or args[0] not in variables:
        name = show(args[0]) if args and type(args[0]) is str else "nothing"
        raise Rejected(f"{where}: input names {name}, not a variable of the instance")
    value, path = variables[args[0]], "instance." + args[0]
    for i in args[1:]:
        if type(value) is not list or type(i) is not int or not 0 <= i < len(value):
            raise Rejected(f"{where}: {path} has no entry {named(i)}")
        value, path = value[i], f"{path}[{i}]"
    if type(value) is list:
        raise Rejected(f"{where}: {path} is a list, not a number")
    return value


def parse_steps(steps, variables: dict) -> list:
    """Each step as (op, operand indices, constant or exponent)."""
    ops = []
    for k, step in enumerate(array(steps, "program.steps", MAX_STEPS)):
        where = f"program.steps[{k}]"
        if type(step) is not list or not step or type(step[0]) is not str:
            raise Rejected(f"{where}: expected a list that starts with an operation name")
        op, args = step[0], step[1:]
        if op in ("input", "const"):
            if op == "const" and len(args) != 1:
                raise Rejected(f"{where}: const takes 1 argument, got {len(args)}")
            value = lookup(args, variables, where) if op == "input" else rational(args[0], where + "[1]")
            ops.append(("const", (), value))
            continue
        if op not in ARITY:
            raise Rejected(f"{where}: unknown operation {show(op)}")
        if len(args) != ARITY[op]:
            raise Rejected(f"{where}: {op} takes {ARITY[op]} arguments, got {len(args)}")
        operands = args[:1] if op == "pow" else args
        for j in operands:
            if type(j) is not int or not 0 <= j < k:
                raise Rejected(f"{where}: operand {named(j)} is not the index of an earlier step")
        if op == "pow" and (type(args[1]) is not int or not 0 <= args[1] <= MAX_POW):
            raise Rejected(f"{where}: the exponent of pow must be an integer from 0 to {MAX_POW}")
        ops.append((op, tuple(operands), args[1] if op == "pow" else None))
    return ops


def size(v) -> int:
    """The bit length of the largest integer in an exact value or an interval."""
    if type(v) is Fraction:
        return max(abs(v.numerator), v.denominator).bit_length()
    return max(-v[0], v[1]).bit_length()


def too_large(k: int) -> Rejected:
    return Rejected(f"a number beyond {MAX_BITS} bits at step {k} (the checker's size limit)")


class Meter:
    """The work limits.  Each number has at most MAX_BITS bits (beyond the precision,
    for an interval).  A step costs the square of the largest bit length among its
    operands and result, a bound on its gcds, divisions and products; the costs sum to
    at most MAX_WORK, some ten seconds of CPython however hostile the program."""

    def __init__(self):
        self.work = 0

    def charge(self, k: int, values: list, limit: int = MAX_BITS) -> None:
        bits = max(map(size, values))
        if bits > limit:
            raise too_large(k)
        self.work += bits * bits
        if self.work > MAX_WORK:
            raise Rejected(f"too much arithmetic by step {k} (the checker's work limit)")


class Undecided(Exception):
    """An interval too wide at this precision: refine."""


def exact_pass(ops: list, meter: Meter) -> list:
    """Every step's exact value, or None once it depends on an irrational root."""
    vals = []
    for k, (op, ix, n) in enumerate(ops):
        xs = [vals[j] for j in ix]
        if op == "div" and xs[1] == 0:
            raise Rejected(f"division by zero at step {k}")
        if op == "sqrt" and xs[0] is not None and xs[0] < 0:
            raise Rejected(f"square root of a negative number at step {k}")
        if op == "const":
            v = n
        elif None in xs:
            v = None
        elif op == "sqrt":
            v = rational_sqrt(xs[0])
        elif op == "pow":
            if (size(xs[0]) - 1) * n >= MAX_BITS:  # refused before it is computed
                raise too_large(k)
            v = xs[0] ** n
        else:
            v = EXACT[op](*xs)
        if None not in xs:  # an irrational root costs its isqrt too
            meter.charge(k, xs + ([] if v is None else [v]))
        vals.append(v)
    return vals


def interval(op: str, xs: list, n, b: int, k: int) -> tuple:
    """The step's value enclosed in [lo, hi]/2^b, rounded outward."""
    a, c = xs[0]
    if op in INTERVAL:
        return INTERVAL[op](a, c, *xs[1])
    if op == "neg":
        return -c, -a
    if op == "abs" or op == "pow" and n % 2 == 0:
        a, c = (a, c) if a >= 0 else (-c, -a) if c <= 0 else (0, max(-a, c))
    if op == "abs":
        return a, c
    if op == "pow":
        if (size(xs[0]) - b - 1) * n >= MAX_BITS:
            raise too_large(k)
        s = b * (n - 1)  # (x/2^b)^n = (x^n / 2^s) / 2^b
        return (1 << b, 1 << b) if n == 0 else (a ** n >> s, -(-(c ** n) >> s))
    if op == "sqrt":
        if c < 0:
            raise Rejected(f"square root of a negative number at step {k}")
        lo, hi = isqrt(max(a, 0) << b), isqrt(c << b)
        return lo, hi if hi * hi == c << b else hi + 1
    d, e = xs[1]
    if op == "mul":
        ps = (a * d, a * e, c * d, c * e)
        return min(ps) >> b, -(-max(ps) >> b)
    if d <= 0 <= e:
        raise Undecided(f"division at step {k} (the divisor's interval contains 0)")
    qs = [divmod(x << b, y) for x in (a, c) for y in (d, e)]
    return min(q for q, r in qs), max(q + (r != 0) for q, r in qs)


def interval_pass(ops: list, vals: list, b: int, meter: Meter) -> dict:
    """[lo, hi]/2^b for every step without an exact value (and the exact ones it reads)."""
    iv = {}
    for k, (op, ix, n) in enumerate(ops):
        if vals[k] is None:
            for j in ix:
                if j not in iv:
                    x, q = vals[j].numerator << b, vals[j].denominator
                    iv[j] = x // q, -(-x // q)
            xs = [iv[j] for j in ix]
            iv[k] = interval(op, xs, n, b, k)
            meter.charge(k, xs + [iv[k]], MAX_BITS + b)
    return iv


def evaluate(ops: list, obligations: list) -> None:
    """Decide every (name, step, sign) obligation, refining the precision as needed."""
    meter = Meter()
    vals = exact_pass(ops, meter)
    for b in PRECISIONS:
        pending = None
        try:
            iv = interval_pass(ops, vals, b, meter)
        except Undecided as exc:
            pending = str(exc)
        else:
            for name, i, sign in obligations:
                decided = DECIDE[sign](*((vals[i], vals[i]) if vals[i] is not None else iv[i]))
                if decided is False:
                    raise Rejected(f"{name}: the value of step {i} " +
                                   ("is zero" if sign == "nonzero" else f"is not {sign}"))
                if decided is None and pending is None:
                    pending = f"{name} (step {i}) {sign}"
        if pending is None:
            return
    raise Rejected(f"undecided at {PRECISIONS[-1]} bits: {pending}")


def check_program(doc: dict, known: dict) -> str:
    """A program certificate; known maps the claim ids this checker knows to
    their (statement, source), which a program certificate may not change."""
    keys(doc, "document", TOP)
    claim = keys(doc["claim"], "claim", {"id", "source", "statement", "kind"})
    program = keys(doc["program"], "program", {"steps", "residual", "hypotheses"})
    for i, item in enumerate(array(doc["obligations"], "obligations", MAX_STEPS + 1)):
        keys(item, f"obligations[{i}]", {"fact", "value", "sign"})
    check_envelope(doc)
    if type(claim["id"]) is not str or not _ID.fullmatch(claim["id"]):
        raise Rejected("claim.id: expected 1 to 100 printable ASCII characters without spaces")
    if type(claim["source"]) is not str or type(claim["statement"]) is not str:
        raise Rejected("claim: source and statement must be strings")
    if type(claim["kind"]) is not str or claim["kind"] not in SIGN:
        raise Rejected("claim.kind: must be \"inequality\", \"strict-inequality\" or \"identity\"")
    if claim["id"] in known and known[claim["id"]] != (claim["statement"], claim["source"]):
        raise Rejected(f"claim {claim['id']}: statement or source differs from the known claim")
    if doc["verdict"] != "refuted":
        raise Rejected("document verdict: a program certificate can only say \"refuted\"")

    inst = doc["instance"]
    if type(inst) is not dict:
        raise Rejected(f"instance: expected an object, got {kind_of(inst)}")
    for name in inst:
        if not _NAME.fullmatch(name):
            raise Rejected(f"instance: {show(name)} is not a variable name")
    ops = parse_steps(program["steps"], {name: tensor(v, "instance." + name) for name, v in inst.items()})

    hyps = array(program["hypotheses"], "program.hypotheses", MAX_STEPS)
    facts = [(f"hypothesis {n}", h, "positive") for n, h in enumerate(hyps)]
    facts.append(("residual", program["residual"], SIGN[claim["kind"]]))
    items = array(doc["obligations"], "obligations", len(facts), len(facts))
    for i, (item, (name, step, sign)) in enumerate(zip(items, facts)):
        if type(step) is not int or not 0 <= step < len(ops):
            raise Rejected(f"program: {name} is not the index of one of the {len(ops)} steps")
        want = {"fact": name.split()[0], "value": step, "sign": sign}
        if type(item["value"]) is not int or item != want:
            raise Rejected(f"obligations[{i}]: expected fact {want['fact']}, value {step}, sign {sign}")
    evaluate(ops, facts)
    return f"{claim['id']} refuted (trusting program {program_digest(program)[:23]})"
