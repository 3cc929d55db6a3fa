"""Witness certificates: the witnesses an existential claim's search found, each
confirmed here, exactly (docs/certificates.md, "Witness certificates": parts of one
size each, with their program, the claim's hints and the entries witnessed).

The claim and each part's program are read as for an existential certificate
(existential.py: read_claim, read_program).  For each entry this checker binds the
instance to the universal variables and the witness to the existential ones, or
composes the hint's program with the claim's itself (each existential input becomes
a copy of the hint's output), and decides exactly, as for program certificates: every
hypothesis > 0 at x and every residual with its wanted sign at (x, p), every step
they read defined.  Only the residuals' and hypotheses' cone counts (a step nothing
reads is no part of the claim).  What it establishes is what the search found:
witnesses at these instances, evidence for the claim, never a proof of the "for every
x" part.  As for any user's claim, the program is trusted to be the claim's (`bnproof
check --claim` compares it, and the hints, with the claim file's), and its digest is
named."""

import itertools

from .existential import filled, indices, live_only, read_claim, read_program
from .parse import Rejected, array, check_envelope, keys, kind_of, sha256_of
from .program import MAX_STEPS, evaluate, parse_steps
from .variables import bind, stated_sizes

TOP = {"format", "version", "bnproof_version", "claim", "parts", "verdict", "digest"}
PART = {"sizes", "program", "hints", "witnessed"}
WANT = {"inequality": "nonnegative", "strict-inequality": "positive", "identity": "zero"}
MAX_PARTS, MAX_HINTS, MAX_WITNESSED = 100, 16, 10_000
MAX_REPLAYED = 4_000_000  # steps replayed over all entries together


def compose(hint_steps: list, outputs: list, steps: list, positions: dict) -> list:
    """The hint's steps, then the claim's (validated: operands name earlier steps), shifted
    past them, each existential input replaced by a copy (pow 1) of the hint's output for
    that entry.  `positions`: each existential variable's entries numbered row-major
    across all of them, the order of `outputs`."""
    shift, out = len(hint_steps), list(hint_steps)
    for step in steps:
        op = step[0]
        if op == "input" and step[1] in positions:
            at = positions[step[1]]
            for i in step[2:]:
                at = at[i]
            out.append(["pow", outputs[at], 1])
        elif op in ("input", "const"):
            out.append(step)
        else:  # the operands; pow's exponent is no step
            n = 2 if op == "pow" else len(step)
            out.append([op] + [j + shift for j in step[1:n]] + step[n:])
    return out


def check_witnesses(doc: dict) -> str:
    keys(doc, "document", TOP)
    check_envelope(doc)
    if doc["verdict"] != "witnessed":
        raise Rejected("document verdict: a witness certificate can only say \"witnessed\"")
    claim, variables, unknowns = read_claim(doc)
    parts = array(doc["parts"], "parts", MAX_PARTS)
    if not parts:
        raise Rejected("parts: a witness certificate lists at least one part")
    replayed, work, total, by_hint, digests = [0], [0], 0, 0, []
    for p, part in enumerate(parts):
        n, h = _part(part, f"parts[{p}]", claim, variables, unknowns, replayed, work)
        total, by_hint = total + n, by_hint + h
        digests.append(sha256_of(part["program"])[:23])
    hinted = f", {by_hint} of them a hint's program" if by_hint else ""
    return (f"{claim['id']} witnessed (a witness confirmed exactly at each of {total} instances meeting "
            f"the hypotheses{hinted}: evidence, not a proof; trusting program "
            f"{', '.join(dict.fromkeys(digests))})")


def _part(part, where: str, claim: dict, variables, unknowns, replayed: list, work: list) -> tuple[int, int]:
    keys(part, where, PART)
    sizes = stated_sizes(part["sizes"], variables + unknowns)
    hints = array(part["hints"], where + ".hints", MAX_HINTS)
    entries = array(part["witnessed"], where + ".witnessed", MAX_WITNESSED)
    if not entries:
        raise Rejected(f"{where}.witnessed: a part lists at least one witness")
    by_hint = 0
    for e, entry in enumerate(entries):
        at = f"{where}.witnessed[{e}]"
        if type(entry) is not dict:
            raise Rejected(f"{at}: expected an object, got {kind_of(entry)}")
        hinted = "hint" in entry
        keys(entry, at, {"instance", "hint"} if hinted else {"instance", "witness"})
        values = bind(variables, entry["instance"], sizes)
        if e == 0:  # the program and every hint (one no witness uses too: no unread bytes), once
            program, _, residuals, hypotheses, _ = read_program(part["program"], where + ".program", values,
                                                                unknowns, sizes)
            steps, numbers = program["steps"], itertools.count()
            positions = {name: filled(shape, sizes, numbers.__next__) for name, shape, _ in unknowns}
            count = next(numbers)
            read = {k: _hint(h, f"{where}.hints[{k}]", count, values) for k, h in enumerate(hints) if h is not None}
        if hinted:
            k = entry["hint"]
            if type(k) is not int or k not in read:
                raise Rejected(f"{at}.hint: not the index of one of this part's hints")
            hint_steps, outputs = read[k]
            composed = compose(hint_steps, outputs, steps, positions)
            ops = parse_steps(composed, values)
            res, hyp = [len(hint_steps) + i for i in residuals], [len(hint_steps) + i for i in hypotheses]
            by_hint += 1
        else:
            ops = parse_steps(steps, {**values, **bind(unknowns, entry["witness"], sizes)})
            res, hyp, composed = residuals, hypotheses, steps
        replayed[0] += len(ops)
        if replayed[0] > MAX_REPLAYED:
            raise Rejected(f"more than {MAX_REPLAYED} steps to replay over all witnesses, beyond the "
                           "checker's limit")
        facts = [(f"hypothesis {n}", h, "positive") for n, h in enumerate(hyp)]
        facts += [(f"residual {n}", r, WANT[claim["kind"]]) for n, r in enumerate(res)]
        try:  # every entry's arithmetic counts against one work limit, the program checker's
            evaluate(live_only(ops, composed, res + hyp), facts, work=work)
        except Rejected as err:
            raise Rejected(f"{at}: {err}") from None
    return len(entries), by_hint


def _hint(hint, where: str, count: int, values: dict) -> tuple[list, list]:
    """A hint's (steps, outputs), its steps parsed over an instance's values (the first;
    each entry's composed program is parsed over its own): the hint reads x alone, so an
    existential name is no input it can bind."""
    hint = keys(hint, where, {"steps", "outputs"})
    hint_steps = array(hint["steps"], where + ".steps", MAX_STEPS)
    outputs = indices(hint["outputs"], where + ".outputs", len(hint_steps), count)
    parse_steps(hint_steps, values)
    return hint_steps, outputs
