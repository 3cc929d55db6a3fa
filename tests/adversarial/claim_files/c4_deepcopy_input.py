"""Class 4, TRUE: a deep copy of an input vector (Σ y∘g = Σ copy(y)∘g).

The copied recorder made `prove` crash with an IndexError (exit 8)."""
import copy

from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/deepcopy-input", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)), Var("g", ("m",))), sizes={"m": (2, 4)},
              residual=lambda xp, y, g: xp.sum(copy.deepcopy(y) * g) - xp.sum(y * g))
