"""Class 4, FALSE, with a value to get right: Σy² − Σy = 0 (at y = (1, 2): 5 − 3 = 2).

Refuting it is right; a certificate that states another residual value is not."""
import copy

from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/deepcopy-value", source="adversarial test", statement="x", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 3)},
              residual=lambda xp, y: copy.deepcopy(xp.sum(y * y)) - xp.sum(y))
