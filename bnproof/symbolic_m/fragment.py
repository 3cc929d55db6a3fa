"""What the symbolic-length backend cannot express: a claim that needs it is
"not in the provable fragment", with the reason, and is never approximated."""

from __future__ import annotations


class OutsideFragment(Exception):
    """The claim uses something outside the fragment (reason: "uses relu", ...)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class NotDefined(Exception):
    """An operation is undefined everywhere (a division by a scalar that is formally 0)."""


def outside(what: str):
    raise OutsideFragment(f"uses {what}")


def refuse(what: str):
    """A namespace function the fragment lacks: calling it says which."""
    def function(*args, **kwargs):
        outside(what)
    function.__name__ = what
    return function
