"""isinstance(d, int) is True under numpy and in every reading, False for the every-d
tracer's size d: behind it a branch on d >= 5, beyond every (m, d) the second reading
compares at (d <= 4), so the tracer's 0 and the reading's 0 agree while numpy gives
Σw² at d = 5, 6.  Before session 28: "proved for every m and every d", exit 0; fuzz
refuted it at d = 5 with an accepted certificate."""
from bnproof.claims import Claim, Var


def residual(xp, X, w):
    d = X.shape[1]
    return xp.sum(w * w) * (1 if isinstance(d, int) and d >= 5 else 0)


CLAIM = Claim(id="redteam/size-branch-isinstance", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
              residual=residual)

# hasattr(d, "__getnewargs__"): an int has it, the tracer's size answered "absent" without
# recording the question (proved for every d before the fix, as above)
HASATTR = Claim(id="redteam/size-branch-hasattr", source="red team", kind="identity", statement="0 = 0",
                variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
                residual=lambda xp, X, w: xp.sum(w * w) * (1 if hasattr(X.shape[1], "__getnewargs__")
                                                           and X.shape[1] >= 5 else 0))
