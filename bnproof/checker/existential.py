"""Existential certificates: a claim "for every x meeting the hypotheses there is p
with every residual r_i(x, p) >= 0 (> 0, = 0)" refuted at one instance x, where
no p exists.

Checked here: the seal, the claim object (its universal "variables" and its
existential "exists", all real), the instance against the universal variables,
the program (the existential variables are inputs too), that no hypothesis
depends on an existential input (structurally) and that each is > 0 at x
(exactly, as for program certificates), and that every operation on x alone is
defined.  Only the steps that the residuals and the hypotheses read (their cone,
computed here) count: a step nothing reads is no part of the claim, and asking
its definedness would rule out witnesses.  Then the non-existence, by one of two
methods:
  * "farkas": the program is affine in p structurally, its coefficients at x are
    exact rationals, and the multipliers prove the system infeasible (farkas.py):
    checked here, with Fractions;
  * "smt": the query must be exactly the one this checker writes for the program
    and the instance (exists_query.py; compared before any arithmetic, as it is
    written, up to the first difference), and z3 and cvc5 are recorded as answering
    unsat.  Their answers are trusted, not checked: the accepted line says so.
As for any user's claim, the program is trusted to be the claim's (`bnproof check
--claim FILE.py` compares it with the claim file's), and its digest is named."""

from fractions import Fraction

from .exists_query import cone, matches
from .farkas import check_multipliers, degree, rows
from .formulas import paper_claim
from .parse import Rejected, array, check_envelope, claim_texts, keys, kind_of, rational, sha256_of
from .program import MAX_STEPS, PRECISIONS, SIGN, Undecided, evaluate, parse_steps, run
from .variables import bind, declared, stated_sizes

TOP = {"format", "version", "bnproof_version", "claim", "sizes", "instance", "program",
       "nonexistence", "verdict", "digest"}
CLAIM = {"id", "source", "statement", "kind", "variables", "exists"}
TRUST = "non-existence confirmed by z3 and cvc5 (not checked by the bnproof kernel)"
SOLVERS = {"z3": "unsat", "cvc5": "unsat"}
MAX_UNKNOWNS = 1000
# every existential entry is built at p = 0 from the sizes alone (no instance data bounds
# it), so a few bytes of "sizes" could ask for 10^20 entries: their number is capped first
MAX_ENTRIES = 100_000
MAX_UNIT_STEPS = 2_000_000  # steps replayed for the rows: (coordinates + 1) x steps
MAX_QUERY = 20 * 1024 * 1024


def read_claim(doc: dict) -> tuple:
    """(claim, universal variables, existential variables)."""
    claim = keys(doc["claim"], "claim", CLAIM)
    claim_texts(claim, SIGN)
    if paper_claim(claim["id"]) is not None:  # the papers' claims have no existential variables
        raise Rejected(f"claim {claim['id']}: reads as the name of a claim of the papers, which an "
                       "existential certificate cannot refute")
    variables, unknowns = declared(claim["variables"]), declared(claim["exists"])
    if not unknowns:
        raise Rejected("claim.exists: an existential certificate needs an existential variable")
    names = {name for name, _, _ in variables}
    for name, _, domain in unknowns:
        if name in names:
            raise Rejected(f"claim.exists: {name} is also a universal variable")
        if domain != "real":
            raise Rejected(f"claim.exists: {name} must be real")
    return claim, variables, unknowns


def entries(shape: list, sizes: dict) -> int:
    n = 1
    for s in shape:
        n *= s if type(s) is int else sizes[s]
        if n > MAX_ENTRIES:  # stop before the product itself grows without bound
            break
    return n


def zeros(shape: list, sizes: dict):
    if not shape:
        return Fraction(0)
    n = shape[0] if type(shape[0]) is int else sizes[shape[0]]
    return [zeros(shape[1:], sizes) for _ in range(n)]


def indices(value, path: str, steps: int, exactly: int | None = None) -> list:
    """A list of indices of the `steps` steps (exactly that many, with `exactly`)."""
    out = array(value, path, MAX_STEPS, exactly)
    for i in out:
        if type(i) is not int or not 0 <= i < steps:
            raise Rejected(f"{path}: {kind_of(i) if type(i) is not int else i} is not the index of a step")
    return out


def exact_values(ops: list, work: list) -> list:
    """Every step's value, rational where exact, at the first precision that decides
    every side condition."""
    for b in PRECISIONS:
        try:
            return run(ops, b, work)
        except Undecided:
            continue
    raise Rejected(f"a side condition is undecided at {PRECISIONS[-1]} bits")


def read_existential(doc: dict) -> tuple:
    """Everything but the arithmetic, and the cone of the residuals and hypotheses, which
    this checker computes itself (a certificate states no such set): (claim, values,
    unknown names, program, ops, residuals, hypotheses, degrees, live)."""
    keys(doc, "document", TOP)
    check_envelope(doc)
    claim, variables, unknowns = read_claim(doc)
    if doc["verdict"] != "refuted":
        raise Rejected("document verdict: an existential certificate can only say \"refuted\"")
    sizes = stated_sizes(doc["sizes"], variables + unknowns)
    values = bind(variables, doc["instance"], sizes)  # bind: an object, exactly the variables
    program = keys(doc["program"], "program", {"steps", "residuals", "hypotheses"})
    if sum(entries(shape, sizes) for _, shape, _ in unknowns) > MAX_ENTRIES:
        raise Rejected(f"claim.exists: more than {MAX_ENTRIES} existential entries at these sizes, "
                       "beyond the checker's limit")
    at_zero = {name: zeros(shape, sizes) for name, shape, _ in unknowns}
    ops = parse_steps(program["steps"], {**values, **at_zero})
    residuals = indices(program["residuals"], "program.residuals", len(ops))
    hypotheses = indices(program["hypotheses"], "program.hypotheses", len(ops))
    if not residuals:
        raise Rejected("program.residuals: expected at least one residual")
    unknown = {name for name, _, _ in unknowns}
    deg = degree(program["steps"], unknown)
    for n, h in enumerate(hypotheses):
        if deg[h]:
            raise Rejected(f"hypothesis {n} depends on an existential variable (step {h})")
    live = cone(program["steps"], residuals + hypotheses)
    return claim, values, unknown, program, ops, residuals, hypotheses, deg, live


def check_existential(doc: dict) -> str:
    claim, values, unknown, program, ops, residuals, hypotheses, deg, live = read_existential(doc)
    kind, method = claim["kind"], doc["nonexistence"]
    if type(method) is not dict or method.get("method") not in ("farkas", "smt"):
        raise Rejected("nonexistence.method: must be \"farkas\" or \"smt\"")
    if method["method"] == "smt":  # before any arithmetic: a forged query costs its length only
        _query(method, program["steps"], values, unknown, residuals, kind)
    # every value on x alone is defined (and the hypotheses hold) with the p-dependent
    # steps left out (they read only p-free values, so their operands are checked here),
    # and the steps nothing reads too: no part of the claim, their definedness is not asked
    zero = ("const", (), Fraction(0))
    ops = [o if live[k] else zero for k, o in enumerate(ops)]
    facts = [(f"hypothesis {n}", h, "positive") for n, h in enumerate(hypotheses)]
    evaluate([zero if deg[k] else o for k, o in enumerate(ops)], facts)
    trusted = f"trusting program {sha256_of(program)[:23]}"
    if method["method"] == "farkas":
        what = _farkas(method, ops, program["steps"], residuals, deg, unknown, kind)
        return f"{claim['id']} refuted (no witness: a Farkas certificate, {what}; {trusted})"
    # the answers are the certificate's word: a forger writes "unsat" as easily, so the line
    # must not read as if this checker had heard the solvers say it
    return (f"{claim['id']} refuted (no witness: {TRUST}, as the certificate records: not re-run by "
            f"this checker; query {sha256_of(method['query'])[:23]}; "
            f"{trusted})")


def _query(method: dict, steps: list, values: dict, unknown: set, residuals: list, kind: str) -> None:
    keys(method, "nonexistence", {"method", "query", "answers", "trust"})
    if method["answers"] != SOLVERS:
        raise Rejected("nonexistence.answers: both z3 and cvc5 must have answered unsat")
    if method["trust"] != TRUST:
        raise Rejected(f"nonexistence.trust: must say \"{TRUST}\"")
    if type(method["query"]) is not str or len(method["query"]) > MAX_QUERY:
        raise Rejected(f"nonexistence.query: expected the SMT-LIB text, at most {MAX_QUERY} characters")
    if not matches(method["query"], steps, values, unknown, residuals, kind):
        raise Rejected("nonexistence.query: not the query of this program and instance")


def _farkas(method: dict, ops: list, steps: list, residuals: list, deg: list, unknown: set,
            kind: str) -> str:
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
    at_zero = exact_values(ops, work)
    at_units = []
    for reads in coordinates.values():
        unit = list(ops)
        for k in reads:
            unit[k] = ("const", (), Fraction(1))
        at_units.append(exact_values(unit, work))
    a, b = rows(at_zero, at_units, residuals)
    multipliers = array(method["multipliers"], "nonexistence.multipliers", MAX_STEPS)
    y = [rational(v, f"nonexistence.multipliers[{i}]") for i, v in enumerate(multipliers)]
    return check_multipliers(y, a, b, kind)
