"""Program certificates: a claim refuted by a straight-line program over the instance.

The claim object binds what "refuted" means (id, source, statement, kind and the
declared variables), the instance is checked against the declared variables, and
the program's values are decided: exact Fractions while rational; from the first
irrational square root on, intervals [lo, hi]/2^b of integers rounded outward, b
growing until every obligation is decided.  What the intervals leave open (an
obligation, a guard condition, a divisor, a radicand, a log or arccos argument at the
edge of its domain) is decided by the step's exact value in Q(√r1, ..., √rk) where it
has one (surds.py), so an irrational exact 0 gets the sign 0.  A square root or a
quotient is a value only once its radicand is proved >= 0 or its divisor != 0; a log
once its argument is proved > 0, an arccos once its argument is proved in [-1, 1].
exp, log, arccos, tanh and π are enclosed by series.py (integer series with proved
error bounds) and have no exact value except at their rational points, so a value that
is exactly 0, such as 2 arccos(0) - π, never gets a sign.  For a claim of the papers,
formulas.py computes the residual independently: its exact sign decides, and the
program must agree with it exactly.  Any other claim's program is trusted, and the
accepted line names its digest."""

import operator
from collections import deque
from fractions import Fraction
from math import isqrt

from . import formulas, series
from .surds import Field, rational_sqrt, sign
from .parse import Rejected, array, check_envelope, claim_texts, keys, kind_of, rational, sha256_of, show
from .variables import bind, declared, stated_sizes

MAX_STEPS, MAX_POW, MAX_BITS, MAX_WORK = 200_000, 64, 100_000, 10**13  # see charge()
PRECISIONS = (64, 256, 1024, 4096)
TOP = {"format", "version", "bnproof_version", "claim", "sizes", "instance", "program",
       "obligations", "verdict", "digest"}
CLAIM = {"id", "source", "statement", "kind", "variables"}
# a strict inequality (printed "<") is refuted by a residual <= 0, equality included
SIGN = {"inequality": "negative", "strict-inequality": "nonpositive", "identity": "nonzero"}
ARITY = {"add": 2, "sub": 2, "mul": 2, "div": 2, "max": 2, "min": 2, "pow": 2, "guard": 2,
         "neg": 1, "sqrt": 1, "abs": 1, "exp": 1, "log": 1, "acos": 1, "tanh": 1, "pi": 0}
# a transcendental step of a rational is rational only here (Lindemann-Weierstrass); at any
# other rational argument it is enclosed by series.py
RATIONAL_AT = {"exp": (0, 1), "log": (1, 0), "acos": (1, 0), "tanh": (0, 0)}
EXACT = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv,
         "max": max, "min": min, "neg": operator.neg, "abs": abs}
INTERVAL = {"add": lambda a, c, d, e: (a + d, c + e), "sub": lambda a, c, d, e: (a - e, c - d),
            "max": lambda a, c, d, e: (max(a, d), max(c, e)),
            "min": lambda a, c, d, e: (min(a, d), min(c, e))}
# (lo, hi) -> True (proved), False (refuted), None (undecided at this precision)
DECIDE = {"positive": lambda lo, hi: True if lo > 0 else False if hi <= 0 else None,
          "negative": lambda lo, hi: True if hi < 0 else False if lo >= 0 else None,
          "nonpositive": lambda lo, hi: True if hi <= 0 else False if lo > 0 else None,
          # a witness's residual of an inequality (checker/exists_witnesses.py)
          "nonnegative": lambda lo, hi: True if lo >= 0 else False if hi < 0 else None,
          "nonzero": lambda lo, hi: True if lo > 0 or hi < 0 else False if lo == hi == 0 else None,
          # an equality hypothesis: exactly 0 (an interval never proves it: undecided, rejected)
          "zero": lambda lo, hi: True if lo == hi == 0 else False if lo > 0 or hi < 0 else None}


def program_digest(program) -> str:
    """"sha256:<hex>" of the canonical JSON of the "program" value."""
    return sha256_of(program)


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
    """Each step as (op, operand indices, constant or exponent); inputs become constants."""
    ops = []
    for k, step in enumerate(array(steps, "program.steps", MAX_STEPS)):
        where = f"program.steps[{k}]"
        if type(step) is not list or not step or type(step[0]) is not str:
            raise Rejected(f"{where}: expected a list that starts with an operation name")
        op, args = step[0], step[1:]
        if op == "const" and len(args) != 1:
            raise Rejected(f"{where}: const takes 1 argument, got {len(args)}")
        if op in ("input", "const"):
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
    top = max(abs(v.numerator), v.denominator) if type(v) is Fraction else max(-v[0], v[1])
    return top.bit_length()


def too_large(k: int) -> Rejected:
    return Rejected(f"a number beyond {MAX_BITS} bits at step {k} (the checker's size limit)")


def charge(work: list, k: int, values: list, limit: int) -> None:
    """The limits against hostile programs: no number beyond `limit` bits, and each
    step costs the square of its largest bit length (a bound on its gcds, products
    and divisions), all steps at all precisions together at most MAX_WORK."""
    bits = max(map(size, values))
    if bits > limit:
        raise too_large(k)
    spend(work, bits * bits, k)


def spend(work: list, units: int, k: int | None = None) -> None:
    """units on the work counter of one certificate: steps (at step k), series and exact values."""
    work[0] += units
    if work[0] > MAX_WORK:
        raise Rejected(f"too much arithmetic {'in exact values' if k is None else f'by step {k}'} "
                       "(the checker's work limit)")


class Undecided(Exception):
    """An interval too wide at this precision: refine."""


def exact(op: str, xs: list, n, k: int) -> Fraction | None:
    """A step on exact operands: its value, or None for an irrational square root or
    transcendental value (then enclosed by interval())."""
    if op == "pi":
        return None
    if op in RATIONAL_AT:
        x = xs[0]
        if op == "log" and x <= 0:
            raise Rejected(f"log of a number <= 0 at step {k}")
        if op == "acos" and abs(x) > 1:
            raise Rejected(f"arccos of a number outside [-1, 1] at step {k}")
        return Fraction(RATIONAL_AT[op][1]) if x == RATIONAL_AT[op][0] else None
    if op == "sqrt":
        if xs[0] < 0:
            raise Rejected(f"square root of a negative number at step {k}")
        return rational_sqrt(xs[0])
    if op == "pow" and (size(xs[0]) - 1) * n >= MAX_BITS:  # refused before it is computed
        raise too_large(k)
    return xs[0] ** n if op == "pow" else EXACT[op](*xs)


def interval(op: str, xs: list, n, b: int, k: int) -> tuple:
    """A step on intervals: its value enclosed in [lo, hi]/2^b, rounded outward."""
    if op == "pi":
        return series.pi_bounds(b)
    if op in series.BOUNDS:
        return transcendental(op, xs[0], b, k)
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
        if a < 0:  # not proved >= 0: no value yet, whatever its upper end
            raise Undecided(f"square root at step {k} (the radicand's interval contains "
                            "negative numbers)")
        lo, hi = isqrt(a << b), isqrt(c << b)
        return lo, hi if hi * hi == c << b else hi + 1
    d, e = xs[1]
    if op == "mul":
        ps = (a * d, a * e, c * d, c * e)
        return min(ps) >> b, -(-max(ps) >> b)
    if d <= 0 <= e:
        raise Undecided(f"division at step {k} (the divisor's interval contains 0)")
    qs = [divmod(x << b, y) for x in (a, c) for y in (d, e)]
    return min(q for q, r in qs), max(q + (r != 0) for q, r in qs)


def guarded(op: str, xs: list, k: int, exact_sign=None):
    """["guard", v, g]: v where g >= 0, else absent (None, i.e. +infinity), and min over
    values of which some are absent; any other step on an absent value is undefined.
    exact_sign() is the condition's exact sign where intervals leave it open (or None)."""
    if op == "guard":
        v, g = xs
        if g is None:
            raise Rejected(f"the condition of the guard at step {k} is absent")
        if v is None:
            return None
        holds = g >= 0 if type(g) is Fraction else True if g[0] >= 0 else False if g[1] < 0 else None
        if holds is None and exact_sign is not None:
            s = exact_sign()
            holds = None if s is None else s >= 0
        if holds is None:  # no exact value (beyond the field): undecided, rejected at the end
            raise Undecided(f"guard at step {k} (its condition's interval contains 0)")
        return v if holds else None
    if op == "min":
        return xs[1] if xs[0] is None else xs[0]
    raise Rejected(f"step {k} ({op}) uses an absent guarded value")


def transcendental(op: str, x: tuple, b: int, k: int) -> tuple:
    """exp, log, arccos or tanh of the interval [a, c]/2^b (each is monotone), side
    conditions first: proved false is rejected, not yet proved asks for more precision."""
    a, c = x
    one, limit = 1 << b, series.MAX_EXP_ARG << b
    proved_out, maybe_out = {
        "log": (c <= 0, a <= 0), "acos": (a > one or c < -one, a < -one or c > one),
        "exp": (a > limit or c < -limit, a < -limit or c > limit), "tanh": (False, False)}[op]
    if proved_out:
        raise Rejected(f"{op} at step {k}: its argument is outside "
                       + {"log": "(0, inf)", "acos": "[-1, 1]",
                          "exp": f"[-{series.MAX_EXP_ARG}, {series.MAX_EXP_ARG}] (the checker's "
                                 "work limit)"}[op])
    if maybe_out:
        raise Undecided(f"{op} at step {k} (its argument's interval is not inside its domain)")
    f = series.BOUNDS[op]
    if op == "acos":  # decreasing
        return f(c, b)[0], f(a, b)[1]
    return f(a, b)[0], f(c, b)[1]


def settle(op: str, ix: tuple, x: tuple, b: int, k: int, field: Field) -> tuple:
    """The last operand's interval x, where it straddles the edge of the step's domain,
    settled by its exact value in the field: an exact 0 divisor, a negative radicand, a
    log argument <= 0 and an arccos argument outside [-1, 1] are rejected; a radicand
    >= 0 or an arccos argument in [-1, 1] has its interval clipped to the domain (sound:
    the value lies there).  Without an exact value, x as it was."""
    one, (a, c), j = 1 << b, x, ix[-1]
    if op == "div" and a <= 0 <= c and field.sign(j) == 0:
        raise Rejected(f"division by zero at step {k} (the divisor is exactly 0)")
    if op == "sqrt" and a < 0 <= c or op == "log" and a <= 0 < c:
        s = field.sign(j)
        if s is not None and (s < 0 or op == "log" and s == 0):
            raise Rejected(f"{'square root of a negative number' if op == 'sqrt' else 'log of a number <= 0'}"
                           f" at step {k}")
        return (0, c) if op == "sqrt" and s is not None else x
    if op == "acos" and (a < -one or c > one):
        above, below = field.sign(j, 1), field.sign(j, -1)
        if above is not None and below is not None:
            if above > 0 or below < 0:
                raise Rejected(f"acos at step {k}: its argument is outside [-1, 1]")
            return max(a, -one), min(c, one)
    return x


def run(ops: list, b: int, work: list, field: Field | None = None) -> list:
    """Every step's value: a Fraction while exact, else an interval (lo, hi) with the
    value in [lo, hi]/2^b.  Exact operands of an interval step are enclosed first.
    With a field, exact values decide what the intervals leave open at a domain's edge."""
    vals = []
    for k, (op, ix, n) in enumerate(ops):
        xs = [vals[j] for j in ix]
        if op == "guard" or None in xs:
            v = guarded(op, xs, k, field and (lambda: field.sign(ix[1])))
            vals.append(v)  # a copy of an operand, or absent: already charged
            continue
        if op == "div" and xs[1] == 0:  # an exact 0 (an interval is a tuple, never 0)
            raise Rejected(f"division by zero at step {k}")
        v = n if op == "const" else exact(op, xs, n, k) if all(type(x) is Fraction for x in xs) else None
        if v is None:
            if field is not None and op in ("div", "sqrt", "log", "acos") and type(xs[-1]) is tuple:
                xs = xs[:-1] + [settle(op, ix, xs[-1], b, k, field)]
            xs = [x if type(x) is tuple else ((x.numerator << b) // x.denominator,
                                              -((-x.numerator << b) // x.denominator)) for x in xs]
            if op in series.BOUNDS or op == "pi":  # charged before the series run
                spend(work, series.work(b), k)
            v = interval(op, xs, n, b, k)
        charge(work, k, xs + [v], MAX_BITS + (b if type(v) is tuple else 0))
        vals.append(v)
    return vals


def evaluate(ops: list, facts: list, match: tuple | None = None, seen: dict | None = None,
             work: list | None = None) -> bool:
    """Decide every (name, step, sign) fact, refining the precision as needed; a fact
    that the intervals leave open is decided by its exact value in Q(√r1, ..., √rk)
    (surds.py) where it has one, so an irrational exact 0 gets its sign 0.  With
    match = (step, value, claim id), the step must equal the checker's exact value
    exactly (in Q, or in that field); a step with no exact value there is rejected, as
    intervals cannot prove equality.  The sign rests on the checker's value, so the
    agreement binds the program, it is not a premise.  `work`: a counter shared with
    other evaluations of one certificate (its witnesses), so MAX_WORK bounds them all.
    Returns True."""
    work = [0] if work is None else work
    field = Field(ops, lambda units: spend(work, units), MAX_BITS, RATIONAL_AT)
    agreed = match is None
    for b in PRECISIONS:
        try:
            vals = run(ops, b, work, field)
        except Undecided as exc:
            pending = str(exc)
            continue
        for name, i, _ in facts:
            if vals[i] is None:
                raise Rejected(f"{name}: step {i} is absent (no guarded candidate qualifies)")
        bounds = {i: (vals[i],) * 2 if type(vals[i]) is Fraction else
                  (Fraction(vals[i][0], 1 << b), Fraction(vals[i][1], 1 << b)) for _, i, _ in facts}
        pending = None
        for name, i, want in facts:
            decided = DECIDE[want](*bounds[i])
            if decided is None and (exact := field.sign(i)) is not None:
                decided = DECIDE[want](exact, exact)
            if decided is False:
                raise Rejected(f"{name}: the value of step {i} " +
                               ("is zero" if want == "nonzero" else f"is not {want}"))
            pending = pending or (None if decided else f"{name} (step {i}) {want}")
        if not agreed:
            i, ours, claim_id = match
            differs = Rejected(f"residual: the program's value (step {i}) differs from the checker's "
                               f"own formula for {claim_id}: not the claim's program")
            if sign(ours - bounds[i][0]) < 0 or sign(bounds[i][1] - ours) < 0:
                raise differs
            same = True if type(vals[i]) is Fraction else field.equals(i, ours)
            if same is None:
                raise Rejected(f"residual: the program's value (step {i}) has no exact value in "
                               "Q(√r1, ..., √rk) within the checker's limits, so its agreement with "
                               f"the checker's own formula for {claim_id} cannot be established")
            if not same:
                raise differs
            agreed = True
        if pending is None:
            if seen is not None:  # the facts' final enclosures, for the caller
                seen.update(bounds)
            return True
    raise Rejected(f"undecided at {PRECISIONS[-1]} bits: {pending}")


def enclosure(doc: dict, residual: int, want: str, seen: dict) -> str:
    """The engine's enclosure of the residual, if the certificate states one (with
    transcendental steps it does): {"bits": b, "lo": q, "hi": q}.  It must show the
    refuting sign and meet the checker's own enclosure; the verdict never rests on it (the
    checker decided the sign itself), but a certificate that states a false interval is
    rejected.  Returns the words for the accepted line."""
    item = doc["obligations"][-1]
    if "enclosure" not in item:
        return ""
    stated = keys(item["enclosure"], "residual enclosure", {"bits", "lo", "hi"})
    bits = stated["bits"]
    if type(bits) is not int or not 1 <= bits <= 1 << 20:
        raise Rejected("residual enclosure: bits must be an integer from 1 to 2^20")
    lo, hi = rational(stated["lo"], "residual enclosure lo"), rational(stated["hi"], "residual enclosure hi")
    if lo > hi or not DECIDE[want](lo, hi):
        raise Rejected(f"residual enclosure: [{show(stated['lo'])}, {show(stated['hi'])}] does not "
                       f"show the residual {want}")
    ours = seen[residual]
    if hi < ours[0] or lo > ours[1]:
        raise Rejected("residual enclosure: disjoint from the checker's own enclosure of the residual")
    return f"; the engine's enclosure at {bits} bits agrees"


def read_claim(doc: dict) -> tuple:
    """The claim object, the declared variables and the instance's values."""
    # "equalities" (a count) only where the claim has equality hypotheses (older certificates: none)
    claim = keys(doc["claim"], "claim", CLAIM, {"equalities"})
    if "equalities" in claim and (type(claim["equalities"]) is not int
                                  or not 1 <= claim["equalities"] <= MAX_STEPS):
        raise Rejected(f"claim.equalities: expected an integer from 1 to {MAX_STEPS}")
    claim_texts(claim, SIGN)
    variables = declared(claim["variables"])
    formula = formulas.bound(claim)  # None for a user's claim
    values = bind(variables, doc["instance"], stated_sizes(doc["sizes"], variables))  # bind: an object
    return claim, values, formula


def read_program(doc: dict) -> tuple:
    """Everything but the arithmetic: structure, seal, claim, instance, steps and
    obligations.  Returns (claim, program, variables, ops, facts, formula)."""
    keys(doc, "document", TOP)
    # "equalities" only where the claim has equality hypotheses (older certificates: none)
    program = keys(doc["program"], "program", {"steps", "residual", "hypotheses"}, {"equalities"})
    for i, item in enumerate(array(doc["obligations"], "obligations", MAX_STEPS + 1)):
        keys(item, f"obligations[{i}]", {"fact", "value", "sign"}, {"enclosure"})
    check_envelope(doc)
    claim, variables, formula = read_claim(doc)
    if doc["verdict"] != "refuted":
        raise Rejected("document verdict: a program certificate can only say \"refuted\"")
    ops = parse_steps(program["steps"], variables)
    hyps = array(program["hypotheses"], "program.hypotheses", MAX_STEPS)
    facts = [(f"hypothesis {n}", h, "positive") for n, h in enumerate(hyps)]
    # bound by the claim: a certificate cannot drop its claim's equality hypotheses, nor add any
    count = claim.get("equalities", 0)
    if count and "equalities" not in program:
        raise Rejected(f"program: the claim has {count} equality hypotheses, but program.equalities "
                       "is missing")
    if "equalities" in program:
        if not count:
            raise Rejected("program.equalities: the claim states no equality hypotheses "
                           "(claim.equalities is missing)")
        equalities = array(program["equalities"], "program.equalities", MAX_STEPS, count)
        facts += [(f"equality {n}", e, "zero") for n, e in enumerate(equalities)]
    facts.append(("residual", program["residual"], SIGN[claim["kind"]]))
    for i, (item, (name, step, want)) in enumerate(zip(array(doc["obligations"], "obligations",
                                                             len(facts), len(facts)), facts)):
        if type(step) is not int or not 0 <= step < len(ops):
            raise Rejected(f"program: {name} is not the index of one of the {len(ops)} steps")
        expected = {"fact": name.split()[0], "value": step, "sign": want}
        if "enclosure" in item and name != "residual":
            raise Rejected(f"obligations[{i}]: only the residual's obligation has an enclosure")
        if type(item["value"]) is not int or {k: v for k, v in item.items() if k != "enclosure"} != expected:
            raise Rejected(f"obligations[{i}]: expected fact {expected['fact']}, value {step}, "
                           f"sign {want}")
    return claim, program, variables, ops, facts, formula


def check_program(doc: dict) -> str:
    """A program certificate; returns what was established, and what is trusted."""
    claim, program, variables, ops, facts, formula = read_program(doc)
    seen, want, match = {}, SIGN[claim["kind"]], None
    if formula is not None:
        ours = formula(variables)  # checks the claim's hypotheses (its domains were checked)
        if not DECIDE[want](sign(ours), sign(ours)):
            raise Rejected(f"residual: by the checker's own formula for {claim['id']} the residual is "
                           f"{('negative', 'zero', 'positive')[sign(ours) + 1]}, so the claim holds here")
        match = (program["residual"], ours, claim["id"])
    evaluate(ops, facts, match, seen=seen)
    agrees = enclosure(doc, program["residual"], want, seen)
    if formula is None:
        return f"{claim['id']} refuted (trusting program {program_digest(program)[:23]}{agrees})"
    return (f"{claim['id']} refuted (its residual by the checker's own formula; the program "
            f"agrees exactly{agrees})")


MAX_INLINE, MAX_LINES = 80, 400  # --show-program: linear in the steps, and capped


def render(program: dict) -> list[str]:
    """A checked program as infix lines for a reader: a value used once is written where
    it is used, unless its text is long, so the lines are the shared or long values,
    the hypotheses and the residual; each line is short, so the work is linear.  At most
    MAX_LINES lines: the first and last halves, with the number left out between."""
    steps = program["steps"]
    args_of = [() if s[0] in ("input", "const") else s[1:2] if s[0] == "pow" else s[1:] for s in steps]
    uses = [0] * len(steps)
    for a in args_of:
        for j in a:
            uses[j] += 1
    out, head, tail, count = [], [], deque(maxlen=MAX_LINES // 2), 0

    def emit(line):
        nonlocal count
        count += 1
        (head if len(head) < MAX_LINES // 2 else tail).append(line)

    for k, (op, *args) in enumerate(steps):
        a = [out[j] for j in args_of[k]]
        if op in ("input", "const"):
            text = args[0] + "".join(f"[{i}]" for i in args[1:])
        elif op in ("add", "sub", "mul", "div"):
            text = f"({a[0]} {'+-*/'[('add', 'sub', 'mul', 'div').index(op)]} {a[1]})"
        elif op == "guard":  # absent where the condition is < 0 (min skips it)
            text = f"({a[0]} if {a[1]} >= 0)"
        else:
            text = (f"{a[0]}^{args[1]}" if op == "pow" else "pi" if op == "pi" else
                    f"{op}({', '.join(a)})")
        if op not in ("input", "const") and (uses[k] > 1 or len(text) > MAX_INLINE):
            emit(f"v{k} = {text}")
            text = f"v{k}"
        out.append(text)
    for h in program["hypotheses"]:
        emit(f"hypothesis: {out[h]} > 0")
    for e in program.get("equalities", ()):
        emit(f"equality: {out[e]} = 0")
    emit(f"residual: {out[program['residual']]}")
    skipped = count - len(head) - len(tail)
    return head + ([f"... {skipped} lines left out ..."] if skipped else []) + list(tail)
