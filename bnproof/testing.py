"""Claims as tests (docs/testing.md).

`check_claim(claim)` decides the pinned examples exactly, then fuzzes the
claim, and raises an AssertionError unless it survives: a refuted claim with
its exact counterexample in the message (as Hypothesis reports a falsifying
example; typeset as the report shows it, 1 − √2), a vacuous or undecided one with its reason.  `holds(claim)` makes a
test function of it, `claim_test(claim)` a test with no body, and
`example(...)` pins an instance that is always decided exactly first::

    from bnproof.testing import claim_test, example, holds

    test_bounded = claim_test("claims/bounded.py", time_budget=10)

    @example(y=[1, 2, 3], gamma=1, beta=0)
    @holds("claims/mean.py", time_budget=10)
    def test_mean(result):
        assert result.met_hypotheses > 100

Only the Python standard library is imported here; the engine comes with the
first claim checked.  A refutation fails a test only once it is confirmed
exactly and its certificate is accepted by the independent checker.
"""

from __future__ import annotations

import functools
import inspect
import math
from fractions import Fraction

__all__ = ["ClaimFailed", "ClaimNotEstablished", "ClaimRefuted", "check_claim", "claim_test", "example",
           "holds"]

_PINS = "__bnproof_examples__"


class ClaimFailed(AssertionError):
    """A claim test failed; `result` is the FuzzResult (None for a pinned example)."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class ClaimRefuted(ClaimFailed):
    """The claim is false: an exact counterexample, certified."""


class ClaimNotEstablished(ClaimFailed):
    """Vacuous or undecided: the search established nothing, or a pinned
    example is outside the claim or cannot be decided."""


def example(**values):
    """Pin an instance (each variable of the claim by name; ints, Fractions,
    "p/q" strings, or floats read as the decimal they print as) on a test made
    by `holds` or `claim_test`.  Pinned instances are decided exactly before
    any search, top to bottom; one that refutes the claim fails the test with
    it, one outside the claim's hypotheses fails it too (a pin is meant to be
    inside)."""

    def pin(test):
        setattr(test, _PINS, [values, *getattr(test, _PINS, [])])
        return test

    return pin


def check_claim(claim, *, examples=(), search: bool = True, **fuzz_options):
    """Assert that `claim` (a Claim, an id or alias, or a claim file with one
    claim) survives: decide each of `examples` (dicts of values) exactly, then
    (unless search=False) `bnproof.fuzz(claim, **fuzz_options)`.  Returns the
    FuzzResult (None with search=False); raises ClaimRefuted with the exact
    counterexample, or ClaimNotEstablished with the reason."""
    __tracebackhide__ = True
    from ._api.claims import one
    from ._api.fuzz import fuzz

    c = one(claim)
    for k, values in enumerate(examples, 1):
        _decide_pin(c, values, k)
    if not search:
        return None
    result = fuzz(c, **fuzz_options)
    if result.verdict == "refuted":
        raise ClaimRefuted(_falsified(c, result.counterexample_lines(),
                                      f"found by fuzz, seed {result.seed}, after {result.instances} "
                                      "instances") + _certificate_note(result), result)
    if result.verdict in ("vacuous", "undecided"):
        raise ClaimNotEstablished(f"{c.id} ({c.source}) is {result.verdict}, not established:\n"
                                  + result.text(), result)
    return result


def holds(claim, *, examples=(), search: bool = True, **fuzz_options):
    """A decorator: the function becomes a test that runs check_claim(claim,
    ...) with the pins of @example, then its own body, given the FuzzResult
    if it takes an argument."""

    def decorate(fn):
        wants_result = bool(inspect.signature(fn).parameters)

        @functools.wraps(fn)
        def test():
            __tracebackhide__ = True
            pins = [*examples, *getattr(fn, _PINS, []), *getattr(test, _PINS, [])]
            result = check_claim(claim, examples=pins, search=search, **fuzz_options)
            return fn(result) if wants_result else fn()

        del test.__wrapped__  # pytest must not look for a fixture named like fn's argument
        test.__signature__ = inspect.Signature()
        return test

    return decorate


def claim_test(claim, *, examples=(), search: bool = True, **fuzz_options):
    """A test function that passes exactly when check_claim(claim, ...) does:
    `test_my_claim = claim_test("my_claim.py", time_budget=10)`."""
    name = getattr(claim, "id", None) or str(claim)
    if name.endswith(".py"):
        name = name.rsplit("/", 1)[-1][:-3]

    def test():
        pass

    test.__name__ = test.__qualname__ = "test_" + "".join(ch if ch.isalnum() else "_" for ch in str(name))
    test.__doc__ = f"{name} survives bnproof.fuzz"
    return holds(claim, examples=examples, search=search, **fuzz_options)(test)


def _decide_pin(claim, values: dict, k: int) -> None:
    __tracebackhide__ = True
    from .claims.decide import HOLDS, OUTSIDE, REFUTED, decide
    from .errors import BadInput
    from .search.certify import Judge, described

    names = [v.name for v in claim.variables]
    if not isinstance(values, dict) or set(values) != set(names):
        given = sorted(values) if isinstance(values, dict) else values
        raise BadInput(f"pinned example {k} of {claim.id} gives {given}; the claim's variables are {names}")
    instance = {name: _exact(values[name], name) for name in names}
    decision = decide(claim, instance)
    if decision.verdict == HOLDS:
        return
    where = f"pinned example {k}"
    if decision.verdict == REFUTED:
        judge = Judge(claim)
        found = judge.confirm(instance)
        if found is not None:
            from ._api.results import counterexample_lines

            found = described(claim, found)
            lines = counterexample_lines(claim, {name: instance[name] for name in names}, found.residual_text,
                                         found.residual_float, found.decided_by)
            raise ClaimRefuted(_falsified(claim, lines, where)
                               + "\nThe violation is exact; its certificate was accepted by the "
                                 "independent checker.")
        raise ClaimNotEstablished(f"{claim.id}: {where} violates the claim exactly, but the checker cannot "
                                  f"certify it, so it is undecided: {judge.rejection}")
    if decision.verdict == OUTSIDE:
        raise ClaimNotEstablished(f"{claim.id}: {where} is outside the claim ({decision.detail}); "
                                  "a pinned example must meet its hypotheses")
    raise ClaimNotEstablished(f"{claim.id}: {where} cannot be decided exactly: {decision.detail}")


def _falsified(claim, lines: list[str], how: str) -> str:
    return f"{claim.id} ({claim.source}) is false; falsifying example ({how}):\n" + "\n".join(lines)


def _certificate_note(result) -> str:
    where = f", written to {result.certificate_path}" if result.certificate_path else ""
    return f"\nThe violation is exact; its certificate was accepted by the independent checker{where}."


def _exact(value, where: str):
    if isinstance(value, (list, tuple)):
        return [_exact(v, where) for v in value]
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _bad(f"{where}: {value!r} is not a finite number")
        return Fraction(repr(value))
    if isinstance(value, bool):
        raise _bad(f"{where}: expected a number, got {value!r}")
    try:
        from .claims.decide import exact_number

        return exact_number(value)
    except (TypeError, ValueError, ZeroDivisionError) as err:
        raise _bad(f"{where}: {value!r} is not an exact number ({err})") from None


def _bad(message: str):
    from .errors import BadInput

    return BadInput(message)
