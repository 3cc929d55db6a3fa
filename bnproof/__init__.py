"""bnproof: check claims about batch normalization exactly, independently and at scale.

The Python API (docs/api.md): each command of the command line is a function
returning a result object.  Importing bnproof is cheap: JAX, SymPy and
Hypothesis are imported only when a function needs them."""

__version__ = "0.1.0"

from ._api.check import check as check
from ._api.claims import load as load
from ._api.fuzz import fuzz as fuzz
from ._api.latex import latex as latex
from ._api.results import CheckResult as CheckResult
from ._api.results import FuzzResult as FuzzResult
from ._api.results import VerifyResult as VerifyResult
from ._api.verify import verify as verify
from .claims.api import Claim as Claim
from .claims.api import Var as Var
from .errors import BnproofError as BnproofError

__all__ = ["BnproofError", "CheckResult", "Claim", "FuzzResult", "Var", "VerifyResult", "check", "fuzz",
           "latex", "load", "verify"]
