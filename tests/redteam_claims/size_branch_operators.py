"""Python operators the every-d tracer's values lacked (//, %, divmod, >>, &, 2 ** d,
round, abs): Python raised a TypeError the trace never saw, and `except TypeError: 0`
took a branch numpy never takes.  (d // 5)·(d % 2) is 1 at d = 5 only, beyond the
(m, d) the second reading compares at (d <= 4): "proved for every m and every d",
false at d = 5 (Σw²), refuted by fuzz."""
from bnproof.claims import Claim, Var


def guarded(f, n):
    try:
        return f(n)
    except TypeError:
        return 0


CLAIM = Claim(id="redteam/size-branch-operators", source="red team", kind="identity", statement="0 = 0",
              variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
              residual=lambda xp, X, w: xp.sum(w * w) * guarded(lambda d: (d // 5) * (d % 2), X.shape[1]))
