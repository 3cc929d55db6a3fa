"""Confirm the engine's verdicts and programs with the reference reading."""

from __future__ import annotations

from fractions import Fraction

from .confirmation import AGREES, DISAGREES, INCONCLUSIVE, Confirmation
from .errors import Inconclusive, ReadingStop, Refused, Undefined
from .floats import compare_numpy
from .program import PIECEWISE, piecewise_steps, program_values
from .read import OUTSIDE, UNDECIDED, Reading, evaluate, read
from .session import Session, scope
from .values import Value, arith, constant, read_sign, text, _SUB

def _sign_of_difference(session: Session, a: Value, b) -> int:
    """sign(a − b), proved; raises Undefined/Inconclusive/Refused."""
    with scope(session):
        b = b if isinstance(b, Value) else constant(b)
        return read_sign(arith(_SUB, a, b))


def confirm(claim, instance: dict, decision, witness: dict | None = None) -> Confirmation:
    """Does the engine's Decision (claims/decide.py: verdict, residual Sign with an exact
    enclosing Interval) agree with the reference reading at `instance`?  Disagrees when
    both decided and the verdicts differ, the residual's signs differ, or the engine's
    interval excludes the reference value (proved); inconclusive when either cannot
    decide."""
    reading = read(claim, instance, witness)
    engine = getattr(decision, "verdict", None)
    if reading.verdict == UNDECIDED:
        return Confirmation(INCONCLUSIVE, f"the reference cannot decide: {reading.detail}")
    if engine in (None, UNDECIDED):
        return Confirmation(INCONCLUSIVE, "the engine did not decide; the reference reads "
                                          f"{reading.verdict} ({reading.detail})")
    if engine != reading.verdict:
        return Confirmation(DISAGREES, f"the engine says {engine}, the reference reads {reading.verdict} "
                                       f"({reading.detail})")
    residual = getattr(decision, "residual", None)
    if engine == OUTSIDE or reading.value is None or residual is None:
        return Confirmation(AGREES, f"both read {engine}")
    if residual.sign is not None and residual.sign != reading.sign:
        return Confirmation(DISAGREES, f"the engine's residual has sign {residual.sign}, the reference's "
                                       f"{reading.sign} ({reading.detail})")
    interval = getattr(residual, "value", None)
    if interval is not None:
        session = Session()
        for bound, side, name in ((interval.lo, 1, "lower"), (interval.hi, -1, "upper")):
            if bound is None:
                continue
            try:
                s = _sign_of_difference(session, reading.value, Fraction(bound))
            except ReadingStop as err:
                return Confirmation(INCONCLUSIVE, f"comparing the residual with the engine's enclosure: "
                                                  f"{err.reason}")
            if s * side < 0:
                return Confirmation(DISAGREES, f"the engine's enclosure [{interval.lo}, {interval.hi}] excludes "
                                               f"the reference's residual {text(reading.value.e)} "
                                               f"(beyond its {name} end)")
    return Confirmation(AGREES, f"both read {engine}, residual {text(reading.value.e, 80)}")


def _split(claim, instance: dict):
    names = {v.name for v in getattr(claim, "exists", ())}
    if not names:
        return instance, None
    return ({k: v for k, v in instance.items() if k not in names},
            {k: v for k, v in instance.items() if k in names})


def _indices(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def confirm_program(claim, program: dict, instances, everywhere: bool = True) -> Confirmation:
    """Is `program` (certificate format, fixed sizes: steps, residual, hypotheses,
    equalities) the claim's residual and hypotheses?  At each instance (for an
    existential claim, with values of its existential variables too) every value the
    program and the reference both define must be exactly equal, and numpy's float64
    reading of the claim must agree with them within rounding (floats.py); an instance
    where the residual is undefined on either side is not compared, and at least one
    must be.  numpy's float check fails closed: at an instance compared, floats that
    computed a number the exact reading's operations do not explain (floats.py: an
    inconclusive that is not silent) make the confirmation inconclusive; for a proof
    (everywhere) so does a float check that compared nothing at any instance.

    Agreement at instances reaches the others only where the claim's code is what a
    straight-line program can be.  So it is inconclusive when the claim's own code asked
    a value something in Python (a comparison, a truth value, a hash, its text, its
    class: values.py), which no program records and which may steer the code off the
    instances compared, or took a decision of abs, max, min or guard where the
    program's outputs read no such step (a piecewise claim read as a smooth program).
    With everywhere=False (a refutation, which speaks of its own instance only) those two
    rules are not applied: equality at the instances compared is all that is asked."""
    try:
        steps = program["steps"]
        parts = [("residual", _indices(program["residual"])),
                 ("hypothesis", _indices(program.get("hypotheses", ()))),
                 ("equality", _indices(program.get("equalities", ())))]
        outputs = [i for _, indices in parts for i in indices]
        smooth = not piecewise_steps(steps, outputs)
    except (KeyError, TypeError, ValueError) as err:
        return Confirmation(INCONCLUSIVE, f"not a program in the certificate format: {err}")
    compared, skipped, observed, piecewise = 0, [], [], False
    floats_agree, floats_silent = 0, None
    for number, instance in enumerate(instances, 1):
        universal, witness = _split(claim, instance)
        session = Session(track=True)
        try:
            reference = evaluate(claim, universal, witness, session=session)
            if isinstance(reference, Reading):
                skipped.append(f"instance {number}: {reference.detail}")
                continue
            values = program_values(steps, outputs, instance, session=session)
        except KeyboardInterrupt:
            raise
        except ReadingStop as err:
            skipped.append(f"instance {number}: {err.reason}")
            continue
        except (ValueError, TypeError, KeyError) as err:
            return Confirmation(INCONCLUSIVE, f"instance {number}: {type(err).__name__}: {err}")
        runs = [reference[0], *reference[1], *reference[2]]
        observed.extend(w for run in runs for w in run.observed if w not in observed)
        piecewise = piecewise or any(run.piecewise for run in runs)
        outcome = _compare(session, number, parts, values, reference)
        if isinstance(outcome, Confirmation):
            return outcome
        if outcome is not True:
            skipped.append(outcome)
            continue
        compared += 1
        numpy = compare_numpy(claim, universal, witness, {"residual": [reference[0]],
                                                          "hypothesis": reference[1],
                                                          "equality": reference[2]})
        if numpy.status == DISAGREES:
            return Confirmation(DISAGREES, f"instance {number}: the program and the claim's exact reading "
                                           f"agree, numpy's float64 reading does not: {numpy.detail}")
        if numpy.status == INCONCLUSIVE and not numpy.silent:  # floats computed something else
            return Confirmation(INCONCLUSIVE, f"instance {number}: the program and the claim's exact reading "
                                              f"agree, numpy's float64 reading cannot be compared: {numpy.detail}",
                                compared)
        if numpy.status == AGREES:
            floats_agree += 1
        else:
            floats_silent = floats_silent or f"instance {number}: {numpy.detail}"
    if not compared:
        why = f" ({skipped[0]})" if skipped else ""
        return Confirmation(INCONCLUSIVE, f"no instance could be compared{why}")
    if everywhere and not floats_agree:
        return Confirmation(INCONCLUSIVE, f"numpy's float64 reading of the claim confirmed no instance "
                                          f"({floats_silent})", compared)
    if observed and everywhere:
        return Confirmation(INCONCLUSIVE, f"the claim's own code asks {observed[0]} in Python, which no "
                                          "program records: agreement at the instances compared says "
                                          "nothing of the others", compared)
    if piecewise and smooth and everywhere:
        return Confirmation(INCONCLUSIVE, f"the claim's own code takes decisions of "
                                          f"{'/'.join(sorted(PIECEWISE))} where the program has none: "
                                          "agreement at the instances compared says nothing of the others",
                            compared)
    return Confirmation(AGREES, f"the program equals the claim at {compared} instance"
                                f"{'s' if compared != 1 else ''}", compared)


def _compare(session, number: int, parts, values: list, reference):
    """True when the residual was compared (and everything compared was equal), a reason
    string when it could not be, a disagreeing Confirmation otherwise."""
    residual, hypotheses, equalities = reference
    outcomes = {"residual": [residual], "hypothesis": hypotheses, "equality": equalities}
    position, residual_compared, undecided = 0, False, None
    for what, indices in parts:
        claim_entries = []
        for outcome in outcomes[what]:
            if outcome.entries is None:
                if outcome.error is not None or isinstance(outcome.stop, (Refused, Inconclusive)):
                    why = outcome.error or outcome.stop.reason
                    return f"instance {number}: the reference cannot read the claim's {what}: {why}"
                claim_entries = None  # undefined: nothing to compare
                break
            claim_entries.extend(outcome.entries)
        mine = values[position:position + len(indices)]
        position += len(indices)
        if claim_entries is None:
            continue
        if len(claim_entries) != len(indices):
            return Confirmation(DISAGREES, f"the program has {len(indices)} {what} values, the claim "
                                           f"{len(claim_entries)}")
        for k, (a, b) in enumerate(zip(claim_entries, mine)):
            if a.bad is not None or b.bad is not None:
                continue
            try:
                s = _sign_of_difference(session, a, b)
            except Undefined:
                continue
            except (Inconclusive, Refused) as err:  # both defined: only their difference's sign is unknown
                if what == "residual" and undecided is None:
                    undecided = getattr(err, "reason", None) or str(err)
                continue
            if s != 0:
                return Confirmation(DISAGREES, f"instance {number}: the program's {what} {k + 1} is "
                                               f"{text(b.e, 60)}, the claim's is {text(a.e, 60)}")
            if what == "residual":
                residual_compared = True
    if residual_compared:
        return True
    if undecided is not None:
        return (f"instance {number}: the program's residual and the claim's are both defined, but the "
                f"exact reading could not decide whether they are equal: {undecided}")
    return f"instance {number}: the residual is undefined"
