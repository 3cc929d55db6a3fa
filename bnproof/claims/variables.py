"""A variable a claim quantifies over (claims/api.py's Var), on a floor of its own:
the claim format (api.py) expands a Law (law.py) into Vars when a Claim is
made, so both import it from here."""

from __future__ import annotations

from dataclasses import dataclass

DOMAINS = ("real", "nonzero", "positive", "symmetric")


@dataclass(frozen=True)
class Var:
    """A variable the claim quantifies over: a name, a shape made of size
    names or integers, and a domain."""

    name: str
    shape: tuple = ()
    domain: str = "real"

    def __post_init__(self):
        if self.domain not in DOMAINS:
            raise ValueError(f"variable {self.name}: domain must be one of {DOMAINS}")
        if self.domain == "symmetric" and (len(self.shape) != 2 or self.shape[0] != self.shape[1]):
            raise ValueError(f"variable {self.name}: a symmetric variable needs a square shape")
