"""Section 3, FALSE at every x: tanh(x² + 20) ≥ 1.  The residual is at most
tanh(20) − 1 ≈ −8.5·10⁻¹⁸, which float64 rounds to 0."""
from bnproof.claims import Claim, Var

CLAIM = Claim(id="adv/tanh-near-one", source="adversarial test", statement="x",
              variables=(Var("x"),), residual=lambda xp, x: xp.tanh(x * x + 20) - 1)
