"""The judgement of a certificate file that `bnproof check` prints and `bnproof.check`
returns: the independent checker's verdict, the solvers' for an existential
certificate, and, with a claim file, the binding of a program certificate to
it.  It imports no typer and, at import, nothing heavy, so that `bnproof check`
runs cold without them (cli/fast.py, cli/run_check.py)."""

from __future__ import annotations

from pathlib import Path

from ..claims.sizes import sizes_difference


def difference(claims: list, claim_file: Path, doc: dict) -> str | None:
    """The first difference between an accepted program certificate and the claim of its id
    in the claim file (the claim object, then the program traced at the certificate's
    sizes), or None: everything the certificate binds must be the claim file's."""
    from ..certificate.program import claim_object, program_of
    from ..claims.decide import trace

    claim_id = doc["claim"]["id"]
    claim = next((c for c in claims if c.id == claim_id), None)
    if claim is None:
        return f"{claim_file} defines no claim {claim_id}"
    want, have = claim_object(claim), doc["claim"]
    for key in ("source", "statement", "kind"):
        if have[key] != want[key]:
            return f"the claim's {key} differs from that of {claim_id} in {claim_file}"
    for i, (a, b) in enumerate(zip(have["variables"], want["variables"])):
        if a != b:
            return (f"variable {i} is declared {a['name']} {a['shape']} {a['domain']}, but {claim_file} "
                    f"declares {b['name']} {b['shape']} {b['domain']}")
    if len(have["variables"]) != len(want["variables"]):
        return (f"{len(have['variables'])} variables are declared, but {claim_file} declares "
                f"{len(want['variables'])}")
    try:
        traced = program_of(trace(claim, doc["sizes"]))
    except Exception as err:  # noqa: BLE001 - the claim file is the user's code
        return f"{claim_id} in {claim_file} cannot be traced at sizes {doc['sizes']}: {err}"
    steps, theirs = doc["program"]["steps"], traced["steps"]
    if steps != theirs:
        k = next((k for k, (a, b) in enumerate(zip(steps, theirs)) if a != b), min(len(steps), len(theirs)))
        return (f"the program differs from the one {claim_file} gives, from step {k} "
                f"({len(steps)} steps, the claim file's {len(theirs)})")
    # equality hypotheses (absent where the claim has none): a certificate that drops them,
    # in the program and in the claim object together, is consistent but not this claim's
    for key in ("residual", "hypotheses", "equalities"):
        if doc["program"].get(key) != traced.get(key):
            return f"the program's {key} differ from those {claim_file} gives"
    if have.get("equalities") != claim_object(claim, len(traced.get("equalities", ()))).get("equalities"):
        return f"the claim's number of equality hypotheses differs from that of {claim_id} in {claim_file}"
    return None


def proof_difference(claim, doc: dict, where: str) -> str | None:
    """The first difference between an accepted proof certificate and the claim it names:
    the claim object, its fixed sizes and its witness's m in the claim's ranges, then the
    symbolic-length program the engine's tracer gives for it at the certificate's fixed
    sizes (byte for byte), or None."""
    from ..certificate.program import claim_object
    from ..symbolic_m.trace import program_for

    if "exists" in doc["claim"]:  # an existential claim proved through its hint: its own binding
        from ..symbolic_m.exists_hint import bind_difference as hint_difference

        return hint_difference(claim, doc, where, second_reading)
    # the count of equalities is bound below, with the program the claim's trace gives
    if claim_object(claim, len(doc["program"].get("equalities", ()))) != doc["claim"]:
        return f"the claim object differs from that of {claim.id} in {where}"
    why = sizes_difference(claim, doc["fixed"], "the proof is at")
    from ..symbolic_m.trace import batch_name

    batch = batch_name(claim)
    if why is None and batch is not None:  # the witness shows the proof is not vacuous: in the claim's range
        why = sizes_difference(claim, {batch: doc["witness"]["m"]}, "the proof's witness is at")
    if why is not None:
        return why
    if type(doc["proof"]) is dict and doc["proof"].get("method") == "moments-n":  # expectations: own tracer
        from ..symbolic_m.moments_n_prove import bind_difference

        return bind_difference(claim, doc, where, second_reading)
    if type(doc["proof"]) is dict and doc["proof"].get("method") == "every-d":  # every d: own tracer
        from ..symbolic_m.every_d import bind_difference as every_d_difference

        return every_d_difference(claim, doc, where, second_reading)
    try:
        traced = program_for(claim, doc["fixed"])
    except Exception as err:  # noqa: BLE001 - outside the fragment, or the user's code raised
        return f"{claim.id} in {where} has no symbolic-length program at {doc['fixed']}: {err}"
    if traced != doc["program"]:
        return f"the program is not the one {where} gives for {claim.id} (a proof of another program)"
    from ..symbolic_m.crosscheck import gate

    return second_reading(lambda: gate(claim, doc["fixed"], doc["program"]))


def second_reading(ask) -> str | None:
    """The second reading's answer as a reason to reject, or None: the tracer produced the
    program compared above, so a binding that rested on it alone would repeat its mistakes;
    the claim's own code, read without the tracer (claims/second_reading.py), must agree."""
    from ..errors import Disagreement

    try:
        return ask()
    except Disagreement as err:
        return str(err)


def instance_reading(claim, doc: dict) -> str | None:
    """A refutation certificate: the claim's own code must refute at its instance, and its
    program must be the claim's there and at generic instances of the same sizes (for an
    existential certificate: at its instance x, with generic existential values)."""
    from .. import reading
    from ..claims.second_reading import certificate_program

    instance, sizes = doc["instance"], doc["sizes"]
    program = doc["program"]
    if "nonexistence" in doc:
        points = [{**g, **instance} for g in reading.generic_instances(claim, sizes, 2, with_exists=True)]
        program = {"steps": program["steps"], "residual": program["residuals"],
                   "hypotheses": program["hypotheses"]}
        return second_reading(lambda: certificate_program(claim, program, points))
    read = reading.read(claim, instance)
    if read.verdict != reading.REFUTED:
        return (f"the claim's own code, read without the tracer, is {read.verdict} at the certificate's "
                f"instance ({read.detail})")
    points = [instance] + reading.generic_instances(claim, sizes, 2, avoid=[instance])
    # a refutation speaks of its own instance, where the claim's code was just read in full:
    # what the code asked of a value (its text, a comparison) may steer it elsewhere, not there
    return second_reading(lambda: certificate_program(claim, program, points, everywhere=False))


def bind_proof(claims: list | None, claim_file, doc: dict) -> tuple[bool, str | None]:
    """A proof certificate bound to its claim: the claim file's, else the committed claim of
    that id (a paper's); (True, None) for a user's claim with no claim file (the checker's
    line already says the program is trusted)."""
    from ..claims.api import named

    cid = doc["claim"]["id"]
    if claims is not None:
        claim = next((c for c in claims if c.id == cid), None)
        if claim is None:
            return False, f"{claim_file} defines no claim {cid}"
        where = str(claim_file)
    else:
        claim = named(cid)
        if claim is None or claim.id != cid:
            return True, None
        where = "the committed claim files"
    from ..errors import BadInput
    from ..search.space import _check_claim_sizes

    try:  # a range from 0: "every m" is m >= 1, and fuzz and prove refuse such a claim
        _check_claim_sizes(claim)
    except BadInput as err:
        return False, str(err)
    why = proof_difference(claim, doc, where)
    if why is not None:
        return False, why
    # "those of X": X is a file, "the committed claim files" or the API's "the claim given"
    return True, (f"the claim and its program are those of {where}, and its own code read without "
                  "the tracer computes the program at generic instances")


def bind(claims: list, claim_file: Path, doc: dict) -> tuple[bool, str]:
    """Compare an accepted certificate (the document the checker read) with the claim file."""
    if doc.get("kind") == "proof":
        ok, why = bind_proof(claims, claim_file, doc)
        return ok, why or ""
    if doc.get("verdict") == "witnessed":  # an existential claim's witnesses
        from ..certificate.exists_witnesses import bind as bind_witnesses

        return bind_witnesses(claims, claim_file, doc)
    if "program" not in doc:
        return False, "not a program certificate, so there is no program to compare"
    claim = next((c for c in claims if c.id == doc["claim"]["id"]), None)
    why = None if claim is None else sizes_difference(claim, doc.get("sizes"))
    if why is not None:  # before any tracing: an instance outside the statement is no instance of it
        return False, why
    if "nonexistence" in doc:
        from ..certificate.exists import difference as exists_difference

        why = exists_difference(claims, claim_file, doc)
    else:
        why = difference(claims, claim_file, doc)
    if why is None:
        why = instance_reading(claim, doc)
    if why is not None:
        return False, why
    return True, (f"the claim, its variables and the program are those of {claim_file}, "
                  "and its own code read without the tracer refutes it too")


PEEK = 1 << 16  # bytes read to tell a text file from a binary one


def judged(path, claims: list | None, claim_file, show_program: bool = False) -> tuple[bool, str]:
    """The checker's verdict and line, then the solvers' for an existential certificate, then,
    with claims, the binding to them: what `bnproof check` and `bnproof.check` both report."""
    from ..checker.kernel import checked

    accepted, line, doc = checked(path, show_program)
    if accepted and doc is not None and doc.get("nonexistence", {}).get("method") == "smt":
        # existential: re-run z3 and cvc5 (imported only for such a certificate: check stays light)
        from ..certificate.exists import confirm_line

        accepted, line = confirm_line(accepted, line, doc)
    if accepted and doc.get("kind") == "proof":  # bound even without --claim where the claim is known
        accepted, why = bind_proof(claims, claim_file, doc)
        if why is not None:
            line = f"{line}; {why}" if accepted else f"REJECTED {path}: {why}"
    elif accepted and claims is not None:
        accepted, why = bind(claims, claim_file, doc)  # the very document the checker accepted
        head, sep, tail = line.partition("\n")
        line = f"{head}; {why}{sep}{tail}" if accepted else f"REJECTED {path}: {why}"
    return accepted, line


def unreadable(path: Path) -> str | None:
    """Why the file is no certificate to check at all (missing, unreadable, empty or
    binary): bad input (exit 3), not a certificate the checker rejected (exit 6).
    None for any text file, which the checker then judges."""
    import codecs
    import os
    import stat

    nonblock = getattr(os, "O_NONBLOCK", 0)  # opening a FIFO must not wait for a writer
    try:
        fd = os.open(path, os.O_RDONLY | nonblock)
    except OSError as err:
        return f"cannot read {path}: {err.strerror or type(err).__name__}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or device: refused, never waited on
            return f"cannot read {path}: not a regular file"
        with os.fdopen(fd, "rb", closefd=False) as file:
            head = file.read(PEEK)
    except OSError as err:
        return f"cannot read {path}: {err.strerror or type(err).__name__}"
    finally:
        os.close(fd)
    if len(head) < PEEK and not head.strip():
        return f"{path} is empty"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return f"{path} is not a text file (not UTF-8): a certificate is JSON"
    if b"\0" in head:
        return f"{path} is not a text file (it holds NUL bytes): a certificate is JSON"
    return None
