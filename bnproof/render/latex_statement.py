"""A claim's statement as printed, from an untrusted certificate, made safe for LaTeX.

A certificate's statement is text someone else wrote, and LaTeX is a
programming language (\\input, \\write, \\catcode, ^^ escapes).  Only formula
notation passes: an allow-list of control words, no characters with special
catcodes beyond math ones, balanced braces and \\left/\\right.  Anything else
is a one-line BadInput.
"""

from __future__ import annotations

import re

from ..errors import BadInput
from .latex_break import ParseError, parse

MAX_CHARS = 2000

_GREEK = ("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
          "nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma "
          "Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega").split()
ALLOWED = set(_GREEK) | set((
    "left right frac dfrac tfrac sqrt sum prod max min sup inf lim log exp ln det "
    "cdot times leq geq le ge neq ne lt gt approx equiv sim implies iff to mapsto in notin "
    "subset subseteq forall exists hat widehat tilde widetilde bar overline mathbf mathbb "
    "mathcal mathrm mathit boldsymbol text top partial nabla langle rangle quad qquad infty "
    "ldots cdots dots big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr "
    "operatorname mid vert Vert pm mp circ ast star prime emptyset colon "
    "arccos cos sin tan arctan tanh angle"
).split())
_CONTROL_SYMBOLS = set(r"|,;:! {}")
_CHARS = re.compile(r"[A-Za-z0-9 +\-*/=<>()\[\].,;:!?'|_^{}\\]*")


def safe_statement(statement) -> str:
    """The statement if it is plain formula notation; BadInput naming the problem otherwise."""
    if not isinstance(statement, str) or not statement.strip():
        raise BadInput("the certificate's claim statement is not a non-empty string")
    if len(statement) > MAX_CHARS:
        raise BadInput(f"the claim statement has more than {MAX_CHARS} characters")
    bad = _CHARS.fullmatch(statement)
    if bad is None:
        char = next(c for c in statement if not _CHARS.fullmatch(c))
        raise BadInput(f"the claim statement contains {char!r}, which is not allowed in a "
                       "formula printed from a certificate")
    if "^^" in statement:
        raise BadInput("the claim statement contains '^^' (a TeX character escape)")
    for match in re.finditer(r"\\([A-Za-z]+|.)", statement):
        name = match.group(1)
        if name.isalpha() and name not in ALLOWED:
            raise BadInput(f"the claim statement uses \\{name}, which is not formula notation "
                           "bnproof prints from a certificate")
        if not name.isalpha() and name not in _CONTROL_SYMBOLS:
            raise BadInput(f"the claim statement uses \\{name}, which is not allowed")
    try:
        parse(statement)
    except ParseError as err:
        raise BadInput(f"the claim statement is not a well-formed formula: {err}") from None
    return statement
