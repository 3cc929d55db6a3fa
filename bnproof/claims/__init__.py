"""Claims from the literature and from users: the format, and the papers' claims."""

from .api import Claim as Claim
from .api import Var as Var
from .law import Law as Law
from .naming import hypothesis as hypothesis
