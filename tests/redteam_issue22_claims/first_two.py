"""TRUE for the only size it declares (m = 2): y₁ + y₂ = Σy.  `fuzz --size m=3` searches a
size the claim does not declare and refutes a claim nobody made."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="rt22/first-two", source="red team", statement=r"y_1 + y_2 = \sum y", kind="identity",
              variables=(Var("y", ("m",)),), sizes={"m": (2, 2)},
              residual=lambda xp, y: y[0] + y[1] - xp.sum(y))
