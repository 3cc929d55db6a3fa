"""(Σy⁶⁴)⁶⁴·⁶⁴ − Σy² ≥ 0 at y = (10⁴⁰⁰, 10⁻⁴⁰⁰): the decision reads signs from bounded balls, but
`verify` then wrote the residual out with SymPy, a rational of about 10⁸ digits: it hung."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="rt22/huge-powers", source="red team", statement="x", variables=(Var("y", ("m",)),),
              sizes={"m": (2, 3)}, residual=lambda xp, y: (xp.sum(y ** 64) ** 64) ** 64 - xp.sum(y ** 2))
