"""Red team (session 28): an expectations claim whose code branches on `type(n) is int`
at one batch size inside its declared range (n = 6).  No traced size can refuse
`type()`, so only a second reading compared at n = 6 sees the branch; at n = 6 the
claim is E[μ_B] = E[X] + 1, false."""

from bnproof.claims import Claim, Law, Var

X = Law("X", (), "k")


def _mean(xp, B):
    return xp.mean(B)


def _residual(xp, X, batch):
    n = batch.shape[0]
    wrong = 1 if type(n) is int and n == 6 else 0
    return xp.expect(_mean, X, n) - xp.expect(lambda xp, B: B[0], X, 1) - wrong


MEAN_BRANCH = Claim(id="redteam/moments-size-branch-type", source="red team", statement="E[mu_B] = E[X]",
                    kind="identity", variables=(X, Var("batch", ("m",))), sizes={"k": (1, 2), "m": (2, 6)},
                    residual=_residual)
MEAN_WIDE = Claim(id="redteam/moments-wide-range", source="red team", statement="E[mu_B] = E[X]",
                  kind="identity", variables=(X, Var("batch", ("m",))), sizes={"k": (1, 2), "m": (2, 9)},
                  residual=lambda xp, X, batch: xp.expect(_mean, X, batch.shape[0])
                  - xp.expect(lambda xp, B: B[0], X, 1))
