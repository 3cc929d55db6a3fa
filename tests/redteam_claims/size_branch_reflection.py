"""The value of d read by reflection: numpy's int pickles as (int, 5), so
d.__reduce_ex__(2)[1][1] is 5; vars(d) raises for an int.  The every-d tracer's size
pickled as its own class and had a __dict__: the claim took a branch numpy never takes,
and d >= 5 behind it hid beyond the second reading's d <= 4 ("proved for every m and
every d", false at d = 5, 6).  The every-m tracer already refused both."""
from bnproof.claims import Claim, Var


def value(n):
    try:
        return n.__reduce_ex__(2)[1][1]
    except Exception:  # noqa: BLE001
        return 0


def has_no_dict(n):
    try:
        vars(n)
        return False
    except TypeError:
        return True


PICKLE = Claim(id="redteam/size-branch-pickle", source="red team", kind="identity", statement="0 = 0",
               variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
               residual=lambda xp, X, w: xp.sum(w * w) * (1 if value(X.shape[1]) >= 5 else 0))

VARS = Claim(id="redteam/size-branch-vars", source="red team", kind="identity", statement="0 = 0",
             variables=(Var("X", ("m", "d")), Var("w", ("d",))), sizes={"m": (2, 3), "d": (1, 6)},
             residual=lambda xp, X, w: xp.sum(w * w) * (1 if has_no_dict(X.shape[1]) and X.shape[1] >= 5 else 0))
