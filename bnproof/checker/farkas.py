"""Farkas certificates: no real point p satisfies a_i . p + b_i >= 0 for every i.

The rows are not read from the certificate: they are re-derived from its program.
The program must be affine in the existential inputs, STRUCTURALLY (degree()):
then each residual r_i(p) is exactly b_i + sum_j a_ij p_j with b_i = r_i(0) and
a_ij = r_i(e_j) - b_i, so evaluating the program at p = 0 and at each unit vector
e_j gives the rows, provided every such value is an exact rational (an interval
is refused: the coefficients must be rational at the instance).

Multipliers y (one per residual) then prove infeasibility (Farkas' lemma):
  inequality (r_i >= 0 wanted):        y >= 0, sum y_i a_i = 0, sum y_i b_i < 0
  strict-inequality (r_i > 0 wanted):  y >= 0, y != 0, sum y_i a_i = 0, sum y_i b_i <= 0
  identity (r_i = 0 wanted):           any y, sum y_i a_i = 0, sum y_i b_i != 0
since for a p satisfying every row, sum y_i r_i(p) = sum y_i b_i would be >= 0,
> 0, or 0 respectively."""

from fractions import Fraction

from .parse import Rejected, array, keys, rational
from .program import MAX_STEPS, PRECISIONS, Undecided, run

LINEAR = {"add", "sub", "neg"}
TOO_HIGH = 2  # any degree above 1: not affine
MAX_UNKNOWNS = 1000
MAX_UNIT_STEPS = 2_000_000  # steps replayed for the rows: (coordinates + 1) x steps


def degree(steps: list, unknown: set) -> list[int]:
    """Each step's degree in the existential inputs (names in `unknown`), capped at
    TOO_HIGH; anything but a polynomial operation on p-dependent operands, or a
    division by one, is TOO_HIGH.  The steps are already validated (parse_steps)."""
    out = []
    for step in steps:
        op = step[0]
        if op == "input":
            d = 1 if step[1] in unknown else 0
        elif op == "const":
            d = 0
        elif op == "pow":
            d = min(TOO_HIGH, out[step[1]] * step[2])
        else:
            ds = [out[j] for j in step[1:]]
            if op in LINEAR:
                d = max(ds)
            elif op == "mul":
                d = min(TOO_HIGH, sum(ds))
            elif op == "div":
                d = ds[0] if ds[1] == 0 else TOO_HIGH
            else:  # sqrt, abs, max, min: defined and affine only on p-free operands
                d = 0 if not any(ds) else TOO_HIGH
        out.append(d)
    return out


def check_farkas(method: dict, ops: list, steps: list, residuals: list, deg: list, unknown: set,
                 kind: str) -> str:
    """A "farkas" nonexistence: the rows re-derived from `ops` (the program at p = 0, the
    steps nothing reads already 0), then the multipliers; says what they show."""
    keys(method, "nonexistence", {"method", "multipliers"})
    for i in residuals:
        if deg[i] > 1:
            raise Rejected(f"nonexistence: residual step {i} is not affine in the existential "
                           "variables, so a Farkas certificate cannot apply")
    coordinates: dict = {}  # (name, index) -> the steps that read it
    for k, step in enumerate(steps):
        if step[0] == "input" and step[1] in unknown:
            coordinates.setdefault((step[1], tuple(step[2:])), []).append(k)
    if len(coordinates) > MAX_UNKNOWNS or (len(coordinates) + 1) * len(ops) > MAX_UNIT_STEPS:
        raise Rejected(f"nonexistence: {len(coordinates)} existential coordinates over {len(ops)} steps, "
                       "beyond the checker's limit")
    work = [0]
    at_zero = _exact_values(ops, work)
    at_units = []
    for reads in coordinates.values():
        unit = list(ops)
        for k in reads:
            unit[k] = ("const", (), Fraction(1))
        at_units.append(_exact_values(unit, work))
    for where, values in [("p = 0", at_zero)] + [(f"p = e_{j}", v) for j, v in enumerate(at_units)]:
        for i in residuals:
            if type(values[i]) is not Fraction:
                raise Rejected(f"nonexistence: residual step {i} is not an exact rational at {where}: "
                               "a Farkas certificate needs rational coefficients")
    b = [at_zero[i] for i in residuals]
    a = [[values[i] - at_zero[i] for values in at_units] for i in residuals]
    multipliers = array(method["multipliers"], "nonexistence.multipliers", MAX_STEPS)
    y = [rational(v, f"nonexistence.multipliers[{i}]") for i, v in enumerate(multipliers)]
    return check_multipliers(y, a, b, kind)


def _exact_values(ops: list, work: list) -> list:
    """Every step's value, rational where exact, at the first precision that decides
    every side condition."""
    for b in PRECISIONS:
        try:
            return run(ops, b, work)
        except Undecided:
            continue
    raise Rejected(f"a side condition is undecided at {PRECISIONS[-1]} bits")


def check_multipliers(y: list, a: list, b: list, kind: str) -> str:
    """Raise Rejected unless y proves {p : rows} empty for this kind; say what y shows."""
    if len(y) != len(b):
        raise Rejected(f"nonexistence.multipliers: expected {len(b)} (one per residual), got {len(y)}")
    if kind != "identity":
        bad = next((i for i, v in enumerate(y) if v < 0), None)
        if bad is not None:
            raise Rejected(f"nonexistence.multipliers[{bad}] is negative: an inequality needs y >= 0")
    columns = len(a[0]) if a else 0
    for j in range(columns):
        if sum(y[i] * a[i][j] for i in range(len(y))) != 0:
            raise Rejected(f"nonexistence: sum y_i a_i is not 0 in coordinate {j}: the multipliers "
                           "do not cancel the existential variables")
    total = sum((y[i] * b[i] for i in range(len(y))), Fraction(0))
    if kind == "inequality" and not total < 0:
        raise Rejected(f"nonexistence: sum y_i b_i = {short(total)} is not negative")
    if kind == "strict-inequality" and (not total <= 0 or not any(y)):
        raise Rejected(f"nonexistence: sum y_i b_i = {short(total)} is not <= 0 with y nonzero")
    if kind == "identity" and total == 0:
        raise Rejected("nonexistence: sum y_i b_i is 0, so the system may be consistent")
    return f"sum y_i b_i = {short(total)}"


def short(q: Fraction) -> str:
    text = str(q)
    return text if len(text) <= 40 else text[:37] + "..."
