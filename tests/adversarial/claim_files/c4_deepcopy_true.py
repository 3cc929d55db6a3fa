"""Class 4, TRUE: a deep copy of a computed value equals the value.

copy.deepcopy clones the exact backend's step recorder: the copy's index then names
a step of another program, and a "counterexample" of this identity was certified."""
import copy

from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/deepcopy-true", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
              residual=lambda xp, y: copy.deepcopy(xp.sum(y * y)) - xp.sum(y * y))
