"""∀x ∃p: p·p = x: false at x = −1.  Its twin root_forged.py (p·p·p = x) has a witness at every x."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="rt22/root", source="red team", statement=r"\forall x \exists p: p^2 = x", kind="identity",
              variables=(Var("x", ()),), exists=(Var("p", ()),), residual=lambda xp, x, p: p * p - x)
