"""Section 2, TRUE: with c on the set c = E[X] (an equality hypothesis that reads the
law), c − E[X] ≥ 0.  The equality must receive the law X, as the residual does."""
from bnproof.claims import Claim, Law, Var


def _mean(xp, X):
    return xp.expect(lambda xp, B: B[0], X, 1)


CLAIM = Claim(id="adv/law-equality", source="adversarial test", statement="x",
              variables=(Law("X", (), "k"), Var("c")), sizes={"k": (1, 2)},
              equalities=(lambda xp, X, c: c - _mean(xp, X),),
              residual=lambda xp, X, c: c - _mean(xp, X))
