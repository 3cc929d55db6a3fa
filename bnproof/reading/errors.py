"""Why a reading stops short of a value.

The three stops derive from BaseException, not Exception: a claim's own
``try: … except Exception:`` must not turn the reference's refusal into a
fallback branch (class 2 of issue 22).  Whatever the claim catches anyway (a
bare ``except:``), the session records every stop it raises
(session.Session.stops), and the reading ends with the first of them.
"""

from __future__ import annotations


class ReadingStop(BaseException):
    """The reading cannot give a value; `reason` is one line for the user."""

    kind = "stop"

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Refused(ReadingStop):
    """The claim does what the reference does not read exactly: a float mixed with an exact
    value, a value that escaped its xp.grad, a conversion to float."""

    kind = "refused"


class Undefined(ReadingStop):
    """An operation the claim's value depends on has no value here (a division by 0, the
    root of a negative number, a derivative at a kink): the instance is outside the claim."""

    kind = "undefined"


class Inconclusive(ReadingStop):
    """The reference cannot decide within its limits (a tie of transcendental values, a size
    or work cap): a reason, never a guess."""

    kind = "inconclusive"
