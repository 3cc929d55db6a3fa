"""Section 2: E[B₀⁶⁴·B₀] ≥ 2⁶⁴ + 1 for a law on k points.  The claim writes a power
64 and a product, both in the language; the moment algebra makes B₀⁶⁵ of them.
FALSE: on the two-point law {1, 2} with equal weights, E = (1 + 2⁶⁵)/2, and the
residual is −1/2."""
from bnproof.claims import Claim, Law

CLAIM = Claim(id="adv/moment-65", source="adversarial test", statement="x",
              variables=(Law("X", (), "k"),), sizes={"k": (1, 2)},
              residual=lambda xp, X: xp.expect(lambda xp, B: B[0] ** 64 * B[0], X, 1) - 2 ** 64 - 1)
