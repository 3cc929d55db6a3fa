"""Proof certificates: a claim proved for every batch size m (docs/certificates.md,
"Proof certificates").

The checker re-derives the residual's normal form from the certificate's
symbolic-length program (symbolic_program.py, symbolic_length.py) and checks what the
proof's method asks: a normal form 0 (method "zero"), or nonnegative.py, sos.py,
substitution.py.  It then instantiates the program at the witness's m (instantiate.py)
and evaluates it exactly (program.py): every step defined and every hypothesis > 0
there, so the statement is not vacuous.  Nothing is taken from the proof's method but
what it asks to be checked.  Method every-d (every_d.py) reads its claim, statement and
witness with this module's readers.

What "proved for every m" establishes: at every m >= 1 and every input in the declared
domains where every step of the program is defined (every divisor != 0, every radicand
>= 0, every differentiated square root > 0) and every hypothesis is > 0, the residual
is 0 (identity), or >= 0 (> 0 for a strict claim).  That the program is the claim's
residual is trusted, as for a user's refutation, and the line names the program's
digest; `bnproof check` compares it with the claim's own trace."""

from fractions import Fraction

from . import program as fixed_program
from .instantiate import instantiate
from .live_steps import require_read
from .named import REFUTED, named  # noqa: F401 - REFUTED: the papers' claims no proof names
from .nonnegative import Manifest, check_nonnegative, divisors, index  # noqa: F401 - Manifest, divisors: as before
from .parse import MAX_DEPTH, Rejected, array, check_envelope, keys, rational, sha256_of, tensor
from .program import SIGN
from .roots import sign_facts
from .sos import check_sos
from .substitution import check_substitution
from .symbolic_program import Evaluator, read_inputs, read_steps
from .variables import declared

TOP = {"format", "version", "bnproof_version", "kind", "claim", "program", "fixed", "proof",
       "witness", "digest"}
PROGRAM = {"inputs", "steps", "residual", "hypotheses", "kind", "strict"}
MAX_FIXED, MAX_WITNESS = 16, 32
KIND = {"identity": ("identity", False), "inequality": ("inequality", False),
        "strict-inequality": ("inequality", True)}
SHAPES = {"S": (), "V": ("m",), "M": ("m", "m")}


def expected_inputs(variables: list, fixed: dict, batch: str = "m") -> list:
    """The program inputs the claim's declared variables give (the shared spec): a scalar;
    a vector of length m; an m x m matrix; an m x d matrix as d column vectors "X:j"; a
    variable without m as its scalar entries "w:j" ("W:i:j").  A vector's or matrix's
    domain other than "symmetric" is dropped (proved for every real entry, so for any)."""
    out = []
    for name, shape, domain in variables:
        if shape == []:
            out.append([name, "scalar", domain])
        elif shape == [batch]:  # entries > 0 are kept: a manifest sign of every entry
            out.append([name, "vector", "positive" if domain == "positive" else "real"])
        elif shape == [batch, batch]:
            out.append([name, "matrix", "symmetric" if domain == "symmetric" else "real"])
        elif len(shape) == 2 and shape[0] == batch and shape[1] in fixed and domain != "symmetric":
            kept = "positive" if domain == "positive" else "real"
            out += [[f"{name}:{j}", "vector", kept] for j in range(fixed[shape[1]])]
        elif batch not in shape and all(s in fixed for s in shape) and domain != "symmetric":
            cells = [""]
            for s in shape:
                cells = [f"{c}:{j}" for c in cells for j in range(fixed[s])]
            if len(cells) > MAX_FIXED * MAX_FIXED:
                raise Rejected(f"claim.variables: {name} has more than {MAX_FIXED ** 2} entries")
            out += [[name + c, "scalar", domain] for c in cells]
        else:
            raise Rejected(f"claim.variables: {name} of shape {shape} ({domain}) is outside the "
                           "symbolic-length fragment")
    return out


def batch_size(value, variables: list) -> str:
    """The name of the batch size: m when a shape uses it, else the one size name of the
    shapes that the certificate's fixed sizes leave out (the prover's rule picks it from
    the claim, symbolic_m/trace.py; any choice is sound here, since the proof is of the
    program at every length of that axis, and `bnproof check` binds it to the claim)."""
    names = {s for _, shape, _ in variables for s in shape if type(s) is str}
    if "m" in names or type(value) is not dict:
        return "m"
    left = sorted(names - set(value))
    return left[0] if len(left) == 1 else "m"


def read_fixed(value, variables: list, batch: str = "m") -> dict:
    """fixed: every size name but the batch size that the shapes use, each an integer
    1..16 (a literal integer size is named by itself)."""
    names = {s for _, shape, _ in variables for s in shape if type(s) is str and s != batch}
    fixed = keys(value, "fixed", names)
    for name, n in fixed.items():
        if type(n) is not int or not 1 <= n <= MAX_FIXED:
            raise Rejected(f"fixed.{name}: expected an integer from 1 to {MAX_FIXED}")
    literal = {s: s for _, shape, _ in variables for s in shape if type(s) is int}
    return {**fixed, **literal}


def read_witness(value, inputs: list, most: dict, shapes: dict) -> tuple[dict, dict]:
    """A witness: its sizes (most: "m", and "d" for method every-d, each with its largest
    value) and its inputs, each exact, of the shape shapes[type] and in its domain."""
    witness = keys(value, "witness", {*most, "inputs"})
    sizes = {name: witness[name] for name in most}
    for name, n in sizes.items():
        if type(n) is not int or not 1 <= n <= most[name]:
            raise Rejected(f"witness.{name}: {' and '.join(most)} must be "
                           f"{'integers' if len(most) > 1 else 'an integer'} from 1 to "
                           f"{' and '.join(str(largest) for largest in most.values())}")
    given = keys(witness["inputs"], "witness.inputs", {n for n, _, _ in inputs})
    values = {}
    for name, kind, domain in inputs:
        path = f"witness.inputs.{name}"
        value = tensor(given[name], path) if type(given[name]) is list else rational(given[name], path)
        shape = shapes[kind]
        if not fits(value, [sizes[axis] for axis in shape]):
            raise Rejected(f"{path}: expected a {('number', 'vector', 'matrix')[len(shape)]} at "
                           f"{said_at(sizes)} (shape {shape})")
        entries = value if type(value) is list else [value]  # a domain "positive" is of a scalar or vector
        if domain == "positive" and any(x <= 0 for x in entries) or domain == "nonzero" and value == 0:
            raise Rejected(f"{path}: outside its domain ({domain})")
        if domain == "symmetric" and any(value[i][j] != value[j][i] for i in range(len(value)) for j in range(i)):
            raise Rejected(f"{path}: not symmetric")
        values[name] = value
    return sizes, values


def fits(value, lengths: list) -> bool:
    """value is a Fraction, or nested lists of them of these lengths."""
    if not lengths:
        return type(value) is Fraction
    return type(value) is list and len(value) == lengths[0] and all(fits(x, lengths[1:]) for x in value)


def said_at(sizes: dict) -> str:
    return ", ".join(f"{name} = {n}" for name, n in sizes.items())


def evaluate_witness(steps: list, scalars: list, values: dict, hyps: list, equalities: list = ()) -> None:
    """The program written out at the witness's sizes (scalars[k]: program step k's scalar
    step), evaluated exactly: every step defined, every hypothesis > 0 and every equality
    exactly 0 (program.evaluate; an undecided sign rejects)."""
    facts = [(f"witness: hypothesis {i}", scalars[h], "positive") for i, h in enumerate(hyps)]
    facts += [(f"witness: equality {i}", scalars[e], "zero") for i, e in enumerate(equalities)]
    fixed_program.evaluate(fixed_program.parse_steps(steps, values), facts)  # it runs every step: each one is defined


def assumptions(inputs: list, hyps: list, equalities: int = 0) -> str:
    said = {"nonzero": "!= 0", "positive": "> 0", "symmetric": "symmetric"}
    parts = [f"{n} {said[d]}" for n, _, d in inputs if d in said]
    if hyps:
        parts.append(f"{len(hyps)} hypothes{'is' if len(hyps) == 1 else 'es'} > 0")
    if equalities:
        parts.append(f"{equalities} equalit{'y' if equalities == 1 else 'ies'} = 0")
    return ", ".join(parts + ["every step defined"])


def read_claim(doc: dict, equalities: bool = True) -> tuple[dict, dict]:
    """The envelope and seal, the claim object (its name and kind) and the program's keys
    and kind, for every proof method but moments-n; equalities: whether the claim may
    state equality hypotheses (method every-d: not).  Returns (claim, program)."""
    keys(doc, "document", TOP)
    check_envelope(doc)
    if doc["kind"] != "proof":
        raise Rejected("kind: a proof certificate says \"proof\"")
    # "equalities" (their count) only where the claim has equality hypotheses
    optional = {"equalities"} if equalities and type(doc["claim"]) is dict and "equalities" in doc["claim"] else set()
    claim = keys(doc["claim"], "claim", {"id", "source", "statement", "kind", "variables"} | optional)
    named(claim, SIGN)
    program = keys(doc["program"], "program", PROGRAM | ({"equalities"} if equalities and type(doc["program"]) is dict
                                                         and "equalities" in doc["program"] else set()))
    if (program["kind"], program["strict"]) != KIND[claim["kind"]]:
        raise Rejected("program: kind and strict differ from the claim's kind")
    return claim, program


def read_outputs(program: dict, types: list, scalar) -> tuple[int, list]:
    """The residual and the hypotheses: steps whose type is `scalar` ("S"; () for every-d)."""
    residual = index(program["residual"], "program.residual", len(types), types, scalar)
    hyps = [index(h, f"program.hypotheses[{i}]", len(types), types, scalar)
            for i, h in enumerate(array(program["hypotheses"], "program.hypotheses", MAX_DEPTH * 4))]
    return residual, hyps


def read_statement(doc: dict) -> tuple:
    """Everything of a proof certificate but its proof and witness: the claim and program
    (read_claim), the fixed sizes and the program's inputs (as the claim's variables
    give) and typed steps.  Returns (claim, inputs, ops, types, residual, hypotheses);
    what the SMT-LIB export at a given m states, whether or not the proof holds."""
    claim, program = read_claim(doc)
    variables = declared(claim["variables"])
    batch = batch_size(doc["fixed"], variables)
    fixed = read_fixed(doc["fixed"], variables, batch)
    inputs = read_inputs(program["inputs"])
    if [list(i) for i in program["inputs"]] != expected_inputs(variables, fixed, batch):
        raise Rejected("program.inputs: not the inputs the claim's declared variables give")
    types = []
    ops = read_steps(program["steps"], inputs, types, "program.steps")
    residual, hyps = read_outputs(program, types, "S")
    equalities = read_equalities(claim, program, ops, types)  # the binding, for every reader
    require_read([args for _, args, _ in ops], [residual, *hyps, *equalities],
                 lambda k: ops[k][0] in ("div", "sqrt", "grad") or ops[k][0] == "pow" and ops[k][2] < 0)
    return claim, inputs, ops, types, residual, hyps


def read_equalities(claim: dict, program: dict, ops: list, types: list) -> list:
    """program.equalities: steps exactly 0 on the claim's instances, as many as the claim
    object says (claim.equalities), so that a certificate can neither drop the claim's
    equality hypotheses nor add any."""
    count = claim.get("equalities", 0)
    if "equalities" not in program:
        if count:
            raise Rejected(f"program: the claim has {count} equality hypotheses, but "
                           "program.equalities is missing")
        return []
    if type(count) is not int or not 1 <= count <= MAX_DEPTH * 4:
        raise Rejected("program.equalities: the claim states no equality hypotheses "
                       "(claim.equalities is missing or not a count)")
    return [index(e, f"program.equalities[{i}]", len(ops), types)
            for i, e in enumerate(array(program["equalities"], "program.equalities", count, count))]


def check_proof(doc: dict) -> str:
    """A proof certificate; returns what was established, what was assumed, and what is
    trusted (the program is the claim's)."""
    claim, inputs, ops, types, residual, hyps = read_statement(doc)
    cid, program = claim["id"], doc["program"]
    equalities = read_equalities(claim, program, ops, types)
    signs = sign_facts(inputs, ops, hyps)
    ev = Evaluator(inputs, signs)
    ev.run(ops, types)
    method = doc["proof"].get("method") if type(doc["proof"]) is dict else None
    strict = claim["kind"] == "strict-inequality"
    if method == "zero":
        keys(doc["proof"], "proof", {"method"})
        said = proved_zero(claim, ev.alg.is_zero(ev.values[residual]))
    elif method in ("nonnegative", "sos"):  # sos: a sum of squares with cases for its pivots (sos.py)
        if claim["kind"] == "identity":
            raise Rejected("proof: an identity needs the method \"zero\"")
        positive = {n for n, t, d in inputs if t == "S" and d == "positive"}
        vectors = frozenset(n for n, t, d in inputs if t == "V" and d == "positive")
        args = (ev, doc["proof"], ops, list(types), residual, set(hyps), positive, strict, vectors)
        said = check_nonnegative(*args) if method == "nonnegative" else check_sos(*args, inputs, signs)
    elif method == "substitution":
        if strict:
            raise Rejected("proof: a residual 0 on the equality set does not prove a strict inequality")
        n = check_substitution(doc["proof"], inputs, ops, list(types), signs, residual, equalities)
        said = (f"= 0 on the equality set ({n} substitution{'s' if n > 1 else ''})"
                + ("" if claim["kind"] == "identity" else ", so >= 0 with equality"))
    else:
        raise Rejected("proof.method: must be \"zero\", \"nonnegative\", \"sos\" or \"substitution\"")
    sizes, values = read_witness(doc["witness"], inputs, {"m": MAX_WITNESS}, SHAPES)
    evaluate_witness(*instantiate(inputs, ops, types, sizes["m"]), values, hyps, equalities)
    at = said_at(dict(sorted(doc["fixed"].items())))
    return (f"{cid} proved for every m{' at ' + at if at else ''}: residual {said} (assuming "
            f"{assumptions(inputs, hyps, len(equalities))}; witness at {said_at(sizes)}; trusting program "
            f"{sha256_of(program)[:23]})")


def proved_zero(claim: dict, zero: bool) -> str:
    """Method zero (every-d's too): the residual's normal form is 0; returns what that proves."""
    if not zero:
        raise Rejected("proof: the residual's normal form is not 0")
    if claim["kind"] == "strict-inequality":
        raise Rejected("proof: the residual is 0, which does not prove a strict inequality")
    return "= 0" if claim["kind"] == "identity" else ">= 0, with equality"

