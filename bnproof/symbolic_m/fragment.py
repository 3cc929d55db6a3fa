"""What the symbolic-length backend cannot express: a claim that needs it is
"not in the provable fragment", with the reason, and is never approximated.

A refusal is an exception, and a claim (or a helper module it imports) may catch
exceptions: `try: … except Exception:` would then trace the fallback branch, and
the proof would be of a program numpy never runs.  So a refusal is first
*recorded* on the trace it happened in (the trace is poisoned), then raised;
`trace.program_for` rejects a poisoned trace after the claim returns, whatever
the claim caught.

Which traces a refusal poisons: those its caller names (a traced value knows its
recorder), and every trace active in the current context (`tracing`).  The
active traces live in a context variable, not a global: a trace in another
thread or task never sees them, and a nested trace's exit restores the outer
list exactly.  A refusal inside a nested trace poisons the outer one too: it was
raised inside the outer claim's code, which may branch on it.
"""

from __future__ import annotations

import contextlib
import contextvars


class OutsideFragment(Exception):
    """The claim uses something outside the fragment (reason: "uses relu", ...)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RefusedAttribute(OutsideFragment, AttributeError):
    """An attribute the tracer refuses to answer: an AttributeError too, so that
    `getattr(v, "size", 1)` and `hasattr` see no attribute; the trace is poisoned
    all the same (the claim is then outside the fragment)."""


class NotDefined(Exception):
    """An operation is undefined everywhere (a division by a scalar that is formally 0)."""


_ACTIVE: contextvars.ContextVar[tuple] = contextvars.ContextVar("bnproof_symbolic_m_traces", default=())


@contextlib.contextmanager
def tracing(trace):
    """`trace` (anything with poison(reason)) is active in this context until the block ends."""
    token = _ACTIVE.set(_ACTIVE.get() + (trace,))
    try:
        yield trace
    finally:
        _ACTIVE.reset(token)


def poison(reason: str, *owners) -> None:
    """Record the refusal on the named traces and on every active one (each once)."""
    seen = set()
    for trace in (*owners, *_ACTIVE.get()):
        if trace is not None and id(trace) not in seen:
            seen.add(id(trace))
            trace.poison(reason)


def outside(what: str, *owners, error: type = OutsideFragment):
    reason = f"uses {what}"
    poison(reason, *owners)
    raise error(reason)


def refuse(what: str, *owners):
    """A namespace function the fragment lacks: calling it says which."""
    def function(*args, **kwargs):
        outside(what, *owners)
    function.__name__ = what
    return function
