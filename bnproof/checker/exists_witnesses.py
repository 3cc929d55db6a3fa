"""Witness certificates: the witnesses an existential claim's search found,
each confirmed here, exactly.

A claim "for every x meeting the hypotheses there is p with every residual
r_i(x, p) >= 0 (> 0, = 0)" that survives its search has, at each instance drawn,
a witness.  The certificate lists them, grouped in parts of one size each:

  * "sizes", "program" (as in an existential certificate: the existential
    variables are input steps, "residuals" and "hypotheses" index its steps);
  * "hints": one entry per hint of the claim, null where it has none at these
    sizes, else {"steps", "outputs"}: a program over the universal inputs only
    and one output step per existential entry (the existential variables in the
    claim's order, each row-major);
  * "witnessed": [{"instance", "witness"}] (the witness as exact rationals, one
    value per existential variable) or [{"instance", "hint"}] (the witness is that
    hint's program at the instance, which may be irrational).

For each entry this checker binds the instance to the universal variables and
the witness to the existential ones (or composes the hint's program with the
claim's, itself: each existential input becomes a copy of the hint's output),
and decides exactly, as for program certificates: every hypothesis > 0 at x
and every residual with its wanted sign at (x, p), every step they read
defined.  Only the residuals' and hypotheses' cone counts (a step nothing reads
is no part of the claim).  What it establishes is what the search found:
witnesses at these instances, evidence for the claim, never a proof of the
"for every x" part.  As for any user's claim, the program is trusted to be the
claim's (`bnproof check --claim` compares it, and the hints, with the claim
file's), and its digest is named."""

from fractions import Fraction

from .exists_query import cone
from .existential import MAX_ENTRIES, entries, indices, read_claim, zeros
from .farkas import degree
from .parse import Rejected, array, check_envelope, keys, kind_of, sha256_of
from .program import MAX_STEPS, evaluate, parse_steps
from .variables import bind, stated_sizes

TOP = {"format", "version", "bnproof_version", "claim", "parts", "verdict", "digest"}
PART = {"sizes", "program", "hints", "witnessed"}
WANT = {"inequality": "nonnegative", "strict-inequality": "positive", "identity": "zero"}
MAX_PARTS, MAX_HINTS, MAX_WITNESSED = 100, 16, 10_000
MAX_REPLAYED = 4_000_000  # steps replayed over all entries together


def _coordinates(unknowns: list, sizes: dict) -> int:
    total = sum(entries(shape, sizes) for _, shape, _ in unknowns)  # each stops past MAX_ENTRIES
    if total > MAX_ENTRIES:
        raise Rejected(f"claim.exists: more than {MAX_ENTRIES} existential entries at these sizes")
    return total


def compose(hint_steps: list, outputs: list, steps: list, unknown: set, order: dict) -> tuple[list, int]:
    """The claim's steps after the hint's, each existential input replaced by a copy
    (pow 1) of the hint's output for that entry: (steps, offset of the claim's steps).
    `order` maps (name, index...) to the entry's position in `outputs`."""
    offset = len(hint_steps)
    out = list(hint_steps)
    for k, step in enumerate(steps):
        if type(step) is not list or not step or type(step[0]) is not str:
            raise Rejected(f"program.steps[{k}]: expected a list that starts with an operation name")
        op = step[0]
        if op == "input" and len(step) > 1 and step[1] in unknown:
            key = tuple(step[1:])
            if key not in order:
                raise Rejected(f"program.steps[{k}]: no existential entry {step[1]}{list(step[2:])}")
            out.append(["pow", outputs[order[key]], 1])
        elif op in ("input", "const", "pi"):
            out.append(step)
        elif op == "pow":
            out.append(["pow", step[1] + offset if type(step[1]) is int else step[1]] + step[2:])
        else:
            out.append([op] + [j + offset if type(j) is int else j for j in step[1:]])
    return out, offset


def _order(unknowns: list, sizes: dict) -> dict:
    """(name, i, j, ...) -> its position among all existential entries, row-major."""
    order = {}
    for name, shape, _ in unknowns:
        dims = [s if type(s) is int else sizes[s] for s in shape]
        index = [0] * len(dims)
        while True:
            order[(name, *index)] = len(order)
            k = len(dims) - 1
            while k >= 0:
                index[k] += 1
                if index[k] < dims[k]:
                    break
                index[k] = 0
                k -= 1
            if k < 0:
                break
    return order


def _decide(ops: list, residuals: list, hypotheses: list, kind: str, work: list) -> None:
    """Every hypothesis > 0 and every residual of the wanted sign, on the cone only; the
    arithmetic of every entry counts against one work limit (the program checker's)."""
    facts = [(f"hypothesis {n}", h, "positive") for n, h in enumerate(hypotheses)]
    facts += [(f"residual {n}", r, WANT[kind]) for n, r in enumerate(residuals)]
    evaluate(ops, facts, work=work)


def _live_only(ops: list, steps: list, outputs: list) -> list:
    live = cone(steps, outputs)
    zero = ("const", (), Fraction(0))
    return [o if live[k] else zero for k, o in enumerate(ops)]


def check_witnesses(doc: dict) -> str:
    keys(doc, "document", TOP)
    check_envelope(doc)
    if doc["verdict"] != "witnessed":
        raise Rejected("document verdict: a witness certificate can only say \"witnessed\"")
    claim, variables, unknowns = read_claim(doc)
    unknown = {name for name, _, _ in unknowns}
    parts = array(doc["parts"], "parts", MAX_PARTS)
    if not parts:
        raise Rejected("parts: a witness certificate lists at least one part")
    replayed, work, total, by_hint, digests = [0], [0], 0, 0, []
    for p, part in enumerate(parts):
        n, h = _part(part, f"parts[{p}]", claim, variables, unknowns, unknown, replayed, work)
        total, by_hint = total + n, by_hint + h
        digests.append(sha256_of(part["program"])[:23])
    hinted = f", {by_hint} of them a hint's program" if by_hint else ""
    return (f"{claim['id']} witnessed (a witness confirmed exactly at each of {total} instances meeting "
            f"the hypotheses{hinted}: evidence, not a proof; trusting program "
            f"{', '.join(dict.fromkeys(digests))})")


def _part(part, where: str, claim: dict, variables, unknowns, unknown: set, replayed: list,
          work: list) -> tuple[int, int]:
    keys(part, where, PART)
    sizes = stated_sizes(part["sizes"], variables + unknowns)
    count = _coordinates(unknowns, sizes)
    order = _order(unknowns, sizes)
    program = keys(part["program"], where + ".program", {"steps", "residuals", "hypotheses"})
    steps = array(program["steps"], where + ".program.steps", MAX_STEPS)
    residuals = indices(program["residuals"], where + ".program.residuals", len(steps))
    hypotheses = indices(program["hypotheses"], where + ".program.hypotheses", len(steps))
    if not residuals:
        raise Rejected(f"{where}.program.residuals: expected at least one residual")
    hints = array(part["hints"], where + ".hints", MAX_HINTS)
    entries = array(part["witnessed"], where + ".witnessed", MAX_WITNESSED)
    if not entries:
        raise Rejected(f"{where}.witnessed: a part lists at least one witness")
    by_hint, used, first = 0, set(), None
    for e, entry in enumerate(entries):
        at = f"{where}.witnessed[{e}]"
        if type(entry) is not dict:
            raise Rejected(f"{at}: expected an object, got {kind_of(entry)}")
        hinted = "hint" in entry
        keys(entry, at, {"instance", "hint"} if hinted else {"instance", "witness"})
        values = bind(variables, entry["instance"], sizes)
        first = values if first is None else first
        if e == 0:  # the program itself, once: valid steps, hypotheses that read x alone
            parse_steps(steps, {**values, **{name: zeros(shape, sizes) for name, shape, _ in unknowns}})
            deg = degree(steps, unknown)
            for n, i in enumerate(hypotheses):
                if deg[i]:
                    raise Rejected(f"{where}: hypothesis {n} depends on an existential variable (step {i})")
        if hinted:
            k = entry["hint"]
            if type(k) is not int or not 0 <= k < len(hints) or hints[k] is None:
                raise Rejected(f"{at}.hint: not the index of one of this part's hints")
            used.add(k)
            hint_steps, outputs = _hint(hints[k], f"{where}.hints[{k}]", count, values)
            composed, offset = compose(hint_steps, outputs, steps, unknown, order)
            ops = parse_steps(composed, values)
            res, hyp = [offset + r for r in residuals], [offset + h for h in hypotheses]
            by_hint += 1
        else:
            witness = bind(unknowns, entry["witness"], sizes)
            ops = parse_steps(steps, {**values, **witness})
            res, hyp, composed = residuals, hypotheses, steps
        replayed[0] += len(ops)
        if replayed[0] > MAX_REPLAYED:
            raise Rejected(f"more than {MAX_REPLAYED} steps to replay over all witnesses, beyond the "
                           "checker's limit")
        try:
            _decide(_live_only(ops, composed, res + hyp), res, hyp, claim["kind"], work)
        except Rejected as err:
            raise Rejected(f"{at}: {err}") from None
    for k, hint in enumerate(hints):  # a hint no witness uses is read all the same: no unread bytes
        if hint is not None and k not in used:
            _hint(hint, f"{where}.hints[{k}]", count, first)
    return len(entries), by_hint


def _hint(hint, where: str, count: int, values: dict) -> tuple[list, list]:
    """A hint's (steps, outputs), its steps parsed over the instance's values: the hint
    reads x alone, so an existential name is no input it can bind."""
    hint = keys(hint, where, {"steps", "outputs"})
    hint_steps = array(hint["steps"], where + ".steps", MAX_STEPS)
    outputs = indices(hint["outputs"], where + ".outputs", len(hint_steps), count)
    parse_steps(hint_steps, values)
    return hint_steps, outputs
