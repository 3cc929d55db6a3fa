"""What a confirmation says: the reference reading agrees with the engine, disagrees,
or cannot tell, with one line of why.  Its own floor, below confirm.py (exact
values) and floats.py (float checks), which both answer with it."""

from __future__ import annotations

from dataclasses import dataclass

AGREES, DISAGREES, INCONCLUSIVE = "agrees", "disagrees", "inconclusive"


@dataclass(frozen=True)
class Confirmation:
    status: str  # agrees | disagrees | inconclusive
    detail: str  # one line
    compared: int = 0  # confirm_program: instances compared
    # a float check's inconclusive for want of any float number to compare (the claim's code
    # raised under floats, or floats overflow along the exact reading's own operations too,
    # or a decision within rounding of a tie): no evidence either way.  Any other inconclusive
    # float check saw floats compute a number the exact reading's operations do not explain
    # the size of: the verdict it was asked about is withheld (floats.py)
    silent: bool = False
