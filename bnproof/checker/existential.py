"""Existential certificates: a claim "for every x meeting the hypotheses there is p
with every residual r_i(x, p) >= 0 (> 0, = 0)" refuted at one instance x, where no p
exists (docs/certificates.md, "Existential certificates").  Also the one reading of
an existential claim and its program that witness certificates (exists_witnesses.py)
share.

Checked here: the seal, the claim object (its universal "variables" and its
existential "exists", all real), the instance against the universal variables,
the program (the existential variables are inputs too), that no hypothesis
depends on an existential input (structurally) and that each is > 0 at x
(exactly, as for program certificates), and that every operation on x alone is
defined.  Only the steps that the residuals and the hypotheses read (their cone,
computed here) count: a step nothing reads is no part of the claim, and asking
its definedness would rule out witnesses.  Then the non-existence, by the method's
own module: "farkas" (farkas.py: checked, with Fractions) or "smt" (exists_query.py:
the query bound to the program and instance, the solvers' answers trusted, and the
accepted line says so).  As for any user's claim, the program is trusted to be the
claim's (`bnproof check --claim FILE.py` compares it with the claim file's), and
its digest is named."""

from fractions import Fraction

from .exists_query import SOLVERS, TRUST, check_query, cone  # noqa: F401 - SOLVERS, TRUST: the writer's
from .farkas import check_farkas, degree
from .formulas import paper_claim
from .parse import Rejected, array, check_envelope, claim_texts, keys, kind_of, sha256_of
from .program import MAX_STEPS, SIGN, evaluate, parse_steps
from .variables import bind, declared, stated_sizes

TOP = {"format", "version", "bnproof_version", "claim", "sizes", "instance", "program",
       "nonexistence", "verdict", "digest"}
CLAIM = {"id", "source", "statement", "kind", "variables", "exists"}
# every existential entry is built at p = 0 from the sizes alone (no instance data bounds
# it), so a few bytes of "sizes" could ask for 10^20 entries: their number is capped first
MAX_ENTRIES = 100_000
ZERO = ("const", (), Fraction(0))  # in place of a step nothing reads


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


def filled(shape: list, sizes: dict, entry):
    """A nested list of this shape, each entry entry(), row-major."""
    if not shape:
        return entry()
    n = shape[0] if type(shape[0]) is int else sizes[shape[0]]
    return [filled(shape[1:], sizes, entry) for _ in range(n)]


def indices(value, path: str, steps: int, exactly: int | None = None) -> list:
    """A list of indices of the `steps` steps (exactly that many, with `exactly`)."""
    out = array(value, path, MAX_STEPS, exactly)
    for i in out:
        if type(i) is not int or not 0 <= i < steps:
            raise Rejected(f"{path}: {kind_of(i) if type(i) is not int else i} is not the index of a step")
    return out


def read_program(value, where: str, values: dict, unknowns: list, sizes: dict) -> tuple:
    """(program, ops with p = 0, residuals, hypotheses, each step's degree in p): valid
    steps over x (`values`) and p, at least one residual, no hypothesis that reads p."""
    if sum(entries(shape, sizes) for _, shape, _ in unknowns) > MAX_ENTRIES:
        raise Rejected(f"claim.exists: more than {MAX_ENTRIES} existential entries at these sizes, "
                       "beyond the checker's limit")
    program = keys(value, where, {"steps", "residuals", "hypotheses"})
    at_zero = {name: filled(shape, sizes, Fraction) for name, shape, _ in unknowns}
    ops = parse_steps(program["steps"], {**values, **at_zero})
    residuals = indices(program["residuals"], where + ".residuals", len(ops))
    hypotheses = indices(program["hypotheses"], where + ".hypotheses", len(ops))
    if not residuals:
        raise Rejected(f"{where}.residuals: expected at least one residual")
    deg = degree(program["steps"], {name for name, _, _ in unknowns})
    for n, h in enumerate(hypotheses):
        if deg[h]:
            raise Rejected(f"{where}: hypothesis {n} depends on an existential variable (step {h})")
    return program, ops, residuals, hypotheses, deg


def live_only(ops: list, steps: list, outputs: list) -> list:
    """ops, with every step outside the outputs' cone a constant 0: no part of the claim."""
    live = cone(steps, outputs)
    return [o if live[k] else ZERO for k, o in enumerate(ops)]


def read_existential(doc: dict) -> tuple:
    """Everything but the arithmetic: (claim, values, unknown names, program, ops at p = 0
    with the steps outside the residuals' and hypotheses' cone 0, residuals, hypotheses,
    degrees).  The cone is this checker's own: a certificate states no such set."""
    keys(doc, "document", TOP)
    check_envelope(doc)
    claim, variables, unknowns = read_claim(doc)
    if doc["verdict"] != "refuted":
        raise Rejected("document verdict: an existential certificate can only say \"refuted\"")
    sizes = stated_sizes(doc["sizes"], variables + unknowns)
    values = bind(variables, doc["instance"], sizes)  # bind: an object, exactly the variables
    program, ops, residuals, hypotheses, deg = read_program(doc["program"], "program", values, unknowns, sizes)
    ops = live_only(ops, program["steps"], residuals + hypotheses)
    return claim, values, {name for name, _, _ in unknowns}, program, ops, residuals, hypotheses, deg


def check_existential(doc: dict) -> str:
    claim, values, unknown, program, ops, residuals, hypotheses, deg = read_existential(doc)
    kind, method = claim["kind"], doc["nonexistence"]
    if type(method) is not dict or method.get("method") not in ("farkas", "smt"):
        raise Rejected("nonexistence.method: must be \"farkas\" or \"smt\"")
    if method["method"] == "smt":  # before any arithmetic: a forged query costs its length only
        check_query(method, program["steps"], values, unknown, residuals, kind)
    # every value on x alone is defined (and the hypotheses hold) with the p-dependent
    # steps left out (they read only p-free values, so their operands are checked here)
    evaluate([ZERO if deg[k] else o for k, o in enumerate(ops)],
             [(f"hypothesis {n}", h, "positive") for n, h in enumerate(hypotheses)])
    trusted = f"trusting program {sha256_of(program)[:23]}"
    if method["method"] == "farkas":
        what = check_farkas(method, ops, program["steps"], residuals, deg, unknown, kind)
        return f"{claim['id']} refuted (no witness: a Farkas certificate, {what}; {trusted})"
    # the answers are the certificate's word: a forger writes "unsat" as easily, so the line
    # must not read as if this checker had heard the solvers say it
    return (f"{claim['id']} refuted (no witness: {TRUST}, as the certificate records: not re-run by "
            f"this checker; query {sha256_of(method['query'])[:23]}; {trusted})")
