"""Random variables in claims: a ``Law`` is a discrete distribution with rational
support points and probabilities, quantified over like any other variable.

``Law("X", shape=("d",), points="k")`` in a claim's variables stands for two
ordinary variables, ``X_support`` (shape (k, d), real) and ``X_weights``
(shape (k,), positive), and the claim's functions receive ``X=`` a
``Distribution`` built from them in the backend at hand (probabilities =
weights / sum(weights)).  The expansion happens once, when the Claim is made,
so search, exact decision, certificates and the checker see only ordinary
variables and an ordinary program: the certificate's instance is the support
and the weights, and its program includes the normalisation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .variables import Var

SUFFIXES = ("_support", "_weights")
# the checker's variable names are at most 32 characters (checker/variables.py NAME)
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,23}")


@dataclass(frozen=True)
class Law:
    """A discrete law on `shape`-shaped values with `points` support points
    (an integer, or a size name with a range in the claim's sizes)."""

    name: str
    shape: tuple = ()
    points: int | str = "k"

    def __post_init__(self):
        if not isinstance(self.name, str) or not NAME.fullmatch(self.name):
            raise ValueError(f"law {self.name!r}: a name of at most 24 letters, digits or _ "
                             "(it names the variables <name>_support and <name>_weights)")
        if not isinstance(self.shape, tuple):
            raise ValueError(f"law {self.name}: shape must be a tuple, e.g. ('d',) or ()")
        if isinstance(self.points, bool) or not isinstance(self.points, (int, str)) or \
                isinstance(self.points, int) and self.points < 1:
            raise ValueError(f"law {self.name}: points must be a size name or an integer >= 1")

    def variables(self) -> tuple[Var, Var]:
        return (Var(self.name + SUFFIXES[0], (self.points, *self.shape)),
                Var(self.name + SUFFIXES[1], (self.points,), "positive"))


@dataclass(frozen=True)
class Distribution:
    """What a claim's function receives for a Law: `support` (points × shape) and
    `probabilities` (points,), arrays of the backend's scalars; `shape` is the
    shape of one draw."""

    name: str
    support: object
    probabilities: object
    xp: object = field(default=None, compare=False, repr=False)  # the namespace it was made in
    moments: dict = field(default_factory=dict, compare=False, repr=False)  # claims/moments.py's cache

    @property
    def shape(self) -> tuple:
        return tuple(self.support.shape[1:])

    @property
    def points(self) -> int:
        return int(self.support.shape[0])


def distribution(xp, name: str, support, weights) -> Distribution:
    weights = xp.asarray(weights)
    return Distribution(name, xp.asarray(support), weights / xp.sum(weights), xp)


def _with_distributions(fn, laws: tuple[Law, ...]):
    """fn(xp, ..., X=Distribution) as a function of the expanded variables."""

    def wrapped(xp, **values):
        for law in laws:
            support = values.pop(law.name + SUFFIXES[0])
            weights = values.pop(law.name + SUFFIXES[1])
            values[law.name] = distribution(xp, law.name, support, weights)
        return fn(xp, **values)

    wrapped.__wrapped__ = fn
    wrapped.__doc__ = fn.__doc__
    wrapped.bnproof_laws = tuple(law.name for law in laws)  # law_names: reports show the laws
    return wrapped


def law_names(claim) -> tuple[str, ...]:
    """The names of the claim's laws, whose two variables each (NAME_support, NAME_weights)
    a report shows as the distribution they are; () for a claim without laws, or for a
    claim whose variables merely end so (only expand_laws marks a law)."""
    names = getattr(getattr(claim, "residual", None), "bnproof_laws", ())
    return tuple(n for n in names if isinstance(n, str))


def expand_laws(claim) -> None:
    """Replace the Law declarations of a (frozen) Claim by their two variables and
    wrap its residual, hypotheses, equalities and quantities; nothing to do for a claim
    without laws (so a dataclasses.replace of an expanded claim does not expand it twice)."""
    laws = tuple(v for v in claim.variables if isinstance(v, Law))
    if not laws:
        return
    # an existential variable of a law's name would be silently replaced by the Distribution
    names = [v.name for v in claim.variables] + [getattr(v, "name", None) for v in claim.exists]
    for law in laws:
        taken = [x for x in (law.name, *(law.name + s for s in SUFFIXES)) if names.count(x) > (x == law.name)]
        if taken:  # the function would receive one name for two values
            raise ValueError(f"claim {claim.id}: the name {taken[0]} is taken twice (law {law.name})")
    variables = tuple(x for v in claim.variables
                      for x in (v.variables() if isinstance(v, Law) else (v,)))
    object.__setattr__(claim, "variables", variables)
    # every function of the claim gets what the residual gets: a Distribution, never the
    # two variables it stands for
    object.__setattr__(claim, "residual", _with_distributions(claim.residual, laws))
    object.__setattr__(claim, "hypotheses", tuple(_with_distributions(h, laws) for h in claim.hypotheses))
    object.__setattr__(claim, "equalities", tuple(_with_distributions(e, laws) for e in claim.equalities))
    object.__setattr__(claim, "hints", tuple(_with_distributions(h, laws) for h in claim.hints))
    if isinstance(claim.quantities, dict):  # anything else is refused by the claim's own checks
        object.__setattr__(claim, "quantities", {
            name: _with_distributions(q, laws) if callable(q) else q for name, q in claim.quantities.items()})
