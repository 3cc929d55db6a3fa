"""A deliberately false claim: the BN output never exceeds β + |γ|."""

from bnproof.claims import Claim, Var
from bnproof.claims.blocks import batch_norm, stats

TOY = Claim(
    id="toy/bounded-bn-output", source="a test of bnproof", statement=r"z_b \le \beta + |\gamma|",
    variables=(Var("y", ("m",)), Var("gamma", (), "nonzero"), Var("beta", ())),
    sizes={"m": (2, 5)},
    hypotheses=(lambda xp, y, gamma, beta: stats(xp, y)[1] ** 2,),
    residual=lambda xp, y, gamma, beta: beta + xp.abs(gamma) - batch_norm(xp, y, gamma, beta)[0],
)
