"""TRUE (p = cube root of x) — but no rational witness the engine confirms at every x; used only
as the claim file a certificate of root_true.py's program is NOT of."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="rt22/root", source="red team", statement=r"\forall x \exists p: p^2 = x", kind="identity",
              variables=(Var("x", ()),), exists=(Var("p", ()),), residual=lambda xp, x, p: p * p * p - x)
